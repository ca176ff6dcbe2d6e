"""Every metric on a subgroup's out-of-fold rows: per repeat (pooled) and per fold.

The predictions are the run's own (:attr:`engine.evaluation.cv.CVResult.predictions`),
scored by :class:`engine.evaluation.metrics.FoldScorer`, the scorer of every CV fold,
through :class:`engine.evaluation.kept_responses.KeptResponses`, which serves the kept
predictions by row position. Nothing is fitted.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from engine.evaluation.kept_responses import KeptResponses
from engine.evaluation.metrics import LABELS, FoldScorer


def model_responses(frame: pd.DataFrame, kind, n_classes: int) -> KeptResponses:
    """The :class:`KeptResponses` of one model's rows of ``CVResult.predictions``."""
    values = frame[[f"score_{k}" for k in range(n_classes)]].to_numpy(dtype=float)
    labels = (frame["predicted"].to_numpy(dtype=np.int64) if "predicted" in frame
              else np.full(len(frame), -1, dtype=np.int64))
    proba = values if kind == "proba" else None
    decision = None
    if kind == "decision":
        decision = values[:, 1] if n_classes == 2 else values
    return KeptResponses(labels, proba, decision, np.arange(n_classes))


#: Two-class metrics of the predicted classes computed here from the four counts, as
#: scikit-learn computes them with its default ``zero_division`` (0 where undefined):
#: scikit-learn's checks cost about 15 ms a call, and a run scores every subgroup in
#: every fold.
COUNTED = {"precision": lambda tp, fp, fn: _share(tp, tp + fp),
           "recall": lambda tp, fp, fn: _share(tp, tp + fn),
           "f1": lambda tp, fp, fn: _share(2 * tp, 2 * tp + fp + fn),
           "jaccard": lambda tp, fp, fn: _share(tp, tp + fp + fn)}


def _share(part: int, whole: int) -> float:
    return float(part / whole) if whole else 0.0


def counted_score(metric: str, truth: np.ndarray, predicted: np.ndarray,
                  positive: int) -> float:
    """Precision, recall, F1 or Jaccard of ``positive`` from the counts (0 where undefined, as
    scikit-learn's ``zero_division=0``)."""
    hit, said = truth == positive, predicted == positive
    tp = int(np.count_nonzero(hit & said))
    return COUNTED[metric](tp, int(np.count_nonzero(said)) - tp, int(np.count_nonzero(hit)) - tp)


def score_rows(responses: KeptResponses, rows: np.ndarray, y: np.ndarray, metrics, context) -> list:
    """Every metric on ``rows`` (positions into the model's predictions), NaN where it is
    undefined (one class in the rows, no such response)."""
    if not len(rows) or (responses.labels[rows] < 0).any():
        return [np.nan] * len(metrics)
    scorer = FoldScorer(responses, rows, y[rows], context["labels"], context["pos_label"],
                        context["costs"])
    scorer.response(LABELS)     # the kept classes (a tuned threshold's), not argmax of proba
    binary = len(context["labels"]) == 2
    positive = 1 if context["pos_label"] is None else int(context["pos_label"])
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for metric in metrics:
            if binary and metric in COUNTED:
                out.append(counted_score(metric, y[rows], responses.labels[rows], positive))
                continue
            try:
                out.append(float(scorer.score(metric)))
            except Exception:  # noqa: BLE001 - undefined on these rows
                out.append(np.nan)
    return out


def subgroup_score_frames(cv, grouping, context) -> tuple:
    """``(repeat_scores, fold_scores)`` of every model, subgroup and metric.

    Parameters
    ----------
    cv : engine.evaluation.cv.CVResult
    grouping : engine.evaluation.subgroups.spec.Grouping
    context : dict
        ``labels``, ``pos_label``, ``costs`` of the run's scorer.

    Returns
    -------
    tuple of DataFrame
        ``model, subgroup, repeat, metric, score`` and ``model, subgroup, repeat, fold,
        metric, score`` (``subgroup`` an index into ``grouping.labels``).
    """
    n_classes, metrics = len(cv.classes), list(cv.metrics)
    repeat_rows, fold_rows = [], []
    for model in cv.models:
        frame = cv.predictions[cv.predictions["model"] == model]
        if not len(frame):
            continue
        responses = model_responses(frame, cv.prediction_kind.get(model), n_classes)
        y = frame["y"].to_numpy(dtype=np.int64)
        codes = grouping.codes[frame["row"].to_numpy(dtype=np.int64)]
        repeats, folds = frame["repeat"].to_numpy(), frame["fold"].to_numpy()
        for s in range(len(grouping.labels)):
            in_group = codes == s
            for r in np.unique(repeats):
                rows = np.flatnonzero(in_group & (repeats == r))
                for metric, value in zip(metrics, score_rows(responses, rows, y, metrics,
                                                             context)):
                    repeat_rows.append((model, s, int(r), metric, value))
                for f in np.unique(folds[rows]):
                    fold_part = rows[folds[rows] == f]
                    for metric, value in zip(metrics, score_rows(responses, fold_part, y,
                                                                 metrics, context)):
                        fold_rows.append((model, s, int(r), int(f), metric, value))
    return (pd.DataFrame(repeat_rows, columns=["model", "subgroup", "repeat", "metric", "score"]),
            pd.DataFrame(fold_rows, columns=["model", "subgroup", "repeat", "fold", "metric",
                                             "score"]))
