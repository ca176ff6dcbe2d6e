"""Rank-based tests across data sets (Demšar 2006), on a complete matrix of means.

The input of every function is a data sets x models matrix of mean scores, higher is
better, no NaN. Ranks: 1 = best on a data set, ties share the average rank
(``scipy.stats.rankdata``). The tests are scipy's:

Scores tied within :data:`engine.evaluation.stats.TIE_TOLERANCE` of the data set's scale
are first made equal (:func:`engine.evaluation.stats.snap_ties`, done by
:func:`engine.runs.across.compare_across` on the matrix every test reads), so no rank,
Friedman statistic or Wilcoxon difference is decided by rounding noise in a mean.

* Friedman: ``scipy.stats.friedmanchisquare`` (chi-square with scipy's correction for
  ties; without ties it is Demšar's ``12N / (k(k+1)) (sum R_j^2 - k(k+1)^2 / 4)``), and
  Iman and Davenport's ``F = (N-1) chi2 / (N(k-1) - chi2)`` with ``(k-1, (k-1)(N-1))``
  degrees of freedom.
* Nemenyi: two models differ when their mean ranks differ by more than the critical
  difference ``CD = q_alpha sqrt(k(k+1) / (6N))``, ``q_alpha`` the studentized range
  quantile ``studentized_range.ppf(1 - alpha, k, inf) / sqrt(2)``; the p-value of a pair
  is ``studentized_range.sf(|R_i - R_j| sqrt(2) / sqrt(k(k+1) / (6N)), k, inf)``.
* Wilcoxon signed-rank test on every pair's differences, zero differences splitting
  their ranks between the two sums (``zero_method="zsplit"``, as Demšar recommends),
  two-sided, adjusted over all pairs by the comparison's correction (Holm's step-down,
  Bonferroni or none). The p-value is exact
  (scipy's exact null distribution) without ties or zero differences and at most 50
  data sets; with ties or zeros it is exact over all 2^N sign flips for N <= 13 where
  scipy offers that (``PermutationMethod``, scipy >= 1.15), and otherwise the normal
  approximation. The method used is named in the table (``method``), the same choice
  scipy's own ``method="auto"`` makes since 1.15.
"""
from __future__ import annotations

import functools
import warnings

import numpy as np
import pandas as pd
from scipy import stats

from engine.evaluation.stats import adjust_pvalues

FRIEDMAN_COLUMNS = ["n_datasets", "n_models", "chi2", "p_value", "iman_davenport_f",
                    "iman_davenport_p_value"]
NEMENYI_COLUMNS = ["model_1", "model_2", "mean_rank_difference", "critical_difference",
                   "p_value", "significant", "beyond_critical_difference"]
WILCOXON_COLUMNS = ["model_1", "model_2", "statistic", "p_value", "p_value_adjusted", "method",
                    "significant"]
#: Largest number of data sets with an exact Wilcoxon p-value (scipy's limit).
EXACT_MAX = 50
#: Largest number of data sets for the exact sign-flip distribution with ties (2^13 flips).
PERMUTATION_MAX = 13


def rank_matrix(values: np.ndarray) -> np.ndarray:
    """Rank of every model on every data set (rows): 1 = highest, ties averaged."""
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return values.copy()
    return stats.rankdata(-values, axis=1)


def rank_table(models: list, ranks: np.ndarray) -> pd.DataFrame:
    """``model, mean_rank, n_datasets``, best mean rank first (ties keep the given order)."""
    n = ranks.shape[0]
    mean = ranks.mean(axis=0) if n else np.full(len(models), np.nan)
    table = pd.DataFrame({"model": list(models), "mean_rank": mean, "n_datasets": n})
    return table.sort_values("mean_rank", kind="mergesort").reset_index(drop=True)


def friedman_row(values: np.ndarray) -> dict:
    """Friedman's chi-square and Iman-Davenport's F on a (data sets x models) matrix.

    NaN statistics when the test does not apply: fewer than 3 models or 2 data sets, or
    every model tied on every data set.
    """
    n, k = values.shape
    row = dict.fromkeys(FRIEDMAN_COLUMNS, np.nan)
    row.update(n_datasets=n, n_models=k)
    if k < 3 or n < 2 or all_tied(values):
        return row
    chi2, p_value = stats.friedmanchisquare(*values.T)
    denominator = n * (k - 1) - chi2
    if denominator > 0:
        f_stat = (n - 1) * chi2 / denominator
        f_p = stats.f.sf(f_stat, k - 1, (k - 1) * (n - 1))
    else:                                   # every data set ranks the models the same way
        f_stat, f_p = np.inf, 0.0
    row.update(chi2=float(chi2), p_value=float(p_value), iman_davenport_f=float(f_stat),
               iman_davenport_p_value=float(f_p))
    return row


def all_tied(values: np.ndarray) -> bool:
    """True when every data set gives every model the same score."""
    return bool(np.all(values == values[:, :1]))


@functools.lru_cache(maxsize=64)
def critical_difference(alpha: float, k: int, n: int) -> float:
    """Nemenyi's critical difference of mean ranks for ``k`` models on ``n`` data sets."""
    q_alpha = stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2)
    return float(q_alpha * np.sqrt(k * (k + 1) / (6.0 * n)))


