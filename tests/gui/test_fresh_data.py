"""A new data set starts clean (issue 37): open A, run, open B, run gives what a fresh
start on B gives, item by item, driven through the real main window.

A is a grouped data set opened from an experiment file that names a ROPE of 0.01 and
asks to run without groups too; its best two models are logreg and knn. B has no groups
and its best two are knn and stump (logreg is last), so a pair kept from A would compare
ranks 4 and 1 of B.
"""
import json

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import QSettings
from sklearn.datasets import make_classification

from engine.evaluation.stats import ComparisonSettings
from engine.input.readers import load_dataset
from gui.main_window import MainWindow
from gui.plots.plot_panel import PlotPanel
from gui.state import AppState
from gui.tabs.results_widgets import ComparisonControls
from tests.gui.waiting import run_succeeds
from tests.helpers import visits

MODELS = [{"name": "nb", "estimator": "GaussianNB"},
          {"name": "stump", "estimator": "DecisionTreeClassifier",
           "params": {"max_depth": 1, "random_state": 0}},
          {"name": "knn", "estimator": "KNeighborsClassifier", "params": {"n_neighbors": 5}},
          {"name": "logreg", "estimator": "LogisticRegression"}]
CV = {"n_splits": 3, "n_repeats": 2, "random_state": 0}


@pytest.fixture(autouse=True)
def discard_unsaved_changes(monkeypatch):
    monkeypatch.setattr("gui.saving.ask_choice", lambda *args: "discard")


@pytest.fixture
def files(tmp_path):
    """(experiment file of A, data file B)."""
    visits(n_subjects=30, seed=2).to_csv(tmp_path / "A.csv", index=False)
    X, y = make_classification(120, n_features=6, n_informative=3, random_state=4)
    frame = pd.DataFrame(X, columns=list("abcdef"))
    frame["class"] = np.where(y == 1, "round", "long")
    frame.to_csv(tmp_path / "B.csv", index=False)
    experiment = {"dataset": {"csv": "A.csv", "target": "label", "groups": "subject"},
                  "models": MODELS, "cv": {**CV, "compare_ungrouped": True},
                  "comparison": {"rope": 0.01}}
    path = tmp_path / "A_experiment.json"
    path.write_text(json.dumps(experiment), encoding="utf-8")
    return str(path), str(tmp_path / "B.csv")


def make_window(qtbot, tmp_path, name):
    window = MainWindow(settings=QSettings(str(tmp_path / f"{name}.ini"), QSettings.IniFormat))
    qtbot.addWidget(window)
    window.show()
    return window


def open_data(window, qtbot, path):
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=60000):
        window.dataset_tab.open_file(path)


def run(window, qtbot):
    window.tabs.setCurrentWidget(window.cv_tab)
    with run_succeeds(qtbot, window.cv_tab):
        window.cv_tab.run_button.click()
    window.state.renderer.flush()


def hover(panel: PlotPanel) -> str:
    """Move the mouse over the middle of ``panel``'s plot; its read-out."""
    panel.on_mouse_moved((panel.plot.sceneBoundingRect().center(),))
    return panel.readout.text()


def items(window) -> dict:
    """Everything that belongs to the data on screen, item by item."""
    state, tab = window.state, window.results_tab
    check = window.dataset_tab.groups_box.compare_check
    return {"pair": (tab.model_a_combo.currentText(), tab.model_b_combo.currentText()),
            "verdict": tab.verdict_label.text(),
            "rope used": state.result.comparison.settings.rope,
            "rope shown": tab.controls.rope_spin.value(),
            "comparison": state.comparison, "cv": state.cv, "metrics": state.metrics,
            "selection": state.selection, "test": state.test,
            "also without groups": (check.isChecked(), check.isEnabled()),
            "saved notice": (window.saved_notice.isVisible(), window.saved_notice.message),
            "read-outs": sorted(p.readout.text() for p in window.findChildren(PlotPanel)
                                if p.readout.text()),
            "summary": state.result.summary[["model", "metric", "mean", "rank"]]
            .to_dict("records"),
            "result store": window.cv_tab.store.path(), "title": window.windowTitle()}


