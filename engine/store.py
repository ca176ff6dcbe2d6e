"""The result store: every finished fit kept in an SQLite file, so runs resume and grow.

:class:`ResultStore` keeps each cross-validation fit (:class:`engine.cv.FoldFit`) under its
key (:func:`engine.fingerprint.fit_keys`): a run looks every fit up first, computes only the
missing ones and commits them as they finish (fits faster than :data:`COMMIT_SECONDS` in
groups), so an interrupted run loses at most the fits in flight (a killed one also those of
the last quarter second), adding a model or a repeat computes only the new fits and renaming a model
computes nothing. The ``runs`` table records every run (:class:`StoredRun`);
:func:`load_run` rebuilds a run's results from the store without refitting.

The file
--------
Python's ``sqlite3`` in WAL mode (``synchronous=NORMAL``: a commit survives the process
being killed; a power cut may lose the last fits, never the file), written only by the
process that runs :func:`engine.cv.run_cv` (workers never write). Its header carries this
application's id and its ``meta`` table the format: a file that is not SQLite, another
program's database, a damaged or locked one is refused with a ``ValueError`` that says
what to do, and is never changed. A fit is stored without pickle: its plain fields as
JSON (floats written exactly), its arrays as raw bytes with their dtype and shape, field
by field (``dataclasses.fields``), so fields added to ``FoldFit`` are stored too.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sqlite3
import time
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Optional

from .fit_rows import decode_fit, encode_fit

#: ``PRAGMA application_id`` of a store ("HEvS").
APPLICATION_ID = 0x48457653
#: The store's format (``meta`` table, key ``format``).
FORMAT = 1
APPLICATION = "honest-eval result store"
#: The store's file name in a headless run's result folder (with SQLite's ``-wal`` and
#: ``-shm`` side files beside it while it is open).
DEFAULT_NAME = "store.sqlite"
#: Seconds to wait for another program's lock before refusing the file.
LOCK_TIMEOUT = 5.0
#: At most this many seconds between a fit's end and its commit (while the run goes on;
#: stopping, cancelling or closing commits at once).
COMMIT_SECONDS = 0.25
_SQLITE_HEADER = b"SQLite format 3\x00"
_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE fits (key TEXT PRIMARY KEY, fields TEXT NOT NULL, arrays TEXT NOT NULL,
                   data BLOB NOT NULL, saved REAL NOT NULL);
CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, batch TEXT, started TEXT NOT NULL,
                   finished TEXT, experiment TEXT NOT NULL, base_dir TEXT, data TEXT,
                   data_fingerprint TEXT, models TEXT NOT NULL, primary_metric TEXT,
                   complete INTEGER NOT NULL DEFAULT 0, fits INTEGER NOT NULL DEFAULT 0,
                   reused INTEGER NOT NULL DEFAULT 0);
CREATE TABLE run_fits (run INTEGER NOT NULL, position INTEGER NOT NULL, key TEXT NOT NULL,
                       PRIMARY KEY (run, position));
"""


@dataclass(frozen=True)
class StoredRun:
    """One row of the store's ``runs`` table.

    Attributes
    ----------
    id : int
    batch : str
        Shared by the runs of one several-data-set experiment (one per data set).
    started, finished : str
        ISO times; ``finished`` is None for a run that did not finish.
    experiment : dict
        The experiment as run (its JSON), ``base_dir`` its folder.
    data : dict
        The data set's block, name, rows and classes; ``data_fingerprint`` its hash.
    models : tuple of str
    primary_metric : str
    complete : bool
        False for a run interrupted, killed or failed.
    keys : tuple of str
        The keys of its fits in task order (model fastest within each split).
    fits, reused, computed : int
        Fits of the run, found in the store when it began, computed by it (those of its
        fits in the store now that it did not find).
    """

    id: int
    batch: str
    started: str
    finished: Optional[str]
    experiment: dict
    base_dir: str
    data: dict
    data_fingerprint: str
    models: tuple
    primary_metric: str
    complete: bool
    fits: int
    reused: int
    computed: int
    keys: tuple = ()


