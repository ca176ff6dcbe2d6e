"""A fit as a row of the result store, without pickle (:mod:`engine.runs.store`).

:func:`encode_fit` turns any fit dataclass into its plain fields as JSON (tuples, dicts,
NumPy arrays and scalars tagged, floats written exactly) and its array fields as raw bytes
with their dtype and shape; :func:`decode_fit` turns a row back into an
:class:`engine.evaluation.cv.FoldFit`. Reading a row never runs code and never builds an array of
objects: every stored dtype is a plain one (numbers, or short text in the plain fields)
of at most :data:`MAX_ITEM_BYTES` bytes an item, and an array is only built when its
bytes fit in the memory at hand (:func:`check_room`), so a crafted row of a few hundred
kilobytes cannot ask for gigabytes.
"""
from __future__ import annotations

import dataclasses
import json

import numpy as np

from engine.evaluation.cv import FoldFit
from engine.foundation.caller_errors import DetailError
from engine.foundation.machine import available_memory, format_bytes


#: JSON of the plain fields (NaN and infinities allowed, as Python's json writes them).
_ENCODER = json.JSONEncoder(allow_nan=True)
_FIELD_NAMES: dict = {}
#: The largest item of a stored array (a fit's arrays hold numbers; its plain fields may
#: hold NumPy text of a setting's value).
MAX_ITEM_BYTES = 1024
#: Kinds of NumPy dtypes stored: the arrays' (numbers) and the plain fields' (also text).
ARRAY_KINDS, FIELD_KINDS = "biuf", "biufUS"
#: The share of the memory at hand one stored array may take when read.
ROOM_SHARE = 4
_SMALL = 1024 ** 2                          # arrays this small are read without a look


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
            dtype = plain_dtype(value["dtype"], kinds=FIELD_KINDS)
            check_room(_leaves(value["$array"]) * dtype.itemsize)
            return np.array(value["$array"], dtype=dtype)
        if "$scalar" in value:
            return plain_dtype(value["dtype"], kinds=FIELD_KINDS).type(value["$scalar"])
    return value


def plain_dtype(text, *, kinds: str = ARRAY_KINDS) -> np.dtype:
    """The NumPy dtype ``text`` names when it is a plain one of ``kinds`` (no objects, no
    records, no sub-arrays) of at most :data:`MAX_ITEM_BYTES` an item; a ValueError
    otherwise (read before anything is allocated)."""
    if not isinstance(text, str) or len(text) > 16:
        # internal: the detail of the "store_damaged" error the store raises
        raise DetailError("a stored dtype is not a short text")
    dtype = np.dtype(text)
    if dtype.kind not in kinds or dtype.fields is not None or dtype.subdtype is not None:
        # internal: the detail of the "store_damaged" error the store raises
        raise DetailError(f"a stored array is of dtype {text!r}, which no fit holds")
    if dtype.itemsize > MAX_ITEM_BYTES:
        # internal: the detail of the "store_damaged" error the store raises
        raise DetailError(f"a stored array's items are of {format_bytes(dtype.itemsize)} "
                          f"each ({text!r}), more than a fit's {MAX_ITEM_BYTES} bytes")
    return dtype


def check_room(nbytes: int) -> None:
    """Raise a MemoryError when ``nbytes`` (an array about to be built, over a mebibyte)
    exceed a quarter (:data:`ROOM_SHARE`) of the memory at hand (:func:`available_memory`)."""
    if nbytes <= _SMALL:
        return
    room = available_memory()
    if room is not None and nbytes > room // ROOM_SHARE:
        raise MemoryError(f"a stored array would take {format_bytes(nbytes)}, more than "
                          f"the memory at hand allows ({format_bytes(room)} free)")


def _leaves(values) -> int:
    """How many numbers or texts a nested list holds (without recursion)."""
    count, todo = 0, [values]
    while todo:
        value = todo.pop()
        if isinstance(value, list):
            todo.extend(value)
        else:
            count += 1
    return count


def _arrays(header: str, data: bytes) -> dict:
    """The arrays of a stored fit: ``header`` lists name, dtype, shape and byte count of
    each, their bytes one after another in ``data``."""
    arrays, offset = {}, 0
    entries = json.loads(header)
    if not isinstance(entries, list):
        # internal: the detail of the "store_damaged" error the store raises
        raise DetailError("its arrays' header is not a list")
    for name, dtype, shape, size in entries:
        dtype = plain_dtype(dtype)
        if not isinstance(size, int) or not 0 <= size <= len(data) - offset or \
                not isinstance(shape, list) or not all(isinstance(n, int) and n >= 0
                                                       for n in shape) or \
                int(np.prod(shape, dtype=object)) * dtype.itemsize != size:
            # internal: the detail of the "store_damaged" error the store raises
            raise DetailError(f"its array {str(name)[:40]!r} is not a plain array")
        check_room(size)
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
        # internal: the detail of the "store_damaged" error the store raises
        raise DetailError("its fields are not a JSON object")
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
        # internal: the detail of the "store_damaged" error the store raises
        raise DetailError("its scores are not numbers")
    if not real(fit.fit_seconds):
        # internal: the detail of the "store_damaged" error the store raises
        raise DetailError("its fit time is not a number")
    if fit.kind not in _KINDS:
        # internal: the detail of the "store_damaged" error the store raises
        raise DetailError("its kind of predictions is unknown")
    if fit.values is not None and not (isinstance(fit.values, np.ndarray)
                                       and fit.values.ndim == 2
                                       and fit.values.dtype.kind in "fiu"):
        # internal: the detail of the "store_damaged" error the store raises
        raise DetailError("its predicted values are not a table of numbers")
    if fit.labels is not None and not (isinstance(fit.labels, np.ndarray)
                                       and fit.labels.ndim == 1
                                       and fit.labels.dtype.kind in "iu"):
        # internal: the detail of the "store_damaged" error the store raises
        raise DetailError("its predicted labels are not class codes")
    if fit.error is not None and not isinstance(fit.error, str):
        # internal: the detail of the "store_damaged" error the store raises
        raise DetailError("its error is not text")
    for name in ("errors", "warnings"):
        value = getattr(fit, name)
        if not isinstance(value, tuple) or not all(isinstance(v, str) for v in value):
            # internal: the detail of the "store_damaged" error the store raises
            raise DetailError(f"its {name} are not texts")
    if not isinstance(fit.details, dict):
        # internal: the detail of the "store_damaged" error the store raises
        raise DetailError("its details are not a mapping")
