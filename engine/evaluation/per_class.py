"""Per-class results of a cross-validation: which classes a model confuses.

From the out-of-fold predicted labels (``CVResult.predictions["predicted"]``), pooled over
every fold of every repeat (each row of the data is counted once per repeat), or fold by
fold. Rows whose ``predicted`` is -1 (a failed fold) are not counted.

Everything is counted with one ``np.bincount`` over ``model, fold, true, predicted`` codes:
a result of 20 models x 100 folds (~114,000 predictions) takes a few milliseconds.
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np
import pandas as pd

CONFUSION_COLUMNS = ["model", "true_class", "predicted_class", "count"]
PER_FOLD_COLUMNS = ["model", "repeat", "fold", "true_class", "predicted_class", "count"]
PER_CLASS_COLUMNS = ["model", "class", "precision", "recall", "f1", "support"]


# ---------------------------------------------------------------------- codes
def _category_codes(values: np.ndarray, categories) -> np.ndarray:
    """Position of every value in ``categories`` (-1 when absent).

    Looked up once per run of equal values: predictions come in blocks (one model's fold),
    so this costs one comparison of neighbours instead of hashing every row's name.
    """
    if len(values) == 0:
        return np.empty(0, dtype=np.intp)
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
    heads = pd.Index(list(categories)).get_indexer(values[starts])
    return np.repeat(heads, np.diff(np.r_[starts, len(values)]))


def _fold_keys(repeat, fold) -> np.ndarray:
    """One integer per (repeat, fold) pair, increasing in split order."""
    return np.asarray(repeat, dtype=np.int64) * (1 << 32) + np.asarray(fold, dtype=np.int64)


def fold_pairs(frame: pd.DataFrame) -> list:
    """The ``(repeat, fold)`` pairs of a table, in split order.

    Parameters
    ----------
    frame : DataFrame
        Any table with ``repeat`` and ``fold`` columns (``CVResult.predictions`` or
        ``CVResult.scores``).

    Returns
    -------
    list of tuple of int
        Each pair once, as numbered in the table (whatever its base), sorted by repeat then
        fold.
    """
    keys = _fold_keys(frame["repeat"].to_numpy(), frame["fold"].to_numpy())
    if len(keys):   # rows come in runs of one fold: sort the first key of every run only
        keys = np.unique(keys[np.r_[True, keys[1:] != keys[:-1]]])
    return [(int(key >> 32), int(key & 0xFFFFFFFF)) for key in keys]


# ---------------------------------------------------------------------- counting
def confusion_counts(predictions: pd.DataFrame, models: Sequence[str], classes,
                     *, folds: Optional[Sequence[tuple]] = None) -> np.ndarray:
    """Confusion counts as an array, pooled or fold by fold.

    Parameters
    ----------
    predictions : DataFrame
        ``CVResult.predictions`` (``model``, ``repeat``, ``fold``, ``y``, ``predicted``).
    models : sequence of str
        Model names, in the order wanted (rows of other models are not counted).
    classes : sequence
        Class labels in code order.
    folds : sequence of (repeat, fold), optional
        Count fold by fold, for these folds (rows of other folds are not counted).
        ``None`` pools every fold.

    Returns
    -------
    ndarray of int64
        ``counts[m, t, p]`` (pooled) or ``counts[m, f, t, p]`` (``folds`` given): how often
        model ``m`` predicted class ``p`` for a row of true class ``t`` (on fold ``f``).
        A model that failed on a fold has zeros there.
    """
    k, n_models = len(classes), len(models)
    n_folds = 1 if folds is None else len(folds)
    index = _category_codes(predictions["model"].to_numpy(dtype=object), models)
    if folds is not None and len(index):
        keys = _fold_keys(predictions["repeat"].to_numpy(), predictions["fold"].to_numpy())
        fold_index = _category_codes(keys, _fold_keys(*zip(*folds)) if folds else [])
        index = np.where(fold_index >= 0, index * n_folds + fold_index, -1)
    true = predictions["y"].to_numpy(dtype=np.int64)
    predicted = predictions["predicted"].to_numpy(dtype=np.int64)
    keep = (index >= 0) & (predicted >= 0)
    cells = (index[keep] * k + true[keep]) * k + predicted[keep]
    counts = np.bincount(cells, minlength=n_models * n_folds * k * k)
    shape = (n_models, k, k) if folds is None else (n_models, n_folds, k, k)
    return counts.astype(np.int64, copy=False).reshape(shape)


def _take(values, index: np.ndarray):
    """``values[index]`` with the dtype a DataFrame infers from ``list(values)``."""
    return pd.Series(list(values), dtype=None if len(values) else object).array.take(index)


def confusion_frame(counts: np.ndarray, models: Sequence[str], classes) -> pd.DataFrame:
    """Pooled counts ``counts[m, t, p]`` as the long table of :func:`confusion_table`."""
    n_models, k = len(models), len(classes)
    return pd.DataFrame({
        "model": _take(models, np.repeat(np.arange(n_models), k * k)),
        "true_class": _take(classes, np.tile(np.repeat(np.arange(k), k), n_models)),
        "predicted_class": _take(classes, np.tile(np.arange(k), n_models * k)),
        "count": counts.reshape(-1),
    }, columns=CONFUSION_COLUMNS)


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
    return confusion_frame(confusion_counts(predictions, models, classes), models, classes)


def confusion_per_fold(predictions: pd.DataFrame, models, classes) -> pd.DataFrame:
    """Confusion counts per model and fold.

    Parameters
    ----------
    predictions : DataFrame
        ``CVResult.predictions`` (``model``, ``repeat``, ``fold``, ``y``, ``predicted``).
    models : sequence of str
        Model names, in the order wanted.
    classes : sequence
        Class labels in code order.

    Returns
    -------
    DataFrame
        ``model, repeat, fold, true_class, predicted_class, count``: one row per model,
        fold and pair of classes (zeros included, also where a model failed on the fold);
        models in the given order, then folds in split order (``repeat`` and ``fold`` as
        numbered in ``predictions``), then classes in code order. Summed over repeat and
        fold, equals :func:`confusion_table`; each fold's counts equal
        ``sklearn.metrics.confusion_matrix`` of that fold's labels.
    """
    folds = fold_pairs(predictions)
    counts = confusion_counts(predictions, models, classes, folds=folds)
    n_models, n_folds, k = len(models), len(folds), len(classes)
    frame = confusion_frame(counts.reshape(n_models * n_folds, k, k),
                            [m for m in models for _ in range(n_folds)], classes)
    pairs = np.array(folds, dtype=np.int64).reshape(n_folds, 2)
    for position, column in ((1, "repeat"), (2, "fold")):
        frame.insert(position, column, np.tile(np.repeat(pairs[:, position - 1], k * k),
                                               n_models))
    return frame[PER_FOLD_COLUMNS]


# ---------------------------------------------------------------------- scores
def class_scores(counts: np.ndarray) -> dict:
    """Precision, recall, F1 and support of every class from confusion counts.

    Parameters
    ----------
    counts : ndarray, shape (..., K, K)
        ``counts[..., t, p]``: rows of true class ``t`` predicted as ``p``.

    Returns
    -------
    dict of ndarray, each shape (..., K)
        ``precision, recall, f1`` (NaN where a class was never predicted, or never
        present) and ``support`` (rows of each true class).
    """
    counts = np.asarray(counts, dtype=float)
    hits = np.diagonal(counts, axis1=-2, axis2=-1)
    predicted, actual = counts.sum(axis=-2), counts.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(predicted > 0, hits / predicted, np.nan)
        recall = np.where(actual > 0, hits / actual, np.nan)
        f1 = np.where(predicted + actual > 0, 2 * hits / (predicted + actual), np.nan)
    return {"precision": precision, "recall": recall, "f1": f1,
            "support": actual.astype(np.int64)}


def per_class_frame(counts: np.ndarray, models: Sequence[str], classes) -> pd.DataFrame:
    """Counts ``counts[m, t, p]`` of ``models`` as the table of :func:`per_class_table`."""
    scores = class_scores(counts)
    n_models, k = len(models), len(classes)
    frame = {"model": _take(models, np.repeat(np.arange(n_models), k)),
             "class": _take(classes, np.tile(np.arange(k), n_models))}
    frame.update({name: values.reshape(-1) for name, values in scores.items()})
    return pd.DataFrame(frame, columns=PER_CLASS_COLUMNS)


def per_class_table(confusion: pd.DataFrame, classes) -> pd.DataFrame:
    """Precision, recall, F1 and support of every class, from the pooled confusion counts.

    Parameters
    ----------
    confusion : DataFrame
        The table of :func:`confusion_table`.
    classes : sequence
        Class labels in code order.

    Returns
    -------
    DataFrame
        ``model, class, precision, recall, f1, support`` (NaN where a class was never
        predicted, or never present); equals ``sklearn.metrics.precision_recall_fscore_support``
        on the pooled labels (with ``zero_division=nan``).
    """
    k = len(classes)
    models = list(dict.fromkeys(confusion["model"]))
    parts = confusion.groupby("model", sort=False)["count"]
    counts = np.stack([parts.get_group(m).to_numpy().reshape(k, k) for m in models]) \
        if models else np.zeros((0, k, k))
    return per_class_frame(counts, models, classes)
