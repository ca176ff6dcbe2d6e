"""Saved final models (skops files) and predictions from them.

With ``"save_models": true`` (or ``--save-models``) each model fitted on all training
rows is written into the result folder as ``model_NAME.skops`` with
:func:`skops.io.dumps`, together with what predicting needs (the feature columns and
their kinds, the classes, the target), and ``models_README.txt`` says how to use them and
warns: **a model file can run code when it is loaded; load only files you trust**.
:func:`load_model` loads a file only when every type in it is one of scikit-learn's,
imbalanced-learn's, NumPy's, SciPy's or Python's own (:func:`skops.io.get_untrusted_types`),
and refuses anything else, naming it. :func:`predict_file` applies a model to a data file
(its columns checked as the held-out test file's are) and writes a CSV table of the
predicted class and the probability of each class (or the decision value).
"""
from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import pandas as pd

from engine.input.data_checks import visible_columns
from engine.foundation.notes import Note
from engine.input.readers import read_table
from engine.output.tables import write_csv
from engine.runs.heldout.test_file import check_imputation, test_features

#: What the ``format`` entry of a saved model says.
FORMAT = "honest-eval final model 1"
#: Module prefixes of the types a saved model may hold.
TRUSTED_PREFIXES = ("sklearn.", "imblearn.", "numpy.", "scipy.", "builtins.", "collections.")
WARNING = ("A model file can run code on your computer when it is loaded. Load only model "
           "files you made yourself or got from someone you trust; honest-eval loads a file "
           "only when every type in it is one of scikit-learn's, imbalanced-learn's, NumPy's, "
           "SciPy's or Python's own, and refuses the rest.")
README = f"""honest-eval: saved final models

Each model_NAME.skops file holds one model of this run, fitted on all training rows
(the same pipeline the cross-validation fitted: preparation, scaling, resampling,
tuning and thresholds fitted on the training rows only). test_scores.csv says how
each scored on the held-out test file.

Predict with a saved model (writes the predicted class and the probability of each
class for every row of DATA_FILE, which needs the training data's feature columns):

    honest-eval predict model_NAME.skops DATA_FILE --out PREDICTIONS.csv

or File > Predict... in the app.

WARNING: {WARNING}
"""


def skops_io():
    """:mod:`skops.io`, or a ValueError saying how to install it (the optional extra
    ``models``)."""
    try:
        import skops.io
    except ImportError:
        raise ValueError('saving and loading models needs skops: pip install '
                         '"honest-eval[models]" (or pip install skops)') from None
    return skops.io


def model_file_names(names) -> dict:
    """Model name -> its file name ``model_NAME.skops`` (other characters as ``_``,
    made unique with a number)."""
    files, taken = {}, set()
    for name in names:
        slug = re.sub(r"[^A-Za-z0-9_-]+", "_", str(name)).strip("_")[:60] or "model"
        candidate, number = f"model_{slug}.skops", 2
        while candidate.lower() in taken:
            candidate, number = f"model_{slug}-{number}.skops", number + 1
        taken.add(candidate.lower())
        files[name] = candidate
    return files


def model_record(name: str, model, dataset) -> dict:
    """What a saved model holds: the fitted model and what predicting needs."""
    return {"format": FORMAT, "name": str(name), "model": model,
            "target": str(dataset.target), "classes": [_plain(c) for c in dataset.classes],
            "features": [str(c) for c in dataset.X.columns],
            "dtypes": [str(t) for t in dataset.X.dtypes],
            "plain_numeric": bool(dataset.is_plain_numeric())}


def _plain(value):
    return value.item() if hasattr(value, "item") else value


def saved_model_files(heldout, dataset) -> dict:
    """``{file name: bytes}`` of every fitted final model, and ``models_README.txt``."""
    dumps = skops_io().dumps
    names = [name for name, model in heldout.models.items() if model is not None]
    files = {}
    for name, file_name in model_file_names(names).items():
        files[file_name] = dumps(model_record(name, heldout.models[name], dataset))
    if files:
        files["models_README.txt"] = README.encode("utf-8")
    return files


