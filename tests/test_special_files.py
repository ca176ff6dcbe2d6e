"""FIFOs, devices, sockets and folders given as the CSV or the experiment file are refused
before anything reads them (a FIFO used to block forever)."""
import json
import os
import signal
import socket
import subprocess
import sys

import pytest

from engine.foundation.errors import error_code, error_fields
from engine.input.data import load_csv
from engine.input.readers import load_dataset

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX special files")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def alarm():
    """Fail instead of hanging if a read blocks (the regression this guards against)."""
    def hang(signum, frame):
        raise AssertionError("a read blocked on a special file")
    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def special_files(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "sock.csv"))
    folder = tmp_path / "folder.csv"
    folder.mkdir()
    return server, [(str(fifo), "a named pipe (FIFO)"), ("/dev/zero", "a character device"),
                    (str(tmp_path / "sock.csv"), "a socket"), (str(folder), "a folder")]


def test_the_loader_refuses_special_files_by_kind(tmp_path, alarm):
    server, files = special_files(tmp_path)
    try:
        for path, kind in files:
            for load in (lambda: load_csv(path),
                         lambda: load_dataset({"csv": path, "target": "y"})):
                with pytest.raises(ValueError) as info:
                    load()
                assert str(info.value) == (f"cannot open {path}: it is {kind}, not a CSV file; "
                                           "give the path of a CSV file")
    finally:
        server.close()


def test_a_symbolic_link_to_a_csv_file_is_read(tmp_path):
    (tmp_path / "d.csv").write_text("x,y\n" + "".join(f"{i},{'ab'[i % 2]}\n" for i in range(20)))
    os.symlink(tmp_path / "d.csv", tmp_path / "link.csv")
    assert load_csv(str(tmp_path / "link.csv")).n_rows == 20


def run_main(*args):
    return subprocess.run([sys.executable, os.path.join(ROOT, "main.py"), "run", *map(str, args)],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.slow
def test_the_runner_refuses_them_as_csv_and_as_experiment_file(tmp_path):
    server, files = special_files(tmp_path)
    try:
        for path, kind in files[:2]:          # the others are refused by the same check
            exp = tmp_path / "exp.json"
            exp.write_text(json.dumps({"dataset": {"csv": path, "target": "y"},
                                       "models": [{"estimator": "GaussianNB"}]}))
            for experiment, what in ((exp, "a CSV file"), (path, "an experiment file")):
                done = run_main(experiment, "--out", tmp_path / "out")
                assert done.returncode == 2, done.stderr
                assert done.stderr == (f"error: cannot open {path}: it is {kind}, not {what}; "
                                       f"give the path of {what}\n")
                assert not (tmp_path / "out").exists()
    finally:
        server.close()


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="Linux /proc and /sys")
def test_the_kernels_own_files_are_refused_also_through_a_link(tmp_path, alarm):
    """/proc and /sys files are "regular" but have no size, and some block on read."""
    os.symlink("/proc/kmsg", tmp_path / "kmsg.csv")
    cases = [("/proc/self/status", "/proc"), (str(tmp_path / "kmsg.csv"), "/proc")]
    if os.path.exists("/sys/kernel/mm/transparent_hugepage/enabled"):
        cases.append(("/sys/kernel/mm/transparent_hugepage/enabled", "/sys"))
    for path, root in cases:
        with pytest.raises(ValueError) as info:
            load_dataset({"csv": path, "target": "y"})
        assert error_code(info.value) == "file_of_system"
        assert dict(error_fields(info.value)) == {"path": path, "root": root,
                                                  "what": "a CSV file"}


def test_a_system_root_that_is_not_mounted_refuses_nothing_else(tmp_path, monkeypatch):
    """Where /proc is a plain folder of the root file system (a bare container), files on
    that file system are not taken for the kernel's."""
    from engine.input import file_checks

    (tmp_path / "d.csv").write_text("x,y\n1,a\n")
    monkeypatch.setattr(file_checks.os.path, "ismount", lambda path: False)
    monkeypatch.setattr(file_checks, "SYSTEM_ROOTS", (str(tmp_path.parent),))
    assert file_checks.system_root(str(tmp_path / "d.csv"), os.stat(tmp_path / "d.csv")) == \
        str(tmp_path.parent)                          # by its path: under the root
    monkeypatch.setattr(file_checks, "SYSTEM_ROOTS", (str(tmp_path / "elsewhere"),))
    (tmp_path / "elsewhere").mkdir()
    assert file_checks.system_root(str(tmp_path / "d.csv"), os.stat(tmp_path / "d.csv")) is None
