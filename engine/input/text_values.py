"""Text operations on a column's distinct values, mapped back to its rows by codes.

A column of categories holds a few different texts in many rows. Stripping, measuring
or comparing every cell costs a Python call per row; doing it once per distinct text and
taking the result for each row by its code (:func:`pandas.factorize`, a hash in C) gives
the same values at the cost of the distinct ones. A column of free text (every value
different) costs one factorisation more than a cell-by-cell pass.

Values are compared as text: a column mixing texts and numbers is turned into the text of
each value first (``str(value)``, as ``Series.astype(str)`` does), so that ``1``, ``1.0``
and ``True`` stay three values (Python's equality would make them one).
"""
from __future__ import annotations

import numpy as np
import pandas as pd


def distinct_texts(column: pd.Series) -> tuple:
    """The codes of a column's rows and the text of each distinct value.

    Parameters
    ----------
    column : pandas.Series

    Returns
    -------
    (codes, texts) : (numpy.ndarray of intp, numpy.ndarray of object)
        ``texts[codes[i]]`` is ``str(column.iloc[i])``; ``codes`` is -1 where the value
        is missing (NaN, None).
    """
    values = column.to_numpy(dtype=object)
    if pd.api.types.infer_dtype(values, skipna=True) not in ("string", "empty"):
        missing = pd.isna(values)
        values = np.array([None if gone else str(value)
                           for value, gone in zip(values.tolist(), missing.tolist())],
                          dtype=object)
    codes, uniques = pd.factorize(values)
    return codes, np.asarray(uniques, dtype=object)


def per_row(codes: np.ndarray, per_value: np.ndarray, missing) -> np.ndarray:
    """``per_value[codes]``, with ``missing`` where a code is -1 (code -1 takes the value
    appended last)."""
    return np.append(per_value, np.array([missing], dtype=per_value.dtype))[codes]


def text_lengths(column: pd.Series) -> np.ndarray:
    """Characters in each row's text (0 for a missing value or a value that is not text),
    as ``Series.str.len()`` with missing values 0.

    Parameters
    ----------
    column : pandas.Series

    Returns
    -------
    numpy.ndarray of int64
    """
    values = column.to_numpy(dtype=object)
    codes, uniques = pd.factorize(values)
    lengths = np.array([len(v) if isinstance(v, (str, bytes)) else 0 for v in uniques],
                       dtype=np.int64)
    return per_row(codes, lengths, 0)


def stripped(texts: np.ndarray) -> np.ndarray:
    """Each text without its surrounding white space (an object array)."""
    return np.array([text.strip() for text in texts], dtype=object)


def contains(column: pd.Series, part: str) -> np.ndarray:
    """True where a row's text holds ``part`` (as ``Series.str.contains(part,
    regex=False)`` on a column of texts; False where missing)."""
    rows, texts = distinct_texts(column)
    return per_row(rows, np.array([part in text for text in texts], dtype=bool), False)