@pytest.mark.slow
def test_open_a_run_open_b_run_equals_a_fresh_start_on_b(qtbot, tmp_path, files):
    experiment_a, data_b = files
    window = make_window(qtbot, tmp_path, "first")
    try:
        with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                               timeout=60000):
            window.open_experiment(experiment_a)
        run(window, qtbot)
        on_a = items(window)
        assert on_a["pair"] == ("logreg", "knn")                  # A's best two
        assert on_a["rope used"] == 0.01 and on_a["also without groups"] == (True, True)
        assert on_a["result store"] == experiment_a.replace(".json", ".store.sqlite")
        assert on_a["title"] == "A_experiment.json — Honest Eval"
        window.show_saved("Wrote 40 predictions", str(tmp_path))   # as File → Predict does
        assert hover(window.results_tab.fold_plot)
        open_data(window, qtbot, data_b)
        run(window, qtbot)
        after_a = items(window)
    finally:
        window.shutdown()
    fresh = make_window(qtbot, tmp_path, "fresh")
    try:
        open_data(fresh, qtbot, data_b)
        fresh.state.set_model_entries(MODELS)                     # the same choices
        fresh.cv_tab.folds_box.setValue(CV["n_splits"])
        fresh.cv_tab.repeats_box.setValue(CV["n_repeats"])
        fresh.cv_tab.seed_box.setValue(CV["random_state"])
        run(fresh, qtbot)
        fresh_b = items(fresh)
    finally:
        fresh.shutdown()
    assert fresh_b["pair"] == ("knn", "stump")                    # B's best two
    assert fresh_b["rope used"] == 0.005                          # ROC AUC's default
    assert fresh_b["also without groups"] == (False, False)
    assert fresh_b["saved notice"] == (False, "") and fresh_b["read-outs"] == []
    assert "knn" in fresh_b["verdict"] and "stump" in fresh_b["verdict"]
    assert fresh_b["title"] == "B* — Honest Eval"
    assert [item for item, value in fresh_b.items() if after_a[item] != value] == []


def test_the_same_data_read_again_keeps_what_new_data_drops(qapp):
    """Another target of the same file keeps the user's picks; other data drops them."""
    state = AppState()
    moons = load_dataset({"builtin": "moons", "n_samples": 60, "random_state": 1})
    state.set_dataset(moons)
    state.set_comparison(ComparisonSettings(rope=0.03, alpha=0.1))
    state.set_test({"file": "/data/test.csv"}, save_models=True)
    state.set_selection(["nb", "knn"])
    state.set_dataset(load_dataset({"builtin": "moons", "n_samples": 60, "random_state": 1,
                                    "name": "again"}))
    assert (state.comparison.rope, state.selection, state.save_models) == \
        (0.03, ["nb", "knn"], True)
    state.set_dataset(load_dataset({"builtin": "moons", "n_samples": 80, "random_state": 1}))
    assert state.comparison == ComparisonSettings(rope=None, alpha=0.1)   # alpha is kept
    assert (state.selection, state.test, state.save_models) == ([], None, False)


def test_a_new_alpha_leaves_the_rope_to_the_metric(qapp):
    """Changing alpha or the correction does not pin the shown default ROPE: it stays
    the metric's default (None) until the ROPE itself is set."""
    controls = ComparisonControls()
    emitted = []
    controls.changed.connect(emitted.append)
    controls.set_settings(ComparisonSettings(), "roc_auc")
    assert controls.rope_spin.value() == 0.005
    controls.alpha_spin.setValue(0.1)
    assert (emitted[-1].rope, emitted[-1].alpha) == (None, 0.1)
    controls.rope_spin.setValue(0.02)
    controls.alpha_spin.setValue(0.2)
    assert (emitted[-1].rope, emitted[-1].alpha) == (0.02, 0.2)
    controls.set_settings(ComparisonSettings(alpha=0.2), "accuracy")   # e.g. new data
    controls.alpha_spin.setValue(0.1)
    assert emitted[-1].rope is None and controls.rope_spin.value() == 0.01


