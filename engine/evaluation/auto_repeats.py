"""``"n_repeats": "auto"``: repeat the cross-validation until one more repeat buys little.

The repeats run in rounds of one. After each round the rule looks, on the primary metric,
at every interval the run reports: each model's mean (the corrected t of
:func:`engine.evaluation.stats.corrected_interval`), each pair's difference (the corrected
paired t) and each pair's Bayesian credible interval at every credible level. For each it
takes the width with ``r`` repeats and the width the same formula predicts with ``r + 1``
(the corrected variance ``(1/(k r) + n_test/n_train) s²`` with ``s²`` as estimated now, the
t quantile at ``k (r + 1) − 1`` degrees of freedom). The run stops when every interval
would narrow by less than ``precision`` of its width, or at ``max_repeats``.

The rule looks only at widths: never at a mean, a verdict, a p-value or a posterior
probability, so it cannot stop where an outcome is favoured. Repeat *i* has the folds of
repeat *i* of a fixed run (:func:`engine.evaluation.cv.make_splits` gives the same first
splits for any number of repeats), so the tables at the stop equal those of a fixed run with
that many repeats.
"""
from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from scipy.stats import t as student_t

from engine.foundation.notes import Note

#: ``"max_repeats"``'s default: the fixed design's 10 repeats is the upper bound.
DEFAULT_MAX_REPEATS = 10
#: ``"precision"``'s default: stop when one more repeat narrows no interval by 2 % or more.
DEFAULT_PRECISION = 0.02
#: Why the repeats stopped (the note's ``reason``); no time budget exists yet, so
#: ``"time_budget"`` is reserved for one.
REASONS = ("precision", "max_repeats", "time_budget")


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
    """

    n_repeats: int
    reason: str
    ratio: float
    max_repeats: int
    precision: float

    def note(self) -> Note:
        """The ``repeats_auto_stopped`` note: how many repeats ran and why they stopped."""
        most = ("no interval had a width: every fold value was equal" if np.isnan(self.ratio)
                else f"by {1 - self.ratio:.1%} at most")
        why = {"precision": f"one more repeat would have narrowed every interval on the "
                            f"primary metric by less than {self.precision:.0%} of its width "
                            f"({most})",
               "max_repeats": f"the cap of {self.max_repeats} repeats was reached",
               "time_budget": "the time budget was reached"}[self.reason]
        return Note("repeats_auto_stopped",
                    f'"n_repeats": "auto" stopped after {self.n_repeats} of at most '
                    f"{self.max_repeats} repeats: {why}; the tables equal a fixed run with "
                    f'"n_repeats": {self.n_repeats}',
                    {"n_repeats": self.n_repeats, "reason": self.reason,
                     "ratio": None if np.isnan(self.ratio) else round(float(self.ratio), 6),
                     "max_repeats": self.max_repeats, "precision": self.precision})


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
        raise ValueError('cv: "max_repeats" and "precision" go with "n_repeats": "auto" '
                         "(a whole number of repeats runs exactly that many)")
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
    return float(2.0 * student_t.ppf(0.5 + level / 2.0, m - 1) * np.sqrt((1.0 / m + c) * s2))


def interval_series(scores: np.ndarray, alpha: float, credible_levels=()) -> list:
    """The fold values and level of every interval the rule watches.

    Parameters
    ----------
    scores : ndarray of shape (n_models, n_folds)
        The primary metric per model and fold so far (NaN: a failed fold).
    alpha : float
        The corrected t intervals' level is ``1 − alpha``.
    credible_levels : sequence of float
        The Bayesian credible intervals' levels (each pair's, when reported).

    Returns
    -------
    list of (ndarray, float)
        Each model's scores at ``1 − alpha``; each pair's differences on common folds at
        ``1 − alpha`` and at every credible level.
    """
    series = [(row[~np.isnan(row)], 1.0 - alpha) for row in scores]
    for i, j in combinations(range(len(scores)), 2):
        both = ~(np.isnan(scores[i]) | np.isnan(scores[j]))
        difference = scores[i][both] - scores[j][both]
        series.extend((difference, level) for level in (1.0 - alpha, *credible_levels))
    return series


def widths_ratio(scores: np.ndarray, n_splits: int, c: float, alpha: float,
                 credible_levels=()) -> float:
    """The smallest ratio, over the intervals, of an interval's predicted width with one
    more repeat (``n_splits`` more folds) to its width now: 1 − it is the most any
    interval would narrow. NaN when no interval has a width.

    Only widths enter: a sign flip of the differences or a shuffle of the models
    leaves it unchanged.
    """
    ratios = []
    for values, level in interval_series(scores, alpha, credible_levels):
        if len(values) < 2:
            continue
        s2 = float(np.var(values, ddof=1)) if np.ptp(values) > 0 else 0.0
        now = width(s2, len(values), 0, c, level)
        if now > 0:
            ratios.append(width(s2, len(values), n_splits, c, level) / now)
    return min(ratios) if ratios else np.nan


def decide(r: int, max_repeats: int, precision: float, ratio: float) -> str | None:
    """Why to stop after repeat ``r`` (a :data:`REASONS` entry), None to go on.

    Precision: every interval would narrow by less than ``precision`` of its width
    (the smallest ratio ``> 1 − precision``), or no interval has a width yet to narrow (all fold
    values equal) after two repeats.
    """
    if r >= max_repeats:
        return "max_repeats"
    if np.isnan(ratio):
        return "precision" if r >= 2 else None
    return "precision" if ratio > 1.0 - precision else None


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
        ``ratio_after(r)``: :func:`widths_ratio` over the first ``r`` repeats.

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
        ratio = ratio_after(r)
        reason = decide(r, max_repeats, precision, ratio)
        if reason:
            return AutoStop(r, reason, ratio, max_repeats, precision)
    raise AssertionError("unreachable: the last round stops at max_repeats")