class ResultStore:
    """An open result store file (created when missing).

    Parameters
    ----------
    path : str
    fresh : bool
        Read no stored fit (every fit is computed); the fits computed still replace
        those stored under the same keys, and earlier runs stay listed.
    timeout : float
        Seconds to wait for another program's lock.
    commit_seconds : float
        Fits saved less than this long after the last commit wait for the next one (one
        commit per fit costs about a millisecond, too much for fits of a few
        milliseconds); a fit that took longer than this is committed as it finishes.

    Raises
    ------
    ValueError
        The file is not a result store (not SQLite, another program's database, a newer
        format), is damaged, locked, or cannot be created.

    Attributes
    ----------
    fits, reused, computed : int
        Fits looked up, found in the store, and computed and saved, since it was opened.
    replay : bool
        When True, a run must find every fit (:func:`load_run`): a missing one is a
        ``ValueError``, not a fit.
    """

    def __init__(self, path: str, fresh: bool = False, timeout: float = LOCK_TIMEOUT,
                 commit_seconds: float = COMMIT_SECONDS):
        self.path = os.path.abspath(os.fspath(path))
        self.fresh, self.replay = bool(fresh), False
        self.fits = self.reused = self.computed = 0
        self.batch = uuid.uuid4().hex
        self._run: Optional[int] = None
        self._data = None
        self._pending: list = []           # rows of fits saved, not yet committed
        self.commit_seconds = commit_seconds
        self._committed = time.monotonic()
        _check_header(self.path)
        #: True when this object created the file (it did not exist, or was empty).
        self.created = not os.path.exists(self.path) or os.path.getsize(self.path) == 0
        try:
            self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None,
                                       check_same_thread=False)
        except sqlite3.Error as exc:
            raise ValueError(self._problem(exc)) from None
        try:
            self._prepare()
        except BaseException as exc:
            self._db.close()
            if isinstance(exc, sqlite3.Error):
                raise ValueError(self._problem(exc)) from None
            raise

    # ------------------------------------------------------------------ file
    def _prepare(self) -> None:
        db = self._db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        if app_id != APPLICATION_ID and (app_id != 0 or tables):
            raise ValueError(f"{self.path} is not a result store of this app (another "
                             "program's database): give another file with --store, or move "
                             "this one away")
        if tables:
            self._check_format()
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("BEGIN IMMEDIATE")           # fails now, not mid-run, when locked
        try:
            if not tables:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                now = _now()
                db.executemany("INSERT INTO meta VALUES (?, ?)", [
                    ("application", APPLICATION), ("format", str(FORMAT)), ("created", now)])
            db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise

    def _check_format(self) -> None:
        try:
            meta = dict(self._db.execute("SELECT key, value FROM meta"))
        except sqlite3.OperationalError:
            meta = {}
        if meta.get("application") != APPLICATION:
            raise ValueError(f"{self.path} is damaged (its meta table does not say what it is): "
                             "give another file with --store, or move this one away")
        if meta.get("format") != str(FORMAT):
            raise ValueError(f"{self.path} is a result store of format {meta.get('format')}, "
                             f"this app reads format {FORMAT}: use the version of the app "
                             "that wrote it, or give another file with --store")

    def _problem(self, exc: sqlite3.Error) -> str:
        text = str(exc)
        if "locked" in text or "busy" in text:
            return (f"the result store {self.path} is locked by another program (another run "
                    "using it?): wait for it to finish, or give another file with --store")
        if "not a database" in text or "malformed" in text or "corrupt" in text:
            return (f"the result store {self.path} is damaged ({text}): move it away (a new "
                    "one is then created), or give another file with --store")
        return (f"cannot use the result store {self.path} ({text}): check that its folder "
                "exists and is writable, or give another file with --store")

    def close(self) -> None:
        """Commit what is pending and close the file (SQLite folds its ``-wal`` side file
        back in and removes it)."""
        if self._db is not None:
            try:
                self.flush()
            finally:
                self._db.close()
                self._db = None

    def flush(self) -> None:
        """Commit the fits saved since the last commit (one transaction, one statement for
        all of them: a fit of a few milliseconds costs the store tens of microseconds)."""
        if self._db is not None and self._pending:
            rows, self._pending = self._pending, []
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    self._db.executemany("INSERT OR REPLACE INTO fits VALUES (?, ?, ?, ?, ?)",
                                         rows)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise ValueError(self._problem(exc)) from None
        self._committed = time.monotonic()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @contextlib.contextmanager
    def _transaction(self):
        self.flush()
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise ValueError(self._problem(exc)) from None

    # ------------------------------------------------------------------ fits
    def data_key(self, dataset) -> str:
        """:func:`engine.fingerprint.data_fingerprint` of ``dataset`` (the last one kept)."""
        from .fingerprint import data_fingerprint

        if self._data is None or self._data[0] is not dataset:
            self._data = (dataset, data_fingerprint(dataset))
        return self._data[1]

    def keys(self, dataset, models, config, metrics, splits, tasks, costs=None) -> list:
        """The key of every task (:func:`engine.fingerprint.fit_keys`)."""
        from .fingerprint import fit_keys

        return fit_keys(dataset, models, config, metrics, splits, tasks,
                        data_key=self.data_key(dataset), costs=costs)

    def lookup(self, keys) -> dict:
        """The stored fits of ``keys`` (none when ``fresh``), by position in ``keys``.

        The keys are also recorded as the fits of the run begun (:meth:`begin_run`).

        Returns
        -------
        dict
            ``{index: FoldFit}`` for every key found.
        """
        keys = list(keys)
        found = {} if self.fresh else self._load(keys)
        by_index = {i: found[key] for i, key in enumerate(keys) if key in found}
        self.fits += len(keys)
        self.reused += len(by_index)
        if self._run is not None:
            with self._transaction() as db:
                db.execute("DELETE FROM run_fits WHERE run = ?", (self._run,))
                db.executemany("INSERT INTO run_fits VALUES (?, ?, ?)",
                               [(self._run, i, key) for i, key in enumerate(keys)])
                db.execute("UPDATE runs SET fits = ?, reused = ? WHERE id = ?",
                           (len(keys), len(by_index), self._run))
        return by_index

    def save(self, key: str, fit) -> bool:
        """Save one finished fit under ``key`` (replacing one stored under it), committed
        at once when ``commit_seconds`` have passed since the last commit, else with the
        next commit (:meth:`flush`, :meth:`close`, the next save after that time).

        Returns False, storing nothing, for a fit holding something that cannot be stored
        without pickle (it is computed again next time).
        """
        try:
            fields, arrays = encode_fit(fit)
        except (TypeError, ValueError):
            return False
        header = json.dumps([[name, dtype, shape, len(raw)] for name, dtype, shape, raw in arrays])
        self._pending.append((key, fields, header, b"".join(raw for *_, raw in arrays),
                              time.time()))
        self.computed += 1
        if time.monotonic() - self._committed >= self.commit_seconds:
            self.flush()
        return True

    def count_fits(self) -> int:
        """How many fits the store holds."""
        return self._query("SELECT COUNT(*) FROM fits")[0][0]

    def _load(self, keys: list) -> dict:
        found = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start:start + 500]
            marks = ",".join("?" * len(chunk))
            for key, fields, header, data in self._query(
                    f"SELECT key, fields, arrays, data FROM fits WHERE key IN ({marks})", chunk):
                found[key] = decode_fit(fields, header, data)
        return found

    def _query(self, sql: str, params=()) -> list:
        if self._pending:
            self.flush()
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise ValueError(self._problem(exc)) from None

    # ------------------------------------------------------------------ runs
    def begin_run(self, experiment, dataset) -> int:
        """Record a run as begun (not complete); the fits looked up next are its fits."""
        from .readers import data_record

        data_key = self.data_key(dataset)

        data = data_record(dataset, experiment.base_dir)
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO runs (batch, started, experiment, base_dir, data, "
                "data_fingerprint, models, primary_metric) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (self.batch, _now(), json.dumps(experiment.to_json(), default=str),
                 os.path.abspath(experiment.base_dir), json.dumps(data, default=str), data_key,
                 json.dumps([m.name for m in experiment.models]),
                 experiment.metrics[0] if experiment.metrics else None))
        self._run = cursor.lastrowid
        return self._run

    def finish_run(self, run_id: int) -> None:
        """Record the run as complete."""
        with self._transaction() as db:
            db.execute("UPDATE runs SET complete = 1, finished = ? WHERE id = ?",
                       (_now(), run_id))
        if self._run == run_id:
            self._run = None

    def runs(self) -> list:
        """Every run recorded, oldest first, as :class:`StoredRun` (without ``keys``)."""
        return [_stored_run(row) for row in self._query(
            f"SELECT {_RUN_COLUMNS} FROM runs ORDER BY id")]

    def run(self, run_id: int) -> StoredRun:
        """One run with the keys of its fits; ``ValueError`` when there is none."""
        rows = self._query(f"SELECT {_RUN_COLUMNS} FROM runs WHERE id = ?", (int(run_id),))
        if not rows:
            raise ValueError(f"the result store {self.path} has no run {run_id}")
        keys = [k for (k,) in self._query(
            "SELECT key FROM run_fits WHERE run = ? ORDER BY position", (int(run_id),))]
        return dataclasses.replace(_stored_run(rows[0]), keys=tuple(keys))


