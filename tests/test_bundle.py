"""The desktop bundle (resources/bundle/build_bundle.py, PyInstaller, one folder): the
bundled program runs headless on the built-in example (also with ``--jobs 2``: loky
workers are the program started again), runs the example through the window's run path
(a forkserver child; ``--check-bundle``), fits every estimator of the catalogue (they
are imported by name) and opens its window offscreen.

Skipped unless a bundle is asked for or there:

    HONEST_EVAL_BUNDLE=/path/to/honest-eval/honest-eval   test that program
    HONEST_EVAL_BUILD_BUNDLE=1                             build it first, into build/bundle/
                                                           (a few minutes)
    build/bundle/honest-eval/honest-eval                   tested when it exists

``.ci/bundle`` builds the bundle and runs this file.
"""
from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
import uuid

import pytest
from tests.peers import peer

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_PROGRAM = os.path.join(ROOT, "build", "bundle", "honest-eval", "honest-eval")
EXAMPLE = "svc_kernels_moons.json"          # the app's built-in example
TABLES = ("summary.csv", "fold_scores.csv", "pairwise.csv", "credible_intervals.csv",
          "run.json", "notes.txt")
#: Generous: the machine may be busy; the window shows in a few seconds.
RUN_TIMEOUT = 600
WINDOW_TIMEOUT = 240

_BUILD = os.environ.get("HONEST_EVAL_BUILD_BUNDLE", "") not in ("", "0")
_GIVEN = os.environ.get("HONEST_EVAL_BUNDLE", "")

_WANTED = _BUILD or _GIVEN or os.path.exists(DEFAULT_PROGRAM)

pytestmark = pytest.mark.skipif(
    not _WANTED or not sys.platform.startswith("linux"),
    reason="no bundle: build one (python resources/bundle/build_bundle.py) or set "
           "HONEST_EVAL_BUNDLE=path/to/honest-eval or HONEST_EVAL_BUILD_BUNDLE=1")


@pytest.fixture(scope="module")
def program() -> str:
    """The bundled program (built first when HONEST_EVAL_BUILD_BUNDLE=1)."""
    if _GIVEN:
        path = os.path.abspath(_GIVEN)
        if os.path.isdir(path):
            path = os.path.join(path, "honest-eval")
    elif _BUILD:
        sys.path.insert(0, os.path.join(ROOT, "resources", "bundle"))
        try:
            from build_bundle import build
        finally:
            sys.path.pop(0)
        path = build(quiet=True)
    else:
        path = DEFAULT_PROGRAM
    assert os.access(path, os.X_OK), f"no bundled program at {path}"
    return path


@pytest.fixture(scope="module")
def example(program) -> str:
    """The built-in example as the bundle ships it."""
    path = os.path.join(os.path.dirname(program), "_internal", "resources", "examples",
                        EXAMPLE)
    assert os.path.isfile(path), "the bundle lacks the built-in example"
    return path


