"""Running many independent fits, in this process, in joblib workers or on a Dask cluster.

:func:`run_calls` yields ``(index, result)`` as each call finishes, so callers can
report progress and stop early; results are keyed by index, so the numbers never
depend on the number of workers or the order in which they finish.
"""
from __future__ import annotations

import warnings
from typing import Callable, Generator, Sequence

import pandas as pd


def run_calls(func: Callable, calls: Sequence[tuple], n_jobs: int = 1,
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


def _indexed(func, index, args):
    return index, func(*args)


def take_rows(X, rows):
    """Rows of an array or a DataFrame by position."""
    return X.iloc[rows] if isinstance(X, pd.DataFrame) else X[rows]