_RUN_COLUMNS = ("id, batch, started, finished, experiment, base_dir, data, data_fingerprint, "
                "models, primary_metric, complete, fits, reused, (SELECT COUNT(*) FROM run_fits "
                "JOIN fits ON fits.key = run_fits.key WHERE run_fits.run = runs.id)")


def _stored_run(row) -> StoredRun:
    (id_, batch, started, finished, experiment, base_dir, data, fingerprint, models, metric,
     complete, fits, reused, stored) = row
    return StoredRun(id_, batch, started, finished, json.loads(experiment), base_dir,
                     json.loads(data or "{}"), fingerprint, tuple(json.loads(models)), metric,
                     bool(complete), fits, reused, max(stored - reused, 0))


def _now() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


def _check_header(path: str) -> None:
    """Refuse a folder or a file that is not SQLite, before SQLite touches it."""
    if os.path.isdir(path):
        raise ValueError(f"the result store {path} is a folder: give a file name with --store")
    try:
        with open(path, "rb") as stream:
            head = stream.read(len(_SQLITE_HEADER))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise ValueError(f"cannot read the result store {path} ({exc.strerror or exc}): give "
                         "another file with --store") from None
    if head and head != _SQLITE_HEADER:
        raise ValueError(f"{path} is not a result store (not an SQLite database): give another "
                         "file with --store, or move this one away")


