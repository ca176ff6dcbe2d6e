"""Reading a model file from someone else: bounded, checked, nothing built before.

:func:`read_archive` refuses, each with a coded error (:mod:`engine.foundation.errors`),
anything but a regular file (a named pipe would block forever, a device never ends), a
file or an unpacked archive larger than its limit or than the memory available, members
the app does not write (only ``schema.json`` and numbered ``.npy`` arrays, stored
uncompressed as :func:`skops.io.dumps` stores them, so nothing unpacks to more than the
file holds), a ``schema.json`` that is not JSON, any node not on the exact
list of :mod:`engine.runs.heldout.model_types`, and arrays whose header declares more
values than the member holds or Python objects.  Only then are the bytes handed to skops,
trusting exactly the checked types.  Qt-free.
"""
from __future__ import annotations

import io
import json
import math
import os
import re
import stat
import zipfile

from engine.foundation.errors import EngineError
from engine.foundation.machine import available_memory, format_bytes
from engine.input.file_checks import check_regular_file
from engine.runs.heldout.model_types import refused_types, trusted_names

#: Largest model file on disk (bytes).
MAX_FILE_BYTES = 2 * 1024 ** 3
#: Largest sum of the unpacked members (bytes).
MAX_UNPACKED_BYTES = 4 * 1024 ** 3
#: Largest ``schema.json`` (bytes); the app's largest models write a few MB.
MAX_SCHEMA_BYTES = 64 * 1024 ** 2
#: Most members in the archive.
MAX_MEMBERS = 500_000
#: Largest list of members (the zip's central directory, bytes): read into about 11 times
#: its size of Python objects (measured) before any member can be counted.
MAX_DIRECTORY_BYTES = 64 * 1024 ** 2
DIRECTORY_COPIES = 12
#: Times the unpacked arrays are held while loading (member bytes, then the array).
ARRAY_COPIES = 2
#: Bytes of Python objects per byte of parsed ``schema.json`` (measured about 6; doubled
#: for the node tree skops builds from it).
SCHEMA_COPIES = 12
#: Largest header of an ``.npy`` member (bytes).
MAX_NPY_HEADER = 10_000
_MEMBER = re.compile(r"[0-9]{1,40}\.npy")


def foreign(path: str, detail: str) -> EngineError:
    """The ``model_foreign`` error: not a model file this app saved."""
    return EngineError("model_foreign", {"path": path, "detail": detail},
                       f"{path} is not a model file saved by honest-eval ({detail})")


def read_archive(path: str, *, available=None) -> tuple:
    """The bytes of a checked model file and the names skops may trust.

    Parameters
    ----------
    path : str
    available : int, optional
        Bytes of memory available (measured when not given).

    Returns
    -------
    (bytes, list of str)

    Raises
    ------
    EngineError
        ``model_unreadable``, ``model_too_large``, ``model_foreign`` or
        ``model_untrusted``.
    """
    available = available_memory() if available is None else available
    data = _read_bytes(path, available)
    _check_directory(path, data, available)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError, EOFError) as exc:
        raise foreign(path, f"not a zip archive: {type(exc).__name__}") from None
    with archive:
        infos = _checked_members(path, archive, available)
        schema = _schema(path, archive, infos["schema.json"], available)
        refused = refused_types(schema)
        if refused:
            raise EngineError("model_untrusted", {"path": path, "types": refused[:20]},
                              f"the model file {path} names {len(refused)} type(s) or "
                              f"function(s) the app does not write ({', '.join(refused[:3])}"
                              "); it is not loaded, because loading it could run code: use "
                              "model files saved by honest-eval")
        for name, info in infos.items():
            if name != "schema.json":
                _check_npy(path, archive, info)
    return data, trusted_names(schema)


def _unreadable(path: str, detail: str) -> EngineError:
    return EngineError("model_unreadable", {"path": path, "detail": detail},
                       f"cannot read the model file {path}: {detail}")


def _too_large(path: str, what: str, size: int, limit: int, why: str) -> EngineError:
    return EngineError("model_too_large", {"path": path, "size": int(size), "limit": int(limit)},
                       f"the model file {path} is refused: {what} is {format_bytes(size)}, "
                       f"more than {why} ({format_bytes(limit)})")


