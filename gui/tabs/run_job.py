"""The Cross-validation tab's run through the engine's run service
(:mod:`engine.run_service`): checked on a worker thread, run in a child process, for one
data set or several alike (a single data set is a list of one). No widgets here.
"""
from __future__ import annotations

from engine import run_service
from engine.runs import runner
from engine.evaluation.experiment import parse_experiment

from .benchmark_run import PrepareEach
from .run_on import on_cluster


def check_setup(setup: dict, datasets, n_jobs: int):
    """On a worker thread: the window's setup (an experiment file's JSON object)
    validated and checked by :func:`engine.run_service.check_run` on every loaded data set.

    Returns the :class:`engine.run_service.CheckedRun`: the experiment with its metrics
    filled in, the data sets, the run budget (None when a problem blocks the run), the
    pre-run check's problems and the held-out test rows, read once here and handed to the
    run; a ValueError says what to change."""
    return run_service.check_run(parse_experiment(setup), list(datasets), n_jobs=n_jobs)


def run_in_process(experiment, datasets, n_jobs: int, prepare, cluster=None, store=None,
                   test=None, **options):
    """The window's run: :func:`engine.run_service.run` in a child process
    (:func:`engine.runs.runner.run_in_process`), its result prepared for display there with
    ``prepare`` (each data set's with several); a generator like the run.  ``cluster``: a
    Dask scheduler's address (the child connects to it).  ``store``: the result store's
    file (opened in the child), or None.  ``test``: the held-out test rows the check read
    (:attr:`engine.run_service.CheckedRun.test`), so the child does not read the file
    again.  ``options`` go to the runner."""
    several = run_service.is_several(experiment)
    return runner.run_in_process(on_cluster(run_service.run, cluster),
                                 (experiment, tuple(datasets)),
                                 {"n_jobs": n_jobs, "store": store, "test": test},
                                 prepare=PrepareEach(prepare) if several else prepare,
                                 name="cross-validation", **options)
