"""Can a window open here? Checked before Qt is asked to, so that a machine without
Qt's X11 libraries gets one clear line instead of Qt's abort (exit 134).

Pure Python: no Qt module is imported (the platform plugin is found by path and its
dependencies listed with ``ldd``).
"""
from __future__ import annotations

import ctypes.util
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from typing import Optional

HEADLESS_HINT = ("or run without a window: honest-eval run EXPERIMENT.json --out FOLDER "
                 "(from a source folder: python main.py run ...)")


def debian_package(soname: str) -> str:
    """The Debian/Ubuntu package that ships a library: ``libxcb-icccm.so.4`` ->
    ``libxcb-icccm4``, ``libxkbcommon-x11.so.0`` -> ``libxkbcommon-x11-0``."""
    name, _, version = soname.partition(".so")
    version = version.lstrip(".").split(".")[0]
    if not version:
        return name
    return f"{name}-{version}" if name[-1].isdigit() else f"{name}{version}"


def _xcb_plugin() -> Optional[str]:
    spec = importlib.util.find_spec("PySide6")
    if spec is None or spec.origin is None:
        return None
    path = os.path.join(os.path.dirname(spec.origin), "Qt", "plugins", "platforms",
                        "libqxcb.so")
    return path if os.path.exists(path) else None


def missing_libraries(plugin: str) -> list:
    """Shared libraries the X11 plugin needs that the system lacks (``ldd``'s "not
    found", plus libxcb-cursor, which Qt 6.5+ loads at run time)."""
    missing = []
    ldd = shutil.which("ldd")
    if ldd:
        try:
            listing = subprocess.run([ldd, plugin], capture_output=True, text=True,
                                     timeout=20).stdout
        except (OSError, subprocess.SubprocessError):
            listing = ""
        missing = re.findall(r"^\s*(\S+) => not found", listing, flags=re.M)
    if ctypes.util.find_library("xcb-cursor") is None:
        missing.append("libxcb-cursor.so.0")
    return list(dict.fromkeys(missing))


def window_problem(environ=None, platform: str = sys.platform,
                   plugin: Optional[str] = "find") -> Optional[str]:
    """Why no window can open, as one line saying what to do; None when it can (or when
    this cannot be told: other systems, other Qt platforms)."""
    environ = os.environ if environ is None else environ
    if not platform.startswith("linux"):
        return None
    chosen = environ.get("QT_QPA_PLATFORM", "")
    if chosen and not chosen.startswith("xcb"):
        return None                          # offscreen, wayland, ...: Qt reports itself
    if not environ.get("DISPLAY"):
        if environ.get("WAYLAND_DISPLAY") and not chosen:
            return None
        return ("no display to open the window on (DISPLAY is not set): start the app from "
                f"a desktop session, {HEADLESS_HINT}")
    plugin = _xcb_plugin() if plugin == "find" else plugin
    if plugin is None:
        return None
    missing = missing_libraries(plugin)
    if not missing:
        return None
    packages = " ".join(debian_package(name) for name in missing)
    return (f"the window cannot open: Qt's X11 support needs system libraries that are "
            f"missing ({', '.join(missing)}). On Debian or Ubuntu: sudo apt install "
            f"{packages}; {HEADLESS_HINT}")
