"""One count of a run's fits: what the panel, the progress bar, the guards and the store say.

A :class:`RunPlan` counts, for every data set of a run (nothing fitted):

* ``fits`` -- the cross-validation's fits, one per (model, outer fold): a tuned model's
  grid members refitted as plain models count too (``tuning_optimism``). These are the
  fits the result store keeps (:mod:`engine.runs.store`), the "fits" of the Earlier runs list,
  Resume and Cancel.
* ``ungrouped_fits`` -- the same fits again on ordinary folds, when ``compare_ungrouped``
  is on and the data set has groups (:mod:`engine.runs.grouping_gap`; not stored).
* ``calibration_steps``, ``aloocv_steps`` -- the extras' progress steps (a calibrated fold
  per method, an ALOOCV point, one more per model).
* ``inner_fits`` and ``calibration_fits`` -- the fits inside those steps (the searches
  of ``tune`` and ``threshold``, calibration's inner folds), counted as whole fits: they
  are what :mod:`engine.runs.guards` weighs before a large run.
* ``learning_fits`` -- with a ``curves`` block's ``learning`` fractions, the learning
  curve's fits: one per fraction, model (the compared ones) and outer fold; each is one
  progress step (:mod:`engine.evaluation.curves` yields one record per fit).
* ``nested_fits`` -- with ``"cv": {"interval": "nested"}``, the nested-CV interval's fits
  (:mod:`engine.runs.nested_cv`): models x ``nested_repeats`` x folds², one progress step
  each, counted with the cross-validation's in the run budget.
* ``final_fits`` -- with a held-out ``test`` file, each model fitted once more on all
  training rows (:mod:`engine.runs.heldout`), one progress step each.
* ``reused`` -- with a result store, the fits it already holds.

``steps`` (every progress record of the run: ``fits + ungrouped_fits + calibration_steps
+ aloocv_steps + learning_fits + final_fits + nested_fits``) is the progress bar's total,
in the headless runner and in the app; ``work`` (``steps`` with the inner fits) is the run
budget's count.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from engine.evaluation.aloocv import ineligibility_note
from engine.evaluation.cv import make_splits
from engine.runs.fingerprint import fit_keys
from engine.runs.nested_cv import nested_fit_count
from engine.foundation.progress import Stopwatch, relay
from engine.evaluation.tuning import INNER_SPLITS, fits_per_fold, grid_members, with_scoring


@dataclass(frozen=True)
class DatasetPlan:
    """The fits and steps of one data set's run (see the module's note)."""

    name: str
    fits: int
    inner_fits: int = 0
    ungrouped_fits: int = 0
    calibration_steps: int = 0
    calibration_fits: int = 0
    aloocv_steps: int = 0
    aloocv_fits: int = 0
    reused: int = 0
    learning_fits: int = 0
    final_fits: int = 0
    nested_fits: int = 0

    @property
    def steps(self) -> int:
        """Progress records of this data set's run."""
        return (self.fits + self.ungrouped_fits + self.calibration_steps + self.aloocv_steps
                + self.learning_fits + self.final_fits + self.nested_fits)

    @property
    def cv_fits(self) -> int:
        """Cross-validation fits with their inner fits, both runs (the run budget's)."""
        twice = 2 if self.ungrouped_fits else 1
        return (self.fits + self.inner_fits) * twice


