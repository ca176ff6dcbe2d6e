"""Bates, Hastie and Tibshirani's nested-CV interval for one model's score.

Bates, S., Hastie, T. and Tibshirani, R. (2024), "Cross-validation: what does it estimate
and how well does it do it?", JASA 119(546), Algorithm 1, with its bias correction, as
mlr3inferr implements it (``R/MeasureCiNestedCV.R``, ``ci.ncv``; the fold layout of
``R/ResamplingNestedCV.R``): in each of ``R`` repeats the rows are split into ``K``
folds; every outer fold ``k`` is scored by a model fitted on the other ``K - 1`` folds (the
outer fits), and every other fold ``j`` is scored by a model fitted on the ``K - 2`` folds
left when ``k`` and ``j`` are both held out (the inner fits).

:func:`nested_interval` works on a tidy table of per-row scores of those fits
(:func:`row_scores`), or on their moments per fit (:class:`NestedMoments`: count, mean and
sum of squared deviations, combined exactly, so a large run keeps no row). The estimand is
the score of the model fitted on all rows (``model_on_all_rows``). Only metrics that are a
mean of per-row values qualify (:data:`NESTED_METRICS`); the formulas are invariant to the
sign of the score, so they run on the metric as scikit-learn scores it (accuracy, the
negated Brier score and log loss).
"""
from __future__ import annotations

from dataclasses import dataclass

from typing import Optional, cast

import numpy as np
import pandas as pd
from scipy.stats import norm

from engine.foundation.errors import EngineError

#: The metrics the nested interval accepts: each is the mean of a per-row value.
NESTED_METRICS = ("accuracy", "neg_brier_score", "neg_log_loss")

#: The interval's method and estimand (the shared ids of the coverage record).
METHOD, ESTIMAND = "nested_cv", "model_on_all_rows"


@dataclass(frozen=True)
class NestedInterval:
    """One model's nested-CV interval (on the metric's own scale, clamped to its range).

    Attributes
    ----------
    estimate : float
        The plain K-fold mean over the outer fits (``err_cv``).
    corrected : float
        The bias-corrected estimate: ``err_ncv - (1 + (K - 2) / K) (err_ncv - err_cv)``.
    ci_low, ci_high : float
        ``corrected ± z se``, clamped to the metric's range.
    se : float
        The standard error: ``sqrt(max(0, mse))`` held between ``se_low`` (the naive
        ``sd / sqrt(n)``) and ``sqrt(K) se_low``.
    se_low, mse : float
        The naive standard error and the rescaled MSE estimate, as computed.
    """

    estimate: float
    corrected: float
    ci_low: float
    ci_high: float
    se: float
    se_low: float
    mse: float


def check_nested_metric(metric: str) -> None:
    """Raise ``nested_metric`` unless ``metric`` is a mean of per-row values."""
    if metric not in NESTED_METRICS:
        raise EngineError("nested_metric", {"metric": metric, "allowed": list(NESTED_METRICS)},
                          f'cv.interval "nested" needs a primary metric that is a mean over '
                          f"rows, but it is {metric!r}: make the first metric one of "
                          f"{', '.join(NESTED_METRICS)}, or use \"interval\": \"corrected_t\"")


def metric_range(metric: str, n_classes: int) -> tuple:
    """The range of ``metric`` (mlr3inferr's ``within_range`` clamps to it)."""
    if metric == "accuracy":
        return 0.0, 1.0
    if metric == "neg_brier_score":
        return (-1.0 if n_classes == 2 else -2.0), 0.0
    return -np.inf, 0.0


def row_scores(metric: str, y: np.ndarray, kind, values, labels) -> Optional[np.ndarray]:
    """Per-row values whose mean is the fold's score as :mod:`engine.evaluation.metrics`
    computes it (scikit-learn's scorer).

    Parameters
    ----------
    metric : str
        One of :data:`NESTED_METRICS`.
    y : ndarray
        The test rows' class codes.
    kind : str or None
        What ``values`` holds (``FoldFit.kind``): the Brier score and log loss need
        ``"proba"``.
    values : ndarray or None
        The ``(n_test, K)`` predicted values.
    labels : ndarray or None
        The predicted class codes.

    Returns
    -------
    ndarray or None
        None when the fit has no predictions the metric needs.
    """
    y = np.asarray(y, dtype=np.int64)
    if metric == "accuracy":
        return None if labels is None else (np.asarray(labels) == y).astype(float)
    if kind != "proba" or values is None:
        return None
    proba = np.asarray(values, dtype=float)
    if proba.shape[1] == 2:                   # as scikit-learn's scorers: from P(class 1)
        proba = np.column_stack((1 - proba[:, 1], proba[:, 1]))
    if metric == "neg_brier_score":
        onehot = np.eye(proba.shape[1])[y]
        squares = np.sum((onehot - proba) ** 2, axis=1)
        return -(squares / 2 if proba.shape[1] == 2 else squares)
    eps = np.finfo(proba.dtype).eps
    return np.log(np.clip(proba[np.arange(len(y)), y], eps, 1 - eps))


