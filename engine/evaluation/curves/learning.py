"""Learning curves: would more data help?

The primary metric of every model refitted on growing parts of each training fold of the
run's own splits, scored on the fold's whole test part. The parts are what
``sklearn.model_selection.learning_curve(..., shuffle=False)`` takes: the sizes are the
fractions of the *first* split's training size (``int(fraction * n)``, at least 1, equal
sizes merged), and each part is the first ``n_train`` rows of the training fold in split
order. Every fit is :func:`engine.evaluation.cv.fit_and_score` run by
:func:`engine.evaluation.parallel.run_calls`, so failures are recorded, numbers do not depend on
``n_jobs``, and closing the generator stops it between fits.

A part that lacks a class (data sorted by class, tiny fractions) is not fitted: its score
is NaN and a ``learning_class_missing`` note says so. The band is the mean ± one standard
deviation of the fold scores (scikit-learn's learning-curve example draws the same), kept
within the lowest and highest fold score.
Whether the curve *may* have flattened: the last step's gain, read as a paired comparison
on the same folds (the mean of the per-fold differences), is smaller than its corrected
standard error ``sqrt((1/n + n_test/n_train) s^2)`` (Nadeau and Bengio: the folds share
rows, so the plain ``s / sqrt(n)`` would be too small). :func:`flattening`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Generator, Optional

import numpy as np
import pandas as pd

from engine.evaluation.catalogue import make_pipeline
from engine.evaluation.cv import (feature_matrix, fit_and_score, inner_groups, make_splits,
                                  split_label)
from engine.foundation.notes import Note
from engine.evaluation.parallel import run_calls
from engine.foundation.progress import Progress, Stopwatch
from engine.evaluation.tuning import with_scoring

__all__ = ["FOLD_COLUMNS", "SUMMARY_COLUMNS", "LearningResult", "training_sizes",
           "learning_summary", "flattening", "run_learning", "verdict_note"]

#: Columns of ``learning_curve.csv``.
FOLD_COLUMNS = ["model", "fraction", "n_train", "repeat", "fold", "metric", "score"]
#: Columns of ``learning_summary.csv``.
SUMMARY_COLUMNS = ["model", "fraction", "n_train", "metric", "mean", "std", "se", "band_low",
                   "band_high", "n_scored", "n_folds"]


def training_sizes(fractions, n_max: int) -> tuple:
    """scikit-learn's rule for fractional ``train_sizes``: ``(fractions · n_max)`` as int,
    clipped to ``[1, n_max]``, repeats merged.

    Returns
    -------
    (fractions, sizes) : tuple of ndarray
        The first fraction giving each distinct size, and the sizes (ascending).
    """
    fractions = np.asarray(sorted(float(f) for f in fractions))
    sizes = np.clip((fractions * n_max).astype(int), 1, n_max)
    sizes, first = np.unique(sizes, return_index=True)
    return fractions[first], sizes


@dataclass(frozen=True)
class LearningResult:
    """The learning curves of a run.

    Attributes
    ----------
    scores : DataFrame
        ``learning_curve.csv``: :data:`FOLD_COLUMNS`, one row per model, fraction and fold
        (repeat and fold from 1); NaN where the fit failed or its part lacked a class.
    summary : DataFrame
        ``learning_summary.csv``: :data:`SUMMARY_COLUMNS` (band = mean ± std).
    verdicts : DataFrame
        ``model, metric, n_from, n_to, gain, se, flattened`` (see :func:`flattening`).
    notes : tuple of Note
    shuffled : bool
        Whether each part was drawn from a shuffle of its training fold (else the fold's
        first rows).
    """

    scores: pd.DataFrame
    summary: pd.DataFrame
    verdicts: pd.DataFrame
    notes: tuple = ()
    shuffled: bool = False

    def tables(self) -> dict:
        return {"learning_curve.csv": self.scores, "learning_summary.csv": self.summary}


def learning_summary(scores: pd.DataFrame) -> pd.DataFrame:
    """Per model and fraction: mean, SD (ddof 1), SE of the mean, and the band mean ± SD
    kept within the lowest and highest fold score (so an AUC band never passes 1)."""
    if scores.empty:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    keys = ["model", "fraction", "n_train", "metric"]
    grouped = scores.groupby(keys, sort=False)["score"]
    table = grouped.agg(mean="mean", std="std", n_scored="count", n_folds="size",
                        lowest="min", highest="max").reset_index()
    table["se"] = table["std"] / np.sqrt(table["n_scored"])
    table["band_low"] = np.maximum(table["mean"] - table["std"], table["lowest"])
    table["band_high"] = np.minimum(table["mean"] + table["std"], table["highest"])
    return table[SUMMARY_COLUMNS]


def flattening(summary: pd.DataFrame, *, scores: Optional[pd.DataFrame] = None,
               n_test: Optional[float] = None) -> pd.DataFrame:
    """Per model: the last step's gain in the mean score and its yardstick ``se``;
    ``flattened`` when the gain is smaller than ``se`` (no row with fewer than two scored
    sizes).

    With the fold scores (``scores``, :data:`FOLD_COLUMNS`) and the run's mean test-fold
    size ``n_test``, the step is read as a paired comparison: the gain is the mean of the
    per-fold differences (last size minus the one before, on the folds both scored) and
    ``se`` is their corrected standard error, ``sqrt((1/n + n_test/n_train) s^2)`` (Nadeau
    and Bengio, ``n_train`` the last size), which allows for the folds sharing rows.
    Without them, the last mean's plain standard error (too small, the folds being
    correlated).
    """
    rows = []
    for name, part in summary.groupby("model", sort=False):
        part = part[part["n_scored"] > 1].sort_values("n_train")
        if len(part) < 2:
            continue
        last, before = part.iloc[-1], part.iloc[-2]
        gain, se = float(last["mean"] - before["mean"]), float(last["se"])
        if scores is not None and n_test:
            paired = _paired_step(scores[scores["model"] == name], int(before["n_train"]),
                                  int(last["n_train"]), float(n_test))
            gain, se = paired if paired is not None else (gain, se)
        rows.append((name, last["metric"], int(before["n_train"]), int(last["n_train"]), gain,
                     se, bool(gain < se)))
    return pd.DataFrame(rows, columns=["model", "metric", "n_from", "n_to", "gain", "se",
                                       "flattened"])


def _paired_step(scores: pd.DataFrame, n_from: int, n_to: int, n_test: float):
    """(mean, corrected SE) of the per-fold score differences from ``n_from`` to ``n_to``
    training rows; None with fewer than two folds scored at both sizes."""
    keys = ["repeat", "fold"]
    before = scores[scores["n_train"] == n_from].set_index(keys)["score"]
    after = scores[scores["n_train"] == n_to].set_index(keys)["score"]
    differences = (after - before).dropna().to_numpy(dtype=float)
    n = len(differences)
    if n < 2:
        return None
    variance = (1.0 / n + n_test / n_to) * float(np.var(differences, ddof=1))
    return float(differences.mean()), float(np.sqrt(variance))


def verdict_note(row) -> Note:
    """The ``learning_flattened`` note of one row of :func:`flattening`."""
    return Note("learning_flattened", fields={
        "model": row.model, "metric": row.metric, "gain": row.gain, "se": row.se,
        "flattened": bool(row.flattened), "n_from": int(row.n_from), "n_to": int(row.n_to)})


def run_learning(dataset, cv_result, models: list, fractions, *, n_jobs: int = 1, cluster=None,
                 costs=None, shuffle: bool = False
                 ) -> Generator[Progress, None, LearningResult]:
    """Fit every model on growing parts of each training fold of the run's splits.

    Parameters
    ----------
    dataset : Dataset
    cv_result : CVResult
        The run: its splits (``make_splits(y, config, groups)``) and primary metric.
    models : list of ModelSpec
        The run's models.
    fractions : sequence of float in (0, 1]
    n_jobs, cluster
        As :func:`engine.evaluation.cv.run_cv`.
    costs : optional
        The expected-cost metric's costs (``Experiment.metric_costs()``).
    shuffle : bool
        Take each part from a shuffle of the training fold (scikit-learn's
        ``shuffle=True``: one ``RandomState(cv.random_state)`` permuting the splits'
        training rows in split order) instead of its first rows.

    Yields
    ------
    Progress
        After every fit.

    Returns
    -------
    LearningResult
    """

    metric = cv_result.primary_metric
    y = np.asarray(dataset.y)
    splits = make_splits(y, cv_result.config, dataset.groups)
    if shuffle:
        rng = np.random.RandomState(cv_result.config.random_state)
        splits = [(rng.permutation(train), test) for train, test in splits]
    kept, sizes = training_sizes(fractions, len(splits[0][0]))
    notes = _merged_note(fractions, kept, sizes)
    specs = [with_scoring(spec, metric, costs=costs) for spec in models]
    estimators = [make_pipeline(spec, dataset=dataset) for spec in specs]
    groups = [inner_groups(estimator, dataset) for estimator in estimators]
    n_classes = len(dataset.classes)
    tasks = [(m, s, f) for s in range(len(splits)) for m in range(len(specs))
             for f in range(len(sizes))]
    parts = {(s, f): splits[s][0][:sizes[f]] for s in range(len(splits))
             for f in range(len(sizes))}
    complete = {key: len(np.unique(y[rows])) == n_classes for key, rows in parts.items()}
    X, labels = feature_matrix(dataset), list(range(n_classes))
    pos_label = dataset.pos_label
    to_fit = [i for i, (m, s, f) in enumerate(tasks) if complete[(s, f)]]
    calls = [(estimators[m], X, y, parts[(s, f)], splits[s][1], [metric], labels, pos_label,
              groups[m], costs) for m, s, f in (tasks[i] for i in to_fit)]
    # one record per planned step (engine.runs.run_plan: fractions x folds x models), also for
    # parts skipped for a missing class and for fractions merged into another's size
    planned = len(list(fractions)) * len(splits) * len(specs)
    clock, done = Stopwatch(planned), planned - len(calls)
    if done:
        yield clock.progress(done, f"learning curve: {planned - len(calls)} of {planned} "
                                   "fits not needed (a class missing, or a size repeated)")
    outcomes = {}
    for call, outcome in run_calls(fit_and_score, calls, n_jobs=n_jobs, cluster=cluster):
        index = to_fit[call]
        outcomes[index] = outcome
        m, s, f = tasks[index]
        repeat, fold = split_label(s, cv_result.config.n_splits)
        done += 1
        yield clock.progress(done, f"learning curve: {specs[m].name} on {sizes[f]:,} rows, "
                                   f"repeat {repeat}, fold {fold}")
    return _assemble(tasks, outcomes, specs, kept, sizes, splits, cv_result, metric, complete,
                     notes, shuffle)


def _merged_note(fractions, kept, sizes) -> list:
    if len(kept) == len(list(fractions)):
        return []
    return [Note("learning_sizes_merged", fields={"fractions": [float(f) for f in kept], "n_train": [int(n) for n in sizes]})]


def _assemble(tasks, outcomes, specs, kept, sizes, splits, cv_result, metric, complete,
              notes, shuffled=False) -> LearningResult:
    rows: list[tuple] = []
    failed: dict[str, list] = {}
    for index, (m, s, f) in enumerate(tasks):
        repeat, fold = split_label(s, cv_result.config.n_splits)
        outcome = outcomes.get(index)
        score = np.nan if outcome is None else outcome.scores[0]
        if outcome is not None and outcome.error:
            failed.setdefault(specs[m].name, []).append(
                f"{sizes[f]} rows, repeat {repeat}, fold {fold}: {outcome.error}")
        rows.append((specs[m].name, float(kept[f]), int(sizes[f]), repeat, fold, metric,
                     float(score)))
    scores = pd.DataFrame(rows, columns=FOLD_COLUMNS)
    notes = list(notes) + _missing_notes(specs, kept, sizes, splits, complete, shuffled)
    for name, examples in failed.items():
        notes.append(Note("learning_failed", fields={"model": name, "n_failed": len(examples), "examples": examples[:3]}))
    summary = learning_summary(scores)
    verdicts = flattening(summary, scores=scores, n_test=cv_result.train_test_sizes()[1])
    notes += [verdict_note(row) for row in verdicts.itertuples()]
    return LearningResult(scores, summary, verdicts, tuple(notes), bool(shuffled))


def _missing_notes(specs, kept, sizes, splits, complete, shuffled=False) -> list:
    """A ``learning_class_missing`` note per model and fraction whose parts lacked a class
    on some folds. The advice depends on how the parts were taken: the first rows of a
    fold (the data may be sorted by class: shuffle) or a random part (already shuffled:
    the part is too small for the rarest class)."""
    notes = []
    for f, n_train in enumerate(sizes):
        lacking = sum(not complete[(s, f)] for s in range(len(splits)))
        if not lacking:
            continue
        for spec in specs:
            notes.append(Note("learning_class_missing", fields={
                "model": spec.name, "fraction": float(kept[f]), "n_train": int(n_train),
                "n_folds": int(lacking), "n_splits": len(splits),
                "shuffled": bool(shuffled)}))
    return notes
