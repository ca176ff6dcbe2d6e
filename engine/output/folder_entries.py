"""What in a result folder is this app's own: names, manifests, staging folders.

A result folder (:mod:`engine.output.result_folder`) may hold anything a user put there, or a
folder received from someone else. This module tells the app's entries from the rest,
before anything is written, so that only the app's own files are ever replaced or
removed:

* a manifest (``run.json``, in the folder or in a staging folder) is this app's only when
  it is a regular file (not a link), JSON, written by this app, and every name it lists
  (``tables``, ``removed``) is one of :data:`WRITABLE` — plain file names the app writes,
  never a path (:func:`manifest_problem`);
* a staging folder is the app's only when its name is ``.honest-eval-staging-`` and eight
  letters or digits (``tempfile``'s), it holds the marker file ``.honest-eval-staging``
  with the app's text, and nothing but regular files of the app's names
  (:func:`classify_staging`); a temporary file only when its name is
  ``.honest-eval-tmp-`` and eight letters or digits (and a short extension);
* a folder without a valid ``run.json`` of the app that holds other entries (besides the
  app's staging and temporary entries, ``store.sqlite`` and, beside it only, SQLite's side
  files) is
  not the app's: writing there is refused, naming those entries
  (:func:`folder_refusal`, :class:`FolderRefused`); a folder with the app's ``run.json``
  is written when none of the names to write is held by an entry its ``run.json`` does
  not list.

Leftovers that look like the app's but are not exactly its own are left alone and
reported (:func:`leftover_note`, note code ``result_folder_leftover``).
"""
from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass
from typing import Optional

from engine.input.csv_values import visible
from engine.foundation.notes import Note
from engine.output.tables import TEMPORARY_PREFIX

MANIFEST, NOTES, REPORT = "run.json", "notes.txt", "report.md"
#: The self-contained HTML report of a run (:mod:`engine.output.report`).
REPORT_HTML = "report.html"
WRITTEN_BY = "honest-eval"
#: Every table a run can write (``tables()`` of engine.runs.analysis, engine.evaluation.aloocv,
#: engine.evaluation.calibration and, with several data sets, engine.runs.across) and the across report.
KNOWN_TABLES = frozenset({
    "fold_scores.csv", "summary.csv", "correlation.csv", "pairwise.csv",
    "credible_intervals.csv", "failures.csv", "aloocv_curve.csv", "aloocv_optimum.csv",
    "calibration_curve.csv", "calibration_scores.csv", "calibration_map.csv",
    "confusion.csv", "per_class.csv", "dataset_scores.csv", "ranks.csv", "friedman.csv",
    "nemenyi.csv", "wilcoxon.csv", "signed_rank.csv", "grouping_gap.csv", "tuning.csv",
    "thresholds.csv", "tuning_optimism.csv", "predictions.csv", "roc_curve.csv",
    "pr_curve.csv", "auc_intervals.csv", "auc_tests.csv",
    "decision_curve.csv", "learning_curve.csv", "test_scores.csv", REPORT, REPORT_HTML,
    "decision_summary.csv", "decision_pairs.csv", "learning_summary.csv",
    "subgroup_scores.csv", "subgroup_gaps.csv", "subgroup_calibration.csv",
    "subgroup_fairness.csv", "nested_intervals.csv"})
#: Every name a manifest may list: the tables and ``notes.txt`` (and the saved models,
#: :func:`is_model_name`, with their warning :data:`MODELS_README`).
WRITABLE = KNOWN_TABLES | {NOTES}
#: The warning beside saved models (engine.runs.heldout.saved) and their names' pattern.
MODELS_README = "models_README.txt"
_MODEL_NAME = re.compile(r"model_[A-Za-z0-9_-][A-Za-z0-9_.-]{0,79}\.skops\Z")
STAGING_PREFIX = ".honest-eval-staging-"
#: The marker file inside each staging folder, and its text.
STAGING_MARKER = ".honest-eval-staging"
MARKER_TEXT = ("honest-eval: a result set being written into the folder above; a run of "
               "the app completes or removes it\n")
#: The result store's file in a result folder (``engine.runs.store.DEFAULT_NAME``) and SQLite's
#: side files beside it.
STORE_FILES = frozenset({"store.sqlite", "store.sqlite-wal", "store.sqlite-shm",
                         "store.sqlite-journal"})
