"""The main window as a careful user meets it: complete exports, a notice of what was saved
where, remembered folders, names proposed outside the shipped examples, and nothing lost
by closing (unsaved changes, a run in progress). Driven offscreen; no dialog is shown."""
import os

import pandas as pd
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog

from gui.file_dialogs import RESOURCES, is_shipped
from gui.main_window import MainWindow
from gui.plots.plot_panel import PlotPanel
from gui.table_panel import TablePanel
from gui.views.aloocv_view import AloocvView
from tests.gui.waiting import run_succeeds

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")
LOGISTIC = {"estimator": "LogisticRegression", "scale": True}


@pytest.fixture
def answers(monkeypatch):
    """Questions before closing: answered from ``answers.next`` (a list, first first;
    "stop" / "discard" when empty), recorded in ``answers.asked``."""
    class Answers:
        asked, next, texts = [], [], []

    def answer(parent, title, text, choices, default):
        Answers.asked.append((title, [label for _key, label, _role in choices]))
        Answers.texts.append(text)
        if Answers.next:
            return Answers.next.pop(0)
        keys = [key for key, _label, _role in choices]
        return "stop" if "stop" in keys else "discard"

    monkeypatch.setattr("gui.saving.ask_choice", answer)
    return Answers


@pytest.fixture(autouse=True)
def no_warning_dialogs(warnings_shown):
    return warnings_shown


@pytest.fixture
def home(monkeypatch, tmp_path):
    """The user's documents folder, for dialogs with no folder remembered."""
    folder = tmp_path / "documents"
    folder.mkdir()
    monkeypatch.setattr("gui.file_dialogs.home_folder", lambda: str(folder))
    return folder


@pytest.fixture
def settings_path(tmp_path):
    return str(tmp_path / "settings.ini")


@pytest.fixture
def make_window(qtbot, answers, home, settings_path):
    windows = []

    def make():
        widget = MainWindow(settings=QSettings(settings_path, QSettings.IniFormat))
        qtbot.addWidget(widget)
        widget.show()
        widget.opened_folders = []
        widget.saved_notice.opener = widget.opened_folders.append   # never opens a window
        windows.append(widget)
        return widget

    yield make
    for widget in windows:
        widget.shutdown()


@pytest.fixture
def window(make_window):
    return make_window()


@pytest.fixture
def dialogs(monkeypatch):
    """File dialogs answered from ``dialogs.answer`` (a path, "" = cancelled); the start
    folder or file of every dialog recorded in ``dialogs.started``."""
    class Dialogs:
        started, answer = [], ""

    def save(parent, title, start, filters="", *args):
        Dialogs.started.append(start)
        return Dialogs.answer, ""

    def folder(parent, title, start, *args):
        Dialogs.started.append(start)
        return Dialogs.answer

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", save)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", folder)
    return Dialogs


def open_seed(window, qtbot, path=SEED):
    with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                           timeout=20000):
        window.open_experiment(path)


def short_run(window, qtbot):
    window.cv_tab.folds_box.setValue(3)
    window.cv_tab.repeats_box.setValue(1)
    with run_succeeds(qtbot, window.cv_tab):
        window.cv_tab.start_run()
    window.state.renderer.flush()


def compute_curve(window, qtbot) -> AloocvView:
    view = window.findChildren(AloocvView)[0]
    view.bar.points.setValue(8)
    view.compute()
    qtbot.waitUntil(lambda: not view.running, timeout=60000)
    assert view.aloocv is not None and len(view.aloocv.curve) == 8
    return view


def export(window, qtbot, folder) -> list:
    with qtbot.waitSignal(window.results_exported, timeout=60000) as exported:
        window.export_results(str(folder))
    return sorted(os.path.basename(p) for p in exported.args[0])


# ---------------------------------------------------------------------- exports
@pytest.mark.slow
def test_export_after_a_curve_computed_in_the_view_writes_the_aloocv_tables(window, qtbot,
                                                                            tmp_path):
    open_seed(window, qtbot)
    window.state.set_model_entries([LOGISTIC])
    short_run(window, qtbot)
    assert window.state.result.aloocv is None
    view = compute_curve(window, qtbot)
    assert window.state.result.aloocv is view.aloocv   # the run's result (a copy of the data)
    out = tmp_path / "results"
    names = export(window, qtbot, out)
    assert {"aloocv_curve.csv", "aloocv_optimum.csv", "summary.csv"} <= set(names)
    curve = pd.read_csv(out / "aloocv_curve.csv")
    assert len(curve) == 8 and set(curve["model"]) == {view.model}
    # the same consistent set as the headless runner: notes and a manifest
    import json

    manifest = json.loads((out / "run.json").read_text())
    assert set(names) <= set(manifest["tables"]) and "notes.txt" in manifest["tables"]
    assert "half circles" in (out / "notes.txt").read_text()
    # what was written where, with a link that opens the folder
    notice = window.saved_notice
    assert notice.message == f"Wrote {len(names)} tables in {out}"
    assert str(out) in notice.text() and "Open folder" in notice.text()
    notice.linkActivated.emit("open")
    assert window.opened_folders == [str(out)]


