"""ROC and precision-recall curves from the out-of-fold predictions (``predictions.csv``).

For every model and class (two classes: the positive class; more: each class one-vs-rest):

* ``pooled``: the curve of one repeat's out-of-fold predictions taken together (every row
  once), exactly scikit-learn's ``roc_curve`` / ``precision_recall_curve`` (both with
  ``drop_intermediate=True``: the points a plot cannot show are left out), with
  ``roc_auc_score`` / ``average_precision_score`` of the same predictions;
* ``averaged``: the fold-averaged curve, vertical averaging (Fawcett 2006) on a common grid
  of :data:`GRID_POINTS` false-positive rates (ROC) or recalls (PR) over every fold of every
  repeat, with the band mean ± one standard deviation of the folds, clipped to [0, 1]; its
  ``auc`` / ``average_precision`` is the mean of the folds';
* ``operating_point`` (two classes): where the model's threshold puts it on each repeat's
  pooled predictions (:func:`operating_threshold` says which threshold).

Pooling folds mixes scores of models fitted on different training parts, so a pooled curve
can differ from every fold's; the averaged curve and its band show the folds' spread.
"""
from __future__ import annotations

from typing import Optional

import numpy as np
import pandas as pd
from sklearn.metrics import (
    average_precision_score,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)

from engine.evaluation.curves.operating import default_threshold
from engine.evaluation.curves.predictions import decision_columns, probability_column

#: Points of the common grid of the averaged curves (0, 0.01, ..., 1).
GRID_POINTS = 101
ROC_COLUMNS = ["model", "class", "curve", "repeat", "threshold", "fpr", "tpr", "tpr_low",
               "tpr_high", "auc", "threshold_source"]
PR_COLUMNS = ["model", "class", "curve", "repeat", "threshold", "recall", "precision",
              "precision_low", "precision_high", "average_precision", "prevalence",
              "threshold_source"]


def grid() -> np.ndarray:
    """The common grid of the averaged curves: 0 to 1 in :data:`GRID_POINTS` points."""
    return np.linspace(0.0, 1.0, GRID_POINTS)


def class_scores(predictions: pd.DataFrame, classes, positive, kind: Optional[str]) -> list:
    """``[(class label, score column values, kind)]`` for one model's rows: the positive
    class's score for two classes, every class's for more; ``[]`` when the model kept
    no probabilities or decision values."""
    classes = list(classes)
    if kind == "proba":
        columns = {c: predictions[probability_column(c)].to_numpy(dtype=float)
                   for c in classes}
    elif kind == "decision":
        names = decision_columns(classes)
        if len(classes) == 2:
            value = predictions[names[0]].to_numpy(dtype=float)
            columns = {classes[1]: value, classes[0]: -value}
        else:
            columns = {c: predictions[n].to_numpy(dtype=float) for c, n in zip(classes, names)}
    else:
        return []
    chosen = [positive] if len(classes) == 2 else classes
    return [(c, columns[c]) for c in chosen]


def interpolated_tpr(fpr: np.ndarray, tpr: np.ndarray) -> np.ndarray:
    """One ROC curve's true-positive rate on the common grid: ``np.interp`` with the first
    point set to 0, as scikit-learn's example "ROC with cross validation" does."""
    values = np.interp(grid(), fpr, tpr)
    values[0] = 0.0
    return values


def mean_and_band(curves: np.ndarray) -> tuple:
    """Mean over the rows of ``curves`` and the band mean ± one (population) standard
    deviation, clipped to [0, 1]: ``(mean, low, high)``."""
    mean, sd = curves.mean(axis=0), curves.std(axis=0)
    return mean, np.clip(mean - sd, 0.0, 1.0), np.clip(mean + sd, 0.0, 1.0)


def precision_at_recall(recall: np.ndarray, precision: np.ndarray) -> np.ndarray:
    """The precision at every grid recall r: that of the highest threshold whose recall is
    at least r (scikit-learn's arrays run from low to high threshold, recall falling)."""
    points = grid()
    reached = recall[None, :] >= points[:, None] - 1e-12
    last = reached.shape[1] - 1 - np.argmax(reached[:, ::-1], axis=1)
    return precision[last]


def _fold_curves(y: np.ndarray, score: np.ndarray, folds: np.ndarray) -> dict:
    """Per fold with both classes: ROC (fpr, tpr, auc) and PR (recall, precision, ap)."""
    out: dict[str, list] = {"roc": [], "pr": []}
    for fold in np.unique(folds):
        mask = folds == fold
        truth, values = y[mask], score[mask]
        if truth.all() or not truth.any():
            continue
        fpr, tpr, _ = roc_curve(truth, values)
        out["roc"].append((fpr, tpr, roc_auc_score(truth, values)))
        precision, recall, _ = precision_recall_curve(truth, values)
        out["pr"].append((recall, precision, average_precision_score(truth, values)))
    return out


