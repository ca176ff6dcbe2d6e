"""A calibration or ALOOCV result as a row of the result store, without pickle.

The result store (:mod:`engine.runs.store`, format 3) keeps the result of a job on a
run's result (:mod:`engine.runs.result_jobs`) in its ``job_results`` table, so that
re-opening the run shows it and a rerun with the same settings fits nothing.
:func:`encode_result` turns a :class:`engine.evaluation.calibration.CalibrationResult` or
:class:`engine.evaluation.aloocv.AloocvResult` into plain parts: its tables column by
column (numbers as raw bytes with their dtype, text as a JSON list), its notes and
settings as JSON. :func:`decode_result` reads them back through allow-lists and bounds:
only the tables and settings of its kind, plain dtypes
(:func:`engine.runs.fit_rows.plain_dtype`), byte counts that match the shape and lie
inside the stored bytes, each array's bytes within the memory at hand
(:func:`engine.runs.fit_rows.check_room`), notes of known codes only. Anything else is a
ValueError naming what is wrong (the store turns it into ``store_damaged``).

The keys (:func:`setup_key`, :func:`job_key`) say what decides a job's numbers: the data
(its fingerprint), the models, for calibration the run's outer folds, the settings and
the environment (scikit-learn's version, this format).
"""
from __future__ import annotations

import hashlib
import json

import numpy as np
import pandas as pd

from engine.evaluation.aloocv import AloocvResult
from engine.evaluation.calibration import CalibrationResult
from engine.evaluation.experiment import AloocvSettings, CalibrationSettings
from engine.evaluation.tuning import INNER_SPLITS
from engine.foundation.caller_errors import DetailError
from engine.foundation.notes import CODES as NOTE_CODES
from engine.foundation.notes import Note
from engine.runs.fingerprint import canonical_json, environment_record, split_records
from engine.runs.fit_rows import check_room, plain_dtype

#: This encoding's version, part of every key: a change makes earlier results unused.
JOB_FORMAT = 1
#: The tables of each kind of result, by attribute, in order.
TABLES = {"calibration": ("curve", "scores", "map", "fold_scores", "probabilities"),
          "aloocv": ("curve", "optimum")}
#: The settings of each kind: class and the fields read back.
SETTINGS = {"calibration": (CalibrationSettings, ("methods", "n_bins", "strategy",
                                                 "map_buckets")),
            "aloocv": (AloocvSettings, ("C_min", "C_max", "n_C", "exact_loo"))}
#: Bounds on what is read back: columns of a table, a column name's and a note's length,
#: notes of a result.
MAX_COLUMNS, MAX_NAME, MAX_TEXT, MAX_NOTES = 1000, 200, 20_000, 10_000
#: A text column's JSON takes at most this many times its bytes once read (a generous
#: bound: short texts in a list cost about 60 bytes each in Python).
TEXT_GROWTH = 64
_JSON_TYPES = (str, int, float, bool, type(None))


# ----------------------------------------------------------------------------- keys

def setup_key(kind: str, data_key: str, models, *, splits=None, config=None) -> str:
    """What decides a job's numbers apart from its settings: SHA-256 of the kind, the
    data's fingerprint, the models (:meth:`ModelSpec.to_json`), for calibration the
    run's outer folds (:func:`engine.runs.fingerprint.split_records`) and the
    environment. A stored run is looked up by it (the latest result of its kind)."""
    record = {"kind": kind, "data": data_key, "models": [spec.to_json() for spec in models],
              "environment": environment_record(), "job_format": JOB_FORMAT}
    if splits is not None:
        record["splits"] = split_records(splits, config)
        record["random_state"] = config.random_state
    return hashlib.sha256(canonical_json(record).encode()).hexdigest()


def job_key(setup: str, settings) -> str:
    """The key of one job: its :func:`setup_key` and its settings (with calibration's
    inner folds)."""
    record = {"setup": setup, "settings": settings.to_json(), "inner_splits": INNER_SPLITS}
    return hashlib.sha256(canonical_json(record).encode()).hexdigest()


# ----------------------------------------------------------------------------- writing

def kind_of(result) -> str:
    """``"calibration"`` or ``"aloocv"``: the kind of a job's result."""
    if isinstance(result, CalibrationResult):
        return "calibration"
    if isinstance(result, AloocvResult):
        return "aloocv"
    raise TypeError(f"{type(result).__name__} is not a job's result")


def encode_result(result) -> tuple:
    """``(header JSON, data bytes, notes JSON)`` of a job's result: every table's columns
    (numbers as raw bytes, anything else as a JSON list of plain values) in one byte
    string the header describes. A value JSON cannot hold raises TypeError."""
    header, chunks = [], []
    for name in TABLES[kind_of(result)]:
        frame = getattr(result, name)
        columns = []
        for column in frame.columns:
            raw, entry = _column_bytes(frame[column])
            columns.append([str(column), *entry, len(raw)])
            chunks.append(raw)
        header.append([name, len(frame), columns])
    notes = [[note.code, str(note), dict(note.fields)] for note in result.notes]
    return (json.dumps(header), b"".join(chunks),
            json.dumps(notes, default=_plain, allow_nan=True))


