"""Repeated stratified k-fold cross-validation of several models on the same splits.

:func:`run_cv` is a generator: it yields a :class:`~engine.foundation.progress.Progress` record
after every (model, fold) fit and returns a :class:`CVResult`. Closing the generator
stops the run between folds. With ``n_jobs > 1`` the fits run in joblib worker
processes; the numbers are identical for any ``n_jobs``.
"""
from __future__ import annotations

import copy
import itertools
import time
import warnings
from dataclasses import dataclass, field, replace
from typing import Generator, Optional

import numpy as np
import pandas as pd

from engine.evaluation.auto_repeats import AutoStop, assess, auto_json, in_rounds
from engine.evaluation.catalogue import make_pipeline
from engine.evaluation.costs import check_cost_metric
from engine.input.data import Dataset
from engine.foundation.errors import EngineError
from engine.input.groups import (check_grouped_folds, fewest_inner_groups,
                                 grouped_fold_notes, small_classes)
from engine.foundation.lazy import sklearn
from engine.foundation.notes import Note
from engine.evaluation.metrics import FoldScorer, check_metrics
from engine.evaluation.parallel import Feed, Timed, run_calls, take_rows, workers
from engine.evaluation.per_class import confusion_counts, fold_pairs
from engine.evaluation.splitters import cross_validator, grouped_splits
from engine.foundation.progress import Progress, Stopwatch
from engine.foundation.time_left import TimeLeft
from engine.evaluation.tuning import (INNER_SPLITS, fit_details, fit_model, grid_members,
                                      optimism_table, thresholds_table, tuning_table, uses_groups,
                                      with_scoring)

#: Columns of ``CVResult.scores`` (``fold_scores.csv``).
SCORE_COLUMNS = ["model", "repeat", "fold", "metric", "score", "n_train", "n_test", "fit_seconds"]
#: Columns of ``CVResult.failures`` (``failures.csv``).
FAILURE_COLUMNS = ["model", "repeat", "fold", "kind", "message"]
#: The first columns of ``CVResult.predictions``; :func:`prediction_columns` gives them all.
PREDICTION_KEYS = ["model", "repeat", "fold", "row", "y"]


def value_columns(n_classes: int) -> list:
    """The columns of the predicted values in ``CVResult.predictions``: ``score_0 ..
    score_{K-1}`` (probabilities or decision values, see ``CVResult.prediction_kind``)."""
    return [f"score_{k}" for k in range(n_classes)]


def prediction_columns(n_classes: int) -> list:
    """Every column of ``CVResult.predictions`` for ``n_classes`` classes."""
    return [*PREDICTION_KEYS, *value_columns(n_classes), "predicted"]


@dataclass(frozen=True)
class FoldScores:
    """One finished fit, as a run reports it (the ``detail`` of its :class:`Progress`).

    Attributes
    ----------
    model : str
    repeat, fold : int
        Numbered from 1, as in the tables.
    scores : dict
        ``{metric: score}`` (NaN where the metric could not be computed).
    error : str or None
        Why the fit failed (its scores are then NaN).
    """

    model: str
    repeat: int
    fold: int
    scores: dict
    error: Optional[str] = None


@dataclass(frozen=True)
class FoldFit:
    """What :func:`fit_and_score` measured on one fold (sent back from a worker).

    Attributes
    ----------
    scores : tuple of float
        One per metric, in the order asked (NaN where it could not be computed).
    fit_seconds : float
        NaN when the fit failed.
    kind : str or None
        ``"proba"``, ``"decision"`` or ``"labels"``: what ``values`` holds.
    values : ndarray or None
        The ``(n_test, K)`` predicted values kept for the predictions table.
    labels : ndarray or None
        The predicted class codes of the test rows.
    error : str or None
        The fit's failure (no score), ``"Type: message"``.
    errors : tuple of str
        ``error`` and, per metric, why it could not be computed.
    warnings : tuple of str
        Every distinct warning, whole (:func:`warning_texts`).
    details : dict
        JSON-able values the fitted model chose on its training part
        (:func:`engine.evaluation.tuning.fit_details`: a grid search's ``best_params`` and
        ``best_score``, a tuned threshold's ``best_threshold`` and ``threshold_score``);
        empty for a plain model.
    """

    scores: tuple
    fit_seconds: float = np.nan
    kind: Optional[str] = None
    values: Optional[np.ndarray] = None
    labels: Optional[np.ndarray] = None
    error: Optional[str] = None
    errors: tuple = ()
    warnings: tuple = ()
    details: dict = field(default_factory=dict)


#: The fold assignments ``CVConfig.scheme`` names: scikit-learn's
#: ``RepeatedStratifiedKFold`` and Weka 3's (:mod:`engine.evaluation.weka_folds`).
SCHEMES = ("sklearn", "weka")
#: Each model's interval (``CVConfig.interval``).
INTERVALS = ("corrected_t", "nested")


