"""Saved final models (skops files) and predictions from them.

With ``"save_models": true`` (or ``--save-models``) each model fitted on all training
rows is written into the result folder as ``model_NAME.skops`` with
:func:`skops.io.dumps`, together with what predicting needs (the feature columns and
their kinds, the classes, the target), and ``models_README.txt`` says how to use them.
:func:`load_model` loads a file only when it is a regular file within bounds and every
type and function in it is on the exact list of what the app writes
(:mod:`engine.runs.heldout.model_types`, checked before anything is built), and its
fields are as the app writes them. :func:`predict_file` applies a model to a data file
(its columns checked as the held-out test file's are) and writes a CSV table of the
predicted class and the probability of each class (or the decision value) to a new or
regular file that is neither input, in a folder that exists. Every refusal is an
:class:`~engine.foundation.errors.EngineError`.
"""
from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import pandas as pd

from engine.foundation.caller_errors import DetailError
from engine.foundation.errors import EngineError, error_code
from engine.foundation.notes import Note
from engine.input.data_checks import visible_columns
from engine.input.readers import read_table
from engine.input.row_ids import predict_ids
from engine.output.tables import write_csv
from engine.runs.heldout.test_file import check_imputation, test_features

#: What the ``format`` entry of a saved model says.
FORMAT = "honest-eval final model 1"
WARNING = ("honest-eval loads a model file only when every type and function in it is one "
           "the app itself writes, and refuses any other before building anything, so a "
           "file cannot name code to run. A file made by someone else can still hold a "
           "model that predicts what its maker chose, or whose numbers make the prediction "
           "fail: use model files you made yourself or got from someone you trust.")
README = f"""honest-eval: saved final models

Each model_NAME.skops file holds one model of this run, fitted on all training rows
(the same pipeline the cross-validation fitted: preparation, scaling, resampling,
tuning and thresholds fitted on the training rows only). test_scores.csv says how
each scored on the held-out test file.

Predict with a saved model (writes the predicted class and the probability of each
class for every row of DATA_FILE, which needs the training data's feature columns):

    honest-eval predict model_NAME.skops DATA_FILE --out PREDICTIONS.csv

or File > Predict... in the app.

Model files: {WARNING}
"""


def skops_io():
    """:mod:`skops.io`, or a ValueError saying how to install it (the optional extra
    ``models``)."""
    try:
        import skops.io
    except ImportError:
        raise EngineError("skops_missing") from None
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
    """What a saved model holds: the fitted model and what predicting needs, and the
    data set's ``id_column`` when it names one (Predict's ``id`` comes from it)."""
    record = {"format": FORMAT, "name": str(name), "model": model,
              "target": str(dataset.target), "classes": [_plain(c) for c in dataset.classes],
              "features": [str(c) for c in dataset.X.columns],
              "dtypes": [str(t) for t in dataset.X.dtypes],
              "plain_numeric": bool(dataset.is_plain_numeric())}
    id_column = dataset.source.get("id_column")
    if id_column is not None:
        record["id_column"] = str(id_column)
    return record


def _plain(value):
    return value.item() if hasattr(value, "item") else value


#: How ``models_README.txt`` lists a model skops could not write (one line each).
NOT_SAVED = "not saved: "


def saved_model_files(heldout, dataset) -> dict:
    """``{file name: bytes}`` of every fitted final model, and ``models_README.txt``.

    A model skops cannot write (HistGradientBoosting with early stopping by a named
    ``scoring`` makes it recurse without end) is left out, and the README lists it with
    the reason, rather than the whole run failing after its cross-validation."""
    dumps = skops_io().dumps
    names = [name for name, model in heldout.models.items() if model is not None]
    files, failed = {}, []
    for name, file_name in model_file_names(names).items():
        try:
            files[file_name] = dumps(model_record(name, heldout.models[name], dataset))
        except (Exception, RecursionError) as exc:  # noqa: BLE001 - skops' own limits
            failed.append(f"{NOT_SAVED}{name} (skops could not write it: "
                          f"{type(exc).__name__})")
    if files or failed:
        files["models_README.txt"] = "\n".join([README, *failed, ""]).encode("utf-8")
    return files


