"""The nested-CV interval's fits: ``"cv": {"interval": "nested"}``.

In each of ``nested_repeats`` repeats of the run's own fold assignment (``make_splits``
with the run's folds, scheme and seed, so repeat *r* has the run's folds of repeat *r*),
every model is fitted ``K x K`` times (mlr3inferr's ``ResamplingNestedCV``): once per
outer fold on the other ``K - 1`` folds, and for every outer fold ``k`` and other fold
``j`` on the ``K - 2`` folds left, scored on fold ``j``. The per-row scores of these fits
feed :func:`engine.evaluation.nested_interval.nested_interval` (``nested_intervals.csv``).

Fits go through :func:`engine.evaluation.cv.fit_and_score` and
:func:`engine.evaluation.parallel.run_calls` like the cross-validation's. With a result
store they are looked up and saved like its fits (:meth:`ResultStore.lookup_extra`): an
outer fit has the key of the run's fit on the same fold (one fit for both), an inner fit
a key of its own that also hashes its training rows.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from typing import Generator, Optional

import numpy as np
import pandas as pd

from engine.evaluation.catalogue import make_pipeline
from engine.evaluation.cv import (CVConfig, feature_matrix, fit_and_score, inner_groups,
                                  make_splits)
from engine.evaluation.nested_interval import (ESTIMAND, METHOD, NestedMoments,
                                               check_nested_metric, metric_range,
                                               moments_interval, row_scores)
from engine.evaluation.parallel import run_calls
from engine.evaluation.tuning import with_scoring
from engine.foundation.errors import EngineError
from engine.foundation.notes import Note
from engine.foundation.progress import Progress, Stopwatch

#: The most folds the nested interval takes (``n_splits²`` fits per model and repeat).
MAX_FOLDS = 100
#: Per-row scores kept for inspection (``NestedResult.rows``) up to this many per model;
#: beyond it only their moments are kept (the interval needs no more).
ROWS_KEPT = 1_000_000
#: Columns of ``nested_intervals.csv``.
NESTED_COLUMNS = ["model", "metric", "estimate", "bias_corrected", "ci_low", "ci_high", "se",
                  "level", "method", "estimand", "n_outer", "n_repeats"]


@dataclass(frozen=True)
class NestedResult:
    """Every model's nested-CV interval.

    Attributes
    ----------
    table : DataFrame
        ``nested_intervals.csv`` (:data:`NESTED_COLUMNS`).
    rows : dict
        Model name -> the tidy table of its per-row scores (``repeat, outer, inner,
        value``; ``inner`` 0 for an outer fit) the interval was computed from, for models
        with at most :data:`ROWS_KEPT` of them.
    notes : tuple of Note
    moments : dict
        Model name -> its :class:`NestedMoments` (what the interval is computed from).
    design : tuple
        ``(metric, n_rows, n_splits, nested_repeats, (low, high))``.
    """

    table: pd.DataFrame
    rows: dict
    notes: tuple = ()
    moments: dict = field(default_factory=dict)
    design: tuple = ()

    def tables(self) -> dict:
        return {"nested_intervals.csv": self.table}

    def at_level(self, level: float) -> "NestedResult":
        """The same fits' intervals at another level (the comparison's alpha changed)."""
        notes = [n for n in self.notes if n.code != "nested_interval"]
        return replace(self, table=interval_table(self.moments, self.design, level),
                       notes=(*notes, nested_note(self.design, level)))


def nested_fit_count(config: CVConfig, n_models: int) -> int:
    """The nested interval's fits: ``n_models x nested_repeats x n_splits²`` (0 unless
    ``config.interval`` is ``"nested"``)."""
    if config.interval != "nested":
        return 0
    try:
        folds, repeats = int(config.n_splits), int(config.nested_repeats)
    except (TypeError, ValueError):
        return 0
    return n_models * max(repeats, 0) * max(folds, 0) ** 2


def check_nested(dataset, config: CVConfig, metric: str) -> None:
    """Raise an :class:`EngineError` when the nested interval cannot run on ``dataset``:
    a metric that is not a mean over rows, fewer than 3 or more than :data:`MAX_FOLDS`
    folds, groups, or a class with fewer rows than folds."""
    check_nested_metric(metric)
    if config.n_splits < 3:
        raise EngineError("nested_folds", {"n_splits": config.n_splits},
                          f'cv.interval "nested" needs at least 3 folds (the inner fits train '
                          f"on n_splits - 2 of them), but n_splits is {config.n_splits}: "
                          f"set n_splits to 3 or more")
    if config.n_splits > MAX_FOLDS:
        raise EngineError("nested_folds", {"n_splits": config.n_splits},
                          f'cv.interval "nested" fits every model n_splits x n_splits times '
                          f"per repeat, and n_splits is {config.n_splits}: set n_splits to "
                          f"at most {MAX_FOLDS}")
    if dataset.groups is not None:
        raise EngineError("nested_groups", {"dataset": dataset.name},
                          'cv.interval "nested" treats rows as independent, but this data set '
                          'names "groups": use "interval": "corrected_t" for grouped data')
    counts = np.bincount(dataset.y, minlength=len(dataset.classes))
    smallest = int(counts.min())
    if smallest < config.n_splits:
        label = dataset.classes[int(np.argmin(counts))]
        fewer = f"lower n_splits to {smallest} or fewer, or " if smallest >= 3 else ""
        raise EngineError("nested_rows", {"smallest": smallest, "n_splits": config.n_splits,
                                          "class": str(label)},
                          f'cv.interval "nested": class {label!s} has only {smallest} row(s), '
                          f"fewer than the {config.n_splits} folds, so some inner training "
                          f'parts would miss it: {fewer}use "interval": "corrected_t"')


def nested_splits(y: np.ndarray, config: CVConfig) -> list:
    """Every nested fit's ``(repeat, outer, inner, train, test)``, repeats and folds from 1,
    ``inner`` 0 for an outer fit; per repeat the outer fits first, then the inner ones.

    ``train`` is the outer fold's training rows (as :func:`make_splits` gives them, the
    same array for every fit of that outer fold): an inner fit trains on them less its test
    fold (:func:`training_rows`), computed where it is fitted, so the run holds no more
    row indices than the cross-validation's own splits."""
    n_folds = config.n_splits
    splits = make_splits(y, replace(config, n_repeats=config.nested_repeats))
    out = []
    for repeat in range(config.nested_repeats):
        own = splits[repeat * n_folds:(repeat + 1) * n_folds]
        out += [(repeat + 1, k + 1, 0, train, test) for k, (train, test) in enumerate(own)]
        for k, (train, _) in enumerate(own):
            for j, (_, test) in enumerate(own):
                if j != k:
                    out.append((repeat + 1, k + 1, j + 1, train, test))
    return out


