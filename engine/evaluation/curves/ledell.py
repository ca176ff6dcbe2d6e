"""LeDell, Petersen & van der Laan's influence-curve interval for the cross-validated AUC.

LeDell E., Petersen M., van der Laan M. (2015), "Computationally efficient confidence
intervals for cross-validated area under the ROC curve estimates", Electronic Journal of
Statistics 9(1), 1583-1607; the R package cvAUC (``ci.cvAUC``, ``ci.pooled.cvAUC``).

The cross-validated AUC of one repeat is the mean of the fold AUCs, each computed on one
fold's out-of-fold predictions. Its variance is estimated from the influence curve of
every row within its fold,

* positive row: ``(n / n_pos) · (share of the fold's negatives it outscores − AUC_fold)``,
* negative row: ``(n / n_neg) · (share of the fold's positives that outscore it − AUC_fold)``,

with ``n_pos``, ``n_neg`` and ``n`` counted over all folds; ``σ² = mean over folds of the
mean squared influence`` and ``se = sqrt(σ² / n)``. The grouped variant (rows that
belong together, e.g. repeated measurements of one patient) sums the influence within
each group and divides by the mean group size ``τ̄ = n / n_groups``; then
``σ² = mean over folds of the mean squared group influence`` and
``se = sqrt(σ² / n_groups)``.

A tie between a positive and a negative counts one half here, as it does in the AUC;
cvAUC's influence curve counts it as zero, so the two agree exactly when no positive ties
a negative within a fold (continuous probabilities).
"""
from __future__ import annotations

from typing import Tuple

import numpy as np
from scipy.stats import norm

from engine.foundation.caller_errors import CallerError
from engine.evaluation.curves.delong import delong_components

__all__ = ["fold_influence", "ledell_interval"]


def fold_influence(positive: np.ndarray, score: np.ndarray, weight_positive: float,
                   weight_negative: float) -> Tuple[float, np.ndarray]:
    """One fold's AUC and the influence curve value of each of its rows.

    Parameters
    ----------
    positive : ndarray of bool, shape (n_fold,)
    score : ndarray of shape (n_fold,)
    weight_positive, weight_negative : float
        ``n / n_pos`` and ``n / n_neg`` over all folds.

    Returns
    -------
    auc : float
    influence : ndarray of shape (n_fold,)
    """
    auc, v_positive, v_negative = delong_components(positive, score)
    influence = np.empty(positive.size)
    influence[positive] = weight_positive * (v_positive[0] - auc[0])
    influence[~positive] = weight_negative * (v_negative[0] - auc[0])
    return float(auc[0]), influence


def ledell_interval(y_true, score, fold, *, level: float = 0.95,
                    groups=None) -> Tuple[float, float, float, float]:
    """The cross-validated AUC (mean over folds) and its influence-curve interval.

    Parameters
    ----------
    y_true : array-like of shape (n_rows,)
        True for (or 1 at) the positive class.
    score : array-like of shape (n_rows,)
        Out-of-fold score of each row; higher means more likely positive.
    fold : array-like of shape (n_rows,)
        The validation fold each row was predicted in (one repeat: each row once).
    level : float, default 0.95
        Confidence level of the two-sided normal interval.
    groups : array-like of shape (n_rows,), optional
        Rows that belong together; gives ``ci.pooled.cvAUC``'s grouped variance.

    Returns
    -------
    cv_auc, low, high, se : float
        The interval ``cv_auc ± z · se`` is clipped to [0, 1], as cvAUC does.

    Raises
    ------
    ValueError
        When a fold lacks one of the two classes (its AUC is undefined).
    """
    if not 0.0 < level < 1.0:
        # the caller's arguments (the run passes checked levels): a programming error
        raise CallerError("argument_value",
                          f"level must lie strictly between 0 and 1, got {level}")
    positive = np.asarray(y_true).astype(bool).ravel()
    score = np.asarray(score, dtype=float).ravel()
    fold = np.asarray(fold).ravel()
    n = positive.size
    weights = n / positive.sum(), n / (~positive).sum()
    group_codes = None if groups is None else np.unique(np.asarray(groups).ravel(),
                                                        return_inverse=True)[1].ravel()
    aucs, second_moments = [], []
    for value in np.unique(fold):
        rows = np.flatnonzero(fold == value)
        auc, influence = fold_influence(positive[rows], score[rows], *weights)
        aucs.append(auc)
        if group_codes is None:
            second_moments.append(np.mean(influence ** 2))
        else:
            second_moments.append(_group_second_moment(influence, group_codes, rows, n))
    n_units = n if group_codes is None else int(group_codes.max()) + 1
    cv_auc = float(np.mean(aucs))
    se = float(np.sqrt(np.mean(second_moments) / n_units))
    half = norm.ppf(0.5 + level / 2.0) * se
    return cv_auc, float(max(0.0, cv_auc - half)), float(min(1.0, cv_auc + half)), se


def _group_second_moment(influence: np.ndarray, group_codes: np.ndarray, rows: np.ndarray,
                         n: int) -> float:
    """Mean squared group influence of one fold: influence summed per group / τ̄."""
    mean_group_size = n / (int(group_codes.max()) + 1)
    codes = group_codes[rows]
    present, inverse = np.unique(codes, return_inverse=True)
    sums = np.bincount(inverse.ravel(), weights=influence, minlength=present.size)
    return float(np.mean((sums / mean_group_size) ** 2))
