"""One experiment, several data sets: the same models, folds and metrics on each data set,
then the models compared across the data sets.

:func:`load_datasets` reads and checks every data set of an experiment's ``"datasets"``
list before anything is fitted; :func:`run_benchmark` is a generator (like
:func:`engine.runs.analysis.run_experiment`, which it runs once per data set) yielding
:class:`~engine.foundation.progress.Progress` records over all the fits of all the data sets and
returning a :class:`BenchmarkResult`: the single-data-set results in order and
:func:`engine.runs.across.compare_across` of the primary metric's per-data-set means.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Generator, Optional

import pandas as pd

from engine.runs.across import AcrossComparison, compare_across
from engine.runs.analysis import ExperimentResult, run_experiment
from engine.evaluation.cv import check_folds
from engine.input.imbalance import is_imbalanced, with_imbalance_metric
from engine.input.readers import load_dataset
from engine.evaluation.experiment import Experiment
from engine.evaluation.metrics import check_metrics
from engine.foundation.errors import EngineError, error_code, error_fields
from engine.foundation.notes import Note
from engine.foundation.progress import Progress, Stopwatch, relay
from engine.runs.run_plan import plan_run
from engine.foundation.schema import show
from engine.runs.store import opened

#: the file of the across-data-set report (Markdown), written beside the tables
REPORT = "report.md"
#: the tables of the single-data-set run that are indexed (written with their index)
_INDEXED = ("correlation.csv",)


@dataclass(frozen=True)
class DatasetStep:
    """The ``detail`` of a :func:`run_benchmark` progress record: which data set
    (``index`` from 0 of ``n_datasets``, its ``name``) and the single-data-set run's own
    record (``record.label``; ``record.detail`` a fold's scores during the
    cross-validation)."""

    index: int
    name: str
    n_datasets: int
    record: Progress


@dataclass(frozen=True)
class BenchmarkResult:
    """Every result of a several-data-set experiment, as values.

    Attributes
    ----------
    experiment : Experiment
        The experiment as run (its metrics filled in when it named none).
    results : tuple of ExperimentResult
        One per data set, in the experiment's order (``results[i].dataset.name`` is the
        data set's name).
    across : engine.runs.across.AcrossComparison
        The models compared across the data sets on the primary metric's means (with a
        single data set: its ranks only, and a note).
    """

    experiment: Experiment
    results: tuple[ExperimentResult, ...]
    across: AcrossComparison

    @property
    def names(self) -> tuple:
        return tuple(result.dataset.name for result in self.results)

    @property
    def primary_metric(self) -> str:
        return self.experiment.metrics[0]

    def means(self) -> pd.DataFrame:
        """The primary metric's mean over the folds every model completed, per data set
        and model (:func:`dataset_means`, what :func:`engine.runs.across.compare_across`
        takes)."""
        return dataset_means(self.results)

    @functools.cached_property
    def notes(self) -> list:
        """The experiment's notes, every data set's notes (its name before each, and a
        ``dataset`` field), then the across comparison's."""
        notes = list(self.experiment.notes)
        for name, result in zip(self.names, self.results):
            notes.extend(about_dataset(note, name) for note in result.notes)
        notes.extend(self.across.notes)
        return notes

    def tables(self) -> dict:
        """``{file name: DataFrame}``: every single-data-set table once, the rows of all
        data sets one after another with a leading ``dataset`` column, then the
        across-data-set tables."""
        tables = stack_tables(self.names, [result.tables() for result in self.results],
                              models=self.results[0].cv.models)
        tables.update(self.across.tables())
        return tables

    def texts(self) -> dict:
        """``{file name: text}``: the across-data-set report (``report.md``)."""
        return {REPORT: self.across.report()}

    def dataset_records(self) -> list:
        """What ``run.json`` records of each data set: name, block, rows, classes."""
        return [{"name": result.dataset.name, "dataset": dict(block),
                 "n_rows": int(result.dataset.n_rows), "target": result.dataset.target,
                 "classes": [str(label) for label in result.dataset.classes]}
                for block, result in zip(self.experiment.dataset_blocks, self.results)]


def about_dataset(note: Note, name: str) -> Note:
    """``note`` about the data set ``name``: the name in its fields (``dataset``), and
    ``about_dataset`` set, so the catalogue's long form puts the name before its sentence
    (:func:`engine.foundation.messages.long_form`)."""
    return Note(note.code, fields={**note.fields, "dataset": name, "about_dataset": True})


def dataset_means(results) -> pd.DataFrame:
    """Columns ``dataset, model, mean, n_folds, n_failed, common``: each result's
    primary-metric mean per model over the folds every model completed on that data set
    (the summary's ``rank_mean``, the mean the ranking within the data set uses; NaN for
    a model without a valid score), the number of those folds, the model's failed folds,
    and whether any fold was common to every model (if not, ``rank_mean`` is the model's
    own mean)."""
    rows = []
    for result in results:
        summary = result.summary[result.summary["metric"] == result.cv.primary_metric]
        for row in summary.itertuples(index=False):
            common = int(row.rank_n_folds) > 0
            n_folds = int(row.rank_n_folds) if common else int(row.n_folds)
            rows.append((result.dataset.name, row.model, row.rank_mean,
                         n_folds if pd.notna(row.rank_mean) else 0, int(row.n_failed), common))
    return pd.DataFrame(rows, columns=["dataset", "model", "mean", "n_folds", "n_failed",
                                       "common"])


