"""Index-like columns: a row number or a row identifier written into the file as a column.

R's ``write.csv`` writes the row names as a first column under an empty header (pandas
reads it as ``Unnamed: 0``, R's ``read.csv`` as ``X``, readr as ``...1``); pandas'
``to_csv`` writes its index the same way, or under ``index``; data sets bring ``id``
columns of their own. Such a column says where a row sits in the file, not anything
about the case, and in a file sorted by class it gives the answer away. So it is left
out of the features by default, with a note saying how to keep it (``"features"``).

Rules
-----
A column is index-like when it holds whole numbers, no missing value, every one
different, and

* it is the first column and they are the row numbers in file order (0, 1, 2, ... or
  1, 2, 3, ..., whatever the column's name), with at least :data:`MIN_ROWS` rows; or
* its name is one an index is written under (:data:`INDEX_NAME`: the empty name,
  ``Unnamed: N``, ``rownames``, ``row.names``, ``index``, ``...1``; ``X`` for a first
  column holding 1 to n in any order, as R's ``read.csv`` names row names); or
* its name says it identifies rows (:func:`engine.input.groups.id_like_name`: ``id``,
  ``PassengerId``, ``patient_id``, ...).
"""
from __future__ import annotations

import re
from typing import Optional, Sequence

import numpy as np
import pandas as pd

from engine.input.groups import id_like_name
from engine.foundation.notes import Note
from engine.foundation.messages_notes import INDEX_REASONS

#: Fewest rows for whole numbers in file order to count as row numbers by their values alone.
MIN_ROWS = 10
#: Names pandas, R and readr give a written-out row index.
INDEX_NAME = re.compile(r"^(|unnamed: ?\d+|rownames|row\.names|row_names|row names|index|"
                        r"\.\.\.\d+)$", re.IGNORECASE)
#: Why a column is index-like (the ``reasons`` of the note), in words.
REASONS = INDEX_REASONS          # worded in the catalogue (engine.foundation.messages_notes)


def index_reason(values: pd.Series, name, position: int) -> Optional[str]:
    """Why ``values`` look like a row index (a key of :data:`REASONS`), or None.

    Parameters
    ----------
    values : pandas.Series
        The column, all its rows, in file order.
    name
        The column's name.
    position : int
        The column's position in the file (``X`` names an index only as the first).
    """
    if not _unique_whole_numbers(values):
        return None
    numbers = values.to_numpy()
    if position == 0 and len(numbers) >= MIN_ROWS and numbers[0] in (0, 1) and \
            bool(np.all(np.diff(numbers) == 1)):
        return "row_numbers"
    text = str(name).strip()
    if INDEX_NAME.match(text) or (position == 0 and text in ("X", "x")
                                  and _row_numbers_in_any_order(numbers)):
        return "index_name"
    if id_like_name(text):
        return "id_name"
    return None


def _row_numbers_in_any_order(numbers: np.ndarray) -> bool:
    """1, 2, ..., n in any order (R's row names of a sorted table)."""
    return int(numbers.min()) == 1 and int(numbers.max()) == len(numbers)


def _unique_whole_numbers(values: pd.Series) -> bool:
    if pd.api.types.is_bool_dtype(values) or len(values) < 2:
        return False
    if pd.api.types.is_integer_dtype(values):
        return bool(values.is_unique)
    return False


def index_columns(frame: pd.DataFrame, candidates: Sequence) -> dict:
    """Column -> why it is index-like, for the ``candidates`` of ``frame`` that are.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table as read (all rows, in file order).
    candidates : sequence
        The columns that may be features (not the target, not left out, not the groups).
    """
    positions = {column: i for i, column in enumerate(frame.columns)}
    dtypes = frame.dtypes
    found = {}
    for column in candidates:
        if not pd.api.types.is_integer_dtype(dtypes[column]) or \
                pd.api.types.is_bool_dtype(dtypes[column]):
            continue                                     # only whole numbers can be an index
        why = index_reason(frame[column], column, positions[column])
        if why is not None:
            found[column] = why
    return found


def index_note(found: dict) -> Optional[Note]:
    """The ``index_columns_left_out`` note for ``found`` (column -> reason), or None."""
    if not found:
        return None
    columns = list(found)
    return Note("index_columns_left_out",
                fields={"columns": columns, "reasons": [found[c] for c in columns]})
