"""One run service for the headless runner and the app: read, check, run.

Both ``honest-eval run`` (:mod:`engine.cli`) and the window's Run (``gui.tabs.cv_tab``)
go through these steps, on one data set or several alike -- a single data set is a list
of one, and whether the run is one experiment or a comparison across data sets is decided
here, by the experiment (a ``"datasets"`` list), not by the type of what is passed:

1. :func:`read_datasets` -- every data set of the experiment read, not yet checked;
2. :func:`check_run` -- the experiment's metrics filled in for the data, the pre-run
   check's problems (:mod:`engine.runs.preflight`), the held-out test file read and checked
   against the data (:func:`read_test`), every data set checked against the folds
   and the metrics when nothing blocks, and the run budget
   (:func:`engine.runs.guards.check_run`, whose assessment carries the
   :class:`engine.runs.run_plan.RunPlan`: the one count of fits the panel, the progress bar,
   Cancel, Resume and Earlier runs show);
3. the caller opens the result store (the CLI its ``--store``, the app the experiment's
   store, in the run's child process; :mod:`engine.runs.service` has the steps around
   the run: the result folder, the budget's answer, the store);
4. :func:`run` -- the run itself, a generator of progress records returning an
   :class:`engine.runs.analysis.ExperimentResult` or, with several data sets, an
   :class:`engine.runs.benchmark.BenchmarkResult`;
5. the caller writes or shows the result: the CLI and the app's export through the one
   writer, :mod:`engine.runs.result_writer`.

The jobs on a finished run's result -- calibration and ALOOCV, started by the window's
views -- go the same way (:mod:`engine.runs.result_jobs`): :func:`check_calibration` or
:func:`check_aloocv` (coded errors, the job's plan and budget), the caller's answer to
the budget (a large job's time estimated first in the job's process,
:func:`estimate_job_seconds`), then :func:`run_job`; inside a run the same generators
compute them.

Nothing here prints, asks or imports Qt: the CLI turns a refusal into one ``error:`` line
and the app into a dialog.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from engine.runs.analysis import run_experiment
from engine.runs.benchmark import check_datasets, experiment_for, load_datasets, run_benchmark
from engine.input.readers import load_dataset
from engine.evaluation.subgroups import check_subgroups
from engine.runs.guards import check_run as check_budget
from engine.runs.heldout import load_test_set
from engine.runs.nested_cv import check_nested
from engine.runs.result_writer import is_several
from engine.runs.result_jobs import CheckedJob as CheckedJob  # the jobs on a run's result
from engine.runs.result_jobs import check_aloocv as check_aloocv
from engine.runs.result_jobs import check_calibration as check_calibration
from engine.runs.result_jobs import estimate_job_seconds as estimate_job_seconds
from engine.runs.result_jobs import run_job as run_job
from engine.runs.preflight import blocking, check_experiment

if TYPE_CHECKING:
    from engine.evaluation.experiment import Experiment
    from engine.input.data import Dataset
    from engine.runs.guards import Assessment
    from engine.runs.heldout import TestSet
    from engine.runs.preflight import Problem
    from engine.runs.run_plan import RunPlan


@dataclass(frozen=True)
class CheckedRun:
    """A run checked before it starts.

    Attributes
    ----------
    experiment : Experiment
        With its metrics filled in for the data (as the run fills them).
    datasets : tuple of Dataset
        Every data set, in order (one for an experiment with a single ``"dataset"``).
    n_jobs : int
    problems : tuple of Problem
        The pre-run check's problems (:func:`engine.runs.preflight.check_experiment`).
    assessment : engine.runs.guards.Assessment or None
        The run budget; None when a problem blocks the run (not assessed).
    test : engine.runs.heldout.TestSet or None
        The held-out test rows of the experiment's ``"test"`` block, read and checked
        against the data (:func:`read_test`), or None.
    """

    experiment: Experiment
    datasets: tuple[Dataset, ...]
    n_jobs: int
    problems: tuple[Problem, ...]
    assessment: Optional[Assessment] = None
    test: Optional[TestSet] = None

    @property
    def blocked(self) -> bool:
        """A problem of the pre-run check stops the run."""
        return bool(blocking(self.problems))

    @property
    def plan(self) -> Optional[RunPlan]:
        """The run's :class:`engine.runs.run_plan.RunPlan` (None when not assessed)."""
        return self.assessment.plan if self.assessment is not None else None

    @property
    def several(self) -> bool:
        """The experiment compares models across several data sets."""
        return is_several(self.experiment)

    def as_tuple(self) -> tuple:
        """``(experiment, datasets, n_jobs, assessment, problems)``."""
        return self.experiment, self.datasets, self.n_jobs, self.assessment, self.problems


