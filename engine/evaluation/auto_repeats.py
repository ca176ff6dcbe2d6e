"""``"n_repeats": "auto"``: repeat the cross-validation until more repeats buy little.

The repeats run in rounds of one. After each round the rule looks, on the primary metric,
at every interval the run reports: each model's mean (the corrected t of
:func:`engine.evaluation.stats.corrected_interval`), each pair's difference (the corrected
paired t) and each pair's Bayesian credible interval at every credible level. It stops
when two things hold for every interval, or at ``max_repeats``:

- *precision*: the width the formula predicts with ``r + 1`` repeats (the corrected
  variance ``(1/(k r) + n_test/n_train) s²`` with ``s²`` as estimated now, the t quantile at
  ``k (r + 1) − 1`` degrees of freedom) is less than ``precision`` narrower than now;
- *a stable width*: the width now is at most :data:`WIDTH_TOLERANCE` wider than the width
  ``max_repeats`` repeats would give, at a one-sided :data:`BOUND_LEVEL` bound that counts
  the noise of ``s²`` itself: the formula's narrowing from ``r`` to ``max_repeats`` times
  the most the ``s²`` of all repeats could fall below today's, judged from the spread of
  the ``r`` per-repeat variances (:func:`cap_bound`).

The first alone does not look at the scores (``s²`` cancels) and stops 10 folds after 5
repeats on any data; the second makes a noisy ``s²`` run longer. Both look only at widths
and spreads: never at a mean, a sign, a verdict, a p-value or a posterior probability, so
the rule cannot stop where an outcome is favoured. Repeat *i* has the folds of repeat *i*
of a fixed run (:func:`engine.evaluation.cv.make_splits` gives the same first splits for
any number of repeats), so the tables at the stop equal those of a fixed run with that
many repeats.
"""
from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np
from scipy.stats import t as student_t

from engine.foundation.errors import EngineError

from engine.foundation.notes import Note

#: ``"max_repeats"``'s default: the fixed design's 10 repeats is the upper bound.
DEFAULT_MAX_REPEATS = 10
#: ``"precision"``'s default: stop when one more repeat narrows no interval by 2 % or more.
DEFAULT_PRECISION = 0.02
#: Why the repeats stopped (the note's ``reason``); no time budget exists yet, so
#: ``"time_budget"`` is reserved for one.
REASONS = ("precision", "max_repeats", "time_budget")
#: The most an interval at the stop may be wider than with ``max_repeats`` repeats (at
#: :data:`BOUND_LEVEL`): issue #41's goal of 1.10 times the width of 10 x 10.
WIDTH_TOLERANCE = 0.10
#: The one-sided level of the bound on how far ``s²`` may still fall (a Student t quantile
#: with one degree of freedom fewer than the repeats run).
BOUND_LEVEL = 0.95


@dataclass(frozen=True)
class AutoStop:
    """Where ``"auto"`` stopped and why.

    Attributes
    ----------
    n_repeats : int
        The repeats run (the tables are those of a fixed run with this many).
    reason : str
        One of :data:`REASONS`.
    ratio : float
        The smallest ratio, over every interval, of its predicted width with one more
        repeat to its width now (1 − ratio is the most any interval would have narrowed);
        NaN when no interval had a width.
    max_repeats : int
    precision : float
    bound : float
        The largest, over every interval, bound on its width now over its width with
        ``max_repeats`` repeats (:func:`cap_bound`): 1.0 at the cap, NaN when no interval
        had a width, inf when the spread gave no bound.
    tolerance : float
        :data:`WIDTH_TOLERANCE` at the time of the run.
    """

    n_repeats: int
    reason: str
    ratio: float
    max_repeats: int
    precision: float
    bound: float = np.nan
    tolerance: float = WIDTH_TOLERANCE

    def note(self) -> Note:
        """The ``repeats_auto_stopped`` note: how many repeats ran and why they stopped."""
        return Note("repeats_auto_stopped",
                    fields={"n_repeats": self.n_repeats, "reason": self.reason,
                            "ratio": _finite(self.ratio), "max_repeats": self.max_repeats,
                            "precision": self.precision, "bound": _finite(self.bound),
                            "tolerance": self.tolerance, "bound_level": BOUND_LEVEL})


def _finite(value: float):
    """A float for a note's fields: None for NaN or inf (not JSON), else every digit (the
    sentence is made from it)."""
    return float(value) if np.isfinite(value) else None


def cv_fields(block: dict) -> dict:
    """The experiment's ``"cv"`` block as :class:`engine.evaluation.cv.CVConfig` fields.

    ``"n_repeats": "auto"`` becomes ``n_repeats = max_repeats`` (the upper bound every
    plan counts) and ``auto_precision = precision``; ``max_repeats`` and ``precision``
    without ``"auto"`` are refused.
    """
    block = dict(block)
    if block.get("n_repeats") == "auto":
        block["n_repeats"] = block.pop("max_repeats", DEFAULT_MAX_REPEATS)
        block["auto_precision"] = block.pop("precision", DEFAULT_PRECISION)
    elif "max_repeats" in block or "precision" in block:
        raise EngineError("auto_settings_fixed_repeats")
    return block