#: SQLite's side files' suffixes (``engine.runs.store``).
SIDE_SUFFIXES = ("-wal", "-shm", "-journal")
#: The largest ``run.json`` read (the experiment itself may hold 20 MB).
MAX_MANIFEST_BYTES = 64 * 1024 ** 2
_LISTED = 6                                      # names shown in a refusal
_STAGING_NAME = re.compile(re.escape(STAGING_PREFIX) + r"[a-z0-9_]{8}\Z")
_TEMPORARY_NAME = re.compile(re.escape(TEMPORARY_PREFIX) + r"[a-z0-9_]{8}(\.[a-z]{1,5})?\Z")


class FolderRefused(ValueError):
    """The folder holds entries this app did not write: it is not written.

    Attributes
    ----------
    folder : str
    names : tuple of str
        The entries in the way, sorted.
    code : str
        ``"foreign_folder"``: no valid ``run.json`` of this app, and other entries;
        ``"unlisted_files"``: the app's ``run.json`` is there, but entries it does not list
        hold names the run writes.
    manifest_problem : str or None
        Why the folder's ``run.json`` is not this app's (None when it is, or is absent).
    """

    def __init__(self, folder: str, names, code: str, manifest_problem: Optional[str] = None):
        self.folder, self.names = folder, tuple(sorted(names))
        self.code, self.manifest_problem = code, manifest_problem
        super().__init__(self._text())

    def _text(self) -> str:
        shown = [shown_name(n) + (f" ({self.manifest_problem})" if n == MANIFEST
                                  and self.manifest_problem else "")
                 for n in self.names[:_LISTED]]
        more = len(self.names) - _LISTED
        listed = ", ".join(shown) + (f" and {more} more" if more > 0 else "")
        if self.code == "unlisted_files":
            return (f"the folder {visible(self.folder)} holds {listed}, which its run.json does "
                    "not list (this app did not write them and would replace them): move "
                    "them away or choose another folder")
        return (f"the folder {visible(self.folder)} holds files this app did not write "
                f"({listed}); it writes results only into a new or empty folder or one "
                "holding its own earlier results: choose a new or empty folder, or move "
                "those files away")


@dataclass(frozen=True)
class Staging:
    """A staging folder as found: ``state`` is ``"empty"``, ``"uncommitted"`` (the app's,
    without ``run.json``), ``"committed"`` (the app's, with a valid ``run.json``: its
    ``record``) or ``"foreign"`` (not exactly the app's: ``problem`` says why)."""

    path: str
    state: str
    record: Optional[dict] = None
    problem: Optional[str] = None


def shown_name(name) -> str:
    """A name as shown in a message: control characters written out, at most 60
    characters; what is not text as its type."""
    if not isinstance(name, str):
        return f"a {type(name).__name__}"
    text = visible(name)
    return repr(text[:57] + "..." if len(text) > 60 else text)


def is_model_name(name) -> bool:
    """A saved model's file name (``model_NAME.skops``, letters, digits, ``_.-`` only)."""
    return isinstance(name, str) and bool(_MODEL_NAME.match(name))


def is_writable(name) -> bool:
    """A plain file name a result set may hold: :data:`WRITABLE`, a saved model or its
    warning."""
    return isinstance(name, str) and (name in WRITABLE or name == MODELS_README
                                      or is_model_name(name))


def is_staging_name(name: str) -> bool:
    return bool(_STAGING_NAME.match(name))


def is_temporary_name(name: str) -> bool:
    return bool(_TEMPORARY_NAME.match(name))


def manifest_problem(data) -> Optional[str]:
    """Why ``data`` (a parsed ``run.json``) is not a manifest of this app, or None."""
    if not isinstance(data, dict):
        return "it is not a JSON object"
    if data.get("written_by") != WRITTEN_BY:
        return "it was not written by this app"
    if "tables" not in data:
        return 'it has no "tables" list'
    return _names_problem(data["tables"], "tables") or _names_problem(
        data.get("removed", []), "removed")


def _names_problem(names, key: str) -> Optional[str]:
    if not isinstance(names, list):
        return f'its "{key}" is not a list'
    for name in names:
        if not is_writable(name):
            return f'its "{key}" names {shown_name(name)}, not a table of this app'
    if len(set(names)) != len(names):
        return f'its "{key}" names a file twice'
    return None


