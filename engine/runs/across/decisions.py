"""When a comparison across data sets may state a decision, and which one.

* :func:`minimum_datasets`: below this many data sets nothing is decided (report, view,
  tables): the exact two-sided Wilcoxon signed-rank test cannot reach ``p < alpha`` with
  fewer than ``log2(2 / alpha)`` data sets even when one model wins on every one of them
  (its smallest p-value is ``2 / 2^N``: 0.0625 with 5 data sets; Demšar 2006, section
  3.1.3, tabulates its exact critical values), and the Bayesian signed-rank test
  (Benavoli, Corani, Demšar and Zaffalon 2017) weighs only the observed differences and
  one prior pseudo-observation at 0: with every difference on one side of the ROPE its
  posterior probability of that side is ``1 - E[w_0^2]``, 0.91 with 2 data sets and 0.95
  with 3, whatever the models are. Never fewer than :data:`MIN_DATASETS`.
* :func:`bayes_level` (:func:`engine.evaluation.verdict.bayes_level`, the same level as
  within one data set): the posterior probability a Bayesian decision needs, adjusted for
  the number of pairs decided at once as the frequentist p-values are.
* :func:`highest_probability`, :func:`fewest_for_level`: the largest posterior
  probability the Bayesian signed-rank test can give with N data sets, and the fewest data
  sets with which it can reach a level (a level above it is unreachable, said so).
* :func:`bayes_decision`: the outcome a pair's posterior probabilities support.
"""
from __future__ import annotations

import math

from engine.evaluation.verdict import bayes_level
from engine.runs.across.signed_rank import PRIOR_STRENGTH

__all__ = ["DECISIONS", "MIN_DATASETS", "bayes_decision", "bayes_level", "fewest_for_level",
           "highest_probability", "minimum_datasets"]

#: the fewest data sets with which a comparison across data sets states any decision
MIN_DATASETS = 6
#: :func:`bayes_decision`'s outcomes (``signed_rank.csv``'s ``decision``)
DECISIONS = ("model_1", "equivalent", "model_2", "none", "too_few_datasets")


def minimum_datasets(alpha: float) -> int:
    """The fewest data sets with which anything is decided at level ``alpha``: the
    smallest N at which the exact two-sided Wilcoxon test can give ``p < alpha``
    (``2 / 2^N < alpha``), and at least :data:`MIN_DATASETS` (6 at alpha = 0.05 and 0.1,
    8 at 0.01)."""
    n = 1
    while 2.0 / 2 ** n >= alpha:
        n += 1
    return max(MIN_DATASETS, n)


def bayes_decision(better: float, equivalent: float, worse: float, level: float,
                   rope: float) -> str:
    """``"model_1"`` (better by more than the ROPE), ``"model_2"``, ``"equivalent"``
    when that region's posterior probability reaches ``level``; ``"none"`` otherwise."""
    if math.isfinite(better) and better >= level:
        return "model_1"
    if math.isfinite(worse) and worse >= level:
        return "model_2"
    if rope > 0 and math.isfinite(equivalent) and equivalent >= level:
        return "equivalent"
    return "none"


def highest_probability(n: int, rope: float, *, prior: float = PRIOR_STRENGTH) -> float:
    """The largest posterior probability of one side that the Bayesian signed-rank test
    (:mod:`engine.runs.across.signed_rank`) can give with ``n`` data sets.

    It is reached when every difference lies beyond twice the ROPE on one side: then
    every Walsh average but the prior's own ``(z_0 + z_0) / 2 = 0`` is on that side, so the
    side's probability is ``1 - E[w_0^2]`` (``1 - E[w_0^2] / 2`` with ``rope = 0``,
    where ``H(0) = 1/2``), and ``E[w_0^2] = s (s + 1) / ((s + n)(s + n + 1))`` for
    Dirichlet(s, 1, ..., 1) weights: 0.9882 with 7 data sets, 0.9925 with 9 (s = 0.5).
    """
    second_moment = prior * (prior + 1.0) / ((prior + n) * (prior + n + 1.0))
    return 1.0 - (second_moment if rope > 0 else 0.5 * second_moment)


def fewest_for_level(level: float, rope: float, *, prior: float = PRIOR_STRENGTH,
                     most: int = 100_000) -> int:
    """The fewest data sets with which :func:`highest_probability` reaches ``level``
    (``most + 1`` when none up to ``most`` does)."""
    n = 1
    while n <= most and highest_probability(n, rope, prior=prior) < level:
        n += 1
    return n
