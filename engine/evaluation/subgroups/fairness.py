"""Fairlearn's two parity differences of the predicted classes, per model and column.

``demographic_parity_difference``: the largest minus the smallest share of rows predicted
positive over the subgroups; ``equalized_odds_difference``: the larger of the same
spread of the true-positive rates and of the false-positive rates (fairlearn's
``method="between_groups"``, ``agg="worst_case"``). Each is computed on one repeat's
out-of-fold predictions (every row once) over every subgroup, as
``fairlearn.metrics`` computes it on one prediction set, then averaged over repeats.
Computed here, not by fairlearn (a peer the tests compare with, not a dependency).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

FAIRNESS_COLUMNS = ["model", "column", "demographic_parity_difference",
                    "equalized_odds_difference", "n_subgroups", "n_repeats"]


def _spread(values) -> float:
    values = np.asarray(values, dtype=float)
    return float(np.nanmax(values) - np.nanmin(values))


def _rate(hits: np.ndarray, among: np.ndarray) -> float:
    """The share of ``among`` rows that are ``hits``; 0 when there are none (as
    scikit-learn's ``recall_score`` with its warning, which fairlearn uses)."""
    n = int(among.sum())
    return float((hits & among).sum() / n) if n else 0.0


def parity_differences(y_true: np.ndarray, y_pred: np.ndarray, codes: np.ndarray) -> tuple:
    """``(demographic parity difference, equalized odds difference)`` of one prediction
    set: booleans (the positive class) and each row's subgroup."""
    selection, tpr, fpr = [], [], []
    for s in np.unique(codes):
        rows = codes == s
        selection.append(float(y_pred[rows].mean()))
        tpr.append(_rate(y_pred, rows & y_true))
        fpr.append(_rate(y_pred, rows & ~y_true))
    return _spread(selection), max(_spread(tpr), _spread(fpr))


def fairness_table(cv, grouping, pos_label) -> pd.DataFrame:
    """The rows of ``subgroup_fairness.csv`` of one column (two classes and predicted
    classes kept; else no rows)."""
    predictions = cv.predictions
    if pos_label is None or "predicted" not in predictions or len(cv.classes) != 2:
        return pd.DataFrame(columns=FAIRNESS_COLUMNS)
    rows = []
    for model in cv.models:
        frame = predictions[predictions["model"] == model]
        values = []
        for _, part in frame.groupby("repeat", sort=True):
            predicted = part["predicted"].to_numpy(dtype=np.int64)
            if (predicted < 0).any():
                continue
            codes = grouping.codes[part["row"].to_numpy(dtype=np.int64)]
            values.append(parity_differences(part["y"].to_numpy(dtype=np.int64) == pos_label,
                                             predicted == pos_label, codes))
        if values:
            dpd, eod = np.mean(values, axis=0)
            rows.append((model, grouping.column, float(dpd), float(eod),
                         len(grouping.labels), len(values)))
    return pd.DataFrame(rows, columns=FAIRNESS_COLUMNS)