@dataclass(frozen=True)
class CVConfig:
    """Repeated stratified k-fold: ``n_splits`` folds, ``n_repeats`` times, seeded.

    ``scheme`` says whose folds: ``"sklearn"`` (scikit-learn's ``RepeatedStratifiedKFold``)
    or ``"weka"`` (Weka 3's, repeat *i* seeded ``random_state + i``; needs a seed).
    ``compare_ungrouped``: with a data set's ``"groups"``, also run the models on ordinary
    stratified folds to show what grouping changes (:mod:`engine.runs.grouping_gap`); it does
    not change the folds of the run.
    ``interval``: each model's interval, the corrected t of ``summary.csv``
    (``"corrected_t"``) or also Bates et al.'s nested CV (``"nested"``,
    :mod:`engine.runs.nested_cv`, ``nested_repeats`` repeats of its own fits).
    ``auto_precision``: with a number (``"n_repeats": "auto"``), ``n_repeats`` is the most
    repeats and the run stops earlier once one more repeat would narrow every interval by
    less than this share of its width (:mod:`engine.evaluation.auto_repeats`).
    """

    n_splits: int = 10
    n_repeats: int = 10
    random_state: Optional[int] = 0
    scheme: str = "sklearn"
    compare_ungrouped: bool = False
    interval: str = "corrected_t"
    nested_repeats: int = 10
    auto_precision: Optional[float] = None

    def __post_init__(self):
        if self.auto_precision is not None and not 0 < self.auto_precision < 1:
            raise EngineError("cv_precision", {"precision": self.auto_precision})
        if self.scheme not in SCHEMES:
            raise EngineError("cv_scheme", {"scheme": self.scheme})
        if self.scheme == "weka" and self.random_state is None:
            raise EngineError("cv_weka_seed")
        if self.interval not in INTERVALS:
            raise EngineError("cv_interval", {"interval": self.interval})

    def to_json(self) -> dict:
        data = {"n_splits": self.n_splits, "n_repeats": self.n_repeats,
                "random_state": self.random_state, "scheme": self.scheme}
        if self.compare_ungrouped:                  # written only when asked for
            data["compare_ungrouped"] = True
        if self.interval != "corrected_t":          # written only when asked for
            data.update(interval=self.interval, nested_repeats=self.nested_repeats)
        if self.auto_precision is not None:
            data.update(auto_json(self.n_repeats, self.auto_precision))
        return data


@dataclass(frozen=True)
class CVResult:
    """Everything a cross-validation run measured.

    Repeats and folds are numbered from 1 in every table (``repeat`` 1 .. ``n_repeats``,
    ``fold`` 1 .. ``n_splits``): split ``(r, f)`` is number ``(r - 1) * n_splits + f - 1``
    of :func:`make_splits` (see :func:`split_label`, :func:`split_number`).

    Attributes
    ----------
    scores : DataFrame
        One row per model, repeat, fold and metric: ``model, repeat, fold, metric, score,
        n_train, n_test, fit_seconds`` (score NaN where the fit failed).
    predictions : DataFrame
        Out-of-fold predictions: ``model, repeat, fold, row, y`` (``row``: the 0-based
        position of the row in the data as loaded) then ``score_0 ..
        score_{K-1}`` (probabilities, or decision values; see ``prediction_kind``) and
        ``predicted`` (the class code ``predict`` gives; -1 where unknown).
    failures : DataFrame
        ``model, repeat, fold, kind, message``: kind ``"error"`` (no score) or
        ``"warning"`` (for example non-convergence; the score is kept).
    tuning : DataFrame
        Models with ``tune``: ``model, repeat, fold``, one column per tuned parameter (the
        value the inner search chose) and ``inner_score`` (its ``best_score_``).
    thresholds : DataFrame
        Models with ``threshold``: ``model, repeat, fold, threshold, inner_score,
        positive_class`` (the threshold is on the probability, or decision score, of the
        positive class, :func:`engine.evaluation.tuning.thresholds_table`).
    tuning_optimism : DataFrame
        Tuned models (with ``optimism``): ``model, metric, n_members, best_member,
        best_plain_score, nested_score, optimism`` (:func:`engine.evaluation.tuning.optimism_table`).
    auto_stop : AutoStop or None
        With ``"n_repeats": "auto"``: how many repeats ran and why they stopped; ``config``
        is then the fixed design of that many repeats.
    """

    scores: pd.DataFrame
    predictions: pd.DataFrame
    failures: pd.DataFrame
    models: tuple
    metrics: tuple
    classes: tuple
    config: CVConfig
    prediction_kind: dict = field(default_factory=dict)
    seconds: float = 0.0
    tuning: pd.DataFrame = field(default_factory=pd.DataFrame)
    thresholds: pd.DataFrame = field(default_factory=pd.DataFrame)
    tuning_optimism: pd.DataFrame = field(default_factory=pd.DataFrame)
    auto_stop: Optional[AutoStop] = None

    @property
    def primary_metric(self) -> str:
        return self.metrics[0]

    def score_matrix(self, metric: Optional[str] = None) -> pd.DataFrame:
        """Models as rows, folds (in split order) as columns, for one metric.

        The columns are ``(repeat, fold)`` pairs, numbered from 1. Computed once per
        metric (the result is frozen); every call returns its own copy.
        """
        metric = metric or self.primary_metric
        cache = self.__dict__.setdefault("_score_matrices", {})
        if metric not in cache:
            table = self.scores[self.scores["metric"] == metric]
            matrix = table.pivot(index="model", columns=["repeat", "fold"], values="score")
            cache[metric] = matrix.reindex(list(self.models))
        return cache[metric].copy()

    def confusion_by_fold(self) -> tuple:
        """``(folds, counts)``: the ``(repeat, fold)`` pairs in split order and the
        confusion counts ``counts[m, f, t, p]`` of model ``m`` (in ``models`` order) on
        fold ``f`` (see :func:`engine.evaluation.per_class.confusion_counts`). Computed once (the
        result is frozen; the app has it computed in the run's process); ``counts`` is
        None when the run kept no predicted labels."""
        if "_confusion_by_fold" not in self.__dict__:
            folds = sorted(set(fold_pairs(self.predictions)) | set(fold_pairs(self.scores)))
            counts = (confusion_counts(self.predictions, list(self.models), tuple(self.classes),
                                       folds=folds)
                      if "predicted" in self.predictions else None)
            self.__dict__["_confusion_by_fold"] = (folds, counts)
        return self.__dict__["_confusion_by_fold"]

    def train_test_sizes(self) -> tuple:
        """Mean training and test fold sizes (for the corrected variance)."""
        first = self.scores.drop_duplicates(["repeat", "fold"])
        return float(first["n_train"].mean()), float(first["n_test"].mean())