def training_rows(train: np.ndarray, test: np.ndarray, inner: int) -> np.ndarray:
    """The rows a nested fit trains on: the outer training rows, less the inner test fold
    for an inner fit (in their order)."""
    return train[~np.isin(train, test)] if inner else train


def fit_nested(estimator, X, y, train, test, inner, *rest):
    """:func:`engine.evaluation.cv.fit_and_score` of one nested fit (``train`` the outer
    training rows, see :func:`training_rows`)."""
    return fit_and_score(estimator, X, y, training_rows(train, test, inner), test, *rest)


def nested_keys(store, dataset, models, config, metrics, splits, tasks, *, costs=None) -> list:
    """The store key of every ``(model, nested split)`` task: an outer fit's is the run's
    fit's on that fold; an inner fit's hashes its training rows too."""
    n_folds = config.n_splits
    outer_splits = [(s[3], s[4]) for s in splits]
    outer_config = SimpleNamespace(scheme=config.scheme, n_splits=n_folds,
                                   random_state=config.random_state)
    inner_config = SimpleNamespace(scheme=f"{config.scheme}+nested-inner", n_splits=n_folds,
                                   random_state=config.random_state)
    numbers = [(s[0] - 1) * n_folds + s[1] - 1 for s in splits]
    # the outer fits are numbered as make_splits numbers them, so their keys are the run's
    fake = [(np.empty(0, np.int64), np.empty(0, np.int64))] * (max(numbers) + 1)
    for index, split in enumerate(splits):
        if split[2] == 0:
            fake[numbers[index]] = outer_splits[index]
    outer = store.keys(dataset, models, outer_config, metrics, fake,
                       [(m, numbers[s]) for m, s in tasks], costs=costs)
    inner = store.keys(dataset, models, inner_config, metrics, outer_splits, tasks,
                       costs=costs)
    trained = {}
    for s, (_, _, j, train, test) in enumerate(splits):
        if j:
            rows = np.ascontiguousarray(training_rows(train, test, j), dtype=np.int64)
            trained[s] = hashlib.sha256(rows.data.cast("B")).hexdigest()
    keys = []
    for (_, s), outer_key, inner_key in zip(tasks, outer, inner):
        keys.append(hashlib.sha256((inner_key + trained[s]).encode()).hexdigest()
                    if s in trained else outer_key)
    return keys


