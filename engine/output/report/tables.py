"""The run's CSV tables as tables of the report's structure, numbers rounded for reading.

The display rule (:func:`display_value`, documented in ``docs/report.md`` and checked by
the tests against the CSV files): a floating-point number is shown with four significant
digits (Python's ``format(value, ".4g")``), a missing one as an empty cell; whole numbers
(integer columns), booleans and text are shown as the CSV holds them (text made
spreadsheet-safe and its invisible characters written out exactly as in the CSV, then
escaped by the renderer: HTML or Markdown). The full-precision values are in the CSV file named above every table.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from engine.output.document import Code, Name, Paragraph, Table
from engine.output.tables import spreadsheet_safe

#: Significant digits of a floating-point number shown in the report.
DIGITS = 4
#: Tables longer than this show their first rows only (the CSV has them all).
MAX_ROWS = 500
#: Tables written with their index (``engine.output.result_folder``): the index is a column.
INDEXED = ("correlation.csv",)


def display_value(value) -> str:
    """One cell as shown: floats to :data:`DIGITS` significant digits, the rest as
    written in the CSV."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (float, np.floating)):
        return format(float(value), f".{DIGITS}g")
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if value is pd.NA or value is pd.NaT:
        return ""
    return str(value)


def as_written(name: str, frame: pd.DataFrame, *, indexed=None, rows=None) -> pd.DataFrame:
    """The table as its CSV file holds it (its first ``rows`` rows): the index a column
    where the file has it (``indexed``, default: the tables of :data:`INDEXED`), text
    cells spreadsheet-safe (:func:`engine.output.tables.spreadsheet_safe`)."""
    if name in INDEXED if indexed is None else indexed:
        frame = frame.reset_index()
    frame = frame.iloc[:rows] if rows is not None else frame
    return spreadsheet_safe(frame.reset_index(drop=True))


def table_blocks(name: str, frame: pd.DataFrame, *, caption: str = "") -> list:
    """``frame`` (the table written as ``name``) as blocks: a table captioned with the CSV
    file's name, a header row and at most :data:`MAX_ROWS` rows, every cell text from the
    file (:class:`~engine.output.document.Name`); then a note of how many rows are left
    out, if any."""
    total = len(frame)
    shown = as_written(name, frame, rows=MAX_ROWS)
    numeric = tuple(pd.api.types.is_numeric_dtype(shown[c])
                    and not pd.api.types.is_bool_dtype(shown[c]) for c in shown.columns)
    rows = tuple(tuple((Name(display_value(v)),) for v in values)
                 for values in shown.itertuples(index=False, name=None))
    words = f" {caption}" if caption else ""
    table = Table(tuple((Name(str(c)),) for c in shown.columns), numeric, rows,
                  caption=(Code(name), f"{words} (numbers rounded to {DIGITS} significant "
                                       "digits; full precision in the CSV)"), file=name)
    if total <= len(shown):
        return [table]
    return [table, Paragraph((f"The first {len(shown)} of {total:,} rows; every row is in ",
                              Name(name), "."), "more")]
