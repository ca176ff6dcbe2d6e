"""Start the desktop app: ``main(argv)`` opens the main window on an experiment file.

With no argument the built-in example (SVC kernels on the moons data) is opened. The
``honest-eval`` command (:mod:`gui.launch`) comes here for everything but a headless run.
"""
from __future__ import annotations

import os
import sys

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from PySide6.QtCore import QCoreApplication, Qt, QTimer  # noqa: E402  (PySide6 before pyqtgraph)
from PySide6.QtGui import QGuiApplication, QIcon  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

import resources  # noqa: E402

from .platform_check import window_problem  # noqa: E402
from .usage import PROG, USAGE  # noqa: E402
from .wheel_guard import install_wheel_guard  # noqa: E402

#: The shipped example the app opens when given no experiment file.
DEFAULT_EXPERIMENT = resources.example_path()
#: How long ``--smoke-test`` waits for the example to be loaded, in seconds.
SMOKE_TEST_SECONDS = 120
_COLLECTOR = None     # see collect_garbage_on_gui_thread


def make_application(argv: list) -> QApplication:
    """The QApplication (reused if one exists), named for QSettings, high-DPI friendly."""
    app = QApplication.instance()
    if app is None:
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(
            Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        app = QApplication([sys.argv[0] if sys.argv else PROG, *argv])
    QCoreApplication.setOrganizationName("HonestEval")
    QCoreApplication.setOrganizationDomain("honest-eval.example")
    QCoreApplication.setApplicationName("Honest Eval")
    QGuiApplication.setDesktopFileName(resources.APP_ID)   # honest-eval.desktop (Wayland)
    app.setWindowIcon(QIcon(resources.icon_path("png")))
    app.setStyle("Fusion")
    install_wheel_guard(app)
    return app


def collect_garbage_on_gui_thread(interval_s: float = 0.1):
    """Collect Python's reference cycles on the GUI thread only.

    Python runs its cycle collector on whichever thread happens to allocate; when that is
    a worker thread and the garbage holds a widget, PySide6 deletes the widget off the GUI
    thread, which can deadlock or crash the app. So automatic collection is turned off and
    a timer collects on the GUI thread instead (pyqtgraph's ``GarbageCollector``, with
    the same generation thresholds, returned); what exists once the window is built is
    frozen out of later full collections (``gc.freeze``), which keeps them short.
    """
    import gc

    from pyqtgraph.util.garbage_collector import GarbageCollector

    global _COLLECTOR
    _COLLECTOR = GarbageCollector(interval=interval_s)   # its timer lives while the app does
    QTimer.singleShot(0, gc.freeze)
    return _COLLECTOR


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if any(arg in ("-h", "--help") for arg in argv):
        print(USAGE)
        return 0
    smoke_test = "--smoke-test" in argv
    argv = [arg for arg in argv if arg != "--smoke-test"]
    paths = [arg for arg in argv if not arg.startswith("-")]
    if len(paths) > 1:
        print(f"error: give at most one experiment file\n{USAGE}", file=sys.stderr)
        return 2
    problem = window_problem()
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    app = make_application(argv)
    from .main_window import MainWindow  # after QApplication: imports pyqtgraph

    window = MainWindow()
    window.show()
    collect_garbage_on_gui_thread()
    if smoke_test:
        _quit_when_loaded(app, window)
    window.open_experiment(os.path.abspath(paths[0]) if paths else DEFAULT_EXPERIMENT)
    return app.exec()


def _quit_when_loaded(app: QApplication, window, seconds: float = SMOKE_TEST_SECONDS) -> None:
    """``--smoke-test``: once the experiment is loaded and drawn, close the window and
    leave with exit status 0. An uncaught exception, any dialog that opens (an error, a
    question) or no experiment after ``seconds`` ends the app with status 1 and an
    ``error:`` line."""
    failed = []

    def fail(message: str) -> None:
        if not failed:                              # the first reason is the one to tell
            print(f"error: smoke test: {message}", file=sys.stderr, flush=True)
        failed.append(message)
        app.exit(1)

    def uncaught(kind, value, trace) -> None:
        sys.__excepthook__(kind, value, trace)
        fail(f"uncaught {kind.__name__}: {value}")

    def finish(path: str) -> None:
        if failed:
            return app.exit(1)
        if not window.isVisible():
            return fail("the main window is not shown")
        if app.windowIcon().isNull():
            return fail("the application icon is missing")
        if not window.close():
            return fail("the main window refused to close")
        print(f"smoke test: opened {path}, closed the window", flush=True)
        app.exit(0)

    def watch() -> None:
        dialog = app.activeModalWidget()
        if dialog is not None and not failed:
            text = getattr(dialog, "text", lambda: "")()
            fail(f"a dialog opened: {dialog.windowTitle()}: {text}".strip())

    sys.excepthook = uncaught
    window.experiment_loaded.connect(lambda path: QTimer.singleShot(500, lambda: finish(path)))
    watcher = QTimer(window)
    watcher.timeout.connect(watch)
    watcher.start(200)
    QTimer.singleShot(int(seconds * 1000), lambda: fail(f"nothing was loaded in {seconds:g} s"))
