"""Result tables as CSV: safe, well-formed cells, full precision, atomic writes.

Every text cell, column name and index label (each level of a two-level index too) goes
through :func:`safe_cell`: control
characters (C0 and DEL) are written out (``\\r``, ``\\n``, ``\\t``, ``\\x00`` ...), so no
cell can break a row, and a cell a spreadsheet would read as a formula gets a leading
``'``.  The headless runner, the GUI's exports and the clipboard all use this module.

A file is written by the one atomic write (:mod:`engine.foundation.atomic_write`): to a
temporary name (``.honest-eval-tmp-*``) in its folder, flushed to disk and renamed into
place, so a reader never sees half a table, whatever stops the writer.  The file gets the
permissions of the user's umask, like any file the user creates.  A result
folder as a whole is written by :mod:`engine.output.result_folder`.
"""
from __future__ import annotations

from typing import Any

import pandas as pd

from engine.foundation.atomic_write import (
    FILE_MODE,
    TEMPORARY_PREFIX,
    fsync_folder,
    try_lock,
    write_atomically,
    write_bytes_atomically,
)
from engine.input.csv_values import visible

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: The atomic write's names, kept here for the result folder's modules
#: (:mod:`engine.foundation.atomic_write` is the one atomic write).
write_text, write_bytes = write_atomically, write_bytes_atomically
__all__ = ["CSV_STYLES", "FILE_MODE", "TEMPORARY_PREFIX", "csv_text", "fsync_folder", "safe_cell",
           "spreadsheet_safe", "try_lock", "write_bytes", "write_csv", "write_text"]


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def safe_cell(value):
    """A text cell made safe for a CSV file and a spreadsheet; other values unchanged.

    Control characters are written out (:func:`visible`), then the cell gets a leading
    ``'`` if it starts with ``=``, ``+``, ``-`` or ``@`` and is not a number.  This is the
    spreadsheet escaper, for formulas a spreadsheet would run; it is not the HTML one
    (:func:`engine.foundation.html_text.html_text`: a CSV cell is not markup, and
    entities would be shown as written) nor the one of messages
    (:func:`engine.foundation.schema.printable`).
    """
    if not isinstance(value, str):
        return value
    value = visible(value)
    if value.startswith(_FORMULA_START) and not _is_number(value):
        return "'" + value
    return value


def spreadsheet_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells, column names and index are safe for a
    spreadsheet (:func:`safe_cell`: no cell runs as a formula)."""
    out = frame.copy()
    for column in range(out.shape[1]):
        values = out.iloc[:, column]
        if not (pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values)):
            # pandas takes a Series here; pandas-stubs 3.1 lists none
            out.isetitem(column, values.map(safe_cell))  # type: ignore[arg-type]
    out.columns = [safe_cell(str(c)) for c in out.columns]
    out.index = _safe_index(out.index)
    out.index.names = [safe_cell(str(n)) if n is not None else None for n in out.index.names]
    return out


def _safe_index(index: pd.Index) -> pd.Index:
    """``index`` with every label safe (:func:`safe_cell`), each level of a
    ``MultiIndex`` included."""
    if isinstance(index, pd.RangeIndex):
        return index
    if isinstance(index, pd.MultiIndex):
        return pd.MultiIndex.from_arrays(
            [index.get_level_values(i).map(safe_cell) for i in range(index.nlevels)],
            names=index.names)
    return index.map(safe_cell)


def csv_text(frame: pd.DataFrame, *, index: bool = False) -> str:
    """The table as CSV text (safe cells, full precision): for the clipboard."""
    return spreadsheet_safe(frame).to_csv(index=index, lineterminator="\n")


#: How a table's CSV file separates its columns and writes decimals: ``"standard"``
#: (comma, decimal point: what programs and the headless runner use) or ``"semicolon"``
#: (semicolon, decimal comma, and a byte-order mark so that the text is read as UTF-8:
#: what a spreadsheet set up for a language that writes 0,5 opens correctly).
CSV_STYLES: dict[str, dict[str, Any]] = {"standard": {"sep": ",", "decimal": "."},
              "semicolon": {"sep": ";", "decimal": ","}}


def write_csv(frame: pd.DataFrame, path: str, *, index: bool = False,
              style: str = "standard") -> str:
    """Write one table atomically (safe cells, full precision, the user's permissions) in
    a CSV style of :data:`CSV_STYLES`.

    Returns
    -------
    str
        The path written.
    """
    options = CSV_STYLES[style]
    safe = spreadsheet_safe(frame)

    def write(stream) -> None:
        if style != "standard":
            stream.write("\ufeff")
        safe.to_csv(stream, index=index, lineterminator="\n", **options)

    return write_text(path, write)
