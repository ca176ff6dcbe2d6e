"""Excel workbooks (``.xlsx``, ``.xlsm``) read with pandas and openpyxl.

One sheet (the first unless named) is read as a table: its first row holds the column
names; empty rows and empty unnamed columns (a sheet's formatted but empty edges) are
dropped. Number cells stay numbers; text cells follow the CSV rules of
:mod:`engine.csv_values` (missing markers, spaces stripped, a few stray text cells in a
number column counted as missing and listed by row); date cells become numbers, seconds
since 1970-01-01 00:00 (times of day: seconds since midnight), with a note. The old
binary ``.xls`` format is refused with what to do instead.
"""
from __future__ import annotations

import datetime as dt
import os
from typing import Optional

import numpy as np
import pandas as pd

from .csv_values import PANDAS_EXTRA_NA, parse_text_columns
from .guards import check_file_fits, check_regular_file
from .notes import Note

EXTENSIONS = (".xlsx", ".xlsm")
OLD_EXTENSIONS = (".xls",)
_ZIP, _OLE2 = b"PK\x03\x04", b"\xd0\xcf\x11\xe0"
OLD_FORMAT_ADVICE = ("the old Excel 97-2003 format (.xls), which this app does not read; "
                     "open it in Excel or LibreOffice and save it as an Excel workbook "
                     "(.xlsx) or as CSV")


def refuse_old_format(path: str) -> None:
    """A ValueError saying that an ``.xls`` file must be saved as ``.xlsx`` or CSV."""
    raise ValueError(f"cannot read {path}: it is in {OLD_FORMAT_ADVICE}")


def sheet_names(path: str) -> list:
    """The names of a workbook's sheets, in order (a ValueError if it cannot be read)."""
    with _workbook(path) as book:
        return list(book.sheet_names)


def read_excel_table(path: str, sheet: Optional[str] = None) -> tuple:
    """Read one sheet of an Excel workbook as a table.

    Parameters
    ----------
    path : str
        An ``.xlsx`` or ``.xlsm`` file.
    sheet : str, optional
        The sheet's name; by default the first sheet.

    Returns
    -------
    (frame, notes, sheets) : (pandas.DataFrame, list of Note, list of str)
        The table (its index is the sheet's row number minus 2, so messages name the
        sheet's rows), what was converted, and the names of all the workbook's sheets.

    Raises
    ------
    ValueError
        One line: not a regular file, too large, an ``.xls`` file or not a workbook, no
        such sheet (listing the sheets); :class:`NotATable` (naming the other sheets) for
        a sheet that holds no table: no rows, or one column (a sheet of notes).
    """
    with _workbook(path) as book:
        sheets = [str(name) for name in book.sheet_names]
        name = _pick_sheet(path, sheets, sheet)
        try:
            frame = pd.read_excel(book, sheet_name=book.sheet_names[sheets.index(name)],
                                  header=0, na_values=PANDAS_EXTRA_NA)
        except (ValueError, KeyError, OSError) as exc:
            raise ValueError(f"cannot read sheet {name!r} of {path}: {exc}") from None
    notes = []
    if len(sheets) > 1:
        notes.append(Note("sheet_read", f"read the sheet {name!r} (the workbook has "
                          f"{len(sheets)}: {', '.join(sheets)}; set \"sheet\" to read another)",
                          {"sheet": name, "sheets": sheets}))
    frame = _trim(frame)
    frame.columns = [str(c).strip() for c in frame.columns]
    if frame.shape[1] < 2:
        raise NotATable(f"the sheet {name!r} of {path} has {frame.shape[1]} column(s): a data "
                        "set needs at least one feature column and a target column, with "
                        "their names in the first row", name, sheets)
    if len(frame) == 0:
        raise NotATable(f"the sheet {name!r} of {path} has no rows of data under its first "
                        "row (the column names)", name, sheets)
    frame, dates = dates_as_seconds(frame)
    if dates:
        notes.append(Note("dates_as_numbers", "date column(s) " + ", ".join(map(repr, dates))
                          + " read as numbers: seconds since 1970-01-01 00:00 (times of day: "
                          "seconds since midnight)",
                          {"columns": dates, "unit": "seconds", "origin": "1970-01-01T00:00:00"}))
    frame, more = parse_text_columns(frame, ",", ".", None)
    return frame, notes + more, sheets


