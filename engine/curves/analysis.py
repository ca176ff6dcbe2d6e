"""The curves of an experiment run, as one frozen result (:class:`CurvesResult`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import pandas as pd

from .predictions import predictions_table


@dataclass(frozen=True)
class CurvesResult:
    """Every curve table of a run with a ``curves`` block.

    Attributes
    ----------
    settings : engine.experiment.CurvesSettings
    predictions : DataFrame
        ``predictions.csv`` (:func:`engine.curves.predictions.predictions_table`).
    roc, pr : DataFrame or None
        ``roc_curve.csv`` and ``pr_curve.csv`` (None when not asked for).
    notes : tuple of engine.notes.Note
    """

    settings: object
    predictions: pd.DataFrame
    roc: Optional[pd.DataFrame] = None
    pr: Optional[pd.DataFrame] = None
    notes: tuple = field(default=())

    def tables(self) -> dict:
        """``{file name: DataFrame}`` of the tables computed."""
        tables = {"predictions.csv": self.predictions}
        for name, table in (("roc_curve.csv", self.roc), ("pr_curve.csv", self.pr)):
            if table is not None:
                tables[name] = table
        return tables


def run_curves(result):
    """The curves of an :class:`engine.analysis.ExperimentResult` whose experiment has a
    ``curves`` block (a generator, like the other extras; computing them fits nothing).

    Returns
    -------
    CurvesResult
    """
    settings = result.experiment.curves
    predictions = predictions_table(result.cv, result.dataset)
    return CurvesResult(settings=settings, predictions=predictions)
    yield  # pragma: no cover  (a generator, like the other extras)
