"""Resource guards: refuse runs that cannot finish, ask before runs that take very long.

Before anything is computed, :func:`check_run` counts a run's fits and estimates its
memory from the loaded data; :func:`estimate_seconds` times a few fits on the real data
to say how long it would take.  The headless runner (:mod:`engine.cli`) refuses with one
line, or asks for ``--yes``; the GUI calls the same two functions::

    assessment = check_run(experiment, dataset, n_jobs)        # fast, no fitting
    if assessment.refuse: show it and stop
    if assessment.ask:                                           # on a worker thread:
        seconds = estimate_seconds(experiment, dataset, n_jobs)  # at most a few seconds
        if the user says yes to question(assessment, seconds): run

The run budget sits above the cross-validation (it counts the run's fits with
:mod:`engine.runs.run_plan` and times real fits with :mod:`engine.evaluation.cv`).  What is refused
earlier lives below the readers and the models: the machine (:mod:`engine.foundation.machine`),
files and generated data sets (:mod:`engine.input.file_checks`), long texts
(:mod:`engine.input.text_lengths`) and absurd size parameters (:mod:`engine.foundation.param_caps`,
whose :func:`~engine.foundation.param_caps.check_models` :func:`check_run` calls again).

Limits, and why
---------------
* :data:`ASK_FITS` = 20,000 fits.  The seed example makes 400, ten models under 10 x 10
  cross-validation 1,000, and the same with both calibration methods 11,000.  Twenty
  thousand is well beyond a careful comparison; at a typical 10 to 100 ms per fit it is
  3 to 30 minutes on one core, at a second per fit (a forest on a few thousand rows)
  5.5 hours, so it deserves a question.
* :data:`ASK_PAIRS` = 500,000 pairs of models (1,000 models): every pair gets a t-test
  and a Bayesian posterior, measured at 0.75 ms and 1.5 KB a pair: 6 minutes and
  0.75 GB, and a pairwise table no one can read.
* :data:`engine.evaluation.catalogue.MAX_MODELS` = 20,000 models after grid expansion: 200 million pairs, about 40
  hours and 300 GB at the rates above; refused before the grid is even expanded.
* Memory: the data counts ``rows x columns x 8`` bytes (one-hot columns counted), held
  twice (the table and the matrix the folds are cut from) plus once per worker (the
  training fold each fit copies), plus :data:`WORKER_BYTES` per worker process; the
  kept out-of-fold predictions ``rows x repeats x models x (classes + 6) x 8`` bytes
  times 2 (each fit's arrays until the run ends, the table they are copied into);
  calibration as many per method plus one; comparisons :data:`BYTES_PER_PAIR` a pair.
  Measured peak memory above the idle runner (about 200 MB): 600 MB for 1,000,000
  rows x 20 features x 2 models x 2 repeats (estimate 990 MB; the estimate keeps room
  for tables that are not plain decimals, which are held twice;
  ``tests/benchmarks/bench_memory.py``).  A run whose total exceeds the available
  memory (:func:`available_memory`) is refused.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Optional

from engine.foundation.machine import (BYTES_PER_VALUE, available_memory, count_text, format_bytes,
                                       format_seconds, whole_number, workers_for)
from engine.foundation.param_caps import check_models
from engine.runs import fit_timing
from engine.runs.model_memory import fit_bytes
from engine.runs.run_plan import RunPlan, plan_run

ASK_FITS = 20_000
ASK_PAIRS = 500_000
WORKER_BYTES = 150_000_000
BYTES_PER_PAIR = 1_500
PREDICTION_COPIES = 2
TIMING_BUDGET = 3.0


@dataclass(frozen=True)
class Assessment:
    """What a run would take, and whether to refuse it or ask first.

    Attributes
    ----------
    n_models, n_fits, n_cv_fits, n_calibration_fits, n_aloocv_fits, n_pairs : int
        Models after grid expansion; fits in all (cross-validation, calibration with its
        inner folds, ALOOCV's one fit per C), and pairs of models compared.
    data_bytes, predictions_bytes, needed_bytes : int
        The data as a matrix of floats, the kept out-of-fold predictions (with
        overhead), and the whole run's estimate.
    available_bytes : int or None
        Memory available now (None when unknown: nothing is refused for memory).
    n_jobs : int
        Worker processes the estimate assumes.
    n_datasets : int
        Data sets the run fits the models on (fits and memory count them all).
    plan : engine.runs.run_plan.RunPlan
        The run's fits and progress steps, per data set (the one count the app shows).
    refuse : str or None
        Why the run cannot finish and what to change (one line), or None.
    ask : str or None
        Why to ask before starting (one line, without the time), or None.
    """

    n_models: int
    n_fits: int
    n_cv_fits: int
    n_calibration_fits: int
    n_aloocv_fits: int
    n_pairs: int
    data_bytes: int
    predictions_bytes: int
    needed_bytes: int
    available_bytes: Optional[int]
    n_jobs: int
    refuse: Optional[str] = None
    ask: Optional[str] = None
    n_datasets: int = 1
    plan: Optional[RunPlan] = None


# ----------------------------------------------------------------------------- a run

def check_run(experiment, dataset, *, n_jobs: int = 1,
              available: Optional[int] = None) -> Assessment:
    """Count a run's fits and estimate its memory; say whether to refuse or to ask.

    Parameters
    ----------
    experiment : engine.evaluation.experiment.Experiment
    dataset : engine.input.data.Dataset or sequence of them
        The loaded data; for an experiment with several data sets, all of them
        (:func:`engine.runs.benchmark.load_datasets`): the fits of all are counted, and the
        memory is what all their kept results take plus the largest one's working copies.
    n_jobs : int
        Worker processes (-1: every core).
    available : int, optional
        Bytes of memory available (measured with :func:`available_memory` if not given).

    Returns
    -------
    Assessment
        ``refuse`` when the run cannot fit in memory or a model's parameters are absurd;
        otherwise ``ask`` above :data:`ASK_FITS` fits or :data:`ASK_PAIRS` pairs.
    """
    datasets = list(dataset) if isinstance(dataset, (list, tuple)) else [dataset]
    models, cv = list(experiment.models), experiment.cv
    workers = workers_for(n_jobs)
    twice = [_runs_twice(experiment, d) for d in datasets]
    plan = plan_run(experiment, datasets=datasets)
    counts = list(plan.budget)
    n_pairs = len(models) * (len(models) - 1) // 2
    each = [_memory_parts(experiment, models, d, counts[1]) for d in datasets]
    data = sum(part["data"] for part in each)
    predictions = sum(part["predictions"] for part in each)
    parts = {"data": data + max(part["data"] for part in each) * (1 + workers)
             + (WORKER_BYTES * workers if workers > 1 else 0),
             "predictions": predictions,
             "calibration": sum(part["calibration"] for part in each),
             "comparisons": len(datasets) * (n_pairs * BYTES_PER_PAIR
                                             + 2 * len(models) ** 2 * BYTES_PER_VALUE),
             "networks": max(fit_bytes(models, int(d.n_rows), _encoded_width(d),
                                       len(d.classes)) for d in datasets) * workers}
    needed = int(sum(parts.values()))
    available = available_memory() if available is None else available
    assessment = Assessment(
        n_models=len(models), n_fits=sum(counts), n_cv_fits=counts[0],
        n_calibration_fits=counts[1], n_aloocv_fits=counts[2], n_pairs=n_pairs,
        data_bytes=int(data), predictions_bytes=int(predictions), needed_bytes=needed,
        available_bytes=available, n_jobs=workers, n_datasets=len(datasets), plan=plan)
    smallest = min(int(d.n_rows) for d in datasets)
    refuse = check_models(models, min_train_rows=_min_train_rows(smallest, cv))
    if refuse is None and available is not None and needed > available:
        refuse = _memory_refusal(parts, needed, available)
    if refuse:
        return replace(assessment, refuse=refuse)
    return replace(assessment, ask=_ask(assessment, cv, sum(twice)))


def _runs_twice(experiment, dataset) -> bool:
    """The models run a second time on ``dataset``, without its groups (``compare_ungrouped``
    with a groups column; without one nothing runs twice)."""
    return bool(experiment.cv.compare_ungrouped and dataset.groups is not None)


def _memory_parts(experiment, models, dataset, calibration_fits: int) -> dict:
    """One data set's bytes: the data as a matrix, its kept out-of-fold predictions and
    calibrated predictions."""
    n_rows, n_classes = int(dataset.n_rows), len(dataset.classes)
    per_row = (n_classes + 6) * BYTES_PER_VALUE * PREDICTION_COPIES
    predictions = n_rows * _whole_or(experiment.cv.n_repeats, 1) * len(models) * per_row
    return {"data": n_rows * _encoded_width(dataset) * BYTES_PER_VALUE,
            "predictions": predictions,
            "calibration": (predictions * (len(_methods(experiment)) + 1)
                            if calibration_fits else 0)}


def _whole_or(value, default) -> int:
    number = whole_number(value)
    return int(number) if number is not None and number >= 1 else default


def _methods(experiment) -> list:
    return fit_timing.calibration_methods(experiment)


def _encoded_width(dataset) -> int:
    """Columns after one-hot encoding (a categorical column gives one per level)."""
    width = len(dataset.numeric_columns)
    for column in dataset.categorical_columns:
        width += max(1, int(dataset.X[column].nunique(dropna=True)))
    return max(1, width)


def _min_train_rows(n_rows: int, cv) -> Optional[int]:
    splits = whole_number(cv.n_splits)
    if splits is None or splits < 2:
        return None
    return n_rows - math.ceil(n_rows / splits)


_ADVICE = {"data": "use a sample of the rows, fewer columns or fewer --jobs",
           "predictions": "use fewer repeats or fewer models",
           "calibration": "use fewer calibration methods, repeats or models",
           "comparisons": "compare fewer models (every pair is compared)",
           "networks": "use smaller hidden layers (hidden_layer_sizes) or fewer --jobs"}
_NAMES = {"data": "the data and its copies", "predictions": "out-of-fold predictions",
          "calibration": "calibrated predictions", "comparisons": "pairwise comparisons",
          "networks": "a neural network's fit"}


def _memory_refusal(parts: dict, needed: int, available: int) -> str:
    biggest = max(parts, key=parts.__getitem__)
    listed = ", ".join(f"{_NAMES[k]} {format_bytes(v)}" for k, v in parts.items()
                       if v >= needed / 100)
    return (f"this run needs about {format_bytes(needed)} of memory ({listed}) but "
            f"{format_bytes(available)} is available: {_ADVICE[biggest]}")


def _ask(assessment: Assessment, cv, grouped: int = 0) -> Optional[str]:
    """The question to ask before a large run; ``grouped``: the data sets whose models run
    twice (with and without groups)."""
    if assessment.n_fits > ASK_FITS:
        how = (f"{count_text(assessment.n_models)} models x {cv.n_splits} folds x "
               f"{cv.n_repeats} repeats")
        if assessment.n_datasets > 1:
            how = f"{assessment.n_datasets} data sets x {how}"
        plain = assessment.n_models * (assessment.n_datasets + grouped) * cv.n_splits \
            * cv.n_repeats
        if grouped:
            how += ", twice (with and without groups)"
        nested = assessment.plan.nested_fits if assessment.plan is not None else 0
        if nested:
            how += f", plus {count_text(nested)} nested-CV fits"
            plain += nested
        if assessment.n_cv_fits > plain:
            how += ", with the searches inside each fold (tune, threshold)"
        extra = [f"{count_text(n)} {what} fits" for n, what in
                 ((assessment.n_calibration_fits, "calibration"),
                  (assessment.n_aloocv_fits, "ALOOCV")) if n]
        if extra:
            how = f"{count_text(assessment.n_cv_fits)} from {how}, plus " + " and ".join(extra)
        return (f"this run makes {count_text(assessment.n_fits)} fits ({how}), more than the "
                f"{count_text(ASK_FITS)} that start without asking")
    if assessment.n_pairs > ASK_PAIRS:
        return (f"this run compares {count_text(assessment.n_pairs)} pairs of models "
                f"({count_text(assessment.n_models)} models), more than the {count_text(ASK_PAIRS)} "
                "that start without asking")
    return None


def question(assessment: Assessment, *, seconds: Optional[float] = None) -> str:
    """The ask of ``assessment`` with the estimated time, as one sentence (no advice)."""
    text = assessment.ask or "this run is large"
    if seconds is None:
        return text
    workers = f"{assessment.n_jobs} workers" if assessment.n_jobs > 1 else "one worker"
    return f"{text}; it would take {format_seconds(seconds, about=True)} with {workers}"


# ----------------------------------------------------------------------------- time

def estimate_seconds(experiment, dataset, n_jobs: int = 1,
                     budget: float = TIMING_BUDGET) -> float:
    """Estimate a run's duration by timing a few fits on the real data, here and now.

    Each distinct estimator is fitted on growing random samples of the first training
    fold (256 rows, then doubling) until its share of ``budget`` is spent or the whole
    fold was fitted, each size's time the median of up to 3 fits, under the run's cap on
    threads (:mod:`engine.runs.fit_timing`); the time is extrapolated to the full fold
    (growth exponent from the last two sizes, between 1 and 2).  Forests and boosting are
    timed with 10 and 40 trees (a fixed part and one per tree) and scaled to each model's
    count.  A calibrated fold counts 4 fold-fits (5 inner fits on 4/5 of it) plus the
    calibration's own cost, timed once per estimator on 256 rows; a learning curve one fit
    per fraction and fold, at that fraction of the fold's time; ALOOCV one full fit per C;
    comparisons a time per pair measured on 8 models.  Measured against real runs (breast
    cancer, digits, make_classification; forests, SVC, boosting, calibrated logistic
    regression and naive Bayes): within a factor of 0.7 to 1.9.  Meant for a worker
    thread; takes about ``budget`` seconds (a single very slow small fit can take longer).

    Parameters
    ----------
    experiment : engine.evaluation.experiment.Experiment
    dataset : engine.input.data.Dataset or sequence of them
        With several data sets, each is timed on its share of ``budget`` and the
        estimates are added.
    n_jobs : int
        Worker processes of the run (-1: every core).
    budget : float
        Seconds to spend timing, in all.

    Returns
    -------
    float
        Estimated seconds of wall-clock time.
    """
    if isinstance(dataset, (list, tuple)):
        return sum(estimate_seconds(experiment, one, n_jobs, budget / len(dataset))
                   for one in dataset)
    timed = fit_timing.time_fits(experiment, dataset, budget)
    return fit_timing.seconds_for(experiment, dataset, timed, n_jobs=n_jobs)
