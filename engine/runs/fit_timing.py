"""How long a run's fits take here and now: a few real fits, timed as the run makes them.

:func:`time_fits` fits each distinct estimator of an experiment on growing samples of the
first training fold and keeps, for each size, the median of up to :data:`REPEATS` timed
fits (a single fit on a busy machine can take twice its usual time, or half); it fits under
the run's own cap on BLAS and OpenMP threads (the run leaves a core to the window,
:func:`engine.runs.runner.run_in_process`): uncapped, a histogram gradient boosting fit on
180 rows took 0.4 to 11 s on two busy cores, capped 0.05 to 0.15 s. :func:`seconds_for`
turns those times into the run's duration for any folds and repeats, without fitting
again, so :mod:`engine.runs.run_size` can size a run from one timing.
"""
from __future__ import annotations

import functools
import math
import os
import statistics
import time
from dataclasses import dataclass, replace
from typing import Optional

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from engine.evaluation.calibration import calibrate_fold
from engine.evaluation.catalogue import make_pipeline, parameter_specs
from engine.evaluation.cv import feature_matrix, fit_and_score, make_splits
from engine.evaluation.stats import compare_models
from engine.evaluation.tuning import fits_per_fold
from engine.foundation.machine import whole_number, workers_for
from engine.foundation.param_caps import TREE_ITERATIONS

PAIR_SECONDS = 0.75e-3
INNER_SPLITS = 5
TIMING_TREES = 10
#: The second tree count a forest is timed with: far enough from the first that the
#: difference is the trees' and not a busy machine's noise.
TIMING_TREES_MORE = 40
TIMING_START_ROWS = 256
#: Timed fits per sample size at most; their median is kept.
REPEATS = 3


@dataclass(frozen=True)
class FitTime:
    """One estimator's fit on a whole training fold, in seconds.

    Attributes
    ----------
    fixed, per_tree : float
        A fit takes ``fixed + per_tree * trees`` (trees: 1 for a model without a count).
    calibration : float
        What a calibrated fold takes besides its 4 fold-fits.
    """

    fixed: float
    per_tree: float
    calibration: float = 0.0

    def seconds(self, spec) -> float:
        """One fit of ``spec`` on a whole training fold."""
        return self.fixed + self.per_tree * work(spec)


def run_threads() -> int:
    """The BLAS / OpenMP threads a run's process may use (a core left to the window)."""
    return max(1, (os.cpu_count() or 2) - 1)


def calibration_methods(experiment) -> list:
    """The experiment's calibration methods, each once ([] without calibration)."""
    settings = experiment.calibration
    return list(dict.fromkeys(settings.methods)) if settings is not None else []


def time_fits(experiment, dataset, budget: float) -> dict:
    """Time each distinct (estimator, scaling, resampling) of ``experiment`` on
    ``dataset``: ``{key: FitTime}``; takes about ``budget`` seconds in all."""
    experiment = experiment.with_metrics_for(len(dataset.classes), dataset)
    return time_models(experiment.models, experiment.cv, list(experiment.metrics), dataset,
                       budget, methods=calibration_methods(experiment))


def time_models(models, cv, metrics: list, dataset, budget: float, *, methods=()) -> dict:
    """:func:`time_fits` of ``models`` on the first training fold of ``cv`` (a run's, or
    a job's on a run's result), scored with ``metrics``, calibrated with ``methods``."""
    train, test = make_splits(dataset.y, replace(cv, n_repeats=1), dataset.groups)[0]
    X = feature_matrix(dataset)
    groups: dict = {}
    for spec in models:
        groups.setdefault(group_key(spec), spec)
    share = budget / max(1, len(groups))
    with threadpool_limits(run_threads()):
        return {key: _time_group(spec, dataset, X, (train, test), list(metrics), share,
                                 list(methods)) for key, spec in groups.items()}


def group_key(spec) -> tuple:
    """Models timed once for all: the same estimator, scaling and resampling."""
    return spec.estimator, spec.scale, spec.resample


def seconds_for(experiment, dataset, timed: dict, *, n_jobs: int = 1, cv=None) -> float:
    """The run's seconds from ``timed`` (:func:`time_fits`), under ``cv`` (default: the
    experiment's): its cross-validation, calibration, learning-curve, ALOOCV fits and
    the comparisons."""
    cv = cv or experiment.cv
    folds = cv.n_splits * cv.n_repeats
    methods = calibration_methods(experiment)
    curves = experiment.curves
    learning = sum(curves.learning) if curves is not None else 0.0
    parallel, alo = 0.0, 0.0
    for spec in experiment.models:
        fit = timed[group_key(spec)]
        seconds = fit.seconds(spec) * fits_per_fold(spec)     # tuning: inner fits too
        calibrated = calibrated_fold_seconds(spec, fit, len(methods))
        parallel += folds * (seconds + calibrated + learning * fit.seconds(spec))
        if experiment.aloocv is not None and spec.estimator == "LogisticRegression":
            alo += seconds * experiment.aloocv.n_C
    n_models = len(experiment.models)
    n_pairs = n_models * (n_models - 1) // 2
    return parallel / workers_for(n_jobs) + alo + n_pairs * pair_seconds(folds)


def calibrated_fold_seconds(spec, fit: FitTime, n_methods: int) -> float:
    """One outer fold of ``spec`` calibrated with ``n_methods`` methods: per method 4
    fold-fits (5 inner fits on 4/5 of the fold) and the calibration's own cost."""
    return n_methods * (fit.calibration + 4 * fit.seconds(spec) * fits_per_fold(spec))


