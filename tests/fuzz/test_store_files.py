"""Issue 31 (items 4 and 5) and issue 27: the result store file.

``--store`` is checked like a data file (no FIFO, device, folder or link to nothing); a
file that is not an intact store of this app is one ``error:`` line, exit 2, and is left
byte for byte as it was; stored values are checked when read; a new store opened by many
programs at once is made once and opened by all.
"""
import hashlib
import json
import multiprocessing
import os
import sqlite3
import subprocess
import sys
import threading

import pytest

from engine.runs.store import ResultStore
from gui.store_runs import read_store
from tests.fuzz.conftest import ROOT, headless
from tests.fuzz.test_result_folder import one_error_line, tiny_experiment


@pytest.fixture
def exp(tmp_path):
    return tiny_experiment(tmp_path / "exp.json")


def digest(path) -> str:
    with open(path, "rb") as stream:
        return hashlib.sha256(stream.read()).hexdigest()


def stored_run(tmp_path, exp):
    """A store holding one real run (closed: its side files folded back in)."""
    store = tmp_path / "kept.sqlite"
    done = headless(exp, "--out", tmp_path / "first", "--store", store, "--quiet")
    assert done.returncode == 0, done.stderr
    return store


def edit(store, *statements):
    with sqlite3.connect(store) as db:
        for statement, *params in statements:
            db.execute(statement, *params)
    db.close()


# ---------------------------------------------------------------------- special files
@pytest.mark.parametrize("kind", ["fifo", "device", "folder", "dangling", "text"])
def test_a_store_path_that_is_no_file_is_refused_at_once(tmp_path, exp, kind):
    store = tmp_path / "store"
    if kind == "fifo":
        os.mkfifo(store)
    elif kind == "device":
        store = "/dev/zero"
    elif kind == "folder":
        store.mkdir()
    elif kind == "dangling":
        os.symlink(tmp_path / "elsewhere.sqlite", store)
    else:
        store.write_text("my notes\n")
    done = headless(exp, "--out", tmp_path / "out", "--store", store, timeout=120)
    expected = {"fifo": "it is a named pipe (FIFO), not a result store file",
                "device": "it is a character device, not a result store file",
                "folder": "it is a folder, not a result store file",
                "dangling": "is a symbolic link to a file that does not exist",
                "text": "is not a result store (not an SQLite database)"}[kind]
    one_error_line(done, expected)
    assert not (tmp_path / "elsewhere.sqlite").exists()
    if kind == "text":
        assert store.read_text() == "my notes\n"


def test_a_store_side_file_that_is_a_link_is_refused(tmp_path, exp):
    store = tmp_path / "s.sqlite"
    os.symlink(tmp_path / "elsewhere", tmp_path / "s.sqlite-wal")
    done = headless(exp, "--out", tmp_path / "out", "--store", store)
    one_error_line(done, "s.sqlite-wal is a symbolic link")
    assert not (tmp_path / "elsewhere").exists() and not store.exists()


@pytest.mark.slow
def test_a_link_to_a_real_store_given_with_store_is_used(tmp_path, exp):
    store = stored_run(tmp_path, exp)
    os.symlink(store, tmp_path / "link.sqlite")
    done = headless(exp, "--out", tmp_path / "out", "--store", tmp_path / "link.sqlite")
    assert done.returncode == 0, done.stderr
    assert "reused 2 of 2 fits" in done.stderr


# ---------------------------------------------------------------------- files not ours
@pytest.mark.slow
def test_a_zero_byte_file_becomes_a_store(tmp_path, exp):
    store = tmp_path / "new.sqlite"
    store.write_bytes(b"")
    done = headless(exp, "--out", tmp_path / "out", "--store", store, "--quiet")
    assert done.returncode == 0, done.stderr
    with ResultStore(str(store)) as opened:
        assert opened.count_fits() == 2 and len(opened.runs()) == 1


@pytest.mark.slow
@pytest.mark.parametrize("content", ["empty", "tables", "application_id"])
def test_an_sqlite_file_of_another_program_is_never_taken_over(tmp_path, exp, content):
    store = tmp_path / "theirs.sqlite"
    with sqlite3.connect(store) as db:
        if content == "empty":
            db.execute("PRAGMA user_version = 1")       # a valid SQLite file, no table
        elif content == "tables":
            db.execute("CREATE TABLE meta (key TEXT, value TEXT)")
        else:
            db.execute("PRAGMA application_id = 7")
    db.close()
    before = digest(store)
    done = headless(exp, "--out", tmp_path / "out", "--store", store)
    one_error_line(done, "is not a result store of this app")
    assert digest(store) == before
    assert sorted(os.listdir(tmp_path)) == ["exp.json", "theirs.sqlite"]