def run_nested(dataset, models: list, config: CVConfig, metrics: list, *, level: float = 0.95,
               n_jobs: int = 1, cluster=None, store=None,
               costs=None) -> Generator[Progress, None, NestedResult]:
    """Fit every model on every nested split and compute its interval on ``metrics[0]``.

    Parameters
    ----------
    dataset : Dataset
    models : list of ModelSpec
        The compared models (a tuned model's grid members are not refitted here).
    config : CVConfig
        With ``interval == "nested"``: its folds, scheme, seed and ``nested_repeats``.
    metrics : list of str
        The run's metrics (scored by every fit, as the run's, so outer fits share its
        keys); the first is the interval's.
    level : float
        The interval's level.
    n_jobs, cluster, store, costs
        As :func:`engine.evaluation.cv.run_cv`'s.

    Yields
    ------
    Progress
        After every fit (those found in the store first, labelled ``(stored)``).

    Returns
    -------
    NestedResult
    """
    metric = metrics[0]
    check_nested(dataset, config, metric)
    models = [with_scoring(spec, metric, costs=costs) for spec in models]
    splits = nested_splits(dataset.y, config)
    tasks = [(m, s) for s in range(len(splits)) for m in range(len(models))]
    X = feature_matrix(dataset)
    estimators = [make_pipeline(spec, dataset=dataset) for spec in models]
    groups = [inner_groups(estimator, dataset) for estimator in estimators]
    labels = list(range(len(dataset.classes)))
    keys = (nested_keys(store, dataset, models, config, metrics, splits, tasks, costs=costs)
            if store is not None else None)
    stored = (store.lookup_extra(keys, [len(splits[s][4]) for _, s in tasks])
              if store is not None else {})
    missing = [i for i in range(len(tasks)) if i not in stored]
    pos_label = dataset.pos_label
    metrics = list(metrics)                   # one object: sent to a cluster once
    calls = [(estimators[m], X, dataset.y, splits[s][3], splits[s][4], splits[s][2],
              metrics, labels, pos_label, groups[m], costs)
             for m, s in (tasks[i] for i in missing)]
    found = ((i, fit, " (stored)") for i, fit in stored.items())
    computed = ((missing[c], fit, "") for c, fit in
                (run_calls(fit_nested, calls, n_jobs=n_jobs, cluster=cluster) if calls else ()))
    kept = NestedKept(len(models), sum(len(s[4]) for s in splits) <= ROWS_KEPT)
    clock = Stopwatch(len(tasks))
    for done, (index, fit, how) in enumerate(_chain(found, computed), 1):
        if store is not None and keys is not None and not how:
            store.save(keys[index], fit)
        m, s = tasks[index]
        kept.add(m, splits[s][:3], row_scores(metric, dataset.y[splits[s][4]], fit.kind,
                                              fit.values, fit.labels)
                 if fit.error is None else None)
        repeat, outer, inner = splits[s][:3]
        where = f"outer fold {outer}" + (f", inner fold {inner}" if inner else "")
        yield clock.progress(done, f"nested CV: {models[m].name}, repeat {repeat}, "
                                   f"{where}{how}")
    stored.clear()
    return nested_result(dataset, models, config, metric, level, kept)


