"""One run, one consistent result folder.

:func:`write_result_folder` writes a run's tables, ``notes.txt`` and the manifest
``run.json`` (which lists them) into a folder, replacing the previous run's set.

How, and what is guaranteed
---------------------------
1. Everything is written into a fresh ``.staging-*`` folder inside the target folder,
   each file flushed to disk.  The folder itself is not touched yet.
2. The staging folder's ``run.json`` is written (atomically) last.  This is the commit
   point: it lists the new tables and the previous tables to remove.
3. Roll forward: the folder's old ``run.json`` is removed, the new files are renamed
   into place, the previous run's other tables are removed, and the new ``run.json`` is
   renamed into place last; the staging folder is deleted.  Every step can be repeated.

Stopped before the commit point (error, Ctrl-C, kill, power loss), the folder still holds
the previous run's complete set untouched, plus a ``.staging-*`` folder that the next
write deletes.  Stopped by an exception after it, the writer finishes step 3 before
passing the exception on.  Killed during step 3 (a window of a few renames), the folder
holds no ``run.json`` and a ``.staging-*`` folder with one: :func:`recover_folder`,
which every write runs first, then completes the new set.  So, once recovered, the
folder holds exactly one complete set: every table its ``run.json`` lists, from that
run, and no other result table.  Without recovery, the folder is at every instant
either such a set or, while a write is unfinished or was killed in step 3, without a
``run.json``.  (A reader racing a live writer can still read tables of two runs: read
``run.json`` before and after the tables and compare.)

Only names a run of this app writes are ever removed: the tables listed by the previous
``run.json`` (one written by this app) and :data:`KNOWN_TABLES`; other files stay.
The commit and roll forward of writers in one folder are serialised by advisory locks
(``flock``) on Linux and macOS, which also tell a live writer's ``.staging-*`` folders
and ``.tmp-*`` files from those of killed runs.  Windows has no such locks: there, writing into one folder from two
processes at once is not supported, and every ``.staging-*`` and ``.tmp-*`` entry is
taken as left by a killed run.
"""
from __future__ import annotations

import contextlib
import json
import os
import platform
import shutil
import tempfile
from datetime import datetime
from importlib import metadata
from typing import Optional

from .tables import fsync_folder, try_lock, visible, write_csv, write_text

MANIFEST, NOTES, REPORT = "run.json", "notes.txt", "report.md"
WRITTEN_BY = "honest-eval"
#: Every table a run can write (``tables()`` of engine.analysis, engine.aloocv,
#: engine.calibration and, with several data sets, engine.across) and the across report;
#: removed when a new run does not write it.
KNOWN_TABLES = frozenset({
    "fold_scores.csv", "summary.csv", "correlation.csv", "pairwise.csv",
    "credible_intervals.csv", "failures.csv", "aloocv_curve.csv", "aloocv_optimum.csv",
    "calibration_curve.csv", "calibration_scores.csv", "calibration_map.csv",
    "confusion.csv", "per_class.csv", "dataset_scores.csv", "ranks.csv", "friedman.csv",
    "nemenyi.csv", "wilcoxon.csv", "signed_rank.csv", "grouping_gap.csv", "tuning.csv",
    "thresholds.csv", "tuning_optimism.csv", REPORT})
STAGING_PREFIX, TEMPORARY_PREFIX = ".staging-", ".tmp-"
_INDEXED = ("correlation.csv",)


