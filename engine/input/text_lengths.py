"""Bounds on the texts of a table: column names, cells and class labels longer than any
real data's are refused before anything is made of them (a long text copied into a
fixed-width array costs its length times every row).  Used by every reader
(:mod:`engine.input.data`, :mod:`engine.input.excel`); the bounds and their reasons: "Limits, and
why" in docs/experiment-format.md.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from engine.foundation.errors import EngineError
from engine.input.text_values import text_lengths

#: Longest text of a class label, a column name or a model name (characters).
MAX_NAME_CHARS = 1_000
#: Longest text of one cell of a data file (characters): Excel's own limit per cell.
MAX_CELL_CHARS = 32_767


def check_text_lengths(frame: pd.DataFrame) -> None:
    """Refuse a table whose column names or text cells are longer than any real data's,
    before anything is made of them (a long text copied into a fixed-width array
    costs its length times every row).

    Parameters
    ----------
    frame : pandas.DataFrame
        A table as read.

    Raises
    ------
    ValueError
        A column name of more than :data:`MAX_NAME_CHARS` characters, or a
        cell of more than :data:`MAX_CELL_CHARS` (Excel's own limit per
        cell), naming the column and row.
    """
    for position, column in enumerate(frame.columns):
        name = str(column)
        if len(name) > MAX_NAME_CHARS:
            raise EngineError("column_name_long", {"position": position + 1,
                                                   "length": len(name), "start": _start(name),
                                                   "limit": MAX_NAME_CHARS})
    for column, row, length in _longest_texts(frame):
        if length > MAX_CELL_CHARS:
            raise EngineError("cell_text_long", {"column": _start(str(column)), "row": row + 1,
                                                 "length": length, "limit": MAX_CELL_CHARS})


def check_label_lengths(labels: pd.Series, target: str) -> None:
    """Refuse class labels longer than :data:`MAX_NAME_CHARS` characters
    (a class is a short name, written in many rows of the result tables)."""
    for _, row, length in _longest_texts(labels.to_frame()):
        if length > MAX_NAME_CHARS:
            raise EngineError("class_label_long", {"target": _start(target), "row": row + 1,
                                                   "length": length, "limit": MAX_NAME_CHARS})


def _longest_texts(frame: pd.DataFrame):
    """(column, row position, length) of the longest text of each text column."""
    for position in range(frame.shape[1]):
        values = frame.iloc[:, position]
        if values.dtype != object and not pd.api.types.is_string_dtype(values):
            continue
        lengths = text_lengths(values)
        if lengths.size:
            row = int(np.argmax(lengths))
            yield frame.columns[position], row, int(lengths[row])


def _start(text: str, width: int = 40) -> str:
    """``text`` as a quoted start of at most ``width`` characters."""
    return repr(text if len(text) <= width else text[: width - 1] + "…")