def test_a_curve_computed_before_the_run_is_exported_too(window, qtbot, tmp_path):
    open_seed(window, qtbot)
    window.state.set_model_entries([LOGISTIC])
    view = compute_curve(window, qtbot)
    short_run(window, qtbot)
    assert view.aloocv is not None
    names = export(window, qtbot, tmp_path / "results")
    assert {"aloocv_curve.csv", "aloocv_optimum.csv"} <= set(names)


def test_saving_a_table_or_a_plot_says_where(window, qtbot, tmp_path, warnings_shown):
    open_seed(window, qtbot)
    window.state.set_model_entries([LOGISTIC])
    view = compute_curve(window, qtbot)
    with qtbot.waitSignal(view.curve_panel.exported, timeout=60000):
        view.curve_panel.export_to(str(tmp_path / "curve.csv"))
    assert window.saved_notice.message == f"Saved the table curve.csv in {tmp_path}"
    name = view.plot.proposed_name()
    assert name == f"aloocv_curve_{view.model}_ALO_log-likelihood.png"
    window.tabs.setCurrentWidget(window.dataset_tab)        # a plot on screen
    plot = next(p for p in window.dataset_tab.findChildren(PlotPanel)
                if p.export_name == "class_counts.png")
    with qtbot.waitSignal(plot.saved, timeout=60000):
        plot.save_image(str(tmp_path / "pictures" / "counts.png"))
    assert not warnings_shown
    assert window.saved_notice.message == f"Saved the image counts.png in {tmp_path / 'pictures'}"


def test_plot_file_names_name_the_metric_and_models(window, qtbot):
    open_seed(window, qtbot)
    short_run(window, qtbot)
    names = {plot.export_name: plot.proposed_name() for plot in window.findChildren(PlotPanel)}
    assert names["fold_scores.png"] == "fold_scores_roc_auc.png"
    assert names["cv_run.png"] == "cv_run_roc_auc.png"
    posterior = names["posterior.png"]
    assert posterior.startswith("posterior_") and "_vs_" in posterior
    assert posterior.endswith("_roc_auc.png")


# ---------------------------------------------------------------------- folders
@pytest.mark.slow
def test_dialogs_remember_their_folder(make_window, qtbot, dialogs, home, tmp_path,
                                       settings_path, warnings_shown):
    window = make_window()
    open_seed(window, qtbot)
    short_run(window, qtbot)
    chosen = tmp_path / "exports"
    chosen.mkdir()
    dialogs.answer = str(chosen)
    with qtbot.waitSignal(window.results_exported, timeout=60000):
        window.export_action.trigger()             # File > Export results…
    assert dialogs.started == [str(home)]          # nothing remembered: the documents folder
    dialogs.answer = ""
    window.export_action.trigger()
    assert dialogs.started[-1] == str(chosen)
    # a table's dialog opens there too (the last folder used), proposing its own name
    panel = next(p for p in window.findChildren(TablePanel) if p.export_name == "summary.csv")
    panel.export_button.click()
    assert dialogs.started[-1] == str(chosen / "summary.csv")
    # remembered in the window's settings file, for the next session
    window.settings.sync()
    assert str(chosen) in open(settings_path, encoding="utf-8").read()
    again = make_window()
    again.open_experiment_action.trigger()         # no experiment folder yet: the last one
    assert dialogs.started[-1] == str(chosen)
    assert not warnings_shown


# ---------------------------------------------------------------------- save experiment
def test_save_proposes_a_name_outside_the_shipped_examples(window, qtbot, dialogs, home,
                                                            warnings_shown):
    open_seed(window, qtbot)
    assert is_shipped(window.state.experiment_path)
    window.save_action.trigger()
    proposed = dialogs.started[-1]
    assert not is_shipped(proposed)
    assert proposed == str(home / "moons_experiment.json")
    # saving over the shipped example is refused with a reason
    assert not window.save_experiment(SEED)
    assert "example" in warnings_shown[-1][1]
    # saved as the user's own file, Save proposes that file next time
    dialogs.answer = str(home / "mine.json")
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        window.save_action.trigger()
    window.save_action.trigger()
    assert dialogs.started[-1] == str(home / "mine.json")
    assert window.saved_notice.message == f"Saved the experiment mine.json in {home}"
    assert RESOURCES not in window.saved_notice.message