@pytest.mark.slow
def test_quit_mid_run_then_the_same_data_opened_directly_offers_resume(qtbot, tmp_path, files,
                                                                       monkeypatch):
    """The quit dialog's promise: the store it names is the one found after a restart
    when the same data is opened another way (directly, not over experiment A)."""
    experiment_a, data_b = files
    asked = []

    def answer(parent, title, text, choices, default):
        asked.append(text)
        return "stop" if any(key == "stop" for key, _, _ in choices) else "discard"

    monkeypatch.setattr("gui.saving.ask_choice", answer)
    window = make_window(qtbot, tmp_path, "first")
    with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                           timeout=60000):
        window.open_experiment(experiment_a)
    open_data(window, qtbot, data_b)
    window.cv_tab.repeats_box.setValue(200)                      # 2,400 fits: still running
    with qtbot.waitSignal(window.cv_tab.run_started, timeout=60000):
        window.cv_tab.start_run()
    qtbot.waitUntil(lambda: window.cv_tab.progress_bar.value() >= 2, timeout=60000)
    promised = window.cv_tab.store.launched_path()
    window.close()                                               # Discard, Stop and quit
    assert not window.isVisible() and not window.cv_tab.running
    assert ("running the same data again with the same models, folds and metrics resumes "
            "from them, however the data is opened.") in asked[-1]
    window.shutdown()
    again = make_window(qtbot, tmp_path, "restart")
    try:
        open_data(again, qtbot, data_b)
        again.state.set_model_entries(MODELS)
        again.cv_tab.folds_box.setValue(CV["n_splits"])
        again.cv_tab.repeats_box.setValue(200)
        again.cv_tab.seed_box.setValue(CV["random_state"])
        assert again.cv_tab.store.path() == promised
        bar = again.cv_tab.store.bar
        qtbot.waitUntil(lambda: not bar.isHidden() and bar.kind == "offer", timeout=60000)
        assert bar.action_button.text() == "Resume"
        assert "The last run of this experiment stopped after" in bar.label.text()
    finally:
        again.shutdown()


@pytest.mark.slow
def test_open_results_leaves_no_hover_read_out_of_the_plots_before(qtbot, tmp_path, files):
    """Hover read-outs describe the plots as drawn: Open results (an earlier run from the
    store) clears every one, like a run or new data does."""
    _, data_b = files
    window = make_window(qtbot, tmp_path, "runs")
    try:
        open_data(window, qtbot, data_b)
        window.state.set_model_entries(MODELS[:2])
        window.cv_tab.folds_box.setValue(3)
        window.cv_tab.repeats_box.setValue(1)
        run(window, qtbot)
        window.cv_tab.repeats_box.setValue(2)
        run(window, qtbot)
        panels = (window.results_tab.fold_plot, window.results_tab.heatmap)
        assert all(hover(panel) for panel in panels)
        view = window.cv_tab.runs_view
        qtbot.waitUntil(lambda: len(view.table.frame()) == 2, timeout=60000)
        view.select_run(1)
        with qtbot.waitSignal(view.opened, timeout=60000):
            view.open_button.click()
        assert window.state.result.experiment.cv.n_repeats == 1
        assert [p.readout.text() for p in window.findChildren(PlotPanel)
                if p.readout.text()] == []
    finally:
        window.shutdown()


@pytest.mark.slow
def test_the_rope_of_own_data_does_not_depend_on_the_path(qtbot, tmp_path, files):
    """Own data opened over the shipped example (its ROPE 0.01 AUC) or after File → New
    gets the same ROPE: the metric's default."""
    from tests.gui.helpers import open_seed

    _, data_b = files
    ropes = []
    for name, start in (("example", open_seed), ("new", lambda w, _: w.new_experiment())):
        window = make_window(qtbot, tmp_path, name)
        try:
            start(window, qtbot)
            open_data(window, qtbot, data_b)
            ropes.append((window.state.comparison.rope, window.state.comparison))
        finally:
            window.shutdown()
    assert ropes[0] == ropes[1] and ropes[0][0] is None
