"""The final models a run keeps ("Keep the final models"), written when the run ends.

The app writes them beside its result store: ``NAME.store.sqlite`` keeps them in
``NAME.models/``, one folder per run (``run-YYYYMMDD-HHMMSS``, local time, ``-2`` ... when
two runs end in the same second), so that File → Predict finds them right after a run;
Export still writes them into the result folder. Only the last :data:`KEEP_RUNS` run folders
are kept: an older one is removed only when it holds nothing but the app's model files.

Untrusted places: the models folder must be a real folder (never a symbolic link), each
run folder is made new (never an existing one), every name is checked against the app's
model names (:func:`engine.output.folder_entries.is_model_name`) and every file is written
atomically (:func:`engine.output.tables.write_bytes`: a temporary file renamed into place).
"""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from datetime import datetime

from engine.foundation.errors import EngineError
from engine.output.folder_entries import MODELS_README, is_model_name
from engine.output.tables import write_bytes

#: The models folder's suffix, in place of the store's ``.store.sqlite``.
SUFFIX = ".models"
#: How many run folders are kept (older ones of the app's files only are removed).
KEEP_RUNS = 5
#: At most this many run folders ending in the same second.
_MAX_SAME_SECOND = 100
_RUN_NAME = re.compile(r"run-(\d{8}-\d{6})(?:-(\d{1,3}))?\Z")


@dataclass(frozen=True)
class KeptModels:
    """Where a run's models were written.

    Attributes
    ----------
    folder : str
        The run's folder.
    models : tuple of str
        The model files written there (full paths), ``model_NAME.skops``, sorted.
    removed : tuple of str
        Older run folders removed to keep :data:`KEEP_RUNS`.
    """

    folder: str
    models: tuple
    removed: tuple = ()


def models_root(store_file: str) -> str:
    """The models folder of the result store ``store_file``: ``NAME.models`` beside it."""
    folder, name = os.path.split(os.path.abspath(store_file))
    stem = name[:-len(".store.sqlite")] if name.endswith(".store.sqlite") else \
        os.path.splitext(name)[0]
    return os.path.join(folder, (stem or "unnamed") + SUFFIX)


def write_kept_models(files: dict, root: str, *, now: datetime | None = None) -> KeptModels:
    """Write ``files`` (``{file name: bytes}``, as
    :func:`engine.runs.heldout.saved.saved_model_files` makes them) into a new run folder
    of ``root`` and remove run folders beyond the last :data:`KEEP_RUNS`.

    Raises
    ------
    EngineError
        ``kept_models_name`` for a name the app does not write (nothing is written);
        ``kept_models_folder`` when ``root`` is a link or not a folder, or writing fails.
    """
    for name in files:
        if not (is_model_name(name) or name == MODELS_README):
            raise EngineError("kept_models_name", {"name": str(name)[:80]},
                              f"{str(name)[:80]!r} is not a model file name the app writes")
    try:
        _real_folder(root, make=True)
        folder = _new_run_folder(root, now or datetime.now())
        for name, data in files.items():
            write_bytes(os.path.join(folder, name), bytes(data))
    except OSError as exc:
        raise _folder_error(root, exc.strerror or str(exc)) from exc
    models = tuple(sorted(os.path.join(folder, name) for name in files if is_model_name(name)))
    return KeptModels(folder, models, tuple(prune_runs(root, keep=folder)))


def prune_runs(root: str, *, keep: str = "") -> list:
    """Remove the run folders of ``root`` beyond the newest :data:`KEEP_RUNS` (never
    ``keep``) that hold only the app's model files; returns the folders removed."""
    removed = []
    for folder in run_folders(root)[:-KEEP_RUNS]:
        if os.path.abspath(folder) != os.path.abspath(keep) and _remove_if_ours(folder):
            removed.append(folder)
    return removed


def run_folders(root: str) -> list:
    """The run folders of ``root`` (real folders named as the app names them), oldest
    first."""
    try:
        entries = list(os.scandir(root))
    except OSError:
        return []
    found = []
    for entry in entries:
        match = _RUN_NAME.match(entry.name)
        if match and entry.is_dir(follow_symlinks=False):
            found.append(((match.group(1), int(match.group(2) or 1)), entry.path))
    return [path for _, path in sorted(found)]


def _real_folder(path: str, make: bool = False) -> None:
    """``path`` is a folder and not a link (made when missing and ``make``)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        if not make:
            raise
        os.makedirs(path, exist_ok=True)
        mode = os.lstat(path).st_mode
    if stat.S_ISLNK(mode) or not stat.S_ISDIR(mode):
        kind = "a symbolic link" if stat.S_ISLNK(mode) else "not a folder"
        raise _folder_error(path, kind)


def _new_run_folder(root: str, now: datetime) -> str:
    """Make a run folder that did not exist (``-2``, ``-3`` ... for the same second)."""
    base = os.path.join(root, "run-" + now.strftime("%Y%m%d-%H%M%S"))
    for number in range(1, _MAX_SAME_SECOND + 1):
        folder = base if number == 1 else f"{base}-{number}"
        try:
            os.mkdir(folder)
        except FileExistsError:
            continue
        return folder
    raise _folder_error(root, f"{_MAX_SAME_SECOND} run folders of the same second")


def _remove_if_ours(folder: str) -> bool:
    """Remove ``folder`` when every entry is a regular file of the app's model names."""
    try:
        entries = list(os.scandir(folder))
        if not all((is_model_name(e.name) or e.name == MODELS_README)
                   and e.is_file(follow_symlinks=False) for e in entries):
            return False
        for entry in entries:
            os.unlink(entry.path)
        os.rmdir(folder)
    except OSError:
        return False
    return True


def _folder_error(path: str, detail: str) -> EngineError:
    return EngineError("kept_models_folder", {"path": path, "detail": detail},
                       f"the models could not be kept in {path}: {detail}")
