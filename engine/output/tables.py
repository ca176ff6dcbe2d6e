"""Result tables as CSV: safe, well-formed cells, full precision, atomic writes.

Every text cell, column name and index label (each level of a two-level index too) goes
through :func:`safe_cell`: control
characters (C0 and DEL) are written out (``\\r``, ``\\n``, ``\\t``, ``\\x00`` ...), so no
cell can break a row, and a cell a spreadsheet would read as a formula gets a leading
``'``.  The headless runner, the GUI's exports and the clipboard all use this module.

A file is written to a temporary name (``.honest-eval-tmp-*``) in its folder, flushed to disk and
renamed into place, so a reader never sees half a table, whatever stops the writer.  The
file gets the permissions of the user's umask, like any file the user creates.  A result
folder as a whole is written by :mod:`engine.output.result_folder`.
"""
from __future__ import annotations

import contextlib
import os
import tempfile

import pandas as pd

try:                                      # advisory locks mark files a live writer owns
    import fcntl
except ImportError:                       # Windows: no locks (see engine.output.result_folder)
    fcntl = None

from engine.input.csv_values import visible

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: The start of every temporary file's name: the app's own, so that no user's file
#: (``.tmp-draft.txt``) is ever taken for one (:mod:`engine.output.folder_entries`).
TEMPORARY_PREFIX = ".honest-eval-tmp-"


def _read_umask() -> int:
    """The process umask, read without changing it where the system allows."""
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/self/status", encoding="ascii") as status:   # Linux >= 4.7
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    old = os.umask(0o022)                 # elsewhere: set and restore at once (import time)
    os.umask(old)
    return old


#: Permissions of every file written: what the user's umask allows.
FILE_MODE = 0o666 & ~_read_umask()


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def safe_cell(value):
    """A text cell made safe for a CSV file and a spreadsheet; other values unchanged.

    Control characters are written out (:func:`visible`), then the cell gets a leading
    ``'`` if it starts with ``=``, ``+``, ``-`` or ``@`` and is not a number.
    """
    if not isinstance(value, str):
        return value
    value = visible(value)
    if value.startswith(_FORMULA_START) and not _is_number(value):
        return "'" + value
    return value


def spreadsheet_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells, column names and index are safe (:func:`safe_cell`)."""
    out = frame.copy()
    for column in range(out.shape[1]):
        values = out.iloc[:, column]
        if not (pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values)):
            out.isetitem(column, values.map(safe_cell))
    out.columns = [safe_cell(str(c)) for c in out.columns]
    out.index = _safe_index(out.index)
    out.index.names = [safe_cell(str(n)) if n is not None else None for n in out.index.names]
    return out


def _safe_index(index: pd.Index) -> pd.Index:
    """``index`` with every label safe (:func:`safe_cell`), each level of a
    ``MultiIndex`` included."""
    if isinstance(index, pd.RangeIndex):
        return index
    if isinstance(index, pd.MultiIndex):
        return pd.MultiIndex.from_arrays(
            [index.get_level_values(i).map(safe_cell) for i in range(index.nlevels)],
            names=index.names)
    return index.map(safe_cell)


def csv_text(frame: pd.DataFrame, index: bool = False) -> str:
    """The table as CSV text (safe cells, full precision): for the clipboard."""
    return spreadsheet_safe(frame).to_csv(index=index, lineterminator="\n")


def try_lock(fd: int, wait: bool = False) -> bool:
    """Take an exclusive advisory lock on an open file or folder.

    Returns
    -------
    bool
        False when another open file holds it (``wait=False``); True otherwise, and
        on systems without ``fcntl`` (no locking there).
    """
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    return True


def fsync_folder(folder: str) -> None:
    """Flush a folder's entries (renames) to disk where the system allows it."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_text(path: str, write) -> str:
    """Write a file atomically: ``write(stream)`` fills a locked temporary file in the
    same folder, which is flushed to disk, given :data:`FILE_MODE` and renamed to ``path``.

    Returns
    -------
    str
        The path written.
    """
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    suffix = os.path.splitext(path)[1]
    handle, temporary = tempfile.mkstemp(prefix=TEMPORARY_PREFIX, suffix=suffix, dir=folder)
    keep_open = fcntl is not None           # the lock lives until the rename (Windows
    try:                                    # cannot rename an open file: close first)
        try_lock(handle)
        with open(handle, "w", encoding="utf-8", newline="", closefd=not keep_open) as stream:
            write(stream)
            stream.flush()
            os.fsync(stream.fileno())
            if hasattr(os, "fchmod"):
                with contextlib.suppress(OSError):
                    os.fchmod(handle, FILE_MODE)
        if not hasattr(os, "fchmod"):
            with contextlib.suppress(OSError):
                os.chmod(temporary, FILE_MODE)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    finally:
        if keep_open:
            os.close(handle)
    return path


def write_bytes(path: str, data: bytes) -> str:
    """Write a binary file atomically, as :func:`write_text` writes a text file."""
    def write(stream):
        stream.flush()
        stream.buffer.write(data)
        stream.buffer.flush()

    return write_text(path, write)


#: How a table's CSV file separates its columns and writes decimals: ``"standard"``
#: (comma, decimal point: what programs and the headless runner use) or ``"semicolon"``
#: (semicolon, decimal comma, and a byte-order mark so that the text is read as UTF-8:
#: what a spreadsheet set up for a language that writes 0,5 opens correctly).
CSV_STYLES = {"standard": {"sep": ",", "decimal": "."},
              "semicolon": {"sep": ";", "decimal": ","}}


def write_csv(frame: pd.DataFrame, path: str, index: bool = False,
              style: str = "standard") -> str:
    """Write one table atomically (safe cells, full precision, the user's permissions) in
    a CSV style of :data:`CSV_STYLES`.

    Returns
    -------
    str
        The path written.
    """
    options = CSV_STYLES[style]
    safe = spreadsheet_safe(frame)

    def write(stream) -> None:
        if style != "standard":
            stream.write("\ufeff")
        safe.to_csv(stream, index=index, lineterminator="\n", **options)

    return write_text(path, write)
