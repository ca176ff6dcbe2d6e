"""Calibration in the large and calibration slope of each subgroup (two classes).

On a subgroup's out-of-fold rows of one repeat, with ``lp = logit(p)`` the logit of the
predicted probability of the positive class (clipped to [1e-12, 1 − 1e-12]): the
calibration slope is ``b`` of the logistic regression ``logit P(y) = a + b·lp``, and
calibration in the large the intercept ``a`` of ``logit P(y) = a + lp`` (``lp`` an
offset; 0 when the mean predicted risk matches). Both by Newton's method, unpenalised;
NaN when the fit does not converge (separated rows). Averaged over repeats; no
interval.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import expit

CALIBRATION_COLUMNS = ["model", "column", "subgroup", "n_rows", "calibration_in_the_large",
                       "calibration_slope", "verdict_allowed"]
_EPS, _STEPS, _TOL = 1e-12, 100, 1e-10


def _newton(design: np.ndarray, y: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """Unpenalised logistic regression coefficients (NaN if not converged)."""
    beta = np.zeros(design.shape[1])
    for _ in range(_STEPS):
        p = expit(design @ beta + offset)
        gradient = design.T @ (y - p)
        hessian = (design * (p * (1 - p))[:, None]).T @ design
        try:
            step = np.linalg.solve(hessian, gradient)
        except np.linalg.LinAlgError:
            return np.full(design.shape[1], np.nan)
        beta = beta + step
        if np.max(np.abs(step)) < _TOL:
            return beta if np.isfinite(beta).all() else np.full(design.shape[1], np.nan)
    return np.full(design.shape[1], np.nan)


def calibration_pair(y: np.ndarray, p: np.ndarray) -> tuple:
    """``(calibration in the large, calibration slope)`` of 0/1 outcomes ``y`` and
    predicted probabilities ``p``."""
    if len(y) < 2 or y.min() == y.max():
        return np.nan, np.nan
    lp = np.log(np.clip(p, _EPS, 1 - _EPS)) - np.log1p(-np.clip(p, _EPS, 1 - _EPS))
    ones = np.ones((len(y), 1))
    citl = _newton(ones, y, lp)[0]
    slope = _newton(np.column_stack([ones, lp]), y, np.zeros(len(y)))[1]
    return float(citl), float(slope)


def calibration_table(cv, grouping, sizes, pos_label) -> pd.DataFrame:
    """The rows of ``subgroup_calibration.csv`` of one column: models with
    probabilities, two classes (else no rows)."""
    if pos_label is None or len(cv.classes) != 2:
        return pd.DataFrame(columns=CALIBRATION_COLUMNS)
    rows = []
    for model in cv.models:
        if cv.prediction_kind.get(model) != "proba":
            continue
        frame = cv.predictions[cv.predictions["model"] == model]
        y = (frame["y"].to_numpy(dtype=np.int64) == pos_label).astype(float)
        p = frame[f"score_{pos_label}"].to_numpy(dtype=float)
        codes = grouping.codes[frame["row"].to_numpy(dtype=np.int64)]
        repeats = frame["repeat"].to_numpy()
        for s, label in enumerate(grouping.labels):
            pairs = [calibration_pair(y[(codes == s) & (repeats == r)],
                                      p[(codes == s) & (repeats == r)])
                     for r in np.unique(repeats)]
            citl, slope = np.mean(pairs, axis=0) if pairs else (np.nan, np.nan)
            size = sizes.iloc[s]
            rows.append((model, grouping.column, label, int(size["n_rows"]), float(citl),
                         float(slope), bool(size["verdict_allowed"])))
    return pd.DataFrame(rows, columns=CALIBRATION_COLUMNS)
