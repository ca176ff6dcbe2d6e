"""Progress records and helpers for the engine's long-running generators.

Long work in the engine is written as a generator: it ``yield``s :class:`Progress`
records between units of work (folds, C values, ...) and ``return``s its result.
A consumer cancels cooperatively by calling ``close()`` on the generator (or by
simply not asking for the next record): the generator stops at its next ``yield``.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable, Generator, Optional, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Progress:
    """One progress report: ``done`` of ``total`` units finished.

    Parameters
    ----------
    done, total : int
        Units finished and units in all.
    label : str
        What was just finished (for example ``"rbf: repeat 3, fold 7"``).
    elapsed : float
        Seconds since the job started.
    detail : object, optional
        What the unit produced, for live views (for a CV fold: a dict with
        ``model, repeat, fold, scores`` where ``scores`` maps metric -> score).
    left : float, optional
        The producer's estimate of the seconds left (for a run's fits: from the median
        fit time, :class:`engine.foundation.time_left.TimeLeft`); NaN while it cannot
        say yet; None when it makes no estimate (:attr:`remaining` then uses the ratio).
    """

    done: int
    total: int
    label: str = ""
    elapsed: float = 0.0
    detail: object = None
    left: Optional[float] = None

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 1.0

    @property
    def remaining(self) -> Optional[float]:
        """Estimated seconds left: the producer's :attr:`left` when it gave one (None
        while that is NaN), else ``elapsed x units left / units done``; None before the
        first unit is done."""
        if self.left is not None:
            return None if math.isnan(self.left) else self.left
        if self.done <= 0 or self.total <= 0:
            return None
        return self.elapsed * (self.total - self.done) / self.done


class Stopwatch:
    """Makes :class:`Progress` records with the elapsed time filled in."""

    def __init__(self, total: int):
        self.total = total
        self.start = time.perf_counter()

    def progress(self, done: int, label: str = "", detail: object = None,
                 left: Optional[float] = None) -> Progress:
        return Progress(done, self.total, label, time.perf_counter() - self.start, detail,
                        left)


def relay(job: Generator, convert: Callable) -> Generator:
    """Yield ``convert(record)`` for each of ``job``'s records and return ``job``'s result:
    a phase's progress passed on as records of a larger whole. Closing this generator
    closes ``job``."""
    try:
        while True:
            try:
                record = next(job)
            except StopIteration as stop:
                return stop.value
            yield convert(record)
    finally:
        job.close()


def run_to_end(gen: Generator[Progress, None, T],
               *, on_progress: Optional[Callable[[Progress], None]] = None) -> T:
    """Drive an engine generator to its end and return its result.

    Parameters
    ----------
    gen : generator
        An engine generator yielding :class:`Progress` and returning a result.
    on_progress : callable, optional
        Called with every :class:`Progress` record.

    Returns
    -------
    The generator's return value.
    """
    while True:
        try:
            record = next(gen)
        except StopIteration as stop:
            return stop.value
        if on_progress is not None:
            on_progress(record)
