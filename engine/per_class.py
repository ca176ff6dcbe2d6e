"""Per-class results of a cross-validation: which classes a model confuses.

From the out-of-fold predicted labels (``CVResult.predictions["predicted"]``), pooled over
every fold of every repeat: each row of the data is counted once per repeat.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

CONFUSION_COLUMNS = ["model", "true_class", "predicted_class", "count"]
PER_CLASS_COLUMNS = ["model", "class", "precision", "recall", "f1", "support"]


def confusion_table(predictions: pd.DataFrame, models, classes) -> pd.DataFrame:
    """Confusion counts per model, summed over all folds and repeats.

    Parameters
    ----------
    predictions : DataFrame
        ``CVResult.predictions`` (``model``, ``y``, ``predicted`` class codes).
    models : sequence of str
        Model names, in the order wanted.
    classes : sequence
        Class labels in code order.

    Returns
    -------
    DataFrame
        ``model, true_class, predicted_class, count``: one row per model and pair of
        classes (zeros included), models in the given order, classes in code order.
        Equals ``sklearn.metrics.confusion_matrix`` of the pooled labels.
    """
    k = len(classes)
    rows = []
    for model in models:
        part = predictions[(predictions["model"] == model) & (predictions["predicted"] >= 0)]
        codes = part["y"].to_numpy(dtype=np.int64) * k + part["predicted"].to_numpy(np.int64)
        counts = np.bincount(codes, minlength=k * k).reshape(k, k)
        for t in range(k):
            for p in range(k):
                rows.append((model, classes[t], classes[p], int(counts[t, p])))
    return pd.DataFrame(rows, columns=CONFUSION_COLUMNS)


def per_class_table(confusion: pd.DataFrame, classes) -> pd.DataFrame:
    """Precision, recall, F1 and support of every class, from the pooled confusion counts.

    Returns
    -------
    DataFrame
        ``model, class, precision, recall, f1, support`` (NaN where a class was never
        predicted, or never present); equals ``sklearn.metrics.precision_recall_fscore_support``
        on the pooled labels (with ``zero_division=nan``).
    """
    rows = []
    k = len(classes)
    for model, part in confusion.groupby("model", sort=False):
        counts = part["count"].to_numpy(dtype=float).reshape(k, k)
        hits = np.diag(counts)
        predicted, actual = counts.sum(axis=0), counts.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            precision = np.where(predicted > 0, hits / predicted, np.nan)
            recall = np.where(actual > 0, hits / actual, np.nan)
            f1 = np.where(predicted + actual > 0, 2 * hits / (predicted + actual), np.nan)
        for c in range(k):
            rows.append((model, classes[c], precision[c], recall[c], f1[c], int(actual[c])))
    return pd.DataFrame(rows, columns=PER_CLASS_COLUMNS)
