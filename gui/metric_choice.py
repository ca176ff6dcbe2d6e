"""Which scores the Cross-validation tab offers: those valid for the target's classes (with
several data sets, for each data set's), the common ones first; and the chosen scores made
valid again when the data changes.
"""
from __future__ import annotations

from engine.runs.benchmark import MIXED_CLASSES_METRIC
from engine.evaluation.costs import COST_METRIC, metric_costs
from engine.input.imbalance import BALANCED_METRIC, is_imbalanced
from engine.evaluation.metrics import (BINARY_ONLY, check_metrics, default_metric, metrics_for,
                                       multiclass_counterpart)

#: Shown first, in this order; the rest of engine.evaluation.metrics.metrics_for(n_classes) follows.
COMMON_METRICS = ("roc_auc", "roc_auc_ovr", "accuracy", "balanced_accuracy",
                  "neg_expected_cost", "neg_log_loss", "neg_brier_score", "f1", "f1_macro",
                  "average_precision", "matthews_corrcoef", "precision", "recall")


def model_costs(entries, given=None):
    """The costs the expected cost would use: ``given`` (the experiment file's top-level
    ``"costs"``), else the one matrix the model entries' thresholds chosen by costs share
    (:func:`engine.evaluation.costs.metric_costs`), else None."""
    return metric_costs(given, list(entries or ()))


def ordered_metrics(n_classes=2, costs: bool = False) -> list:
    """The metrics valid for ``n_classes`` classes (or for each of a tuple of class
    counts, several data sets), the common ones first; the expected cost only with
    ``costs`` (the models' thresholds give them)."""
    counts = n_classes if isinstance(n_classes, tuple) else (n_classes,)
    known = [m for m in metrics_for(max(counts)) if valid_for(m, counts)
             and (costs or m != COST_METRIC)]
    return [m for m in COMMON_METRICS if m in known] + [m for m in known if m not in COMMON_METRICS]


def valid_for(metric: str, counts) -> bool:
    """True when ``metric`` can score targets with each of ``counts`` classes."""
    try:
        for count in counts:
            check_metrics([metric], count)
    except ValueError:
        return False
    return True


def class_counts(datasets) -> tuple:
    """The distinct class counts of ``datasets``, ascending ((2,) without data)."""
    return tuple(sorted({len(d.classes) for d in datasets})) or (2,)


def metrics_for_targets(metrics, counts: tuple, imbalanced: bool = False,
                        costs: bool = True) -> list:
    """``metrics`` made valid for data sets with ``counts`` classes (see
    :func:`metrics_for_target`); for mixed counts the metrics valid on them all, else
    the engine's choice (``engine.runs.benchmark.MIXED_CLASSES_METRIC``). When ``imbalanced``
    (:func:`any_imbalanced`) and the result is the default primary metric alone,
    ``balanced_accuracy`` is added, as the engine does for an experiment naming none.
    Without ``costs`` the expected cost is left out (no costs to score by)."""
    metrics = [m for m in metrics if costs or m != COST_METRIC]
    if len(counts) == 1:
        chosen = metrics_for_target(metrics, counts[0])
        default = default_metric(counts[0])
    else:
        chosen = [m for m in metrics_for_target(metrics, max(counts)) if valid_for(m, counts)]
        chosen, default = chosen or [MIXED_CLASSES_METRIC], MIXED_CLASSES_METRIC
    if imbalanced and chosen == [default]:
        chosen.append(BALANCED_METRIC)
    return chosen


def any_imbalanced(datasets) -> bool:
    """True when the classes of one of ``datasets`` are imbalanced
    (:func:`engine.input.imbalance.is_imbalanced`)."""
    import numpy as np

    return any(is_imbalanced(np.bincount(d.y, minlength=len(d.classes))) for d in datasets)


def metrics_for_target(metrics, n_classes: int) -> list:
    """``metrics`` made valid for a target with ``n_classes`` classes.

    Two-class metrics become their multiclass counterparts and back; the primary ROC AUC
    follows the target; with nothing left, the default for the target.
    """
    valid, out = set(metrics_for(n_classes)), []
    back = {multiclass_counterpart(name): name for name in BINARY_ONLY}
    for name in metrics:
        if name not in valid:
            name = multiclass_counterpart(name) if n_classes > 2 else back.get(name)
        if name in valid and name not in out:
            out.append(name)
    return out or [default_metric(n_classes)]
