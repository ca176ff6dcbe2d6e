"""The result store: every finished fit kept in an SQLite file, so runs resume and grow.

:class:`ResultStore` keeps each cross-validation fit (:class:`engine.evaluation.cv.FoldFit`) under its
key (:func:`engine.runs.fingerprint.fit_keys`): a run looks every fit up first, computes only the
missing ones and commits them as they finish (fits faster than :data:`COMMIT_SECONDS` in
groups), so an interrupted run loses at most the fits in flight (a killed one also those of
the last quarter second), adding a model or a repeat computes only the new fits and renaming a model
computes nothing. The ``runs`` table records every run (:class:`StoredRun`), the
``run_status`` table its status as it happens (running with the fits kept at each commit,
then completed, cancelled or failed, and the unfinished run it resumed);
:func:`load_run` rebuilds a run's results from the store without refitting. The
``job_results`` table (format 3) keeps the results of calibration and ALOOCV jobs on a
run's result (:meth:`ResultStore.save_job`, :mod:`engine.runs.job_rows`).

The file
--------
Python's ``sqlite3`` in WAL mode (``synchronous=NORMAL``: a commit survives the process
being killed; a power cut may lose the last fits, never the file), written only by the
process that runs :func:`engine.evaluation.cv.run_cv` (workers never write). Its header carries this
application's id and its ``meta`` table the format: a file that is not SQLite, another
program's database, a damaged or locked one is refused with an
:class:`engine.foundation.errors.EngineError` (a ``ValueError``; its code says which problem, e.g.
``store_locked``) that says what to do, and is never changed. A fit is stored without pickle: its plain fields as
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

from engine.input.csv_values import one_line
from engine.foundation.caller_errors import DetailError, detail_of
from engine.foundation.errors import EngineError
from engine.input.file_checks import check_regular_file
from engine.runs.fingerprint import data_fingerprint, fit_keys
from engine.runs.fit_rows import check_room, decode_fit, encode_fit
from engine.runs.job_rows import (decode_result, decode_settings, encode_result, kind_of,
                                  settings_text)
from engine.input.readers import data_record

#: ``PRAGMA application_id`` of a store ("HEvS").
APPLICATION_ID = 0x48457653
#: The store's format (``meta`` table, key ``format``): 2 adds the ``run_status`` table
#: (each run's status as it happened), 3 the ``job_results`` table (calibration and
#: ALOOCV jobs' results, :mod:`engine.runs.job_rows`); a store of format 1 or 2 is brought
#: to 3 when opened (after every check passed), an older or newer one is refused
#: (``store_format``).
FORMAT = 3
APPLICATION = "honest-eval result store"
#: The store's file name in a headless run's result folder (with SQLite's ``-wal`` and
#: ``-shm`` side files beside it while it is open).
DEFAULT_NAME = "store.sqlite"
#: The store the app keeps beside a saved experiment: ``NAME.store.sqlite`` next to
#: ``NAME.json`` (:func:`store_beside`); the headless runner uses it when it exists.
BESIDE_SUFFIX = ".store.sqlite"
#: Seconds to wait for another program's lock before refusing the file.
LOCK_TIMEOUT = 5.0
#: At most this many seconds between a fit's end and its commit (while the run goes on;
#: stopping, cancelling or closing commits at once).
COMMIT_SECONDS = 0.25
_SQLITE_HEADER = b"SQLite format 3\x00"
_SIDE_FILES = ("-wal", "-shm", "-journal")
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
#: What format 2 adds: each run's status recorded as it happens (``running`` while it
#: runs, with the fits it kept so far; then ``completed``, ``cancelled`` or ``failed``)
#: and the earlier run of the same setup it resumed.
_STATUS_TABLE = """
CREATE TABLE run_status (run INTEGER PRIMARY KEY, status TEXT NOT NULL,
                         kept INTEGER NOT NULL DEFAULT 0, resumed_from INTEGER,
                         changed TEXT NOT NULL);
"""
#: What format 3 adds: the result of a calibration or ALOOCV job on a run's result, under
#: its key (:func:`engine.runs.job_rows.job_key`), with the key of its setup (data, models,
#: folds) a re-opened run is looked up by, its settings, its tables (header and bytes)
#: and notes.
_JOBS_TABLE = """
CREATE TABLE job_results (key TEXT PRIMARY KEY, kind TEXT NOT NULL, setup TEXT NOT NULL,
                          settings TEXT NOT NULL, tables TEXT NOT NULL, data BLOB NOT NULL,
                          notes TEXT NOT NULL, saved REAL NOT NULL);
