"""The curves of an experiment run, as one frozen result (:class:`CurvesResult`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import pandas as pd

from .predictions import predictions_table
from .roc_pr import curve_tables


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
    roc = pr = None
    if settings.roc or settings.pr:
        roc, pr = roc_pr_tables(result, predictions)
    return CurvesResult(settings=settings, predictions=predictions,
                        roc=roc if settings.roc else None, pr=pr if settings.pr else None)
    yield  # pragma: no cover  (a generator, like the other extras)


def positive_class(dataset):
    """The positive class's label of a two-class data set, None for more classes."""
    from ..cv import positive_label

    return positive_label(dataset)


def roc_pr_tables(result, predictions) -> tuple:
    """``(roc_curve.csv, pr_curve.csv)`` of an experiment result, with the operating point
    of each model's threshold (two classes; :mod:`engine.curves.operating`)."""
    from .operating import operating_thresholds

    kinds = dict(result.cv.prediction_kind)
    classes = result.cv.classes
    thresholds = None
    if len(classes) == 2:
        thresholds = operating_thresholds(kinds, result.cv.thresholds,
                                          result.experiment.costs)
    return curve_tables(predictions, classes, positive_class(result.dataset), kinds,
                        thresholds)