def saved_note(files: dict):
    """The ``models_saved`` note: which model files were written, and the warning."""
    models = sorted(name for name in files if name.endswith(".skops"))
    return Note("models_saved", f"saved {len(models)} final model(s) fitted on all training "
                "rows (" + ", ".join(models) + "; see models_README.txt); a model file can "
                "run code when it is loaded: load only files you trust", {"files": models})


def load_model(path: str) -> dict:
    """A saved model's record (:func:`model_record`), its types checked first.

    Raises
    ------
    ValueError
        The file cannot be read, is not a saved model of this app, or holds a type that is
        not trusted (named).
    """
    sio = skops_io()
    try:
        untrusted = sio.get_untrusted_types(file=path)
    except OSError as exc:
        raise ValueError(f"cannot read the model file {path}: {exc.strerror or exc}") from None
    except Exception as exc:  # noqa: BLE001 - not a skops file
        raise ValueError(f"{path} is not a model file saved by honest-eval "
                         f"({type(exc).__name__})") from None
    refused = [t for t in untrusted if not t.startswith(TRUSTED_PREFIXES)]
    if refused:
        raise ValueError(f"the model file {path} holds types that are not scikit-learn's or "
                         f"NumPy's ({', '.join(refused[:3])}); it is not loaded: load only "
                         "model files you trust")
    try:
        record = sio.load(path, trusted=untrusted)
    except Exception as exc:  # noqa: BLE001
        raise ValueError(f"the model file {path} cannot be loaded: {type(exc).__name__}: "
                         f"{exc}") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError(f"{path} is not a model file saved by honest-eval")
    return record


def training_shape(record: dict):
    """A stand-in for the training data set: its columns, their types, classes, target."""
    X = pd.DataFrame({c: pd.Series(dtype=t) for c, t in zip(record["features"],
                                                            record["dtypes"])})
    plain = record["plain_numeric"]
    return SimpleNamespace(X=X, classes=tuple(record["classes"]), target=record["target"],
                           is_plain_numeric=lambda: plain)


def predictions(record: dict, frame: pd.DataFrame, path: str = "the data file") -> pd.DataFrame:
    """The model's predictions for every row of ``frame`` (a data file as read).

    Columns: ``row`` (0-based position in the file), ``predicted`` (the class label), then
    ``p_<class>`` for each class (with ``predict_proba``), else ``decision``.
    """

    shape = training_shape(record)
    frame, _ = visible_columns(frame)
    X = test_features(frame, shape, path)
    if not len(X):
        raise ValueError(f"the data file {path} has no row to predict")
    check_imputation(X, shape, path)
    model = record["model"]
    matrix = X.to_numpy(dtype=float) if record["plain_numeric"] else X
    classes = list(record["classes"])
    codes = np.asarray(model.predict(matrix)).astype(int)
    table = pd.DataFrame({"row": np.arange(len(X)),
                          "predicted": [classes[c] for c in codes]})
    if hasattr(model, "predict_proba"):
        proba = np.asarray(model.predict_proba(matrix), dtype=float)
        for index, label in enumerate(classes):
            table[f"p_{label}"] = proba[:, index]
    elif hasattr(model, "decision_function"):
        decision = np.asarray(model.decision_function(matrix), dtype=float)
        if decision.ndim == 1:
            table["decision"] = decision
        else:
            for index, label in enumerate(classes):
                table[f"decision_{label}"] = decision[:, index]
    return table


def predict_file(model_path: str, data_path: str, out: str, **read_options) -> pd.DataFrame:
    """Apply a saved model to a data file and write the predictions to ``out`` (CSV,
    atomically); returns the table."""

    record = load_model(model_path)
    try:
        table = read_table(data_path, **{k: v for k, v in read_options.items()
                                         if v is not None})
    except OSError as exc:
        raise ValueError(f"cannot read the data file {data_path}: "
                         f"{exc.strerror or exc}") from None
    result = predictions(record, table.frame, data_path)
    write_csv(result, out)
    return result