def split_label(split: int, n_splits: int) -> tuple:
    """The (repeat, fold) of split number ``split``, both numbered from 1.

    Parameters
    ----------
    split : int
        Position of the split in :func:`make_splits` (0-based).
    n_splits : int
        Folds per repeat.

    Returns
    -------
    tuple of int
        ``(repeat, fold)`` as the tables, the screen and the log show them (from 1,
        as Weka's Experimenter numbers runs and folds).
    """
    repeat, fold = divmod(int(split), n_splits)
    return repeat + 1, fold + 1


def split_number(repeat: int, fold: int, n_splits: int) -> int:
    """The position in :func:`make_splits` of (``repeat``, ``fold``), both numbered from 1.

    Parameters
    ----------
    repeat, fold : int
        As in the tables (from 1).
    n_splits : int
        Folds per repeat.

    Returns
    -------
    int
        ``(repeat - 1) * n_splits + (fold - 1)``; the inverse of :func:`split_label`.
    """
    return (int(repeat) - 1) * n_splits + (int(fold) - 1)


def make_splits(y: np.ndarray, config: CVConfig, groups: Optional[np.ndarray] = None) -> list:
    """The train/test index pairs of every repeat and fold, in split order: the splits
    of the run's cross-validator (:func:`run_cross_validator`), listed.

    Parameters
    ----------
    y : ndarray of int
        The class codes.
    config : CVConfig
        ``scheme "sklearn"``: scikit-learn's ``RepeatedStratifiedKFold``; ``"weka"``:
        Weka 3's folds (:class:`engine.evaluation.splitters.RepeatedWekaFold`), the
        training rows in the order Weka's classifier receives them.
    groups : ndarray of int, optional
        Rows that belong together (:attr:`engine.input.data.Dataset.groups`): repeat *i*
        (from 0) is then scikit-learn's ``StratifiedGroupKFold(n_splits, shuffle=True,
        random_state=random_state + i)``
        (:class:`engine.evaluation.splitters.RepeatedStratifiedGroupKFold`), so no group
        is ever in both the training part and the test fold.

    Returns
    -------
    list of (ndarray, ndarray)
        Split ``(r - 1) * n_splits + (f - 1)`` is repeat ``r``, fold ``f``; test rows
        in ascending order.

    Raises
    ------
    ValueError
        When the data cannot support the folds (:func:`check_folds`).
    """
    check_folds(y, config, groups)
    if groups is not None:
        return grouped_splits(y, groups, config.n_splits, config.n_repeats, config.random_state)
    splitter = run_cross_validator(config)
    return [(train, np.sort(test)) for train, test in splitter.split(np.zeros(len(y)), y)]