# ---------------------------------------------------------------------- helpers
@contextlib.contextmanager
def opened(store):
    """``store`` as an open :class:`ResultStore`: None stays None, a path is opened (and
    closed on leaving), an open store is used as it is."""
    if store is None:
        yield store
        return
    if isinstance(store, ResultStore):
        try:
            yield store
        finally:
            store.flush()
        return
    with ResultStore(store) as opened_store:
        yield opened_store


def load_run(store, run_id: int, dataset=None, n_jobs: int = 1):
    """Rebuild a stored run's results without refitting its cross-validation.

    A generator like :func:`engine.analysis.run_experiment`: every fit is read from the
    store (ALOOCV and calibration, when the experiment asks for them, are computed again).

    Parameters
    ----------
    store : ResultStore or str
    run_id : int
        A run of :meth:`ResultStore.runs`.
    dataset : Dataset, optional
        The data, when already loaded; else read again from the run's data set block.
    n_jobs : int
        Workers for the extras.

    Returns
    -------
    engine.analysis.ExperimentResult

    Raises
    ------
    ValueError
        No such run, the data changed since (another fingerprint), or a fit is missing
        (an incomplete run: resume it by running it again).
    """
    from .analysis import run_experiment
    from .data import load_dataset
    from .experiment import parse_experiment
    from .fingerprint import data_fingerprint

    with opened(store) as store:
        stored = store.run(run_id)
        experiment = parse_experiment(stored.experiment, base_dir=stored.base_dir)
        if dataset is None:
            dataset = load_dataset(experiment.dataset, experiment.base_dir)
        if data_fingerprint(dataset) != stored.data_fingerprint:
            raise ValueError(f"the data of run {run_id} changed since it ran: run the "
                             "experiment again")
        store.replay = True
        try:
            return (yield from run_experiment(experiment, n_jobs=n_jobs, dataset=dataset,
                                              store=store))
        finally:
            store.replay = False
