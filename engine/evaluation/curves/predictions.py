"""The out-of-fold predictions as a table anyone can recompute the curves from.

:func:`predictions_table` turns :attr:`engine.evaluation.cv.CVResult.predictions` (class codes and
``score_k`` columns) into ``predictions.csv``: one row per model, repeat and data row,
the true class as the data spells it and the out-of-fold probability of every class
(``p_<class>``), or, for a model without probabilities, its decision values. Every curve
and interval of :mod:`engine.evaluation.curves` is computed from exactly this table.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from engine.input.row_ids import id_values

#: The leading columns of ``predictions.csv``.
KEY_COLUMNS = ["model", "repeat", "fold", "row", "id", "true_class"]


def probability_column(label) -> str:
    """The column of class ``label``'s out-of-fold probability: ``p_<label>``."""
    return f"p_{label}"


def decision_columns(classes) -> list:
    """The decision-value columns: ``decision`` for two classes (scikit-learn's
    ``decision_function``, larger meaning more the second class in label order),
    ``decision_<class>`` (one-vs-rest) for more."""
    if len(classes) == 2:
        return ["decision"]
    return [f"decision_{label}" for label in classes]


def predictions_table(cv_result, dataset) -> pd.DataFrame:
    """``predictions.csv``: the out-of-fold predictions of every model in the comparison.

    Parameters
    ----------
    cv_result : engine.evaluation.cv.CVResult
    dataset : engine.input.data.Dataset
        The data the run was on (its class labels name the columns).

    Returns
    -------
    DataFrame
        ``model, repeat, fold, row, id, true_class`` (``row``: the 0-based position of the
        row in the data as read, after rows without a target were dropped; ``id``: what
        names the row, :attr:`engine.input.data.Dataset.ids` -- the ``id_column``, else the
        row-name column left out, else the 1-based row of the file; ``repeat`` and
        ``fold`` from 1), then ``p_<class>`` for every class (models with
        ``predict_proba``), ``decision`` or ``decision_<class>`` (models with only
        ``decision_function``; see :func:`decision_columns`), and ``predicted`` (the class
        the model predicts; empty where unknown). Rows in model order, then repeat, then
        data row; folds that failed have no rows. Columns a model has no value for are
        empty.
    """
    classes = list(cv_result.classes)
    frame = cv_result.predictions
    frame = frame[frame["model"].isin(cv_result.models)]
    labels = np.asarray(classes, dtype=object)
    scores = [f"score_{k}" for k in range(len(classes))]
    table = pd.DataFrame({
        "model": frame["model"].to_numpy(dtype=object),
        "repeat": frame["repeat"].to_numpy(dtype=np.int64),
        "fold": frame["fold"].to_numpy(dtype=np.int64),
        "row": frame["row"].to_numpy(dtype=np.int64),
        "id": id_values(dataset.ids, frame["row"].to_numpy(dtype=np.int64)),
        "true_class": labels[frame["y"].to_numpy(dtype=np.int64)],
    })
    kinds = frame["model"].map(lambda name: cv_result.prediction_kind.get(name)).to_numpy()
    values = frame[scores].to_numpy(dtype=float)
    if (kinds == "proba").any():
        proba = np.where((kinds == "proba")[:, None], values, np.nan)
        for k, label in enumerate(classes):
            table[probability_column(label)] = proba[:, k]
    if (kinds == "decision").any():
        decision = np.where((kinds == "decision")[:, None], values, np.nan)
        names = decision_columns(classes)
        picked = decision[:, [1]] if len(classes) == 2 else decision
        for k, name in enumerate(names):
            table[name] = picked[:, k]
    table["predicted"] = _predicted_labels(frame, labels)
    return _in_order(table, cv_result.models)


def _predicted_labels(frame: pd.DataFrame, labels: np.ndarray) -> np.ndarray:
    """The predicted class labels (None where the run kept none)."""
    if "predicted" not in frame:
        return np.full(len(frame), None, dtype=object)
    codes = frame["predicted"].to_numpy(dtype=np.int64)
    known = codes >= 0
    out = np.full(len(codes), None, dtype=object)
    out[known] = labels[codes[known]]
    return out


def _in_order(table: pd.DataFrame, models) -> pd.DataFrame:
    """Rows by model (the run's order), repeat, then data row."""
    position = {name: i for i, name in enumerate(models)}
    order = np.lexsort((table["row"].to_numpy(), table["repeat"].to_numpy(),
                        table["model"].map(position).to_numpy()))
    return table.iloc[order].reset_index(drop=True)


def probabilities(predictions: pd.DataFrame, classes) -> np.ndarray:
    """The ``(n, K)`` probability columns of ``predictions.csv`` rows, in class order."""
    return predictions[[probability_column(c) for c in classes]].to_numpy(dtype=float)


def has_probabilities(predictions: pd.DataFrame, classes) -> bool:
    """True when every row has all its ``p_<class>`` values."""
    columns = [probability_column(c) for c in classes]
    return all(c in predictions for c in columns) and \
        bool(predictions[columns].notna().all(axis=None))