def nemenyi_table(ranks: pd.DataFrame, n: int, alpha: float,
                  *, interpretable: bool = True) -> pd.DataFrame:
    """Every pair of models (better mean rank first) against Nemenyi's critical difference.

    ``beyond_critical_difference``: the mean ranks differ by more than the critical
    difference; ``significant``: that, and the post-hoc test may be read
    (``interpretable``: the omnibus test rejected, with enough data sets).

    Parameters
    ----------
    ranks : DataFrame
        :func:`rank_table` (sorted best first).
    n : int
        Number of data sets.
    alpha : float
        Significance level.
    interpretable : bool, default True
        Whether the pairs may be called different (the Friedman / Iman-Davenport test
        rejected at ``alpha``; Demšar 2006 proceeds to the post-hoc test only then).
    """
    k = len(ranks)
    if k < 3 or n < 2:
        return pd.DataFrame(columns=NEMENYI_COLUMNS)
    cd = critical_difference(float(alpha), k, n)
    names, mean = ranks["model"].tolist(), ranks["mean_rank"].to_numpy()
    first, second = np.triu_indices(k, 1)
    gap = mean[second] - mean[first]
    scale = np.sqrt(k * (k + 1) / (6.0 * n))
    p_value = stats.studentized_range.sf(gap * np.sqrt(2) / scale, k, np.inf)
    return pd.DataFrame({"model_1": [names[i] for i in first],
                         "model_2": [names[j] for j in second],
                         "mean_rank_difference": gap, "critical_difference": cd,
                         "p_value": np.clip(p_value, 0.0, 1.0),
                         "significant": (gap > cd) & bool(interpretable),
                         "beyond_critical_difference": gap > cd},
                        columns=NEMENYI_COLUMNS)


def cliques(ranks: pd.DataFrame, cd: float) -> list:
    """Groups of models whose mean ranks lie within ``cd`` of each other: the bars of a
    critical-difference diagram, drawn as autorank and Demšar draw them.

    Going down the ranking, each model starts a group with every model after it within
    ``cd``; a group is kept when it reaches further than the groups before it and holds
    at least two models. Models in rank order.
    """
    names, mean = ranks["model"].tolist(), ranks["mean_rank"].to_numpy()
    groups, reach = [], 0
    for i in range(len(names)):
        last = i
        while last + 1 < len(names) and mean[last + 1] - mean[i] <= cd:
            last += 1
        if last > i and last > reach:
            groups.append(names[i:last + 1])
            reach = last
    return groups


def pair_differences(values: np.ndarray, ranks: pd.DataFrame, models: list) -> tuple:
    """The pairs (better mean rank first) and their per-data-set differences (rows)."""
    column = {name: i for i, name in enumerate(models)}
    order = [column[name] for name in ranks["model"]]
    first, second = np.triu_indices(len(order), 1)
    pairs = [(models[order[i]], models[order[j]]) for i, j in zip(first, second)]
    differences = np.array([values[:, order[i]] - values[:, order[j]]
                            for i, j in zip(first, second)]).reshape(len(pairs), -1)
    return pairs, differences


def wilcoxon_method(d: np.ndarray) -> str:
    """How a pair's p-value is computed: ``"exact"``, ``"permutation"`` (exact over all
    sign flips) or ``"asymptotic"`` (normal approximation); ``""`` when all are zero."""
    if not np.any(d):
        return ""
    magnitudes = np.abs(d)
    ties_or_zeros = (not magnitudes.all()) or len(np.unique(magnitudes)) < len(magnitudes)
    if not ties_or_zeros and len(d) <= EXACT_MAX:
        return "exact"
    if len(d) <= PERMUTATION_MAX and scipy_has_permutation_wilcoxon():
        return "permutation"
    return "asymptotic"


@functools.lru_cache(maxsize=1)
def scipy_has_permutation_wilcoxon() -> bool:
    """scipy >= 1.15 takes ``method="asymptotic"`` or a ``PermutationMethod`` (gh-21567);
    earlier versions know ``"approx"`` only."""
    try:
        stats.wilcoxon([1.0, 2.0, 3.0], method="asymptotic")
    except (ValueError, TypeError):
        return False
    return True


def _scipy_method(method: str):
    if method == "permutation":
        return stats.PermutationMethod()
    if method == "asymptotic" and not scipy_has_permutation_wilcoxon():
        return "approx"
    return method


def wilcoxon_table(pairs: list, differences: np.ndarray, *, correction: str = "holm",
                   alpha=None) -> pd.DataFrame:
    """Wilcoxon signed-rank test of every pair, adjusted over all pairs by ``correction``
    (``"holm"``, ``"bonferroni"`` or ``"none"``, :func:`engine.evaluation.stats.adjust_pvalues`).

    Pairs whose differences are all zero have no test (NaN, empty ``method``) and do not
    count in the adjustment. ``significant``: the adjusted p-value is below ``alpha``
    (False everywhere when ``alpha`` is None: nothing is decided).
    """
    methods = [wilcoxon_method(d) for d in differences]
    statistic = np.full(len(pairs), np.nan)
    p_value = np.full(len(pairs), np.nan)
    for method in {"exact", "permutation", "asymptotic"} & set(methods):
        rows = [i for i, m in enumerate(methods) if m == method]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")     # scipy's size warnings: the method column says
            result = stats.wilcoxon(differences[rows], zero_method="zsplit",
                                    method=_scipy_method(method), axis=1)
        statistic[rows] = result.statistic
        p_value[rows] = result.pvalue
    adjusted = adjust_pvalues(p_value, method=correction)
    return pd.DataFrame({"model_1": [a for a, _ in pairs], "model_2": [b for _, b in pairs],
                         "statistic": statistic, "p_value": p_value,
                         "p_value_adjusted": adjusted, "method": methods,
                         "significant": (adjusted < alpha) if alpha is not None
                         else np.zeros(len(pairs), dtype=bool)}, columns=WILCOXON_COLUMNS)