def run_cross_validator(config: CVConfig, *, grouped: bool = False):
    """The run's folds as a scikit-learn cross-validator, usable as ``cv=``
    (:func:`engine.evaluation.splitters.cross_validator`): :func:`make_splits` is its
    splits, test rows sorted.

    Parameters
    ----------
    config : CVConfig
    grouped : bool
        Whether the data set has groups (``split`` then needs them).

    Returns
    -------
    RepeatedStratifiedKFold, RepeatedWekaFold or RepeatedStratifiedGroupKFold
    """
    return cross_validator(config.scheme, config.n_splits, config.n_repeats,
                           config.random_state, grouped=grouped)


def check_folds(y: np.ndarray, config: CVConfig, groups: Optional[np.ndarray] = None,
                *, classes=None) -> None:
    """Clear errors for fold settings the data cannot support.

    scikit-learn's scheme needs at least ``n_splits`` rows in every class; Weka's only
    ``n_splits`` rows in all (its limit: a class smaller than that is missing from some
    test folds, see :func:`fold_notes`). With ``groups`` (rows that belong together):
    not Weka's scheme, at least ``n_splits`` groups and every class in two groups or more
    (:func:`engine.input.groups.check_grouped_folds`; ``classes``, the labels by code, name
    the class in its message).
    """
    if not isinstance(config.n_splits, (int, np.integer)) or config.n_splits < 2:
        raise EngineError("folds_count", {"n_splits": config.n_splits})
    if not isinstance(config.n_repeats, (int, np.integer)) or config.n_repeats < 1:
        raise EngineError("repeats_count", {"n_repeats": config.n_repeats})
    counts = np.bincount(y)
    counts = counts[counts > 0]
    if len(counts) < 2:
        raise EngineError("folds_one_class")
    if groups is not None:
        if config.scheme == "weka":
            raise EngineError("weka_groups")
        check_grouped_folds(y, groups, config.n_splits, classes=classes)
        return
    if config.scheme == "weka":
        if len(y) < config.n_splits:
            raise EngineError("folds_too_many_rows", {"n_rows": len(y),
                                                      "n_splits": int(config.n_splits)})
        return
    smallest = int(counts.min())
    if smallest < config.n_splits:
        raise EngineError("folds_too_many_class", {"smallest": smallest,
                                                   "n_splits": int(config.n_splits)})


def fold_notes(y: np.ndarray, classes, config: CVConfig,
               groups: Optional[np.ndarray] = None) -> list:
    """Notes about the folds: with Weka's scheme, the classes with fewer rows than folds;
    with ``groups``, the classes in fewer groups than folds.

    Parameters
    ----------
    y : ndarray of int
    classes : sequence
        The class labels, by code.
    config : CVConfig
    groups : ndarray of int, optional
        Rows that belong together.

    Returns
    -------
    list of Note
        ``grouped_small_classes`` with groups (:func:`engine.input.groups.grouped_fold_notes`);
        ``weka_small_classes`` when a class has fewer rows than ``n_splits`` (Weka's
        folds allow it; some test folds then hold none of that class).
    """
    if groups is not None:
        return grouped_fold_notes(y, groups, classes, config.n_splits)
    if config.scheme != "weka":
        return []
    fields = small_classes(np.bincount(y, minlength=len(classes)), classes, config.n_splits)
    return [] if fields is None else [Note("weka_small_classes", fields=fields)]


