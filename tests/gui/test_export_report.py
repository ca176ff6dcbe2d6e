"""File → Export report…: the run's HTML report written on a worker, then offered to the
default browser (issue #30)."""
import os

import pytest
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox

from engine.output.report import extract_experiment
from tests.gui.waiting import run_succeeds
from tests.peers import peer

pytestmark = pytest.mark.gui
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")


@pytest.fixture(autouse=True)
def answers(monkeypatch):
    """Questions before closing are answered "stop" / "discard" (no dialog is shown)."""
    def answer(parent, title, text, choices, default):
        keys = [key for key, _label, _role in choices]
        return "stop" if "stop" in keys else "discard"

    monkeypatch.setattr("gui.saving.ask_choice", answer)


@pytest.fixture
def opened(monkeypatch):
    """The URLs the app asked the desktop to open (none is opened), and the questions
    asked (answered Yes)."""
    urls, questions = [], []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: urls.append(url) or True)
    monkeypatch.setattr(QMessageBox, "exec", lambda box: questions.append(box.windowTitle())
                        or QMessageBox.Yes)
    return urls, questions


@pytest.mark.slow
def test_export_report_writes_it_and_offers_the_browser(window, qtbot, tmp_path, opened):
    html5lib = peer("html5lib")
    urls, questions = opened
    assert not window.export_report_action.isEnabled()             # no result yet
    with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                           timeout=20000):
        window.open_experiment(SEED)
    with run_succeeds(qtbot, window.cv_tab):
        window.cv_tab.run_button.click()
    assert window.export_report_action.isEnabled()
    path = str(tmp_path / "handed over.html")
    with qtbot.waitSignal(window.report_exported, timeout=60000) as written:
        window.export_report(path)
    assert written.args == [path]
    page = open(path, encoding="utf-8").read()
    html5lib.HTMLParser(strict=True).parse(page)
    summary = window.state.result.summary
    best = summary[summary["rank"] == 1]["model"].iloc[0]
    assert f"<strong>{best}</strong>" in page
    assert extract_experiment(page)["cv"]["n_repeats"] == window.state.result.cv.config.n_repeats
    assert questions == ["Report written"]
    assert [url.toLocalFile() for url in urls] == [path]
