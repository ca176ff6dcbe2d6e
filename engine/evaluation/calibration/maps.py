"""Calibration statistics and deployable calibration maps (no model fitting here).

* :func:`reliability_diagram` -- the binned reliability diagram, the same numbers as
  :func:`sklearn.calibration.calibration_curve`, plus bin edges and counts.
* :func:`calibration_scores` -- Brier score, log loss and expected calibration error.
* :func:`fit_calibration_map` / :func:`apply_calibration_map` -- the bucket lookup table of
  the isotonic CTR-calibration recipe: cut the probability range into N buckets, take each
  bucket's positive rate, run isotonic regression over the buckets weighted by their counts,
  and look a new probability up in the table.
* :func:`decision_to_probability` -- the documented transform of decision values into [0, 1].

Everything here is plain numpy/scipy and linear (after one bucketing pass) in the number
of predictions, so a million predictions and 100,000 buckets take a fraction of a second.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from engine.foundation.caller_errors import CallerError
from engine.foundation.errors import EngineError

STRATEGIES = ("uniform", "quantile")
MAP_METHODS = ("isotonic", "sigmoid")

#: Share of predictions in the two end buckets of a uniform map above which a note says so.
CROWDING_SHARE = 0.25


# ----------------------------------------------------------------------------- checks

def _check_strategy(strategy) -> None:
    if strategy not in STRATEGIES:
        # the caller's arguments (the app passes its own checked predictions)
        raise CallerError("argument_choice",
                          f"strategy must be 'uniform' or 'quantile' (got {strategy!r})")


def _check_count(value, what: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        # the caller's arguments (the app passes its own checked predictions)
        raise CallerError("argument_value",
                          f"{what} must be a whole number of at least {minimum} (got {value!r})")
    return int(value)


def _check_binary(y_true, prob, what: str = "prob") -> tuple:
    y = np.asarray(y_true)
    p = np.asarray(prob, dtype=float)
    if y.ndim != 1 or p.ndim != 1:
        # the caller's arguments (the app passes its own checked predictions)
        raise CallerError("argument_array",
                          f"y_true and {what} must be 1-D (one value per prediction; for several "
                          f"classes pass one class's probabilities and y_true == that class)")
    if len(y) != len(p):
        # the caller's arguments (the app passes its own checked predictions)
        raise CallerError("argument_array",
                          f"y_true has {len(y)} values but {what} has {len(p)}: pass one "
                          "probability per label")
    if len(y) == 0:
        # the caller's arguments (the app passes its own checked predictions)
        raise CallerError("argument_array",
                          "no predictions given: y_true and prob are empty")
    if y.dtype == bool:
        y = y.astype(np.int8)
    elif not np.all((y == 0) | (y == 1)):
        # the caller's arguments (the app passes its own checked predictions)
        raise CallerError("argument_array",
                          "y_true must hold 0/1 (or True/False) outcomes; for class labels pass "
                          "y_true == positive_class")
    if not np.all(np.isfinite(p)):
        # the caller's arguments (the app passes its own checked predictions)
        raise CallerError("argument_array",
                          f"{what} holds NaN or infinite values: drop those predictions first")
    if p.min() < 0 or p.max() > 1:
        # the caller's arguments (the app passes its own checked predictions)
        raise CallerError("argument_array",
                          f"{what} has values outside [0, 1]; decision values must be turned "
                          "into probabilities first (see decision_to_probability)")
    return y.astype(float), p


# ----------------------------------------------------------------------------- transforms

def decision_to_probability(values) -> np.ndarray:
    """Turn decision values into numbers in [0, 1] for diagrams and maps.

    The transform is fixed, monotone and uses no data (so it cannot leak anything
    between folds): for two classes (1-D ``values``, or the CV's two columns
    ``(-d, d)``) it is the logistic ``1 / (1 + exp(-d))`` of the decision value ``d``;
    for K > 2 classes it is the softmax over the K decision values. It does not make the
    values calibrated -- it only puts them on the probability scale, which is what the
    calibrated variants are then compared against.

    Parameters
    ----------
    values : array of shape (n,) or (n, K)

    Returns
    -------
    ndarray of shape (n,) for 1-D input, else (n, K) with rows summing to 1.
    """
    from scipy.special import expit, softmax

    values = np.asarray(values, dtype=float)
    if values.ndim == 1:
        return expit(values)
    if values.shape[1] == 2:
        p1 = expit(values[:, 1])
        return np.column_stack([1.0 - p1, p1])
    return softmax(values, axis=1)


# ----------------------------------------------------------------------------- diagrams

def _bin_edges(prob: np.ndarray, n_bins: int, strategy: str) -> np.ndarray:
    if strategy == "quantile":
        return np.percentile(prob, np.linspace(0, 1, n_bins + 1) * 100)
    return np.linspace(0.0, 1.0, n_bins + 1)


def reliability_diagram(y_true, prob, *, n_bins: int = 10,
                        strategy: str = "uniform") -> pd.DataFrame:
    """Reliability diagram of predicted probabilities against observed outcomes.

    The same bins and numbers as :func:`sklearn.calibration.calibration_curve`
    (``fraction_positive`` is its ``prob_true``, ``mean_predicted`` its ``prob_pred``),
    with the bins' edges and counts added; empty bins are left out.

    Parameters
    ----------
    y_true : array of shape (n,)
        Outcomes, 0/1 (or bool); 1 is the positive class.
    prob : array of shape (n,)
        Predicted probabilities of the positive class, in [0, 1].
    n_bins : int
        Number of bins.
    strategy : {"uniform", "quantile"}
        ``"uniform"``: bins of equal width over [0, 1]; ``"quantile"``: bin edges at the
        quantiles of ``prob``, so bins hold about equally many predictions (use it when the
        model's probabilities crowd into a few bins, as naive Bayes' do near 0 and 1).

    Returns
    -------
    DataFrame
        ``bin, mean_predicted, fraction_positive, count, bin_low, bin_high``: one row per
        non-empty bin, in order.
    """
    _check_strategy(strategy)
    n_bins = _check_count(n_bins, "n_bins")
    y, p = _check_binary(y_true, prob)
    edges = _bin_edges(p, n_bins, strategy)
    ids = np.searchsorted(edges[1:-1], p)
    sums = np.bincount(ids, weights=p, minlength=n_bins)
    trues = np.bincount(ids, weights=y, minlength=n_bins)
    totals = np.bincount(ids, minlength=n_bins)
    keep = np.flatnonzero(totals)
    return pd.DataFrame({"bin": keep, "mean_predicted": sums[keep] / totals[keep],
                         "fraction_positive": trues[keep] / totals[keep],
                         "count": totals[keep].astype(np.int64),
                         "bin_low": edges[keep], "bin_high": edges[keep + 1]})


#: The interval of a reliability diagram's observed frequency (see :func:`observed_interval`).
INTERVAL = "jeffreys"
#: Its level.
INTERVAL_LEVEL = 0.95


def observed_interval(fraction, count, *, n_repeats: int = 1, level: float = INTERVAL_LEVEL
                      ) -> tuple:
    """Jeffreys interval of each bin's observed frequency of the positive class.

    The equal-tailed interval of the Beta(x + ½, n − x + ½) posterior (Brown, Cai &
    DasGupta 2001), as ``statsmodels.stats.proportion.proportion_confint(x, n,
    method="jeffreys")``: it keeps close to its nominal coverage for small bins and for
    frequencies near 0 or 1, where reliability diagrams put their outer bins and the
    normal (Wald) interval collapses. As Brown, Cai & DasGupta advise, a bin with no
    positive row starts its interval at 0 and one with only positive rows ends it at 1
    (statsmodels leaves the plain Beta quantile there, which would exclude the observed
    frequency).

    Pooled out-of-fold predictions hold every row once per repeat, so a bin of ``count``
    predictions holds about ``count / n_repeats`` distinct rows: the interval counts
    ``n = count / n_repeats`` and ``x = fraction · n`` (not the repeated predictions,
    which would make it too narrow).

    Parameters
    ----------
    fraction, count : array
        ``fraction_positive`` and ``count`` of the diagram's bins.
    n_repeats : int
        Repeats pooled into the diagram.
    level : float
        Coverage, 0.95 by default.

    Returns
    -------
    (ci_low, ci_high) : tuple of ndarray
    """
    from scipy.stats import beta

    n = np.asarray(count, dtype=float) / max(int(n_repeats), 1)
    x = np.asarray(fraction, dtype=float) * n
    tail = (1.0 - level) / 2.0
    low = np.where(x <= 0, 0.0, beta.ppf(tail, x + 0.5, n - x + 0.5))
    high = np.where(x >= n, 1.0, beta.isf(tail, x + 0.5, n - x + 0.5))
    return low, high


def with_interval(diagram: pd.DataFrame, *, n_repeats: int = 1) -> pd.DataFrame:
    """``diagram`` with ``ci_low, ci_high, interval`` (:func:`observed_interval`) and
    ``estimand``: the pooled out-of-fold predictions are the fold models', so the interval
    is about the share those models' rows of a bin have, ``fold_models_mean``."""
    low, high = observed_interval(diagram["fraction_positive"], diagram["count"],
                                  n_repeats=n_repeats)
    return diagram.assign(ci_low=low, ci_high=high, interval=INTERVAL,
                          estimand="fold_models_mean")


