"""Plain words on what happened in a run: warnings, failures, defaults that were applied.

Pure functions on the run's tables, giving :class:`~engine.foundation.notes.Note` values; the
headless runner prints them and writes them to ``notes.txt``, the GUI shows them beside the
results.
"""
from __future__ import annotations

import re
from typing import Optional

import pandas as pd

from engine.foundation.notes import Note

#: (pattern in the message, a short code of what to change, what to change in words),
#: checked in order. The code is the ``fix`` field of the ``folds_failed`` and
#: ``folds_warned`` notes, so a GUI can say it with its own controls.
_RULES = (
    # First: a search inside the folds that cannot score its candidates also warns that
    # their scores are "non-finite"; the missing probabilities are the cause.
    (r"has no attribute 'predict_proba'|predict_proba is not available|"
     r"has no attribute 'decision_function'|"
     r"none of the following attributes: (predict_proba|decision_function)",
     "no_probabilities",
     "this model gives no probabilities: choose a metric computed from labels (accuracy, "
     "balanced accuracy, F1) or a model with probabilities"),
    (r"failed to converge|ConvergenceWarning|max_iter",
     "not_converged",
     "the solver stopped before converging: scale the features (\"scale\": true) or raise "
     "max_iter"),
    (r"NaN or infinity|contains NaN|contains infinity|non-finite",
     "non_finite",
     "the model produced NaN or infinite values: check the data for extreme values or "
     "change the model's parameters (for naive Bayes, raise var_smoothing)"),
    (r"samples in each class should be more than the number of features",
     "small_class",
     "a class has fewer rows in a training fold than there are features, too few for a "
     "covariance of its own: give the model regularization (QDA's reg_param), use "
     "LinearDiscriminantAnalysis or GaussianNB, or add rows of that class"),
    (r"collinear|singular|ill-conditioned|LinAlgWarning",
     "collinear",
     "some features are (nearly) copies of each other: leave redundant columns out or add "
     "regularization"),
    (r"least populated class|members, which is less than n_splits",
     "few_rows",
     "a class has very few rows: lower the number of folds or add data"),
    (r"divide by zero|invalid value encountered",
     "numerical",
     "numerical trouble inside the model (division by zero): a constant or extreme "
     "feature may cause it"),
)
#: (pattern, what to change), checked in order.
_ADVICE = tuple((pattern, advice) for pattern, _fix, advice in _RULES)


def advice_for(message: str) -> str:
    """What the user can change about a warning or error message ('' if nothing known)."""
    for pattern, advice in _ADVICE:
        if re.search(pattern, message, flags=re.IGNORECASE):
            return advice
    return ""


def fix_for(message: str) -> str:
    """The code of what to change about a message (see ``_RULES``; '' if nothing known)."""
    for pattern, fix, _advice in _RULES:
        if re.search(pattern, message, flags=re.IGNORECASE):
            return fix
    return ""


#: Messages of a covariance that cannot be inverted (QDA's and LDA's "Variables are
#: collinear", scipy's singular matrices).
_COLLINEAR = r"collinear|singular|not full rank"


def small_class_advice(message: str, class_counts: dict, n_features: int,
                       n_splits: int) -> str:
    """The advice for a collinearity warning when its cause is a class too small for a
    covariance of its own ('' otherwise).

    A model that estimates one covariance per class (QDA) needs more training rows in every
    class than features: with ``n`` rows a class's covariance has rank at most ``n − 1``,
    so with ``n − 1 < n_features`` it is singular whatever the features are, and scikit-learn
    says "Variables are collinear".

    Parameters
    ----------
    message : str
        The warning or error text(s).
    class_counts : dict
        Class label -> rows in the data.
    n_features : int
        Columns of the data (a text column becomes several after encoding: at least this).
    n_splits : int
        Folds per repeat: a training part holds about ``(k − 1) / k`` of each class.
    """
    if not class_counts or not re.search(_COLLINEAR, message, flags=re.IGNORECASE):
        return ""
    label, rows = min(class_counts.items(), key=lambda item: item[1])
    training = int(rows * (n_splits - 1) // max(n_splits, 1))
    if training - 1 >= n_features:
        return ""
    return (f"the class {label!r} has only {rows} rows (about {training} in a training "
            f"fold), fewer than the {n_features} features + 1 a covariance of its own "
            "needs, so it cannot be estimated whatever the features are: give the model "
            "regularization (QDA's reg_param, e.g. 0.1), use a model with one shared "
            "covariance (LinearDiscriminantAnalysis) or none (GaussianNB), or add rows of "
            "that class")


def failure_notes(failures: pd.DataFrame, n_folds: int, *, class_counts: Optional[dict] = None,
                  n_features: int = 0, n_splits: int = 0) -> list:
    """One sentence per model and kind of problem, with what to change.

    Parameters
    ----------
    failures : DataFrame
        ``model, repeat, fold, kind, message`` (``CVResult.failures``).
    n_folds : int
        Folds per model (repeats x folds), to say "on 12 of 100 folds".
    class_counts : dict, optional
        Class label -> rows; with ``n_features`` and ``n_splits`` it lets a collinearity
        warning name its real cause when a class is too small for its own covariance
        (:func:`small_class_advice`) instead of blaming copied features.
    n_features, n_splits : int

    Returns
    -------
    list of Note
        Codes ``folds_failed`` (kind ``error``) and ``folds_warned`` (kind ``warning``).
    """
    if failures is None or failures.empty:
        return []
    notes = []
    for (model, kind), rows in failures.groupby(["model", "kind"], sort=False):
        n = rows.drop_duplicates(["repeat", "fold"]).shape[0]
        first = str(rows["message"].iloc[0])
        messages = " ".join(rows["message"].astype(str).unique()[:5])
        small = (small_class_advice(messages, class_counts, n_features, n_splits)
                 if class_counts else "")
        advice = small or advice_for(messages)
        fix = "small_class" if small else fix_for(messages)
        notes.append(Note("folds_failed" if kind == "error" else "folds_warned",
                          fields={"model": model, "n_folds_hit": n, "n_folds": n_folds,
                           "example": first, "advice": advice, "fix": fix}))
    return notes


def rank_notes(summary: pd.DataFrame, primary_metric: str) -> list:
    """Notes (codes ``unranked_models``, ``partial_ranks``) on how the ranks were formed
    when some folds failed."""
    rows = summary[summary["metric"] == primary_metric]
    notes = []
    unranked = rows[rows["rank"].isna()]["model"].tolist()
    if unranked:
        notes.append(Note("unranked_models", fields={"models": unranked}))
    partial = rows[rows["rank_note"].astype(str).str.startswith("ranked on")]
    if not partial.empty:
        rank_note = str(partial["rank_note"].iloc[0])
        notes.append(Note("partial_ranks", fields={"rank_note": rank_note}))
    return notes
