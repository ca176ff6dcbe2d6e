"""A fit as a row of the result store, without pickle (:mod:`engine.runs.store`).

:func:`encode_fit` turns any fit dataclass into its plain fields as JSON (tuples, dicts,
NumPy arrays and scalars tagged, floats written exactly) and its array fields as raw bytes
with their dtype and shape; :func:`decode_fit` turns a row back into an
:class:`engine.evaluation.cv.FoldFit`. Reading a row never runs code and never builds an array of
objects.
"""
from __future__ import annotations

import dataclasses
import json

import numpy as np

from engine.evaluation.cv import FoldFit


#: JSON of the plain fields (NaN and infinities allowed, as Python's json writes them).
_ENCODER = json.JSONEncoder(allow_nan=True)
_FIELD_NAMES: dict = {}


def _field_names(cls) -> tuple:
    """The field names of a dataclass, looked up once per class."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(item.name for item in dataclasses.fields(cls))
    return names


def encode_fit(fit) -> tuple:
    """``(fields JSON, [(name, dtype, shape, bytes)])`` of a fit dataclass, field by field
    (``dataclasses.fields``); arrays of objects and values JSON cannot hold raise
    TypeError."""
    fields, arrays = {}, []
    for name in _field_names(type(fit)):
        value = getattr(fit, name)
        if isinstance(value, np.ndarray):
            if value.dtype.hasobject:
                raise TypeError(f"{name}: an array of objects")
            arrays.append((name, value.dtype.str, list(value.shape),
                           np.ascontiguousarray(value).tobytes()))
        else:
            fields[name] = _tagged(value)
    return _ENCODER.encode(fields), arrays


def _tagged(value):
    """JSON-able form that keeps tuples, dicts and arrays apart from lists (a NumPy float
    comes back as a Python float, equal in value)."""
    if value is None or isinstance(value, (float, str)):   # np.float64 is a float
        return value
    if isinstance(value, tuple):
        return {"$tuple": [_tagged(v) for v in value]}
    if isinstance(value, list):
        return [_tagged(v) for v in value]
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise TypeError("a dict with keys that are not text")
        return {"$dict": {k: _tagged(v) for k, v in value.items()}}
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            raise TypeError("an array of objects")
        return {"$array": value.tolist(), "dtype": value.dtype.str}
    if isinstance(value, np.generic):
        return {"$scalar": value.item(), "dtype": value.dtype.str}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"{type(value).__name__} cannot be stored")


def _untagged(value):
    if isinstance(value, list):
        return [_untagged(v) for v in value]
    if isinstance(value, dict):
        if "$tuple" in value:
            return tuple(_untagged(v) for v in value["$tuple"])
        if "$dict" in value:
            return {k: _untagged(v) for k, v in value["$dict"].items()}
        if "$array" in value:
            return np.array(value["$array"], dtype=np.dtype(value["dtype"]))
        if "$scalar" in value:
            return np.dtype(value["dtype"]).type(value["$scalar"])
    return value


def _arrays(header: str, data: bytes) -> dict:
    """The arrays of a stored fit: ``header`` lists name, dtype, shape and byte count of
    each, their bytes one after another in ``data``."""
    arrays, offset = {}, 0
    entries = json.loads(header)
    if not isinstance(entries, list):
        raise ValueError("its arrays' header is not a list")
    for name, dtype, shape, size in entries:
        dtype = np.dtype(dtype)
        if dtype.hasobject or not isinstance(size, int) or size < 0 or \
                not isinstance(shape, list) or not all(isinstance(n, int) and n >= 0
                                                       for n in shape):
            raise ValueError(f"its array {str(name)[:40]!r} is not a plain array")
        raw = bytearray(data[offset:offset + size])
        arrays[name] = np.frombuffer(raw, dtype=dtype).reshape(shape)
        offset += size
    return arrays


def decode_fit(text: str, header: str, data: bytes):
    """The :class:`engine.evaluation.cv.FoldFit` of a stored row: ``text`` its plain fields (JSON),
    ``header`` and ``data`` its arrays (:func:`encode_fit`); stored fields that ``FoldFit``
    no longer has are left out."""
    arrays = _arrays(header, data)
    fields = json.loads(text)
    if not isinstance(fields, dict):
        raise ValueError("its fields are not a JSON object")
    stored = {name: _untagged(value) for name, value in fields.items()}
    stored.update(arrays)
    names = {item.name for item in dataclasses.fields(FoldFit)}
    fit = FoldFit(**{name: value for name, value in stored.items() if name in names})
    check_fit(fit)
    return fit


_KINDS = (None, "proba", "decision", "labels")


def check_fit(fit) -> None:
    """Raise a ValueError naming the first field of a stored fit that holds what no fit
    holds (a score that is not a number, predictions of the wrong shape or type ...)."""
    def real(value) -> bool:
        return isinstance(value, (int, float, np.integer, np.floating)) \
            and not isinstance(value, (bool, np.bool_))

    if not isinstance(fit.scores, tuple) or not all(real(v) for v in fit.scores):
        raise ValueError("its scores are not numbers")
    if not real(fit.fit_seconds):
        raise ValueError("its fit time is not a number")
    if fit.kind not in _KINDS:
        raise ValueError("its kind of predictions is unknown")
    if fit.values is not None and not (isinstance(fit.values, np.ndarray)
                                       and fit.values.ndim == 2
                                       and fit.values.dtype.kind in "fiu"):
        raise ValueError("its predicted values are not a table of numbers")
    if fit.labels is not None and not (isinstance(fit.labels, np.ndarray)
                                       and fit.labels.ndim == 1
                                       and fit.labels.dtype.kind in "iu"):
        raise ValueError("its predicted labels are not class codes")
    if fit.error is not None and not isinstance(fit.error, str):
        raise ValueError("its error is not text")
    for name in ("errors", "warnings"):
        value = getattr(fit, name)
        if not isinstance(value, tuple) or not all(isinstance(v, str) for v in value):
            raise ValueError(f"its {name} are not texts")
    if not isinstance(fit.details, dict):
        raise ValueError("its details are not a mapping")