def read_manifest_file(path: str) -> tuple:
    """``(manifest, problem)`` of the ``run.json`` at ``path``: ``(dict, None)`` for a
    valid manifest of this app, ``(None, why)`` for anything else, ``(None, None)`` when
    there is none. Never follows a link, never blocks on a special file, reads at most
    :data:`MAX_MANIFEST_BYTES`."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"it cannot be read: {exc.strerror or exc}"
    if stat.S_ISLNK(info.st_mode):
        return None, "it is a symbolic link"
    if not stat.S_ISREG(info.st_mode):
        return None, "it is not a regular file"
    if info.st_size > MAX_MANIFEST_BYTES:
        return None, "it is far larger than a manifest"
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)  # getattr: os: POSIX only
                     | getattr(os, "O_NONBLOCK", 0))  # getattr: os: POSIX only
        with open(fd, "rb") as stream:
            raw = stream.read(MAX_MANIFEST_BYTES + 1)
    except OSError as exc:
        return None, f"it cannot be read: {exc.strerror or exc}"
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None, "it is not JSON"
    problem = manifest_problem(data)
    return (None, problem) if problem else (data, None)


def _always_ours(entry: os.DirEntry, files: set) -> bool:
    """Entries the app may leave in any result folder: staging folders and temporary
    files of its names, the result store and, beside it, SQLite's side files (regular
    files; ``files``: the names of the folder's regular files)."""
    name = entry.name
    if is_staging_name(name):
        return entry.is_dir(follow_symlinks=False)
    if is_temporary_name(name) or name in STORE_FILES:
        return name in files and _beside_store(name, files)
    return False


def _beside_store(name: str, files) -> bool:
    """False for SQLite's side file (``-wal``, ``-shm``, ``-journal``) of a store that is
    not in ``files``: a side file is the app's only beside its store."""
    for suffix in SIDE_SUFFIXES:
        if name.endswith(suffix):
            return name[:-len(suffix)] in files
    return True


def folder_refusal(folder: str, *, names=WRITABLE, own=()) -> Optional[FolderRefused]:
    """Why not to write a result set with ``names`` into ``folder``, or None.

    Parameters
    ----------
    folder : str
        An existing folder (a missing one is fine: None).
    names : iterable of str
        The files the run writes (``run.json`` aside); by default every name a run can
        write (the check before computing).
    own : iterable of str
        Other names of the run's own in the folder (a ``--store`` file kept there).
    """
    if not os.path.isdir(folder):
        return None
    manifest, problem = read_manifest_file(os.path.join(folder, MANIFEST))
    with os.scandir(folder) as found:
        entries = list(found)
    if manifest is None:
        own = set(own)
        files = {e.name for e in entries if e.is_file(follow_symlinks=False)}
        foreign = [e.name for e in entries if not _always_ours(e, files) and not (
            e.name in own and e.name in files and _beside_store(e.name, files))]
        return FolderRefused(folder, foreign, "foreign_folder", problem) if foreign else None
    listed, wanted = set(manifest["tables"]), set(names)
    unlisted = [e.name for e in entries if e.name in wanted
                and (e.name not in listed or e.is_dir(follow_symlinks=False))]
    return FolderRefused(folder, unlisted, "unlisted_files") if unlisted else None


def _regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _marker_ok(path: str) -> bool:
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > 4096:
            return False
        with open(path, encoding="utf-8") as stream:
            return stream.read() == MARKER_TEXT
    except (OSError, UnicodeDecodeError):
        return False


def classify_staging(path: str) -> Staging:
    """What the staging folder at ``path`` (named like the app's) is: see :class:`Staging`."""
    try:
        names = os.listdir(path)
    except OSError as exc:
        return Staging(path, "foreign", problem=f"it cannot be read: {exc.strerror or exc}")
    if not names:
        return Staging(path, "empty")
    if not _marker_ok(os.path.join(path, STAGING_MARKER)):
        return Staging(path, "foreign", problem="it lacks this app's marker file")
    allowed = WRITABLE | {MANIFEST, STAGING_MARKER}
    for name in names:
        if not (name in allowed or is_writable(name) or is_temporary_name(name)) or not _regular(
                os.path.join(path, name)):
            return Staging(path, "foreign",
                           problem=f"it holds {shown_name(name)}, which this app does not write")
    if MANIFEST not in names:
        return Staging(path, "uncommitted")
    record, problem = read_manifest_file(os.path.join(path, MANIFEST))
    if problem:
        return Staging(path, "foreign", problem=f"its run.json: {problem}")
    return Staging(path, "committed", record)


def leftover_note(folder: str, name: str, problem: str) -> Note:
    """The note saying that ``name`` in ``folder`` was left alone, and why (fields
    ``folder``, ``name`` and ``problem``, and both as the note shows them: ``shown_name``,
    ``shown_folder``)."""
    return Note("result_folder_leftover", fields={
        "folder": folder, "name": name, "problem": problem, "shown_name": shown_name(name),
        "shown_folder": visible(folder)})