def test_save_proposes_a_name_next_to_the_csv(window, qtbot, dialogs, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    rows = "".join(f"{i},{i % 3},{'yes' if i % 2 else 'no'}\n" for i in range(40))
    (project / "plants.csv").write_text("a,b,label\n" + rows, encoding="utf-8")
    open_seed(window, qtbot)                          # an experiment file is open …
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=60000):
        window.dataset_tab.open_file(str(project / "plants.csv"))   # … with other data now
    window.save_action.trigger()
    assert dialogs.started[-1] == str(project / "plants_experiment.json")


# ---------------------------------------------------------------------- closing
def test_unsaved_changes_show_in_the_title_and_closing_asks(window, qtbot, answers):
    open_seed(window, qtbot)
    assert not window.is_dirty() and "*" not in window.windowTitle()
    window.cv_tab.folds_box.setValue(4)
    assert window.is_dirty()
    assert window.windowTitle().startswith("svc_kernels_moons.json*")
    answers.next = ["cancel"]
    window.close()
    assert answers.asked[-1] == ("Save the changes?", ["Save…", "Discard changes", "Cancel"])
    assert window.isVisible()                          # Cancel keeps the window open
    answers.next = ["discard"]
    window.close()
    assert not window.isVisible()


def test_save_on_close_writes_then_closes(window, qtbot, answers, dialogs, home):
    open_seed(window, qtbot)
    window.models_tab.add_model("GaussianNB")
    answers.next = ["save"]
    dialogs.answer = str(home / "kept.json")
    window.close()
    assert window.isVisible()                          # closes once the file is written
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=60000)
    assert (home / "kept.json").exists() and not window.is_dirty()


def test_save_on_close_cancelled_keeps_the_window_open(window, qtbot, answers, dialogs, home):
    open_seed(window, qtbot)
    window.models_tab.add_model("GaussianNB")
    answers.next = ["save"]
    dialogs.answer = ""                                # the save dialog cancelled
    window.close()
    assert window.isVisible() and window.is_dirty()
    dialogs.answer = str(home / "later.json")       # a later save does not close the window
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        window.save_action.trigger()
    qtbot.wait(50)
    assert window.isVisible() and not window.is_dirty()


def test_closing_during_a_run_asks_first(window, qtbot, answers):
    open_seed(window, qtbot)
    window.cv_tab.repeats_box.setValue(200)
    window.state.set_model_entries(list(window.state.model_entries))
    with qtbot.waitSignal(window.cv_tab.run_started):
        window.cv_tab.start_run()
    answers.next = ["discard", "cancel"]               # repeats changed: unsaved too
    window.quit_action.trigger()                        # Ctrl+Q
    assert answers.asked[-1] == ("Quit while running?", ["Stop and quit", "Cancel"])
    kept = window.cv_tab.store.launched_path()          # the store keeps the finished fits
    assert kept and "are kept in the result store" in answers.texts[-1]
    assert "lost" not in answers.texts[-1] and kept[-30:] in answers.texts[-1]   # elided
    assert window.isVisible() and window.cv_tab.running
    answers.next = ["discard", "stop"]
    window.close()
    assert not window.isVisible() and not window.cv_tab.running


def _run_with_unsaved_changes(window, qtbot):
    open_seed(window, qtbot)
    window.cv_tab.repeats_box.setValue(200)             # an unsaved change
    with qtbot.waitSignal(window.cv_tab.run_started):
        window.cv_tab.start_run()


def test_unsaved_changes_are_asked_before_stop_and_quit_which_is_final(window, qtbot,
                                                                         answers):
    """One behaviour for Cancel (issue 37): it changes nothing at either question, and
    "Stop and quit" comes last, so nothing can leave a run going after it."""
    _run_with_unsaved_changes(window, qtbot)
    answers.next = ["cancel"]                           # Cancel on the unsaved changes
    window.close()
    assert answers.asked[-1][0] == "Save the changes?"
    assert window.isVisible() and window.cv_tab.running and window.is_dirty()
    answers.next = ["discard", "cancel"]                # Cancel on stopping the run
    window.close()
    assert [title for title, _ in answers.asked[-2:]] == ["Save the changes?",
                                                        "Quit while running?"]
    assert window.isVisible() and window.cv_tab.running
    answers.next = ["discard", "stop"]
    window.close()
    assert [title for title, _ in answers.asked[-2:]] == ["Save the changes?",
                                                        "Quit while running?"]
    assert not window.isVisible() and not window.cv_tab.running


