"""Intervals that pass a metric's possible range, said in words.

The corrected-t interval of a mean score (:func:`engine.evaluation.stats.corrected_interval`)
is symmetric around the mean and knows nothing of the metric's limits, so a model with a
mean ROC AUC of 0.99 can get an interval up to 1.006. The numbers stay as computed (they
equal the formula and the peers); an ``interval_past_bound`` note says which intervals pass
the range and how to read them.
"""
from __future__ import annotations

from typing import Optional

import pandas as pd

from engine.foundation.notes import Note

#: Metrics whose smallest possible value is not 0 (scores of chance-corrected agreement).
LOWER_BOUNDS = {"matthews_corrcoef": -1.0}


def metric_range(metric: str) -> tuple:
    """``(lowest, highest)`` possible value of ``metric``, None where it has no limit.

    Scores are at most 1 and at least 0 (-1 for the Matthews correlation); the negated
    losses and costs (``neg_…``) are at most 0 and have no lower limit.
    """
    if metric.startswith("neg_"):
        return None, 0.0
    return LOWER_BOUNDS.get(metric, 0.0), 1.0


def interval_bound_notes(summary: pd.DataFrame) -> list:
    """One ``interval_past_bound`` note per metric and side whose intervals pass the range.

    Parameters
    ----------
    summary : DataFrame
        The summary table (``model, metric, ci_low, ci_high``, ...).

    Returns
    -------
    list of Note
    """
    notes = []
    for metric, part in summary.groupby("metric", sort=False):
        low, high = metric_range(str(metric))
        notes += _side_note(part, str(metric), "ci_high", high, "above", "largest")
        notes += _side_note(part, str(metric), "ci_low", low, "below", "smallest")
    return notes


def _side_note(part: pd.DataFrame, metric: str, column: str, bound: Optional[float],
               where: str, extreme: str) -> list:
    if bound is None:
        return []
    past = part[part[column] > bound] if where == "above" else part[part[column] < bound]
    if past.empty:
        return []
    models = [str(m) for m in past["model"]]
    return [Note("interval_past_bound", fields={
        "metric": metric, "side": "upper" if where == "above" else "lower", "bound": bound,
        "models": models})]