def curve_tables(predictions: pd.DataFrame, classes, positive, kinds: dict,
                 *, thresholds: Optional[dict] = None, roc: bool = True,
                 pr: bool = True) -> tuple:
    """``(roc_curve.csv, pr_curve.csv)`` frames (None for a curve not asked for).

    Parameters
    ----------
    predictions : DataFrame
        ``predictions.csv`` (:func:`engine.evaluation.curves.predictions.predictions_table`).
    classes : sequence
        The class labels in code order.
    positive : object
        The positive class's label (two classes; ignored for more).
    kinds : dict
        Model name -> ``"proba"``, ``"decision"`` or ``"labels"``.
    thresholds : dict, optional
        Model name -> :class:`OperatingThreshold` (two classes; default per kind).
    """
    roc_rows: list[tuple] = []
    pr_rows: list[tuple] = []
    for model, rows in predictions.groupby("model", sort=False):
        kind = kinds.get(model)
        for label, score in class_scores(rows, classes, positive, kind):
            truth = (rows["true_class"].to_numpy() == label)
            chosen = (thresholds or {}).get(model) if len(classes) == 2 else None
            if chosen is None and len(classes) == 2:
                chosen = default_threshold(kind)
            parts = _model_class_curves(model, label, rows, truth, score, chosen)
            roc_rows.extend(parts[0])
            pr_rows.extend(parts[1])
    roc_table = pd.DataFrame(roc_rows, columns=ROC_COLUMNS) if roc else None
    pr_table = pd.DataFrame(pr_rows, columns=PR_COLUMNS) if pr else None
    for table in (roc_table, pr_table):
        if table is not None:
            table["repeat"] = table["repeat"].astype("Int64")
    return roc_table, pr_table


def _model_class_curves(model, label, rows, truth, score, chosen) -> tuple:
    """The ROC and PR rows of one model and class."""
    roc_rows: list[tuple] = []
    pr_rows: list[tuple] = []
    repeats = rows["repeat"].to_numpy()
    folds = rows["fold"].to_numpy()
    all_folds: dict[str, list] = {"roc": [], "pr": []}
    for repeat in np.unique(repeats):
        mask = repeats == repeat
        y, s = truth[mask], score[mask]
        for key, value in _fold_curves(y, s, folds[mask]).items():
            all_folds[key].extend(value)
        if y.all() or not y.any():
            continue
        fpr, tpr, cut = roc_curve(y, s)
        auc = roc_auc_score(y, s)
        roc_rows.extend((model, label, "pooled", int(repeat), t, f, r, np.nan, np.nan, auc, "")
                        for t, f, r in zip(cut, fpr, tpr))
        precision, recall, cut = precision_recall_curve(y, s, drop_intermediate=True)
        ap = average_precision_score(y, s)
        prevalence = float(y.mean())
        cut = np.append(cut, np.nan)                     # the last point has no threshold
        pr_rows.extend((model, label, "pooled", int(repeat), t, r, p, np.nan, np.nan, ap,
                        prevalence, "") for t, r, p in zip(cut, recall, precision))
        if chosen is not None:
            point = chosen.point(y, s, rows.loc[mask, "fold"].to_numpy(), int(repeat))
            roc_rows.append((model, label, "operating_point", int(repeat), point.threshold,
                             point.fpr, point.tpr, np.nan, np.nan, auc, chosen.source))
            pr_rows.append((model, label, "operating_point", int(repeat), point.threshold,
                            point.tpr, point.precision, np.nan, np.nan, ap, prevalence,
                            chosen.source))
    roc_rows.extend(_averaged_roc(model, label, all_folds["roc"]))
    pr_rows.extend(_averaged_pr(model, label, all_folds["pr"], float(truth.mean())))
    return roc_rows, pr_rows


def _averaged_roc(model, label, folds: list) -> list:
    if not folds:
        return []
    mean, low, high = mean_and_band(np.array([interpolated_tpr(f, t) for f, t, _ in folds]))
    auc = float(np.mean([a for _, _, a in folds]))
    return [(model, label, "averaged", pd.NA, np.nan, x, m, lo, hi, auc, "")
            for x, m, lo, hi in zip(grid(), mean, low, high)]


def _averaged_pr(model, label, folds: list, prevalence: float) -> list:
    if not folds:
        return []
    mean, low, high = mean_and_band(np.array([precision_at_recall(r, p) for r, p, _ in folds]))
    ap = float(np.mean([a for _, _, a in folds]))
    return [(model, label, "averaged", pd.NA, np.nan, x, m, lo, hi, ap, prevalence, "")
            for x, m, lo, hi in zip(grid(), mean, low, high)]


def curve_summary(roc: Optional[pd.DataFrame], pr: Optional[pd.DataFrame]) -> pd.DataFrame:
    """One row per model and class: the fold-averaged AUC and average precision, the pooled
    ones averaged over the repeats, and the operating point averaged over the repeats
    (what the ROC / PR view's table shows; every number is in the two tables)."""
    parts = []
    for table, value, name in ((roc, "auc", "auc"), (pr, "average_precision", "ap")):
        if table is None or table.empty:
            continue
        keys = ["model", "class"]
        averaged = table[table["curve"] == "averaged"].groupby(keys, sort=False)[value].first()
        pooled = table[table["curve"] == "pooled"].drop_duplicates(keys + ["repeat"]) \
            .groupby(keys, sort=False)[value].mean()
        parts.append(pd.DataFrame({f"{name}_folds": averaged, f"{name}_pooled": pooled}))
    if roc is not None and not roc.empty:
        points = roc[roc["curve"] == "operating_point"]
        if len(points):
            grouped = points.groupby(["model", "class"], sort=False)
            parts.append(grouped[["threshold", "fpr", "tpr"]].mean().join(
                grouped["threshold_source"].first()))
    if pr is not None and not pr.empty:
        points = pr[pr["curve"] == "operating_point"]
        if len(points):
            parts.append(points.groupby(["model", "class"], sort=False)[["precision"]].mean())
    if not parts:
        return pd.DataFrame(columns=["model", "class"])
    frame = pd.concat(parts, axis=1)
    return frame.reset_index()