def _read_bytes(path: str, available) -> bytes:
    """The whole file, refused unless a regular file within the limits (opened without
    blocking and checked again once open, so a pipe put in its place is not read)."""
    try:
        size = check_regular_file(path, what="a model file (model_NAME.skops)")
    except ValueError as exc:
        raise _unreadable(path, str(exc).removeprefix(f"cannot open {path}: ")) from None
    _check_size(path, "the file", size, available, 1)
    try:
        # getattr: os: POSIX only
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise _unreadable(path, exc.strerror or str(exc)) from None
    with os.fdopen(handle, "rb") as stream:
        info = os.fstat(stream.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise _unreadable(path, "it is not a regular file")
        _check_size(path, "the file", info.st_size, available, 1)
        try:
            return stream.read(min(info.st_size, MAX_FILE_BYTES) + 1)
        except OSError as exc:
            raise _unreadable(path, exc.strerror or str(exc)) from None


def _check_size(path: str, what: str, size: int, available, copies: int,
                limit: int = MAX_FILE_BYTES) -> None:
    if size > limit:
        raise _too_large(path, what, size, limit, "the limit for a model file")
    if available is not None and size * copies > available:
        raise _too_large(path, what + (f" (held {copies} times)" if copies > 1 else ""),
                         size * copies, available, "the memory available")


def _check_directory(path: str, data: bytes, available) -> None:
    """The zip's list of members is bounded before :mod:`zipfile` reads it whole."""
    try:
        # zipfile's own end-record reader: private, so typeshed does not declare it
        end = zipfile._EndRecData(io.BytesIO(data))  # type: ignore[attr-defined]
    except (OSError, ValueError, EOFError):
        end = None
    if not end:
        raise foreign(path, "not a zip archive")
    size = end[zipfile._ECD_SIZE]  # type: ignore[attr-defined]  # private, as above
    _check_size(path, "its list of members", size, available,
                DIRECTORY_COPIES, MAX_DIRECTORY_BYTES)


def _checked_members(path: str, archive, available) -> dict:
    """``{name: ZipInfo}``: only skops' members, each bounded, their sum bounded."""
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise foreign(path, f"{len(infos):,} members")
    members = {}
    for info in infos:
        name = info.filename
        if name in members or not (name == "schema.json" or _MEMBER.fullmatch(name)):
            raise foreign(path, f"unexpected member {name[:80]!r}")
        if info.flag_bits & 0x1 or info.compress_type != zipfile.ZIP_STORED:
            raise foreign(path, f"member {name[:80]!r} is compressed or encrypted, and the "
                                "app stores its members uncompressed")
        members[name] = info
    if "schema.json" not in members:
        raise foreign(path, "no schema.json")
    total = sum(info.file_size for info in infos)
    _check_size(path, "what it unpacks to", total, available, ARRAY_COPIES, MAX_UNPACKED_BYTES)
    return members


def _schema(path: str, archive, info, available) -> dict:
    """``schema.json`` parsed, its size bounded before it is read."""
    _check_size(path, "its schema.json", info.file_size, available, SCHEMA_COPIES,
                MAX_SCHEMA_BYTES)
    try:
        with archive.open(info) as stream:
            raw = stream.read(MAX_SCHEMA_BYTES + 1)
        schema = json.loads(raw)
    except (ValueError, RecursionError, zipfile.BadZipFile, OSError, EOFError) as exc:
        raise foreign(path, f"schema.json cannot be read: {type(exc).__name__}") from None
    if not isinstance(schema, dict):
        raise foreign(path, "schema.json is not an object")
    return schema


def _check_npy(path: str, archive, info) -> None:
    """An ``.npy`` member holds exactly the values its header declares, none of them a
    Python object (checked before numpy allocates the array)."""
    from numpy.lib import format as npy

    try:
        with archive.open(info) as stream:
            version = npy.read_magic(stream)
            reader = npy.read_array_header_1_0 if version == (1, 0) else \
                npy.read_array_header_2_0
            shape, _, dtype = reader(stream, max_header_size=MAX_NPY_HEADER)
            offset = stream.tell()
    except (ValueError, TypeError, SyntaxError, zipfile.BadZipFile, OSError, EOFError) as exc:
        raise foreign(path, f"array {info.filename} is malformed: "
                            f"{type(exc).__name__}") from None
    if dtype.hasobject:
        raise foreign(path, f"array {info.filename} holds Python objects")
    if offset + math.prod(shape) * dtype.itemsize != info.file_size:
        raise foreign(path, f"array {info.filename} declares {math.prod(shape):,} values its "
                            "member does not hold")