def saved_note(files: dict):
    """The ``models_saved`` note: which model files were written (and which models could
    not be, from ``models_README.txt``), and the warning."""
    models = sorted(name for name in files if name.endswith(".skops"))
    readme = files.get("models_README.txt", b"").decode("utf-8", "replace").splitlines()
    missing = [line[len(NOT_SAVED):] for line in readme if line.startswith(NOT_SAVED)]
    return Note("models_saved", fields={"files": models, "not_saved": missing})


def load_model(path: str) -> dict:
    """A saved model's record (:func:`model_record`), checked before and after loading.

    The file is read within bounds and every node of its ``schema.json`` is checked
    against the exact list of :mod:`engine.runs.heldout.model_types` before any object
    is built (:func:`engine.runs.heldout.model_archive.read_archive`); skops then trusts
    exactly those types; the record's fields are checked last
    (:func:`engine.runs.heldout.model_record.check_record`).

    Raises
    ------
    EngineError
        ``model_unreadable``, ``model_too_large``, ``model_foreign``, ``model_untrusted``
        or ``model_record`` (a ValueError: one line).
    """
    from engine.runs.heldout.model_archive import foreign, read_archive
    from engine.runs.heldout.model_record import check_record

    data, trusted = read_archive(path)
    sio = skops_io()
    try:
        record = sio.loads(data, trusted=trusted)
    except (Exception, RecursionError) as exc:  # noqa: BLE001 - any failure: refused
        raise foreign(path, f"it cannot be loaded: {type(exc).__name__}") from None
    return check_record(record, path, FORMAT)


def training_shape(record: dict):
    """A stand-in for the training data set: its columns, their types, classes, target."""
    X = pd.DataFrame({c: pd.Series(dtype=t) for c, t in zip(record["features"],
                                                            record["dtypes"])})
    plain = record["plain_numeric"]
    return SimpleNamespace(X=X, classes=tuple(record["classes"]), target=record["target"],
                           is_plain_numeric=lambda: plain)


def predictions(record: dict, frame: pd.DataFrame, *, path: str = "the data file",
                model_path: str = "the model file") -> pd.DataFrame:
    """The model's predictions for every row of ``frame`` (a data file as read).

    Columns: ``row`` (0-based position in the file), ``id`` (what names the row: the
    model's ``id_column`` when the file has it, else the file's row-name column that is
    not a feature, else the 1-based row; :func:`engine.input.row_ids.predict_ids`),
    ``predicted`` (the class label), then ``p_<class>`` for each class (with
    ``predict_proba``), else ``decision``.

    Raises
    ------
    EngineError
        ``predict_data`` (the columns do not fit), ``predict_memory`` or ``model_failed``
        (the model failed, or gave class codes or probabilities of the wrong shape).
    """
    from engine.runs.heldout.predict_checks import check_prediction_memory

    X = _data_features(record, frame, path)
    check_prediction_memory(record["model"], len(X), X.shape[1], path)
    matrix = X.to_numpy(dtype=float) if record["plain_numeric"] else X
    try:
        table = _predicted_table(record, matrix, len(X))
    except EngineError:
        raise
    except DetailError as exc:           # the model gave what no model of the app gives
        raise EngineError("model_failed", {"path": model_path, "detail": exc.detail},
                          f"the model of {model_path} failed while predicting: "
                          f"{exc.detail}") from None
    except Exception as exc:  # noqa: BLE001 - a saved model's failure is the file's
        raise EngineError("model_failed", {"path": model_path, "detail": type(exc).__name__},
                          f"the model of {model_path} failed while predicting: "
                          f"{type(exc).__name__}: {str(exc)[:300]}") from None
    ids = predict_ids(visible_columns(frame)[0], record.get("id_column"), record["features"],
                      record["target"])
    table.insert(1, "id", ids.to_numpy())
    return table


