"""The window's result store, read on worker threads: its runs, the run to resume, a run's
results rebuilt, and a refused file's problem in plain words (no Qt here).

"The same experiment" (for the resume offer) means: the same data (the stored run's data
fingerprint equals the loaded data's) and the same models, folds and metrics (the
``models``, ``cv`` and ``metrics`` sections of the experiment as run, metrics filled in for
the data as ``run_experiment`` does). Those decide every fit; the comparison settings,
ALOOCV and calibration do not (they are computed from the fits again). With several data
sets, every run of the stored batch must match the loaded data set of the same name.
"""
from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from datetime import datetime
from typing import Optional

import pandas as pd

from engine.runs.analysis import load_run
from engine.runs.benchmark import experiment_for, finish
from engine.foundation.errors import EngineError, error_code, is_store_error
from engine.foundation.atomic_write import replaced_atomically
from engine.evaluation.experiment import parse_experiment
from engine.runs.fingerprint import data_fingerprint
from engine.foundation.progress import run_to_end
from engine.runs.run_plan import plan_run, stored_fits
from engine.runs.store import ResultStore
from engine.evaluation.verdict import metric_label

#: The sections of an experiment that decide its fits.
FIT_SECTIONS = ("models", "cv", "metrics")
RUN_COLUMNS = ["Run", "Started", "Data", "Models", "Compare on", "Fits", "Reused",
               "Status"]



@dataclass(frozen=True)
class ResumeOffer:
    """The last run of the current experiment, stopped: ``done`` of ``total`` fits kept."""

    started: str
    done: int
    total: int
    run_ids: tuple

    def summary(self) -> str:
        """``The last run of this experiment stopped after 465 of 1,200 fits``."""
        if self.done >= self.total:
            return (f"The last run of this experiment stopped after all its {self.total:,} "
                    "fits were kept")
        return (f"The last run of this experiment stopped after {self.done:,} of "
                f"{self.total:,} fits")

    def text(self) -> str:
        when = short_time(self.started)
        if self.done >= self.total:
            return f"{self.summary()} ({when}), before its last steps. Resume it: no fit is " \
                   "computed again."
        return f"{self.summary()} ({when}). Resume it: only the missing fits are computed."


@dataclass(frozen=True)
class StoreSnapshot:
    """What the store held when read: its runs (oldest first), the resume offer for the
    current setup (or None) and the last run's id (0 when none)."""

    path: str
    runs: tuple = ()
    offer: Optional[ResumeOffer] = None
    exists: bool = False
    last_id: int = field(default=0)
    stored: Optional[tuple] = None       # per data set, the fits of ``setup`` kept
    setup: Optional[dict] = None

    def runs_after(self, run_id: int) -> list:
        return [run for run in self.runs if run.id > run_id]


# ---------------------------------------------------------------------- reading
def open_store(path: str) -> ResultStore:
    """The store at ``path`` open (created when missing, its folder too); an
    :class:`~engine.foundation.errors.EngineError` with a ``store_`` code when the file is refused."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return ResultStore(path)          # a refused file: an EngineError with a store_ code


def last_run_id(path: str) -> int:
    """The id of the store's last run (0 for none or no file yet); an EngineError
    with a ``store_`` code when the file is refused. A missing file is not created (its folder is)."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
    except OSError as exc:
        raise EngineError("store_unusable", {"path": path, "detail": "folder"},
                          f"cannot make its folder: {exc.strerror or exc}") from None
    return read_store(path).last_id


