"""The headless runner's result store: a run killed (SIGKILL, by PID) at several points and
run again gives the tables of an uninterrupted run, computing only the fits not committed;
a file that is not a store stops the run with one error line and stays as it was."""
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time

import pandas as pd
import pytest

from tests.helpers import MAIN, assert_one_error_line, run_main, write_experiment

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL by PID")

#: 2 models x 5 folds x 3 repeats = 30 fits, the forest's slow enough to stop mid-run: fits
#: are committed in groups (at most ``COMMIT_SECONDS``, a quarter second, apart), so a kill
#: point must leave well over a quarter second of fits after it (with 100 trees, ten fits
#: after the last kill point hold five forests, about 0.7 s on an idle machine; with 40
#: trees the last six fits took under 0.25 s and were committed with the end of the run).
MODELS = [{"name": "forest", "estimator": "RandomForestClassifier",
           "params": {"n_estimators": 100, "random_state": 0}},
          {"name": "nb", "estimator": "GaussianNB"}]
N_FITS = 30


def experiment(path, models=MODELS, n_repeats=3):
    return write_experiment(path, dataset={"builtin": "breast_cancer"}, models=models,
                            cv={"n_splits": 5, "n_repeats": n_repeats, "random_state": 0},
                            metrics=["roc_auc", "accuracy"])