@pytest.mark.parametrize("damage, message", [
    ("DROP TABLE fits", "its fits table is missing"),
    ("DROP TABLE run_fits", "its run_fits table is missing"),
    ("ALTER TABLE runs ADD COLUMN extra TEXT", "its runs table has other columns"),
    ("CREATE TABLE mine (x)", "it holds the table 'mine'"),
    ("CREATE TRIGGER t AFTER INSERT ON runs BEGIN DELETE FROM fits; END",
     "it holds the trigger 't'"),
    ("DELETE FROM meta WHERE key = 'application'", "its meta table does not say what it is"),
    ("UPDATE meta SET value = '99' WHERE key = 'format'", "of format '99'"),
], ids=["fits", "run_fits", "columns", "table", "trigger", "meta", "format"])
@pytest.mark.slow
def test_a_damaged_store_is_refused_and_never_modified(tmp_path, exp, damage, message):
    store = stored_run(tmp_path, exp)
    edit(store, (damage,))
    before = digest(store)
    done = headless(exp, "--out", tmp_path / "out", "--store", store)
    one_error_line(done, str(store), message)
    assert digest(store) == before
    assert not os.path.exists(str(store) + "-wal")


# ---------------------------------------------------------------------- values read
def deep(n):
    return "[" * n + "]" * n


@pytest.mark.parametrize("change, message", [
    ("""UPDATE fits SET fields = json_replace(fields, '$.scores', json('{"$tuple": ["high"]}'))""",
     "its scores are not numbers"),
    ("UPDATE fits SET fields = ?", "cannot be read"),
    ("UPDATE fits SET arrays = ?", "cannot be read"),
    ("UPDATE fits SET fields = '{\"scores\": 1}'", "cannot be read"),
    ("""UPDATE fits SET arrays = '[["labels", "<i8", [1000000000], 8]]'""", "cannot be read"),
    ("""UPDATE fits SET arrays = '[["labels", "|O", [1], 8]]'""", "cannot be read"),
], ids=["text-score", "deep-fields", "deep-arrays", "scores-number", "shape", "objects"])
@pytest.mark.slow
def test_stored_values_are_checked_when_read(tmp_path, exp, change, message):
    store = stored_run(tmp_path, exp)
    edit(store, (change, (deep(100_000),)) if "?" in change else (change,))
    before = digest(store)
    done = headless(exp, "--out", tmp_path / "out", "--store", store)
    line = one_error_line(done, f"the result store {store} is damaged", message)
    assert "Recursion" not in line and len(line) < 600
    assert digest(store) == before                           # not even a run recorded
    fresh = headless(exp, "--out", tmp_path / "out", "--store", store, "--fresh", "--quiet")
    assert fresh.returncode == 0, fresh.stderr              # reads no stored fit: replaces


@pytest.mark.slow
def test_a_crafted_runs_row_is_a_damaged_store_in_the_app(tmp_path, exp):
    store = stored_run(tmp_path, exp)
    edit(store, ("UPDATE runs SET experiment = ?", (deep(100_000),)))
    with pytest.raises(ValueError, match="is damaged .its run 1 cannot be read"):
        with ResultStore(str(store)) as opened:
            opened.runs()
    edit(store, ("UPDATE runs SET experiment = '{}', fits = 'many'",))
    with pytest.raises(ValueError, match="a count is not a whole number"):
        with ResultStore(str(store)) as opened:
            opened.runs()


# ---------------------------------------------------------------------- opened at once
def _open_in_process(path, barrier, results):
    barrier.wait()
    try:
        with ResultStore(path) as opened:
            results.append(("ok", opened.created))
    except Exception as exc:  # noqa: BLE001 - recorded for the assertion
        results.append(("failed", repr(exc)))