def read_store(path: str, setup: Optional[dict] = None, datasets=(),
               fingerprints: Optional[dict] = None,
               cancelled_after: Optional[int] = None) -> StoreSnapshot:
    """Every run of the store at ``path`` and, when ``setup`` (the window's experiment
    JSON) and its ``datasets`` are given, the resume offer. A missing file is not created.
    ``fingerprints`` caches the data fingerprints (by ``id`` of the data set). A file
    without content yet (a run is making it) holds no run: it is not opened.
    ``cancelled_after``: the last run's id before a Run the window cancelled; its runs
    are first recorded as cancelled (``ResultStore.mark_cancelled``)."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return StoreSnapshot(path)
    offer = stored = None
    fingerprints = {} if fingerprints is None else fingerprints
    with open_store(path) as store:
        if cancelled_after is not None:
            store.mark_cancelled(cancelled_after)
        runs = tuple(store.runs())
        if setup is not None and datasets and runs:
            offer = resume_offer(runs, current_runs(setup, datasets, fingerprints),
                                 planned_fits(setup, datasets))
            stored = stored_counts(store, setup, datasets, fingerprints)
    return StoreSnapshot(path, runs, offer, True, runs[-1].id if runs else 0, stored, setup)


def stored_counts(store, setup: dict, datasets, fingerprints: dict) -> Optional[tuple]:
    """Per data set, how many fits of the window's setup the store holds
    (:func:`engine.runs.run_plan.stored_fits`); None when the setup cannot run as it is."""
    datasets = list(datasets)
    try:
        experiment = parse_experiment(setup)
        if experiment.datasets:
            experiment = experiment_for(experiment, datasets)
        keys = [fingerprints[id(d)][1] if id(d) in fingerprints else None for d in datasets]
        return tuple(stored_fits(store, experiment, datasets,
                                 data_keys=None if None in keys else keys))
    except ValueError:
        return None


def planned_fits(setup: dict, datasets) -> Optional[int]:
    """The fits a Run of the window's setup keeps in the store, counted by
    :func:`engine.runs.run_plan.plan_run` (the count of the panel, the progress bar and
    Cancel); None when the setup cannot run as it is."""

    datasets = list(datasets)
    try:
        experiment = parse_experiment(setup)
        if experiment.datasets:
            experiment = experiment_for(experiment, datasets)
        return plan_run(experiment, datasets=datasets).fits
    except ValueError:
        return None


def current_runs(setup: dict, datasets, fingerprints: Optional[dict] = None) -> dict:
    """``{data set name: (fingerprint, fit sections)}`` of the window's setup: what each
    data set's run would record."""
    cache = {} if fingerprints is None else fingerprints
    datasets = list(datasets)
    experiment = parse_experiment(setup)
    if experiment.datasets:
        experiment = experiment_for(experiment, datasets)
        each = [experiment.for_dataset(i) for i in range(len(datasets))]
    else:
        each = [experiment]
    found = {}
    for dataset, own in zip(datasets, each):
        own = own.with_metrics_for(len(dataset.classes), dataset)
        key = id(dataset)
        if key not in cache or cache[key][0] is not dataset:
            cache[key] = (dataset, data_fingerprint(dataset))
        found[dataset.name] = (cache[key][1], fit_sections(own.to_json()))
    return found


def fit_sections(experiment_json: dict) -> dict:
    return {name: experiment_json.get(name) for name in FIT_SECTIONS}


def same_run(run, current: dict) -> bool:
    """True when the stored ``run`` is of the current setup (see the module's note)."""
    name = (run.data or {}).get("name")
    if name not in current:
        return False
    fingerprint, sections = current[name]
    return run.data_fingerprint == fingerprint and fit_sections(run.experiment) == sections


def resume_offer(runs, current: dict, total: Optional[int] = None) -> Optional[ResumeOffer]:
    """The offer to resume the latest batch of runs of the current setup, when it did not
    finish (a run incomplete, or a data set not begun); None otherwise. ``total``: the
    setup's fits (:func:`planned_fits`); without it, the stored runs' count for each data
    set."""
    batches = {}
    for run in runs:
        batches.setdefault(run.batch, []).append(run)
    for batch in sorted(batches.values(), key=lambda each: each[-1].id, reverse=True):
        if not all(same_run(run, current) for run in batch):
            continue
        if all(run.complete for run in batch) and len(batch) >= len(current):
            return None
        per_dataset = max((run.fits for run in batch), default=0)
        done = sum(kept_fits(run) for run in batch)
        total = per_dataset * len(current) if total is None else total
        if total == 0:
            return None
        return ResumeOffer(batch[0].started, done, total, tuple(run.id for run in batch))
    return None


