"""Row identifiers: what joins a prediction back to its row of the data file.

A data set's ids (:attr:`engine.input.data.Dataset.ids`) are, by one rule:

1. the ``id_column`` the experiment names (never a feature); else
2. the row-name column that was left out of the features: an index-like column
   (:mod:`engine.input.index_columns`) or an identifier-like text column (R's row names
   of text, such as car names), one named as R or pandas write an index
   (:data:`engine.input.index_columns.INDEX_NAME`: ``Unnamed: 0``, ``rownames``, ...)
   before the others, then in file order; else
3. the 1-based row of the file (its first data row is 1).

``predictions.csv`` and Predict's output carry them as the column ``id``
(:func:`id_values`, :func:`predict_ids`).
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np
import pandas as pd

from engine.foundation.errors import EngineError
from engine.input.index_columns import INDEX_NAME, index_columns

#: The name of the ids when they are the 1-based rows of the file.
ROW = "row"


def check_id_column(column, target, kept: Sequence) -> None:
    """Refuse an ``id_column`` that is the target or a column kept as a feature.

    Raises
    ------
    ValueError
        One line naming the column and what to change.
    """
    if column == target:
        raise EngineError("id_column_is_target", {"column": column})
    if column in kept:
        raise EngineError("id_column_kept", {"column": column})


def row_name_column(columns: Sequence, left_out: Sequence) -> Optional[str]:
    """The row-name column among ``left_out`` (columns left out as index-like or
    identifier-like), or None: one named as an index is written first, then file order.

    Parameters
    ----------
    columns : sequence
        The file's columns, in file order.
    left_out : sequence
        The columns the loader left out of the features as row numbers or identifiers.
    """
    ordered = [c for c in columns if c in set(left_out)]
    named = [c for c in ordered if INDEX_NAME.match(str(c).strip())]
    chosen = (named or ordered or [None])[0]
    return chosen


def dataset_ids(frame: pd.DataFrame, column, file_rows: np.ndarray) -> pd.Series:
    """The ids of the rows of ``frame`` (rows without a target already dropped).

    Parameters
    ----------
    frame : pandas.DataFrame
        The table, rows kept.
    column : str or None
        The id column (chosen or the row-name column), or None.
    file_rows : numpy.ndarray
        The 1-based row in the file of each row of ``frame``.

    Returns
    -------
    pandas.Series
        Indexed 0..n-1, named after its column (``"row"`` for the 1-based rows).
    """
    if column is None:
        return pd.Series(np.asarray(file_rows, dtype=np.int64), name=ROW)
    return pd.Series(frame[column].to_numpy(), name=str(column))


def id_values(ids: Optional[pd.Series], rows: np.ndarray) -> np.ndarray:
    """The ids of data rows ``rows`` (0-based); the 1-based rows when ``ids`` is None (a
    built-in data set)."""
    rows = np.asarray(rows, dtype=np.int64)
    if ids is None:
        return rows + 1
    return ids.to_numpy()[rows]


def predict_ids(frame: pd.DataFrame, id_column, features: Sequence, target) -> pd.Series:
    """The ids of a data file's rows for Predict, by the same rule as training.

    Parameters
    ----------
    frame : pandas.DataFrame
        The data file as read.
    id_column : str or None
        The model's id column (from its record); used when the file has it.
    features : sequence of str
        The model's feature columns (never the id).
    target : str
        The model's target (never the id).

    Returns
    -------
    pandas.Series
        One id per row of ``frame``.
    """
    if id_column is not None and id_column in frame.columns:
        return dataset_ids(frame, id_column, np.empty(0))
    others = [c for c in frame.columns if c not in set(features) and c != target]
    left_out = list(index_columns(frame, others)) + [c for c in others if _unique_text(frame[c])]
    column = row_name_column(list(frame.columns), left_out)
    return dataset_ids(frame, column, np.arange(1, len(frame) + 1))


def _unique_text(values: pd.Series) -> bool:
    """A text column with a different value, present, in every row."""
    if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
        return False
    return len(values) > 1 and bool(values.notna().all()) and bool(values.is_unique)
