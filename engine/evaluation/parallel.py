"""Running many independent fits, in this process, in joblib workers or on a Dask cluster.

:func:`run_calls` yields ``(index, result)`` as each call finishes, so callers can
report progress and stop early; results are keyed by index, so the numbers never
depend on the number of workers or the order in which they finish.
"""
from __future__ import annotations

import os
import time
import warnings
from typing import Callable, Generator, Sequence

import pandas as pd


def run_calls(func: Callable, calls: Sequence[tuple], *, n_jobs: int = 1,
              cluster=None) -> Generator:
    """Call ``func(*args)`` for every ``args`` in ``calls``.

    Parameters
    ----------
    func : callable
        A module-level function (picklable, for worker processes).
    calls : sequence of tuple
        The arguments of each call.
    n_jobs : int
        1 runs here, one call at a time; more (or -1, every core) uses joblib workers.
    cluster : engine.evaluation.cluster.Cluster, optional
        An open Dask cluster (:func:`engine.evaluation.cluster.open_cluster`): the calls run on its
        workers (``n_jobs`` is then ignored), the arguments they share sent once.

    Yields
    ------
    (index, result)
        As calls finish (in order when ``n_jobs == 1``). Closing the generator stops
        the remaining calls.
    """
    if cluster is not None:
        yield from cluster.run_calls(func, calls)
        return
    if n_jobs == 1:
        for index, args in enumerate(calls):
            yield index, func(*args)
        return
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=n_jobs, return_as="generator_unordered")
    results = parallel(delayed(_indexed)(func, index, args) for index, args in enumerate(calls))
    try:
        for item in results:  # a cancel arrives here, not inside joblib's generator
            yield item
    finally:
        with warnings.catch_warnings():  # joblib reports the calls a cancel dropped
            warnings.simplefilter("ignore", UserWarning)
            results.close()


class Feed:
    """Many calls in one :func:`run_calls` stream, read a few at a time (the rounds of
    an ``"auto"`` run), started when first read.

    Parameters
    ----------
    func : callable
        As :func:`run_calls`'s.
    calls : dict
        The arguments of each call, by a key (a task index), in the order to run them.
    n_jobs : int
    cluster : engine.evaluation.cluster.Cluster, optional
        As :func:`run_calls`'s.

    Notes
    -----
    With one job the calls run as they are read, so none runs past what is read; with
    workers (or a cluster) they keep working on the next round while this process waits
    for a round's last fits and assesses it, and the results that come early wait here.
    :meth:`close` stops the calls not yet returned.
    """

    def __init__(self, func: Callable, calls: dict, n_jobs: int = 1, cluster=None):
        self.func, self.calls, self.n_jobs, self.cluster = func, calls, n_jobs, cluster
        self.order: list = list(calls)
        self.stream: Generator | None = None
        self.early: dict = {}     # results read before their round asked for them

    def take(self, indices):
        """Yield ``(key, result)`` for each key of ``indices``, as they finish."""
        if self.stream is None:
            self.stream = run_calls(self.func, [self.calls[i] for i in self.order],
                                    n_jobs=self.n_jobs, cluster=self.cluster)
        waiting = set(indices)
        for index in [i for i in indices if i in self.early]:
            waiting.discard(index)
            yield index, self.early.pop(index)
        while waiting:
            call, result = next(self.stream)
            index = self.order[call]
            if index in waiting:
                waiting.discard(index)
                yield index, result
            else:
                self.early[index] = result

    def close(self):
        """Stop the calls not yet returned and drop the early results."""
        if self.stream is not None:
            self.stream.close()
        self.early.clear()


class Timed:
    """``func`` returning ``(seconds, result)``: its result and how long the call took
    where it ran (picklable when ``func`` is, for worker processes)."""

    def __init__(self, func: Callable):
        self.func = func

    def __call__(self, *args):
        start = time.perf_counter()
        result = self.func(*args)
        return time.perf_counter() - start, result


def workers(n_jobs: int = 1, cluster=None) -> int:
    """How many calls :func:`run_calls` runs at once: the cluster's workers, else
    ``n_jobs`` (-1: every core, -2: all but one, as joblib counts)."""
    if cluster is not None:
        return cluster.workers()
    if n_jobs is None or n_jobs == 0:
        return 1
    if n_jobs < 0:
        return max(1, (os.cpu_count() or 1) + 1 + n_jobs)
    return int(n_jobs)


def _indexed(func, index, args):
    return index, func(*args)


def take_rows(X, rows):
    """Rows of an array or a DataFrame by position."""
    return X.iloc[rows] if isinstance(X, pd.DataFrame) else X[rows]
