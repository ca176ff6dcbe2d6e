"""The steps of a run around the run itself: the result folder, the budget's answer,
the result store, and what ``run.json`` records of them.

A run goes check -> plan -> store -> run -> write:

- check and plan: :func:`engine.run_service.check_run` (the pre-run check, the held-out
  test file, the budget and its :class:`engine.runs.run_plan.RunPlan`), then
  :func:`refusal` (the budget's answer: a refused run, or one that asks);
- the result folder: :func:`claim_folder` (created, checked writable, left-overs of
  killed writers settled, files of someone else refused) before anything is computed;
- the store: :func:`store_choice`, :func:`open_store`, :func:`drop_if_empty` after a failed
  or stopped run, :func:`store_record` for ``run.json``;
- the run: :func:`engine.run_service.run` (a generator of progress records; closing it
  cancels);
- the write: :mod:`engine.runs.result_writer`, the one writer of the CLI and the app.

The headless runner (:mod:`engine.cli`) is argument handling around these steps. Nothing
here prints or asks: refusals are exceptions or returned sentences.
"""
from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass

from engine.foundation.errors import EngineError

#: SQLite's names of a store's side files (the store itself first).
STORE_SUFFIXES = ("", "-wal", "-shm", "-journal")


@dataclass(frozen=True)
class Destination:
    """A result folder claimed for a run (:func:`claim_folder`).

    Attributes
    ----------
    folder : str
        The absolute path.
    created : tuple of str
        The folders created for it, deepest first (removed again if the run fails).
    store_path : str
        The result store's file.
    own : tuple of str
        The store's file names when it lies in the folder (not taken for someone else's).
    notes : tuple of str
        One per entry of the folder left alone (``result_folder_leftover``).
    """

    folder: str
    created: tuple
    store_path: str
    own: tuple = ()
    notes: tuple = ()

    @property
    def store_inside(self) -> bool:
        """The store lies in the result folder."""
        return os.path.dirname(self.store_path) == self.folder


def store_choice(store, experiment: str, out: str) -> str:
    """The result store's file: ``store`` (``--store``) when given, else the app's store
    beside ``experiment`` (``NAME.store.sqlite`` next to ``NAME.json``) when it exists,
    else ``store.sqlite`` in ``out``."""
    from engine.runs.store import DEFAULT_NAME, store_beside

    if store:
        return os.path.abspath(store)
    beside = store_beside(experiment)
    return beside if os.path.isfile(beside) else os.path.join(out, DEFAULT_NAME)


def claim_folder(out: str, store_path: str) -> Destination:
    """Claim ``out`` for a run's results before anything is computed.

    Creates the folder, checks a file can be written there, settles what killed writers
    left (:func:`engine.output.result_folder.prepare_result_folder`; the store's files in
    the folder are the run's own). On failure the folders created are removed again.

    Raises
    ------
    EngineError
        ``result_folder_unwritable`` when the folder cannot be created or written.
    ValueError
        A folder holding files of someone else (``FolderRefused``).
    """
    from engine.output.result_folder import prepare_result_folder, probe_writable, remove_created

    folder = os.path.abspath(out)
    try:
        created = tuple(probe_writable(folder))
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise EngineError("result_folder_unwritable", {"path": folder, "detail": reason},
                          f"cannot write to {folder}: {reason}") from exc
    inside = os.path.dirname(store_path) == folder
    own = tuple(os.path.basename(store_path) + s for s in STORE_SUFFIXES) if inside else ()
    try:
        notes = tuple(str(note) for note in prepare_result_folder(folder, own=own))
    except BaseException:
        remove_created(list(created))
        raise
    return Destination(folder, created, store_path, own, notes)


def check_store(destination: Destination) -> None:
    """Refuse a store file that cannot be one (a folder, a pipe, a file that is not
    SQLite ...: :func:`engine.runs.store.check_store_path`), before SQLite opens it."""
    from engine.runs.store import check_store_path

    check_store_path(destination.store_path, in_folder=destination.store_inside)


def refusal(checked, *, yes: bool = False, estimate=None):
    """Why not to start the ``checked`` run (one sentence), or None.

    Parameters
    ----------
    checked : engine.run_service.CheckedRun
        Assessed (nothing blocks it).
    yes : bool
        Start a run that asks (more than 20,000 fits) without asking.
    estimate : callable, optional
        ``estimate(checked)`` -> seconds or None, for the question's time; by default
        :func:`engine.runs.guards.estimate_seconds` (a few fits on the real data; a failure
        leaves the question without a time).
    """
    from engine.runs import guards

    assessment = checked.assessment
    if assessment.refuse:
        return assessment.refuse
    if not assessment.ask or yes:
        return None
    try:
        seconds = (estimate or _estimate)(checked)
    except Exception:  # noqa: BLE001 - the question stands without a time
        seconds = None
    return (f"{guards.question(assessment, seconds=seconds)}: add --yes to start it anyway, or "
            "use fewer models, folds or repeats")


def _estimate(checked):
    from engine.runs import guards

    return guards.estimate_seconds(checked.experiment, checked.datasets, checked.n_jobs)


def open_store(destination: Destination, *, fresh: bool = False):
    """The run's :class:`engine.runs.store.ResultStore` (``fresh``: every fit computed,
    none read)."""
    from engine.runs.store import ResultStore

    return ResultStore(destination.store_path, fresh=fresh)


def drop_if_empty(store, created) -> None:
    """After a failed or stopped run: remove the store file if this run created it and it
    holds no fit (a run stopped before its first fit leaves nothing behind), then the
    folders ``created`` if empty."""
    from engine.output.result_folder import remove_created

    if store.created and store.computed == 0:
        for suffix in (*STORE_SUFFIXES[1:], ""):          # the store last: no side
            with contextlib.suppress(OSError):            # file is left without it
                os.unlink(store.path + suffix)
        remove_created(list(created))


def store_record(store, *, fresh: bool = False) -> dict:
    """What ``run.json`` records of the result store."""
    return {"path": store.path, "fresh": bool(fresh), "fits": store.fits,
            "reused": store.reused, "computed": store.computed}
