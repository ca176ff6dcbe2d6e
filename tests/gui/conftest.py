"""GUI test fixtures: offscreen Qt, no test may leave a worker thread running, no test may
open a modal dialog that nobody answers, and warning dialogs and the pre-run check's list
recorded instead of shown."""
import gc
import os
import threading

import pytest

from tests.gui.waiting import SHOWN

pytest.importorskip("PySide6")


def pytest_collection_modifyitems(items):
    """Every test of this folder carries the ``gui`` marker (``-m "not gui"`` runs the
    engine tests alone)."""
    here = os.path.dirname(os.path.abspath(__file__))
    for item in items:
        if str(item.path).startswith(here + os.sep):
            item.add_marker(pytest.mark.gui)


@pytest.fixture(autouse=True)
def no_threads_left_behind(qapp):
    from PySide6.QtCore import QThread

    before = set(threading.enumerate())
    yield
    qapp.processEvents()
    alive = [t for t in qapp.findChildren(QThread) if t.isRunning()]
    for thread in alive:
        thread.wait(5000)
    still = [t for t in alive if t.isRunning()]
    assert not still, f"worker threads left running: {still}"
    # Collect the test's dead widgets here, on the GUI thread. Left to Python's automatic
    # collection they may be collected on a later test's worker thread, and PySide6 6.11
    # then deletes them on the GUI thread while that worker waits: seen once as a deadlock
    # (the GUI thread in ~QObject, the worker waiting for the GIL).
    gc.collect()
    extra = [t for t in set(threading.enumerate()) - before
             if t.is_alive() and not t.daemon and t.name != "QueueFeederThread"]
    assert not extra, f"Python threads left running: {extra}"


#: Modal entry points that block until a person answers: (class name, method, what the
#: stand-in returns so that the code under test goes on as after Esc / Cancel).
MODAL_CALLS = [("QDialog", "exec", 0), ("QMessageBox", "exec", 0),
               ("QMessageBox", "warning", None), ("QMessageBox", "critical", None),
               ("QMessageBox", "information", None), ("QMessageBox", "question", None),
               ("QMessageBox", "about", None), ("QFileDialog", "getOpenFileName", ("", "")),
               ("QFileDialog", "getOpenFileNames", ([], "")),
               ("QFileDialog", "getSaveFileName", ("", "")),
               ("QFileDialog", "getExistingDirectory", ""),
               ("QInputDialog", "getText", ("", False)), ("QInputDialog", "getItem", ("", False)),
               ("QInputDialog", "getInt", (0, False)), ("QInputDialog", "getDouble", (0.0, False))]


@pytest.fixture(autouse=True)
def no_unanswered_dialog(monkeypatch):
    """Fail the test that opens a modal dialog it does not answer itself.

    Offscreen nobody can press a button, so a real modal dialog would wait for ever (the
    whole suite hung on one). Every modal entry point is replaced by a stand-in that
    answers like Esc / Cancel at once and records the dialog; the test fails at its
    teardown, naming the dialog. Tests that expect a dialog patch it themselves (their
    patches come after this fixture's and win), e.g. with ``warnings_shown``.
    """
    from PySide6 import QtWidgets

    opened = []

    def stand_in(class_name, method, answer):
        def unanswered(*args, **kwargs):
            texts = [a for a in args if isinstance(a, str)]
            if args and isinstance(args[0], QtWidgets.QMessageBox):
                texts = [args[0].windowTitle(), args[0].text()]
            opened.append(f"{class_name}.{method}: {' / '.join(texts)[:300]}")
            SHOWN.append(opened[-1])
            return answer
        return unanswered

    for class_name, method, answer in MODAL_CALLS:
        monkeypatch.setattr(getattr(QtWidgets, class_name), method,
                            stand_in(class_name, method, answer))
    yield opened
    if opened:
        pytest.fail("the test opened modal dialogs that nobody answered (patch them in the "
                    "test): " + "; ".join(opened), pytrace=False)


@pytest.fixture(autouse=True)
def default_runs_not_sized(monkeypatch):
    """The CV tab does not size the default run of own data (it times fits on a thread
    and would change the repeats at a moment the test does not choose); the tests of the
    sizing turn it on (``gui.tabs.default_size.TARGET_SECONDS``)."""
    monkeypatch.setattr("gui.tabs.default_size.TARGET_SECONDS", None)


@pytest.fixture(autouse=True)
def stores_in_a_temporary_folder(tmp_path, monkeypatch):
    """Unsaved work's result store goes to the test's folder, not the user's."""
    from gui.store_location import ENVIRONMENT_VARIABLE

    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(tmp_path / "user-stores"))


@pytest.fixture(autouse=True)
def preflight_lists(monkeypatch):
    """The pre-run check's lists the app would show (``PreflightDialog``, modal), each a
    list of ``(code, blocking, words)``; none is shown: Cancel is chosen (nothing starts).
    Tests that press its fix buttons patch ``PreflightDialog.exec`` themselves."""
    from gui.views.preflight_dialog import PreflightDialog

    shown = []

    def record(dialog):
        shown.append([(row.problem.code, row.problem.blocking, row.problem.words())
                      for row in dialog.rows])
        SHOWN.append(f"the pre-run check's list: {shown[-1]}")
        return PreflightDialog.Rejected

    monkeypatch.setattr(PreflightDialog, "exec", record)
    return shown


@pytest.fixture
def warnings_shown(monkeypatch):
    """The (title, text) of every warning dialog the app would show (none is shown): the
    plain-text ones of ``gui.plain_text.warn`` and any ``QMessageBox.warning``. Other
    message boxes still meet the guard's stand-in."""
    from PySide6.QtWidgets import QMessageBox

    shown = []
    unanswered = QMessageBox.exec

    def record(box):
        if box.icon() != QMessageBox.Warning:
            return unanswered(box)
        shown.append((box.windowTitle(), box.text()))
        return QMessageBox.Ok

    monkeypatch.setattr(QMessageBox, "warning",
                        lambda parent, title, text, *args: shown.append((title, text)))
    monkeypatch.setattr(QMessageBox, "exec", record)
    return shown


@pytest.fixture
def tab(qtbot):
    """The Cross-validation tab on its own, shown at 1280 x 760, shut down after the test."""
    from gui.state import AppState
    from gui.tabs.cv_tab import CVTab

    widget = CVTab(AppState())
    widget.resize(1280, 760)
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.shutdown()


@pytest.fixture
def window(qtbot, tmp_path):
    """The main window, shown, with settings of its own (not the user's); its jobs are
    ended after the test."""
    from PySide6.QtCore import QSettings

    from gui.main_window import MainWindow

    widget = MainWindow(settings=QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat))
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.shutdown()


@pytest.fixture
def dataset_tab(qtbot):
    """The Dataset tab on its own, shown at 1280 x 760, shut down after the test."""
    from gui.state import AppState
    from gui.tabs.dataset_tab import DatasetTab

    widget = DatasetTab(AppState())
    widget.resize(1280, 760)
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.shutdown()


@pytest.fixture
def answers(monkeypatch):
    """Questions before closing are answered "stop" / "discard" (no dialog is shown); the
    titles asked are returned.  A module uses it for all its tests with
    ``pytestmark = pytest.mark.usefixtures("answers")``."""
    asked = []

    def answer(parent, title, text, choices, default):
        asked.append(title)
        keys = [key for key, _label, _role in choices]
        return "stop" if "stop" in keys else "discard"

    monkeypatch.setattr("gui.saving.ask_choice", answer)
    return asked
