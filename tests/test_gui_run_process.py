"""The window's cross-validation process: "Parallel jobs" starts that many workers, and
nothing it started outlives the window's process, even a killed one.

The driver below stands in for the window: it runs ``run_experiment`` through
:func:`engine.runs.runner.run_in_process` (as :class:`gui.jobs.Job` does, without Qt) on a long
run, with each start method, and prints each progress record.
"""
import signal
import subprocess
import sys
import time

import pytest

from engine.foundation.processes import descendants
from tests.helpers import ROOT, assert_all_end_within, loky_workers

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="/proc and PR_SET_PDEATHSIG are Linux")

DRIVER = """
import sys
sys.path.insert(0, {root!r})
from engine.runs.analysis import run_experiment
from engine.input.readers import load_dataset
from engine.evaluation.experiment import parse_experiment
from engine.runs.runner import Heartbeat, Precompute, run_in_process

if __name__ == "__main__":
    experiment = parse_experiment({{
        "dataset": {{"builtin": "breast_cancer"}},
        "models": [{{"name": "forest", "estimator": "RandomForestClassifier",
                     "params": {{"n_estimators": 60, "random_state": 0}}}}],
        "cv": {{"n_splits": 10, "n_repeats": 10, "random_state": 0}}}})
    work = run_in_process(run_experiment, (experiment,),
                          {{"n_jobs": {jobs}, "dataset": load_dataset(experiment.dataset)}},
                          prepare=Precompute("notes", "cv.score_matrix"),
                          start_method={method!r}, name="cross-validation")
    for progress in work:
        if not isinstance(progress, Heartbeat):
            print("progress", progress.done, flush=True)
"""


def start_driver(tmp_path, jobs, method="forkserver"):
    script = tmp_path / "driver.py"
    script.write_text(DRIVER.format(root=ROOT, jobs=jobs, method=method))
    out = open(tmp_path / "out.txt", "wb")
    proc = subprocess.Popen([sys.executable, str(script)], stdout=out, stderr=subprocess.STDOUT)
    return proc, out


def wait_for_workers(proc, tmp_path, n, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = loky_workers(proc.pid)
        if len(found) >= n and b"progress" in (tmp_path / "out.txt").read_bytes():
            return found
        assert proc.poll() is None, (tmp_path / "out.txt").read_text()
        time.sleep(0.05)
    raise AssertionError(f"no {n} workers in {seconds} s: {(tmp_path / 'out.txt').read_text()}")


@pytest.mark.slow
@pytest.mark.parametrize("method", ["forkserver", "spawn"])
def test_parallel_jobs_start_workers_and_die_with_a_killed_window(tmp_path, family,  # noqa: F811
                                                                  method):
    proc, out = start_driver(tmp_path, jobs=2, method=method)
    family.append(proc.pid)
    try:
        assert len(wait_for_workers(proc, tmp_path, 2)) >= 2   # was 0: a daemonic child
        family.extend(descendants(proc.pid))
        proc.kill()
        proc.wait(timeout=5)
        assert_all_end_within(family)
    finally:
        out.close()


@pytest.mark.slow
def test_one_job_starts_no_worker(tmp_path, family):  # noqa: F811
    proc, out = start_driver(tmp_path, jobs=1)
    family.append(proc.pid)
    try:
        deadline = time.monotonic() + 60
        while b"progress 3" not in (tmp_path / "out.txt").read_bytes():
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        assert loky_workers(proc.pid) == []
        family.extend(descendants(proc.pid))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=5)
        assert_all_end_within(family)
    finally:
        out.close()