# ---------------------------------------------------------------------- the runs list
def short_time(iso: str) -> str:
    """``2026-11-24 16:56`` of an ISO time (as it is when it cannot be read)."""
    try:
        return datetime.fromisoformat(iso).strftime("%Y-%m-%d %H:%M")
    except (TypeError, ValueError):
        return str(iso)


def kept_fits(run) -> int:
    """The fits of a stored run that are in the store (reused or computed by it)."""
    return min(run.reused + run.computed, run.fits)


#: A run's recorded status (engine.runs.store.STATUSES) as the runs list says it; a run
#: recorded as still running never said it ended (stopped by its window, or killed).
STATUS_WORDS = {"running": "stopped", "cancelled": "cancelled", "failed": "failed"}


def status_text(run) -> str:
    """What happened to a stored run, as recorded when it happened: ``complete``,
    ``cancelled after 177 of 500 fits``, ``stopped after 177 of 500 fits`` (it never said
    it ended: stopped by its window, or killed), ``failed after ...``, each with
    ``; resumed from run 12`` for a run that took up an unfinished one.  A run of a store
    made before statuses were recorded says what the store holds now:
    ``stopped; 465 of 1,200 fits in the store now``."""
    resumed = getattr(run, "resumed_from", None)
    after = f"; resumed from run {resumed}" if resumed else ""
    status = getattr(run, "status", None)
    if run.complete or status == "completed":
        return "complete" + after
    if status in STATUS_WORDS and run.kept is not None:
        return f"{STATUS_WORDS[status]} after {run.kept:,} of {run.fits:,} fits{after}"
    return f"stopped; {kept_fits(run):,} of {run.fits:,} fits in the store now{after}"


def runs_frame(runs) -> pd.DataFrame:
    """The Runs list: newest first, one row per run (a data set's run)."""
    rows = [[run.id, short_time(run.started), (run.data or {}).get("name", ""),
             ", ".join(run.models), metric_label(run.primary_metric) if run.primary_metric
             else "", run.fits, run.reused, status_text(run)] for run in reversed(runs)]
    return pd.DataFrame(rows, columns=RUN_COLUMNS)


def batch_of(runs, run_id: int) -> list:
    """The runs of ``run_id``'s batch (one per data set), in order."""
    chosen = next((run for run in runs if run.id == run_id), None)
    if chosen is None:
        return []
    return [run for run in runs if run.batch == chosen.batch]


# ---------------------------------------------------------------------- reopening
def open_results(path: str, run_ids, datasets=(), prepare=None):
    """On a worker thread: the results of the stored runs ``run_ids`` rebuilt without any
    fit (:func:`engine.runs.analysis.load_run`); one id gives an ExperimentResult, several (one
    batch) a BenchmarkResult. A loaded data set with the run's data is used as it is, else
    the data is read again. ``prepare`` is applied to every data set's result."""
    if not os.path.exists(path):
        raise ValueError(f"the result store {path} is gone: run the experiment again")
    loaded = {}                   # fingerprint -> data set, each fingerprinted once
    for dataset in datasets:
        loaded.setdefault(data_fingerprint(dataset), dataset)
    results = []
    with open_store(path) as store:
        for run_id in run_ids:
            dataset = loaded.get(store.run(run_id).data_fingerprint)
            result = run_to_end(load_run(store, run_id, dataset=dataset))
            results.append(prepare(result) if prepare is not None else result)
    if len(results) == 1:
        return results[0]
    return _benchmark(results)


def _benchmark(results: list):
    from dataclasses import replace

    first = results[0].experiment
    experiment = replace(first, datasets=tuple(dict(r.experiment.dataset) for r in results))
    return finish(experiment, results)