def stored_fits(path) -> int:
    """Fits committed to the store (0 while it does not exist yet)."""
    if not os.path.exists(path):
        return 0
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1)
        try:
            return db.execute("SELECT COUNT(*) FROM fits").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def kill_after(exp, out, k: int, signum=signal.SIGKILL, status=-signal.SIGKILL) -> int:
    """Start a run, send it ``signum`` (by PID) once ``k`` fits are committed; check its exit
    ``status``; the fits kept."""
    store = os.path.join(out, "store.sqlite")
    proc = subprocess.Popen([sys.executable, MAIN, "run", str(exp), "--out", str(out),
                             "--quiet"], stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while stored_fits(store) < k and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        os.kill(proc.pid, signum)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == status, "the run ended before it was stopped"
    return stored_fits(store)


def reused(done) -> tuple:
    assert done.returncode == 0, done.stderr
    found = re.search(r"reused (\d+) of (\d+) fits", done.stderr)
    return int(found.group(1)), int(found.group(2))


def tables(out) -> dict:
    """Every CSV table of a result folder, without the fit times; ``report.html`` only as
    present (it and ``report.md`` show the fit times and the time they were written;
    tests/test_report.py checks that its numbers are the CSVs')."""
    manifest = json.loads((out / "run.json").read_text())
    read = {name: (pd.read_csv(out / name) if name.endswith(".csv") else   # notes.txt: lines
                   pd.DataFrame({"line": (out / name).read_text().splitlines()}))
            for name in manifest["tables"] if name not in ("report.html", "report.md")}
    read["report.html present"] = pd.DataFrame({"line": ["report.html" in manifest["tables"]]})
    return {name: frame.drop(columns=[c for c in frame.columns if "seconds" in c])
            for name, frame in read.items()}


def assert_same_tables(a, b):
    ta, tb = tables(a), tables(b)
    assert ta.keys() == tb.keys()
    for name in ta:
        pd.testing.assert_frame_equal(ta[name], tb[name], check_exact=True, obj=name)


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """An uninterrupted run's folder."""
    folder = tmp_path_factory.mktemp("whole")
    exp = experiment(folder / "exp.json")
    assert reused(run_main(exp, "--out", folder / "out")) == (0, N_FITS)
    return exp, folder / "out"


@pytest.mark.slow
@pytest.mark.parametrize("k", [1, 10, 20])
def test_a_killed_run_resumes_with_only_the_missing_fits(tmp_path, whole, k):
    exp, full = whole
    out = tmp_path / "out"
    kept = kill_after(exp, out, k)
    assert k <= kept < N_FITS
    assert not (out / "run.json").exists()
    done = run_main(exp, "--out", out)
    assert reused(done) == (kept, N_FITS)
    record = json.loads((out / "run.json").read_text())["store"]
    assert record == {"path": str(out / "store.sqlite"), "fresh": False, "fits": N_FITS,
                      "reused": kept, "computed": N_FITS - kept}
    assert_same_tables(full, out)


@pytest.mark.slow
def test_sigterm_keeps_every_finished_fit(tmp_path, whole):
    exp, full = whole
    out = tmp_path / "out"
    kept = kill_after(exp, out, 6, signal.SIGTERM, 143)
    assert 6 <= kept < N_FITS
    assert reused(run_main(exp, "--out", out)) == (kept, N_FITS)
    assert_same_tables(full, out)


@pytest.mark.slow
def test_what_changed_is_all_that_runs(tmp_path, whole):
    exp, full = whole
    store = tmp_path / "kept.sqlite"
    assert reused(run_main(exp, "--out", tmp_path / "a", "--store", store)) == (0, N_FITS)
    assert_same_tables(full, tmp_path / "a")
    assert not (tmp_path / "a" / "store.sqlite").exists()
    changes = [  # (models, repeats, fits computed)
        (MODELS + [{"name": "lr", "estimator": "LogisticRegression",
                    "params": {"max_iter": 2000}}], 3, 15),
        ([MODELS[0], {**MODELS[1], "name": "bayes"}], 3, 0),
        ([{**MODELS[0], "params": {"n_estimators": 20, "random_state": 0}}, MODELS[1]], 3, 15),
        (MODELS, 4, 10),
    ]
    for number, (models, repeats, computed) in enumerate(changes):
        changed = experiment(tmp_path / f"exp{number}.json", models, repeats)
        total = len(models) * 5 * repeats
        done = run_main(changed, "--out", tmp_path / f"o{number}", "--store", store)
        assert reused(done) == (total - computed, total), models
        plain = run_main(changed, "--out", tmp_path / f"p{number}", "--fresh", "--quiet",
                         "--store", tmp_path / f"s{number}.sqlite")
        assert plain.returncode == 0, plain.stderr
        assert_same_tables(tmp_path / f"p{number}", tmp_path / f"o{number}")


@pytest.mark.slow
def test_fresh_computes_every_fit(tmp_path, whole):
    exp, full = whole
    out = tmp_path / "out"
    assert reused(run_main(exp, "--out", out)) == (0, N_FITS)
    assert reused(run_main(exp, "--out", out, "--fresh")) == (0, N_FITS)
    assert json.loads((out / "run.json").read_text())["store"]["fresh"] is True
    assert reused(run_main(exp, "--out", out)) == (N_FITS, N_FITS)
    assert "store.sqlite" not in json.loads((out / "run.json").read_text())["tables"]


def _foreign(path):
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE orders (id INTEGER)")
    db.commit()
    db.close()


@pytest.mark.parametrize("make, fragment", [
    (_foreign, "another program's database"),
    (lambda path: path.write_bytes(b"SQLite format 3\x00" + b"\x13" * 5000), "damaged"),
    (lambda path: path.write_text("not a store\n"), "not an SQLite database"),
])
@pytest.mark.slow
def test_a_file_that_is_not_a_store_stops_the_run(tmp_path, make, fragment):
    exp = write_experiment(tmp_path / "exp.json")
    store = tmp_path / "store.sqlite"
    make(store)
    before = store.read_bytes()
    done = run_main(exp, "--out", tmp_path / "out", "--store", store)
    assert_one_error_line(done, fragment, "--store")
    assert store.read_bytes() == before
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_a_locked_store_stops_the_run(tmp_path):
    exp = write_experiment(tmp_path / "exp.json")
    out = tmp_path / "out"
    assert run_main(exp, "--out", out, "--quiet").returncode == 0
    store = out / "store.sqlite"
    holder = sqlite3.connect(store, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        before = store.read_bytes()
        done = run_main(exp, "--out", out)
        assert_one_error_line(done, "locked by another program")
        assert store.read_bytes() == before
    finally:
        holder.execute("ROLLBACK")
        holder.close()
