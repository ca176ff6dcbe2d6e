"""The operating point: where a model's threshold puts it on its ROC and PR curves.

Two classes only; the threshold is on the positive class's probability (or decision
value). Which threshold (``threshold_source`` in the tables):

* ``tuned``: the model's own ``threshold`` block, chosen inside each training fold; every
  fold's rows are classified at that fold's threshold, and the table shows the median of
  the repeat's fold thresholds;
* ``costs``: the experiment's costs ``[[c_tn, c_fp], [c_fn, c_tp]]`` with probabilities:
  the threshold that minimises the expected cost when the probabilities are right,
  ``(c_fp - c_tn) / ((c_fp - c_tn) + (c_fn - c_tp))`` (chosen before seeing any
  prediction, so it is not fitted to the test rows; it is cost-optimal only as far as
  the probabilities are calibrated);
* ``default``: 0.5 on probabilities, 0 on decision values (what ``predict`` does).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import numpy as np


@dataclass(frozen=True)
class OperatingPoint:
    """One repeat's point: the threshold shown, FPR, TPR (= recall) and precision."""

    threshold: float
    fpr: float
    tpr: float
    precision: float


@dataclass(frozen=True)
class OperatingThreshold:
    """The threshold a model's operating point is at.

    Attributes
    ----------
    source : str
        ``tuned``, ``costs`` or ``default``.
    threshold : float
        The threshold (NaN for ``tuned``: per fold, see ``by_fold``).
    by_fold : dict
        ``{(repeat, fold): threshold}`` for ``tuned``.
    """

    source: str
    threshold: float = np.nan
    by_fold: dict = field(default_factory=dict)

    def point(self, truth: np.ndarray, score: np.ndarray, folds: np.ndarray,
              repeat: int) -> OperatingPoint:
        """The point of one repeat's pooled predictions (``truth``: positive or not)."""
        if self.by_fold:
            cuts = np.array([self.by_fold.get((repeat, int(f)), np.nan) for f in folds])
            shown = float(np.nanmedian([self.by_fold.get((repeat, int(f)), np.nan)
                                        for f in np.unique(folds)]))
        else:
            cuts, shown = np.full(len(score), self.threshold), self.threshold
        chosen = score >= cuts
        positives, negatives = truth.sum(), (~truth).sum()
        true_positive = np.sum(chosen & truth)
        false_positive = np.sum(chosen & ~truth)
        flagged = true_positive + false_positive
        return OperatingPoint(shown, false_positive / negatives, true_positive / positives,
                              true_positive / flagged if flagged else np.nan)


def default_threshold(kind: Optional[str]) -> Optional[OperatingThreshold]:
    """0.5 for probabilities, 0 for decision values, None otherwise."""
    if kind == "proba":
        return OperatingThreshold("default", 0.5)
    if kind == "decision":
        return OperatingThreshold("default", 0.0)
    return None


def cost_threshold(costs) -> Optional[float]:
    """The probability above which predicting positive costs less, for costs
    ``[[c_tn, c_fp], [c_fn, c_tp]]``; None when the costs do not make one (a positive
    prediction is never, or always, cheaper)."""
    (c_tn, c_fp), (c_fn, c_tp) = costs
    against, for_ = c_fp - c_tn, c_fn - c_tp
    if against <= 0 or for_ <= 0:
        return None
    return against / (against + for_)


def operating_thresholds(kinds: dict, thresholds_table, *, costs=None) -> dict:
    """Model name -> :class:`OperatingThreshold` for a two-class run.

    Parameters
    ----------
    kinds : dict
        Model name -> ``"proba"``, ``"decision"`` or ``"labels"``.
    thresholds_table : DataFrame
        ``CVResult.thresholds`` (``model, repeat, fold, threshold, ...``).
    costs : 2x2 nested sequence, optional
        The experiment's costs.
    """
    chosen: dict[str, Optional[OperatingThreshold]] = {}
    tuned: dict[str, dict[tuple[int, int], float]] = {}
    if thresholds_table is not None and len(thresholds_table):
        for row in thresholds_table.itertuples(index=False):
            tuned.setdefault(row.model, {})[(int(row.repeat), int(row.fold))] = \
                float(row.threshold)
    at_cost = cost_threshold(costs) if costs is not None else None
    for model, kind in kinds.items():
        if model in tuned:
            chosen[model] = OperatingThreshold("tuned", by_fold=tuned[model])
        elif kind == "proba" and at_cost is not None:
            chosen[model] = OperatingThreshold("costs", at_cost)
        else:
            chosen[model] = default_threshold(kind)
    return chosen
