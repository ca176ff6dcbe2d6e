"""engine.runs.runner: engine jobs in a child process, with both start methods on Linux.

The jobs below are module-level functions of this module: the child imports them by name
(this module must therefore import no GUI toolkit at its top: a Job test imports Qt in
its body).
"""
import functools
import os
import signal
import subprocess
import sys
import time

import pytest

from engine.runs import runner
from engine.foundation.processes import descendants, is_running
from engine.foundation.progress import Progress, run_to_end
from engine.runs.runner import Heartbeat, JobFailed, Precompute, run_in_process

LINUX = sys.platform.startswith("linux")
METHODS = ["forkserver", "spawn"] if LINUX else ["spawn"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLKITS = ("PySide6", "shiboken6", "pyqtgraph", "gui")
linux_only = pytest.mark.skipif(not LINUX, reason="/proc and pidfd are Linux")

#: Seconds a prompt end may take on a busy machine: far below the children's 60 s waits, far
#: above what an idle machine needs (a fraction of a second); speed is the benchmarks' job.
GENEROUS = 15


# ---------------------------------------------------------------------- jobs (in the child)
def counting(n, delay=0.0):
    for i in range(n):
        time.sleep(delay)
        yield Progress(i + 1, n, f"step {i + 1}", elapsed=0.1 * i, detail={"i": i})
    return {"sum": n * (n - 1) // 2, "pid": os.getpid()}


def plain(a, b=1):
    return a + b


def quiet_then(seconds, value):
    time.sleep(seconds)
    return value
    yield  # unreachable: makes this a generator that yields nothing for a while


def pid_then_sleep(seconds=60.0):
    yield Progress(1, 2, "started", detail=os.getpid())
    time.sleep(seconds)                  # a long fit that never reaches its next yield
    return "too late"


def refuses(message):
    yield Progress(1, 2)
    raise ValueError(message)


def breaks():
    yield Progress(1, 2)
    return {}["missing"]


class Unpicklable(Exception):
    def __init__(self, one, two):      # pickles as Unpicklable(message): fails to load
        super().__init__(f"{one} {two}")


def breaks_oddly():
    raise Unpicklable("not", "picklable")


def dies(status):
    yield Progress(1, 2)
    os._exit(status)


def settings_seen():
    from threadpoolctl import threadpool_info
    import multiprocessing

    return {"pid": os.getpid(), "niceness": os.nice(0) if hasattr(os, "nice") else None,
            "threads": max((lib["num_threads"] for lib in threadpool_info()), default=None),
            "daemon": multiprocessing.current_process().daemon,
            "toolkits": sorted(m for m in sys.modules if m.split(".")[0] in TOOLKITS)}


def _pid_after(seconds):
    time.sleep(seconds)
    return os.getpid()


def worker_pids(n_jobs):
    """The loky workers that ``n_jobs`` starts (four tasks of 0.3 s force two workers)."""
    from joblib import Parallel, delayed

    pids = Parallel(n_jobs=n_jobs)(delayed(_pid_after)(0.3) for _ in range(2 * n_jobs))
    return os.getpid(), sorted(set(pids))


class Lazy:
    """A result with a cached property and a caching method, as ExperimentResult has."""

    @functools.cached_property
    def where(self):
        return os.getpid()

    def matrix(self):
        self.__dict__.setdefault("cached_matrix", os.getpid())
        return self.__dict__["cached_matrix"]


def lazy():
    return Lazy()


# ---------------------------------------------------------------------- helpers
def drive(work):
    """``(records without heartbeats, heartbeats, result)`` of a runner generator."""
    records, beats = [], 0
    while True:
        try:
            record = next(work)
        except StopIteration as stop:
            return records, beats, stop.value
        if isinstance(record, Heartbeat):
            beats += 1
        else:
            records.append(record)


def gone_within(pid, seconds):
    deadline = time.monotonic() + seconds
    while is_running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.fixture(params=METHODS)
def method(request):
    return request.param


# ---------------------------------------------------------------------- results and progress
@pytest.mark.slow
def test_a_generator_job_streams_its_progress_and_returns(method):
    records, _, result = drive(run_in_process(counting, (5,), start_method=method))
    assert [(r.done, r.total, r.label, r.detail) for r in records] == \
        [(i + 1, 5, f"step {i + 1}", {"i": i}) for i in range(5)]
    assert result["sum"] == 10 and result["pid"] != os.getpid()


def test_a_plain_function_returns_its_value():
    assert run_to_end(run_in_process(plain, (2,), {"b": 40})) == 42


@pytest.mark.slow
def test_heartbeats_while_the_child_is_quiet(method):
    """Before the first record: 0 of 0, "starting"; after one: its numbers again."""
    work = run_in_process(quiet_then, (0.5, "v"), start_method=method, heartbeat=0.02)
    beats = []
    while True:
        try:
            beats.append(next(work))
        except StopIteration as stop:
            assert stop.value == "v"
            break
    assert len(beats) >= 5 and all(isinstance(b, Heartbeat) for b in beats)
    assert (beats[0].done, beats[0].total, beats[0].label) == (0, 0, "starting")
    records, beats, _ = drive(run_in_process(counting, (3, 0.2), start_method=method,
                                             heartbeat=0.02))
    assert len(records) == 3 and beats >= 5


def test_no_heartbeats_when_asked_for_none():
    records, beats, result = drive(run_in_process(counting, (3, 0.1), heartbeat=None))
    assert (len(records), beats, result["sum"]) == (3, 0, 3)


@pytest.mark.slow
def test_prepare_runs_in_the_child_and_its_caches_travel_back(method):
    result = run_to_end(run_in_process(lazy, start_method=method,
                                       prepare=Precompute("where", "matrix")))
    assert "where" in result.__dict__ and "cached_matrix" in result.__dict__
    assert result.where == result.matrix() != os.getpid()


# ---------------------------------------------------------------------- the child's settings
@pytest.mark.slow
def test_the_child_is_lowered_tied_not_daemonic_and_toolkit_free(method):
    seen = run_to_end(run_in_process(settings_seen, start_method=method))
    assert seen["daemon"] is False          # loky refuses workers in a daemonic process
    if hasattr(os, "nice"):
        assert seen["niceness"] == min(19, os.nice(0) + runner.NICE)
    if seen["threads"] is not None:
        assert seen["threads"] <= max(1, (os.cpu_count() or 2) - 1)
    assert seen["toolkits"] == []           # nothing of Qt or of the GUI in the child
    assert not any(name.split(".")[0] in TOOLKITS for name in runner.PRELOAD)


@pytest.mark.slow
@linux_only
def test_jobs_2_in_the_child_starts_two_loky_workers_that_end_with_the_job(method):
    child, workers = run_to_end(run_in_process(worker_pids, (2,), start_method=method))
    assert len(workers) == 2 and child not in workers
    assert all(gone_within(pid, 5) for pid in workers)      # end_workers at the end


def test_the_fork_start_method_is_refused():
    with pytest.raises(ValueError, match="fork"):
        next(run_in_process(plain, (1,), start_method="fork"))


def test_the_default_start_method():
    assert runner.default_start_method() == ("forkserver" if LINUX else "spawn")


# ---------------------------------------------------------------------- cancel
@pytest.mark.slow
@linux_only
def test_closing_the_generator_ends_the_child_within_a_second(method):
    work = run_in_process(pid_then_sleep, start_method=method)
    record = next(work)
    while isinstance(record, Heartbeat):
        record = next(work)
    child = record.detail
    assert is_running(child)
    started = time.monotonic()
    work.close()
    assert time.monotonic() - started < GENEROUS      # not the 60 s of the "fit"
    assert gone_within(child, GENEROUS)


def test_closing_before_the_first_record_ends_the_child(method):
    work = run_in_process(quiet_then, (60, "never"), start_method=method)
    assert isinstance(next(work), Heartbeat)
    started = time.monotonic()
    work.close()
    assert time.monotonic() - started < GENEROUS      # not the 60 s of the child's wait


# ---------------------------------------------------------------------- errors
@pytest.mark.slow
def test_a_value_error_arrives_as_the_message(method):
    with pytest.raises(ValueError) as caught:
        drive(run_in_process(refuses, ("the target has one class",), start_method=method))
    assert str(caught.value) == "the target has one class"
    assert not isinstance(caught.value, JobFailed)


@pytest.mark.slow
def test_an_unexpected_exception_arrives_as_a_failure(method):
    with pytest.raises(JobFailed) as caught:
        drive(run_in_process(breaks, start_method=method))
    failure = caught.value
    assert failure.type_name == "KeyError" and isinstance(failure.exception, KeyError)
    assert "in breaks" in failure.child_traceback and "KeyError" in failure.child_traceback
    assert str(failure) == "KeyError: 'missing'"


def test_an_exception_that_does_not_pickle_arrives_in_words():
    with pytest.raises(JobFailed) as caught:
        drive(run_in_process(breaks_oddly))
    assert caught.value.exception is None and caught.value.type_name == "Unpicklable"
    assert caught.value.message == "not picklable"


@pytest.mark.slow
def test_a_child_that_dies_is_a_failure(method):
    with pytest.raises(JobFailed) as caught:
        drive(run_in_process(dies, (3,), start_method=method, name="trial"))
    assert caught.value.type_name == "ProcessDied"
    assert "the trial process ended unexpectedly (exit code 3)" in str(caught.value)


# ---------------------------------------------------------------------- the owner's death
@pytest.mark.slow
@linux_only
def test_the_child_ends_when_its_owner_ends(method):
    """``owner_pid``: the child watches that process (a pidfd), not its parent."""
    owner = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        work = run_in_process(pid_then_sleep, owner_pid=owner.pid, start_method=method)
        record = next(work)
        while isinstance(record, Heartbeat):
            record = next(work)
        owner.kill()
        owner.wait(5)
        with pytest.raises(JobFailed, match="ended unexpectedly"):
            drive(work)
        assert gone_within(record.detail, 1.0)
    finally:
        if owner.poll() is None:
            owner.kill()


DRIVER = """
import os, sys, time
sys.path.insert(0, {root!r})
from engine.foundation.progress import Progress
from engine.runs.runner import Heartbeat, run_in_process


def job():                      # defined in the main module: the child re-imports it
    yield Progress(1, 2, "started", detail=os.getpid())
    time.sleep(120)


if __name__ == "__main__":
    for record in run_in_process(job, start_method={method!r}):
        if not isinstance(record, Heartbeat):
            print("child", record.detail, flush=True)
"""


@pytest.mark.slow
@linux_only
def test_the_child_ends_when_the_calling_process_is_killed(tmp_path, method):
    from tests.helpers import assert_all_end_within

    script = tmp_path / "driver.py"
    script.write_text(DRIVER.format(root=ROOT, method=method))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    family = [proc.pid]
    try:
        line = proc.stdout.readline()
        assert line.startswith("child "), line
        child = int(line.split()[1])
        family.extend(descendants(proc.pid))
        assert child in family
        proc.send_signal(signal.SIGKILL)
        proc.wait(5)
        assert_all_end_within(family)   # the child, and the forkserver after it
    finally:
        for pid in family:
            if is_running(pid):
                os.kill(pid, signal.SIGKILL)
        proc.stdout.close()


# ---------------------------------------------------------------------- the GUI's Job
@pytest.fixture
def job_signals(qtbot):
    """Runs a ``gui.jobs.Job`` and records its signals."""
    pytest.importorskip("PySide6")
    from gui.jobs import Job

    def run(job: Job, cancel_after_first=False, timeout=30000):
        seen = {"progressed": [], "details": [], "succeeded": [], "failed": [],
                "cancelled": []}
        for name, found in seen.items():
            getattr(job, name).connect(lambda *args, found=found: found.append(args))
        if cancel_after_first:
            job.progressed.connect(lambda *_: job.cancel())
        with qtbot.waitSignal(job.finished, timeout=timeout):
            job.start()
        job.wait()
        return seen

    return run


def test_a_job_in_a_process_reports_like_one_on_a_thread(job_signals):
    from gui.jobs import Job

    seen = job_signals(Job.in_process(counting, (4, 0.05), name="count", min_interval=0.0))
    assert [args[0].done for args in seen["progressed"]] == [1, 2, 3, 4]   # no heartbeats
    assert [d for args in seen["details"] for d in args[0]] == [{"i": i} for i in range(4)]
    assert seen["succeeded"][0][0]["sum"] == 6 and not seen["failed"]
    threaded = job_signals(Job(lambda: counting(4), name="count", min_interval=0.0))
    assert [args[0].done for args in threaded["progressed"]] == [1, 2, 3, 4]


def test_a_job_in_a_process_cancels_at_once(job_signals):
    from gui.jobs import Job

    started = time.monotonic()
    seen = job_signals(Job.in_process(pid_then_sleep, name="sleepy"), cancel_after_first=True)
    assert seen["cancelled"] and not seen["succeeded"]
    assert time.monotonic() - started < GENEROUS            # not the 60 s of the "fit"
    assert gone_within(seen["progressed"][0][0].detail, GENEROUS)


@pytest.mark.parametrize("job, expected", [
    ((refuses, ("the data has one class",)), "the data has one class"),
    ((breaks, ()), "unexpected failure (KeyError: 'missing')"),
    ((dies, (3,)), "the died process ended unexpectedly (exit code 3)"),
])
def test_a_job_in_a_process_fails_with_a_message(job_signals, job, expected):
    from gui.jobs import Job

    function, args = job
    seen = job_signals(Job.in_process(function, args, name="died"))
    assert seen["failed"] == [(expected,)] and not seen["succeeded"]


def test_warm_up_starts_the_server_early_and_is_harmless_for_spawn():
    runner.warm_up("spawn")                 # nothing to start
    runner.warm_up()                        # the forkserver on Linux; returns at once
    assert run_to_end(run_in_process(plain, (1,))) == 2