def expected_calibration_error(diagram: pd.DataFrame) -> float:
    """ECE of a reliability diagram: count-weighted mean |fraction_positive - mean_predicted|."""
    counts = diagram["count"].to_numpy(dtype=float)
    gaps = np.abs(diagram["fraction_positive"].to_numpy() - diagram["mean_predicted"].to_numpy())
    return float(np.sum(counts * gaps) / np.sum(counts))


# ----------------------------------------------------------------------------- scores

def _as_proba_matrix(y_true, proba) -> tuple:
    """(class codes, (n, K) probabilities) with checks; 1-D proba is P(class 1)."""
    y = np.asarray(y_true)
    p = np.asarray(proba, dtype=float)
    if p.ndim == 1:
        p = np.column_stack([1.0 - p, p])
    if p.ndim != 2 or p.shape[1] < 2:
        # the caller's arguments (the app passes its own checked predictions)
        raise CallerError("argument_array",
                          "proba must be the probabilities of class 1 (1-D) or one column per "
                          "class (2-D)")
    if y.ndim != 1 or len(y) != len(p):
        # the caller's arguments (the app passes its own checked predictions)
        raise CallerError("argument_array",
                          f"y_true has {len(y)} labels but proba has {len(p)} rows: pass one "
                          "row of probabilities per label")
    if len(y) == 0:
        # the caller's arguments (the app passes its own checked predictions)
        raise CallerError("argument_array",
                          "no predictions given: y_true and proba are empty")
    if not np.all(np.isfinite(p)) or p.min() < 0 or p.max() > 1:
        # the caller's arguments (the app passes its own checked predictions)
        raise CallerError("argument_array",
                          "proba must hold probabilities in [0, 1] (no NaN); turn decision "
                          "values into probabilities first (see decision_to_probability)")
    if y.dtype == bool:
        y = y.astype(np.int64)
    if not np.issubdtype(y.dtype, np.integer) or y.min() < 0 or y.max() >= p.shape[1]:
        # the caller's arguments (the app passes its own checked predictions)
        raise CallerError("argument_array",
                          f"y_true must hold class codes 0..{p.shape[1] - 1}, matching the "
                          "columns of proba")
    return y.astype(np.int64), p