"""
#: The tables each format adds to the one before.
_ADDED = {2: _STATUS_TABLE, 3: _JOBS_TABLE}
SCHEMAS = {1: _SCHEMA, 2: _SCHEMA + _STATUS_TABLE, 3: _SCHEMA + _STATUS_TABLE + _JOBS_TABLE}
_SCHEMA = SCHEMAS[FORMAT]
#: The statuses a run is recorded with.
STATUSES = ("running", "completed", "cancelled", "failed")


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
    status : str or None
        Of :data:`STATUSES`, as recorded when it happened (``running`` for a run that
        never ended: stopped by its window, killed, or still running); None for a run
        of a store made before statuses were recorded.
    kept : int or None
        The fits it had kept (found and computed) when its status was last recorded.
    resumed_from : int or None
        The id of the earlier, unfinished run of the same setup whose fits it found.
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
    status: Optional[str] = None
    kept: Optional[int] = None
    resumed_from: Optional[int] = None


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
        # (handle, row) of a run begun, not yet recorded
        self._begun: Optional[tuple[int, tuple]] = None
        self._handles = 0                  # begin_run's handles
        self._ids: dict[int, int] = {}     # begin_run's handles -> their runs' ids
        self._data: Optional[tuple] = None   # (dataset, its fingerprint)
        self._pending: list = []           # rows of fits saved, not yet committed
        self._counted: Optional[tuple] = None   # (run, fits found, self.computed) at its lookup
        self.commit_seconds, self.timeout = commit_seconds, timeout
        self._committed = time.monotonic()
        check_store_path(self.path)
        #: True when this object made the store (the file did not exist, or was empty).
        self.created = False
        try:
            self._db: Optional[sqlite3.Connection] = sqlite3.connect(
                self.path, timeout=timeout, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise self._problem(exc) from None
        try:
            self._prepare()
        except BaseException as exc:
            self._connection.close()
            if isinstance(exc, sqlite3.Error):
                raise self._problem(exc) from None
            raise

    # ------------------------------------------------------------------ file
    @property
    def _connection(self) -> sqlite3.Connection:
        """The open connection (once closed, SQLite's own error for a closed database)."""
        if self._db is None:
            raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
        return self._db

    def _prepare(self) -> None:
        """Check the file and, when it is new (no page yet), make the store: every check
        and the creation in one write transaction, so that two programs opening a new
        store at once both succeed (one makes it, the other finds it made) and a refused
        file is never changed."""
        db = self._connection
        db.execute("BEGIN IMMEDIATE")           # fails now, not mid-run, when locked
        try:
            if self._new_file():
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                now = _now()
                db.executemany("INSERT INTO meta VALUES (?, ?)", [
                    ("application", APPLICATION), ("format", str(FORMAT)), ("created", now)])
                self.created = True
            else:
                self._check_store()
            db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise
        self._use_wal()                          # after the checks: a refused file keeps
        db.execute("PRAGMA synchronous=NORMAL")  # its journal mode too

    def _use_wal(self) -> None:
        """Switch the file to WAL (once; later openers find it so). SQLite answers "locked"
        at once, without waiting, while another connection is using the file: asked again
        until ``timeout`` has passed."""
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                self._connection.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
            time.sleep(0.01)

    def _new_file(self) -> bool:
        """Inside the write transaction: True for a file without any content yet (just
        made by ``connect``, or a zero-byte file someone made): the store is made there.
        A valid SQLite file, even one without any table, is not taken over."""
        try:
            empty = os.path.getsize(self.path) == 0
        except OSError:
            empty = False
        return empty and self._connection.execute("PRAGMA schema_version").fetchone()[0] == 0

    def _check_store(self) -> None:
        """Refuse an SQLite file that is not an intact result store of this format."""
        db = self._connection
        if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            raise EngineError("store_foreign", {"path": self.path},
                              f"{self.path} is not a result store of this app (another "
                              "program's database, or an SQLite file without this app's "
                              "tables): give another file with --store, or move this one away")
        found = self._check_format()
        problem = schema_problem(db, format_=found)
        if problem:
            raise EngineError("store_foreign", {"path": self.path},
                              f"{self.path} is not a result store of this app ({problem}): "
                              "give another file with --store, or move this one away")
        if found < FORMAT:                       # every check passed: bring it to FORMAT
            for added in range(found + 1, FORMAT + 1):
                for statement in _ADDED[added].split(";"):
                    if statement.strip():
                        db.execute(statement)
            db.execute("UPDATE meta SET value = ? WHERE key = 'format'", (str(FORMAT),))

    def _damaged(self, what: str) -> EngineError:
        return EngineError("store_damaged", {"path": self.path, "detail": what},
                           f"the result store {self.path} is damaged ({what}): move it away "
                           "(a new one is then created), or give another file with --store")

    def _check_format(self) -> int:
        """The store's format (one this app reads), else a coded ``store_format`` error."""
        try:
            meta = dict(self._connection.execute("SELECT key, value FROM meta"))
        except (sqlite3.Error, ValueError, TypeError):
            meta = {}
        if meta.get("application") != APPLICATION:
            raise EngineError("store_damaged", {"path": self.path, "detail": "meta"},
                              f"{self.path} is damaged (its meta table does not say what it "
                              "is): give another file with --store, or move this one away")
        if meta.get("format") not in {str(n) for n in SCHEMAS}:
            raise EngineError("store_format", {"path": self.path,
                                               "format": str(meta.get("format"))[:20],
                                               "expected": str(FORMAT)},
                              f"{self.path} is a result store of format "
                              f"{str(meta.get('format'))[:20]!r}, this app reads format "
                              f"{FORMAT}: use the version of the app that wrote it, or give "
                              "another file with --store")
        return int(meta["format"])

    def _problem(self, exc: sqlite3.Error) -> EngineError:
        """SQLite's error as a coded store error (SQLite's own wording is read here, the
        one place that knows it)."""
        text = str(exc)
        if "locked" in text or "busy" in text:
            return EngineError("store_locked", {"path": self.path},
                               f"the result store {self.path} is locked by another program "
                               "(another run using it?): wait for it to finish, or give "
                               "another file with --store")
        if "not a database" in text or "malformed" in text or "corrupt" in text:
            return self._damaged(text)
        return EngineError("store_unusable", {"path": self.path, "detail": text},
                           f"cannot use the result store {self.path} ({text}): check that "
                           "its folder exists and is writable, or give another file with "
                           "--store")

    def close(self) -> None:
        """Commit what is pending and close the file (SQLite folds its ``-wal`` side file
        back in and removes it)."""
        if self._db is not None:
            try:
                self.flush()
            finally:
                self._db.close()
                self._db = None

    def abandon(self) -> None:
        """Close the file without committing what is pending: what a process that is
        killed leaves behind (the fits since the last commit are lost)."""
        if self._db is not None:
            self._db.close()
            self._db = None

    def flush(self) -> None:
        """Commit the fits saved since the last commit (one transaction, one statement for
        all of them: a fit of a few milliseconds costs the store tens of microseconds)."""
        if self._db is not None and self._pending:
            rows, self._pending = self._pending, []
            with self._immediate() as db:
                db.executemany("INSERT OR REPLACE INTO fits VALUES (?, ?, ?, ?, ?)", rows)
                self._record_kept(db)
        self._committed = time.monotonic()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @contextlib.contextmanager
    def _transaction(self):
        """A write transaction after the pending fits are committed."""
        self.flush()
        with self._immediate() as db:
            yield db

    @contextlib.contextmanager
    def _immediate(self):
        """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on any exception); a SQLite
        error becomes the store's own problem (:meth:`_problem`)."""
        try:
            self._connection.execute("BEGIN IMMEDIATE")
            try:
                yield self._connection
            except BaseException:
                self._connection.execute("ROLLBACK")
                raise
            self._connection.execute("COMMIT")
        except sqlite3.Error as exc:
            raise self._problem(exc) from None

    # ------------------------------------------------------------------ fits
    def data_key(self, dataset) -> str:
        """:func:`engine.runs.fingerprint.data_fingerprint` of ``dataset`` (the last one kept)."""
        if self._data is None or self._data[0] is not dataset:
            self._data = (dataset, data_fingerprint(dataset))
        return self._data[1]

    def keys(self, dataset, models, config, metrics, splits, tasks, costs=None) -> list:
        """The key of every task (:func:`engine.runs.fingerprint.fit_keys`)."""
        return fit_keys(dataset, models, config, metrics, splits, tasks,
                        data_key=self.data_key(dataset), costs=costs)

    def lookup(self, keys, test_sizes=None) -> dict:
        """The stored fits of ``keys`` (none when ``fresh``), by position in ``keys``.

        The keys are also recorded as the fits of the run begun (:meth:`begin_run`).
        Every stored fit read is checked (:func:`engine.runs.fit_rows.decode_fit`; with
        ``test_sizes``, one per key, its predictions have that many rows): a fit that
        fails is a ``ValueError`` saying that the store is damaged, before anything is
        written to it.

        Returns
        -------
        dict
            ``{index: FoldFit}`` for every key found.
        """
        keys = list(keys)
        by_index = self.lookup_extra(keys, test_sizes)
        self.fits += len(keys)
        self.reused += len(by_index)
        if self._run is not None or self._begun is not None:
            with self._transaction() as db:
                self._record_begun(db)
                db.execute("DELETE FROM run_fits WHERE run = ?", (self._run,))
                db.executemany("INSERT INTO run_fits VALUES (?, ?, ?)",
                               [(self._run, i, key) for i, key in enumerate(keys)])
                db.execute("UPDATE runs SET fits = ?, reused = ? WHERE id = ?",
                           (len(keys), len(by_index), self._run))
                resumed = _resumed_run(db, self._run) if by_index else None
                db.execute("UPDATE run_status SET kept = ?, resumed_from = ?, changed = ? "
                           "WHERE run = ?", (len(by_index), resumed, _now(), self._run))
                self._counted = (self._run, len(by_index), len(keys), self.computed)
        return by_index

    def lookup_extra(self, keys, test_sizes=None) -> dict:
        """The stored fits of ``keys`` (none when ``fresh``), checked as :meth:`lookup`
        checks them, without recording them as the run's fits: for the fits of an extra
        phase (the nested-CV interval's, :mod:`engine.runs.nested_cv`).

        Returns
        -------
        dict
            ``{index: FoldFit}`` for every key found.
        """
        keys = list(keys)
        found = {} if self.fresh else self._load(keys)
        if test_sizes is not None:
            for key, size in zip(keys, test_sizes):
                if key in found and not _fits_rows(found[key], size):
                    raise self._damaged(f"the fit stored under {key[:12]}... has "
                                        f"predictions for other than {size} rows")
        return {i: found[key] for i, key in enumerate(keys) if key in found}

    def keep_first(self, n_fits: int) -> None:
        """The run stopped early (``"n_repeats": "auto"``): only the first ``n_fits`` of the
        keys it looked up are its fits (its record, its count and :attr:`fits`)."""
        if self._counted is None or n_fits >= self._counted[2]:
            return
        run, found, total, computed = self._counted
        self.fits -= total - n_fits
        self._counted = (run, min(found, n_fits), n_fits, computed)
        if run is None or run != self._run:
            return
        with self._transaction() as db:
            db.execute("DELETE FROM run_fits WHERE run = ? AND position >= ?", (run, n_fits))
            db.execute("UPDATE runs SET fits = ? WHERE id = ?", (n_fits, run))

    def _record_kept(self, db) -> None:
        """Record the fits the current run has kept so far (inside a transaction, with
        the fits just committed): its history as it happens, not as the store is later."""
        if self._counted is None or self._counted[0] != self._run or self._run is None:
            return
        run, found, total, computed = self._counted
        kept = min(found + self.computed - computed, total)
        db.execute("UPDATE run_status SET kept = ?, changed = ? WHERE run = ? AND "
                   "status = 'running'", (kept, _now(), run))

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

    def count_stored(self, keys) -> int:
        """How many of ``keys`` the store holds (0 when ``fresh``); nothing is loaded or
        recorded (:func:`engine.runs.run_plan.stored_fits`)."""
        keys = list(dict.fromkeys(keys))
        if self.fresh:
            return 0
        found = 0
        for start in range(0, len(keys), 500):
            chunk = keys[start:start + 500]
            marks = ",".join("?" * len(chunk))
            found += self._query(f"SELECT COUNT(*) FROM fits WHERE key IN ({marks})",
                                 chunk)[0][0]
        return found

    def _load(self, keys: list) -> dict:
        found = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start:start + 500]
            marks = ",".join("?" * len(chunk))
            for key, fields, header, data in self._query(
                    f"SELECT key, fields, arrays, data FROM fits WHERE key IN ({marks})", chunk):
                try:
                    found[key] = decode_fit(fields, header, data)
                except (ValueError, TypeError, KeyError, OverflowError, RecursionError,
                        MemoryError) as exc:
                    raise self._damaged(
                        f"the fit stored under {str(key)[:12]}... cannot be read: "
                        f"{one_line(detail_of(exc))[:200]}") from None
        return found

    def _query(self, sql: str, params=()) -> list:
        if self._pending:
            self.flush()
        try:
            return self._connection.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise self._problem(exc) from None

    # ------------------------------------------------------------------ jobs
    def save_job(self, key: str, setup: str, result, settings) -> bool:
        """Keep a calibration or ALOOCV job's ``result`` under ``key``
        (:func:`engine.runs.job_rows.job_key`; ``setup`` its setup's key), replacing one
        kept under it, committed at once. False, keeping nothing, for a result holding
        what cannot be stored without pickle."""
        try:
            header, data, notes = encode_result(result)
        except (TypeError, ValueError):
            return False
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO job_results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (key, kind_of(result), setup, settings_text(settings), header, data,
                        notes, time.time()))
        return True

    def lookup_job(self, key: str):
        """The job result kept under ``key``, or None (always None when ``fresh``);
        a stored result that fails its checks is ``store_damaged``."""
        return None if self.fresh else self._job_where("key = ?", (key,))

    def latest_job(self, kind: str, setup: str):
        """``(result, settings)`` of the job of ``kind`` last kept for ``setup``
        (:func:`engine.runs.job_rows.setup_key`), or None (always None when ``fresh``)."""
        return None if self.fresh else self._job_where(
            "kind = ? AND setup = ? ORDER BY saved DESC, rowid DESC LIMIT 1", (kind, setup),
            with_settings=True)

    def _job_where(self, where: str, params: tuple, with_settings: bool = False):
        """The first stored job result ``WHERE where``: its sizes are read and bounded
        before its bytes (:func:`engine.runs.fit_rows.check_room`), then every part
        checked (:func:`engine.runs.job_rows.decode_result`)."""
        rows = self._query("SELECT rowid, length(tables) + length(data) + length(notes) "
                           f"+ length(settings) FROM job_results WHERE {where}", params)
        if not rows:
            return None
        rowid, size = rows[0]
        try:
            check_room(int(size or 0))
            (kind, settings, header, data, notes), = self._query(
                "SELECT kind, settings, tables, data, notes FROM job_results WHERE rowid = ?",
                (rowid,))
            result = decode_result(kind, settings, header, data, notes)
            parsed = decode_settings(kind, settings)
        except (ValueError, TypeError, KeyError, OverflowError, RecursionError,
                MemoryError) as exc:
            if isinstance(exc, EngineError):
                raise
            raise self._damaged(f"a kept calibration or ALOOCV result cannot be read: "
                                f"{one_line(detail_of(exc))[:200]}") from None
        return (result, parsed) if with_settings else result

    # ------------------------------------------------------------------ runs
    def begin_run(self, experiment, dataset) -> int:
        """Begin a run: the fits looked up next are its fits. It is recorded (as begun,
        not complete) when they are looked up, after every stored fit read passed its
        checks, so that a damaged store is left as it was.

        Returns
        -------
        int
            The handle to give :meth:`finish_run`.
        """
        data_key = self.data_key(dataset)
        data = data_record(dataset, base_dir=experiment.base_dir)
        self._handles += 1
        self._begun = (self._handles, (
            self.batch, _now(), json.dumps(experiment.to_json(), default=str),
            os.path.abspath(experiment.base_dir), json.dumps(data, default=str), data_key,
            json.dumps([m.name for m in experiment.models]),
            experiment.metrics[0] if experiment.metrics else None))
        self._run = None
        return self._handles

    def _record_begun(self, db) -> None:
        """Insert the run begun (inside a transaction); its id becomes the current run's."""
        if self._begun is None:
            return
        handle, row = self._begun
        cursor = db.execute(
            "INSERT INTO runs (batch, started, experiment, base_dir, data, "
            "data_fingerprint, models, primary_metric) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
        self._run = self._ids[handle] = cursor.lastrowid
        db.execute("INSERT INTO run_status (run, status, changed) VALUES (?, 'running', ?)",
                   (self._run, _now()))
        self._begun = None

    def finish_run(self, handle: int) -> None:
        """Record the run begun with ``handle`` (:meth:`begin_run`) as complete."""
        with self._transaction() as db:
            if self._begun is not None and self._begun[0] == handle:
                self._record_begun(db)
            db.execute("UPDATE runs SET complete = 1, finished = ? WHERE id = ?",
                       (_now(), self._ids.get(handle)))
            db.execute("UPDATE run_status SET status = 'completed', changed = ?, kept = "
                       "(SELECT fits FROM runs WHERE id = ?) WHERE run = ?",
                       (_now(), self._ids.get(handle), self._ids.get(handle)))
        if self._run == self._ids.get(handle):
            self._run = None

    def end_run(self, handle: int, status: str) -> None:
        """Record that the run begun with ``handle`` ended without finishing: ``status``
        ``"cancelled"`` or ``"failed"``, with the fits it kept (a run not recorded yet,
        e.g. refused when its stored fits were read, stays unrecorded; a store that
        cannot be written is left as it is)."""
        run = self._ids.get(handle)
        if run is None or status not in STATUSES or self._db is None:
            return
        with contextlib.suppress(ValueError), self._transaction() as db:
            db.execute("UPDATE run_status SET status = ?, changed = ? WHERE run = ? "
                       "AND status = 'running'", (status, _now(), run))
        if self._run == run:
            self._run = None

    def mark_cancelled(self, after: int) -> int:
        """Record as ``cancelled`` the runs still recorded as running of the first batch
        begun after run ``after``: a window's run whose process its Cancel ended at
        once (it could not record that itself).  Returns how many were marked."""
        with self._transaction() as db:
            return db.execute(
                "UPDATE run_status SET status = 'cancelled', changed = ? WHERE status = "
                "'running' AND run IN (SELECT id FROM runs WHERE id > ? AND batch = "
                "(SELECT batch FROM runs WHERE id > ? ORDER BY id LIMIT 1))",
                (_now(), int(after), int(after))).rowcount

    def runs(self) -> list:
        """Every run recorded, oldest first, as :class:`StoredRun` (without ``keys``)."""
        return [self._stored_run(row) for row in self._query(
            f"SELECT {_RUN_COLUMNS} FROM runs ORDER BY id")]

    def run(self, run_id: int) -> StoredRun:
        """One run with the keys of its fits; ``ValueError`` when there is none."""
        rows = self._query(f"SELECT {_RUN_COLUMNS} FROM runs WHERE id = ?", (int(run_id),))
        if not rows:
            raise EngineError("store_no_run", {"path": self.path, "run_id": run_id},
                              f"the result store {self.path} has no run {run_id}")
        keys = [k for (k,) in self._query(
            "SELECT key FROM run_fits WHERE run = ? ORDER BY position", (int(run_id),))]
        if not all(isinstance(key, str) for key in keys):
            raise self._damaged(f"run {run_id} lists fits that are not keys")
        return dataclasses.replace(self._stored_run(rows[0]), keys=tuple(keys))

    def _stored_run(self, row) -> StoredRun:
        try:
            return _stored_run(row)
        except (ValueError, TypeError, RecursionError) as exc:
            raise self._damaged(f"its run {str(row[0])[:20]} cannot be read: "
                                f"{one_line(detail_of(exc))[:200]}") from None


_RUN_COLUMNS = ("id, batch, started, finished, experiment, base_dir, data, data_fingerprint, "
                "models, primary_metric, complete, fits, reused, (SELECT COUNT(*) FROM run_fits "
                "JOIN fits ON fits.key = run_fits.key WHERE run_fits.run = runs.id), "
                "(SELECT status FROM run_status WHERE run = runs.id), "
                "(SELECT kept FROM run_status WHERE run = runs.id), "
                "(SELECT resumed_from FROM run_status WHERE run = runs.id)")


def _resumed_run(db, run: Optional[int]) -> Optional[int]:
    """The latest earlier run of the same experiment on the same data that did not
    finish, with no finished run of them since (the run ``run``, which found stored
    fits, resumes it), or None."""
    same = ("{0}.experiment = this.experiment AND {0}.data_fingerprint IS "
            "this.data_fingerprint")
    row = db.execute(
        "SELECT earlier.id FROM runs AS earlier, runs AS this WHERE this.id = ? AND "
        f"earlier.id < this.id AND {same.format('earlier')} AND earlier.complete = 0 AND "
        f"NOT EXISTS (SELECT 1 FROM runs AS done WHERE {same.format('done')} AND "
        "done.complete = 1 AND done.id > earlier.id AND done.id < this.id) "
        "ORDER BY earlier.id DESC LIMIT 1", (run,)).fetchone()
    return row[0] if row else None


def _stored_run(row) -> StoredRun:
    """A ``runs`` row as a :class:`StoredRun`, every value checked (a ValueError or
    TypeError naming what is wrong)."""
    (id_, batch, started, finished, experiment, base_dir, data, fingerprint, models, metric,
     complete, fits, reused, stored, status, kept, resumed) = row
    experiment, data = json.loads(experiment), json.loads(data or "{}")
    models = json.loads(models)
    if not isinstance(experiment, dict) or not isinstance(data, dict):
        # internal: the detail of the "store_damaged" error _stored_run raises
        raise DetailError("its experiment or data is not a JSON object")
    if not isinstance(models, list) or not all(isinstance(m, str) for m in models):
        # internal: the detail of the "store_damaged" error _stored_run raises
        raise DetailError("its models are not a list of names")
    texts = (batch, started, base_dir, fingerprint)
    if not all(isinstance(t, str) or t is None for t in (*texts, finished, metric)):
        # internal: the detail of the "store_damaged" error _stored_run raises
        raise DetailError("a text field holds something else")
    counts = (id_, complete, fits, reused, stored)
    if not all(isinstance(n, int) and n >= 0 for n in counts):
        # internal: the detail of the "store_damaged" error _stored_run raises
        raise DetailError("a count is not a whole number")
    if status not in (None, *STATUSES) or not all(
            n is None or (isinstance(n, int) and n >= 0) for n in (kept, resumed)):
        # internal: the detail of the "store_damaged" error _stored_run raises
        raise DetailError("its recorded status is not one of this app's")
    return StoredRun(id_, batch, started, finished, experiment, base_dir, data, fingerprint,
                     tuple(models), metric, bool(complete), fits, reused,
                     max(stored - reused, 0), status=status, kept=kept, resumed_from=resumed)


def _fits_rows(fit, size: int) -> bool:
    """True when a stored fit's predictions (if any) are for ``size`` test rows."""
    return all(value is None or len(value) == size for value in (fit.values, fit.labels))


def store_beside(experiment_path: str) -> str:
    """The store file beside an experiment file: ``NAME.store.sqlite`` for ``NAME.json``
    (the app keeps a saved experiment's store there)."""
    stem = os.path.splitext(os.path.abspath(experiment_path))[0]
    return stem + BESIDE_SUFFIX


def _now() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


def check_store_path(path: str, *, in_folder: bool = False) -> None:
    """Refuse, before SQLite opens it, what cannot be a result store file: a folder, a
    named pipe, a device or a socket (:func:`engine.input.file_checks.check_regular_file`), a link
    to nothing, SQLite side files (``-wal``, ``-shm``, ``-journal``) that are links or
    are there without the store, and a file that is not SQLite. A missing file is fine
    (it is created).

    Parameters
    ----------
    path : str
    in_folder : bool
        The store is the result folder's own ``store.sqlite``: a link there is refused
        too, a hard link (another name of the file or of a side file) included (nothing
        is written through a link inside a result folder).

    Raises
    ------
    ValueError
        What is wrong and what to do, in one line.
    """
    if os.path.islink(path) and (in_folder or not os.path.exists(path)):
        what = ("a symbolic link inside the result folder (the app does not write through "
                "links there)" if in_folder else "a symbolic link to a file that does not exist")
        raise EngineError("store_link", {"path": path, "link": path},
                          f"the result store {path} is {what}: remove the link, or give the "
                          "real file with --store")
    for suffix in _SIDE_FILES:
        if os.path.islink(path + suffix):
            raise EngineError("store_link", {"path": path, "link": path + suffix},
                              f"the result store's side file {path + suffix} is a symbolic "
                              "link: remove it (SQLite would write through it), or give "
                              "another file with --store")
    if not os.path.lexists(path):
        _refuse_side_files(path)
        if not os.path.lexists(path):
            return
    if in_folder:
        _refuse_hard_links(path)
    try:
        check_regular_file(path, what="a result store file")
    except ValueError as exc:                 # a folder, a pipe, a device ...
        raise EngineError("store_unusable", {"path": path, "detail": "not_regular"},
                          str(exc)) from None
    with open(path, "rb") as stream:          # a regular file: reading cannot block
        head = stream.read(len(_SQLITE_HEADER))
    if head and head != _SQLITE_HEADER:
        raise EngineError("store_not_sqlite", {"path": path},
                          f"{path} is not a result store (not an SQLite database): give "
                          "another file with --store, or move this one away")


def _refuse_side_files(path: str) -> None:
    """Refuse SQLite side files without their store (a user's files, or another
    program's): SQLite would take them for the new store's own, and change or delete
    them. A side file seen when the store is there by then is the store's own: another
    thread or process made the store in the meantime (SQLite makes the store first)."""
    for suffix in _SIDE_FILES:
        if os.path.lexists(path + suffix) and not os.path.lexists(path):
            raise EngineError("store_side_files", {"path": path, "side": path + suffix},
                              f"{path + suffix} is there without the result store {path} "
                              "(SQLite would take it for the store's own and change or "
                              "delete it): move it away, or give another file with --store")


def _refuse_hard_links(path: str) -> None:
    """Refuse a store in the result folder, or a side file of it, that has other names (a
    hard link): writing it would change a file outside the folder."""
    for name in (path, *(path + suffix for suffix in _SIDE_FILES)):
        try:
            links = os.lstat(name).st_nlink
        except OSError:
            continue
        if links > 1:
            raise EngineError("store_hard_link", {"path": path, "link": name},
                              f"the result store's file {name} has {links - 1} other "
                              "name(s) (a hard link; the app does not write through links "
                              "inside the result folder): remove the link, or give the real "
                              "file with --store")


def schema_problem(db, *, format_: int = FORMAT) -> Optional[str]:
    """What is wrong with an open store's schema, or None: every table, index and trigger
    is compared with this app's by its full SQL (whitespace aside), so a column, a
    constraint, a default or a type of another program is found before anything is
    written. ``format_``: the store's format (:data:`FORMAT` or an older one it is brought
    from)."""
    try:
        found = _schema_of(db)
    except sqlite3.Error as exc:
        return f"its tables cannot be read: {exc}"
    expected = _expected_schema(format_)
    for (kind, name), sql in expected.items():
        if (kind, name) not in found:
            return f"its {name} {kind} is missing"
        if found[(kind, name)] != sql:
            if kind == "table" and _columns(db, name) != _expected_columns()[name]:
                return f"its {name} table has other columns than this app's"
            return (f"its {name} {kind} is not defined as this app defines it (a "
                    "constraint, a type or a default differs)")
    extra = sorted(set(found) - set(expected))
    if extra:
        kind, name = extra[0]
        return f"it holds the {kind} {str(name)[:40]!r}, which this app does not make"
    return None


def _schema_of(db) -> dict:
    """``{(type, name): SQL with whitespace squeezed}`` of every entry of a schema."""
    return {(kind, name): " ".join(str(sql).split()) if sql is not None else None
            for kind, name, sql in db.execute("SELECT type, name, sql FROM sqlite_master")}


def _columns(db, table: str) -> list:
    return [row[0] for row in db.execute("SELECT name FROM pragma_table_info(?)", (table,))]


_EXPECTED: dict = {}


def _expected_schema(format_: int = FORMAT) -> dict:
    """:func:`_schema_of` this app's store of ``format_`` (made once in memory)."""
    if format_ not in _EXPECTED:
        with contextlib.closing(sqlite3.connect(":memory:")) as db:
            db.executescript(SCHEMAS[format_])
            _EXPECTED[format_] = _schema_of(db)
    return _EXPECTED[format_]


def _expected_columns() -> dict:
    """``{table: [column, ...]}`` of this app's store."""
    with contextlib.closing(sqlite3.connect(":memory:")) as db:
        db.executescript(_SCHEMA)
        return {name: _columns(db, name) for kind, name in _expected_schema()
                if kind == "table"}


# ---------------------------------------------------------------------- helpers
@contextlib.contextmanager
def ending_recorded(store, handle):
    """Record in ``store`` how the run begun with ``handle`` ended when it does not
    finish: ``cancelled`` (Ctrl-C, its generator closed) or ``failed`` (any other
    exception), then pass the exception on. None for ``store`` records nothing."""
    try:
        yield
    except BaseException as exc:
        if store is not None and handle is not None:
            cancelled = isinstance(exc, (KeyboardInterrupt, GeneratorExit))
            store.end_run(handle, "cancelled" if cancelled else "failed")
        raise


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