def job_seconds(models, timed: dict, n_folds: int, n_methods: int, *, n_jobs: int = 1) -> float:
    """A calibration job on a run's result (:mod:`engine.runs.result_jobs`) in seconds,
    from ``timed`` (:func:`time_models`): every model's ``n_folds`` outer folds calibrated
    with ``n_methods`` methods, over ``n_jobs`` workers (as a run's calibration is
    counted in :func:`seconds_for`)."""
    total = sum(n_folds * calibrated_fold_seconds(spec, timed[group_key(spec)], n_methods)
                for spec in models)
    return total / workers_for(n_jobs)


def work(spec) -> float:
    """How many trees a model grows (1 for models without a tree count)."""
    pname = TREE_ITERATIONS.get(spec.estimator, "n_estimators")
    value = whole_number(spec.params.get(pname))
    if value is None:
        value = _default(spec.estimator, pname)
    return max(1.0, value) if value is not None else 1.0


def _default(estimator: str, pname: str) -> Optional[float]:
    for param in parameter_specs(estimator):
        if param.name == pname:
            return whole_number(param.default)
    return None


def _time_group(spec, dataset, X, split, metrics, share, methods) -> FitTime:
    """Time ``spec`` on growing samples of the training rows (256, then doubling) until
    ``share`` is spent or the whole fold was fitted; extrapolate to the whole fold (growth
    exponent from the last two sizes, between 1 and 2). A model with many trees is timed
    with 10 and 40 of them on the largest sample, which splits its time into a fixed part
    and one per tree; when the 40 trees took no longer than the 10 (a busy machine), the
    whole time counts per tree: an estimate errs long rather than calling a forest of
    100,000 trees quick."""
    timed = spec
    pname = TREE_ITERATIONS.get(spec.estimator, "n_estimators")
    trees = work(spec) > 2 * TIMING_TREES
    if trees:
        timed = replace(spec, params={**spec.params, pname: TIMING_TREES})
    estimator = make_pipeline(timed, dataset=dataset, inside_folds=False)
    train, test = split
    order = np.random.default_rng(0).permutation(train)
    fit = _fitter(estimator, X, dataset, test, metrics)
    points, start, n = [], time.perf_counter(), min(len(order), TIMING_START_ROWS)
    while True:
        points.append((n, median_time(fit, np.sort(order[:n]), start, share)))
        following = min(2 * n, len(order))
        spent = time.perf_counter() - start
        if n >= len(order) or spent + points[-1][1] * (following / n) ** 1.5 > share:
            break
        n = following
    full = _extrapolate(points, len(order))
    overhead = 0.0
    if methods:
        small, seconds = points[0]
        overhead = max(0.0, _time_calibration(estimator, X, dataset.y, np.sort(order[:small]),
                                              test, methods[0]) - 4 * seconds)
    if not trees:
        return FitTime(0.0, full / work(timed), overhead)
    more = make_pipeline(replace(spec, params={**spec.params, pname: TIMING_TREES_MORE}),
                         dataset=dataset, inside_folds=False)
    n, ten = points[-1]
    longer = median_time(_fitter(more, X, dataset, test, metrics), np.sort(order[:n]),
                         time.perf_counter(), share)
    per_tree = (longer - ten) / (TIMING_TREES_MORE - TIMING_TREES)
    fixed = min(max(ten - TIMING_TREES * per_tree, 0.0), ten) if per_tree > 0 else 0.0
    scale = full / ten
    return FitTime(fixed * scale, (ten - fixed) / TIMING_TREES * scale, overhead)


def median_time(fit, rows, start: float, share: float) -> float:
    """The median of up to :data:`REPEATS` timed fits on ``rows`` (fewer when ``share``
    seconds since ``start`` would be spent)."""
    times = [fit(rows)]
    while len(times) < REPEATS and time.perf_counter() - start + times[-1] <= share:
        times.append(fit(rows))
    return statistics.median(times)


def _fitter(estimator, X, dataset, test, metrics):
    """A function timing one cross-validation fit (as the run makes it) on given rows."""
    labels = list(range(len(dataset.classes)))
    pos_label = dataset.pos_label

    def fit(rows) -> float:
        began = time.perf_counter()
        fit_and_score(estimator, X, dataset.y, rows, test, metrics, labels, pos_label)
        return max(time.perf_counter() - began, 1e-6)
    return fit


def _time_calibration(estimator, X, y, train, test, method) -> float:
    began = time.perf_counter()
    calibrate_fold(estimator, X, y, train, test, method, INNER_SPLITS, 0)
    return time.perf_counter() - began


def _extrapolate(points: list, n_full: int) -> float:
    n, seconds = points[-1]
    if n >= n_full:
        return seconds
    slope = 1.25
    if len(points) > 1:
        (n0, t0), (n1, t1) = points[-2], points[-1]
        slope = min(2.0, max(1.0, math.log(t1 / t0) / math.log(n1 / n0)))
    return seconds * (n_full / n) ** slope


@functools.lru_cache(maxsize=64)
def pair_seconds(n_folds: int) -> float:
    """Seconds to compare one pair of models (measured on 8 random models, once for each
    number of folds: sizing a run asks for it once per design it tries)."""
    scores = pd.DataFrame(np.random.default_rng(0).random((8, max(2, n_folds))),
                          index=[f"m{i}" for i in range(8)])
    began = time.perf_counter()
    try:
        compare_models(scores, 90.0, 10.0)
    except Exception:  # noqa: BLE001 - an estimate never fails a run
        return PAIR_SECONDS
    return (time.perf_counter() - began) / 28