def read_datasets(experiment) -> tuple:
    """Every data set of ``experiment`` read, in order (not yet checked against the
    folds and metrics: :func:`check_run` does, listing every problem)."""
    if is_several(experiment):
        return tuple(load_datasets(experiment, check=False))
    return (load_dataset(experiment.dataset, base_dir=experiment.base_dir),)


def read_test(experiment, datasets):
    """The held-out test rows of ``experiment``'s ``"test"`` block (an
    :class:`engine.runs.heldout.TestSet`), read and checked against the data set before any
    fit (a ValueError says what to change), or None without one. A test file belongs to
    one data set: the experiment file refuses it beside a ``"datasets"`` list."""
    if not experiment.test or is_several(experiment):
        return None
    return load_test_set(experiment.test, tuple(datasets)[0], base_dir=experiment.base_dir)


def check_run(experiment, datasets, *, n_jobs: int = 1, check_data: bool = True) -> CheckedRun:
    """Check running ``experiment`` on ``datasets`` (nothing fitted).

    Parameters
    ----------
    experiment : Experiment
    datasets : sequence of Dataset
        Every data set, in order (a single data set is a list of one).
    n_jobs : int
    check_data : bool
        Check every data set against the folds and the metrics when nothing blocks
        (:func:`engine.runs.benchmark.check_datasets`; a ValueError names the data set).

    Returns
    -------
    CheckedRun
    """
    datasets = tuple(datasets)
    test = read_test(experiment, datasets)              # before any fit
    if not is_several(experiment):
        check_subgroups(experiment, datasets[0])        # an EngineError saying what to change
    if is_several(experiment):
        experiment = experiment_for(experiment, datasets)
    problems = tuple(check_experiment(experiment, datasets))
    if blocking(problems):
        return CheckedRun(experiment, datasets, n_jobs, problems, test=test)
    if check_data and is_several(experiment):
        check_datasets(experiment, datasets)
    check_nested_interval(experiment, datasets)
    return CheckedRun(experiment, datasets, n_jobs, problems,
                      check_budget(experiment, datasets, n_jobs=n_jobs), test)


def check_nested_interval(experiment, datasets) -> None:
    """With ``"cv": {"interval": "nested"}``, raise the coded error that says why the
    nested-CV interval cannot run on a data set (:func:`engine.runs.nested_cv.check_nested`)
    before any fit."""
    for index, dataset in enumerate(datasets):
        own = experiment.for_dataset(index) if is_several(experiment) else experiment
        if own.cv.interval != "nested":
            continue
        own = own.with_metrics_for(len(dataset.classes), dataset)
        check_nested(dataset, own.cv, own.metrics[0])


def run(experiment, datasets, *, n_jobs: int = 1, cluster=None, store=None, test=None):
    """The run: a generator of progress records like the engine's runs, returning an
    ExperimentResult, or a BenchmarkResult for an experiment with several data sets.

    Parameters
    ----------
    experiment : Experiment
    datasets : sequence of Dataset
        As :func:`read_datasets` gives them (a single data set is a list of one).
    n_jobs : int
    cluster : optional
        An open Dask cluster's client or address (:mod:`engine.evaluation.cluster`), or None.
    store : engine.runs.store.ResultStore or str, optional
        The result store (a path is opened by the run).
    test : engine.runs.heldout.TestSet, optional
        The held-out test rows (:attr:`CheckedRun.test`); read by the run from the
        experiment's ``"test"`` block when not given.
    """
    datasets = tuple(datasets)
    if is_several(experiment):
        return run_benchmark(experiment, n_jobs=n_jobs, datasets=datasets, cluster=cluster,
                             store=store)
    return run_experiment(experiment, n_jobs=n_jobs, dataset=datasets[0], cluster=cluster,
                          store=store, test=test)