def row_losses(y, p) -> tuple:
    """Per-prediction Brier and log-loss terms (their means are the scores).

    Two classes: from ``p1 = P(class 1)`` alone (column 0 is ignored, as scikit-learn's
    scorers do): ``(p1 - y)**2`` and the log loss of ``p1`` or ``1 - p1``; K > 2 classes:
    ``sum_k (p_k - [y == k])**2`` (scikit-learn's multiclass Brier score) and the log loss of
    ``p_y``. Log terms are ``-log(clip(p, eps, 1 - eps))``, ``eps`` the float64 machine
    epsilon, as :func:`sklearn.metrics.log_loss`.
    """
    n, k = p.shape
    eps = np.finfo(float).eps
    if k == 2:  # from P(class 1) alone, as scikit-learn's neg_brier_score / neg_log_loss
        p1 = p[:, 1]
        brier = (p1 - (y == 1)) ** 2
        picked = np.where(y == 1, p1, 1.0 - p1)
    else:
        picked = p[np.arange(n), y]
        brier = np.sum(p ** 2, axis=1) - 2.0 * picked + 1.0
    return brier, -np.log(np.clip(picked, eps, 1.0 - eps))


def calibration_scores(y_true, proba, *, n_bins: int = 10, strategy: str = "uniform") -> dict:
    """Brier score, log loss and expected calibration error of probabilistic predictions.

    Parameters
    ----------
    y_true : array of shape (n,)
        Class codes 0..K-1 (0/1 for two classes).
    proba : array of shape (n,) or (n, K)
        1-D: probability of class 1 (two classes); 2-D: one column per class.
    n_bins, strategy
        Bins of the reliability diagram(s) behind the ECE (see :func:`reliability_diagram`).

    Returns
    -------
    dict
        ``brier`` (as :func:`sklearn.metrics.brier_score_loss`; for K > 2 classes the
        multiclass Brier score, summed over classes), ``log_loss`` (as
        :func:`sklearn.metrics.log_loss`) and ``ece`` (two classes: the ECE of the diagram of
        P(class 1); K > 2: the mean over classes of the one-vs-rest ECEs, i.e. of the
        per-class diagrams). Lower is better for all three.
    """
    y, p = _as_proba_matrix(y_true, proba)
    brier, logs = row_losses(y, p)
    classes = [1] if p.shape[1] == 2 else range(p.shape[1])
    ece = np.mean([expected_calibration_error(
        reliability_diagram(y == k, p[:, k], n_bins=n_bins, strategy=strategy)) for k in classes])
    return {"brier": float(np.mean(brier)), "log_loss": float(np.mean(logs)), "ece": float(ece)}


