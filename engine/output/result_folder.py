"""One run, one consistent result folder.

:func:`write_result_folder` writes a run's tables, ``notes.txt`` and the manifest
``run.json`` (which lists them) into a folder, replacing the previous run's set.

Whose folder
------------
Only the app's own files are ever replaced or removed (:mod:`engine.output.folder_entries`).
A folder is written when it is new or empty, or holds the app's earlier results (its
valid ``run.json``) and no file the app did not write under a name the run writes; a
folder holding anything else (besides the app's staging and temporary entries and the
result store) is refused with :class:`~engine.output.folder_entries.FolderRefused`, naming those
entries: the headless runner exits 2, the app's Export offers a new folder inside it
(:func:`free_subfolder`). Every name in a manifest is checked against the app's table
names before use; nothing is ever written through a link (files are renamed into place,
which replaces a link, never its target).

How, and what is guaranteed
---------------------------
1. Everything is written into a fresh ``.honest-eval-staging-*`` folder inside the target
   folder, its marker file first, each file flushed to disk.  The folder itself is not
   touched yet.
2. The staging folder's ``run.json`` is written (atomically) last.  This is the commit
   point: it lists the new tables and the previous tables to remove.
3. Roll forward: the folder's ``run.json`` is replaced (atomically) by a *transition*
   manifest (``"rolling_forward"``: the staging folder's name; ``tables``: the previous
   and the new tables), the new files are renamed into place, the previous run's other
   tables are removed, and the new ``run.json`` replaces the transition manifest last;
   the staging folder is deleted.  Every step can be repeated.

Stopped before the commit point (error, Ctrl-C, kill, power loss), the folder still holds
the previous run's complete set untouched, plus a staging folder that the next write
deletes.  Stopped by an exception after it, the writer finishes step 3 before passing the
exception on.  Killed during step 3 (a window of a few renames), the folder holds a
transition manifest and a committed staging folder: :func:`recover_folder`, which every
write runs first, then completes the new set.  So, once recovered, the folder holds
exactly one complete set: every table its ``run.json`` lists, from that run, and no other
result table of the app.  (A reader racing a live writer can still read tables of two
runs: read ``run.json`` before and after the tables and compare; a transition manifest
says the set is being replaced.)

Recovery never makes a folder the app's: it runs only after the folder passed the
ownership check (:func:`engine.output.folder_entries.folder_refusal`: a folder without
the app's ``run.json`` holding anything else is refused before anything in it is touched),
and a committed staging folder is rolled forward only beside the transition manifest that
names it, and only over names that manifest lists (or that are absent).  A committed
staging folder beside a plain ``run.json`` of the app is stale (killed before step 3) and
deleted; one in a folder without the app's ``run.json`` is left alone and reported.

A staging folder or temporary file that is not exactly the app's (another name, no
marker, a manifest listing a path or a name the app never writes, entries the app never
writes) is left alone and reported (note ``result_folder_leftover``).  Nothing is ever
written through a link: files are renamed into place, which replaces a link or a hard
link, never its target.  The commit and roll forward of writers in one folder are
serialised by advisory locks (``flock``) on Linux and macOS, which also tell a live
writer's staging folders and temporary files from those of killed runs.  Windows has no
such locks: there, writing into one folder from two processes at once is not supported,
and every staging folder and temporary file of the app's names is taken as left by a
killed run.
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

from engine.foundation.caller_errors import CallerError
from engine.foundation.errors import EngineError
from engine.output.folder_entries import (KNOWN_TABLES, MANIFEST, MARKER_TEXT, NOTES, REPORT,
                                          STAGING_MARKER, STAGING_PREFIX, WRITABLE, WRITTEN_BY,
                                          FolderRefused, classify_staging, folder_refusal,
                                          is_staging_name, is_temporary_name, is_writable,
                                          leftover_note, read_manifest_file, shown_name)
from engine.output.tables import (TEMPORARY_PREFIX, fsync_folder, try_lock, visible, write_bytes,
                                  write_csv, write_text)

__all__ = ["KNOWN_TABLES", "MANIFEST", "NOTES", "REPORT", "WRITTEN_BY", "STAGING_PREFIX",
           "TEMPORARY_PREFIX", "FolderRefused", "write_result_folder", "recover_folder",
           "prepare_result_folder", "read_manifest", "free_subfolder", "versions",
           "probe_writable", "remove_created", "roll_forward"]
_INDEXED = ("correlation.csv",)
#: A new folder inside a refused one (the app's Export offers it): this name, then
#: ``-2``, ``-3`` ...
SUBFOLDER = "honest-eval-results"
#: The key of a transition manifest (step 3 of the module's protocol): the staging
#: folder being rolled forward.
ROLLING = "rolling_forward"


def write_result_folder(tables: dict, folder: str, manifest: dict, notes: list,
                        *, texts: Optional[dict] = None, csv_style: str = "standard",
                        own=(), files: Optional[dict] = None) -> list:
    """Write one run's result set into ``folder`` (created), replacing the previous set.

    Parameters
    ----------
    tables : dict
        ``{file name: DataFrame}``; file names of :data:`KNOWN_TABLES` ending ``.csv``.
    folder : str
    manifest : dict
        What to record about the run (JSON-serialisable); ``run.json`` holds it plus
        ``tables`` (the file names written), ``removed`` (the previous run's tables
        removed), ``written`` (ISO time), ``versions`` and ``written_by``.
    notes : list of str
        Written to ``notes.txt``, one per line (control characters written out), when
        not empty.
    texts : dict, optional
        ``{file name: text}``: other text files of the run (``report.md``,
        ``report.html``), written as they are apart from invisible characters, written
        out line by line (the text's own markup is its writer's job); file names of
        :data:`KNOWN_TABLES` ending ``.md`` or ``.html``.
    csv_style : str
        The tables' CSV style (:data:`engine.output.tables.CSV_STYLES`); ``run.json`` records
        it. The headless runner writes the standard one.
    own : iterable of str, optional
        Other file names of the run in the folder (a result store kept there under
        another name than ``store.sqlite``): not taken for files of someone else.
    files : dict, optional
        ``{file name: bytes}``: saved models (``model_NAME.skops``,
        :func:`engine.output.folder_entries.is_model_name`) and their warning
        (``models_README.txt``), written as they are.

    Returns
    -------
    list of str
        The paths written: the tables, the texts, ``notes.txt`` if any, then
        ``run.json``.

    Raises
    ------
    FolderRefused
        The folder holds files this app did not write (see the module's note); nothing
        was written.
    ValueError
        A table name that is not one of the app's tables (a text's: ``.md``, ``.html``).
    OSError
        The folder cannot be written.  Unless the exception carries
        ``committed = True``, the folder is unchanged; with it, the new set is complete.
    """
    texts, blobs = dict(texts or {}), dict(files or {})
    for name in tables:
        _check_name(name)
    for name in texts:
        _check_name(name, (".md", ".html"))
    for name in blobs:
        if not is_writable(name) or name in WRITABLE:
            # the app's own names: a bad one is a programming error, not the user's
            raise CallerError("name_not_own",
                              f"not a saved model's file name of this app: {name!r}")
    folder = os.path.abspath(folder)
    os.makedirs(folder, exist_ok=True)
    written = [*tables, *texts, *blobs, *([NOTES] if notes else [])]
    names = sorted(written)
    prepare_result_folder(folder, names=names, own=own)              # before anything is written
    staging = tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=folder)
    staging_fd = _open(staging)
    committed = False
    try:
        try_lock(staging_fd)
        write_text(os.path.join(staging, STAGING_MARKER), lambda s: s.write(MARKER_TEXT))
        for name, frame in tables.items():
            write_csv(frame, os.path.join(staging, name), index=name in _INDEXED,
                      style=csv_style)
        for name, content in texts.items():
            content = "\n".join(visible(line) for line in content.split("\n"))
            write_text(os.path.join(staging, name), lambda stream, c=content: stream.write(c))
        for name, data in blobs.items():
            write_bytes(os.path.join(staging, name), data)
        if notes:
            text = "".join(visible(str(note)) + "\n" for note in notes)
            write_text(os.path.join(staging, NOTES), lambda stream: stream.write(text))
        with _folder_lock(folder):
            _recover(folder, own=staging)
            previous = _refuse_if_not_ours(folder, names, own)
            record = {**manifest, "tables": names, "removed": _to_remove(folder, previous,
                                                                        names),
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
            shutil.rmtree(staging, ignore_errors=True)    # made by this call just now
        with contextlib.suppress(AttributeError, TypeError):
            # any exception type carries the flag out (the docstring's ``committed``)
            exc.committed = committed  # type: ignore[attr-defined]
        raise
    finally:
        _close(staging_fd)
    return [os.path.join(folder, name) for name in [*written, MANIFEST]]


def prepare_result_folder(folder: str, *, names=WRITABLE, own=()) -> list:
    """Before a run computes anything: finish or undo what killed writers of this app
    left in ``folder`` and check that a result set with ``names`` may be written there.

    ``own``: other file names of the run in the folder (its result store under another
    name than ``store.sqlite``, with SQLite's side files).

    Returns
    -------
    list of engine.foundation.notes.Note
        One ``result_folder_leftover`` note per entry left alone.

    Raises
    ------
    FolderRefused
        The folder holds files this app did not write.
    """
    folder = os.path.abspath(folder)
    notes = []
    if os.path.isdir(folder):
        with _folder_lock(folder):
            _refuse_if_not_ours(folder, names, own)        # before anything is touched
            notes = _recover(folder)
    _refuse_if_not_ours(folder, names, own)
    return notes


def recover_folder(folder: str) -> list:
    """Finish or undo what killed writers left in ``folder``.

    Nothing is done in a folder that is not the app's (without its ``run.json``, holding
    other entries).  A staging folder of this app holding a valid ``run.json`` is rolled
    forward (its run becomes the folder's set) when the folder's ``run.json`` is the
    transition manifest naming it and lists every name it would replace or remove; it is
    deleted beside a plain ``run.json`` of the app (the previous set is complete) and left
    alone in a folder without one.  Any other staging folder and temporary file of this
    app not owned by a live writer is deleted.  Entries that look like the app's but are
    not exactly its own are left alone.

    Returns
    -------
    list of engine.foundation.notes.Note
        One ``result_folder_leftover`` note per entry left alone.
    """
    folder = os.path.abspath(folder)
    if not os.path.isdir(folder):
        return []
    with _folder_lock(folder):
        refusal = folder_refusal(folder, names=())
        if refusal is not None:                 # not the app's folder: nothing touched
            return []
        return _recover(folder)


def read_manifest(folder: str):
    """The folder's ``run.json`` as a dict, or None when absent, unreadable or not a
    valid manifest of this app (:func:`engine.output.folder_entries.manifest_problem`)."""
    return read_manifest_file(os.path.join(folder, MANIFEST))[0]


def free_subfolder(folder: str) -> str:
    """A folder inside ``folder`` that does not exist yet: ``honest-eval-results``, then
    ``honest-eval-results-2`` ... (for results that may not go into ``folder`` itself)."""
    for number in range(1, 10_000):
        path = os.path.join(folder, SUBFOLDER + (f"-{number}" if number > 1 else ""))
        if not os.path.lexists(path):
            return path
    raise FileExistsError(f"{folder} holds {SUBFOLDER}-1 to -9999 already")


def versions() -> dict:
    """Versions of Python, the numerical libraries and this app (None if unknown)."""
    found: dict[str, Optional[str]] = {"python": platform.python_version()}
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


def _check_name(name, suffix=".csv") -> None:
    if not (isinstance(name, str) and name in KNOWN_TABLES and name.endswith(suffix)):
        what = "table name" if suffix == ".csv" else "file name"
        suffixes = (suffix,) if isinstance(suffix, str) else tuple(suffix)
        others = "".join(f" nor {s}" for s in suffixes[1:])
        # the app's own names: a bad one is a programming error, not the user's
        raise CallerError("name_not_own",
                          f"not a plain {suffixes[0]} {what}{others} of this app: {name!r}")


def _refuse_if_not_ours(folder: str, names, own=()) -> Optional[dict]:
    """Raise :class:`FolderRefused` when ``folder`` is not the app's to write ``names``
    into; else its valid ``run.json`` (None when there is none)."""
    refusal = folder_refusal(folder, names=names, own=own)
    if refusal is not None:
        raise refusal
    return read_manifest(folder)


def _to_remove(folder: str, previous: Optional[dict], names: list) -> list:
    """The tables the previous ``run.json`` lists, present in ``folder``, that ``names``
    lacks (only what the app wrote is ever removed)."""
    listed = (previous or {}).get("tables", [])
    return sorted(n for n in set(listed) - set(names)
                  if os.path.lexists(os.path.join(folder, n)))


def roll_forward(folder: str, staging: str) -> None:
    """Move a committed staging folder's set into ``folder``: step 3 of the module's
    protocol.  ``staging`` must hold a valid ``run.json`` of this app, and every name it
    replaces (still in ``staging``) or removes must be absent from ``folder`` or listed by
    the folder's ``run.json`` (a ``ValueError`` otherwise, nothing touched); repeatable
    after an interruption.  The caller holds the folder's lock."""
    record, problem = read_manifest_file(os.path.join(staging, MANIFEST))
    if record is None:
        raise EngineError("staging_unusable", {
            "path": staging, "detail": f"its run.json cannot be used ({problem})"})
    listed = (read_manifest(folder) or {}).get("tables", [])
    problem = _unlisted_target(folder, staging, record, listed)
    if problem:
        raise EngineError("staging_unusable", {"path": staging, "detail": problem})
    _write_json(os.path.join(folder, MANIFEST), {
        "written_by": WRITTEN_BY, "tables": sorted(set(listed) | set(record["tables"])),
        "removed": [], ROLLING: os.path.basename(staging)})
    for name in record["tables"]:                  # WRITABLE names only: plain file names
        source = os.path.join(staging, name)
        if os.path.lexists(source):
            os.replace(source, os.path.join(folder, name))
    for name in record.get("removed", []):
        if name not in record["tables"]:
            _unlink(os.path.join(folder, name))
    fsync_folder(folder)
    os.replace(os.path.join(staging, MANIFEST), os.path.join(folder, MANIFEST))
    fsync_folder(folder)
    _remove_staging(staging)


def _unlisted_target(folder: str, staging: str, record: dict, listed) -> Optional[str]:
    """Why rolling ``record`` (a staging folder's manifest) forward would replace or
    remove an entry of ``folder`` that its ``run.json`` (``listed``) does not list, or
    None."""
    listed = set(listed)
    moved = [n for n in record["tables"] if os.path.lexists(os.path.join(staging, n))]
    gone = [n for n in record.get("removed", []) if n not in record["tables"]]
    for name in (*moved, *gone):
        target = os.path.join(folder, name)
        if os.path.lexists(target) and (name not in listed or os.path.isdir(target)):
            return (f"it would replace or remove {shown_name(name)}, which the folder's "
                    "run.json does not list")
    return None


def _remove_staging(path: str) -> None:
    """Delete a staging folder of the app: its entries of the app's names, then the
    folder (left when anything else is in it)."""
    with contextlib.suppress(OSError):
        for name in os.listdir(path):
            if is_writable(name) or name in (MANIFEST, STAGING_MARKER) or is_temporary_name(name):
                _unlink(os.path.join(path, name))
        os.rmdir(path)


def _recover(folder: str, own: str = "") -> list:
    """:func:`recover_folder`'s work; the caller holds the folder's lock and checked that
    the folder is the app's.  ``own`` is the caller's staging folder (left alone).
    Returns the notes of entries left alone."""
    committed, notes = [], []
    manifest = read_manifest(folder)
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.path == own:
            continue
        if is_staging_name(entry.name) and entry.is_dir(follow_symlinks=False):
            fd = _open(entry.path)
            if fd is not None and not try_lock(fd):
                _close(fd)                                  # a live writer's
                continue
            problem = _staging_problem(folder, classify_staging(entry.path), manifest)
            if problem == "roll forward":
                committed.append((entry.path, fd))
                continue
            if problem:
                notes.append(leftover_note(folder, entry.name, problem))
            else:                        # empty, uncommitted, or stale beside a valid set
                _remove_staging(entry.path)
            _close(fd)
        elif is_temporary_name(entry.name) and entry.is_file(follow_symlinks=False):
            _remove_unlocked(entry.path)
        elif (entry.name.startswith(".staging-") and entry.is_dir(follow_symlinks=False)
              and os.path.lexists(os.path.join(entry.path, MANIFEST))):
            notes.append(leftover_note(folder, entry.name, "not a staging folder of this "
                                       "app (an earlier version's, or someone else's)"))
    for path, fd in committed:                     # at most one: the transition's
        try:
            roll_forward(folder, path)
        finally:
            _close(fd)
    return notes


def _staging_problem(folder: str, found, manifest: Optional[dict]) -> Optional[str]:
    """What to do with a staging folder of the app's name found in ``folder`` (whose valid
    ``run.json`` is ``manifest``, or None): ``"roll forward"``, None (delete it) or why it
    is left alone."""
    if found.state == "foreign":
        return found.problem
    if found.state != "committed":
        return None
    if manifest is None:
        return "a committed result set, but the folder has no run.json of this app"
    if manifest.get(ROLLING) != os.path.basename(found.path):
        return None                                  # stale: killed before step 3
    return _unlisted_target(folder, found.path, found.record, manifest["tables"]) \
        or "roll forward"


def _remove_unlocked(path: str) -> None:
    """Delete a temporary file of the app unless a live writer holds its lock."""
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)  # getattr: os: POSIX only
                     | getattr(os, "O_NONBLOCK", 0))  # getattr: os: POSIX only
        try:
            if try_lock(fd):
                os.unlink(path)
        finally:
            os.close(fd)


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


def write_tables(tables: dict, folder: str, *, manifest=None, notes=(),
                 style: str = "standard", files=None) -> list:
    """Write ``{file name: DataFrame}`` as one result set into ``folder`` (created).

    See :func:`write_result_folder`: the folder then holds these
    tables, ``run.json`` (and ``notes.txt``), never a mix with a previous set; a folder
    holding files this app did not write is refused (``FolderRefused``). ``files``:
    ``{file name: bytes}`` of saved models (see :func:`write_result_folder`).

    Returns
    -------
    list of str
        The paths of the tables.
    """
    write_result_folder(tables, folder, manifest or {}, list(notes), csv_style=style,
                        files=files)
    return [os.path.join(os.path.abspath(folder), name) for name in tables]
