"""The whole analysis of an experiment: data -> cross-validation -> comparison (-> extras).

:func:`run_experiment` is a generator (progress records, then an
:class:`ExperimentResult`); the headless runner and the GUI both use it, so a saved
experiment gives the same tables in either.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Generator, Optional

import pandas as pd

from engine.evaluation.aloocv import ineligibility_note
from engine.evaluation.advice import advice_for, failure_notes, rank_notes, small_class_advice
from engine.evaluation.curves.analysis import run_curves
from engine.evaluation.curves.auc_tables import run_auc_tables
from engine.evaluation.cv import CVResult, fold_notes, run_cv
from engine.input.data import Dataset
from engine.foundation.caller_errors import CallerError
from engine.foundation.errors import EngineError
from engine.evaluation.experiment import Experiment, parse_experiment
from engine.evaluation.interval_bounds import interval_bound_notes
from engine.runs.fingerprint import data_fingerprint
from engine.runs.grouping_gap import run_grouping_gap
from engine.runs.heldout import load_test_set, run_heldout
from engine.runs.heldout.saved import saved_model_files
from engine.runs.nested_cv import run_nested
from engine.runs.result_jobs import (aloocv_keys, calibrate, calibration_keys, keep_job,
                                     stored_extras, trace_aloocv)
from engine.foundation.notes import Note
from engine.evaluation.per_class import confusion_table, per_class_table
from engine.foundation.progress import Progress
from engine.input.readers import load_dataset
from engine.runs.run_plan import Phases, dataset_plan, plan_run
from engine.evaluation.subgroups import run_subgroups
from engine.evaluation.stats import (Comparison, ComparisonSettings, compare_models, default_rope,
                                     summary_table)
from engine.runs.store import ending_recorded, opened
from engine.evaluation.tuning import optimism_at, optimism_notes

if TYPE_CHECKING:
    from engine.evaluation.aloocv import AloocvResult
    from engine.evaluation.calibration import CalibrationResult
    from engine.evaluation.curves.analysis import CurvesResult
    from engine.evaluation.curves.auc_tables import AucTables
    from engine.evaluation.subgroups import SubgroupResult
    from engine.runs.grouping_gap import GroupingGapResult
    from engine.runs.heldout import HeldoutResult
    from engine.runs.nested_cv import NestedResult


@dataclass(frozen=True)
class ExperimentResult:
    """Every result of one experiment run, as values."""

    experiment: Experiment
    dataset: Dataset
    cv: CVResult
    summary: pd.DataFrame
    comparison: Comparison
    aloocv: Optional[AloocvResult] = None
    calibration: Optional[CalibrationResult] = None
    grouping_gap: Optional[GroupingGapResult] = None
    curves: Optional[CurvesResult] = None
    auc: Optional[AucTables] = None
    heldout: Optional[HeldoutResult] = None
    subgroups: Optional[SubgroupResult] = None
    nested: Optional[NestedResult] = None

    def with_comparison(self, settings: ComparisonSettings) -> "ExperimentResult":
        """The same run compared again with other ROPE / alpha / correction settings (the
        summary's, the held-out test's, the AUC tables' and the nested intervals follow
        alpha)."""
        summary = summary_table(self.cv.scores, self.cv.models, self.cv.metrics,
                                failures=self.cv.failures, alpha=settings.alpha)
        cv, old_alpha = self.cv, self.experiment.comparison.alpha
        if len(cv.tuning_optimism) and settings.alpha != old_alpha:
            cv = replace(cv, tuning_optimism=optimism_at(cv.tuning_optimism, settings.alpha,
                                                         old_alpha))
        heldout = (self.heldout.at_level(1 - settings.alpha, summary)
                   if self.heldout is not None else None)
        auc = self.auc.at_alpha(settings.alpha) if self.auc is not None else None
        subgroups = self.subgroups
        if subgroups is not None and settings.alpha != old_alpha:
            subgroups = subgroups.at_alpha(settings.alpha)      # nothing scored again
        nested = (self.nested.at_level(1 - settings.alpha) if self.nested is not None
                  else None)
        return replace(self, cv=cv, comparison=compare_cv(cv, settings), summary=summary,
                       experiment=replace(self.experiment, comparison=settings),
                       heldout=heldout, auc=auc, subgroups=subgroups, nested=nested)

    @functools.cached_property
    def notes(self) -> list:
        """Everything the user should know to read the results: how the data was read,
        defaults applied, failures and warnings (with what to change), how ranks were
        formed. Computed once (the result is frozen)."""
        n_folds = self.cv.config.n_splits * self.cv.config.n_repeats
        stop = self.cv.auto_stop
        return [*self.dataset.notes, *self.experiment.notes,
                *([stop.note()] if stop is not None else []),
                *fold_notes(self.dataset.y, self.dataset.classes, self.cv.config,
                            self.dataset.groups),
                *failure_notes(self.cv.failures, n_folds, class_counts=_class_counts(self.dataset),
                               n_features=self.dataset.X.shape[1],
                               n_splits=self.cv.config.n_splits),
                *rank_notes(self.summary, self.cv.primary_metric),
                *interval_bound_notes(self.summary),
                *gap_notes(self),
                *optimism_notes(self.cv.tuning_optimism, alpha=self.experiment.comparison.alpha),
                *rope_notes(self.experiment.comparison, self.cv.primary_metric),
                *alo_grouped_notes(self),
                *(self.auc.notes if self.auc is not None else ()),
                *(self.nested.notes if self.nested is not None else ()),
                *curve_notes(self),
                *(self.heldout.notes if self.heldout is not None else ()),
                *(self.subgroups.notes if self.subgroups is not None else ())]

    def tables(self) -> dict:
        """``{file name: DataFrame}``: the tables of docs/experiment-format.md that apply."""
        tables = {
            "fold_scores.csv": self.cv.scores,
            "summary.csv": self.summary,
            "correlation.csv": self.comparison.correlation,
            "pairwise.csv": self.comparison.pairwise,
            "credible_intervals.csv": self.comparison.intervals,
        }
        if not self.cv.failures.empty:
            tables["failures.csv"] = self.cv.failures
        for name, table in (("tuning.csv", self.cv.tuning), ("thresholds.csv", self.cv.thresholds),
                            ("tuning_optimism.csv", self.cv.tuning_optimism)):
            if len(table):
                tables[name] = table
        if "predicted" in self.cv.predictions and len(self.cv.predictions):
            confusion = confusion_table(self.cv.predictions, self.cv.models, self.cv.classes)
            tables["confusion.csv"] = confusion
            tables["per_class.csv"] = per_class_table(confusion, self.cv.classes)
        for extra in (self.grouping_gap, self.aloocv, self.calibration, self.curves,
                      self.auc, self.heldout, self.subgroups, self.nested):
            if extra is not None:
                tables.update(extra.tables())
        return tables


def rope_notes(settings: ComparisonSettings, metric: str) -> list:
    """A ``default_rope`` note when no ROPE was given: the primary metric's default
    (:func:`engine.evaluation.stats.default_rope`), its unit and why."""
    if settings.rope is not None:
        return []
    default = default_rope(metric)
    return [Note("default_rope", fields={"metric": metric, "rope": default.rope,
                                         "family": default.family, "unit": default.unit,
                                         "reason": default.reason})]


def _class_counts(dataset: Dataset) -> dict:
    """Class label -> rows of the data set."""
    import numpy as np

    counts = np.bincount(dataset.y, minlength=len(dataset.classes))
    return {label: int(n) for label, n in zip(dataset.classes, counts)}


def compare_cv(cv: CVResult, settings: ComparisonSettings) -> Comparison:
    """Compare the models of a CV run on its primary metric."""
    n_train, n_test = cv.train_test_sizes()
    return compare_models(cv.score_matrix(), n_train, n_test, settings=settings,
                          metric=cv.primary_metric)


def run_experiment(experiment: Experiment, *, n_jobs: int = 1,
                   dataset: Optional[Dataset] = None, cluster=None,
                   store=None, test=None) -> Generator[Progress, None, ExperimentResult]:
    """Run an experiment end to end.

    Parameters
    ----------
    experiment : Experiment
    n_jobs : int
        Worker processes for the cross-validation.
    dataset : Dataset, optional
        Already loaded data (the GUI's); loaded from ``experiment.dataset`` if not given.
    cluster : engine.evaluation.cluster.Cluster, optional
        An open Dask cluster: the fits run on its workers (:func:`engine.evaluation.parallel.run_calls`).
    store : engine.runs.store.ResultStore or str, optional
        The result store (or its file, opened and closed here): fits found in it are
        reused, the others committed as they finish, and the run is recorded in its
        ``runs`` table (complete once the result is ready).
    test : engine.runs.heldout.TestSet, optional
        The held-out test rows, already read and checked; read from ``experiment.test``
        (before any fit) if not given. After the cross-validation every model is fitted
        on all training rows and scored on them (:func:`engine.runs.heldout.run_heldout`).

    Yields
    ------
    Progress
        Over every step of the run (:class:`engine.runs.run_plan.RunPlan`'s ``steps``: the
        cross-validation's fits, then the extras'), ``done`` of one ``total``.

    Returns
    -------
    ExperimentResult
    """
    if experiment.datasets:
        # internal: a caller's mistake (the CLI and the app call run_benchmark for several)
        raise CallerError("entry_point",
                          f"this experiment has {experiment.n_datasets} data sets: run it with "
                          "engine.runs.benchmark.run_benchmark, or one data set with "
                          "experiment.for_dataset(i)")
    if dataset is None:
        dataset = load_dataset(experiment.dataset, base_dir=experiment.base_dir)
    experiment = experiment.with_metrics_for(len(dataset.classes), dataset)
    if test is None and experiment.test:
        test = load_test_set(experiment.test, dataset, base_dir=experiment.base_dir)
    phases = Phases(plan_run(experiment, datasets=dataset).steps)   # one count for every phase
    with opened(store) as store:
        record = store is not None and not store.replay
        run_id = store.begin_run(experiment, dataset) if record else None
        with ending_recorded(store if record else None, run_id):
            cv = yield from phases.relay(run_cv(dataset, list(experiment.models),
                                                experiment.cv, list(experiment.metrics),
                                                n_jobs=n_jobs, cluster=cluster, store=store,
                                                alpha=experiment.comparison.alpha,
                                                costs=experiment.metric_costs(),
                                                credible_levels=experiment.comparison
                                                .credible_levels))
            experiment = replace(experiment, cv=cv.config)    # "auto": the repeats run
            check_some_score(cv, dataset=dataset)
            summary = summary_table(cv.scores, cv.models, cv.metrics, failures=cv.failures,
                                    alpha=experiment.comparison.alpha)
            comparison = compare_cv(cv, experiment.comparison)
            result = ExperimentResult(experiment, dataset, cv, summary, comparison)
            result = yield from phases.relay(run_extras(result, n_jobs=n_jobs, cluster=cluster,
                                                        store=store))
            if test is not None:
                result = yield from phases.relay(heldout_phase(result, test))
        if record:
            store.finish_run(run_id)
        return result


def check_some_score(cv: CVResult, *, dataset: Optional[Dataset] = None) -> None:
    """Raise a ValueError saying why when no model scored on any fold (nothing to compare);
    with ``dataset`` the advice can name a class too small for the model."""
    primary = cv.scores[cv.scores["metric"] == cv.primary_metric]["score"]
    if primary.notna().any():
        return
    errors = cv.failures[cv.failures["kind"] == "error"]["message"]
    reason = errors.value_counts().index[0] if not errors.empty else "no reason recorded"
    advice = ((small_class_advice(reason, _class_counts(dataset), dataset.X.shape[1],
                                  cv.config.n_splits) if dataset is not None else "")
              or advice_for(reason))
    raise EngineError("no_valid_score", {"metric": cv.primary_metric, "reason": reason,
                                         "advice": advice or ""})


def gap_notes(result: ExperimentResult) -> list:
    """The grouping gap's verdict (``grouping_gap``), or ``grouping_gap_no_groups`` when
    the experiment asks for the gap but the data set has no groups."""
    if result.grouping_gap is not None:
        return list(result.grouping_gap.notes)
    if result.experiment.cv.compare_ungrouped and result.dataset.groups is None:
        return [Note("grouping_gap_no_groups", fields={"dataset": result.dataset.name})]
    return []


def curve_notes(result: ExperimentResult) -> list:
    """The notes of the decision and learning curves (models left out, fractions that lack
    a class, whether a learning curve may have flattened)."""
    return list(result.curves.all_notes) if result.curves is not None else []


def alo_grouped_notes(result: ExperimentResult) -> list:
    """The ALOOCV notes on grouped rows (``alo_grouped_rows``): ALO's curve is optimistic
    on data with groups, which changes how every ALOOCV table reads, so these notes are
    among the run's notes (``notes.txt``); ALOOCV's other notes stay with its result."""
    if result.aloocv is None:
        return []
    return [note for note in result.aloocv.notes
            if note.code == "alo_grouped_rows"]


def heldout_phase(result: ExperimentResult, test):
    """The held-out test of ``result``'s models on ``test`` (:mod:`engine.runs.heldout`), at the
    comparison's level, the CV estimates of ``summary`` beside each score."""
    experiment = result.experiment
    heldout = yield from run_heldout(result.dataset, test, list(experiment.models),
                                     list(result.cv.metrics), costs=experiment.metric_costs(),
                                     level=1 - experiment.comparison.alpha,
                                     summary=result.summary)
    if experiment.save_models:
        heldout = replace(heldout, files=saved_model_files(heldout, result.dataset))
    if experiment.calibration is not None:
        methods = list(experiment.calibration.methods)
        heldout = replace(heldout, notes=heldout.notes + (Note(
            "heldout_not_calibrated", fields={"methods": methods}),))
    return replace(result, heldout=heldout)


def run_extras(result: ExperimentResult, *, n_jobs: int = 1, cluster=None, store=None):
    """The nested-CV interval, the grouping gap, ALOOCV, calibration, curves and subgroups,
    when the experiment asks for them (the nested fits are looked up in and saved to
    ``store``)."""
    experiment = result.experiment
    if experiment.cv.interval == "nested":
        nested = yield from run_nested(result.dataset, list(experiment.models), experiment.cv,
                                       list(result.cv.metrics),
                                       level=1 - experiment.comparison.alpha,
                                       n_jobs=n_jobs, cluster=cluster, store=store,
                                       costs=experiment.metric_costs())
        result = replace(result, nested=nested)
    if experiment.cv.compare_ungrouped and result.dataset.groups is not None:
        gap = yield from run_grouping_gap(result.dataset, list(experiment.models), experiment.cv,
                                          list(result.cv.metrics), result.cv, n_jobs=n_jobs,
                                          rope=experiment.comparison.rope_for(
                                              result.cv.primary_metric), cluster=cluster,
                                          costs=experiment.metric_costs())
        result = replace(result, grouping_gap=gap)
    if experiment.aloocv is not None:
        aloocv = yield from kept_aloocv(store, result.dataset, experiment.models,
                                        experiment.aloocv, result.cv.config)
        result = replace(result, aloocv=aloocv)
    if experiment.calibration is not None:
        calibration = yield from kept_calibration(store, result.dataset, result.cv,
                                                  experiment.models, experiment.calibration,
                                                  n_jobs, cluster)
        result = replace(result, calibration=calibration)
    if experiment.curves is not None:
        curves = yield from run_curves(result, n_jobs=n_jobs, cluster=cluster)
        result = replace(result, curves=curves)
    if experiment.curves is not None and experiment.curves.roc:
        result = replace(result, auc=(yield from run_auc_tables(result)))
    if experiment.subgroups:
        result = replace(result, subgroups=run_subgroups(experiment, result.dataset, result.cv,
                                                         alpha=experiment.comparison.alpha))
    return result


def load_run(store, run_id: int, *, dataset=None, n_jobs: int = 1):
    """Rebuild a stored run's results without refitting its cross-validation.

    A generator like :func:`run_experiment`: every fit is read from the
    store; ALOOCV and calibration come from the store's kept job results when it holds
    them (:func:`with_stored_extras`: also those a view's job kept for a run whose
    experiment did not ask for them), else they are computed when the experiment asks for
    them; the learning curves' refits are computed again.

    Parameters
    ----------
    store : engine.runs.store.ResultStore or str
    run_id : int
        A run of :meth:`engine.runs.store.ResultStore.runs`.
    dataset : Dataset, optional
        The data, when already loaded; else read again from the run's data set block.
    n_jobs : int
        Workers for the extras.

    Returns
    -------
    engine.runs.analysis.ExperimentResult

    Raises
    ------
    ValueError
        No such run, the data changed since (another fingerprint), or a fit is missing
        (an incomplete run: resume it by running it again).
    """
    with opened(store) as store:
        stored = store.run(run_id)
        experiment = parse_experiment(stored.experiment, base_dir=stored.base_dir)
        if dataset is None:
            dataset = load_dataset(experiment.dataset, base_dir=experiment.base_dir)
        if data_fingerprint(dataset) != stored.data_fingerprint:
            raise EngineError("store_data_changed", {"path": store.path, "run_id": run_id},
                              f"the data of run {run_id} changed since it ran: run the "
                              "experiment again")
        store.replay = True
        try:
            result = yield from run_experiment(experiment, n_jobs=n_jobs, dataset=dataset,
                                               store=store)
        finally:
            store.replay = False
        return with_stored_extras(result, store)


def kept_aloocv(store, dataset, models, settings, cv_config):
    """A run's ALOOCV (:func:`trace_aloocv` of every model, the ineligible ones noted);
    with a store, the result kept there for the same data, eligible models and settings
    is used (nothing fitted), else the one computed is kept there."""
    eligible = [spec for spec in models if ineligibility_note(spec) is None]
    if store is None or not eligible:
        return (yield from trace_aloocv(dataset, models, settings))
    setup, key = aloocv_keys(dataset, eligible, settings, data_key=store.data_key(dataset))
    kept = store.lookup_job(key)
    if kept is None:
        kept = yield from trace_aloocv(dataset, models, settings)
        keep_job(store, setup, key, kept, settings)
    else:
        yield kept_record(dataset_plan(models, cv_config, aloocv=settings).aloocv_steps,
                          "ALOOCV")
    return kept


def kept_calibration(store, dataset, cv_result, models, settings, n_jobs, cluster):
    """A run's calibration (:func:`calibrate`); with a store, the result kept there for
    the same data, models, folds and settings is used, else the one computed is kept."""
    if store is None:
        return (yield from calibrate(dataset, cv_result, models, settings, n_jobs=n_jobs, cluster=cluster))
    setup, key = calibration_keys(dataset, cv_result, models, settings,
                                  data_key=store.data_key(dataset))
    kept = store.lookup_job(key)
    if kept is None:
        kept = yield from calibrate(dataset, cv_result, models, settings, n_jobs=n_jobs, cluster=cluster)
        keep_job(store, setup, key, kept, settings)
    else:
        yield kept_record(dataset_plan(models, cv_result.config,
                                       calibration=settings).calibration_steps, "calibration")
    return kept


def kept_record(steps: int, what: str) -> Progress:
    """The one progress record of an extra the store kept: its planned ``steps`` done at
    once, so the run's progress reaches the plan's total."""
    return Progress(steps, steps, f"{what}: kept in the result store")


def with_stored_extras(result: ExperimentResult, store) -> ExperimentResult:
    """``result`` of a re-opened run with the calibration and ALOOCV last kept in
    ``store`` for its data, models and folds when its experiment did not ask for them
    (a job started in the window's views): shown as computed, with their settings."""
    missing = result.calibration is None or result.aloocv is None
    if not missing:
        return result
    kept = stored_extras(store, result.dataset, result.cv, result.experiment.models)
    experiment = result.experiment
    if result.calibration is None and "calibration" in kept:
        calibration, settings = kept["calibration"]
        experiment = replace(experiment, calibration=settings)
        result = replace(result, calibration=calibration)
    if result.aloocv is None and "aloocv" in kept:
        aloocv, settings = kept["aloocv"]
        experiment = replace(experiment, aloocv=settings)
        result = replace(result, aloocv=aloocv)
    return replace(result, experiment=experiment)
