"""Jobs on a finished run's result -- calibration and ALOOCV -- the way a run goes:
check -> plan -> guard -> run.

The window's Calibration and ALOOCV views start these jobs on the result on screen;
the headless runner and the window's Run compute the same two extras inside a run
(:func:`engine.runs.analysis.run_extras`). Both call the one generator of each here,
:func:`calibrate` and :func:`trace_aloocv`, so the numbers are the same whichever
path made them.

1. :func:`check_calibration` / :func:`check_aloocv` -- the settings and the result
   checked before any fit (a coded :class:`engine.foundation.errors.EngineError` says
   what to change), the job's :class:`engine.runs.run_plan.RunPlan` (the run's own count
   of calibration or ALOOCV steps and fits) and its budget
   (:class:`engine.runs.guards.Assessment`: refuse when the job cannot fit in memory, ask
   above :data:`engine.runs.guards.ASK_FITS` fits, like a run);
2. :func:`run_job` -- the job, a generator of progress records returning the
   :class:`engine.evaluation.calibration.CalibrationResult` or
   :class:`engine.evaluation.aloocv.AloocvResult`. Closing it stops the job between two
   folds (calibration) or two values of C (ALOOCV).

With a result store (``store=``: its file, or an open
:class:`engine.runs.store.ResultStore`) the check looks the job up there by its key
(:func:`engine.runs.job_rows.job_key`: data, models, the run's folds, settings): a job
kept there plans no fit and gives the kept result; one computed is kept there when it
ends. Re-opening a stored run shows the last kept result of each kind for its setup
(:func:`stored_extras`, :func:`engine.runs.analysis.load_run`). Nothing here prints, asks
or imports Qt.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from typing import Any, Optional, cast

import numpy as np
import pandas as pd

from engine.evaluation.aloocv import AloocvResult, ineligibility_note, run_aloocv
from engine.evaluation.calibration import run_calibration
from engine.evaluation.calibration.analysis import outer_splits
from engine.evaluation.tuning import INNER_SPLITS
from engine.foundation.errors import EngineError, is_store_error
from engine.foundation.machine import (BYTES_PER_VALUE, available_memory, count_text,
                                       format_bytes, workers_for)
from engine.input.groups import fewest_inner_groups
from engine.runs.fingerprint import data_fingerprint
from engine.runs.fit_timing import job_seconds, time_models
from engine.runs.guards import (ASK_FITS, PREDICTION_COPIES, TIMING_BUDGET, WORKER_BYTES,
                                Assessment)
from engine.runs.job_rows import job_key, setup_key
from engine.runs.run_plan import RunPlan, dataset_plan
from engine.runs.store import opened

#: The kinds of job, as :attr:`CheckedJob.kind` names them.
KINDS = ("calibration", "aloocv")


@dataclass(frozen=True)
class CheckedJob:
    """A calibration or ALOOCV job checked before it starts.

    Attributes
    ----------
    kind : str
        ``"calibration"`` or ``"aloocv"``.
    dataset : Dataset
        The data the run's cross-validation ran on.
    models : tuple of ModelSpec
        The models of the job (calibration: the run's; ALOOCV: the eligible ones).
    settings : CalibrationSettings or AloocvSettings
    assessment : engine.runs.guards.Assessment
        The job's budget, with its plan.
    cv_result : CVResult or None
        The run's cross-validation (calibration only).
    n_jobs : int
        Worker processes of the calibration's fits (ALOOCV runs in one).
    store : str or None
        The result store the job's result is kept in (None: not kept).
    setup, key : str
        The job's keys in the store (:func:`engine.runs.job_rows.setup_key`,
        :func:`engine.runs.job_rows.job_key`).
    stored : CalibrationResult or AloocvResult or None
        The result the store kept for this job (then nothing is fitted).
    looked_up : bool
        True when the check looked the job up in ``store`` (else :func:`run_job` does,
        in its own process: a check on the window's thread reads no store).
    """

    kind: str
    dataset: object
    models: tuple
    settings: object
    assessment: Assessment
    cv_result: object = None
    n_jobs: int = 1
    store: Optional[str] = None
    setup: str = ""
    key: str = ""
    stored: object = None
    looked_up: bool = False

    @property
    def plan(self) -> RunPlan:
        """The job's :class:`engine.runs.run_plan.RunPlan` (``steps``: the progress
        records to come)."""
        return cast(RunPlan, self.assessment.plan)    # a job's assessment has its plan


# ----------------------------------------------------------------------------- the one run

def calibrate(dataset, cv_result, models, settings, *, n_jobs: int = 1, cluster=None):
    """The calibration of a run's models: :func:`engine.evaluation.calibration.run_calibration`
    with the run's inner folds (:data:`engine.evaluation.tuning.INNER_SPLITS`), as the run
    and the Calibration view both compute it; a generator of progress records."""
    return run_calibration(dataset, cv_result, list(models), settings, n_jobs=n_jobs,
                           inner_splits=INNER_SPLITS, cluster=cluster)


def trace_aloocv(dataset, models, settings):
    """ALOOCV of the eligible models: :func:`engine.evaluation.aloocv.run_aloocv`, as the
    run and the ALOOCV view both compute it; a generator of progress records."""
    return run_aloocv(dataset, list(models), settings)


def run_job(checked: CheckedJob, *, cluster=None):
    """Run a checked job: a generator of progress records (one per calibrated fold, or
    per value of C and optimum) returning its result; closing it stops the job before
    its next fold or value of C. A result the store kept is returned without a fit; one
    computed is kept in ``checked.store`` (:func:`keep_job`)."""
    stored = checked.stored
    if stored is None and not checked.looked_up:
        stored = _look_up(checked.store, checked.key)
    if stored is not None:
        return stored
    if checked.kind == "calibration":
        result = yield from calibrate(checked.dataset, checked.cv_result, checked.models,
                                      checked.settings, n_jobs=checked.n_jobs, cluster=cluster)
    else:
        result = yield from trace_aloocv(checked.dataset, checked.models, checked.settings)
    keep_job(checked.store, checked.setup, checked.key, result, checked.settings)
    return result


def keep_job(store, setup: str, key: str, result, settings) -> bool:
    """Keep a job's result in ``store`` (a file or an open store; None keeps nothing).
    A store that cannot be written now (locked, gone) keeps nothing and the result is
    still given: True when kept."""
    if store is None or not key:
        return False
    try:
        with opened(store) as kept:
            return kept.save_job(key, setup, result, settings)
    except EngineError as exc:
        if not is_store_error(exc):
            raise
        return False


def estimate_job_seconds(checked: CheckedJob, *, budget: float = TIMING_BUDGET) -> float:
    """How long a checked job would take here and now, measured as a run's estimate is
    (:func:`engine.runs.guards.estimate_seconds`: real fits on the real data, under the
    run's thread cap), in the shape of the job. Calibration: each distinct estimator
    timed on growing samples of the run's first training fold with the job's methods
    (:func:`engine.runs.fit_timing.time_models`), counted for the job's folds and workers
    (:func:`engine.runs.fit_timing.job_seconds`). ALOOCV (its own solver, not
    scikit-learn's fit): the job itself run for about ``budget`` seconds (at least one
    value of C), its time per step scaled to all its steps. 0 for a job the store kept.
    Meant for the job's own process (the window's: :class:`gui.jobs.Job` ``in_process``)."""
    if checked.stored is not None or (not checked.looked_up
                                      and _look_up(checked.store, checked.key) is not None):
        return 0.0
    if checked.kind == "aloocv":
        return _steps_seconds(trace_aloocv(checked.dataset, checked.models,
                                           checked.settings), budget)
    run: Any = checked.cv_result
    settings: Any = checked.settings
    models, methods = list(checked.models), list(dict.fromkeys(settings.methods))
    timed = time_models(models, run.config, list(run.metrics), checked.dataset, budget,
                        methods=methods)
    n_folds = checked.plan.datasets[0].calibration_steps // max(1, len(models) * len(methods))
    return job_seconds(models, timed, n_folds, len(methods), n_jobs=checked.n_jobs)


def _steps_seconds(steps, budget: float) -> float:
    """Run the generator ``steps`` until ``budget`` seconds have passed (at least one
    step), close it, and scale its time per step to its ``total``."""
    start, done, total = time.monotonic(), 0, 0
    try:
        for record in steps:
            done, total = record.done, record.total
            if time.monotonic() - start >= budget:
                break
    finally:
        steps.close()
    elapsed = time.monotonic() - start
    return elapsed * total / done if 0 < done < total else elapsed


# ----------------------------------------------------------------------------- keys

def calibration_keys(dataset, cv_result, models, settings, *, splits=None,
                     data_key: Optional[str] = None) -> tuple:
    """``(setup, key)`` of calibrating ``models`` of ``cv_result`` with ``settings``:
    the data, the models, the run's outer folds (``splits``, made again when not given)
    and the settings (:mod:`engine.runs.job_rows`)."""
    if splits is None:
        splits = _splits_of(dataset, cv_result)
    setup = setup_key("calibration", data_key or data_fingerprint(dataset), models,
                      splits=splits, config=cv_result.config)
    return setup, job_key(setup, settings)


def aloocv_keys(dataset, models, settings, *, data_key: Optional[str] = None) -> tuple:
    """``(setup, key)`` of ALOOCV of the eligible ``models`` with ``settings``."""
    setup = setup_key("aloocv", data_key or data_fingerprint(dataset), models)
    return setup, job_key(setup, settings)


def stored_extras(store, dataset, cv_result, models, *, data_key: Optional[str] = None) -> dict:
    """``{kind: (result, settings)}`` of the calibration and ALOOCV last kept in
    ``store`` (an open :class:`engine.runs.store.ResultStore`) for this run's setup: what
    a re-opened run shows without refitting."""
    data_key = data_key or data_fingerprint(dataset)
    found = {}
    eligible = [spec for spec in models if ineligibility_note(spec) is None]
    if eligible:
        latest = (store.latest_job("aloocv", setup_key("aloocv", data_key, eligible))
                  or _per_model_aloocv(store, data_key, eligible))
        if latest is not None:
            found["aloocv"] = latest
    try:
        splits = _splits_of(dataset, cv_result)
    except ValueError:
        return found
    latest = store.latest_job("calibration", setup_key("calibration", data_key, models,
                                                       splits=splits, config=cv_result.config))
    if latest is not None:
        found["calibration"] = latest
    return found


def _per_model_aloocv(store, data_key: str, models) -> Optional[tuple]:
    """``(result, settings)``: the ALOOCV curves the window's view computed one model at a
    time (each kept under its one-model setup), those with the settings of the first
    model found put together; None when none is kept."""
    kept = [found for spec in models
            if (found := store.latest_job("aloocv", setup_key("aloocv", data_key, [spec])))]
    if not kept:
        return None
    settings = kept[0][1]
    same = [result for result, each in kept if each == settings]
    return AloocvResult(curve=pd.concat([r.curve for r in same], ignore_index=True),
                        optimum=pd.concat([r.optimum for r in same], ignore_index=True),
                        notes=tuple(note for r in same for note in r.notes),
                        settings=settings), settings


def _look_up(store, key: str):
    """The result kept under ``key`` in ``store`` (None: none, or no store)."""
    if store is None or (isinstance(store, str) and not os.path.exists(store)):
        return None                           # no store made by a check
    with opened(store) as kept:
        return kept.lookup_job(key)


# ----------------------------------------------------------------------------- calibration

def check_calibration(dataset, cv_result, models, settings, *, n_jobs: int = 1,
                      available: Optional[int] = None, store=None) -> CheckedJob:
    """Check calibrating ``models`` of the run ``cv_result`` on ``dataset`` (nothing fitted).

    Parameters
    ----------
    dataset : Dataset
        The data the cross-validation ran on.
    cv_result : CVResult
    models : sequence of ModelSpec
        The run's models (same names as ``cv_result.models``).
    settings : CalibrationSettings
    n_jobs : int
    available : int, optional
        Bytes of memory available (measured when not given).
    store : str or ResultStore, optional
        The result store of the run: a calibration with these settings kept there is
        given back (the plan counts no fit), one computed is kept there.

    Returns
    -------
    CheckedJob

    Raises
    ------
    EngineError
        A store's code (``store_damaged`` ...) for a store that cannot be read;
        ``calibration_no_method`` (no method chosen), ``calibration_models_missing`` (a
        model the run did not cross-validate), ``calibration_result_mismatch`` (the result
        is not of these rows), ``calibration_inner_too_few`` (a training fold has fewer
        rows, or groups, of a class than the inner folds).
    """
    models = tuple(models)
    methods = tuple(dict.fromkeys(settings.methods))
    if not methods:
        raise EngineError("calibration_no_method", {},
                          "choose a calibration method (isotonic or sigmoid)")
    missing = [spec.name for spec in models if spec.name not in cv_result.models]
    if not models or missing:
        raise EngineError("calibration_models_missing",
                          {"models": missing, "have": list(cv_result.models)},
                          "the models " + ", ".join(missing or ["(none)"]) + " are not in "
                          "the run's result: run the cross-validation again")
    splits = _splits_of(dataset, cv_result)
    _check_inner_folds(dataset, splits)
    setup, key = calibration_keys(dataset, cv_result, models, settings, splits=splits)
    stored = _look_up(store, key)
    plan = _job_plan(dataset_plan(models, _Folds(len(splits)), calibration=settings,
                                  name=dataset.name or ""), len(models), stored)
    needed = (0 if stored is not None else
              _calibration_bytes(dataset, cv_result, len(models), len(methods), n_jobs))
    ask = (f"this calibration makes {count_text(plan.budget[1])} fits "
           f"({_many(len(models), 'model')} x {_many(len(methods), 'method')} x "
           f"{len(splits)} folds, with inner {INNER_SPLITS}-fold splits), more than the "
           f"{count_text(ASK_FITS)} that start without asking")
    assessment = _assess(plan, len(models), needed, n_jobs, available, ask=ask,
                         advice="choose one calibration method, or calibrate fewer models")
    return CheckedJob("calibration", dataset, models, settings, assessment, cv_result, n_jobs,
                      _path_of(store), setup, key, stored, store is not None)


def _calibration_bytes(dataset, cv_result, n_models: int, n_methods: int,
                       n_jobs: int) -> int:
    """The calibration's memory as the run budget counts it (:mod:`engine.runs.guards`):
    the kept out-of-fold predictions once per method and once uncalibrated, and the data
    as a matrix of floats once plus once per worker (the training fold each fit copies),
    with :data:`engine.runs.guards.WORKER_BYTES` per worker process beyond one."""
    per_model = len(cv_result.predictions) // max(1, len(cv_result.models))
    predictions = (per_model * n_models * (len(dataset.classes) + 6) * BYTES_PER_VALUE
                   * PREDICTION_COPIES * (n_methods + 1))
    workers = workers_for(n_jobs)
    data = int(len(dataset.y)) * max(1, int(dataset.X.shape[1])) * BYTES_PER_VALUE
    return (predictions + data * (1 + workers)
            + (WORKER_BYTES * workers if workers > 1 else 0))


def _splits_of(dataset, cv_result) -> list:
    """The run's outer splits (a coded error when the result is not of these rows)."""
    try:
        return outer_splits(np.asarray(dataset.y), cv_result, dataset.groups)
    except EngineError:
        raise
    except ValueError as exc:
        raise EngineError("calibration_result_mismatch", {"detail": str(exc)}, str(exc)) from exc