def auto_json(n_repeats: int, precision: float) -> dict:
    """The ``"cv"`` keys of an automatic number of repeats (inverse of :func:`cv_fields`)."""
    return {"n_repeats": "auto", "max_repeats": n_repeats, "precision": precision}


def width(s2: float, n: int, extra: int, c: float, level: float) -> float:
    """The width of a corrected-t interval of ``n`` fold values with variance ``s2``,
    or the width the formula predicts with ``extra`` more folds and the same ``s2``.

    ``2 · t(1/2 + level/2, n + extra − 1) · sqrt((1/(n + extra) + c) · s2)``, ``c`` =
    ``n_test / n_train``: the corrected t's interval and the Bayesian correlated t's
    credible interval (a Student t of the same scale and degrees of freedom).
    """
    m = n + extra
    return float(2.0 * _quantile(0.5 + level / 2.0, m - 1) * np.sqrt((1.0 / m + c) * s2))


@lru_cache(maxsize=1024)
def _quantile(q: float, df: int) -> float:
    """The Student t quantile ``q`` at ``df`` degrees of freedom, kept: the rule asks for
    the same few after every round, and scipy's ``ppf`` costs most of its time."""
    return float(student_t.ppf(q, df))


def interval_series(scores: np.ndarray, alpha: float, *, credible_levels=()) -> list:
    """The fold values and level of every interval the rule watches.

    Parameters
    ----------
    scores : ndarray of shape (n_models, n_folds)
        The primary metric per model and fold so far, fold ``s`` of repeat
        ``s // n_splits + 1`` (NaN: a failed fold).
    alpha : float
        The corrected t intervals' level is ``1 − alpha``.
    credible_levels : sequence of float
        The Bayesian credible intervals' levels (each pair's, when reported).

    Returns
    -------
    list of (ndarray, float)
        Each model's scores at ``1 − alpha``; each pair's differences at ``1 − alpha`` and
        at every credible level. Every array keeps all ``n_folds`` places, NaN where a fold
        failed (for a difference: where either model's did), so the repeats stay apart.
    """
    series = [(row, 1.0 - alpha) for row in scores]
    for i, j in combinations(range(len(scores)), 2):
        difference = scores[i] - scores[j]
        series.extend((difference, level) for level in (1.0 - alpha, *credible_levels))
    return series


def _variance(values: np.ndarray) -> float:
    """The sample variance of the values that are not NaN; 0 when they are all equal."""
    values = values[~np.isnan(values)]
    return float(np.var(values, ddof=1)) if len(values) > 1 and np.ptp(values) > 0 else 0.0


def step_ratio(values: np.ndarray, level: float, n_splits: int, c: float) -> float:
    """An interval's width with one more repeat (by the formula, ``s²`` as now) over its
    width now; NaN when it has no width."""
    found = values[~np.isnan(values)]
    s2 = _variance(found)
    if s2 == 0.0:
        return np.nan
    return width(s2, len(found), n_splits, c, level) / width(s2, len(found), 0, c, level)


def cap_bound(values: np.ndarray, level: float, n_splits: int, c: float,
              max_repeats: int) -> float:
    """A one-sided :data:`BOUND_LEVEL` bound on an interval's width now over its width
    with ``max_repeats`` repeats.

    With ``r`` repeats run and ``v_1 … v_r`` the variances of each repeat's fold values,
    the ``s²`` of ``max_repeats`` repeats is today's plus ``(M − r)/M`` times the gap
    between the mean of the repeats to come and of those run; its relative standard error
    is ``g = (M − r)/M · sd(v)/mean(v) · sqrt(1/(M − r) + 1/r)``. The bound is the formula's
    ratio of the two widths (``s²`` as now) over ``sqrt(1 − q g)``, ``q`` the Student t
    quantile at :data:`BOUND_LEVEL` with ``r − 1`` degrees of freedom.

    Returns
    -------
    float
        NaN when the interval has no width; inf when no bound can be given (one repeat,
        a mean variance of 0, or ``q g >= 1``); 1.0 at ``max_repeats``.
    """
    found = values[~np.isnan(values)]
    s2 = _variance(found)
    repeats = len(values) // n_splits
    if s2 == 0.0:
        return np.nan
    if repeats >= max_repeats:
        return 1.0
    per = np.array([_variance(values[i * n_splits:(i + 1) * n_splits])
                    for i in range(repeats)])
    if repeats < 2 or per.mean() <= 0:
        return np.inf
    left = max_repeats - repeats
    g = left / max_repeats * per.std(ddof=1) / per.mean() * np.sqrt(1 / left + 1 / repeats)
    shrink = 1.0 - _quantile(BOUND_LEVEL, repeats - 1) * g
    if shrink <= 0:
        return np.inf
    formula = (width(s2, len(found), 0, c, level)
               / width(s2, len(found), left * n_splits, c, level))
    return float(formula / np.sqrt(shrink))


