"""Excel workbooks (``.xlsx``, ``.xlsm``) read with pandas and openpyxl.

One sheet (the first unless named) is read as a table: its first row holds the column
names; empty rows and empty unnamed columns (a sheet's formatted but empty edges) are
dropped. Number cells stay numbers; text cells follow the CSV rules of
:mod:`engine.input.csv_values` (missing markers, spaces stripped, a few stray text cells in a
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

from engine.input.csv_values import PANDAS_EXTRA_NA, parse_text_columns
from engine.input.file_checks import check_file_fits, check_regular_file
from engine.foundation.machine import available_memory
from engine.foundation.errors import EngineError
from engine.foundation.messages import OLD_EXCEL_ADVICE
from engine.foundation.notes import Note
from engine.input.text_lengths import check_text_lengths

EXTENSIONS = (".xlsx", ".xlsm")
OLD_EXTENSIONS = (".xls",)
_ZIP, _OLE2 = b"PK\x03\x04", b"\xd0\xcf\x11\xe0"
#: Largest part of a workbook, uncompressed (bytes): real data sets reach a few hundred MB
#: of sheet XML; openpyxl parses about 5 MB a second, so 1 GB is minutes already.
MAX_PART_BYTES = 1_000_000_000
#: Largest compression ratio of a part above :data:`RATIO_FROM_BYTES`: sheets of real data
#: compress 5 to 30 times; a part compressed far more is padding (a "zip bomb").
MAX_RATIO = 200
RATIO_FROM_BYTES = 10_000_000
#: Largest shared-strings part (``xl/sharedStrings.xml``), unpacked (bytes): openpyxl
#: parses every shared string when it opens a workbook, about 1 MB a second (148 MB took
#: 160 s), and holds them all.
MAX_SHARED_STRINGS_BYTES = 100_000_000
#: Memory per byte of the shared strings while they are parsed and held (7.3 measured
#: for short strings, ``tests/fuzz/test_input_bombs.py``).
SHARED_STRINGS_COPIES = 10
#: Memory per byte of any other part while it is read: one cell can be the whole part,
#: held as XML text and as a Python string.
PART_COPIES = 3
#: Memory per cell of the table as read (the padded rows of Python values, then
#: pandas' columns), for the memory check of a sheet's extent.
BYTES_PER_CELL = 40
OLD_FORMAT_ADVICE = OLD_EXCEL_ADVICE


def refuse_old_format(path: str) -> None:
    """A ValueError saying that an ``.xls`` file must be saved as ``.xlsx`` or CSV."""
    raise EngineError("excel_old_format", {"path": str(path)})


def sheet_names(path: str) -> list:
    """The names of a workbook's sheets, in order (a ValueError if it cannot be read)."""
    with _workbook(path) as book:
        return list(book.sheet_names)


def read_excel_table(path: str, *, sheet: Optional[str] = None) -> tuple:
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
        except SheetTooLarge:
            raise
        except (ValueError, KeyError, OSError) as exc:
            raise EngineError("sheet_unreadable", {"path": str(path), "sheet": name,
                                                   "detail": str(exc)}) from None
    notes = []
    if len(sheets) > 1:
        notes.append(Note("sheet_read", fields={"sheet": name, "sheets": sheets}))
    frame = _trim(frame)
    frame.columns = [str(c).strip() for c in frame.columns]
    if frame.shape[1] < 2:
        raise NotATable({"path": str(path), "sheet": name, "sheets": sheets,
                         "n_columns": frame.shape[1], "n_rows": len(frame)})
    if len(frame) == 0:
        raise NotATable({"path": str(path), "sheet": name, "sheets": sheets,
                         "n_columns": frame.shape[1], "n_rows": 0})
    frame, dates = dates_as_seconds(frame)
    if dates:
        notes.append(Note("dates_as_numbers", fields={
            "columns": dates, "unit": "seconds", "origin": "1970-01-01T00:00:00"}))
    check_text_lengths(frame)
    frame, more = parse_text_columns(frame, ",", decimal=".", thousands=None)
    return frame, notes + more, sheets


