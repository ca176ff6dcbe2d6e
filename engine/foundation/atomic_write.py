"""The one atomic write: a file whole or not at all, whatever stops the writer.

A file is written to a temporary name (``.honest-eval-tmp-*``) in its own folder, the
temporary file is flushed to disk, given the permissions of the user's umask and renamed
over the target, and the folder's entry is flushed too.  On any failure (an exception, a
full disk, an interrupt) the temporary file is removed and the old file, if any, is left
as it was.  The result folder's tables, its kept models, the app's experiment save and
the app's copy of a result store all go through this module.
"""
from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator

try:                                      # advisory locks mark files a live writer owns
    import fcntl
except ImportError:                       # Windows: no locks (see engine.output.result_folder)
    fcntl = None  # type: ignore[assignment]  # the module or None, tested before each use

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


def try_lock(fd: int, *, wait: bool = False) -> bool:
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


def _temporary_beside(path: str) -> tuple[int, str, str]:
    """An open temporary file in ``path``'s folder (made if missing): handle, name, folder."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    suffix = os.path.splitext(path)[1]
    handle, temporary = tempfile.mkstemp(prefix=TEMPORARY_PREFIX, suffix=suffix, dir=folder)
    return handle, temporary, folder


def _set_mode(handle: int, temporary: str) -> None:
    with contextlib.suppress(OSError):
        if hasattr(os, "fchmod"):
            os.fchmod(handle, FILE_MODE)
        else:
            os.chmod(temporary, FILE_MODE)


def _commit(temporary: str, path: str, folder: str) -> None:
    """Rename the flushed ``temporary`` over ``path`` and flush the folder's entry."""
    os.replace(temporary, path)
    fsync_folder(folder)


def write_atomically(path: str, write: Callable) -> str:
    """Write a file atomically: ``write(stream)`` fills a locked temporary text file (UTF-8,
    newlines as written) in the same folder, which is flushed to disk, given
    :data:`FILE_MODE` and renamed to ``path``; the folder is flushed after the rename.

    Parameters
    ----------
    path : str
        The file to write (its folder is made if missing).
    write : callable
        Called once with the open text stream.

    Returns
    -------
    str
        The path written.

    Raises
    ------
    BaseException
        Whatever ``write`` or the file system raised; the temporary file is gone and the
        old file at ``path`` (if any) is untouched.
    """
    handle, temporary, folder = _temporary_beside(path)
    keep_open = fcntl is not None           # the lock lives until the rename (Windows
    try:                                    # cannot rename an open file: close first)
        try_lock(handle)
        with open(handle, "w", encoding="utf-8", newline="", closefd=not keep_open) as stream:
            write(stream)
            stream.flush()
            os.fsync(stream.fileno())
            _set_mode(handle, temporary)
        _commit(temporary, path, folder)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    finally:
        if keep_open:
            os.close(handle)
    return path


def write_bytes_atomically(path: str, data: bytes) -> str:
    """Write a binary file atomically, as :func:`write_atomically` writes a text file."""
    def write(stream):
        stream.flush()
        stream.buffer.write(data)
        stream.buffer.flush()

    return write_atomically(path, write)


@contextlib.contextmanager
def replaced_atomically(path: str) -> Iterator[str]:
    """For a writer that needs a file name (SQLite's backup): yields the name of an empty
    temporary file beside ``path``; when the block ends normally, the file is flushed,
    given :data:`FILE_MODE` and renamed to ``path`` as :func:`write_atomically` does.
    When the block raises, the temporary file is removed and ``path`` is untouched."""
    handle, temporary, folder = _temporary_beside(path)
    os.close(handle)
    try:
        yield temporary
        fd = os.open(temporary, os.O_RDWR)
        try:
            os.fsync(fd)
            _set_mode(fd, temporary)
        finally:
            os.close(fd)
        _commit(temporary, path, folder)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)            # gone already after the rename