def write_result_folder(tables: dict, folder: str, manifest: dict, notes: list,
                        texts: Optional[dict] = None, csv_style: str = "standard") -> list:
    """Write one run's result set into ``folder`` (created), replacing the previous set.

    Parameters
    ----------
    tables : dict
        ``{file name: DataFrame}``; plain ``.csv`` file names.
    folder : str
    manifest : dict
        What to record about the run (JSON-serialisable); ``run.json`` holds it plus
        ``tables`` (the file names written), ``removed`` (the previous run's tables
        removed), ``written`` (ISO time), ``versions`` and ``written_by``.
    notes : list of str
        Written to ``notes.txt``, one per line (control characters written out), when
        not empty.
    texts : dict, optional
        ``{file name: text}``: other text files of the run (``report.md``), written as
        they are apart from invisible characters, written out line by line (the text's
        own markup is its writer's job); plain ``.md`` file names.
    csv_style : str
        The tables' CSV style (:data:`engine.tables.CSV_STYLES`); ``run.json`` records
        it. The headless runner writes the standard one.

    Returns
    -------
    list of str
        The paths written: the tables, the texts, ``notes.txt`` if any, then
        ``run.json``.

    Raises
    ------
    ValueError
        A table name that is not a plain ``.csv`` file name (a text's: ``.md``).
    OSError
        The folder cannot be written.  Unless the exception carries
        ``committed = True``, the folder is unchanged; with it, the new set is complete.
    """
    texts = dict(texts or {})
    for name in tables:
        _check_name(name)
    for name in texts:
        _check_name(name, ".md")
    folder = os.path.abspath(folder)
    os.makedirs(folder, exist_ok=True)
    files = [*tables, *texts, *([NOTES] if notes else [])]
    names = sorted(files)
    staging = tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=folder)
    staging_fd = _open(staging)
    committed = False
    try:
        try_lock(staging_fd)
        for name, frame in tables.items():
            write_csv(frame, os.path.join(staging, name), index=name in _INDEXED,
                      style=csv_style)
        for name, content in texts.items():
            content = "\n".join(visible(line) for line in content.split("\n"))
            write_text(os.path.join(staging, name), lambda stream, c=content: stream.write(c))
        if notes:
            text = "".join(visible(str(note)) + "\n" for note in notes)
            write_text(os.path.join(staging, NOTES), lambda stream: stream.write(text))
        with _folder_lock(folder):
            _recover(folder, own=staging)
            record = {**manifest, "tables": names, "removed": _to_remove(folder, names),
                      **({"csv_style": csv_style} if csv_style != "standard" else {}),
                      "written": datetime.now().astimezone().isoformat(timespec="seconds"),
                      "versions": versions(), "written_by": WRITTEN_BY}
            _write_json(os.path.join(staging, MANIFEST), record)
            fsync_folder(staging)
            committed = True
            try:
                roll_forward(folder, staging)
            except BaseException:
                roll_forward(folder, staging)  # finish the set, then pass the exception on
                raise
    except BaseException as exc:
        if not committed:
            shutil.rmtree(staging, ignore_errors=True)
        with contextlib.suppress(AttributeError, TypeError):
            exc.committed = committed
        raise
    finally:
        _close(staging_fd)
    return [os.path.join(folder, name) for name in [*files, MANIFEST]]


def recover_folder(folder: str) -> None:
    """Finish or undo what killed writers left in ``folder``.

    A ``.staging-*`` folder holding a ``run.json`` is rolled forward (its run becomes the
    folder's set); any other ``.staging-*`` folder and ``.tmp-*`` file not owned by a live
    writer is deleted.
    """
    folder = os.path.abspath(folder)
    if os.path.isdir(folder):
        with _folder_lock(folder):
            _recover(folder)


def read_manifest(folder: str):
    """The folder's ``run.json`` as a dict, or None when absent, unreadable or not this
    app's."""
    try:
        with open(os.path.join(folder, MANIFEST), encoding="utf-8") as stream:
            data = json.load(stream)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("written_by") != WRITTEN_BY:
        return None
    return data


def versions() -> dict:
    """Versions of Python, the numerical libraries and this app (None if unknown)."""
    found = {"python": platform.python_version()}
    for key, dist in (("numpy", "numpy"), ("scipy", "scipy"), ("sklearn", "scikit-learn"),
                      ("pandas", "pandas"), ("openpyxl", "openpyxl"),
                      ("imblearn", "imbalanced-learn"), ("app", "honest-eval")):
        try:
            found[key] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            found[key] = None
    return found


def probe_writable(folder: str) -> list:
    """Create ``folder`` (and missing parents) and check a file can be written there.

    Returns
    -------
    list of str
        The folders created, deepest first (for :func:`remove_created`).

    Raises
    ------
    OSError
        Why the folder cannot be created or written.
    """
    folder = os.path.abspath(folder)
    created, path = [], folder
    while not os.path.exists(path) and os.path.dirname(path) != path:
        created.append(path)
        path = os.path.dirname(path)
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise NotADirectoryError("it is a file, not a folder")
    os.makedirs(folder, exist_ok=True)
    try:
        handle, probe = tempfile.mkstemp(prefix=TEMPORARY_PREFIX, suffix=".probe", dir=folder)
        os.close(handle)
        os.unlink(probe)
    except BaseException:
        remove_created(created)
        raise
    return created


