"""``subgroup_scores.csv`` and ``subgroup_gaps.csv`` from the subgroup scores.

Score: each subgroup's metric on its out-of-fold rows in each repeat, then the mean over
repeats. Interval (``method`` :data:`SCORE_METHOD`): Nadeau and Bengio's corrected t,
centred on that score, its width from the subgroup's per-fold scores
(``t(1 − α/2, J − 1) · sqrt(s² (1/J + n_test/n_train))``, J the folds where the score is
defined): like ``summary_mean`` it is about the expected score of a model trained on a
training fold's number of rows (``estimand`` :data:`ESTIMAND`), here on the subgroup's
rows. Gap (``method`` :data:`GAP_METHOD`): the largest difference between two subgroups
with a verdict, tested by the corrected paired t over their fold-wise differences (the
folds are shared), two-sided, its p multiplied by the number of pairs it was chosen from
and its interval at level ``1 − α / pairs`` (Bonferroni, both: the largest gap is picked
after looking, and the interval excludes 0 exactly when p < α). Both intervals are clipped
to the metric's range (:func:`clip_score`, :func:`clip_gap`), as the AUC's corrected t is.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import t as student_t

from engine.evaluation.interval_bounds import metric_range
from engine.evaluation.stats import corrected_std

SCORE_COLUMNS = ["model", "column", "subgroup", "metric", "n_rows", "n_positive", "score",
                 "ci_low", "ci_high", "level", "method", "estimand", "verdict_allowed"]
GAP_COLUMNS = ["model", "column", "metric", "subgroup_high", "subgroup_low", "gap", "ci_low",
               "ci_high", "p_value", "method"]
SCORE_METHOD = "corrected_t_folds"
#: The interval's id in the coverage study and ``measured_coverage.csv``.
INTERVAL_ID = "subgroup_score"
GAP_METHOD = "corrected_paired_t_folds_bonferroni"
ESTIMAND = "expected_score_at_training_size"
#: A subgroup gets a verdict from this many rows and this many rows of every class.
MIN_ROWS, MIN_EVENTS = 30, 5


def subgroup_sizes(grouping, y: np.ndarray, n_classes: int, pos_label) -> pd.DataFrame:
    """``subgroup, n_rows, n_positive, verdict_allowed`` of every subgroup (rows of the
    data; ``n_positive`` for two classes only)."""
    rows = []
    for s in range(len(grouping.labels)):
        counts = np.bincount(y[grouping.codes == s], minlength=n_classes)
        positive = int(counts[pos_label]) if pos_label is not None else np.nan
        allowed = bool(counts.sum() >= MIN_ROWS and counts.min() >= MIN_EVENTS)
        rows.append((s, int(counts.sum()), positive, allowed))
    return pd.DataFrame(rows, columns=["subgroup", "n_rows", "n_positive", "verdict_allowed"])


def _half_width(values, n_train: float, n_test: float, alpha: float) -> float:
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    if len(values) < 2:
        return np.nan
    return float(student_t.ppf(1 - alpha / 2, len(values) - 1)
                 * corrected_std(values, n_train, n_test))


def clip_score(low: float, high: float, metric: str) -> tuple:
    """``(low, high)`` cut to ``metric``'s possible range
    (:func:`engine.evaluation.interval_bounds.metric_range`; an open side is left as is)."""
    bottom, top = metric_range(metric)
    return (low if bottom is None else max(low, bottom),
            high if top is None else min(high, top))


def clip_gap(low: float, high: float, metric: str) -> tuple:
    """``(low, high)`` of a gap between two scores cut to ``[-width, width]``, ``width``
    the width of ``metric``'s range (not cut when the range is open)."""
    bottom, top = metric_range(metric)
    if bottom is None or top is None:
        return low, high
    width = top - bottom
    return max(low, -width), min(high, width)


def scores_table(grouping, repeat_scores, fold_scores, sizes, sizes_ratio, alpha) -> pd.DataFrame:
    """The rows of ``subgroup_scores.csv`` of one column (:data:`SCORE_COLUMNS`)."""
    n_train, n_test = sizes_ratio
    means = repeat_scores.groupby(["model", "subgroup", "metric"], sort=False)["score"].mean()
    folds = fold_scores.groupby(["model", "subgroup", "metric"], sort=False)["score"]
    rows = []
    for (model, s, metric), score in means.items():
        half = _half_width(folds.get_group((model, s, metric)), n_train, n_test, alpha) \
            if (model, s, metric) in folds.groups else np.nan
        size = sizes.iloc[s]
        low, high = clip_score(score - half, score + half, str(metric))
        rows.append((model, grouping.column, grouping.labels[s], metric, int(size["n_rows"]),
                     size["n_positive"], score, low, high, 1 - alpha,
                     SCORE_METHOD, ESTIMAND, bool(size["verdict_allowed"])))
    return pd.DataFrame(rows, columns=SCORE_COLUMNS)


def gaps_table(grouping, scores: pd.DataFrame, fold_scores, sizes_ratio, alpha) -> pd.DataFrame:
    """The rows of ``subgroup_gaps.csv`` of one column (:data:`GAP_COLUMNS`): per model
    and metric, the largest gap between subgroups with a verdict (none with fewer than
    two)."""
    n_train, n_test = sizes_ratio
    index = {label: i for i, label in enumerate(grouping.labels)}
    rows = []
    for (model, metric), part in scores.groupby(["model", "metric"], sort=False):
        part = part[part["verdict_allowed"] & np.isfinite(part["score"].astype(float))]
        if len(part) < 2:
            continue
        high = part.iloc[part["score"].argmax()]
        low = part.iloc[part["score"].argmin()]
        gap = float(high["score"] - low["score"])
        diffs = _fold_differences(fold_scores, model, metric, index[high["subgroup"]],
                                  index[low["subgroup"]])
        n_pairs = len(part) * (len(part) - 1) // 2
        half = _half_width(diffs, n_train, n_test, alpha / n_pairs)
        ends = clip_gap(gap - half, gap + half, str(metric))
        rows.append((model, grouping.column, metric, high["subgroup"], low["subgroup"], gap,
                     *ends, _p_value(gap, diffs, n_train, n_test, n_pairs),
                     GAP_METHOD))
    return pd.DataFrame(rows, columns=GAP_COLUMNS)


def _fold_differences(fold_scores, model, metric, high: int, low: int) -> np.ndarray:
    part = fold_scores[(fold_scores["model"] == model) & (fold_scores["metric"] == metric)]
    wide = part.pivot_table(index=["repeat", "fold"], columns="subgroup", values="score",
                            dropna=False)
    if high not in wide or low not in wide:
        return np.array([])
    diffs = (wide[high] - wide[low]).to_numpy(dtype=float)
    return diffs[np.isfinite(diffs)]


def _p_value(gap: float, diffs: np.ndarray, n_train: float, n_test: float,
             n_pairs: int) -> float:
    """Two-sided corrected paired t p of ``gap``, times ``n_pairs`` (at most 1)."""
    if len(diffs) < 2:
        return np.nan
    std = corrected_std(diffs, n_train, n_test)
    if std == 0:
        return 1.0 if gap == 0 else 0.0
    p = 2 * float(student_t.sf(abs(gap) / std, len(diffs) - 1))
    return min(1.0, p * n_pairs)