def stack_tables(names, tables, *, models=None) -> dict:
    """One table per file name: the tables of every data set one after another, with a
    leading ``dataset`` column (an indexed table gets ``dataset`` as its first index
    level, and its columns, one per model, follow ``models`` when given). A file that
    only some data sets have holds only their rows."""
    stacked = {}
    for file_name in dict.fromkeys(name for table in tables for name in table):
        parts = [(name, table[file_name]) for name, table in zip(names, tables)
                 if file_name in table]
        if file_name in _INDEXED:
            frame = pd.concat([frame for _, frame in parts], keys=[name for name, _ in parts],
                              names=["dataset"], sort=False)
            order = [m for m in (models or ()) if m in frame.columns]
            stacked[file_name] = frame[order + [c for c in frame.columns if c not in order]]
        else:
            stacked[file_name] = pd.concat(
                [frame.assign(dataset=name)[["dataset", *frame.columns]]
                 for name, frame in parts], ignore_index=True, sort=False)
    return stacked


# ----------------------------------------------------------------------------- loading

def load_datasets(experiment: Experiment, *, check: bool = True) -> tuple:
    """Read every data set of ``experiment`` and check that the run can use it.

    Each data set is loaded (:func:`engine.input.readers.load_dataset`), and its classes are
    checked against the metrics and the folds (every class needs ``n_splits`` rows), so
    a run fails before its first fit.

    Parameters
    ----------
    experiment : Experiment
    check : bool
        False: only read them (the caller checks them all, e.g. with
        :func:`engine.runs.preflight.check_experiment`, which lists every problem).

    Returns
    -------
    tuple of Dataset
        In the experiment's order, each named.

    Raises
    ------
    ValueError
        ``data set "diabetes" (datasets[1]): ...``: the first data set that cannot be
        read or used, and why.
    """
    datasets = []
    for index, block in enumerate(experiment.dataset_blocks):
        try:
            datasets.append(load_dataset(block, base_dir=experiment.base_dir))
        except ValueError as exc:
            raise _in_dataset(experiment, index, exc) from None
    if check:
        check_datasets(experiment_for(experiment, datasets), datasets)
    return tuple(datasets)


#: The metric of an experiment that names none when its data sets differ in their number of
#: classes (on two classes it is the plain ROC AUC).
MIXED_CLASSES_METRIC = "roc_auc_ovr"


def experiment_for(experiment: Experiment, datasets) -> Experiment:
    """``experiment`` with its metrics filled in for ``datasets`` when it names none: the
    default of :func:`engine.evaluation.metrics.default_metric` when every data set has as many
    classes, else ``roc_auc_ovr`` (on two classes the plain ROC AUC) for all, with a
    note; ``balanced_accuracy`` is added when the classes of a data set are imbalanced."""
    if experiment.metrics:
        return experiment
    counts = [len(dataset.classes) for dataset in datasets]
    if len(set(counts)) == 1:
        return _imbalance_metric(experiment.with_metrics_for(counts[0]), datasets)
    metric = MIXED_CLASSES_METRIC
    return _imbalance_metric(replace(experiment, metrics=(metric,), notes=experiment.notes + (
        Note("default_metric_datasets",
             fields={"metric": metric, "n_classes": counts}),)),
        datasets)


def _imbalance_metric(experiment: Experiment, datasets) -> Experiment:
    """``balanced_accuracy`` added on every data set when the classes of one are imbalanced
    (:func:`engine.input.imbalance.with_imbalance_metric`, the note naming the first such one)."""
    import numpy as np

    for index, dataset in enumerate(datasets):
        counts = np.bincount(dataset.y, minlength=len(dataset.classes))
        if is_imbalanced(counts):
            name = experiment.datasets[index]["name"] if experiment.datasets else None
            return with_imbalance_metric(experiment, counts, dataset.classes, dataset=name)
    return experiment


def check_datasets(experiment: Experiment, datasets) -> None:
    """Raise a ValueError naming the first data set whose classes do not fit the metrics
    or the folds (:func:`engine.evaluation.metrics.check_metrics`, :func:`engine.evaluation.cv.check_folds`)."""
    for index, dataset in enumerate(datasets):
        try:
            check_metrics(list(experiment.metrics), len(dataset.classes))
            check_folds(dataset.y, experiment.cv, dataset.groups, classes=dataset.classes)
        except ValueError as exc:
            raise _in_dataset(experiment, index, exc) from None