def _environment(token: str, **extra) -> dict:
    """The environment of a bundled run: no Python settings of this test run (the bundle
    has its own Python), and a token that marks every process it starts."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("PYTHON", "PYTEST", "QT_", "COV_"))}
    env.update(HONEST_EVAL_BUNDLE_TEST=token, **extra)
    return env


def _marked_processes(token: str) -> list:
    """Living (not zombie) processes whose environment holds ``token``."""
    found, needle = [], f"HONEST_EVAL_BUNDLE_TEST={token}".encode()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as stream:
                if needle not in stream.read().split(b"\0"):
                    continue
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as stream:
                state = stream.read().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state not in ("Z", "X"):
            found.append(int(name))
    return found


def _no_process_left(token: str, seconds: float = 20.0) -> list:
    deadline = time.monotonic() + seconds
    while True:
        left = _marked_processes(token)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


def _run(command: list, token: str, timeout: float = RUN_TIMEOUT, **extra):
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                          env=_environment(token, **extra), stdin=subprocess.DEVNULL)
    return done, time.monotonic() - started


def _headless(program, example, out, jobs: int):
    token = uuid.uuid4().hex
    done, seconds = _run([program, "run", example, "--out", str(out), "--jobs", str(jobs),
                          "--quiet"], token)
    print(f"bundled `run` with --jobs {jobs}: {seconds:.1f} s")
    assert done.returncode == 0, done.stderr[-3000:]
    for name in TABLES:
        assert os.path.isfile(os.path.join(out, name)), f"{name} missing: {done.stderr}"
    assert not _no_process_left(token), "the run left processes of the bundle behind"
    return out


@pytest.fixture(scope="module")
def one_job(program, example, tmp_path_factory):
    return _headless(program, example, tmp_path_factory.mktemp("jobs1") / "out", 1)


def _rows(path) -> list:
    with open(path, newline="", encoding="utf-8") as stream:
        return list(csv.reader(stream))


def test_headless_run_writes_the_tables(one_job):
    summary = _rows(one_job / "summary.csv")
    assert len(summary) > 1                    # a header and the models' rows
    manifest = json.loads((one_job / "run.json").read_text(encoding="utf-8"))
    assert manifest                            # a JSON object the app wrote


def test_headless_run_with_two_workers_gives_the_same_scores(program, example, one_job,
                                                             tmp_path):
    two_jobs = _headless(program, example, tmp_path / "out", 2)
    assert _scores(two_jobs) == _scores(one_job)


def _scores(out) -> list:
    """fold_scores.csv without its timing column."""
    header, *rows = _rows(out / "fold_scores.csv")
    keep = [i for i, name in enumerate(header) if not name.endswith("_seconds")]
    assert "score" in header and len(rows) > 1
    return [[row[i] for i in keep] for row in [header, *rows]]


def _failures_per_model(program, folder, models: list) -> dict:
    """Run ``models`` headless on a small built-in data set (3 folds, accuracy): model ->
    its failed folds, as summary.csv gives them."""
    experiment = {"dataset": {"builtin": "moons", "n_samples": 60, "noise": 0.3,
                              "random_state": 0},
                  "models": models,
                  "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
                  "metrics": ["accuracy"]}
    path = folder / "experiment.json"
    path.write_text(json.dumps(experiment), encoding="utf-8")
    done, _ = _run([program, "run", str(path), "--out", str(folder / "out"), "--quiet"],
                   uuid.uuid4().hex)
    assert done.returncode == 0, done.stderr[-3000:]
    header, *rows = _rows(folder / "out" / "summary.csv")
    return {row[0]: row[header.index("n_failed")] for row in rows}


def test_every_catalogue_estimator_fits(program, tmp_path):
    """The estimators engine/evaluation/catalogue.py imports by name are in the bundle."""
    from engine.evaluation.catalogue import CATALOGUE

    failed = _failures_per_model(program, tmp_path, [
        {"name": name.lower(), "estimator": name, "params": {}} for name in CATALOGUE])
    assert failed == {name.lower(): "0" for name in CATALOGUE}


def test_every_resampling_fits(program, tmp_path):
    """The imbalanced-learn samplers engine/input/imbalance.py imports by name are in the bundle
    (when the bundle was built with the "imbalance" extra, as .ci/bundle builds it)."""
    peer("imblearn")
    failed = _failures_per_model(program, tmp_path, [
        {"name": kind, "estimator": "GaussianNB", "resample": kind}
        for kind in ("over", "under", "smote")])
    assert failed == {"over": "0", "under": "0", "smote": "0"}


def test_the_windows_run_path_works(program):
    """The built-in example through gui.tabs.cv_tab.run_in_process (forkserver child, two
    loky workers in it), as the window's Run button starts it."""
    token = uuid.uuid4().hex
    done, seconds = _run([program, "--check-bundle", "--jobs", "2"], token)
    print(done.stdout.strip(), f"({seconds:.1f} s in all)")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "check-bundle:" in done.stdout
    assert not _no_process_left(token), "the run left processes of the bundle behind"


def test_the_window_opens_offscreen(program):
    """``--smoke-test``: the window opens on the built-in example, then closes itself."""
    token = uuid.uuid4().hex
    usage, _ = _run([program, "--help"], token, timeout=120)
    if "--smoke-test" in usage.stdout:
        done, seconds = _run([program, "--smoke-test"], token, timeout=WINDOW_TIMEOUT,
                             QT_QPA_PLATFORM="offscreen")
        print(done.stdout.strip(), f"({seconds:.1f} s from start to exit)")
        assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    else:                                      # no --smoke-test: it must not crash
        _window_stays_open(program, token)
    assert not _no_process_left(token), "the app left processes behind"


def _window_stays_open(program: str, token: str, seconds: float = 20.0) -> None:
    child = subprocess.Popen([program], env=_environment(token, QT_QPA_PLATFORM="offscreen"),
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, text=True)
    try:
        child.wait(seconds)
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGTERM)
        child.communicate(timeout=30)
        return
    output = child.communicate()[0]
    pytest.fail(f"the app ended by itself (status {child.returncode}):\n{output[-3000:]}")