@dataclass(frozen=True)
class Moments:
    """Count, mean and sum of squared deviations of some per-row values (combined exactly
    by Chan et al.'s rule, :func:`combined`, so no row needs to be kept)."""

    n: int
    mean: float
    m2: float

    @classmethod
    def of(cls, values) -> "Moments":
        values = np.asarray(values, dtype=float)
        if not len(values):
            return cls(0, 0.0, 0.0)
        mean = float(np.mean(values))
        return cls(len(values), mean, float(np.sum((values - mean) ** 2)))

    def variance(self) -> float:
        """The sample variance (``var`` of R, ``ddof=1``)."""
        return self.m2 / (self.n - 1) if self.n > 1 else np.nan


def combined(a: Moments, b: Moments) -> Moments:
    """The moments of two sets of values together."""
    if not a.n:
        return b
    if not b.n:
        return a
    n = a.n + b.n
    delta = b.mean - a.mean
    return Moments(n, a.mean + delta * b.n / n, a.m2 + b.m2 + delta ** 2 * a.n * b.n / n)


@dataclass
class NestedMoments:
    """What the interval needs of one model's nested fits: per ``(repeat, outer fold)`` the
    moments of the outer fit's rows and of its inner fits' rows together."""

    outer: dict
    inner: dict

    def add(self, repeat: int, outer: int, inner: int, values) -> None:
        """Add one fit's per-row values (``inner`` 0 for an outer fit)."""
        into = self.inner if inner else self.outer
        key = (int(repeat), int(outer))
        into[key] = combined(into.get(key, Moments(0, 0.0, 0.0)), Moments.of(values))


def table_moments(table: pd.DataFrame) -> NestedMoments:
    """:class:`NestedMoments` of a tidy table (``repeat, outer, inner, value``)."""
    moments = NestedMoments({}, {})
    for key, part in table.groupby(["repeat", "outer", "inner"]):
        repeat, outer, inner = cast("tuple[int, int, int]", key)
        moments.add(repeat, outer, inner, part["value"].to_numpy())
    return moments


def nested_interval(table: pd.DataFrame, n_rows: int, n_folds: int, *, level: float = 0.95,
                    bounds: tuple = (-np.inf, np.inf)) -> NestedInterval:
    """Bates et al.'s interval from the per-row values of one model's nested fits.

    Parameters
    ----------
    table : DataFrame
        One row per (fit, test row): ``repeat``, ``outer`` (the outer fold), ``inner`` (the
        inner test fold; 0 for an outer fit) and ``value`` (:func:`row_scores`).
    n_rows : int
        Rows of the data set (``n`` of the naive standard error).
    n_folds : int
        ``K``, at least 3.
    level : float
        The confidence level (``1 - alpha``).
    bounds : (float, float)
        The metric's range (:func:`metric_range`).

    Returns
    -------
    NestedInterval
    """
    return moments_interval(table_moments(table), n_rows, n_folds, level=level, bounds=bounds)


def moments_interval(moments: NestedMoments, n_rows: int, n_folds: int,
                     *, level: float = 0.95, bounds: tuple = (-np.inf, np.inf)) -> NestedInterval:
    """:func:`nested_interval` from the fits' :class:`NestedMoments` (mlr3inferr's ``.ci``
    and ``within_range``: see the module's note)."""
    keys = sorted(set(moments.outer) & set(moments.inner))
    b_list = np.array([moments.outer[k].variance() / moments.outer[k].n for k in keys])
    a_list = np.array([(moments.inner[k].mean - moments.outer[k].mean) ** 2 for k in keys])
    inner, outer = Moments(0, 0.0, 0.0), Moments(0, 0.0, 0.0)
    for k in sorted(moments.inner):
        inner = combined(inner, moments.inner[k])
    for k in sorted(moments.outer):
        outer = combined(outer, moments.outer[k])
    err_ncv, err_cv = inner.mean, outer.mean
    mse = (n_folds - 1) / n_folds * float(np.mean(a_list - b_list))
    se_low = float(np.sqrt(inner.variance())) / np.sqrt(n_rows)
    se = max(se_low, min(np.sqrt(max(0.0, mse)), se_low * np.sqrt(n_folds)))
    half = norm.ppf(1 - (1 - level) / 2) * se
    corrected = err_ncv - (1 + (n_folds - 2) / n_folds) * (err_ncv - err_cv)
    low, high = bounds
    return NestedInterval(estimate=err_cv,
                          corrected=float(np.clip(corrected, low, high)),
                          ci_low=float(np.clip(corrected - half, low, high)),
                          ci_high=float(np.clip(corrected + half, low, high)),
                          se=float(se), se_low=float(se_low), mse=float(mse))