def _chain(*parts):
    for part in parts:
        yield from part


class NestedKept:
    """Per model, the moments of its fits' per-row scores, how many fits failed, and (when
    ``keep_rows``) the rows themselves."""

    def __init__(self, n_models: int, keep_rows: bool):
        self.moments = [NestedMoments({}, {}) for _ in range(n_models)]
        self.failed, self.fits = [0] * n_models, [0] * n_models
        self.rows: Optional[list[list]] = [[] for _ in range(n_models)] if keep_rows else None

    def add(self, model: int, where: tuple, values) -> None:
        """One fit's per-row scores (None: failed) at ``(repeat, outer, inner)``."""
        self.fits[model] += 1
        if values is None:
            self.failed[model] += 1
            return
        repeat, outer, inner = where
        self.moments[model].add(repeat, outer, inner, values)
        if self.rows is not None:
            self.rows[model].append((where, values))


def nested_result(dataset, models, config, metric, level, kept: NestedKept) -> NestedResult:
    """The table and notes from every model's kept moments (a model with a failed fit,
    or one without the predictions the metric needs, gets a note instead of a row)."""
    rows, moments, notes = {}, {}, []
    design = (metric, len(dataset.y), config.n_splits, config.nested_repeats,
              metric_range(metric, len(dataset.classes)))
    for m, spec in enumerate(models):
        failed, fits = kept.failed[m], kept.fits[m]
        if failed:
            notes.append(Note("nested_not_computed", fields={
                "model": spec.name, "failed": failed, "fits": fits, "metric": metric}))
            continue
        moments[spec.name] = kept.moments[m]
        if kept.rows is not None:
            rows[spec.name] = tidy_rows(kept.rows[m])
    notes.append(nested_note(design, level))
    return NestedResult(interval_table(moments, design, level), rows, tuple(notes), moments,
                        design)


def interval_table(moments: dict, design: tuple, level: float) -> pd.DataFrame:
    """``nested_intervals.csv`` from every model's :class:`NestedMoments`; ``design`` is
    ``(metric, n_rows, n_splits, nested_repeats, (low, high))``."""
    metric, n_rows, n_folds, repeats, bounds = design
    records = []
    for name, own in moments.items():
        ci = moments_interval(own, n_rows, n_folds, level=level, bounds=bounds)
        records.append([name, metric, ci.estimate, ci.corrected, ci.ci_low, ci.ci_high,
                        ci.se, level, METHOD, ESTIMAND, n_folds, repeats])
    return pd.DataFrame(records, columns=NESTED_COLUMNS)


def tidy_rows(own) -> pd.DataFrame:
    """One row per (fit, test row): ``repeat, outer, inner, value``."""
    sizes = [len(v) for _, v in own]
    return pd.DataFrame({
        "repeat": np.repeat([split[0] for split, _ in own], sizes),
        "outer": np.repeat([split[1] for split, _ in own], sizes),
        "inner": np.repeat([split[2] for split, _ in own], sizes),
        "value": np.concatenate([v for _, v in own]) if own else np.empty(0)})


def nested_note(design: tuple, level: float) -> Note:
    """What the nested interval is, in words (``nested_interval``); ``design`` as
    :func:`interval_table`'s."""
    metric, n_rows, folds, repeats, _ = design
    return Note("nested_interval",
                fields={"metric": metric, "level": level, "n_splits": folds,
                 "nested_repeats": repeats, "n_rows": n_rows})
