"""The fault-injection campaign (issue 31) kept as regressions.

Every case starts the headless runner as a user would (``python main.py run``) in a
child process under an address-space cap (``CAP_BYTES``, 4 GiB), so a bomb ends in a
refusal, never in the machine's memory.  ``headless`` returns the finished process with
the largest peak resident memory of any child so far (``peak_rss_bytes``: the kernel
keeps one maximum over all waited-for children), which the suite reports at its end.
"""
import os
import resource
import subprocess
import sys
from dataclasses import dataclass

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAP_BYTES = 4 * 1024 ** 3
PEAKS: list[int] = []


@dataclass(frozen=True)
class Finished:
    """A finished headless run: exit status, its output and its peak memory."""

    returncode: int
    stdout: str
    stderr: str
    peak_rss_bytes: int


def _capped(limit: int):
    def set_limit():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return set_limit


def headless(*args, cwd=None, cap=CAP_BYTES, timeout=180, command="run") -> Finished:
    """Run ``python main.py COMMAND ARGS...`` in a capped child process.

    Parameters
    ----------
    *args : str or path-like
        The arguments after ``run``.
    cwd : path-like, optional
        The working folder of the child.
    cap : int
        The address-space limit in bytes (``RLIMIT_AS``).
    timeout : float
        Seconds before the child is killed and the test fails (a hang is a failure).
    command : str
        The runner's sub-command.
    """
    env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    with subprocess.Popen([sys.executable, os.path.join(ROOT, "main.py"), command,
                           *map(str, args)], cwd=cwd, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          preexec_fn=_capped(cap)) as child:
        try:
            out, err = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            pytest.fail(f"the runner did not finish within {timeout} s: {args}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    PEAKS.append(peak)
    return Finished(child.returncode, out, err, peak)


def pytest_collection_modifyitems(items):
    """Every test of this folder carries the ``fuzz`` marker (``-m fuzz`` runs the
    campaign alone, ``-m "not fuzz"`` leaves it out)."""
    here = os.path.dirname(os.path.abspath(__file__))
    for item in items:
        if str(item.path).startswith(here + os.sep):
            item.add_marker(pytest.mark.fuzz)


def pytest_sessionfinish(session):
    """In a pytest-xdist worker, hand this worker's peaks to the controlling process
    (``tests/conftest.py`` gathers and reports them there)."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["fuzz_peaks"] = list(PEAKS)


def pytest_terminal_summary(terminalreporter):
    """Say how many headless cases ran and the largest memory any child used."""
    if PEAKS:
        terminalreporter.write_line(
            f"fuzz: {len(PEAKS)} headless runs, largest child peak memory "
            f"{max(PEAKS) / 1024 ** 2:.0f} MiB (cap {CAP_BYTES / 1024 ** 3:.0f} GiB)")
