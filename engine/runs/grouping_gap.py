"""What grouping changes: the same models run again without groups, to show the gap.

When rows belong together (several visits of one patient), ordinary stratified folds put
rows of one subject in both the training part and the test fold. A model can then score
well by recognising the subject rather than by learning the pattern, so its score is too
optimistic for new subjects. With ``"cv": {"compare_ungrouped": true}`` and a data set
with ``"groups"``, :func:`run_grouping_gap` cross-validates the same models once more on
scikit-learn's ``RepeatedStratifiedKFold(n_splits, n_repeats, random_state)`` (the same
settings and seed, the groups ignored) and sets each model's mean beside the grouped one:
``grouping_gap.csv`` (model, metric, grouped_mean, ungrouped_mean, gap, and the grouped
mean's corrected-t interval grouped_ci_low, grouped_ci_high: a gap within its half-width
is said to be within the uncertainty, not stated as the optimism). The grouped run
stays the result: every statistic (corrected t-test, Bayesian comparison) uses its folds.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Generator

import pandas as pd

from engine.evaluation.cv import CVConfig, CVResult, run_cv
from engine.evaluation.stats import corrected_interval
from engine.evaluation.messages_app import LONG_EVALUATION_FLOOR  # noqa: F401 (words it)
from engine.input.data import Dataset
from engine.foundation.errors import EngineError
from engine.foundation.messages import long_form
from engine.foundation.notes import Note
from engine.foundation.progress import Progress

#: Columns of :attr:`GroupingGapResult.table` (``grouping_gap.csv``).
GAP_COLUMNS = ["model", "metric", "grouped_mean", "ungrouped_mean", "gap", "grouped_ci_low",
               "grouped_ci_high"]
#: A gap (in score units) within this is called small in the verdict, unless the run
#: gives its ROPE (the comparison's region of practical equivalence).
SMALL_GAP = 0.01


@dataclass(frozen=True)
class GroupingGapResult:
    """The grouped and the ungrouped means of every model and metric.

    Attributes
    ----------
    table : DataFrame
        ``grouping_gap.csv``: ``model, metric, grouped_mean, ungrouped_mean, gap``, where
        ``gap = ungrouped_mean - grouped_mean`` (every metric of the app is higher-better,
        so a positive gap is how much the ungrouped folds overstate the score).
    ungrouped : CVResult
        The ungrouped run (its fold scores, for a closer look).
    groups_column : str
        The column of rows that belong together.
    n_groups : int
    notes : tuple of Note
        ``grouping_gap``: the verdict on the primary metric, in words.
    """

    table: pd.DataFrame
    ungrouped: CVResult
    groups_column: str
    n_groups: int
    notes: tuple = ()

    def tables(self) -> dict:
        """``{"grouping_gap.csv": table}``."""
        return {"grouping_gap.csv": self.table}

    @property
    def primary_metric(self) -> str:
        return self.ungrouped.primary_metric

    def verdict(self) -> str:
        """The sentence of the ``grouping_gap`` note (the primary metric)."""
        return str(self.notes[0]) if self.notes else ""


def gap_table(grouped: CVResult, ungrouped: CVResult) -> pd.DataFrame:
    """Each model's mean score on the grouped and on the ungrouped folds, and the gap.

    Parameters
    ----------
    grouped, ungrouped : CVResult
        The same models and metrics, run with and without groups.

    Returns
    -------
    DataFrame
        :data:`GAP_COLUMNS`, models in the run's order, metric by metric (primary
        first); a mean over the folds the model completed (NaN when none), and the
        grouped mean's corrected-t 95% interval (``summary.csv``'s ``ci_low``,
        ``ci_high``), the yardstick the gap is read against.
    """
    rows = []
    n_train, n_test = grouped.train_test_sizes()
    for metric in grouped.metrics:
        ours = _means(grouped, metric)
        theirs = _means(ungrouped, metric)
        matrix = grouped.score_matrix(metric)
        for model in grouped.models:
            a, b = float(ours.get(model, math.nan)), float(theirs.get(model, math.nan))
            low, high = corrected_interval(matrix.loc[model].to_numpy(dtype=float),
                                           n_train, n_test)
            rows.append((model, metric, a, b, b - a, low, high))
    return pd.DataFrame(rows, columns=GAP_COLUMNS)


def _means(cv: CVResult, metric: str) -> pd.Series:
    table = cv.scores[cv.scores["metric"] == metric]
    return table.groupby("model", sort=False)["score"].mean()


def gap_sentence(table: pd.DataFrame, metric: str, groups_column: str,
                 *, small: float = SMALL_GAP) -> tuple:
    """The verdict on the grouping gap of ``metric``, in plain words, and its fields.

    The model with the largest gap is named (the others are in the table); a largest gap
    within ``±small`` (the run's ROPE) is called small. The words are the catalogue's
    (``grouping_gap`` in :mod:`engine.evaluation.messages_app`), made from the fields.

    Returns
    -------
    tuple
        ``(text, fields)``; fields: ``metric, model, grouped_mean, ungrouped_mean, gap,
        groups_column, kind`` (``"optimistic"``, ``"small"``, ``"lower"`` or
        ``"no_scores"``); with ``"optimistic"`` also ``best_grouped``,
        ``best_ungrouped`` (the models with the highest mean each way) and
        ``grouped_half_width``.
    """
    fields = _gap_fields(table, metric, groups_column, small)
    return long_form("grouping_gap", fields), fields


def _gap_fields(table: pd.DataFrame, metric: str, groups_column: str, small: float) -> dict:
    """The ``grouping_gap`` note's fields (see :func:`gap_sentence`)."""
    rows = table[(table["metric"] == metric) & table["gap"].notna()]
    fields: dict[str, Any] = {"metric": metric, "groups_column": str(groups_column)}
    if rows.empty:
        return {**fields, "kind": "no_scores", "model": None, "grouped_mean": None,
                "ungrouped_mean": None, "gap": None}
    top = rows.iloc[rows["gap"].argmax()]
    gap = float(top["gap"])
    fields.update(model=str(top["model"]), grouped_mean=float(top["grouped_mean"]),
                  ungrouped_mean=float(top["ungrouped_mean"]), gap=gap)
    if gap > small:
        return {**fields, "kind": "optimistic",
                "best_grouped": str(rows["model"].iloc[rows["grouped_mean"].argmax()]),
                "best_ungrouped": str(rows["model"].iloc[rows["ungrouped_mean"].argmax()]),
                "grouped_half_width": _half_width(top)}
    return {**fields, "kind": "small" if gap >= -small else "lower"}


def _half_width(row) -> float:
    """Half the width of the grouped mean's interval (NaN without one)."""
    low, high = row.get("grouped_ci_low", math.nan), row.get("grouped_ci_high", math.nan)
    return float((high - low) / 2) if math.isfinite(low) and math.isfinite(high) else math.nan


def run_grouping_gap(dataset: Dataset, models: list, config: CVConfig, metrics: list,
                     grouped: CVResult, *, n_jobs: int = 1, rope: float = SMALL_GAP,
                     cluster=None, costs=None) -> Generator[Progress, None, GroupingGapResult]:
    """Run the same models on ordinary repeated stratified folds and compare the means.

    Parameters
    ----------
    dataset : Dataset
        With :attr:`~engine.input.data.Dataset.groups` (the ungrouped run leaves them out:
        scikit-learn's ``RepeatedStratifiedKFold(n_splits, n_repeats, random_state)``).
    models : list of ModelSpec
    config : CVConfig
        The grouped run's settings (the same folds count and seed).
    metrics : list of str
    grouped : CVResult
        The grouped run (the result the statistics use).
    n_jobs : int
    rope : float
        A largest gap within ±rope is called small (:func:`gap_sentence`).
    cluster : optional
        Where the fits run (:mod:`engine.evaluation.cluster`), as for :func:`engine.evaluation.cv.run_cv`.
    costs : optional
        The expected-cost metric's costs, as for :func:`engine.evaluation.cv.run_cv`.

    Yields
    ------
    Progress
        One per ungrouped fit, labelled ``without groups: ...``; without ``detail``, so a
        live plot of the fold scores keeps showing the grouped run's.

    Returns
    -------
    GroupingGapResult

    Raises
    ------
    ValueError
        When the data set has no groups, or a class has fewer rows than folds.
    """
    if dataset.groups is None:
        raise EngineError("grouping_gap_needs_groups")
    ungrouped_data = replace(dataset, groups=None)
    plain = replace(config, scheme="sklearn")
    job = run_cv(ungrouped_data, list(models), plain, list(metrics), n_jobs=n_jobs,
                 cluster=cluster, costs=costs)
    try:
        while True:
            try:
                record = next(job)
            except StopIteration as stop:
                ungrouped = stop.value
                break
            yield Progress(record.done, record.total, f"without groups: {record.label}",
                           record.elapsed)       # no detail: live views keep the grouped run
    finally:
        job.close()
    table = gap_table(grouped, ungrouped)
    column = str(dataset.source.get("groups", "groups"))
    _text, fields = gap_sentence(table, grouped.primary_metric, column, small=rope)
    return GroupingGapResult(table, ungrouped, column, int(len(set(dataset.groups))),
                             (Note("grouping_gap", fields=fields),))
