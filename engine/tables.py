"""Result tables as CSV: spreadsheet-safe cells, full precision, atomic writes.

Every file is written to a temporary name in the target folder and renamed into
place, so a reader never sees half a table, whatever interrupts the writer.
"""
from __future__ import annotations

import os
import tempfile

import pandas as pd

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def safe_cell(value):
    """Prefix a text cell with ``'`` if a spreadsheet would read it as a formula."""
    if isinstance(value, str) and value.startswith(_FORMULA_START) and not _is_number(value):
        return "'" + value
    return value


def spreadsheet_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells and column names cannot start a formula."""
    out = frame.copy()
    for column in out.columns:
        if not (pd.api.types.is_numeric_dtype(out[column])
                or pd.api.types.is_bool_dtype(out[column])):
            out[column] = out[column].map(safe_cell)
    out.columns = [safe_cell(str(c)) for c in out.columns]
    if out.index.name is not None or not isinstance(out.index, pd.RangeIndex):
        out.index = out.index.map(safe_cell)
    return out


def csv_text(frame: pd.DataFrame, index: bool = False) -> str:
    """The table as CSV text (safe cells, full precision): for the clipboard."""
    return spreadsheet_safe(frame).to_csv(index=index, lineterminator="\n")


def write_csv(frame: pd.DataFrame, path: str, index: bool = False) -> str:
    """Write one table atomically (temporary file in the same folder, then rename).

    Returns
    -------
    str
        The path written.
    """
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".tmp-", suffix=".csv", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            spreadsheet_safe(frame).to_csv(stream, index=index, lineterminator="\n")
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    return path


def write_tables(tables: dict, folder: str) -> list:
    """Write ``{file name: DataFrame}`` into ``folder`` (created if missing)."""
    os.makedirs(folder, exist_ok=True)
    written = []
    for name, frame in tables.items():
        index = name == "correlation.csv"
        written.append(write_csv(frame, os.path.join(folder, name), index=index))
    return written