class NotATable(EngineError):
    """A sheet that holds no table (one column, or no rows under the names); the other
    sheets of the workbook may. The error ``sheet_not_a_table``, with fields ``path``,
    ``sheet`` (this one), ``sheets`` (all of them), ``n_columns`` and ``n_rows``;
    ``sheet`` and ``sheets`` are attributes too, and ``problem`` what is wrong, without
    the advice on ``"sheet"``."""

    def __init__(self, fields):
        super().__init__("sheet_not_a_table", fields)
        self.sheet, self.sheets = str(fields["sheet"]), list(fields["sheets"])
        self.problem = str(EngineError("sheet_not_a_table",
                                       {**fields, "sheets": [self.sheet]}))

    def __reduce__(self):
        return NotATable, (dict(self.fields),)


class _workbook:
    """``pandas.ExcelFile`` opened with openpyxl, every failure a one-line ValueError."""

    def __init__(self, path: str):
        check_file_fits(path, check_regular_file(path, what="an Excel workbook"))
        with open(path, "rb") as handle:
            head = handle.read(8)
        if head.startswith(_OLE2):
            refuse_old_format(path)
        if not head.startswith(_ZIP):
            raise EngineError("excel_not_zip", {"path": str(path)})
        check_parts(path)
        try:
            self.book = pd.ExcelFile(path, engine="openpyxl")
            _bound_sheet_reading(self.book, path)
        except ImportError as exc:
            raise EngineError("openpyxl_missing", {"detail": str(exc)}) from None
        except Exception as exc:                   # zipfile, XML and openpyxl's own errors
            raise EngineError("excel_invalid", {
                "path": str(path), "detail": f"{type(exc).__name__}: {exc}"}) from None

    def __enter__(self):
        return self.book

    def __exit__(self, *exc_info):
        self.book.close()


class SheetTooLarge(EngineError):
    """A sheet whose padded rows would not fit in memory: the error ``sheet_too_large``
    (its sentence says what to do)."""

    def __init__(self, fields):
        super().__init__("sheet_too_large", fields)

    def __reduce__(self):
        return SheetTooLarge, (dict(self.fields),)


def check_parts(path: str, *, available: Optional[int] = None) -> None:
    """Refuse a workbook whose parts would take too long or too much memory to unpack,
    from the sizes its ZIP directory declares, before any XML is parsed (Python's
    ``zipfile`` never unpacks more than a part's declared size).

    Parameters
    ----------
    path : str
    available : int, optional
        Bytes of memory available (measured when not given).

    Raises
    ------
    ValueError
        Not a ZIP archive, a part larger than :data:`MAX_PART_BYTES` unpacked, or one
        compressed more than :data:`MAX_RATIO` times (above :data:`RATIO_FROM_BYTES`);
        shared strings larger than :data:`MAX_SHARED_STRINGS_BYTES`; a part that would
        not fit in the memory available (:data:`SHARED_STRINGS_COPIES`,
        :data:`PART_COPIES` times its size).
    """
    import zipfile

    try:
        with zipfile.ZipFile(path) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise EngineError("excel_invalid", {"path": str(path), "detail": str(exc)}) from None
    available = available_memory() if available is None else available
    for part in parts:
        ratio = part.file_size / max(1, part.compress_size)
        if part.file_size > MAX_PART_BYTES:
            raise EngineError("excel_part_large", {"path": str(path), "part": part.filename,
                                                   "size": part.file_size,
                                                   "limit": MAX_PART_BYTES})
        if part.file_size > RATIO_FROM_BYTES and ratio > MAX_RATIO:
            raise EngineError("excel_part_padding", {"path": str(path),
                                                     "part": part.filename,
                                                     "size": part.file_size,
                                                     "compressed": part.compress_size})
        _check_part_memory(path, part, available)


