"""A runner that is stopped or killed leaves nothing behind: no worker process, no
half-written table.

Each test starts ``python main.py run EXP --out DIR --jobs 2`` on a long run (forest fits
on breast cancer), waits for progress and for the loky workers (found through
``/proc/PID/task/*/children``), signals the runner and checks that within a generous bound
(``PROMPT`` seconds, far below the run's minutes; an idle machine needs under one) none
of its processes runs (zombies waiting for a reaper count as ended) and that the folder
holds no table outside a complete result set.
"""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from engine.foundation.processes import Terminated, descendants, terminate_like_interrupt
from tests.helpers import PROMPT, assert_all_end_within, loky_workers as workers, results

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="/proc and PR_SET_PDEATHSIG are Linux")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAIN = os.path.join(ROOT, "main.py")


def long_experiment(folder):
    path = folder / "exp.json"
    path.write_text(json.dumps({
        "dataset": {"builtin": "breast_cancer"},
        "models": [{"name": "forest", "estimator": "RandomForestClassifier",
                    "params": {"n_estimators": 100, "random_state": 0}}],
        "cv": {"n_splits": 10, "n_repeats": 10, "random_state": 0}}))
    return path


def start_runner(tmp_path):
    """The runner, its stderr file and out folder, once it reports progress with its
    workers started."""
    errors = open(tmp_path / "stderr.txt", "wb")
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, MAIN, "run", str(long_experiment(tmp_path)),
                             "--out", str(out), "--jobs", "2"], stderr=errors)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        progressed = b"/100" in (tmp_path / "stderr.txt").read_bytes()
        if progressed and len(workers(proc.pid)) >= 2:
            return proc, errors, out
        assert proc.poll() is None, (tmp_path / "stderr.txt").read_text()
        time.sleep(0.05)
    proc.kill()
    raise AssertionError("the run made no progress in 60 s")


def assert_no_half_written_table(out):
    """Every table in ``out`` belongs to the complete set its run.json lists."""
    if not out.exists():
        return
    visible = sorted(name for name in results(out) if not name.startswith("."))
    manifest = out / "run.json"
    listed = json.loads(manifest.read_text())["tables"] if manifest.exists() else []
    assert set(visible) <= {*listed, "run.json"}, visible


@pytest.mark.slow
@pytest.mark.parametrize("signum, status, word", [
    (signal.SIGTERM, 143, "terminated"),
    (signal.SIGINT, 130, "interrupted"),
])
def test_a_signal_stops_the_runner_and_its_workers(tmp_path, family, signum, status, word):
    proc, errors, out = start_runner(tmp_path)
    family.extend([proc.pid, *descendants(proc.pid)])
    started = time.monotonic()
    proc.send_signal(signum)
    assert proc.wait(timeout=PROMPT) == status
    assert time.monotonic() - started < PROMPT
    assert_all_end_within(family)
    errors.close()
    err = (tmp_path / "stderr.txt").read_text()
    assert "Traceback" not in err
    assert err.rstrip().endswith(f"{word}: no result table was written; {out} holds the "
                                 "tables it held before")
    assert not out.exists() or not results(out)       # the result store kept its fits


@pytest.mark.slow
def test_workers_do_not_outlive_a_killed_runner(tmp_path, family):
    proc, errors, out = start_runner(tmp_path)
    family.extend([proc.pid, *descendants(proc.pid)])
    assert len(family) >= 3
    proc.kill()
    assert proc.wait(timeout=PROMPT) == -signal.SIGKILL
    assert_all_end_within(family)
    errors.close()
    assert_no_half_written_table(out)


@pytest.mark.parametrize("death_signal", [True, False])
def test_a_tied_process_ends_with_its_parent(tmp_path, family, death_signal):
    """The kernel's parent-death signal, and the polling watchdog alone."""
    tied = tmp_path / "tied"
    child = ("import sys, time; sys.path.insert(0, %r); from engine.foundation.processes import "
             "tie_to_parent; import os; tie_to_parent(os.getppid(), %r); "
             "open(%r, 'w').close(); time.sleep(60)" % (ROOT, death_signal, str(tied)))
    parent = ("import subprocess, sys, time; p = subprocess.Popen([sys.executable, '-c', %r]); "
              "time.sleep(60)" % child)
    middle = subprocess.Popen([sys.executable, "-c", parent])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not tied.exists():     # the child tied itself
        time.sleep(0.02)
    assert tied.exists(), "the child did not tie itself to its parent within 30 s"
    family.extend(descendants(middle.pid))
    assert family
    middle.kill()
    middle.wait(timeout=PROMPT)
    assert_all_end_within(family)


def test_sigterm_raises_terminated_inside_the_block_only():
    with terminate_like_interrupt():
        with pytest.raises(Terminated) as info:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
    assert info.value.exit_status == 143 and isinstance(info.value, KeyboardInterrupt)
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