def widths_ratio(scores: np.ndarray, n_splits: int, c: float, alpha: float,
                 *, credible_levels=()) -> float:
    """The smallest ratio, over the intervals, of an interval's predicted width with one
    more repeat (``n_splits`` more folds) to its width now: 1 − it is the most any
    interval would narrow. NaN when no interval has a width.

    Only widths enter: a sign flip of the differences or a shuffle of the models
    leaves it unchanged.
    """
    ratios = [step_ratio(values, level, n_splits, c)
              for values, level in interval_series(scores, alpha, credible_levels=credible_levels)]
    ratios = [ratio for ratio in ratios if not np.isnan(ratio)]
    return min(ratios) if ratios else np.nan


def widths_bound(scores: np.ndarray, n_splits: int, c: float, alpha: float,
                 *, credible_levels=(), max_repeats: int = DEFAULT_MAX_REPEATS) -> float:
    """The largest :func:`cap_bound` over the intervals (NaN when none has a width).

    Only widths and spreads enter: a sign flip, a shuffle of the models or a shift of
    one model's scores leaves it unchanged.
    """
    bounds = [cap_bound(values, level, n_splits, c, max_repeats)
              for values, level in interval_series(scores, alpha, credible_levels=credible_levels)]
    bounds = [bound for bound in bounds if not np.isnan(bound)]
    return max(bounds) if bounds else np.nan


def assess(scores: np.ndarray, n_splits: int, c: float, alpha: float, *, credible_levels=(),
           max_repeats: int = DEFAULT_MAX_REPEATS) -> tuple:
    """``(ratio, bound)``: :func:`widths_ratio` and :func:`widths_bound` of ``scores``."""
    return (widths_ratio(scores, n_splits, c, alpha, credible_levels=credible_levels),
            widths_bound(scores, n_splits, c, alpha, credible_levels=credible_levels,
                         max_repeats=max_repeats))


def decide(r: int, max_repeats: int, precision: float, ratio: float,
           bound: float) -> str | None:
    """Why to stop after repeat ``r`` (a :data:`REASONS` entry), None to go on.

    Precision: every interval would narrow by less than ``precision`` of its width with
    one more repeat (the smallest ratio ``> 1 − precision``) and none is likely wider than
    :data:`WIDTH_TOLERANCE` over its width at ``max_repeats`` (``bound <= 1 +
    WIDTH_TOLERANCE``); or no interval has a width yet to narrow (all fold values equal)
    after two repeats.
    """
    if r >= max_repeats:
        return "max_repeats"
    if np.isnan(ratio):
        return "precision" if r >= 2 else None
    if ratio > 1.0 - precision and bound <= 1.0 + WIDTH_TOLERANCE:
        return "precision"
    return None


def in_rounds(tasks: list, n_splits: int, max_repeats: int, precision: float,
              stored: dict, compute: Callable, ratio_after: Callable
              ) -> Generator[tuple, None, AutoStop]:
    """Drive the fits one repeat at a time until the rule stops.

    Parameters
    ----------
    tasks : list of (model, split)
        The run's tasks for ``max_repeats`` repeats (split ``s`` is repeat
        ``s // n_splits + 1``).
    n_splits, max_repeats : int
    precision : float
    stored : dict
        Outcomes already in the result store, by task index.
    compute : callable
        ``compute(indices)`` yields ``(index, outcome)`` for the tasks not stored.
    ratio_after : callable
        ``ratio_after(r)``: :func:`assess` over the first ``r`` repeats, ``(ratio,
        bound)``.

    Yields
    ------
    (index, outcome, how)
        As :func:`engine.evaluation.cv.run_cv` consumes them; ``how`` is ``" (stored)"``
        for a stored outcome.

    Returns
    -------
    AutoStop
    """
    for r in range(1, max_repeats + 1):
        in_round = [i for i, (_, s) in enumerate(tasks) if s // n_splits == r - 1]
        for index in in_round:
            if index in stored:
                yield index, stored[index], " (stored)"
        missing = [index for index in in_round if index not in stored]
        for index, outcome in (compute(missing) if missing else ()):
            yield index, outcome, ""
        ratio, bound = ratio_after(r)
        reason = decide(r, max_repeats, precision, ratio, bound)
        if reason:
            return AutoStop(r, reason, ratio, max_repeats, precision, bound, WIDTH_TOLERANCE)
    raise AssertionError("unreachable: the last round stops at max_repeats")