def _check_part_memory(path: str, part, available: Optional[int]) -> None:
    """Refuse shared strings too large to parse in reasonable time, and any part whose
    reading would not fit in ``available`` bytes."""
    shared = part.filename.lower().endswith("sharedstrings.xml")
    if shared and part.file_size > MAX_SHARED_STRINGS_BYTES:
        raise EngineError("excel_strings_large", {"path": str(path), "part": part.filename,
                                                  "size": part.file_size,
                                                  "limit": MAX_SHARED_STRINGS_BYTES})
    need = part.file_size * (SHARED_STRINGS_COPIES if shared else PART_COPIES)
    if available is not None and need > available:
        raise EngineError("excel_part_memory", {"path": str(path), "part": part.filename,
                                                "size": part.file_size, "need": need,
                                                "available": available})


def _bound_sheet_reading(book, path: str) -> None:
    """Make pandas' openpyxl reader of ``book`` refuse a sheet whose rows, padded to its
    widest row, would not fit in memory (a single cell at XFD1048576 pads a sheet to
    1,048,576 x 16,384), before padding them."""
    import inspect

    reader = getattr(book, "_reader", None)  # getattr: openpyxl's workbook
    if reader is None or not hasattr(reader, "_convert_cell"):
        return                                   # another pandas: its own reading
    arity = len(inspect.signature(reader._convert_cell).parameters)

    def get_sheet_data(sheet, file_rows_needed=None):
        return bounded_sheet_data(reader, sheet, path, file_rows_needed=file_rows_needed)

    def get_sheet_data_1x(sheet, convert_float, file_rows_needed=None):
        # pandas 1.x: _convert_cell(cell, convert_float), the same rows otherwise
        return bounded_sheet_data(reader, sheet, path, file_rows_needed=file_rows_needed,
                                  convert=(convert_float,))
    if arity in (1, 2):                          # else another pandas: its own reading
        reader.get_sheet_data = get_sheet_data if arity == 1 else get_sheet_data_1x


def bounded_sheet_data(reader, sheet, path: str, *, file_rows_needed=None,
                       available: Optional[int] = None, convert: tuple = ()) -> list:
    """pandas' ``OpenpyxlReader.get_sheet_data`` (rows of cell values, trailing empty
    cells and rows trimmed, every row padded to the widest), refusing before the
    padding when ``rows x widest row x`` :data:`BYTES_PER_CELL` exceeds the available
    memory.

    Raises
    ------
    ValueError
        Naming the sheet's extent (its last used row and column) and the memory.
    """
    if reader.book.read_only:
        saved = (sheet.max_row, sheet.max_column)
        sheet.reset_dimensions()                 # declared dimensions can be wrong
    data, last_row, width = [], -1, 0
    try:
        for row_number, row in enumerate(sheet.rows):
            converted = [reader._convert_cell(cell, *convert) for cell in row]
            while converted and converted[-1] == "":
                converted.pop()
            if converted:
                last_row, width = row_number, max(width, len(converted))
            data.append(converted)
            if file_rows_needed is not None and len(data) >= file_rows_needed:
                break
    finally:
        if reader.book.read_only:
            sheet._max_row, sheet._max_column = saved
    data = data[: last_row + 1]
    _check_extent(path, len(data), width, available)
    return [row + [""] * (width - len(row)) if len(row) < width else row for row in data]


def _check_extent(path: str, n_rows: int, width: int, available: Optional[int]) -> None:
    available = available_memory() if available is None else available
    need = n_rows * width * BYTES_PER_CELL
    if available is not None and need > available:
        from openpyxl.utils import get_column_letter

        raise SheetTooLarge({"path": str(path), "n_rows": n_rows, "n_columns": width,
                             "last_column": get_column_letter(max(1, width)), "need": need,
                             "available": available})


def _pick_sheet(path: str, sheets: list, wanted: Optional[str]) -> str:
    if not sheets:
        raise EngineError("excel_no_sheets", {"path": str(path)})
    if wanted is None:
        return sheets[0]
    if wanted in sheets:
        return wanted
    folded = [s for s in sheets if s.casefold() == str(wanted).strip().casefold()]
    if len(folded) == 1:
        return folded[0]
    raise EngineError("sheet_unknown", {"sheet": wanted, "file": os.path.basename(path),
                                        "sheets": list(sheets)})


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
            # pandas takes a Series here; pandas-stubs 3.1 lists none
            frame.isetitem(i, seconds)  # type: ignore[arg-type]
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
