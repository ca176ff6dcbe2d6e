"""Issue 37: each stored run's status is recorded when it happens (cancelled at N of M,
completed, resumed from run X), not recomputed from what the store holds later; a store
of the earlier format is brought to the new one, an altered one refused unchanged."""
import hashlib
import sqlite3

import pytest

from engine.runs.analysis import run_experiment
from engine.runs.store import SCHEMAS, APPLICATION, APPLICATION_ID, FORMAT, ResultStore
from gui.store_runs import read_store, runs_frame, status_text
from tests.helpers import run_with_store as run
from tests.helpers import store_experiment as experiment

N_FITS = 12                                   # 2 models x 3 folds x 2 repeats


def cancel_after(exp, path, fits: int):
    """Run ``exp`` and close its generator (as a cancelled run) once ``fits`` fits are
    computed; the run's fits are committed one by one."""
    with ResultStore(path, commit_seconds=0) as store:
        job = run_experiment(exp, store=store)
        for _ in job:
            if store.computed >= fits:
                job.close()
                break
        return store.computed


def test_a_cancelled_run_keeps_its_history_after_a_later_run_completes(tmp_path):
    path = str(tmp_path / "store.sqlite")
    exp = experiment()
    computed = cancel_after(exp, path, 5)
    assert 5 <= computed < N_FITS
    with ResultStore(path) as store:
        run(exp, store)
        assert (store.reused, store.computed) == (computed, N_FITS - computed)
        first, second = store.runs()
    assert (first.status, first.kept, first.resumed_from) == ("cancelled", computed, None)
    assert first.reused + first.computed == N_FITS            # the store holds all now ...
    assert status_text(first) == f"cancelled after {computed} of {N_FITS} fits"   # ... yet
    assert (second.status, second.kept, second.resumed_from) == ("completed", N_FITS,
                                                                 first.id)
    assert status_text(second) == f"complete; resumed from run {first.id}"
    with ResultStore(path) as store:
        run(exp, store)                                       # all found: resumes nothing
        third = store.runs()[-1]
    assert (third.status, third.resumed_from, status_text(third)) == ("completed", None,
                                                                       "complete")
    assert list(runs_frame([first, second])["Status"]) == [
        f"complete; resumed from run {first.id}", f"cancelled after {computed} of 12 fits"]


def test_a_run_that_fails_is_recorded_as_failed_with_the_fits_it_kept(tmp_path, monkeypatch):
    from engine.runs import analysis

    def fail(*args, **kwargs):
        raise ValueError("no model scored")

    monkeypatch.setattr(analysis, "check_some_score", fail)
    path = str(tmp_path / "store.sqlite")
    with ResultStore(path) as store:
        with pytest.raises(ValueError, match="no model scored"):
            run(experiment(), store)
        (only,) = store.runs()
    assert (only.status, only.kept, only.complete) == ("failed", N_FITS, False)
    assert status_text(only) == f"failed after {N_FITS} of {N_FITS} fits"


def test_a_run_never_ended_says_stopped_at_its_last_commit(tmp_path):
    """A killed run (or one whose window stopped it) never records its end: its last
    commit's count stays."""
    path = str(tmp_path / "store.sqlite")
    store = ResultStore(path, commit_seconds=0)
    job = run_experiment(experiment(), store=store)
    for _ in job:
        if store.computed >= 4:
            break
    kept = store.computed
    with ResultStore(path) as other:                          # as another program reads it
        (only,) = other.runs()
    assert (only.status, only.kept) == ("running", kept)
    assert status_text(only) == f"stopped after {kept} of {N_FITS} fits"
    store.abandon()                                           # the process is gone


def test_the_window_records_the_runs_its_cancel_ended(tmp_path):
    """The window's Cancel ends the run's process at once: the window then records the
    runs begun after the last one it knew, still running, as cancelled (only those)."""
    path = str(tmp_path / "store.sqlite")
    run(experiment(n_repeats=1), ResultStore(path))            # run 1: complete
    store = ResultStore(path, commit_seconds=0)
    job = run_experiment(experiment(), store=store)             # run 2: its process ends
    for _ in job:
        if store.computed >= 4:
            break
    store.abandon()
    snapshot = read_store(path, cancelled_after=1)
    assert [status_text(r) for r in snapshot.runs] == [
        "complete", f"cancelled after {store.reused + store.computed} of {N_FITS} fits"]
    assert store.reused == 6                                    # run 1's fits, found
    with ResultStore(path) as again:
        assert again.mark_cancelled(0) == 0                     # nothing running is left


def format_one_store(path, extra_sql=""):
    """A store as the app made it before statuses were recorded, with one stopped run."""
    db = sqlite3.connect(path)
    db.executescript(SCHEMAS[1] + extra_sql)
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    db.executemany("INSERT INTO meta VALUES (?, ?)", [("application", APPLICATION),
                                                      ("format", "1"), ("created", "x")])
    db.execute("INSERT INTO runs (batch, started, experiment, models, fits, reused) VALUES "
               "('b', '2026-01-01T00:00:00', '{}', '[\"nb\"]', 500, 0)")
    db.commit()
    db.close()


def test_a_store_of_the_earlier_format_opens_and_says_what_it_holds_now(tmp_path):
    path = str(tmp_path / "old.sqlite")
    format_one_store(path)
    with ResultStore(path) as store:
        (old,) = store.runs()
    assert (old.status, old.kept, old.resumed_from) == (None, None, None)
    assert status_text(old) == "stopped; 0 of 500 fits in the store now"
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone() == (
            str(FORMAT),)
        assert db.execute("SELECT COUNT(*) FROM run_status").fetchone() == (0,)
    db.close()
    with ResultStore(path) as store:                          # and opens again as it is
        assert len(store.runs()) == 1


def test_an_altered_store_of_the_earlier_format_is_refused_unchanged(tmp_path):
    path = str(tmp_path / "old.sqlite")
    format_one_store(path, "CREATE TABLE run_status (x);")
    before = digest(path)
    with pytest.raises(ValueError, match="it holds the table 'run_status'"):
        ResultStore(path)
    assert digest(path) == before


def digest(path) -> str:
    with open(path, "rb") as stream:
        return hashlib.sha256(stream.read()).hexdigest()
