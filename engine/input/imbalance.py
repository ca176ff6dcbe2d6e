"""Imbalanced classes: when the smallest class is small, what the app says and offers.

Rule
----
The classes are **imbalanced** when the smallest class holds less than 40% of an even
share of the rows (:data:`SHARE_OF_EVEN`): under 20% of the rows with two classes (the
border between "mild" and "moderate" imbalance in common use; always guessing the larger
class is then at least 80% accurate), under 13.3% with three, under 4% with ten, so a
ten-class data set of evenly spread digits is not flagged. A small class is flagged too
when it has fewer than :data:`FEW_ROWS` rows and fewer than half of the largest class's:
with 5 folds each test fold then holds at most 3 of its rows, so a model that ignores it
loses almost no accuracy. Evenly spread classes are never imbalanced.

What follows from it
--------------------
* a ``class_imbalance`` data note (:func:`imbalance_note`) saying what it means for
  accuracy and what the app offers: ``class_weight="balanced"`` for the estimators that
  take it (:func:`engine.evaluation.catalogue.takes_class_weight`) and resampling of the training
  folds (a model entry's ``"resample"``, :func:`make_sampler`);
* an experiment that names no metrics reports ``balanced_accuracy`` beside the default
  primary metric (:func:`with_imbalance_metric`), and ``per_class.csv`` holds each
  class's recall.

Resampling uses imbalanced-learn's samplers in its own ``Pipeline``, after the
preparation and before the estimator: a sampler acts in ``fit`` only, so it changes the
training rows of each fold and never a test fold.
"""
from __future__ import annotations

import importlib.util
from dataclasses import replace
from typing import Optional, Sequence

import numpy as np
from numpy.typing import ArrayLike

from engine.foundation.errors import EngineError
from engine.foundation.messages import IMBLEARN_HINT
from engine.foundation.notes import Note

#: Imbalanced when the smallest class holds less than this fraction of an even share (1/K).
SHARE_OF_EVEN = 0.4
#: ... or when it has fewer rows than this and fewer than half of the largest class's.
FEW_ROWS = 20
#: The metric reported beside the primary one when the classes are imbalanced.
BALANCED_METRIC = "balanced_accuracy"

#: ``"resample"`` value -> (imbalanced-learn module, class, words for people)
SAMPLERS = {
    "over": ("imblearn.over_sampling", "RandomOverSampler",
             "random over-sampling (rows of the smaller classes repeated)"),
    "under": ("imblearn.under_sampling", "RandomUnderSampler",
              "random under-sampling (rows of the larger classes left out)"),
    "smote": ("imblearn.over_sampling", "SMOTE",
              "SMOTE (new rows of the smaller classes between near neighbours)"),
}
INSTALL_HINT = IMBLEARN_HINT


def smallest_class(counts: ArrayLike) -> tuple:
    """``(code, count, share)`` of the smallest class (the first of equals)."""
    counts = np.asarray(counts, dtype=np.int64)
    code = int(np.argmin(counts))
    total = int(counts.sum())
    return code, int(counts[code]), (counts[code] / total if total else 0.0)


def is_imbalanced(counts: ArrayLike) -> bool:
    """True when the classes are imbalanced by the module's rule.

    Parameters
    ----------
    counts : sequence of int
        Rows per class (classes without rows left out by the caller, or counted as 0).

    Returns
    -------
    bool
    """
    counts = np.asarray(counts, dtype=np.int64)
    counts = counts[counts > 0]
    if len(counts) < 2:
        return False
    _, smallest, share = smallest_class(counts)
    if share < SHARE_OF_EVEN / len(counts):
        return True
    return smallest < FEW_ROWS and 2 * smallest < int(counts.max())


def imbalance_note(counts: ArrayLike, classes: Sequence) -> Optional[Note]:
    """The ``class_imbalance`` note when the classes are imbalanced, else None.

    Parameters
    ----------
    counts : sequence of int
        Rows per class, in code order.
    classes : sequence
        The class labels, in code order.

    Returns
    -------
    Note or None
        Fields ``class`` (the smallest class's label), ``count`` (its rows), ``share``
        (its fraction of the rows), ``n_rows``, ``majority_share`` (the largest class's
        fraction: the accuracy of always guessing it) and ``n_classes``.
    """
    if not is_imbalanced(counts):
        return None
    counts = np.asarray(counts, dtype=np.int64)
    code, count, share = smallest_class(counts)
    majority = float(counts.max() / counts.sum())
    label = classes[code]
    return Note("class_imbalance",
                fields={"class": label, "count": count, "share": float(share),
                 "n_rows": int(counts.sum()), "majority_share": majority,
                 "n_classes": len(counts)})


def with_imbalance_metric(experiment, counts: ArrayLike, classes: Sequence,
                          *, dataset: Optional[str] = None):
    """``experiment`` (its default metric already filled in) with ``balanced_accuracy``
    added after the primary metric and a ``default_metric_imbalanced`` note, when the
    classes are imbalanced and it is not already measured; else unchanged.

    Parameters
    ----------
    experiment : engine.evaluation.experiment.Experiment
    counts : sequence of int
        Rows per class of the data (of the first imbalanced data set of several).
    classes : sequence
        The class labels, in code order.
    dataset : str, optional
        The data set's name, when the experiment has several.
    """
    if not is_imbalanced(counts) or BALANCED_METRIC in experiment.metrics:
        return experiment
    code, _, share = smallest_class(counts)
    label = classes[code]
    metrics = (*experiment.metrics, BALANCED_METRIC)
    note = Note("default_metric_imbalanced",
                fields={"metrics": metrics, "class": label, "share": float(share),
                 "dataset": dataset})
    return replace(experiment, metrics=metrics, notes=experiment.notes + (note,))


# ----------------------------------------------------------------------------- resampling

def has_imblearn() -> bool:
    """True when imbalanced-learn can be imported (without importing it)."""
    return importlib.util.find_spec("imblearn") is not None


def check_resample(value, *, where: str = "resample") -> None:
    """Raise a ValueError when ``value`` is not a sampler name or imbalanced-learn is
    missing.

    Parameters
    ----------
    value : str or None
        A model entry's ``"resample"``; None means no resampling.
    where : str
        Its place in the experiment file, for the message.
    """
    if value is None:
        return
    if value not in SAMPLERS:
        raise EngineError("resample_unknown", {"where": where, "value": value,
                                               "samplers": list(SAMPLERS)})
    if not has_imblearn():
        raise EngineError("imblearn_missing", {"where": where})


def make_sampler(kind: str, *, random_state=None):
    """A fresh imbalanced-learn sampler for a ``"resample"`` value.

    Parameters
    ----------
    kind : str
        ``"over"`` (``RandomOverSampler``), ``"under"`` (``RandomUnderSampler``) or
        ``"smote"`` (``SMOTE``), each with its default ``sampling_strategy="auto"``:
        every class but the largest (over, SMOTE) or but the smallest (under) is
        resampled to the size of that one.
    random_state : int or None

    Returns
    -------
    imbalanced-learn sampler
    """
    check_resample(kind)
    module, name, _ = SAMPLERS[kind]
    return getattr(importlib.import_module(module), name)(random_state=random_state)


def resampling_pipeline(steps: list, sampler, estimator):
    """imbalanced-learn's ``Pipeline``: ``steps`` (the preparation), the sampler as
    ``"resample"``, the estimator as ``"model"``."""
    from imblearn.pipeline import Pipeline

    return Pipeline([*steps, ("resample", sampler), ("model", estimator)])