@dataclass(frozen=True)
class RunPlan:
    """The plans of every data set of a run, in order, and their sums."""

    datasets: tuple
    n_models: int = 0

    def _sum(self, name: str) -> int:
        return sum(getattr(plan, name) for plan in self.datasets)

    @property
    def fits(self) -> int:
        """Cross-validation fits (one per model and outer fold): what the store keeps."""
        return self._sum("fits")

    @property
    def reused(self) -> int:
        """Fits found in the result store (0 without one)."""
        return self._sum("reused")

    @property
    def left(self) -> int:
        """Fits to compute."""
        return self.fits - self.reused

    @property
    def steps(self) -> int:
        """Progress records of the whole run (the progress bar's total)."""
        return self._sum("steps")

    @property
    def inner_fits(self) -> int:
        return self._sum("inner_fits")

    @property
    def ungrouped_fits(self) -> int:
        return self._sum("ungrouped_fits")

    @property
    def learning_fits(self) -> int:
        """The learning curves' fits (fractions x outer folds x models)."""
        return self._sum("learning_fits")

    @property
    def final_fits(self) -> int:
        """The held-out test's fits: each model once on all training rows."""
        return self._sum("final_fits")

    @property
    def nested_fits(self) -> int:
        """The nested-CV interval's fits: models x nested_repeats x folds²."""
        return self._sum("nested_fits")

    @property
    def budget(self) -> tuple:
        """``(cross-validation, calibration, ALOOCV)`` fits with every inner fit, for the
        run budget (:func:`engine.runs.guards.check_run`); the learning curves' fits count
        with the cross-validation's."""
        return (self._sum("cv_fits") + self.learning_fits + self.final_fits + self.nested_fits,
                self._sum("calibration_fits"),
                self._sum("aloocv_fits"))

    def offsets(self) -> list:
        """The progress steps before each data set's run."""
        out, start = [], 0
        for plan in self.datasets:
            out.append(start)
            start += plan.steps
        return out

    def with_reused(self, counts) -> "RunPlan":
        """The plan with the fits found in the store, one count per data set."""
        return replace(self, datasets=tuple(replace(plan, reused=int(count))
                                            for plan, count in zip(self.datasets, counts)))

    def text(self) -> str:
        """What Run computes, in words (no full stop): ``1,200 fits`` and what makes them;
        the store's share when known."""
        parts = [f"{self.fits:,} fits"]
        if self.inner_fits:
            parts.append(f"the searches inside the folds add {self.inner_fits:,} smaller fits")
        if self.ungrouped_fits:
            parts.append(f"then {self.ungrouped_fits:,} again without the groups")
        if self.learning_fits:
            parts.append(f"then {self.learning_fits:,} learning-curve fits")
        if self.nested_fits:
            parts.append(f"then {self.nested_fits:,} nested-CV fits for the intervals")
        if self.final_fits:
            parts.append(f"then {self.final_fits:,} on all training rows for the held-out "
                         "test")
        extras = (self.steps - self.fits - self.ungrouped_fits - self.learning_fits
                  - self.final_fits - self.nested_fits)
        if extras:
            parts.append(f"then {extras:,} calibration or ALOOCV steps")
        return "; ".join(parts)


def plan_run(experiment, *, datasets=None) -> RunPlan:
    """The plan of running ``experiment`` (nothing fitted, no data read).

    Parameters
    ----------
    experiment : engine.evaluation.experiment.Experiment
    datasets : Dataset or sequence of Dataset, optional
        The loaded data; decides which data sets have groups (without them: the data set
        blocks that name a ``"groups"`` column).

    Returns
    -------
    RunPlan
    """
    if datasets is None:
        blocks = list(experiment.dataset_blocks) or [experiment.dataset]
        datasets = [_Block(block or {}) for block in blocks]
    return plan_models(experiment.models, experiment.cv, datasets,
                       calibration=experiment.calibration,
                       aloocv=experiment.aloocv, curves=experiment.curves,
                       heldout=bool(experiment.test))


class _Block:
    """A data set block of an experiment file, as far as the plan needs it."""

    def __init__(self, block: dict):
        self.name = block.get("name", "")
        self.groups = True if "groups" in block else None


def plan_models(models, cv, datasets, *, calibration=None, aloocv=None,
                curves=None, heldout: bool = False) -> RunPlan:
    """The plan of running ``models`` (ModelSpecs, grids expanded) with ``cv`` (a CVConfig)
    on ``datasets`` (one or a sequence; a data set with ``groups`` runs twice under
    ``compare_ungrouped``), with the extras' settings (None: not run); ``heldout``: a
    held-out test file follows (each model fitted once more on all training rows)."""
    datasets = list(datasets) if isinstance(datasets, (list, tuple)) else [datasets]
    models = list(models)
    return RunPlan(tuple(dataset_plan(models, cv, calibration=calibration, aloocv=aloocv,
                                      name=d.name or "", grouped=d.groups is not None,
                                      curves=curves,
                                      heldout=heldout)
                         for d in datasets), len(models))


def learning_fits(curves, n_models: int, folds: int) -> int:
    """The learning curves' fits: ``len(curves.learning) x folds x n_models`` (0 without
    a ``curves`` block or fractions)."""
    fractions = len(curves.learning) if curves is not None else 0
    return fractions * folds * n_models


