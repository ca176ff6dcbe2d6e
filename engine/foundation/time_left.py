"""How long a run of many fits has left, from the median time of the fits done so far.

The ratio ``elapsed x (total - done) / done`` swings with whatever happened first: the
start of the worker processes, fits found in the store (instant), a slow model's fits
arriving in a burst. :class:`TimeLeft` instead keeps, per kind of fit (a model), the
times of its fits so far and the number still to do, and says ``sum over models of
median time x fits left, divided by the workers``, once every model has been timed
(before, it says it does not know yet): a figure that changes only as the medians do, so
it holds still on a steady machine.
"""
from __future__ import annotations

import bisect
import math
from collections import Counter
from typing import Hashable, Optional, Sequence


class TimeLeft:
    """Seconds left of a run of calls, from the median call time per kind.

    Parameters
    ----------
    kinds : sequence of hashable
        What each call still to do is a call of (for a fit: its model).
    workers : int
        Calls that run at once (``n_jobs``, a cluster's workers).
    """

    def __init__(self, kinds: Sequence[Hashable], workers: int = 1):
        self.left = Counter(kinds)
        self.workers = max(1, int(workers))
        self.times: dict = {}        # kind -> sorted seconds

    def done(self, kind: Hashable, seconds: Optional[float] = None) -> None:
        """A call of ``kind`` is over; ``seconds`` is its time (None or NaN when it was not
        timed, such as a fit found in the store)."""
        if self.left[kind] > 0:
            self.left[kind] -= 1
        if seconds is not None and math.isfinite(seconds):
            bisect.insort(self.times.setdefault(kind, []), float(seconds))

    def seconds(self) -> float:
        """The estimate: 0.0 when no call is left, NaN (not known yet) while a kind with
        calls left has none timed (one model's time says little of another's).

        Each kind's calls left count at that kind's median time; the sum is shared among
        the workers, never more workers than calls left."""
        calls_left = sum(self.left.values())
        if calls_left == 0:
            return 0.0
        pending = [(self.times.get(kind), count) for kind, count in self.left.items() if count]
        if any(times is None for times, _ in pending):
            return math.nan
        work = sum(median_of_sorted(times) * count for times, count in pending
                   if times is not None)
        return work / min(self.workers, calls_left)


def median_of_sorted(values: Sequence[float]) -> float:
    """The median of an ascending, non-empty sequence."""
    middle = len(values) // 2
    if len(values) % 2:
        return float(values[middle])
    return (values[middle - 1] + values[middle]) / 2.0