def run_cv(dataset: Dataset, models: list, config: CVConfig, metrics: list,
           *, n_jobs: int = 1, cluster=None, store=None,
           alpha: float = 0.05, costs=None,
           credible_levels=()) -> Generator[Progress, None, CVResult]:
    """Cross-validate ``models`` on ``dataset``: every model on the same splits.

    With ``dataset.groups`` the splits keep each group whole (:func:`make_splits`), and so
    do the inner folds of tuned and thresholded models (:func:`engine.evaluation.tuning.inner_cv`;
    their fits get the groups, :func:`inner_groups`).

    Parameters
    ----------
    dataset : Dataset
    models : list of ModelSpec
    config : CVConfig
    metrics : list of str
        scikit-learn scorer names; the first is the primary metric.
    n_jobs : int
        Worker processes (joblib); 1 runs in this process. -1 uses every core.
    cluster : engine.evaluation.cluster.Cluster, optional
        An open Dask cluster: the fits run on its workers (:func:`engine.evaluation.parallel.run_calls`).
    store : engine.runs.store.ResultStore, optional
        Fits found in it are not computed again; every fit computed is committed to it as
        it finishes (by this process, never by a worker).
    alpha : float
        The level of ``tuning_optimism``'s interval is ``1 − alpha`` (the comparison's α).
    costs : 2x2 nested sequence, optional
        ``[[c_tn, c_fp], [c_fn, c_tp]]``: what the expected-cost metric
        (:data:`engine.evaluation.costs.COST_METRIC`) scores the predicted classes by; required when
        it is among ``metrics``.
    credible_levels : sequence of float
        With ``config.auto_precision``: the levels of the Bayesian credible intervals the
        comparison reports, watched by the stopping rule beside the corrected t intervals.

    Yields
    ------
    Progress
        After every (model, fold) fit, labelled with the model, repeat and fold; its
        ``detail`` is a :class:`FoldScores` (repeat and fold from 1). In every split the fits
        of a tuned model's grid members as plain models (for ``tuning_optimism``; they are
        not in the comparison) follow the models' own, with no ``detail``. The fits found
        in the store come first, labelled ``(stored)``. Each record's ``left`` is the
        seconds left from the median time of each model's fits so far
        (:class:`engine.foundation.time_left.TimeLeft`; NaN until each model is timed).

    Returns
    -------
    CVResult
    """
    if not models:
        raise EngineError("cv_no_models")
    metrics = check_metrics(list(metrics), len(dataset.classes))
    check_cost_metric(metrics, costs, n_classes=len(dataset.classes))
    check_folds(dataset.y, config, dataset.groups, classes=dataset.classes)
    splits = make_splits(dataset.y, config, dataset.groups)
    models = [with_scoring(spec, metrics[0], costs=costs) for spec in models]
    members = [(m, label, member) for m, spec in enumerate(models)
               for label, member in grid_members(spec)]
    tasks = [(m, s) for s in range(len(splits))
             for m in range(len(models) + len(members))]
    clock = Stopwatch(len(tasks))
    X = feature_matrix(dataset)
    estimators = [make_pipeline(spec, dataset=dataset) for spec in
                  [*models, *(member for _, _, member in members)]]
    groups = [inner_groups(estimator, dataset) for estimator in estimators]
    check_inner_groups(dataset, splits, [*models, *(member for _, _, member in members)],
                       groups)
    labels = list(range(len(dataset.classes)))
    outcomes = [None] * len(tasks)
    pos_label = dataset.pos_label
    keys = (store.keys(dataset, [*models, *(member for _, _, member in members)], config,
                       metrics, splits, tasks, costs=costs) if store else None)
    stored = (store.lookup(keys, [len(splits[s][1]) for _, s in tasks]) if store
              else {})
    missing = [index for index in range(len(tasks)) if index not in stored]
    if missing and store is not None and store.replay and config.auto_precision is None:
        raise EngineError("replay_incomplete", {"n_missing": len(missing), "n_fits": len(tasks),
                                                "repeat": None})
    calls = [(estimators[m], X, dataset.y, *splits[s], metrics, labels, pos_label, groups[m],
              costs) for m, s in (tasks[index] for index in missing)]
    found = ((index, (None, outcome), " (stored)") for index, outcome in stored.items())
    computed = ((missing[call], timed, "") for call, timed in
                (run_calls(Timed(fit_and_score), calls, n_jobs=n_jobs,
                           cluster=cluster) if calls else ()))
    stream = (itertools.chain(found, computed) if config.auto_precision is None else
              _rounds(tasks, config, {index: (None, outcome) for index, outcome in stored.items()},
                      dict(zip(missing, calls)), store, n_jobs, cluster,
                      _ratio_after(outcomes, tasks, len(models), splits, config,
                                   alpha, credible_levels)))
    stop, most = None, ("" if config.auto_precision is None else
                        f" of at most {config.n_repeats}")     # "auto" may stop earlier
    time_left = TimeLeft([m for m, _ in tasks], workers(n_jobs, cluster))
    for done, (index, timed, how) in enumerate(_until_stop(stream), 1):
        if isinstance(timed, AutoStop):
            stop = timed
            break
        seconds, outcome = timed
        if store is not None and keys is not None and not how:
            store.save(keys[index], outcome)
        outcomes[index] = outcome
        model, split = tasks[index]
        time_left.done(model, seconds)
        repeat, fold = split_label(split, config.n_splits)
        if model >= len(models):
            owner, label, _ = members[model - len(models)]
            yield clock.progress(done, f"{models[owner].name}: grid member {label} as a plain "
                                       f"model, repeat {repeat}, fold {fold}{how}",
                                 left=time_left.seconds())
            continue
        detail = FoldScores(models[model].name, repeat, fold, dict(zip(metrics, outcome.scores)),
                            outcome.error)
        yield clock.progress(done, f"model {model + 1} of {len(models)} ({models[model].name}), "
                                   f"repeat {repeat}{most}, fold {fold}{how}", detail,
                             time_left.seconds())
    if stop is not None and stop.n_repeats < config.n_repeats:
        yield clock.progress(len(tasks), f"stopped after {stop.n_repeats} of at most "
                                         f"{config.n_repeats} repeats")
    if stop is not None:
        splits, config = splits[:stop.n_repeats * config.n_splits], replace(
            config, n_repeats=stop.n_repeats, auto_precision=None)
        outcomes = [o for o, (_, s) in zip(outcomes, tasks) if s < len(splits)]
        tasks = [(m, s) for m, s in tasks if s < len(splits)]
        if store is not None and hasattr(store, "keep_first"):
            store.keep_first(len(tasks))     # the tasks run are the first ones, by split
    optimism = _optimism(outcomes, tasks, models, members, metrics, splits, alpha)
    main = [i for i, (m, _) in enumerate(tasks) if m < len(models)]
    kept = [outcomes[i] for i in main]
    outcome = None
    stored.clear()
    outcomes.clear()  # _assemble releases each fit's arrays as it copies them
    result = _assemble(kept, [tasks[i] for i in main], models, metrics, splits, dataset,
                       config, clock)
    return replace(result, tuning_optimism=optimism, auto_stop=stop)