def _check_inner_folds(dataset, splits) -> None:
    """Every outer training fold splits into the inner folds: enough rows (with groups,
    enough groups) of every class."""
    y, groups = np.asarray(dataset.y), dataset.groups
    if groups is not None:
        _, smallest = fewest_inner_groups(y, groups, splits)
    else:
        smallest = min(int(np.bincount(y[train], minlength=len(dataset.classes)).min())
                       for train, _ in splits)
    if smallest >= INNER_SPLITS:
        return
    what = "group(s) holding" if groups is not None else "row(s) of"
    raise EngineError("calibration_inner_too_few",
                      {"smallest": smallest, "inner_splits": INNER_SPLITS,
                       "grouped": groups is not None},
                      f"a training fold has only {smallest} {what} its smallest class, but "
                      f"the calibration's inner {INNER_SPLITS}-fold split needs at least "
                      f"{INNER_SPLITS}: use fewer outer folds, or add data")


# ----------------------------------------------------------------------------- ALOOCV

def check_aloocv(dataset, models, settings, *, available: Optional[int] = None,
                 store=None) -> CheckedJob:
    """Check tracing ALOOCV for ``models`` on ``dataset`` (nothing fitted).

    Parameters
    ----------
    dataset : Dataset
    models : sequence of ModelSpec
        Those ALO does not apply to are left out (:func:`engine.evaluation.aloocv.
        ineligibility_note`).
    settings : AloocvSettings
    available : int, optional
        Bytes of memory available (measured when not given).
    store : str or ResultStore, optional
        The result store of the run (as :func:`check_calibration`'s).

    Returns
    -------
    CheckedJob

    Raises
    ------
    EngineError
        A store's code for a store that cannot be read; ``aloocv_no_model`` when ALO applies to none of ``models``.
    """
    models = tuple(models)
    eligible = tuple(spec for spec in models if ineligibility_note(spec) is None)
    if not eligible:
        reasons = [note.message for spec in models
                   if (note := ineligibility_note(spec)) is not None]
        raise EngineError("aloocv_no_model",
                          {"models": [spec.name for spec in models], "reasons": reasons},
                          "ALO applies to none of the models: it needs a LogisticRegression "
                          "with the ridge (L2) penalty")
    setup, key = aloocv_keys(dataset, eligible, settings)
    stored = _look_up(store, key)
    plan = _job_plan(dataset_plan(eligible, _Folds(1), aloocv=settings,
                                  name=dataset.name or ""), len(eligible), stored)
    # a rough count, not measured: the design matrix (columns and intercept) and one
    # copy of it, a second copy with exact leave-one-out's refits
    width = int(dataset.X.shape[1]) + 1
    needed = (0 if stored is not None else
              int(len(dataset.y)) * width * BYTES_PER_VALUE * (3 if settings.exact_loo else 2))
    fits = plan.budget[2]
    ask = (f"this ALOOCV makes {count_text(fits)} fits ({_many(len(eligible), 'model')} x "
           f"{settings.n_C} values of C" + (", each twice with exact leave-one-out"
                                            if settings.exact_loo else "")
           + f"), more than the {count_text(ASK_FITS)} that start without asking")
    assessment = _assess(plan, len(eligible), needed, 1, available, ask=ask,
                         advice="use fewer values of C, or leave exact leave-one-out out")
    return CheckedJob("aloocv", dataset, eligible, settings, assessment,
                      store=_path_of(store), setup=setup, key=key, stored=stored,
                      looked_up=store is not None)


