"""The ``honest-eval`` command's app side: the desktop app, ``--help`` or the desktop menu
entry. The command's entry point is :func:`resources.command.main` (``python main.py`` in a
source checkout runs the same), which sends ``run`` and ``predict`` to :mod:`engine.cli`
without importing this package, and everything else here.

    honest-eval                          the app, on the built-in example
    honest-eval EXPERIMENT.json          the app, on an experiment file
    honest-eval run EXPERIMENT.json --out DIR   headless (engine.cli): imports no gui module
    honest-eval --install-desktop        add the app to the Linux desktop's menu
    honest-eval --uninstall-desktop      remove it again
    honest-eval --smoke-test [EXP.json]  open the window, load, close: exit 0 (for CI)

This module imports nothing but the standard library (and :mod:`gui.usage`) until it knows
which of these is asked for, so ``--help`` and the menu entry need no Qt: :mod:`gui.app` is
imported inside :func:`main` on purpose, the project's documented lazy imports for start-up
time, after :func:`app_libraries_missing` has checked that the ``app`` extra is installed
(without it: one ``error:`` line saying what to install, exit status 2).
"""
from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from typing import Optional

from .usage import PROG, USAGE



def main(argv=None) -> int:
    """Entry point of the ``honest-eval`` command; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if any(arg in ("-h", "--help") for arg in argv):
        print(USAGE)
        return 0
    for option, action, verb in (("--install-desktop", install_desktop, "installed"),
                                 ("--uninstall-desktop", uninstall_desktop, "removed")):
        if option in argv:
            if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
                print(f"error: {option} is for Linux desktops (freedesktop.org menus)",
                      file=sys.stderr)
                return 2
            if len(argv) != 1:
                print(f"error: {option} takes no other argument\n{USAGE}", file=sys.stderr)
                return 2
            return _report(action(), verb)
    missing = app_libraries_missing()
    if missing:
        print(f"error: {missing}", file=sys.stderr)
        return 2
    from gui.app import main as open_app

    return open_app(argv)


#: What a headless install lacks for the app, and how to add it (the ``app`` extra).
APP_INSTALL = ('pip install "honest-eval[app]" (from a source checkout: '
               'pip install -e ".[app]")')


def app_libraries_missing() -> str:
    """Why the app cannot start here (the sentence of the ``error:`` line), or ``""``.

    Imports PySide6's widgets and pyqtgraph, as opening the app would; an install without
    the ``app`` extra (a server, a Dask worker) has neither and can only run headless.
    """
    for module in ("PySide6.QtWidgets", "pyqtgraph"):       # Qt first: pyqtgraph needs it
        try:
            importlib.import_module(module)
        except ImportError as exc:
            reason = " ".join(str(exc).split())[:200]
            return (f"the app needs PySide6 and pyqtgraph, which could not be imported "
                    f"({reason}); install them with: {APP_INSTALL}; without them only "
                    f"'{PROG} run' and '{PROG} predict' work")
    return ""


# ---------------------------------------------------------------------- desktop entry
def data_home(environ=None) -> str:
    """``$XDG_DATA_HOME``, else ``~/.local/share`` (the freedesktop.org default)."""
    environ = os.environ if environ is None else environ
    value = environ.get("XDG_DATA_HOME", "")
    if value and os.path.isabs(value):
        return value
    return os.path.join(os.path.expanduser("~"), ".local", "share")


def desktop_targets(environ=None) -> dict:
    """Where the menu entry and the icons go: ``{"desktop": …, "png": …, "svg": …}``."""
    base = data_home(environ)
    icons = os.path.join(base, "icons", "hicolor")
    return {"desktop": os.path.join(base, "applications", f"{PROG}.desktop"),
            "png": os.path.join(icons, "256x256", "apps", f"{PROG}.png"),
            "svg": os.path.join(icons, "scalable", "apps", f"{PROG}.svg")}


def _exec_quote(word: str) -> str:
    """``word`` as one argument of a .desktop ``Exec`` line (its quoting rules)."""
    word = word.replace("%", "%%")
    if word and not any(c in word for c in ' \t\n"\'\\><~|&;$*?#()`'):
        return word
    escaped = "".join("\\" + c if c in '"`$\\' else c for c in word)
    return '"' + escaped.replace("\\", "\\\\") + '"'       # the value's own escaping


def exec_command() -> str:
    """How the menu entry starts the app: ``honest-eval`` when that command on PATH is
    the one running; else this command's full path (a virtual environment that is not
    activated), else the Python running now with this program."""
    script = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    on_path = shutil.which(PROG)
    if on_path and script and os.path.realpath(on_path) == os.path.realpath(script):
        return PROG
    if script and os.path.basename(script) == PROG and os.access(script, os.X_OK):
        return _exec_quote(script)
    if script.endswith(".py") and os.path.isfile(script) and \
            os.path.realpath(script) not in _entry_modules():
        return f"{_exec_quote(sys.executable)} {_exec_quote(script)}"          # main.py
    if on_path:
        return PROG
    return f"{_exec_quote(sys.executable)} -m resources.command"


def _entry_modules() -> set:
    """This module's and the entry point's files (``python -m`` runs them as scripts);
    the entry point's by its place in :mod:`resources`, which imports this module."""
    import resources

    command = os.path.join(os.path.dirname(resources.__file__), "command.py")
    return {os.path.realpath(__file__), os.path.realpath(command)}


def desktop_entry_text(command: Optional[str] = None) -> str:
    """The shipped ``honest-eval.desktop``, its ``Exec`` line starting ``command``."""
    import resources

    with open(resources.desktop_file_path(), encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    command = exec_command() if command is None else command
    lines = [f"Exec={command} %f" if line.startswith("Exec=") else line for line in lines]
    return "\n".join(lines) + "\n"


def install_desktop(environ=None) -> list:
    """Copy the menu entry and the icons into the user's data folder; the paths written."""
    import resources

    targets = desktop_targets(environ)
    for path in targets.values():
        os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(targets["desktop"], "w", encoding="utf-8") as handle:
        handle.write(desktop_entry_text())
    shutil.copyfile(resources.icon_path("png"), targets["png"])
    shutil.copyfile(resources.icon_path("svg"), targets["svg"])
    _refresh(os.path.dirname(targets["desktop"]))
    return list(targets.values())


def uninstall_desktop(environ=None) -> list:
    """Remove what :func:`install_desktop` wrote; the paths removed."""
    removed = []
    targets = desktop_targets(environ)
    for path in targets.values():
        if os.path.isfile(path):
            os.remove(path)
            removed.append(path)
    _refresh(os.path.dirname(targets["desktop"]))
    return removed


def _refresh(applications: str) -> None:
    """Tell the desktop about the change, where its tool is installed (optional)."""
    tool = shutil.which("update-desktop-database")
    if tool and os.path.isdir(applications):
        try:
            subprocess.run([tool, applications], capture_output=True, timeout=30)
        except (OSError, subprocess.SubprocessError):
            pass


def _report(paths: list, verb: str) -> int:
    from engine.input.csv_values import visible          # a path's control characters written out

    for path in paths:
        print(visible(f"{verb} {path}"))
    if not paths:
        print(visible(f"nothing to remove: no {PROG} menu entry under {data_home()}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
