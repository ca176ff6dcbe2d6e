"""Statistical comparison of cross-validated models.

Pure functions on arrays of per-fold scores, following the scikit-learn example
"Statistical comparison of models using grid search": Nadeau and Bengio's corrected
paired t-test (one-sided), the plain paired t-test, multiple-comparison corrections,
and the Bayesian correlated t-test (Benavoli et al.) with a region of practical
equivalence (ROPE) and credible intervals.

Degenerate inputs have defined results instead of warnings:

* folds where either model's score is NaN (a failed fit) are left out of that pair;
  fewer than two complete folds give NaN statistics;
* zero variance of the differences: if the mean difference is 0 too, t = 0 and
  p = 0.5 (two-sided: 1) and the posterior is a point mass at 0 (fully inside any ROPE,
  P(mu > 0) = 0.5); otherwise t = +/-inf, p = 0 and the posterior is a point mass at
  the mean difference.

The p-values of the seed example are one-sided in the direction the data picked
(``t.sf(|t|)``); marking them below alpha is a test at level 2 alpha. The two-sided
values (``2 t.sf(|t|)``, at most 1) are given beside them and are the ones the verdicts
use.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from itertools import combinations
from typing import Optional

import numpy as np
import pandas as pd
from scipy.stats import t as student_t

from engine.foundation.caller_errors import CallerError
from engine.foundation.errors import EngineError

CORRECTIONS = ("bonferroni", "holm", "none")


def corrected_std(differences, n_train: float, n_test: float) -> float:
    """Nadeau and Bengio's variance-corrected standard deviation of the mean difference.

    Parameters
    ----------
    differences : array-like of shape (k * r,)
        Per-fold score differences of two models.
    n_train, n_test : float
        Training and test set sizes of a fold.

    Returns
    -------
    float
        ``sqrt(var(differences, ddof=1) * (1 / (k r) + n_test / n_train))``.
    """
    differences = np.asarray(differences, dtype=float)
    kr = len(differences)
    return float(np.sqrt(_variance(differences) * (1.0 / kr + n_test / n_train)))


def _variance(differences: np.ndarray) -> float:
    """Sample variance (ddof=1); exactly 0 when all differences are equal."""
    if np.ptp(differences) == 0:
        return 0.0
    return float(np.var(differences, ddof=1))


def _t_and_p(mean: float, std: float, df: int) -> tuple:
    if std > 0:
        t_stat = mean / std
    elif mean == 0:
        t_stat = 0.0
    else:
        t_stat = float(np.copysign(np.inf, mean))
    return float(t_stat), float(student_t.sf(abs(t_stat), df))


def corrected_ttest(differences, n_train: float, n_test: float) -> tuple:
    """Nadeau and Bengio's corrected paired t-test, one-sided as in the scikit-learn example.

    Parameters
    ----------
    differences : array-like of shape (k * r,)
        Per-fold differences (model 1 minus model 2), no NaN.
    n_train, n_test : float
        Training and test set sizes of a fold.

    Returns
    -------
    t_stat, p_value : float
        ``t = mean / corrected_std`` and ``p = t.sf(|t|, df)`` with ``df = k r - 1``.
    """
    differences = np.asarray(differences, dtype=float)
    if len(differences) < 2:
        return np.nan, np.nan
    std = corrected_std(differences, n_train, n_test)
    return _t_and_p(float(np.mean(differences)), std, len(differences) - 1)


def corrected_interval(values, n_train: float, n_test: float, *, alpha: float = 0.05) -> tuple:
    """The corrected-t interval of the mean of per-fold values (Nadeau and Bengio).

    ``mean ± t(1 − alpha/2, n − 1) · sqrt((1/n + n_test/n_train) · s²)``, ``n`` the
    number of values (k·r folds), ``s²`` their sample variance (ddof=1). Applied to one
    model's fold scores it is an interval for its expected score; to paired fold
    differences, the interval of the corrected paired t-test. The correction widens the
    naive interval for the overlap of training sets, but it is a heuristic: Bates, Hastie
    and Tibshirani (2023, "Cross-validation: what does it estimate and how well does it
    do it?") show that such intervals can cover less often than their level says.

    Parameters
    ----------
    values : array-like
        Per-fold values; NaN ones (failed folds) are left out.
    n_train, n_test : float
        Mean training and test fold sizes.
    alpha : float
        1 − the interval's level.

    Returns
    -------
    (low, high) : tuple of float
        NaN with fewer than two values.
    """
    values = np.asarray(values, dtype=float)
    values = values[~np.isnan(values)]
    if len(values) < 2:
        return np.nan, np.nan
    mean = float(np.mean(values))
    half = float(student_t.ppf(1.0 - alpha / 2.0, len(values) - 1)) \
        * corrected_std(values, n_train, n_test)
    return mean - half, mean + half


def two_sided(p_one_sided: float) -> float:
    """The two-sided p-value of a symmetric test from its one-sided ``t.sf(|t|)``."""
    return float(min(1.0, 2.0 * p_one_sided)) if np.isfinite(p_one_sided) else np.nan


def plain_ttest(differences) -> tuple:
    """The ordinary paired t-test (folds taken as independent), one-sided like the corrected one.

    Returns
    -------
    t_stat, p_value : float
    """
    differences = np.asarray(differences, dtype=float)
    n = len(differences)
    if n < 2:
        return np.nan, np.nan
    std = float(np.sqrt(_variance(differences) / n))
    return _t_and_p(float(np.mean(differences)), std, n - 1)


def adjust_pvalues(p_values, *, method: str = "bonferroni") -> np.ndarray:
    """Correct p-values for multiple comparisons.

    Parameters
    ----------
    p_values : array-like
        One p-value per comparison (NaN ones are ignored and stay NaN).
    method : {"bonferroni", "holm", "none"}
        Bonferroni multiplies by the number of comparisons; Holm's step-down method
        multiplies the i-th smallest by (m - i) and keeps the results monotone.
        Results are capped at 1.

    Returns
    -------
    numpy.ndarray
    """
    if method not in CORRECTIONS:
        # an argument of the engine's own callers (ComparisonSettings checks the user's)
        raise CallerError("argument_choice",
                          f"unknown correction {method!r}; choose one of: "
                          + ", ".join(CORRECTIONS))
    p = np.asarray(p_values, dtype=float)
    out = p.copy()
    valid = ~np.isnan(p)
    m = int(valid.sum())
    if method == "none" or m == 0:
        return out
    pv = p[valid]
    if method == "bonferroni":
        adjusted = pv * m
    else:
        order = np.argsort(pv, kind="mergesort")
        stepped = np.maximum.accumulate(pv[order] * (m - np.arange(m)))
        adjusted = np.empty(m)
        adjusted[order] = stepped
    out[valid] = np.minimum(adjusted, 1.0)
    return out


@dataclass(frozen=True)
class Posterior:
    """The Bayesian posterior of the mean difference: Student t(df, mean, scale).

    ``scale == 0`` is a point mass at ``mean`` (zero variance of the differences).
    """

    df: int
    mean: float
    scale: float

    def cdf(self, x):
        if self.scale > 0:
            return student_t.cdf(x, self.df, loc=self.mean, scale=self.scale)
        return np.where(np.asarray(x) >= self.mean, 1.0, 0.0)

    def pdf(self, x):
        return student_t.pdf(x, self.df, loc=self.mean, scale=self.scale)

    def ppf(self, q):
        if self.scale > 0:
            return student_t.ppf(q, self.df, loc=self.mean, scale=self.scale)
        return np.full_like(np.asarray(q, dtype=float), self.mean)

    def probabilities(self, rope: float) -> dict:
        """P(mu > 0), and P(better), P(equivalent), P(worse) against ``[-rope, rope]``."""
        if rope < 0:
            # an argument of the engine's own callers (ComparisonSettings checks the user's)
            raise CallerError("argument_value",
                              f"the ROPE half-width must be 0 or more (got {rope})")
        if not np.isfinite(self.mean):
            return dict.fromkeys(("p_mu_positive", "p_better", "p_equivalent", "p_worse"), np.nan)
        low, high, zero = (float(v) for v in self.cdf(np.array([-rope, rope, 0.0])))
        if self.scale == 0:
            p_positive = 0.5 if self.mean == 0 else float(self.mean > 0)
            better, worse = float(self.mean > rope), float(self.mean < -rope)
            return {"p_mu_positive": p_positive, "p_better": better,
                    "p_equivalent": 1.0 - better - worse, "p_worse": worse}
        return {"p_mu_positive": 1.0 - zero, "p_better": 1.0 - high,
                "p_equivalent": high - low, "p_worse": low}

    def interval(self, level: float) -> tuple:
        """Central credible interval holding ``level`` of the posterior mass."""
        if not 0 < level < 1:
            # an argument of the engine's own callers (ComparisonSettings checks the user's)
            raise CallerError("argument_value",
                              f"a credible level must be between 0 and 1 (got {level})")
        if not np.isfinite(self.mean):
            return np.nan, np.nan
        tail = (1.0 - level) / 2.0
        low, high = self.ppf(np.array([tail, 1.0 - tail]))
        return float(low), float(high)


def posterior(differences, n_train: float, n_test: float) -> Posterior:
    """Posterior of the mean difference (Benavoli et al.'s correlated Bayesian t-test).

    Parameters
    ----------
    differences : array-like of shape (k * r,)
        Per-fold differences (model 1 minus model 2), no NaN.
    n_train, n_test : float
        Training and test set sizes of a fold.

    Returns
    -------
    Posterior
        Student t with ``df = k r - 1``, location the mean difference, scale the
        Nadeau-Bengio corrected standard deviation.
    """
    differences = np.asarray(differences, dtype=float)
    n = len(differences)
    if n < 2:
        return Posterior(max(n - 1, 1), np.nan, np.nan)
    return Posterior(n - 1, float(np.mean(differences)),
                     corrected_std(differences, n_train, n_test))


# ----------------------------------------------------------------------------- tables

def common_folds(score_matrix: pd.DataFrame) -> np.ndarray:
    """Mask of the folds that every ranked model completed.

    A model is ranked when it has at least one valid (non-NaN) score; models with none
    are left out of the mask (they get no rank).
    """
    values = score_matrix.to_numpy(dtype=float)
    ranked = ~np.isnan(values).all(axis=1)
    if not ranked.any():
        return np.zeros(values.shape[1], dtype=bool)
    return ~np.isnan(values[ranked]).any(axis=0)


def ranking_means(score_matrix: pd.DataFrame) -> pd.Series:
    """Each model's mean score on the common folds (NaN for a model with no valid score).

    When no fold is common to all ranked models, each model's own mean is used.
    """
    values = score_matrix.to_numpy(dtype=float)
    common = common_folds(score_matrix)
    if common.any():
        means = values[:, common].mean(axis=1)
    else:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            means = np.nanmean(values, axis=1)
    means[np.isnan(values).all(axis=1)] = np.nan
    return pd.Series(means, index=score_matrix.index)


def rank_models(score_matrix: pd.DataFrame) -> pd.Series:
    """Rank 1 = best mean score on the folds every ranked model completed (ties share the
    better rank). A model with no valid score has no rank (``<NA>``)."""
    return _ranks(ranking_means(score_matrix))


def _ranks(means: pd.Series) -> pd.Series:
    snapped = pd.Series(snap_ties(means.to_numpy(dtype=float)), index=means.index)
    return snapped.rank(ascending=False, method="min").astype("Int64")


#: Scores within ``TIE_TOLERANCE * max(1, scale)`` of each other are tied (``scale``: the
#: largest absolute score compared). Means of the same fold scores can differ in the last
#: bits of a float by the order of summation (about 1e-16 for scores near 1); no real
#: difference between classifiers is that small, and a rank decided by it is noise.
TIE_TOLERANCE = 1e-12


def snap_ties(values: np.ndarray, *, tolerance: float = TIE_TOLERANCE) -> np.ndarray:
    """``values`` (one vector, or the rows of a matrix each on its own) with scores that
    are tied within ``tolerance * max(1, max |score|)`` set to the smallest of their group,
    so that ranks, rank tests and differences see them as exactly equal.

    Groups are runs of sorted scores each within the tolerance of the run's first one;
    NaN stays NaN.
    """
    values = np.array(values, dtype=float)
    if values.ndim == 2:
        return np.array([snap_ties(row,
                                   tolerance=tolerance) for row in values]).reshape(values.shape)
    finite = np.isfinite(values)
    if finite.sum() < 2:
        return values
    limit = tolerance * max(1.0, float(np.max(np.abs(values[finite]))))
    order = np.argsort(values, kind="mergesort")
    order = order[finite[order]]
    anchor = values[order[0]]
    for index in order[1:]:
        if values[index] - anchor <= limit:
            values[index] = anchor
        else:
            anchor = values[index]
    return values


def order_by_rank(score_matrix: pd.DataFrame) -> pd.DataFrame:
    """Rows sorted best first (stable: ties keep their order; unranked models last)."""
    ranks = rank_models(score_matrix)
    order = sorted(range(len(ranks)),
                   key=lambda i: np.inf if pd.isna(ranks.iloc[i]) else ranks.iloc[i])
    return score_matrix.iloc[order]


def correlation_table(score_matrix: pd.DataFrame) -> pd.DataFrame:
    """Pearson correlation of the models' scores across folds, best model first."""
    ordered = order_by_rank(score_matrix)
    corr = ordered.T.corr()
    corr.index.name = "model"
    corr.columns.name = None
    return corr


@dataclass(frozen=True)
class RopeDefault:
    """The default ROPE half-width of a metric family, with its unit and its reason."""

    family: str
    rope: float
    unit: str
    reason: str


#: Default ROPE half-widths by metric family (:func:`default_rope`). One percentage point of
#: rows is the ROPE Benavoli et al. (2017, "Time for a change", JMLR 18) use for accuracy;
#: the other families scale it to their own range.
ROPE_DEFAULTS = {
    "share": RopeDefault(
        "share", 0.01, "share of rows (0.01 = one percentage point)",
        "one percentage point of rows, the ROPE Benavoli et al. (2017) use for accuracy"),
    "ranking": RopeDefault(
        "ranking", 0.005, "AUC points",
        "half a point: a ranking score runs from chance (0.5) to perfect (1), half of "
        "accuracy's range, so 0.01 would be twice as coarse (near 1 it would call most "
        "models equivalent)"),
    "log_loss": RopeDefault(
        "log_loss", 0.007, "nats of log loss",
        "1% of the log loss of a no-skill two-class prediction (ln 2 = 0.693 nats), the "
        "scale of the loss, so a raw 0.01 is not mistaken for a small difference"),
    "skill": RopeDefault(
        "skill", 0.01, "D² points (0.01 = 1% of the no-skill loss)",
        "1% of the loss of a no-skill prediction, the share D² is measured in"),
    "cost": RopeDefault(
        "cost", 0.01, "cost per row",
        "in the costs' own units, which no default can know: set the ROPE to the smallest "
        "difference in cost per row that matters to you"),
    "brier": RopeDefault(
        "brier", 0.0025, "Brier score points",
        "1% of the Brier score of a no-skill two-class prediction (0.25), the scale of the "
        "score"),
}
_RANKING = ("roc_auc", "average_precision")


def metric_family(metric: str) -> str:
    """The family of a metric for its default ROPE: ``ranking`` (ROC AUC in every form,
    average precision), ``log_loss``, ``brier``, ``cost`` (the expected cost), ``skill`` (the D² scores) or ``share`` (accuracy, balanced accuracy, F1, precision, recall, Jaccard, MCC and any
    other score in shares of rows)."""
    name = str(metric or "")
    if name == "neg_expected_cost":
        return "cost"
    if name.startswith("d2_"):
        return "skill"
    if name.startswith(_RANKING):
        return "ranking"
    if "log_loss" in name:
        return "log_loss"
    if "brier" in name:
        return "brier"
    return "share"


def default_rope(metric: str) -> RopeDefault:
    """The default ROPE of ``metric`` (its family's, :data:`ROPE_DEFAULTS`), with the unit
    to show beside it and the reason; used within a data set and across data sets."""
    return ROPE_DEFAULTS[metric_family(metric)]


def rope_unit(metric: str) -> str:
    """The unit a ROPE on ``metric`` is in, as words shown beside it."""
    return default_rope(metric).unit


@dataclass(frozen=True)
class ComparisonSettings:
    """ROPE half-width, significance level, correction and credible levels.

    ``rope`` None (the default) means the primary metric's default
    (:func:`default_rope`); :meth:`resolved` fills it in once the metric is known."""

    rope: Optional[float] = None
    alpha: float = 0.05
    correction: str = "bonferroni"
    credible_levels: tuple = (0.5, 0.75, 0.95)

    def rope_for(self, metric: str) -> float:
        """The ROPE half-width on ``metric``: the one given, else the metric's default."""
        return default_rope(metric).rope if self.rope is None else float(self.rope)

    def resolved(self, metric: str) -> "ComparisonSettings":
        """These settings with the ROPE given or defaulted for ``metric``."""
        from dataclasses import replace

        return self if self.rope is not None else replace(self, rope=self.rope_for(metric))

    def __post_init__(self):
        if self.rope is None:
            pass
        elif isinstance(self.rope, bool) or not np.isfinite(self.rope) or self.rope < 0:
            raise EngineError("comparison_rope", {"rope": self.rope})
        if not 0 < self.alpha < 1:
            raise EngineError("comparison_alpha", {"alpha": self.alpha})
        if self.correction not in CORRECTIONS:
            raise EngineError("comparison_correction", {"correction": self.correction,
                                                        "allowed": list(CORRECTIONS)})
        for level in self.credible_levels:
            if not 0 < level < 1:
                raise EngineError("comparison_credible_level", {"level": level})

    def to_json(self) -> dict:
        """The ``comparison`` block (``rope`` left out while it is the metric's default)."""
        rope = {} if self.rope is None else {"rope": self.rope}
        return {**rope, "alpha": self.alpha, "correction": self.correction,
                "credible_levels": list(self.credible_levels)}


@dataclass(frozen=True)
class Comparison:
    """Pairwise comparisons of all models on one metric (tables of docs/experiment-format.md)."""

    metric: str
    pairwise: pd.DataFrame
    intervals: pd.DataFrame
    correlation: pd.DataFrame
    settings: ComparisonSettings
    n_train: float
    n_test: float

    def pair(self, model_a: str, model_b: str) -> pd.Series:
        """The pairwise row for two models, in either order (as stored)."""
        rows = self.pairwise
        hit = rows[((rows.model_1 == model_a) & (rows.model_2 == model_b))
                   | ((rows.model_1 == model_b) & (rows.model_2 == model_a))]
        if hit.empty:
            raise KeyError(f"no comparison of {model_a!r} and {model_b!r}")
        return hit.iloc[0]


#: Columns of ``Comparison.pairwise`` (``pairwise.csv``), in the file's order: the
#: two-sided p-values (the test of "do they differ?") first, then the one-sided ones under
#: their own names; the contract's ``p_value`` and ``p_value_adjusted`` (the same one-sided
#: values) are kept last for readers of older files.
PAIRWISE_COLUMNS = ["model_1", "model_2", "mean_difference", "t_stat", "p_value_two_sided",
                    "p_value_two_sided_adjusted", "p_value_one_sided",
                    "p_value_one_sided_adjusted", "t_stat_uncorrected", "p_value_uncorrected",
                    "p_mu_positive", "p_better", "p_equivalent", "p_worse", "n_folds",
                    "p_value", "p_value_adjusted", "estimand"]
#: The frequentist columns of ``pairwise``: the pair, the corrected t-test (two-sided p-values
#: first, then the one-sided ones), the plain t-test for contrast, the folds compared.
FREQUENTIST_COLUMNS = ["model_1", "model_2", "mean_difference", "t_stat", "p_value_two_sided",
                       "p_value_two_sided_adjusted", "p_value", "p_value_adjusted",
                       "t_stat_uncorrected", "p_value_uncorrected", "n_folds"]
#: The Bayesian columns of ``pairwise``: the pair and the posterior probabilities.
BAYESIAN_COLUMNS = ["model_1", "model_2", "p_mu_positive", "p_better", "p_equivalent",
                    "p_worse"]
#: Columns of ``Comparison.intervals`` (``credible_intervals.csv``).
INTERVAL_COLUMNS = ["model_1", "model_2", "level", "lower", "upper", "estimand"]
#: Columns of :func:`summary_table` (``summary.csv``).
SUMMARY_COLUMNS = ["model", "metric", "mean", "std", "rank", "n_folds", "n_failed", "n_warned",
                   "rank_mean", "rank_n_folds", "rank_note", "ci_low", "ci_high", "estimand"]
#: The estimand of the corrected t and the Bayesian correlated t over k × r folds
#: (:data:`engine.evaluation.estimands.ESTIMANDS`; docs/experiment-format.md says why).
FOLD_ESTIMAND = "expected_score_at_training_size"


def compare_models(score_matrix: pd.DataFrame, n_train: float, n_test: float,
                   *, settings: ComparisonSettings = ComparisonSettings(),
                   metric: str = "") -> Comparison:
    """Compare every pair of models on their per-fold scores.

    Parameters
    ----------
    score_matrix : DataFrame
        Models as rows, folds as columns (the same folds for every model).
    n_train, n_test : float
        Training and test fold sizes.
    settings : ComparisonSettings
        Its ROPE, when not given, is the metric's default (:func:`default_rope`).
    metric : str
        Name of the metric (its ROPE default; for the record).

    Returns
    -------
    Comparison
        One row per unordered pair, the better-ranked model as ``model_1``.
    """
    settings = settings.resolved(metric)
    ordered = order_by_rank(score_matrix)
    names = list(ordered.index)
    values = ordered.to_numpy(dtype=float)
    rows, interval_rows = [], []
    for i, k in combinations(range(len(names)), 2):
        both = ~(np.isnan(values[i]) | np.isnan(values[k]))
        differences = values[i][both] - values[k][both]
        t_c, p_c = corrected_ttest(differences, n_train, n_test)
        t_u, p_u = plain_ttest(differences)
        post = posterior(differences, n_train, n_test)
        probs = post.probabilities(settings.rope_for(metric))
        mean = float(np.mean(differences)) if len(differences) else np.nan
        rows.append({"model_1": names[i], "model_2": names[k], "mean_difference": mean,
                     "t_stat": t_c, "p_value": p_c, "p_value_adjusted": np.nan,
                     "t_stat_uncorrected": t_u, "p_value_uncorrected": p_u, **probs,
                     "n_folds": int(both.sum()), "p_value_two_sided": two_sided(p_c),
                     "p_value_two_sided_adjusted": np.nan, "estimand": FOLD_ESTIMAND})
        for level in settings.credible_levels:
            interval_rows.append([names[i], names[k], level, *post.interval(level),
                                  FOLD_ESTIMAND])
    pairwise = pd.DataFrame(rows, columns=PAIRWISE_COLUMNS)
    pairwise["p_value_adjusted"] = adjust_pvalues(pairwise["p_value"].to_numpy(),
                                                  method=settings.correction)
    pairwise["p_value_two_sided_adjusted"] = adjust_pvalues(
        pairwise["p_value_two_sided"].to_numpy(), method=settings.correction)
    pairwise["p_value_one_sided"] = pairwise["p_value"]
    pairwise["p_value_one_sided_adjusted"] = pairwise["p_value_adjusted"]
    intervals = pd.DataFrame(interval_rows, columns=INTERVAL_COLUMNS)
    return Comparison(metric=metric, pairwise=pairwise, intervals=intervals,
                      correlation=correlation_table(score_matrix), settings=settings,
                      n_train=n_train, n_test=n_test)


def summary_table(scores: pd.DataFrame, models: tuple, metrics: tuple,
                  *, failures: Optional[pd.DataFrame] = None, alpha: float = 0.05) -> pd.DataFrame:
    """Mean, standard deviation, interval and rank of every model on every metric.

    Columns: ``model, metric, mean, std, rank, n_folds, n_failed, n_warned, rank_mean,
    rank_n_folds, rank_note, ci_low, ci_high``. ``ci_low``, ``ci_high``: the corrected-t
    interval of the mean at level ``1 − alpha`` (the comparison's α) over the model's
    completed folds, with the run's mean fold sizes (:func:`corrected_interval`; it can
    under-cover, see there). ``mean`` and ``std`` (population, ddof=0, as
    GridSearchCV's ``std_test_score``) use every fold the model completed; NaN folds are
    counted in ``n_failed``. ``n_warned`` counts the folds on which the model raised a
    warning (``failures`` rows of kind ``"warning"``). The rank compares the models on
    common ground: ``rank_mean`` is the mean over the ``rank_n_folds`` folds that every
    ranked model completed; a model with no valid score has no rank.
    """
    warned = _warned_folds(failures)
    n_train, n_test = mean_fold_sizes(scores)
    parts = []
    for metric in metrics:
        table = scores[scores["metric"] == metric]
        grouped = table.groupby("model", sort=False)["score"]
        part = pd.DataFrame({"mean": grouped.mean(), "std": grouped.std(ddof=0),
                             "n_folds": grouped.count(),
                             "n_failed": grouped.apply(lambda s: int(s.isna().sum()))})
        part = part.reindex(list(models))
        matrix = table.pivot(index="model", columns=["repeat", "fold"],
                             values="score").reindex(list(models))
        part["rank_mean"] = ranking_means(matrix)
        part["rank"] = _ranks(part["rank_mean"])
        part["rank_n_folds"] = int(common_folds(matrix).sum())
        part["rank_note"] = [_rank_note(row, len(matrix.columns)) for _, row in part.iterrows()]
        part["n_warned"] = [warned.get(m, 0) for m in part.index]
        bounds = [corrected_interval(matrix.loc[m].to_numpy(dtype=float), n_train, n_test,
                                     alpha=alpha) for m in part.index]
        part["ci_low"] = [low for low, _ in bounds]
        part["ci_high"] = [high for _, high in bounds]
        part["estimand"] = FOLD_ESTIMAND
        part.insert(0, "metric", metric)
        parts.append(part.rename_axis("model").reset_index())
    summary = pd.concat(parts, ignore_index=True)
    return summary[SUMMARY_COLUMNS]


def mean_fold_sizes(scores: pd.DataFrame) -> tuple:
    """Mean training and test fold sizes over the run's splits (one row per split of
    ``fold_scores``), as :meth:`engine.evaluation.cv.CVResult.train_test_sizes` gives them."""
    if scores.empty:
        return np.nan, np.nan
    first = scores.drop_duplicates(["repeat", "fold"])
    return float(first["n_train"].mean()), float(first["n_test"].mean())


def _warned_folds(failures) -> dict:
    if failures is None or failures.empty:
        return {}
    warned = failures[failures["kind"] == "warning"].drop_duplicates(["model", "repeat", "fold"])
    return warned.groupby("model").size().to_dict()


def _rank_note(row, n_folds: int) -> str:
    if pd.isna(row["rank"]):
        return "no rank: no fold gave a valid score"
    if row["rank_n_folds"] == 0:
        return "no fold was completed by every model: ranked on the model's own folds"
    if row["rank_n_folds"] < n_folds:
        return (f"ranked on the {row['rank_n_folds']} of {n_folds} folds that every ranked "
                "model completed")
    return ""