def _column_bytes(column: pd.Series) -> tuple:
    """``(bytes, [how, dtype])`` of one column."""
    if column.dtype.kind in "biuf":
        values = np.ascontiguousarray(column.to_numpy())
        return values.tobytes(), ["numbers", values.dtype.str]
    cells = [_plain(value) for value in column.tolist()]
    return json.dumps(cells, allow_nan=True).encode(), ["json", ""]


def _plain(value):
    """A cell or note field as a plain JSON value (NumPy scalars as Python's)."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, _JSON_TYPES):
        return value
    raise TypeError(f"{type(value).__name__} cannot be stored")


# ----------------------------------------------------------------------------- reading

def decode_result(kind: str, settings: str, header: str, data: bytes, notes: str):
    """The result of a stored job (:func:`encode_result`), every part checked.

    Raises
    ------
    ValueError
        What is wrong (an unknown kind, table, dtype or note code, sizes that do not
        match, an array larger than the memory allows ...), before it is allocated.
    """
    if kind not in TABLES:
        raise DetailError(f"its kind {str(kind)[:20]!r} is not a job of this app")
    entries = json.loads(header)
    if not isinstance(entries, list) or [e[0] if isinstance(e, list) and e else None
                                         for e in entries] != list(TABLES[kind]):
        raise DetailError(f"its tables are not those of a {kind} result")
    tables, offset = {}, 0
    for name, n_rows, columns in entries:
        tables[name], offset = _frame(n_rows, columns, data, offset)
    if offset != len(data):
        raise DetailError("its bytes are more than its tables hold")
    parsed = decode_settings(kind, settings)
    read_notes = _notes(notes)
    if kind == "calibration":
        return CalibrationResult(**tables, notes=read_notes)
    return AloocvResult(**tables, notes=read_notes, settings=parsed)


def decode_settings(kind: str, text: str):
    """The stored settings of a job (their own checks apply)."""
    cls, names = SETTINGS[kind]
    values = json.loads(text)
    if not isinstance(values, dict) or set(values) != set(names):
        raise DetailError("its settings are not this app's")
    if "methods" in values:
        if not isinstance(values["methods"], list) or len(values["methods"]) > 2:
            raise DetailError("its calibration methods are not a short list")
        values["methods"] = tuple(values["methods"])
    return cls(**values)


def _frame(n_rows, columns, data: bytes, offset: int) -> tuple:
    """One stored table and the offset after its bytes."""
    if not isinstance(n_rows, int) or n_rows < 0 or not isinstance(columns, list) \
            or len(columns) > MAX_COLUMNS:
        raise DetailError("a table's rows or columns are not counts")
    frame = {}
    for entry in columns:
        if not (isinstance(entry, list) and len(entry) == 4):
            raise DetailError("a column is not described as name, kind, dtype and size")
        name, how, dtype, size = entry
        if not isinstance(name, str) or len(name) > MAX_NAME or name in frame:
            raise DetailError("a column's name is not a short text of its own")
        if not isinstance(size, int) or not 0 <= size <= len(data) - offset:
            raise DetailError(f"the column {name[:40]!r} claims more bytes than are stored")
        frame[name] = _column(how, dtype, n_rows, data[offset:offset + size], name)
        offset += size
    return pd.DataFrame(frame, columns=list(frame)), offset


def _column(how, dtype, n_rows: int, raw: bytes, name: str):
    """One stored column, its size checked before it is built."""
    if how == "numbers":
        dtype = plain_dtype(dtype)
        if n_rows * dtype.itemsize != len(raw):
            raise DetailError(f"the column {name[:40]!r} is not {n_rows} numbers")
        check_room(len(raw))
        return np.frombuffer(bytearray(raw), dtype=dtype)
    if how != "json":
        raise DetailError(f"the column {name[:40]!r} is of an unknown kind")
    check_room(len(raw) * TEXT_GROWTH)
    values = json.loads(raw)
    if not isinstance(values, list) or len(values) != n_rows or \
            not all(isinstance(v, _JSON_TYPES) for v in values):
        raise DetailError(f"the column {name[:40]!r} is not {n_rows} plain values")
    return pd.Series(values, dtype=object).to_numpy()


def _notes(text: str) -> tuple:
    """Stored notes: known codes, a text, plain fields."""
    values = json.loads(text)
    if not isinstance(values, list) or len(values) > MAX_NOTES:
        raise DetailError("its notes are not a list")
    notes = []
    for value in values:
        if not (isinstance(value, list) and len(value) == 3):
            raise DetailError("a note is not code, text and fields")
        code, message, fields = value
        if code not in NOTE_CODES or not isinstance(message, str) or \
                len(message) > MAX_TEXT or not isinstance(fields, dict):
            raise DetailError("a note is not one of this app's")
        notes.append(Note(code, message, fields))
    return tuple(notes)


def settings_text(settings) -> str:
    """The settings as stored (their JSON)."""
    return json.dumps(settings.to_json())

