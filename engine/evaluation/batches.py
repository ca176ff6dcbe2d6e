"""Grouping many small calls into tasks of a useful size (for the Dask cluster).

A Dask task costs the scheduler a few milliseconds however small it is, so a run of
hundreds of 10 ms fits, one task each, spends much of its time scheduling.
:class:`Batches` hands out the calls in their order, in groups sized from the times
measured so far: the first tasks hold one call of each kind (nothing is known yet; each
counted as :data:`FLOOR_SECONDS`, so at most target / floor of them), later ones as many
calls as the median time of calls of the same kind says fill :data:`TARGET_SECONDS` (a
second call of a kind not yet timed ends its task), never more than a
share of what is left, so that the workers still finish together, unless that share holds
less than :data:`FLOOR_SECONDS` of work. :func:`run_batch` runs one group on a worker and
times each call in CPU seconds of the worker process, so that a busy machine (whose clock
time per fit grows with the load) does not split the work into more, smaller tasks just
when the scheduler's CPU is scarcest.
"""
from __future__ import annotations

import bisect
import math
import time
from typing import Callable, Hashable, Optional, Sequence

from engine.foundation.time_left import median_of_sorted

#: CPU seconds of work a task aims at (several small calls in one task). A task costs
#: the client, the scheduler and the worker 10-20 ms of CPU together on a busy 2-core
#: machine (tests/benchmarks/bench_cluster.py), so a task of 0.5 s keeps that to a few %.
TARGET_SECONDS = 0.5
#: A task takes at most 1 / (this x workers) of the calls not yet handed out ...
TAIL_SHARE = 2
#: ... unless that is less than this many seconds of work: the workers then finish
#: within about this much of each other, in fewer tasks than halving down to one call.
FLOOR_SECONDS = 0.1


class Batches:
    """The calls ``0 .. len(kinds) - 1`` in order, handed out in sized groups.

    Parameters
    ----------
    kinds : sequence of hashable
        Per call, what it is a call of (for a fit: its estimator); calls of a kind are
        assumed to take similar times.
    workers : int
        Workers the tasks are shared among (for the tail share).
    target : float
        Seconds of work a task aims at.
    """

    def __init__(self, kinds: Sequence[Hashable], workers: int,
                 target: float = TARGET_SECONDS):
        self.kinds, self.workers, self.target = list(kinds), max(1, int(workers)), target
        self.handed = 0
        self.times: dict = {}         # kind -> sorted seconds

    @property
    def left(self) -> int:
        """Calls not yet handed out."""
        return len(self.kinds) - self.handed

    def record(self, index: int, seconds: float) -> None:
        """Call ``index`` took ``seconds``."""
        if not math.isfinite(seconds):
            return
        bisect.insort(self.times.setdefault(self.kinds[index], []), seconds)

    def guess(self, kind: Hashable) -> Optional[float]:
        """The median time of ``kind``'s calls so far, or None when none is timed yet
        (a task then takes one call of that kind, counted as :data:`FLOOR_SECONDS`: a
        slow model's first calls must not fill a task sized for a fast model timed before
        it, and a tiny model's first calls need not be a task each)."""
        times = self.times.get(kind)
        return median_of_sorted(times) if times else None

    def take(self) -> list:
        """The next group of call indices ([] when none are left)."""
        most = max(1, math.ceil(self.left / (TAIL_SHARE * self.workers)))
        floor = min(FLOOR_SECONDS, self.target)
        batch: list[int] = []
        seconds = 0.0
        untimed: set = set()          # the kinds of this task's calls not yet timed
        while self.handed < len(self.kinds):
            kind = self.kinds[self.handed]
            guess = self.guess(kind)
            if guess is None:
                if kind in untimed:   # one untimed call of a kind per task
                    break
                untimed.add(kind)
            batch.append(self.handed)
            self.handed += 1
            seconds += floor if guess is None else guess
            if seconds >= self.target or (len(batch) >= most and seconds >= floor):
                break
        return batch


class Shared:
    """Stands, in a call's arguments, for the ``position``-th of the arguments shipped
    once to every worker (:func:`run_batch`'s ``shared``)."""

    __slots__ = ("position",)

    def __init__(self, position: int):
        self.position = position

    def __reduce__(self):
        return Shared, (self.position,)


def run_batch(func: Callable, indices: Sequence[int], calls: Sequence[tuple],
              shared: Sequence = ()) -> list:
    """``[(index, seconds, func(*args)), ...]`` for a group of calls (run on a worker);
    each :class:`Shared` argument is replaced by its object of ``shared``. ``seconds`` are
    CPU seconds of this process (every thread's: a model's own threads count)."""
    out = []
    for index, packed in zip(indices, calls):
        args = [shared[a.position] if isinstance(a, Shared) else a for a in packed]
        start = time.process_time()
        result = func(*args)
        out.append((index, time.process_time() - start, result))
    return out
