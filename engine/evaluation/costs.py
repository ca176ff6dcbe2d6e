"""The expected cost of the predictions: comparing models by what their errors cost.

An experiment's ``"costs": [[c_tn, c_fp], [c_fn, c_tp]]`` (rows: the actual class,
negative then positive; columns: the predicted class; the positive class is the one the
data set names) says what each outcome costs. The metric :data:`COST_METRIC`
(``neg_expected_cost``) is minus the mean cost per row of a model's predicted classes on
a test fold: ``-sum(confusion_matrix(y, predicted) * costs) / n``. As scikit-learn's
losses (``neg_log_loss``) it is negated so that greater is better inside the engine; it
is shown as the expected cost, lower is better. A thresholded model's predictions are
made at the threshold it chose on its training part, so the metric is scored at each
model's chosen threshold.

Without top-level ``"costs"``, the costs of the models' ``"threshold": {"cost": ...}``
are lent to the metric when they all give the same matrix (note ``costs_borrowed``);
models with different matrices need top-level costs.
"""
from __future__ import annotations

from typing import Optional

import numpy as np
from sklearn.metrics import confusion_matrix

from engine.foundation.errors import EngineError
from engine.foundation.notes import Note

#: The expected-cost metric's name (scikit-learn's convention for losses: negated).
COST_METRIC = "neg_expected_cost"
#: Metrics that score the models' probabilities or ranking, not their predicted classes:
#: a threshold (and so the costs) does not change them.
THRESHOLD_FREE_PREFIXES = ("roc_auc", "average_precision", "neg_log_loss", "neg_brier_score",
                           "d2_")


def is_threshold_free(metric: str) -> bool:
    """True when ``metric`` does not depend on the decision threshold (ROC AUC, average
    precision, log loss, Brier score, the D² scores)."""
    return str(metric).startswith(THRESHOLD_FREE_PREFIXES)


def as_costs(cost) -> tuple:
    """A checked cost matrix as a tuple of tuples of floats (hashable)."""
    return tuple(tuple(float(v) for v in row) for row in cost)


def threshold_costs(models) -> list:
    """The distinct cost matrices of the models' ``threshold`` blocks, in model order
    (``models``: :class:`~engine.evaluation.catalogue.ModelSpec` values or experiment-file entries)."""
    found = []
    for spec in models:
        block = (spec.get("threshold") if isinstance(spec, dict)
                 else spec.threshold) or {}
        if "cost" in block and as_costs(block["cost"]) not in found:
            found.append(as_costs(block["cost"]))
    return found


def metric_costs(given, models) -> Optional[tuple]:
    """The costs the expected-cost metric uses: ``given`` (the experiment's top-level
    ``"costs"``), else the models' threshold costs when they all give one matrix, else
    None."""
    if given is not None:
        return as_costs(given)
    lent = threshold_costs(models)
    return lent[0] if len(lent) == 1 else None


def cost_metric_problem(metrics, costs, *, n_classes: Optional[int] = None) -> Optional[str]:
    """Why the expected-cost metric cannot be used here (None when it can or is not asked).

    Parameters
    ----------
    metrics : list of str
        The experiment's metrics.
    costs : 2x2 nested sequence or None
        The costs the metric would use (:func:`metric_costs`).
    n_classes : int, optional
        The target's number of classes, when known.

    Returns
    -------
    str or None
        The error code saying what to change (``cost_metric_no_costs`` or
        ``cost_metric_multiclass``; its fields: ``metric`` and ``n_classes``).
    """
    if COST_METRIC not in list(metrics or ()):
        return None
    if costs is None:
        return "cost_metric_no_costs"
    if n_classes is not None and n_classes != 2:
        return "cost_metric_multiclass"
    return None


def check_cost_metric(metrics, costs, *, n_classes: Optional[int] = None) -> None:
    """Raise an :class:`EngineError` of :func:`cost_metric_problem`'s code, if any."""
    problem = cost_metric_problem(metrics, costs, n_classes=n_classes)
    if problem:
        raise EngineError(problem, {"metric": COST_METRIC, "n_classes": n_classes})


def cost_notes(metrics, given, models) -> tuple:
    """Notes on the costs of an experiment whose metrics are known.

    ``costs_borrowed`` when the expected-cost metric uses a model's threshold costs;
    ``costs_not_compared`` when costs were typed (top-level or in a threshold) but the
    primary metric is another one (``threshold_free`` when it does not even depend on the
    thresholds the costs chose).
    """
    metrics = list(metrics or ())
    costs = metric_costs(given, models)
    typed = given is not None or bool(threshold_costs(models))
    notes = []
    if COST_METRIC in metrics and given is None and costs is not None:
        notes.append(Note("costs_borrowed", fields={"costs": costs}))
    if typed and metrics and metrics[0] != COST_METRIC:
        primary = metrics[0]
        notes.append(Note("costs_not_compared", fields={
            "metric": primary, "threshold_free": is_threshold_free(primary), "costs": costs}))
    return tuple(notes)


def cost_score(y_true, y_pred, cost, labels, *, pos_label=None) -> float:
    """Minus the mean cost per row: ``-sum(confusion * cost) / n`` (greater is better).

    Parameters
    ----------
    y_true, y_pred : array-like
    cost : 2x2 nested list
        ``[[c_tn, c_fp], [c_fn, c_tp]]``: rows the actual class, columns the predicted one,
        negative class first.
    labels : list
        ``[negative, positive]``.
    pos_label : optional
        Not used in the sum (``labels`` orders the matrix); a scorer made with it tells
        scikit-learn which class's probability a threshold is on.
    """
    counts = confusion_matrix(y_true, y_pred, labels=labels)
    return -float((counts * np.asarray(cost, dtype=float)).sum() / max(len(y_true), 1))


def expected_cost(y_true, y_pred, costs, *, pos_label=None) -> float:
    """The mean cost per row (lower is better): ``sum(confusion * costs) / n``.

    Parameters
    ----------
    y_true, y_pred : array-like
        Class codes (0 and 1).
    costs : 2x2 nested sequence
        ``[[c_tn, c_fp], [c_fn, c_tp]]``.
    pos_label : int, optional
        The positive class's code (default 1).
    """
    positive = 1 if pos_label is None else int(pos_label)
    return -cost_score(y_true, y_pred, [list(row) for row in costs], [1 - positive, positive])