class _Folds:
    """The outer folds of a run as :func:`engine.runs.run_plan.dataset_plan` reads them:
    ``n_folds`` in all (repeats included), nothing run twice or nested."""

    n_repeats, compare_ungrouped, interval = 1, False, None

    def __init__(self, n_folds: int):
        self.n_splits = n_folds


def _job_plan(plan, n_models: int, stored=None) -> RunPlan:
    """A job's :class:`RunPlan`: the run's plan of the extra (counted by
    :func:`engine.runs.run_plan.dataset_plan`, as in a run) without the
    cross-validation's fits, which the run already made; nothing at all when the store
    kept its result (``stored``)."""
    plan = replace(plan, fits=0, inner_fits=0)
    if stored is not None:
        plan = replace(plan, calibration_steps=0, calibration_fits=0, aloocv_steps=0,
                       aloocv_fits=0)
    return RunPlan((plan,), n_models)


def _path_of(store) -> Optional[str]:
    """The file of ``store`` (a path or an open store), None for none."""
    if store is None or isinstance(store, (str, os.PathLike)):
        return None if store is None else os.fspath(store)
    return store.path


# ----------------------------------------------------------------------------- the budget

def _many(n: int, thing: str) -> str:
    """``1 model``, ``2 models``."""
    return f"{count_text(n)} {thing}" + ("" if n == 1 else "s")


def _assess(plan: RunPlan, n_models: int, needed: int, n_jobs: int,
            available: Optional[int], ask: str, advice: str) -> Assessment:
    """The job's :class:`engine.runs.guards.Assessment`: refused when ``needed`` bytes
    exceed the memory available, asking above :data:`ASK_FITS` fits."""
    cv_fits, calibration_fits, aloocv_fits = plan.budget
    n_fits = cv_fits + calibration_fits + aloocv_fits
    available = available_memory() if available is None else available
    refuse = None
    if available is not None and needed > available:
        refuse = (f"this job needs about {format_bytes(needed)} of memory but "
                  f"{format_bytes(available)} is available: {advice}")
    return Assessment(n_models=n_models, n_fits=n_fits, n_cv_fits=cv_fits,
                      n_calibration_fits=calibration_fits, n_aloocv_fits=aloocv_fits,
                      n_pairs=0, data_bytes=0, predictions_bytes=int(needed),
                      needed_bytes=int(needed), available_bytes=available,
                      n_jobs=workers_for(n_jobs), refuse=refuse,
                      ask=None if refuse or n_fits <= ASK_FITS else ask, plan=plan)
