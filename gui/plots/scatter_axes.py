"""Which two features the Dataset tab's scatter plot starts on: the two numeric columns
that best separate the classes on their own (scikit-learn's ANOVA F statistic,
``f_classif``), never an identifier-like column (whole numbers, a different one in every
row: row numbers, ids), on the rows the plot draws."""
from __future__ import annotations

from typing import Optional

import numpy as np
import pandas as pd


def identifier_like(values: pd.Series) -> bool:
    """True for whole numbers that differ in every row (row numbers, ids)."""
    finite = values.dropna()
    if len(finite) < 3 or finite.nunique() < len(finite):
        return False
    numbers = finite.to_numpy(dtype=float)
    return bool(np.all(numbers == np.round(numbers)))


def informative_pair(frame: pd.DataFrame, codes: np.ndarray,
                     rows: Optional[np.ndarray] = None) -> list:
    """The (at most two) numeric columns of ``frame`` to plot first, best first.

    Parameters
    ----------
    frame : DataFrame
        The features.
    codes : ndarray
        The class code of each row.
    rows : ndarray, optional
        The rows drawn (a sample of a big data set); None: all.
    """
    from sklearn.feature_selection import f_classif

    numeric = [c for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c])
               and not pd.api.types.is_bool_dtype(frame[c])]
    if rows is not None:
        frame, codes = frame.iloc[rows], codes[rows]
    candidates = [c for c in numeric if not identifier_like(frame[c])] or numeric
    if len(candidates) <= 2 or len(np.unique(codes)) < 2:
        return candidates[:2]
    values = frame[candidates].to_numpy(dtype=float)
    filled = np.where(np.isfinite(values), values, np.nanmean(values, axis=0))
    filled = np.nan_to_num(filled)
    with np.errstate(divide="ignore", invalid="ignore"):
        scores, _ = f_classif(filled, codes)
    scores = np.nan_to_num(scores, nan=-1.0, posinf=np.finfo(float).max)
    order = np.argsort(-scores, kind="stable")
    return [candidates[i] for i in order[:2]]
