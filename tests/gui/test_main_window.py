"""The main window, driven offscreen: the seed example end to end, files, dialogs, closing."""
import json
import os

import pandas as pd
import pytest


from PySide6.QtCore import QSettings  # noqa: E402

from gui.main_window import TAB_NAMES, MainWindow  # noqa: E402
from tests.gui.waiting import run_succeeds
from tests.gui.helpers import SEED, open_seed

pytestmark = pytest.mark.usefixtures("answers")     # questions before closing answered


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_tabs_menus_and_shortcuts(window):
    assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == list(TAB_NAMES)
    shortcuts = {a.text(): a.shortcut().toString() for a in
                 (window.open_data_action, window.open_experiment_action, window.save_action,
                  window.export_action, window.help_action, window.quit_action)}
    assert shortcuts == {"Open data…": "Ctrl+O", "Open experiment…": "Ctrl+Shift+O",
                         "Save experiment…": "Ctrl+S", "Export results…": "Ctrl+E",
                         "Guide": "F1", "Quit": "Ctrl+Q"}
    assert not window.export_action.isEnabled()          # nothing to export yet


@pytest.mark.slow
def test_seed_example_end_to_end(window, qtbot, tmp_path):
    open_seed(window, qtbot)
    assert window.state.dataset.n_rows == 100
    assert window.models_tab.expanded_list.count() == 4
    assert window.recent_files() == [os.path.abspath(SEED)]
    window.tabs.setCurrentWidget(window.cv_tab)
    with run_succeeds(qtbot, window.cv_tab):
        window.cv_tab.run_button.click()
    means = window.state.result.summary.set_index("model")["mean"]
    assert means["rbf"] == pytest.approx(0.94) and means["linear"] == pytest.approx(0.93)
    assert window.tabs.currentWidget() is window.results_tab
    assert window.export_action.isEnabled()

    out = tmp_path / "tables"
    with qtbot.waitSignal(window.results_exported, timeout=60000) as exported:
        window.export_results(str(out))
    names = sorted(os.path.basename(p) for p in exported.args[0])
    assert {"fold_scores.csv", "summary.csv", "pairwise.csv"} <= set(names)
    summary = pd.read_csv(out / "summary.csv").set_index("model")
    assert summary.loc["rbf", "mean"] == pytest.approx(0.94)
    assert len(pd.read_csv(out / "fold_scores.csv")) == 400


def test_save_and_reload_an_experiment(window, qtbot, tmp_path):
    open_seed(window, qtbot)
    window.models_tab.add_model("GaussianNB")
    window.cv_tab.folds_box.setValue(5)
    saved = tmp_path / "mine.json"
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        window.save_experiment(str(saved))
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["cv"]["n_splits"] == 5 and data["models"][-1]["estimator"] == "GaussianNB"
    window.cv_tab.folds_box.setValue(7)
    window.state.set_model_entries([])
    open_seed(window, qtbot, str(saved))
    assert window.cv_tab.folds_box.value() == 5
    assert window.models_tab.expanded_list.count() == 5
    assert window.windowTitle().startswith("mine.json")


def test_saved_experiment_keeps_a_csv_beside_it_relative(window, qtbot, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    rows = "".join(f"{i},{i % 3},{'yes' if i % 2 else 'no'}\n" for i in range(40))
    (project / "table.csv").write_text("a,b,label\n" + rows, encoding="utf-8")
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=60000):
        window.dataset_tab.open_file(str(project / "table.csv"))
    window.models_tab.add_model("GaussianNB")
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        window.save_experiment(str(project / "study.json"))
    saved = json.loads((project / "study.json").read_text(encoding="utf-8"))
    assert saved["dataset"]["csv"] == "table.csv"
    moved = tmp_path / "moved"
    project.rename(moved)                                  # the folder travels as a whole
    open_seed(window, qtbot, str(moved / "study.json"))
    assert window.state.dataset.n_rows == 40
    assert window.state.dataset.source["csv"] == str(moved / "table.csv")


def test_saving_without_data_explains_what_to_do(window, warnings_shown):
    window.save_experiment("/tmp/never-written.json")
    assert len(warnings_shown) == 1 and warnings_shown[0][1].startswith("No data set is loaded")
    assert not os.path.exists("/tmp/never-written.json")


def test_bad_experiment_file_gives_a_dialog(window, qtbot, tmp_path, warnings_shown):
    bad = tmp_path / "broken.json"
    bad.write_text('{"dataset": {"builtin": "moons"}, "models": [{"estimator": "Nope"}]}')
    window.open_experiment(str(bad))
    qtbot.waitUntil(lambda: len(warnings_shown) == 1, timeout=60000)
    title, text = warnings_shown[0]
    assert title == "Cannot open the experiment" and 'unknown estimator "Nope"' in text
    assert window.state.dataset is None


def test_export_before_a_run_explains_what_to_do(window, warnings_shown):
    window.export_results("/tmp/never")
    assert "Run the cross-validation first" in warnings_shown[0][1]


def test_help_opens_at_the_current_tab(window):
    window.tabs.setCurrentWidget(window.cv_tab)
    dialog = window.show_help_for_current_tab()
    assert dialog.isVisible() and "Folds and repeats" in dialog.browser.toPlainText()
    dialog.open_topic("results#rope")
    assert "practical equivalence" in dialog.browser.toPlainText()
    dialog.close()


def test_closing_during_a_run_stops_it(window, qtbot, answers):
    open_seed(window, qtbot)
    window.cv_tab.repeats_box.setValue(200)
    with qtbot.waitSignal(window.cv_tab.run_started):
        window.cv_tab.start_run()
    window.close()
    assert answers == ["Save the changes?", "Quit while running?"]   # the run last
    assert not window.cv_tab.running


def test_geometry_is_remembered(qtbot, tmp_path):
    path = str(tmp_path / "settings.ini")
    first = MainWindow(settings=QSettings(path, QSettings.IniFormat))
    qtbot.addWidget(first)
    first.resize(1000, 700)
    first.show()
    size = (first.width(), first.height())
    first.close()
    second = MainWindow(settings=QSettings(path, QSettings.IniFormat))
    qtbot.addWidget(second)
    assert second.height() == size[1] == 700       # (the offscreen screen is 800 wide)
    assert second.settings.value("window/geometry") is not None
