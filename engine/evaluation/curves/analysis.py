"""The curves of an experiment run, as one frozen result (:class:`CurvesResult`)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Optional

import pandas as pd

from engine.evaluation.cv import positive_label
from engine.evaluation.curves.decision import decision_analysis
from engine.evaluation.curves.learning import run_learning
from engine.evaluation.curves.operating import operating_thresholds
from engine.evaluation.curves.predictions import predictions_table
from engine.evaluation.curves.roc_pr import curve_tables

if TYPE_CHECKING:
    from engine.evaluation.curves.decision import DecisionResult
    from engine.evaluation.curves.learning import LearningResult
    from engine.evaluation.cv import CVResult
    from engine.evaluation.experiment import CurvesSettings
    from engine.input.data import Dataset


@dataclass(frozen=True)
class CurvesResult:
    """Every curve table of a run with a ``curves`` block.

    Attributes
    ----------
    settings : engine.evaluation.experiment.CurvesSettings
    cv : engine.evaluation.cv.CVResult
        The run's cross-validation, whose predictions the curves are computed from.
    dataset : engine.input.data.Dataset
        The data the run was on (its class labels name the columns of ``predictions``).
    roc, pr : DataFrame or None
        ``roc_curve.csv`` and ``pr_curve.csv`` (None when not asked for).
    decision : engine.evaluation.curves.decision.DecisionResult or None
        ``decision_curve.csv``, ``decision_summary.csv``, ``decision_pairs.csv``.
    learning : engine.evaluation.curves.learning.LearningResult or None
        ``learning_curve.csv``, ``learning_summary.csv``.
    notes : tuple of engine.foundation.notes.Note
    """

    settings: CurvesSettings
    cv: CVResult
    dataset: Dataset
    roc: Optional[pd.DataFrame] = None
    pr: Optional[pd.DataFrame] = None
    notes: tuple = field(default=())
    decision: Optional[DecisionResult] = None
    learning: Optional[LearningResult] = None

    @property
    def predictions(self) -> pd.DataFrame:
        """``predictions.csv`` (:func:`engine.evaluation.curves.predictions.predictions_table`),
        built from the CV result each time it is asked for and not kept: the predictions are
        held once, in ``cv.predictions``, not twice (on a large file they are the biggest
        part of a result)."""
        return predictions_table(self.cv, self.dataset)

    def tables(self) -> dict:
        """``{file name: DataFrame}`` of the tables computed."""
        tables = {"predictions.csv": self.predictions}
        for name, table in (("roc_curve.csv", self.roc), ("pr_curve.csv", self.pr)):
            if table is not None:
                tables[name] = table
        for extra in (self.decision, self.learning):
            if extra is not None:
                tables.update(extra.tables())
        return tables

    @property
    def all_notes(self) -> tuple:
        """The notes of the curves and of the decision and learning analyses."""
        return (*self.notes, *(() if self.decision is None else self.decision.notes),
                *(() if self.learning is None else self.learning.notes))


def run_curves(result, *, n_jobs: int = 1, cluster=None):
    """The curves of an :class:`engine.runs.analysis.ExperimentResult` whose experiment has a
    ``curves`` block (a generator, like the other extras: only learning curves fit).

    Returns
    -------
    CurvesResult
    """
    settings = result.experiment.curves
    roc = pr = None
    if settings.roc or settings.pr:
        roc, pr = roc_pr_tables(result, predictions_table(result.cv, result.dataset))
    curves = CurvesResult(settings=settings, cv=result.cv, dataset=result.dataset,
                          roc=roc if settings.roc else None, pr=pr if settings.pr else None)
    if settings.decision:
        curves = replace(curves, decision=_decision(result))
    if settings.learning:
        learning = yield from run_learning(result.dataset, result.cv,
                                           list(result.experiment.models), settings.learning,
                                           n_jobs=n_jobs, cluster=cluster,
                                           costs=result.experiment.metric_costs(),
                                           shuffle=settings.learning_shuffle)
        curves = replace(curves, learning=learning)
    return curves


def _decision(result):
    """The decision curves of a run (positive class: the data set's ``pos_label``)."""
    code = result.dataset.pos_label
    seed = result.cv.config.random_state
    return decision_analysis(result.cv, positive_code=1 if code is None else int(code),
                             random_state=0 if seed is None else int(seed))


def positive_class(dataset):
    """The positive class's label of a two-class data set, None for more classes."""
    return positive_label(dataset)


def roc_pr_tables(result, predictions) -> tuple:
    """``(roc_curve.csv, pr_curve.csv)`` of an experiment result, with the operating point
    of each model's threshold (two classes; :mod:`engine.evaluation.curves.operating`)."""
    kinds = dict(result.cv.prediction_kind)
    classes = result.cv.classes
    thresholds = None
    if len(classes) == 2:
        thresholds = operating_thresholds(kinds, result.cv.thresholds,
                                          costs=result.experiment.costs)
    return curve_tables(predictions, classes, positive_class(result.dataset), kinds,
                        thresholds=thresholds)