def dataset_plan(models, cv, *, calibration=None, aloocv=None, name: str = "",
                 grouped: bool = False, curves=None, heldout: bool = False) -> DatasetPlan:
    """One data set's plan; ``grouped``: the data set has groups; ``curves``: the
    experiment's curves block (its learning-curve fits); ``heldout``: a held-out test
    follows (one final fit per model)."""
    folds = _whole(cv.n_splits) * _whole(cv.n_repeats)
    fits = (len(models) + sum(len(grid_members(spec)) for spec in models)) * folds
    inner = sum(fits_per_fold(spec) for spec in models) * folds - fits
    twice = bool(cv.compare_ungrouped and grouped)
    methods = len(dict.fromkeys(calibration.methods)) if calibration is not None else 0
    alo_steps, alo_fits = _aloocv(aloocv, models)
    return DatasetPlan(name, fits, inner, fits if twice else 0, len(models) * methods * folds,
                       (fits + inner) * methods * INNER_SPLITS, alo_steps, alo_fits,
                       learning_fits=learning_fits(curves, len(models), folds),
                       final_fits=len(models) if heldout else 0,
                       nested_fits=nested_fit_count(cv, len(models)))


def _aloocv(settings, models) -> tuple:
    """``(steps, fits)`` of ALOOCV: a point per C (two with exact LOO) per eligible model,
    and one more step per model."""
    if settings is None:
        return 0, 0
    eligible = sum(1 for spec in models if ineligibility_note(spec) is None)
    points = eligible * settings.n_C * (2 if settings.exact_loo else 1)
    return points + eligible, points


def _whole(value) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return 1
    return number if number >= 1 and not math.isnan(number) else 1


def stored_fits(store, experiment, datasets, *, data_keys=None) -> list:
    """For each data set, how many of its cross-validation fits ``store`` holds (the
    keys :func:`engine.evaluation.cv.run_cv` would look up; nothing is loaded or recorded).

    Parameters
    ----------
    store : engine.runs.store.ResultStore
    experiment : Experiment
        With its metrics filled in (as the run fills them).
    datasets : sequence of Dataset
    data_keys : sequence of str, optional
        The data sets' :func:`engine.runs.fingerprint.data_fingerprint`, when already known.
    """
    counts = []
    for index, dataset in enumerate(datasets):
        own = experiment.for_dataset(index) if experiment.datasets else experiment
        own = own.with_metrics_for(len(dataset.classes), dataset)
        metrics = list(own.metrics)
        models = [with_scoring(spec, metrics[0]) for spec in own.models]
        specs = [*models, *(member for spec in models for _, member in grid_members(spec))]
        splits = make_splits(dataset.y, own.cv, dataset.groups)
        tasks = [(m, s) for s in range(len(splits)) for m in range(len(specs))]
        key = data_keys[index] if data_keys is not None else store.data_key(dataset)
        counts.append(store.count_stored(fit_keys(dataset, specs, own.cv, metrics, splits,
                                                  tasks, data_key=key)))
    return counts


class Phases:
    """Turns the progress records of a run's phases (the cross-validation's, then each
    extra's, each counting from 1 to its own total) into records over the run's planned
    ``total`` steps, timed from the start of the run."""

    def __init__(self, total: int):
        self.clock, self.total = Stopwatch(total), total
        self.offset, self.previous = 0, None

    def relay(self, job):
        """Yield ``job``'s records as records of the whole run; return its result. Closing
        this generator closes ``job`` (:func:`engine.foundation.progress.relay`)."""
        return relay(job, self.overall)

    def overall(self, record):
        """The phase's ``record`` as one of the run. When the phase estimates its time
        left (``record.left``), the run's is that plus the later phases' steps at the
        run's mean seconds per step so far; else none (the ratio of the whole)."""
        previous = self.previous
        if previous is not None and previous.done >= previous.total:
            self.offset += previous.total          # a phase ended: the next one begins
        self.previous = record
        done = min(self.offset + record.done, self.total)
        step = self.clock.progress(done, record.label, record.detail)
        if record.left is None or done <= 0:
            return step
        later = max(0, self.total - self.offset - record.total)
        return replace(step, left=record.left + later * step.elapsed / done)