def _rounds(tasks, config, stored, calls, store, n_jobs, cluster, ratio_after):
    """The fits of an ``"auto"`` run, one repeat at a time until the rule stops
    (:func:`engine.evaluation.auto_repeats.in_rounds`); ``calls`` maps the index of each
    task not stored to its call of :func:`fit_and_score`. Outcomes come as ``(seconds,
    outcome)``, ``None`` seconds for a stored one (as the fixed run's stream).

    Every round draws on one :class:`engine.evaluation.parallel.Feed` (one worker pool, the data sent once), closed
    at the stop: the fits past the stop that it started are dropped, never yielded,
    counted or stored."""
    feed = Feed(Timed(fit_and_score), calls, n_jobs, cluster)

    def compute(indices):
        if store is not None and store.replay:
            raise EngineError("replay_incomplete", {
                "n_missing": len(indices), "n_fits": None,
                "repeat": tasks[indices[0]][1] // config.n_splits + 1})
        return feed.take(indices)
    try:
        return (yield from in_rounds(tasks, config.n_splits, config.n_repeats,
                                     config.auto_precision, stored, compute, ratio_after))
    finally:
        feed.close()


def _until_stop(stream):
    """``stream``'s items, then its return value (an :class:`AutoStop`) as a last item
    ``(None, stop, "")`` when it has one."""
    stop = yield from stream
    if stop is not None:
        yield None, stop, ""


def _ratio_after(outcomes, tasks, n_models, splits, config, alpha, levels):
    """``ratio_after(r)`` of :func:`engine.evaluation.auto_repeats.in_rounds`: the widths
    ratio and bound (:func:`engine.evaluation.auto_repeats.assess`) of the models' primary
    scores over the first ``r`` repeats."""
    n_splits, max_repeats = config.n_splits, config.n_repeats

    def ratio_after(r):
        n_folds = r * n_splits
        scores = np.full((n_models, n_folds), np.nan)
        for outcome, (m, s) in zip(outcomes, tasks):
            if m < n_models and s < n_folds and outcome is not None:
                scores[m, s] = outcome.scores[0]
        n_train = np.mean([len(train) for train, _ in splits[:n_folds]])
        n_test = np.mean([len(test) for _, test in splits[:n_folds]])
        return assess(scores, n_splits, n_test / n_train, alpha, credible_levels=levels,
                      max_repeats=max_repeats)
    return ratio_after


def inner_groups(estimator, dataset: Dataset) -> Optional[np.ndarray]:
    """The groups a model's fits need: the data set's when the model splits by groups
    inside its training part (tuned or thresholded, :func:`engine.evaluation.tuning.uses_groups`),
    else None."""
    groups = dataset.groups
    return groups if groups is not None and uses_groups(estimator) else None


def check_inner_groups(dataset: Dataset, splits: list, specs: list, groups: list) -> None:
    """Refuse grouped inner folds that an outer training part cannot fill.

    Parameters
    ----------
    dataset : Dataset
    splits : list of (ndarray, ndarray)
        The outer splits.
    specs : list of ModelSpec
        The models, in the order of ``groups``.
    groups : list
        Per model, :func:`inner_groups` (None for a model that does not split by groups).

    Raises
    ------
    ValueError
        When a tuned or thresholded model's ``inner_splits`` is more than the groups of
        some outer training part (``StratifiedGroupKFold`` could not make the folds), with
        what to change.
    """
    if dataset.groups is None or all(g is None for g in groups):
        return
    fewest, _ = fewest_inner_groups(dataset.y, dataset.groups, splits)
    for spec, needed in zip(specs, groups):
        if needed is None:
            continue
        for block, key in ((spec.tune, "tune"), (spec.threshold, "threshold")):
            inner = (block or {}).get("inner_splits", INNER_SPLITS)
            if block and inner > fewest:
                raise EngineError("inner_groups_too_few", {
                    "model": spec.name, "block": key, "inner_splits": inner,
                    "fewest": int(fewest)})


def _optimism(outcomes, tasks, models, members, metrics, splits=(), alpha=0.05):
    """``tuning_optimism.csv`` from the primary-metric scores of the tuned models and of
    their grid members as plain models (same outer folds, in split order), its interval at
    level ``1 − alpha`` with the outer folds' mean sizes."""
    nested, plain = {}, {}
    for (m, _split), outcome in zip(tasks, outcomes):
        if m < len(models):
            if models[m].tune:
                nested.setdefault(models[m].name, []).append(outcome.scores[0])
            continue
        owner, label, _ = members[m - len(models)]
        plain.setdefault(models[owner].name, {}).setdefault(label, []).append(outcome.scores[0])
    sizes = ((float(np.mean([len(train) for train, _ in splits])),
              float(np.mean([len(test) for _, test in splits]))) if len(splits)
             else (np.nan, np.nan))
    tuned_by = {spec.name: spec.tune.get("scoring") for spec in models if spec.tune}
    return optimism_table(nested, plain, metrics[0], sizes=sizes, alpha=alpha,
                          tuning_metrics=tuned_by)


def feature_matrix(dataset: Dataset):
    """A float array when the data is plain numbers (fast), else the DataFrame."""
    if dataset.is_plain_numeric():
        return dataset.X.to_numpy(dtype=float)
    return dataset.X


def fit_and_score(estimator, X, y, train, test, metrics, labels, pos_label=None,
                  groups=None, costs=None) -> FoldFit:
    """Fit a fresh copy of ``estimator`` on ``train``; score every metric on ``test``.

    ``groups`` (one per row of ``X``), when given, are passed to the grouped inner
    splits of a tuned or thresholded model (:func:`engine.evaluation.tuning.fit_model`). ``costs``
    are the expected-cost metric's (:class:`engine.evaluation.metrics.FoldScorer`).

    Never raises for a model's own failure: the :class:`FoldFit` records it. ``errors``
    holds the fit's failure or, per metric, why that metric could not be computed (its
    score stays NaN); ``warnings`` holds every distinct warning, whole.
    """
    scores, fit_seconds = (np.nan,) * len(metrics), np.nan
    kind = values = predicted = error = None
    errors: list[str] = []
    details: dict = {}
    model = copy.deepcopy(estimator)  # an unfitted estimator: the same as clone, faster
    X_train, X_test = take_rows(X, train), take_rows(X, test)
    # parameters were validated when the model was specified (catalogue.validated)
    with warnings.catch_warnings(record=True) as caught, \
            sklearn().config_context(skip_parameter_validation=True):
        warnings.simplefilter("always")
        try:
            start = time.perf_counter()
            with sklearn().config_context(assume_finite=checked_finite(model, X_train)):
                fit_model(model, X_train, y[train], None if groups is None else groups[train])
            fit_seconds = time.perf_counter() - start
            details = fit_details(model)
            scorer = FoldScorer(model, X_test, y[test], labels, pos_label, costs)
            scores = tuple(_safe_score(scorer, m, errors) for m in metrics)
            kind, values = scorer.kept_predictions()
            predicted = scorer.predicted_labels()
        except Exception as exc:  # a model's failure on one fold is a result, not a crash
            error = f"{type(exc).__name__}: {exc}"
            errors.append(error)
    return FoldFit(scores, fit_seconds, kind, values, predicted, error, tuple(errors),
                   tuple(warning_texts(caught)), details)


def checked_finite(model, X) -> bool:
    """Whether ``model`` may be fitted on ``X`` with scikit-learn's finiteness checks off
    (``assume_finite``): ``X`` is a float array with no missing or infinite value, and
    ``model`` learns from those rows alone (:func:`learns_from_rows_alone`). The fit's
    numbers are the same; only scikit-learn's repeated checks of the same finite rows
    (an ensemble checks its sample weights for each of its members) are skipped."""
    return (isinstance(X, np.ndarray) and X.dtype.kind == "f" and learns_from_rows_alone(model)
            and bool(np.isfinite(X).all()))


#: Attributes of the models that fit on values they compute (a pipeline's transformed
#: columns, a search's or calibration's inner predictions, a stack's base predictions):
#: checks on those values must stay on.
_COMPUTED_INPUTS = ("steps", "cv", "estimators", "final_estimator", "transformer_list")


def learns_from_rows_alone(model, *, depth: int = 0) -> bool:
    """Whether ``model`` is a single estimator (or an ensemble of such, like a random
    forest of trees) that learns from the rows it is given and nothing it computes first."""
    if depth > 5 or any(hasattr(model, name) for name in _COMPUTED_INPUTS):
        return False
    inner = getattr(model, "estimator", None)  # getattr: a scikit-learn meta-estimator's
    return inner is None or learns_from_rows_alone(inner, depth=depth + 1)


def _safe_score(scorer, metric, errors: list):
    try:
        score = scorer.score(metric)
    except Exception as exc:  # recorded: this metric has no score on this fold
        errors.append(f"{metric} could not be computed: {type(exc).__name__}: {exc}")
        return np.nan
    if not np.isfinite(score):
        errors.append(f"{metric} could not be computed: the score is {score}")
    return score


def warning_texts(caught) -> list:
    """The distinct warnings of a fit, each whole (on one line), deprecations left out."""
    texts = []
    for item in caught:
        if issubclass(item.category, (DeprecationWarning, PendingDeprecationWarning)):
            continue
        message = " ".join(str(item.message).split())
        text = f"{item.category.__name__}: {message}"
        if text not in texts:
            texts.append(text)
    return texts


def _assemble(outcomes, tasks, models, metrics, splits, dataset, config, clock) -> CVResult:
    """The :class:`CVResult` of the finished fits. Each outcome's predictions are copied
    into the final columns and the outcome released (``outcomes[i]`` becomes None), so
    the predictions are held once, not two or three times, while the table is built."""
    score_rows, failure_rows, chosen = [], [], []
    kinds: dict[str, str] = {}
    n_classes = len(dataset.classes)
    columns = _prediction_arrays(outcomes, tasks, splits, dataset)
    start = 0
    for index, ((model, split), outcome) in enumerate(zip(tasks, outcomes)):
        name = models[model].name
        repeat, fold = split_label(split, config.n_splits)
        train, test = splits[split]
        for metric, score in zip(metrics, outcome.scores):
            score_rows.append((name, repeat, fold, metric, score, len(train), len(test),
                               outcome.fit_seconds))
        for text in outcome.errors:
            failure_rows.append((name, repeat, fold, "error", text))
        for text in outcome.warnings:
            failure_rows.append((name, repeat, fold, "warning", text))
        if outcome.details:
            chosen.append((name, repeat, fold, outcome.details))
        if outcome.values is not None:
            kinds.setdefault(name, outcome.kind)
            rows = slice(start, start + len(test))
            start += len(test)
            for key, value in (("model", name), ("repeat", repeat), ("fold", fold),
                               ("row", test), ("y", dataset.y[test])):
                columns[key][rows] = value
            for k, column in enumerate(value_columns(n_classes)):
                columns[column][rows] = outcome.values[:, k]
            columns["predicted"][rows] = -1 if outcome.labels is None else outcome.labels
        outcomes[index] = None                 # its predictions are in the columns now
    scores = pd.DataFrame(score_rows, columns=SCORE_COLUMNS)
    failures = pd.DataFrame(failure_rows, columns=FAILURE_COLUMNS)
    predictions = (pd.DataFrame(columns=prediction_columns(n_classes)) if columns is None
                   else pd.DataFrame(columns, copy=False))   # each array is its own column
    return CVResult(scores=scores, predictions=predictions,
                    failures=failures, models=tuple(m.name for m in models),
                    metrics=tuple(metrics), classes=tuple(dataset.classes), config=config,
                    prediction_kind=kinds, seconds=clock.progress(0).elapsed,
                    tuning=tuning_table(chosen),
                    thresholds=thresholds_table(chosen, positive=positive_label(dataset)))


def positive_label(dataset: Dataset):
    """The positive class's label of a two-class data set (code ``pos_label``, default 1),
    None otherwise."""
    if len(dataset.classes) != 2:
        return None
    code = dataset.pos_label
    return dataset.classes[1 if code is None else int(code)]


def _prediction_arrays(outcomes, tasks, splits, dataset):
    """Empty columns of the predictions table, as long as all the kept predictions, with
    the dtypes concatenating them gives (``model`` object, ``repeat``, ``fold``, ``row``
    and ``predicted`` int64, ``y`` as ``dataset.y``, the values as the fits gave them);
    None when no fit kept predictions."""
    kept = [(outcome, splits[split][1]) for (_, split), outcome in zip(tasks, outcomes)
            if outcome.values is not None]
    if not kept:
        return None
    n_rows = sum(len(test) for _, test in kept)
    rows_dtype = np.result_type(*(test.dtype for _, test in kept))
    values_dtype = np.result_type(*(outcome.values.dtype for outcome, _ in kept))
    columns = {"model": np.empty(n_rows, dtype=object),
               **{key: np.empty(n_rows, dtype=np.int64) for key in ("repeat", "fold")},
               "row": np.empty(n_rows, dtype=rows_dtype),
               "y": np.empty(n_rows, dtype=dataset.y.dtype)}
    columns.update({column: np.empty(n_rows, dtype=values_dtype)
                    for column in value_columns(len(dataset.classes))})
    columns["predicted"] = np.empty(n_rows, dtype=np.int64)
    return columns