@pytest.mark.slow
def test_a_new_store_opened_from_many_threads_at_once_is_made_once(tmp_path):
    outcomes = []
    for attempt in range(150):                         # 600 openings in all
        path, barrier, results = str(tmp_path / f"s{attempt}.sqlite"), threading.Barrier(4), []
        threads = [threading.Thread(target=_open_in_process, args=(path, barrier, results))
                   for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        outcomes.append(results)
    failures = [r for results in outcomes for r in results if r[0] != "ok"]
    assert failures == []
    assert all(sum(created for _, created in results) == 1 for results in outcomes)


def _open_in_child(path, barrier, queue):
    barrier.wait()
    try:
        with ResultStore(path) as opened:
            queue.put(("ok", opened.created))
    except Exception as exc:  # noqa: BLE001
        queue.put(("failed", repr(exc)))


@pytest.mark.slow
def test_a_new_store_opened_from_many_processes_at_once_is_made_once(tmp_path):
    context = multiprocessing.get_context("fork")
    for attempt in range(25):                          # 100 openings by processes
        path = str(tmp_path / f"p{attempt}.sqlite")
        barrier, queue = context.Barrier(4), context.Queue()
        children = [context.Process(target=_open_in_child, args=(path, barrier, queue))
                    for _ in range(4)]
        for child in children:
            child.start()
        results = [queue.get(timeout=120) for _ in children]
        for child in children:
            child.join(timeout=60)
        assert [r for r in results if r[0] != "ok"] == []
        assert sum(created for _, created in results) == 1


@pytest.mark.slow
def test_two_runs_started_together_on_one_new_store_both_succeed(tmp_path, exp):
    store = tmp_path / "shared.sqlite"
    env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS="1")
    runs = [subprocess.Popen([sys.executable, os.path.join(ROOT, "main.py"), "run", str(exp),
                              "--out", str(tmp_path / name), "--store", str(store), "--quiet"],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for name in ("a", "b")]
    outs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outs
    for name in ("fold_scores.csv", "summary.csv", "pairwise.csv"):
        a, b = ((tmp_path / folder / name).read_text().splitlines() for folder in "ab")
        if name == "fold_scores.csv":                  # fit times differ; the rest not
            column = a[0].split(",").index("fit_seconds")
            a, b = ([",".join(c for i, c in enumerate(line.split(",")) if i != column)
                     for line in lines] for lines in (a, b))
        assert a == b, name
    with ResultStore(str(store)) as opened:
        assert len(opened.runs()) == 2 and opened.count_fits() == 2


def test_the_app_never_reads_a_store_while_a_run_makes_it(tmp_path):
    """``read_store`` (the Earlier runs list) racing the first opening of a new store."""
    problems = []
    for attempt in range(60):
        path = str(tmp_path / f"r{attempt}.sqlite")
        barrier = threading.Barrier(2)

        def make():
            barrier.wait()
            ResultStore(path).close()

        maker = threading.Thread(target=make)
        maker.start()
        barrier.wait()
        for _ in range(20):
            try:
                snapshot = read_store(path)
                assert snapshot.runs == ()
            except Exception as exc:  # noqa: BLE001
                problems.append(repr(exc))
        maker.join()
    assert problems == []


@pytest.mark.slow
def test_headless_store_runs_are_counted(tmp_path, exp):
    """The store the headless runs wrote holds what run.json says."""
    store = stored_run(tmp_path, exp)
    manifest = json.loads((tmp_path / "first" / "run.json").read_text())
    assert manifest["store"]["path"] == str(store) and manifest["store"]["computed"] == 2


# ---------------------------------------------------------------------- issue 36
PEAK = """
import runpy, sys
sys.argv = ["main.py", "run", *sys.argv[1:]]
try:
    runpy.run_path("main.py", run_name="__main__")
except SystemExit as exc:
    code = exc.code
# VmHWM: this process's own high-water mark (ru_maxrss would count the memory of the
# test process it was forked from, which exec does not reset)
hwm = next(line for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print("peak", int(hwm.split()[1]) * 1024, code)
"""


def peak_of_run(*args):
    """``(exit status, peak resident bytes, stderr)`` of a headless run in its own
    process (its own peak, not the largest of every child so far)."""
    env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", PEAK, *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=180, check=False)
    _, peak, code = done.stdout.split()[-3:]
    return int(code), int(peak), done.stderr


BOMBS = {
    "text-items": ("""UPDATE fits SET fields = json_set(fields, '$.details', json(
        '{"$dict": {"x": {"$array": ["a"], "dtype": "<U500000000"}}}'))""",
                   "more than a fit's 1024 bytes"),
    "text-scalar": ("""UPDATE fits SET fields = json_set(fields, '$.details', json(
        '{"$dict": {"x": {"$scalar": "a", "dtype": "<U500000000"}}}'))""",
                    "more than a fit's 1024 bytes"),
    "object-field": ("""UPDATE fits SET fields = json_set(fields, '$.details', json(
        '{"$dict": {"x": {"$array": [1], "dtype": "|O"}}}'))""", "which no fit holds"),
    "record": ("""UPDATE fits SET arrays = '[["labels", "V100000000", [1], 8]]'""",
               "which no fit holds"),
    "sub-array": ("""UPDATE fits SET arrays = '[["labels", "(100000000,)f8", [1], 8]]'""",
                  "which no fit holds"),
}


@pytest.mark.slow
@pytest.mark.parametrize("bomb", sorted(BOMBS))
def test_a_stored_array_bomb_is_refused_before_it_is_built(tmp_path, exp, bomb):
    """Issue 36: a 405 KB store asked for 1.86 GiB per fit read (``<U500000000``)."""
    store = stored_run(tmp_path, exp)
    change, message = BOMBS[bomb]
    edit(store, (change,))
    before = digest(store)
    code, peak, err = peak_of_run(exp, "--out", tmp_path / "out", "--store", store)
    assert code == 2 and err.startswith("error: ") and len(err.splitlines()) == 1, err
    assert f"the result store {store} is damaged" in err and message in err, err
    assert peak < 600 * 1024 ** 2, peak                     # a plain run's, not 1.86 GiB
    assert digest(store) == before


@pytest.mark.parametrize("schema", [
    ("CREATE TABLE runs2 AS SELECT * FROM runs; DROP TABLE runs; CREATE TABLE runs (id "
    "INTEGER PRIMARY KEY AUTOINCREMENT, batch TEXT, started TEXT NOT NULL, finished TEXT, "
    "experiment TEXT NOT NULL, base_dir TEXT, data TEXT, data_fingerprint TEXT, models "
    "TEXT NOT NULL, primary_metric TEXT, complete INTEGER NOT NULL DEFAULT 0, fits INTEGER "
    "NOT NULL DEFAULT 0, reused INTEGER NOT NULL DEFAULT 0 CHECK (reused < 0)); "
    "DROP TABLE runs2"),
    ("CREATE TABLE f2 AS SELECT * FROM fits; DROP TABLE fits; CREATE TABLE fits (key TEXT "
    "PRIMARY KEY, fields TEXT NOT NULL, arrays TEXT NOT NULL, data BLOB NOT NULL, saved "
    "INTEGER NOT NULL); DROP TABLE f2"),
], ids=["check", "type"])
def test_a_store_whose_sql_differs_is_not_this_programs(tmp_path, schema):
    """Issue 36: the column names matched, so the store was used and its first save
    failed (with a runs row added)."""
    store = tmp_path / "s.sqlite"
    ResultStore(str(store)).close()
    with sqlite3.connect(store) as db:
        db.executescript(schema)
    db.close()
    before = digest(store)
    with pytest.raises(ValueError, match="is not a result store of this app .its (runs|fits) "
                                         "table is not defined as this app defines it"):
        ResultStore(str(store))
    assert digest(store) == before


@pytest.mark.slow
@pytest.mark.parametrize("earlier", [False, True])
@pytest.mark.parametrize("side", ["store.sqlite-journal", "store.sqlite-wal"])
def test_side_files_without_the_store_are_the_users(tmp_path, exp, earlier, side):
    """Issue 36: a user's ``store.sqlite-journal`` in ``--out`` was deleted."""
    out = tmp_path / "out"
    out.mkdir()
    if earlier:
        assert headless(exp, "--out", out, "--quiet").returncode == 0
        os.unlink(out / "store.sqlite")
    (out / side).write_text("the user's own notes\n")
    before = digest(out / side)
    done = headless(exp, "--out", out)
    if earlier:
        one_error_line(done, f"{out / side} is there without the result store")
    else:
        one_error_line(done, f"holds files this app did not write ('{side}')")
    assert digest(out / side) == before and not (out / "store.sqlite").exists()


@pytest.mark.slow
@pytest.mark.parametrize("which", ["store.sqlite", "store.sqlite-wal"])
def test_a_hard_linked_store_in_the_folder_is_never_written_through(tmp_path, exp, which):
    out = tmp_path / "out"
    assert headless(exp, "--out", out, "--quiet").returncode == 0
    outside = tmp_path / "outside.bin"
    if which == "store.sqlite":
        os.replace(out / which, outside)
    else:
        outside.write_bytes(b"")
    os.link(outside, out / which)
    before = digest(outside)
    done = headless(exp, "--out", out)
    one_error_line(done, f"the result store's file {out / which} has 1 other name(s)")
    assert digest(outside) == before


@pytest.mark.slow
def test_a_bomb_store_beside_a_received_experiment_is_bounded_too(tmp_path, exp):
    """Issue 36: the store beside an experiment is used without ``--store``; it is
    checked and read as any store is, so its bomb is refused before it is built."""
    store = stored_run(tmp_path, exp)
    edit(store, (BOMBS["text-items"][0],))
    beside = tmp_path / "exp.store.sqlite"                  # engine.runs.store.store_beside
    os.replace(store, beside)
    before = digest(beside)
    code, peak, err = peak_of_run(exp, "--out", tmp_path / "out")
    assert code == 2 and len(err.splitlines()) == 1, err
    assert f"the result store {beside} is damaged" in err and "1024 bytes" in err
    assert peak < 600 * 1024 ** 2 and digest(beside) == before