# ----------------------------------------------------------------------------- maps

def _uniform_bucket_ids(p: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """``searchsorted(edges[:-1], p, 'right') - 1`` in O(n) for equal-width edges."""
    n = len(edges) - 1
    ids = np.minimum((p * n).astype(np.int64), n - 1)
    ids -= p < edges[ids]                       # floating-point corrections at the edges
    ids += (p >= edges[ids + 1]) & (ids < n - 1)
    return ids


def _map_edges(p: np.ndarray, n_buckets: int, strategy: str) -> np.ndarray:
    if strategy == "uniform":
        return np.arange(n_buckets + 1) / n_buckets
    edges = np.unique(np.percentile(p, np.linspace(0, 100, n_buckets + 1)))
    return np.unique(np.concatenate(([0.0], edges[1:-1], [1.0])))


def fit_calibration_map(y_true, prob, *, n_buckets: int = 1000, strategy: str = "uniform",
                        method: str = "isotonic") -> pd.DataFrame:
    """Fit a deployable lookup table from uncalibrated probability to calibrated probability.

    The isotonic recipe used for click-through rates: the probability range [0, 1] is cut
    into ``n_buckets`` buckets; each bucket's positive rate is computed; isotonic
    regression (pool adjacent violators) runs over the non-empty buckets in order,
    weighted by their counts. A bucket's calibrated value is that fit; an empty bucket
    takes the value interpolated linearly, at its centre, between the non-empty buckets'
    fits placed at their mean predicted probabilities (constant beyond the ends), so the
    table is non-decreasing everywhere. As buckets get finer this approaches
    :class:`sklearn.isotonic.IsotonicRegression` fitted on the raw probabilities.

    ``method="sigmoid"`` fills the same buckets with Platt scaling instead: a logistic
    regression of the outcome on ``logit(prob)`` (clipped to [1e-15, 1 - 1e-15]), fitted
    with scikit-learn's :class:`~sklearn.calibration.CalibratedClassifierCV` and evaluated
    at each bucket's mean predicted probability (its centre when empty). For probabilities
    that come from decision values through :func:`decision_to_probability` that is Platt
    scaling of the decision values.

    Uniform buckets suit probabilities spread over [0, 1]. Models with extreme
    probabilities (naive Bayes above all) crowd most predictions into the first and last
    buckets, where a uniform table has no resolution: use ``strategy="quantile"``, which
    puts bucket edges at the quantiles of ``prob`` (ties merge buckets, so fewer than
    ``n_buckets`` may remain; the outer edges are stretched to 0 and 1).

    Parameters
    ----------
    y_true : array of shape (n,)
        0/1 outcomes.
    prob : array of shape (n,)
        Uncalibrated probabilities of the positive class, in [0, 1], from data the model
        was not fitted on (out-of-fold predictions).
    n_buckets : int
        Number of buckets (the recipe uses 10**5 to 10**6 for millions of predictions).
    strategy : {"uniform", "quantile"}
    method : {"isotonic", "sigmoid"}

    Returns
    -------
    DataFrame
        ``bucket_low, bucket_high, calibrated, count, fraction_positive``: one row per
        bucket in order, covering [0, 1]; a probability ``x`` belongs to the bucket with
        ``bucket_low <= x < bucket_high`` (the last bucket includes 1). ``fraction_positive``
        is NaN for empty buckets.
    """
    from scipy.optimize import isotonic_regression

    _check_strategy(strategy)
    if method not in MAP_METHODS:
        # the caller's arguments (the app passes its own checked predictions)
        raise CallerError("argument_choice",
                          f"method must be 'isotonic' or 'sigmoid' (got {method!r})")
    n_buckets = _check_count(n_buckets, "n_buckets")
    y, p = _check_binary(y_true, prob)
    edges = _map_edges(p, n_buckets, strategy)
    n = len(edges) - 1
    ids = _bucket_ids(p, edges, strategy == "uniform")
    counts = np.bincount(ids, minlength=n)
    positives = np.bincount(ids, weights=y, minlength=n)
    full = np.flatnonzero(counts)
    rate = np.full(n, np.nan)
    rate[full] = positives[full] / counts[full]
    # where each bucket sits: its mean predicted probability, or its centre when empty
    points = (edges[:-1] + edges[1:]) / 2
    points[full] = np.bincount(ids, weights=p, minlength=n)[full] / counts[full]
    if method == "isotonic":
        fitted = isotonic_regression(rate[full], weights=counts[full].astype(float)).x
        calibrated = np.interp(points, points[full], fitted)   # exact at non-empty buckets
        calibrated[full] = fitted
    else:
        calibrated = _platt(y, p, points)
    return pd.DataFrame({"bucket_low": edges[:-1], "bucket_high": edges[1:],
                         "calibrated": calibrated, "count": counts.astype(np.int64),
                         "fraction_positive": rate})


def _bucket_ids(p: np.ndarray, edges: np.ndarray, uniform: bool) -> np.ndarray:
    if uniform:
        return _uniform_bucket_ids(p, edges)
    return np.clip(np.searchsorted(edges[:-1], p, side="right") - 1, 0, len(edges) - 2)


def _logit(p: np.ndarray) -> np.ndarray:
    from scipy.special import logit

    return logit(np.clip(p, 1e-15, 1 - 1e-15))


def _platt(y, p, at) -> np.ndarray:
    """Platt scaling of ``logit(p)`` fitted on (p, y), evaluated at ``at``."""
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.frozen import FrozenEstimator

    if len(np.unique(y)) < 2:
        raise EngineError("calibration_one_class")
    scorer = FrozenEstimator(_identity_classifier().fit(None, y))
    platt = CalibratedClassifierCV(scorer, method="sigmoid").fit(_logit(p)[:, None], y)
    return platt.predict_proba(_logit(np.asarray(at, dtype=float))[:, None])[:, 1]


def _identity_classifier():
    """A fitted 'classifier' whose decision value is its one input column (for Platt)."""
    from sklearn.base import BaseEstimator, ClassifierMixin

    class Identity(ClassifierMixin, BaseEstimator):
        def fit(self, X, y):
            self.classes_ = np.array([0.0, 1.0])
            return self

        def decision_function(self, X):
            return np.asarray(X, dtype=float)[:, 0]

        def predict(self, X):
            return self.classes_[(self.decision_function(X) > 0).astype(int)]

    return Identity()


def apply_calibration_map(calibration_map: pd.DataFrame, prob) -> np.ndarray:
    """Look probabilities up in a calibration map (a table from :func:`fit_calibration_map`).

    Parameters
    ----------
    calibration_map : DataFrame
        ``bucket_low, bucket_high, calibrated`` rows in bucket order (a ``calibration_map.csv``
        read back works). With a ``class`` column holding several classes, the map holds
        one table per class (one-vs-rest, classes in order of first appearance) and ``prob``
        must have one column per class: each column is looked up in its class's table and
        the rows are renormalised to sum to 1.
    prob : array of shape (n,) or (n, K)
        Uncalibrated probabilities in [0, 1]; values outside are clipped into [0, 1].

    Returns
    -------
    ndarray
        Calibrated probabilities, the shape of ``prob``.
    """
    missing = [c for c in ("bucket_low", "bucket_high", "calibrated")
               if not isinstance(calibration_map, pd.DataFrame) or c not in calibration_map]
    if missing:
        # the caller's arguments (the app passes its own checked predictions)
        raise CallerError("argument_type",
                          "calibration_map must be a table with columns bucket_low, bucket_high "
                          "and calibrated (missing: " + ", ".join(missing) + ")")
    p = np.asarray(prob, dtype=float)
    if np.isnan(p).any():
        # the caller's arguments (the app passes its own checked predictions)
        raise CallerError("argument_array",
                          "prob holds NaN values: drop those predictions first")
    p = np.clip(p, 0.0, 1.0)
    if "class" in calibration_map.columns and calibration_map["class"].nunique() > 1:
        classes = pd.unique(calibration_map["class"])
        if p.ndim != 2 or p.shape[1] != len(classes):
            # the caller's arguments (the app passes its own checked predictions)
            raise CallerError("argument_array",
                              f"the map holds {len(classes)} classes; pass prob with one column "
                              f"per class (got shape {p.shape})")
        out = np.column_stack([
            _lookup(calibration_map[calibration_map["class"] == c], p[:, k])
            for k, c in enumerate(classes)])
        sums = out.sum(axis=1, keepdims=True)
        return np.divide(out, sums, out=np.full_like(out, 1.0 / len(classes)), where=sums > 0)
    return _lookup(calibration_map, p)


def _lookup(table: pd.DataFrame, p: np.ndarray) -> np.ndarray:
    lows = table["bucket_low"].to_numpy(dtype=float)
    values = table["calibrated"].to_numpy(dtype=float)
    if len(lows) == 0 or np.any(np.diff(lows) <= 0):
        # the caller's arguments (the app passes its own checked predictions)
        raise CallerError("argument_array",
                          "calibration_map must list its buckets in increasing order of "
                          "bucket_low, one row per bucket")
    edges = np.append(lows, table["bucket_high"].to_numpy(dtype=float)[-1])
    uniform = np.array_equal(edges, np.arange(len(lows) + 1) / len(lows))
    flat = p.ravel()
    return values[_bucket_ids(flat, edges, uniform)].reshape(p.shape)


def crowding_share(prob, n_buckets: int) -> float:
    """Share of probabilities in the first and last of ``n_buckets`` equal-width buckets."""
    p = np.asarray(prob, dtype=float)
    edges = np.arange(n_buckets + 1) / n_buckets
    ids = _uniform_bucket_ids(np.clip(p, 0, 1), edges)
    return float(np.mean((ids == 0) | (ids == n_buckets - 1))) if len(p) else 0.0
