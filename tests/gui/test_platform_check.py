"""A machine that cannot open Qt's window gets one clear line, not Qt's abort."""
import os
import subprocess
import sys

import pytest

from gui.platform_check import debian_package, window_problem

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("soname, package", [
    ("libxcb-icccm.so.4", "libxcb-icccm4"), ("libxcb-keysyms.so.1", "libxcb-keysyms1"),
    ("libxcb-cursor.so.0", "libxcb-cursor0"), ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0")])
def test_debian_package_names(soname, package):
    assert debian_package(soname) == package


def test_which_setups_are_checked(monkeypatch):
    import gui.platform_check as check

    monkeypatch.setattr(check, "missing_libraries", lambda plugin: ["libxcb-icccm.so.4"])
    assert window_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None
    assert window_problem({"DISPLAY": ":0"}, "win32") is None
    assert window_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux", plugin="x") is None
    assert "DISPLAY is not set" in window_problem({}, "linux", plugin="x")
    line = window_problem({"DISPLAY": ":0"}, "linux", plugin="x")
    assert "sudo apt install libxcb-icccm4" in line and "honest-eval run" in line
    monkeypatch.setattr(check, "missing_libraries", lambda plugin: [])
    assert window_problem({"DISPLAY": ":0"}, "linux", plugin="x") is None


def test_no_display_is_one_error_line_and_exit_2():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "QT_QPA_PLATFORM",
                                                            "WAYLAND_DISPLAY")}
    if not sys.platform.startswith("linux"):
        pytest.skip("the check is for Linux")
    done = subprocess.run([sys.executable, os.path.join(ROOT, "main.py")], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: no display")