def _data_features(record: dict, frame: pd.DataFrame, path: str) -> pd.DataFrame:
    """The data file's feature columns, checked as a held-out test file's (the message
    calls it the data file)."""
    shape = training_shape(record)
    try:
        frame, _ = visible_columns(frame)
        X = test_features(frame, shape, path)
        if len(X):
            check_imputation(X, shape, path)
    except ValueError as exc:
        text = _as_data_file(exc)
        raise EngineError("predict_data", {"path": path, "detail": text}, text) from None
    if not len(X):
        raise EngineError("predict_data", {"path": path, "detail": "no row"},
                          f"the data file {path} has no row to predict")
    return X


def _as_data_file(exc: ValueError) -> str:
    """The sentence of a test-file check's error about the data file to predict: a
    ``heldout_*`` error worded with its ``file`` field "data"."""
    if isinstance(exc, EngineError) and exc.code.startswith("heldout_"):
        return str(EngineError(exc.code, {**exc.fields, "file": "data"}))
    return str(exc)


def _predicted_table(record: dict, matrix, n_rows: int) -> pd.DataFrame:
    model, classes = record["model"], list(record["classes"])
    codes = np.asarray(model.predict(matrix))
    if codes.shape != (n_rows,) or not np.isin(codes, np.arange(len(classes))).all():
        # internal: the detail of the "model_failed" error its caller raises
        raise DetailError(f"it gave class codes outside 0..{len(classes) - 1} or not one per "
                          "row")
    table = pd.DataFrame({"row": np.arange(n_rows),
                          "predicted": [classes[c] for c in codes.astype(int)]})
    if hasattr(model, "predict_proba"):
        proba = np.asarray(model.predict_proba(matrix), dtype=float)
        if proba.shape != (n_rows, len(classes)):
            raise DetailError(f"it gave probabilities of shape {proba.shape}")  # ditto
        for index, label in enumerate(classes):
            table[f"p_{label}"] = proba[:, index]
    elif hasattr(model, "decision_function"):
        decision = np.asarray(model.decision_function(matrix), dtype=float)
        if decision.ndim == 1 and decision.shape == (n_rows,):
            table["decision"] = decision
        elif decision.shape == (n_rows, len(classes)):
            for index, label in enumerate(classes):
                table[f"decision_{label}"] = decision[:, index]
        else:
            raise DetailError(  # the detail of "model_failed", as above
                f"it gave decision values of shape {decision.shape}")
    return table


def predict_file(model_path: str, data_path: str, out: str, **read_options) -> pd.DataFrame:
    """Apply a saved model to a data file and write the predictions to ``out`` (CSV,
    atomically); returns the table.

    ``out`` is checked first and again just before writing
    (:func:`engine.runs.heldout.predict_checks.check_out`): an absent path or a regular
    file, neither input, in a folder that exists.

    Raises
    ------
    EngineError
        Every refusal, coded (a ValueError: one line).
    """
    from engine.runs.heldout.predict_checks import check_out

    inputs = {"the data file": data_path, "the model file": model_path}
    check_out(out, inputs)
    record = load_model(model_path)
    try:
        table = read_table(data_path, **{k: v for k, v in read_options.items()
                                         if v is not None})
    except OSError as exc:
        raise EngineError("predict_data", {"path": data_path, "detail": exc.strerror or ""},
                          f"cannot read the data file {data_path}: "
                          f"{exc.strerror or exc}") from None
    except ValueError as exc:
        if error_code(exc) == "data_no_rows":
            raise
        raise EngineError("predict_data", {"path": data_path, "detail": str(exc),
                                           "cause": error_code(exc)}, str(exc)) from None
    result = predictions(record, table.frame, path=data_path, model_path=model_path)
    check_out(out, inputs)
    write_csv(result, out)
    return result