class NotATable(ValueError):
    """A sheet that holds no table (one column, or no rows under the names); the other
    sheets of the workbook may. ``sheet`` is this one, ``sheets`` all of them and
    ``problem`` what is wrong, without the advice on ``"sheet"``."""

    def __init__(self, problem: str, sheet: str, sheets: list):
        super().__init__(problem + _other_sheets(sheets, sheet))
        self.problem, self.sheet, self.sheets = problem, sheet, list(sheets)


def _other_sheets(sheets: list, name: str) -> str:
    others = [s for s in sheets if s != name]
    if not others:
        return ""
    return ("; the workbook's other sheet(s): " + ", ".join(map(repr, others))
            + ' (set "sheet" to read one)')


class _workbook:
    """``pandas.ExcelFile`` opened with openpyxl, every failure a one-line ValueError."""

    def __init__(self, path: str):
        check_file_fits(path, check_regular_file(path, "an Excel workbook"))
        with open(path, "rb") as handle:
            head = handle.read(8)
        if head.startswith(_OLE2):
            refuse_old_format(path)
        if not head.startswith(_ZIP):
            raise ValueError(f"cannot read {path}: it is not an Excel workbook (an .xlsx file "
                             "is a ZIP archive, this one is not); save it from Excel as .xlsx, "
                             "or give a CSV file")
        try:
            self.book = pd.ExcelFile(path, engine="openpyxl")
        except ImportError as exc:
            raise ValueError(f"reading Excel workbooks needs the package openpyxl: {exc}; "
                             "install it (pip install -U openpyxl) or save the sheet as "
                             "CSV") from None
        except Exception as exc:                   # zipfile, XML and openpyxl's own errors
            raise ValueError(f"cannot read {path}: not a valid Excel workbook "
                             f"({type(exc).__name__}: {exc}); save it again from Excel as "
                             ".xlsx, or as CSV") from None

    def __enter__(self):
        return self.book

    def __exit__(self, *exc_info):
        self.book.close()


def _pick_sheet(path: str, sheets: list, wanted: Optional[str]) -> str:
    if not sheets:
        raise ValueError(f"cannot read {path}: the workbook has no sheets")
    if wanted is None:
        return sheets[0]
    if wanted in sheets:
        return wanted
    folded = [s for s in sheets if s.casefold() == str(wanted).strip().casefold()]
    if len(folded) == 1:
        return folded[0]
    raise ValueError(f"there is no sheet {wanted!r} in {os.path.basename(path)}; its sheets "
                     "are: " + ", ".join(sheets))


def _trim(frame: pd.DataFrame) -> pd.DataFrame:
    """Without empty rows and without empty columns that have no name either."""
    frame = frame.loc[frame.notna().any(axis=1).to_numpy()]
    unnamed = [str(c).startswith("Unnamed:") and frame[c].isna().all() for c in frame.columns]
    return frame.loc[:, [not u for u in unnamed]]


def dates_as_seconds(frame: pd.DataFrame) -> tuple:
    """The frame with its date (and time-of-day) columns as seconds, and their names.

    A date-time column becomes seconds since 1970-01-01 00:00 (a time zone, if any,
    respected); a column of times of day, seconds since midnight; a column mixing dates
    with other values is left as it is.
    """
    frame, converted = frame.copy(), []
    for i, column in enumerate(frame.columns):
        values = frame.iloc[:, i]
        seconds = _seconds(values)
        if seconds is not None:
            frame.isetitem(i, seconds)
            converted.append(column)
    return frame, converted


def _seconds(values: pd.Series) -> Optional[pd.Series]:
    if pd.api.types.is_datetime64_any_dtype(values):
        if values.dt.tz is not None:
            values = values.dt.tz_convert("UTC").dt.tz_localize(None)
        return (values - pd.Timestamp(0)) / pd.Timedelta(seconds=1)
    if values.dtype != object:
        return None
    present = values.dropna()
    if present.empty:
        return None
    if all(isinstance(v, dt.time) for v in present):
        return values.map(lambda v: np.nan if not isinstance(v, dt.time) else
                          v.hour * 3600 + v.minute * 60 + v.second + v.microsecond / 1e6)
    if all(isinstance(v, (dt.date, pd.Timestamp)) for v in present):
        return _seconds(pd.to_datetime(values))
    return None
