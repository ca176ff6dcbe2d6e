"""Start the desktop app: ``main(argv)`` opens the main window on an experiment file.

With no argument the built-in example (SVC kernels on the moons data) is opened.
"""
from __future__ import annotations

import os
import sys

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from PySide6.QtCore import QCoreApplication, Qt  # noqa: E402  (PySide6 before pyqtgraph)
from PySide6.QtGui import QGuiApplication  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_EXPERIMENT = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")
USAGE = "usage: python main.py [EXPERIMENT.json]   (or: python main.py run EXPERIMENT.json --out DIR)"


def make_application(argv: list) -> QApplication:
    """The QApplication (reused if one exists), named for QSettings, high-DPI friendly."""
    app = QApplication.instance()
    if app is None:
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(
            Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        app = QApplication([sys.argv[0] if sys.argv else "honest-eval", *argv])
    QCoreApplication.setOrganizationName("HonestEval")
    QCoreApplication.setOrganizationDomain("honest-eval.example")
    QCoreApplication.setApplicationName("Honest Eval")
    app.setStyle("Fusion")
    return app


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if any(arg in ("-h", "--help") for arg in argv):
        print(USAGE)
        return 0
    paths = [arg for arg in argv if not arg.startswith("-")]
    if len(paths) > 1:
        print(f"error: give at most one experiment file\n{USAGE}", file=sys.stderr)
        return 2
    from .platform_check import window_problem

    problem = window_problem()
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    app = make_application(argv)
    from .main_window import MainWindow  # after QApplication: imports pyqtgraph

    window = MainWindow()
    window.show()
    window.open_experiment(os.path.abspath(paths[0]) if paths else DEFAULT_EXPERIMENT)
    return app.exec()
