"""File checks: what is refused before a file is opened or a data set is generated.

:func:`check_regular_file` (FIFOs, devices, folders and the kernel's ``/proc`` and
``/sys`` files are not read),
:func:`check_file_fits` and :func:`check_values_fit` (a table larger than the available
memory, counted before the reader allocates it), :func:`check_experiment_file` (a regular
file of modest size) and :func:`check_builtin_request` (generated data sets, before
generating).  The bottom of the input layer: the readers (:mod:`engine.input.data`,
:mod:`engine.input.arff`, :mod:`engine.input.excel`) and the result store build on it.
"""
from __future__ import annotations

import math
import os
import stat
from typing import Optional

from engine.foundation.errors import EngineError
from engine.foundation.machine import (BYTES_PER_VALUE, available_memory, whole_number)

#: A generated data set is held about this many times while it is generated.
GENERATION_COPIES = 4
#: Largest experiment file (bytes): a few KB of JSON is usual.
MAX_EXPERIMENT_BYTES = 20_000_000


#: File systems of the kernel's own files: their "regular" files have no size and
#: their reads can block or never end (``/proc/kmsg``, ``/sys/kernel/...``).
SYSTEM_ROOTS = ("/proc", "/sys")

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def check_regular_file(path: str, *, what: str = "a CSV file") -> int:
    """Refuse, before opening it, anything but a regular file (a FIFO would block forever,
    ``/dev/zero`` never ends).

    Parameters
    ----------
    path : str
    what : str
        What the file should be, for the message (``"a CSV file"``).

    Returns
    -------
    int
        The file's size in bytes.

    Raises
    ------
    ValueError
        The file does not exist, is a folder, pipe, device or socket, is one of the
        kernel's files (:func:`system_root`), or cannot be opened for reading
        (permissions).
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise EngineError("file_missing", {"path": str(path)}) from None
    except OSError as exc:
        raise EngineError("file_unopenable", {"path": str(path),
                                              "detail": str(exc.strerror or exc)}) from None
    if not stat.S_ISREG(info.st_mode):
        kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a regular file")
        raise EngineError("file_not_regular", {"path": str(path), "kind": kind, "what": what})
    root = system_root(path, info)
    if root is not None:
        raise EngineError("file_of_system", {"path": str(path), "root": root, "what": what})
    try:
        os.close(os.open(path, os.O_RDONLY))          # a regular file: opening cannot block
    except OSError as exc:
        raise EngineError("file_unreadable", {"path": str(path),
                                              "detail": str(exc.strerror or exc)}) from None
    return info.st_size


def system_root(path: str, info: os.stat_result) -> Optional[str]:
    """The kernel file system (:data:`SYSTEM_ROOTS`) that holds ``path``, or None: by
    its real path, or by its device (a link or a bind mount elsewhere)."""
    real = os.path.realpath(path)
    for root in SYSTEM_ROOTS:
        if real == root or real.startswith(root + os.sep):
            return root
        try:      # by device only where it is mounted (not a plain folder of "/")
            if os.path.ismount(root) and os.stat(root).st_dev == info.st_dev:
                return root
        except OSError:
            continue
    return None


def check_file_fits(path: str, size: int, *, available: Optional[int] = None) -> None:
    """Refuse a CSV file larger than the available memory (its table is larger still)."""
    available = available_memory() if available is None else available
    if available is not None and size > available:
        raise EngineError("file_memory", {"path": str(path), "size": size,
                                          "available": available})


def check_values_fit(path: str, n_values: float, copies: int, advice: str,
                     *, available: Optional[int] = None, how: str = "") -> None:
    """Refuse a data file whose table, ``n_values`` values of 8 bytes held ``copies``
    times while it is read, would not fit in the available memory -- what the reader
    will allocate, counted before it reads (the file's size can be far smaller: a sparse
    ARFF file, a padded sheet).

    Parameters
    ----------
    path : str
    n_values : float
        Values the table will hold (rows x columns, estimated or declared).
    copies : int
        Times the reader holds them at its peak.
    advice : str
        What to change, for the message.
    available : int, optional
        Bytes available (measured when not given).
    how : str
        Where the count comes from, for the message (``"200,001 attributes x 20,000
        rows"``).

    Raises
    ------
    ValueError
    """
    available = available_memory() if available is None else available
    need = int(n_values) * BYTES_PER_VALUE * copies
    if available is None or need <= available:
        return
    raise EngineError("table_memory", {"path": str(path), "n_values": int(n_values),
                                       "how": how, "need": need, "copies": copies,
                                       "available": available, "advice": advice})


def check_experiment_file(path: str) -> None:
    """Check an experiment file before it is read: a regular file of modest size.  (Its
    models are counted, grids unexpanded, by the parser: :func:`engine.evaluation.catalogue.count_models`.)

    Raises
    ------
    ValueError
        What is wrong, in one line.
    """
    size = check_regular_file(path, what="an experiment file")
    if size > MAX_EXPERIMENT_BYTES:
        raise EngineError("experiment_file_size", {"path": str(path), "size": size})


# ----------------------------------------------------------------------------- built-ins

def check_builtin_request(name: str, options: dict, *, available: Optional[int] = None) -> None:
    """Refuse a generated data set too large for memory, before generating it.

    Parameters
    ----------
    name : str
        ``moons``, ``circles`` or ``classification`` (others are fixed and small).
    options : dict
        The generator's options (``n_samples``, ``n_features``, ...), defaults filled in.
    available : int, optional
        Bytes available (measured when not given).

    Raises
    ------
    ValueError
        Saying how much memory it would take, how much is available and what to lower.
    """
    rows, columns = _builtin_shape(name, options)
    if rows is None or columns is None:
        return                               # not numbers: the generator says what is wrong
    available = available_memory() if available is None else available
    need = rows * columns * BYTES_PER_VALUE
    if available is None or need * GENERATION_COPIES <= available:
        return
    knob = "n_samples" if name != "classification" or rows >= columns else "n_features"
    most = available / (GENERATION_COPIES * BYTES_PER_VALUE * (columns if knob == "n_samples"
                                                                else rows))
    raise EngineError("builtin_memory", {
        "name": name, "rows": rows, "columns": columns, "need": need,
        "copies": GENERATION_COPIES, "available": available, "knob": knob,
        "most": _round_down(most)})


def _builtin_shape(name: str, options: dict) -> tuple:
    samples = options.get("n_samples")
    rows: Optional[float]
    if isinstance(samples, (list, tuple)) and samples:
        parts = [whole_number(s) for s in samples]
        rows = None if None in parts else sum(p for p in parts if p is not None)
    else:
        rows = whole_number(samples)
    if name in ("moons", "circles"):
        return rows, 2.0
    if name == "classification":
        return rows, whole_number(options.get("n_features"))
    return None, None


def _round_down(value: float) -> int:
    """Down to two significant digits (367,123 -> 360,000)."""
    if value < 100:
        return max(0, int(value))
    scale = 10 ** (int(math.log10(value)) - 1)
    return int(value // scale * scale)