def test_save_then_stop_and_quit_saves_before_asking_about_the_run(window, qtbot, answers,
                                                                   dialogs, home):
    _run_with_unsaved_changes(window, qtbot)
    dialogs.answer = str(home / "running.json")
    answers.next = ["save", "stop"]
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        window.close()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=60000)
    assert [title for title, _ in answers.asked[-2:]] == ["Save the changes?",
                                                        "Quit while running?"]
    assert os.path.exists(home / "running.json") and not window.cv_tab.running


def test_the_apps_export_keeps_formulas_and_control_characters_inside_their_cell(
        window, qtbot, tmp_path):
    import csv

    csv_path = tmp_path / "labels.csv"
    frame = pd.DataFrame({"x1": [i % 7 for i in range(40)], "x2": [(i * 3) % 5 for i in range(40)],
                          "label": ["ok\r=cmd|' /C calc'!A0" if i % 2 else "b" for i in range(40)]})
    frame.to_csv(csv_path, index=False)
    from engine.input.data import load_csv

    window.state.set_dataset(load_csv(str(csv_path), target="label"))
    window.state.set_model_entries([{"name": "=evil()", "estimator": "GaussianNB"},
                                    {"name": "@nb", "estimator": "GaussianNB",
                                     "params": {"var_smoothing": 1e-3}}])
    short_run(window, qtbot)
    out = tmp_path / "results"
    export(window, qtbot, out)
    for name in os.listdir(out):
        if not name.endswith(".csv"):
            continue
        with open(out / name, encoding="utf-8", newline="") as stream:
            rows = list(csv.reader(stream))
        for row in rows:
            assert len(row) == len(rows[0]), (name, row)
            for cell in row:
                assert "\r" not in cell and "\n" not in cell
                assert not cell.startswith(("=", "+", "@", "\t")), (name, cell)
    summary = pd.read_csv(out / "summary.csv")
    assert set(summary["model"]) == {"'=evil()", "'@nb"}


# ---------------------------------------------------------------------- a folder not ours
@pytest.fixture
def folder_answers(monkeypatch):
    """The question about a folder holding files the app did not write: answered from
    ``folder_answers.next`` (first first), each question recorded in ``.asked``."""
    class FolderAnswers:
        asked, next = [], []

    def answer(parent, refused):
        FolderAnswers.asked.append((refused.code, refused.names))
        return FolderAnswers.next.pop(0)

    monkeypatch.setattr("gui.file_dialogs.ask_about_refused_folder", answer)
    return FolderAnswers


def test_export_into_a_folder_of_the_users_files_asks_and_loses_nothing(
        window, qtbot, tmp_path, folder_answers, warnings_shown):
    open_seed(window, qtbot)
    short_run(window, qtbot)
    folder = tmp_path / "thesis"
    folder.mkdir()
    (folder / "summary.csv").write_text("my own summary\n")
    (folder / "notes.txt").write_text("my notes\n")
    folder_answers.next = [""]                           # Cancel: nothing written
    window.export_results(str(folder))
    qtbot.waitUntil(lambda: bool(folder_answers.asked), timeout=20000)
    assert folder_answers.asked == [("foreign_folder", ("notes.txt", "summary.csv"))]
    assert sorted(os.listdir(folder)) == ["notes.txt", "summary.csv"]
    folder_answers.next = ["subfolder"]                  # a new folder inside it
    with qtbot.waitSignal(window.results_exported, timeout=20000) as exported:
        window.export_results(str(folder))
    inside = folder / "honest-eval-results"
    assert {os.path.dirname(p) for p in exported.args[0]} == {str(inside)}
    assert (folder / "summary.csv").read_text() == "my own summary\n"
    assert (folder / "notes.txt").read_text() == "my notes\n"
    means = pd.read_csv(inside / "summary.csv").set_index("model")["mean"]
    assert means.to_dict() == pytest.approx(window.state.result.summary.set_index(
        "model")["mean"].to_dict(), abs=0, rel=1e-12)
    assert warnings_shown == []


def test_export_into_a_refused_folder_can_choose_another(window, qtbot, tmp_path, dialogs,
                                                         folder_answers):
    open_seed(window, qtbot)
    short_run(window, qtbot)
    first = tmp_path / "mine"
    first.mkdir()
    (first / "report.md").write_text("my report\n")
    other = tmp_path / "other"
    other.mkdir()
    dialogs.answer = str(other)
    folder_answers.next = ["choose"]
    with qtbot.waitSignal(window.results_exported, timeout=20000) as exported:
        window.export_results(str(first))
    assert {os.path.dirname(p) for p in exported.args[0]} == {str(other)}
    assert sorted(os.listdir(first)) == ["report.md"]
    export(window, qtbot, other)                          # its own earlier results: no question
    assert len(folder_answers.asked) == 1
