"""How the models do for whom: scores, gaps, calibration and parity per subgroup.

Everything is computed from the run's own out-of-fold predictions
(:attr:`engine.evaluation.cv.CVResult.predictions`): no model is fitted again. The
experiment's ``"subgroups"`` names the columns (:mod:`.spec`); :func:`run_subgroups` gives
a :class:`SubgroupResult`, ``ExperimentResult.subgroups``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from engine.evaluation.subgroups.calibration import CALIBRATION_COLUMNS, calibration_table
from engine.evaluation.subgroups.fairness import FAIRNESS_COLUMNS, fairness_table
from engine.evaluation.subgroups.scoring import subgroup_score_frames
from engine.evaluation.subgroups.spec import (MAX_LEVELS, SubgroupSpec, candidate_columns,
                                              groupings, parse_subgroups)
from engine.evaluation.subgroups.tables import (GAP_COLUMNS, MIN_EVENTS, MIN_ROWS,
                                                SCORE_COLUMNS, gaps_table, scores_table,
                                                subgroup_sizes)
from engine.evaluation.subgroups.words import subgroup_notes

__all__ = ["SubgroupResult", "SubgroupSpec", "run_subgroups", "check_subgroups",
           "parse_subgroups", "candidate_columns", "MAX_LEVELS", "MIN_ROWS", "MIN_EVENTS"]

COLUMN_COLUMNS = ["column", "is_feature", "cut", "n_subgroups"]


@dataclass(frozen=True)
class SubgroupResult:
    """The subgroup tables of a run.

    Attributes
    ----------
    scores : DataFrame
        ``subgroup_scores.csv`` (:data:`engine.evaluation.subgroups.tables.SCORE_COLUMNS`).
    gaps : DataFrame
        ``subgroup_gaps.csv`` (:data:`engine.evaluation.subgroups.tables.GAP_COLUMNS`).
    fairness : DataFrame
        ``subgroup_fairness.csv``: fairlearn's demographic-parity and equalized-odds
        differences per model and column (two classes).
    notes : tuple of Note
        ``subgroup_small`` (subgroups without a verdict), ``subgroup_columns`` (which
        columns the models learn from).
    calibration : DataFrame
        ``subgroup_calibration.csv``: calibration in the large and slope per subgroup
        (two classes, models with probabilities).
    columns : DataFrame
        ``column, is_feature, cut, n_subgroups``: each column, whether the models learn
        from it, how it was cut (``given``, ``quartiles``, ``categories``).
    scored : tuple
        ``(per column (grouping, repeat scores, fold scores, sizes), (n_train, n_test))``:
        what :meth:`at_alpha` makes the intervals from again.
    """

    scores: pd.DataFrame
    gaps: pd.DataFrame
    fairness: pd.DataFrame
    notes: tuple = ()
    calibration: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(
        columns=CALIBRATION_COLUMNS))
    columns: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=COLUMN_COLUMNS))
    scored: tuple = field(default=(), compare=False, repr=False)

    def at_alpha(self, alpha: float) -> "SubgroupResult":
        """The same scores with their intervals, gaps and p values at level ``1 − alpha``
        (nothing scored again)."""
        from dataclasses import replace

        if not self.scored:
            return self
        scored, ratio = self.scored
        scores, gaps = _interval_tables(scored, ratio, alpha)
        return replace(self, scores=scores, gaps=gaps)

    def tables(self) -> dict:
        """``{file name: DataFrame}`` of the tables that have rows (scores always)."""
        tables = {"subgroup_scores.csv": self.scores, "subgroup_gaps.csv": self.gaps}
        if len(self.calibration):
            tables["subgroup_calibration.csv"] = self.calibration
        if len(self.fairness):
            tables["subgroup_fairness.csv"] = self.fairness
        return tables


def check_subgroups(experiment, dataset) -> tuple:
    """The experiment's subgroups applied to ``dataset`` (nothing computed).

    Raises
    ------
    EngineError
        A column that is not there, has one value or too many (:mod:`.spec`).
    """
    return groupings(experiment.subgroups, dataset)


def run_subgroups(experiment, dataset, cv, *, alpha: float = 0.05):
    """The :class:`SubgroupResult` of a run, or None without ``"subgroups"``.

    Parameters
    ----------
    experiment : engine.evaluation.experiment.Experiment
    dataset : engine.input.data.Dataset
    cv : engine.evaluation.cv.CVResult
        Its out-of-fold predictions are scored.
    alpha : float
        1 − the intervals' level.
    """
    found = check_subgroups(experiment, dataset)
    if not found:
        return None
    context = {"labels": list(range(len(cv.classes))), "pos_label": dataset.pos_label,
               "costs": experiment.metric_costs()}
    scored, fairness, calibration = [], [], []
    for grouping in found:
        sizes = subgroup_sizes(grouping, dataset.y, len(cv.classes), dataset.pos_label)
        scored.append((grouping, *subgroup_score_frames(cv, grouping, context), sizes))
        fairness.append(fairness_table(cv, grouping, dataset.pos_label))
        calibration.append(calibration_table(cv, grouping, sizes, dataset.pos_label))
    columns = pd.DataFrame([(g.column, g.is_feature, g.cut, len(g.labels)) for g in found],
                           columns=COLUMN_COLUMNS)
    scores, gaps = _interval_tables(scored, cv.train_test_sizes(), alpha)
    return SubgroupResult(scores, gaps, _joined(fairness, FAIRNESS_COLUMNS),
                          subgroup_notes(scores, columns),
                          _joined(calibration, CALIBRATION_COLUMNS), columns,
                          scored=(tuple(scored), cv.train_test_sizes()))


def _interval_tables(scored, ratio, alpha: float) -> tuple:
    """``(scores, gaps)`` tables at ``alpha`` from each column's ``(grouping,
    repeat_scores, fold_scores, sizes)``."""
    scores, gaps = [], []
    for grouping, repeats, folds, sizes in scored:
        table = scores_table(grouping, repeats, folds, sizes, ratio, alpha)
        scores.append(table)
        gaps.append(gaps_table(grouping, table, folds, ratio, alpha))
    return _joined(scores, SCORE_COLUMNS), _joined(gaps, GAP_COLUMNS)


def _joined(frames, columns) -> pd.DataFrame:
    frames = [f for f in frames if len(f)]
    if not frames:
        return pd.DataFrame(columns=columns)
    return pd.concat(frames, ignore_index=True)[columns]
