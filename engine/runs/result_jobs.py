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

What stays out: the result store keeps cross-validation fits only, so these results are
not stored; re-opening a stored run whose experiment asks for them computes them again
(:func:`engine.runs.analysis.load_run`). Nothing here prints, asks or imports Qt.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

import numpy as np

from engine.evaluation.aloocv import ineligibility_note, run_aloocv
from engine.evaluation.calibration import run_calibration
from engine.evaluation.calibration.analysis import outer_splits
from engine.evaluation.tuning import INNER_SPLITS
from engine.foundation.errors import EngineError
from engine.foundation.machine import (BYTES_PER_VALUE, available_memory, count_text,
                                       format_bytes, workers_for)
from engine.input.groups import fewest_inner_groups
from engine.runs.guards import ASK_FITS, PREDICTION_COPIES, WORKER_BYTES, Assessment
from engine.runs.run_plan import RunPlan, dataset_plan

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
    """

    kind: str
    dataset: object
    models: tuple
    settings: object
    assessment: Assessment
    cv_result: object = None
    n_jobs: int = 1

    @property
    def plan(self) -> RunPlan:
        """The job's :class:`engine.runs.run_plan.RunPlan` (``steps``: the progress
        records to come)."""
        return self.assessment.plan


# ----------------------------------------------------------------------------- the one run

def calibrate(dataset, cv_result, models, settings, n_jobs: int = 1, cluster=None):
    """The calibration of a run's models: :func:`engine.evaluation.calibration.run_calibration`
    with the run's inner folds (:data:`engine.evaluation.tuning.INNER_SPLITS`), as the run
    and the Calibration view both compute it; a generator of progress records."""
    return run_calibration(dataset, cv_result, list(models), settings, n_jobs=n_jobs,
                           inner_splits=INNER_SPLITS, cluster=cluster)


def trace_aloocv(dataset, models, settings):
    """ALOOCV of the eligible models: :func:`engine.evaluation.aloocv.run_aloocv`, as the
    run and the ALOOCV view both compute it; a generator of progress records."""
    return run_aloocv(dataset, list(models), settings)


def run_job(checked: CheckedJob, cluster=None):
    """Run a checked job: a generator of progress records (one per calibrated fold, or
    per value of C and optimum) returning its result; closing it stops the job before
    its next fold or value of C."""
    if checked.kind == "calibration":
        return (yield from calibrate(checked.dataset, checked.cv_result, checked.models,
                                     checked.settings, checked.n_jobs, cluster))
    return (yield from trace_aloocv(checked.dataset, checked.models, checked.settings))


# ----------------------------------------------------------------------------- calibration

def check_calibration(dataset, cv_result, models, settings, n_jobs: int = 1,
                      available: Optional[int] = None) -> CheckedJob:
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

    Returns
    -------
    CheckedJob

    Raises
    ------
    EngineError
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
    plan = _job_plan(dataset_plan(models, _Folds(len(splits)), calibration=settings,
                                  name=dataset.name or ""), len(models))
    needed = _calibration_bytes(dataset, cv_result, len(models), len(methods), n_jobs)
    ask = (f"this calibration makes {count_text(plan.budget[1])} fits "
           f"({_many(len(models), 'model')} x {_many(len(methods), 'method')} x "
           f"{len(splits)} folds, with inner {INNER_SPLITS}-fold splits), more than the "
           f"{count_text(ASK_FITS)} that start without asking")
    assessment = _assess(plan, len(models), needed, n_jobs, available, ask=ask,
                         advice="choose one calibration method, or calibrate fewer models")
    return CheckedJob("calibration", dataset, models, settings, assessment, cv_result, n_jobs)


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

def check_aloocv(dataset, models, settings, available: Optional[int] = None) -> CheckedJob:
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

    Returns
    -------
    CheckedJob

    Raises
    ------
    EngineError
        ``aloocv_no_model`` when ALO applies to none of ``models``.
    """
    models = tuple(models)
    eligible = tuple(spec for spec in models if ineligibility_note(spec) is None)
    if not eligible:
        reasons = [ineligibility_note(spec).message for spec in models]
        raise EngineError("aloocv_no_model",
                          {"models": [spec.name for spec in models], "reasons": reasons},
                          "ALO applies to none of the models: it needs a LogisticRegression "
                          "with the ridge (L2) penalty")
    plan = _job_plan(dataset_plan(eligible, _Folds(1), aloocv=settings,
                                  name=dataset.name or ""), len(eligible))
    # a rough count, not measured: the design matrix (columns and intercept) and one
    # copy of it, a second copy with exact leave-one-out's refits
    width = int(dataset.X.shape[1]) + 1
    needed = int(len(dataset.y)) * width * BYTES_PER_VALUE * (3 if settings.exact_loo else 2)
    fits = plan.budget[2]
    ask = (f"this ALOOCV makes {count_text(fits)} fits ({_many(len(eligible), 'model')} x "
           f"{settings.n_C} values of C" + (", each twice with exact leave-one-out"
                                            if settings.exact_loo else "")
           + f"), more than the {count_text(ASK_FITS)} that start without asking")
    assessment = _assess(plan, len(eligible), needed, 1, available, ask=ask,
                         advice="use fewer values of C, or leave exact leave-one-out out")
    return CheckedJob("aloocv", dataset, eligible, settings, assessment)


class _Folds:
    """The outer folds of a run as :func:`engine.runs.run_plan.dataset_plan` reads them:
    ``n_folds`` in all (repeats included), nothing run twice or nested."""

    n_repeats, compare_ungrouped, interval = 1, False, None

    def __init__(self, n_folds: int):
        self.n_splits = n_folds


def _job_plan(plan, n_models: int) -> RunPlan:
    """A job's :class:`RunPlan`: the run's plan of the extra (counted by
    :func:`engine.runs.run_plan.dataset_plan`, as in a run) without the
    cross-validation's fits, which the run already made."""
    return RunPlan((replace(plan, fits=0, inner_fits=0),), n_models)


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