# ---------------------------------------------------------------------- saving as
def copy_store(source: str, target: str) -> bool:
    """After Save As: the store of the experiment as it was (``source``) copied to the
    saved file's store (``target``), so its fits serve the saved experiment; True when
    copied. Nothing is copied over an existing file, nor from a missing or refused one.
    SQLite's backup copies a consistent snapshot, through a temporary file then renamed."""
    import sqlite3

    if source == target or os.path.exists(target) or not os.path.exists(source):
        return False
    try:
        open_store(source).close()                 # refused files are not copied
    except EngineError as exc:
        if not is_store_error(exc):
            raise
        return False
    try:
        with replaced_atomically(target) as temporary:
            with contextlib.closing(sqlite3.connect(source)) as origin, \
                    contextlib.closing(sqlite3.connect(temporary)) as copy:
                origin.backup(copy)
            if os.path.exists(target):
                raise FileExistsError(target)       # made meanwhile: never replaced
        return True
    except (sqlite3.Error, OSError):
        return False


# ---------------------------------------------------------------------- words
#: What a refused store file is, and what to do, by the error's code.
PROBLEM_WORDS = {
    "store_locked": ("is in use by another program (another run of this experiment, in "
                     "another window?)",
                     "Wait for that run to finish and press Run again, or"),
    "store_foreign": ("is another program's database, not a result store of this app",
                      "Move or rename that file (a new result store is then made), or"),
    "store_not_sqlite": ("is not a result store (it is not an SQLite database)",
                         "Move or rename that file (a new result store is then made), or"),
    "store_damaged": ("is damaged",
                      "Move or rename that file (a new result store is then made), or"),
    "store_format": ("was written by another version of this app",
                     "Open the experiment with that version, move or rename the file, or"),
}


def _problem_words(problem) -> tuple:
    """(what the store file is, what to do), chosen by the code of ``problem``."""
    if error_code(problem) in PROBLEM_WORDS:
        return PROBLEM_WORDS[error_code(problem)]
    return (f"cannot be used ({problem})",
            "Check that its folder exists and you may write to it, or")


def problem_headline(path: str, problem) -> str:
    """The first sentence of :func:`problem_text`: what the refused store file is."""
    return f"The result store {path} {_problem_words(problem)[0]}."


def problem_text(path: str, problem) -> str:
    """A refused store file in plain words: what it is and what to do, chosen by the
    code of ``problem`` (an :class:`~engine.foundation.errors.EngineError`; anything else, or
    another code, is shown with its message)."""
    todo = _problem_words(problem)[1]
    return (f"{problem_headline(path, problem)}\n\nThe app keeps every finished fit there so "
            "that runs resume and grow; it has not changed the file.\n\n"
            f"{todo} choose \"Run without keeping results\" (every fit is computed and none "
            "is kept).")


def counts_text(runs) -> str:
    """`` (12 of 30 fits reused from earlier runs)`` for the runs of one Run; when none was
    reused `` (all 30 fits computed and kept for later runs)``."""
    fits = sum(run.fits for run in runs)
    reused = sum(run.reused for run in runs)
    if not fits:
        return ""
    if not reused:
        return f" (all {fits:,} fits computed and kept for later runs)"
    return f" ({reused:,} of {fits:,} fits reused from earlier runs)"


def kept_text(runs, planned: Optional[int] = None) -> str:
    """What a cancelled Run kept, in words; of ``planned`` fits (the run's plan,
    :mod:`engine.runs.run_plan`) when given, else of the fits of the runs begun."""
    fits = sum(run.fits for run in runs) if planned is None else planned
    kept = sum(kept_fits(run) for run in runs)
    if not kept:
        return "No fit had finished: Run starts again."
    return (f"{kept:,} of {fits:,} finished fits are kept in the result store: Run resumes "
            "from them.")