def remove_created(created: list) -> None:
    """Remove the folders :func:`probe_writable` created, if they are still empty."""
    for path in created:
        with contextlib.suppress(OSError):
            os.rmdir(path)


def _plain_file_name(name) -> bool:
    """A file name without folder parts that is not hidden."""
    return (isinstance(name, str) and not name.startswith(".") and "/" not in name
            and "\\" not in name and os.path.basename(name) == name)


def _check_name(name, suffix: str = ".csv") -> None:
    if not (_plain_file_name(name) and name.endswith(suffix)):
        what = "table name" if suffix == ".csv" else "file name"
        raise ValueError(f"not a plain {suffix} {what}: {name!r}")


def _removable(name) -> bool:
    return _plain_file_name(name) and (name in (NOTES, REPORT) or name.endswith(".csv"))


def _to_remove(folder: str, names: list) -> list:
    """The previous run's tables (listed or known) in ``folder`` that ``names`` lacks."""
    previous = read_manifest(folder) or {}
    listed = previous.get("tables")
    candidates = set(KNOWN_TABLES)
    if isinstance(listed, list):
        candidates |= {name for name in listed if _removable(name)}
    return sorted(n for n in candidates - set(names) if os.path.isfile(os.path.join(folder, n)))


def roll_forward(folder: str, staging: str) -> None:
    """Move a committed staging folder's set into ``folder``: step 3 of the module's
    protocol.  ``staging`` must hold its ``run.json``; repeatable after an interruption.
    The caller holds the folder's lock."""
    with open(os.path.join(staging, MANIFEST), encoding="utf-8") as stream:
        record = json.load(stream)
    _unlink(os.path.join(folder, MANIFEST))
    for name in record["tables"]:
        source = os.path.join(staging, name)
        if os.path.exists(source):
            os.replace(source, os.path.join(folder, name))
    for name in record.get("removed", []):
        if _removable(name) and name not in record["tables"]:
            _unlink(os.path.join(folder, name))
    fsync_folder(folder)
    os.replace(os.path.join(staging, MANIFEST), os.path.join(folder, MANIFEST))
    fsync_folder(folder)
    shutil.rmtree(staging, ignore_errors=True)


def _recover(folder: str, own: str = "") -> None:
    """:func:`recover_folder`'s work; the caller holds the folder's lock.  ``own`` is the
    caller's staging folder (left alone)."""
    committed = []
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.path == own:
            continue
        if entry.name.startswith(STAGING_PREFIX) and entry.is_dir(follow_symlinks=False):
            fd = _open(entry.path)
            if fd is not None and not try_lock(fd):
                _close(fd)                                  # a live writer's
                continue
            if os.path.exists(os.path.join(entry.path, MANIFEST)):
                committed.append((entry.stat().st_mtime_ns, entry.path, fd))
            else:
                shutil.rmtree(entry.path, ignore_errors=True)
                _close(fd)
        elif entry.name.startswith(TEMPORARY_PREFIX) and entry.is_file(follow_symlinks=False):
            with contextlib.suppress(OSError):
                fd = os.open(entry.path, os.O_RDONLY)
                try:
                    if try_lock(fd):
                        os.unlink(entry.path)
                finally:
                    os.close(fd)
    for _, path, fd in sorted(committed, key=lambda item: item[:2]):
        try:
            roll_forward(folder, path)
        finally:
            _close(fd)


@contextlib.contextmanager
def _folder_lock(folder: str):
    fd = _open(folder)
    try:
        if fd is not None:
            try_lock(fd, wait=True)
        yield
    finally:
        _close(fd)


def _open(path: str):
    """A read-only descriptor of a folder (to lock it), or None where folders cannot be
    opened (Windows)."""
    try:
        return os.open(path, os.O_RDONLY)
    except OSError:
        return None


def _close(fd) -> None:
    if fd is not None:
        os.close(fd)


def _unlink(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def _write_json(path: str, data: dict) -> None:
    text = json.dumps(data, indent=2, default=str) + "\n"
    write_text(path, lambda stream: stream.write(text))