def _in_dataset(experiment: Experiment, index: int, exc: ValueError) -> EngineError:
    """The error ``exc`` of data set ``index``, its place named (its code and fields kept
    as ``cause`` and ``cause_fields``)."""
    name = experiment.datasets[index]["name"] if experiment.datasets else None
    return EngineError("dataset_problem", {
        "dataset": name, "index": index, "place": _place(experiment, index),
        "detail": str(exc), "cause": error_code(exc), "cause_fields": dict(error_fields(exc))})


def _place(experiment: Experiment, index: int) -> str:
    if not experiment.datasets:
        return "the data set"
    name = experiment.datasets[index]["name"]
    return f"data set {show(name)} (datasets[{index}])"


# ----------------------------------------------------------------------------- running

def run_benchmark(experiment: Experiment, *, n_jobs: int = 1, datasets=None, cluster=None,
                  store=None) -> Generator[Progress, None, BenchmarkResult]:
    """Run ``experiment`` on each of its data sets, then compare the models across them.

    Every data set is read and checked first (:func:`load_datasets`); then
    :func:`engine.runs.analysis.run_experiment` runs on each in turn, with the same models,
    folds and metrics. Cancel by closing the generator (it stops at the next fit).

    Parameters
    ----------
    experiment : Experiment
        Usually one with a ``"datasets"`` list (one with a single ``"dataset"`` works too).
    n_jobs : int
        Worker processes for the cross-validation.
    datasets : sequence of Dataset, optional
        The data sets already loaded by :func:`load_datasets`.
    cluster : engine.evaluation.cluster.Cluster, optional
        An open Dask cluster: the fits run on its workers (:func:`engine.evaluation.parallel.run_calls`).
    store : engine.runs.store.ResultStore or str, optional
        One result store for every data set (see :func:`engine.runs.analysis.run_experiment`);
        each data set's run is a row of its ``runs`` table.

    Yields
    ------
    Progress
        Over all the fits of all the data sets (``done`` of ``total``), labelled
        ``data set 2 of 3: circles — model 1 of 4 (svc), repeat 3, fold 7``; ``detail`` is a
        :class:`DatasetStep`.

    Returns
    -------
    BenchmarkResult
    """
    datasets = tuple(load_datasets(experiment) if datasets is None else datasets)
    experiment = experiment_for(experiment, datasets)
    check_datasets(experiment, datasets)
    plan = plan_run(experiment, datasets=datasets)
    clock = Stopwatch(plan.steps)
    results = []
    with opened(store) as store:
        for index, (dataset, start) in enumerate(zip(datasets, plan.offsets())):
            job = run_experiment(experiment.for_dataset(index), n_jobs=n_jobs, dataset=dataset,
                                 cluster=cluster, store=store)
            steps = _Steps(clock, index, len(datasets), dataset.name,
                           plan.datasets[index].steps, start)
            result = yield from steps.relay(job)
            results.append(result)
    return finish(experiment, results)


def finish(experiment: Experiment, results) -> BenchmarkResult:
    """The :class:`BenchmarkResult` of the finished single-data-set ``results``: the
    across comparison of their primary-metric means on each data set's common folds
    (alpha, rope and correction from the experiment's ``comparison``; the Bayesian
    signed-rank test's draws seeded with its ``cv.random_state``)."""
    results = tuple(results)
    across = compare_across(dataset_means(results), metric=experiment.metrics[0],
                            alpha=experiment.comparison.alpha,
                            rope=experiment.comparison.rope_for(experiment.metrics[0]),
                            correction=experiment.comparison.correction,
                            random_state=experiment.cv.random_state)
    return BenchmarkResult(experiment, results, across)


class _Steps:
    """Turns one data set's progress records (the cross-validation's, then each extra's,
    each phase counting from 1 to its own total) into records over the whole run."""

    def __init__(self, clock: Stopwatch, index: int, n_datasets: int, name: str, planned: int,
                 start=None):
        self.clock, self.index, self.n_datasets, self.name = clock, index, n_datasets, name
        self.planned, self.offset = planned, 0
        self.previous: Optional[Progress] = None
        self.start = index * planned if start is None else start

    def relay(self, job):
        """Yield ``job``'s records as overall ones; return its result. Closing this
        generator closes ``job`` (:func:`engine.foundation.progress.relay`)."""
        return relay(job, self.overall)

    def overall(self, record: Progress) -> Progress:
        previous = self.previous
        if previous is not None and previous.done >= previous.total:
            self.offset += previous.total          # a phase ended: the next one begins
        self.previous = record
        done = self.start + min(self.offset + record.done, self.planned)
        label = f"data set {self.index + 1} of {self.n_datasets}: {self.name} — {record.label}"
        step = self.clock.progress(done, label, DatasetStep(self.index, self.name,
                                                            self.n_datasets, record))
        if record.left is None or done <= 0:
            return step
        # the data set's own estimate, the later data sets' steps at the mean step so far
        later = max(0, self.clock.total - self.start - self.planned)
        return replace(step, left=record.left + later * step.elapsed / done)
