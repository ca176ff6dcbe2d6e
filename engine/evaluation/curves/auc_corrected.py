"""The corrected-t interval of the AUC over the fold models (method ``corrected_t``).

DeLong's and LeDell's intervals (:mod:`engine.evaluation.curves.auc_tables`) take the k
fold models of a repeat as given: they cover the mean true AUC of those fold models. A
new sample of rows would give other fold models, and that variation is missing from
them. This interval takes it in the way the summary's interval of a mean score does:
Nadeau and Bengio's corrected t over the per-fold AUCs of all k × r folds,

``mean ± t(1 − α/2, k r − 1) · sqrt((1/(k r) + n_test/n_train) · s²)``

(:func:`engine.evaluation.stats.corrected_interval`, the same code and the same mean fold
sizes as ``summary.csv``), clipped to [0, 1] as mlr3inferr's ``ci.cor_t`` is by default.
Its estimand is the expected AUC of a model trained on ``n_train`` rows by this
procedure. With groups the folds are the grouped folds of the run, as for the summary.
A fold holding only one class has no AUC and is left out (``n_folds`` counts the rest).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import t as student_t

from engine.evaluation.curves.delong import delong_components
from engine.evaluation.stats import corrected_interval, corrected_std

__all__ = ["corrected_at", "corrected_row", "fold_aucs", "fold_sizes"]


def fold_aucs(per_repeat: dict) -> np.ndarray:
    """The AUC of every fold of every repeat, NaN for a fold with one class only.

    Parameters
    ----------
    per_repeat : dict
        ``{repeat: (row, positive, score, fold)}`` as ``auc_tables`` builds it.

    Returns
    -------
    ndarray of shape (k r,)
        In repeat order, then fold order.
    """
    values = []
    for repeat in sorted(per_repeat):
        _, positive, score, fold = per_repeat[repeat]
        for value in np.unique(fold):
            rows = fold == value
            both = positive[rows].any() and not positive[rows].all()
            values.append(float(delong_components(positive[rows], score[rows])[0][0])
                          if both else np.nan)
    return np.asarray(values, dtype=float)


def fold_sizes(predictions: pd.DataFrame) -> tuple:
    """Mean training and test fold sizes read from a predictions table: a fold's test rows
    are its predicted rows, its training rows the repeat's other rows (k-fold CV predicts
    every row once per repeat)."""
    one = predictions[predictions["model"] == predictions["model"].iloc[0]]
    per_fold = one.groupby(["repeat", "fold"]).size()
    per_repeat = one.groupby("repeat").size()
    n_test = per_fold.to_numpy(dtype=float)
    n_rows = per_repeat.reindex(per_fold.index.get_level_values("repeat")).to_numpy(float)
    return float(np.mean(n_rows - n_test)), float(np.mean(n_test))


def corrected_row(model, label, per_repeat: dict, sizes: tuple, level: float,
                  n_groups) -> list:
    """The ``corrected_t`` summary row of one model and class (empty ``repeat``), or no
    row when fewer than two folds have an AUC.

    Parameters
    ----------
    model, label
        Model name and positive class.
    per_repeat : dict
        ``{repeat: (row, positive, score, fold)}``.
    sizes : tuple of float
        ``(n_train, n_test)``, the run's mean fold sizes.
    level : float
        Confidence level.
    n_groups : float
        Number of groups (NaN without groups), for the table.

    Returns
    -------
    list of dict
    """
    aucs = fold_aucs(per_repeat)
    aucs = aucs[~np.isnan(aucs)]
    if len(aucs) < 2:
        return []
    n_train, n_test = sizes
    low, high = corrected_interval(aucs, n_train, n_test, alpha=1.0 - level)
    _, positive, _, _ = next(iter(per_repeat.values()))
    return [{"model": model, "repeat": pd.NA, "positive_class": label,
             "method": "corrected_t", "estimate": "fold_average", "auc": float(np.mean(aucs)),
             "ci_low": max(0.0, low), "ci_high": min(1.0, high), "level": level,
             "se": corrected_std(aucs, n_train, n_test), "n_positive": int(positive.sum()),
             "n_negative": int((~positive).sum()), "n_groups": n_groups,
             "n_repeats": len(per_repeat), "n_folds": len(aucs)}]


def corrected_at(rows: pd.DataFrame, level: float) -> pd.DataFrame:
    """``corrected_t`` rows at another ``level``: ``auc ± t(level, n_folds − 1) · se``,
    clipped to [0, 1]."""
    out = rows.copy()
    half = student_t.ppf(0.5 + level / 2.0, out["n_folds"].astype(float) - 1.0) * out["se"]
    out["ci_low"] = (out["auc"] - half).clip(lower=0.0)
    out["ci_high"] = (out["auc"] + half).clip(upper=1.0)
    out["level"] = level
    return out
