"""The Cross-validation tab's Curves box and the Results tab's "ROC and PR curves" view
(issue #29): switches saved into the experiment's ``curves`` block and read back, the
learning curves' fits counted, a run with curves drawn from the run's own tables, the
class picker for more classes, the help page, and Export writing the curve tables."""
import json
import os

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QToolButton

from engine.runs.analysis import run_experiment
from engine.evaluation.experiment import CurvesSettings, parse_experiment
from engine.foundation.progress import run_to_end
from gui.help import ALIASES
from gui.state import AppState
from gui.tabs.curves_options import parse_fractions
from gui.views.roc_pr_view import RocPrView
from tests.gui.waiting import run_succeeds

EXPERIMENT = {"dataset": {"builtin": "breast_cancer"},
              "models": [{"name": "logistic", "estimator": "LogisticRegression", "scale": True},
                         {"name": "nb", "estimator": "GaussianNB"}],
              "cv": {"n_splits": 3, "n_repeats": 2, "random_state": 0},
              "metrics": ["roc_auc"]}


def click(qtbot, check):
    qtbot.mouseClick(check, Qt.LeftButton, pos=QPoint(6, check.height() // 2))


def roc_view(window) -> RocPrView:
    views = window.results_tab.views
    titles = [views.tabText(i) for i in range(views.count())]
    return views.widget(titles.index("ROC and PR curves"))


def open_experiment(window, qtbot, path):
    with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                           timeout=20000):
        window.open_experiment(str(path))


def test_switch_on_run_shown_and_exported(window, qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr("gui.saving.ask_choice",
                        lambda parent, title, text, choices, default: "discard")
    path = tmp_path / "plain.json"
    path.write_text(json.dumps(EXPERIMENT), encoding="utf-8")
    open_experiment(window, qtbot, path)
    tab = window.cv_tab
    window.tabs.setCurrentWidget(tab)
    box = tab.curves_box
    assert not box.isChecked() and window.state.curves is None
    box.setChecked(True)
    click(qtbot, box.decision_check)                        # off
    click(qtbot, box.learning_check)                        # on, at the default fractions
    assert window.state.curves == CurvesSettings(True, True, False,
                                                 (0.1, 0.325, 0.55, 0.775, 1.0))
    learning = 5 * 3 * 2 * 2                               # fractions x folds x repeats x models
    assert f"Learning curves add {learning} fits" in box.cost_label.text()
    assert f"then {learning} learning-curve fits" in tab.size_label.text()
    click(qtbot, box.learning_check)                        # off again: no fits added
    assert "learning" not in tab.size_label.text()

    saved = tmp_path / "curves.json"
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        window.save_experiment(str(saved))
    assert json.loads(saved.read_text(encoding="utf-8"))["curves"] == {
        "roc": True, "pr": True, "decision": False, "learning": []}

    view = roc_view(window)
    assert view.stack.currentWidget() is view.hint
    with run_succeeds(qtbot, tab):
        tab.run_button.click()
    window.tabs.setCurrentWidget(window.results_tab)
    window.results_tab.views.setCurrentWidget(view)
    window.state.renderer.flush()
    assert view.stack.currentIndex() == 1
    tables = window.state.result.tables()
    roc, pr = tables["roc_curve.csv"], tables["pr_curve.csv"]
    averaged = roc[roc["curve"] == "averaged"].groupby("model")["auc"].first()
    assert view.roc_plot.drawn_curves() == pytest.approx(averaged.to_dict(), abs=1e-15)
    ap = pr[pr["curve"] == "averaged"].groupby("model")["average_precision"].first()
    assert view.pr_plot.drawn_curves() == pytest.approx(ap.to_dict(), abs=1e-15)
    assert not view.class_combo.isVisibleTo(view)            # two classes: the positive one
    assert "“benign”" in view.roc_plot.title.text()
    assert "default threshold 0.5" in view.points.text()
    assert "not a confidence interval" in view.caveat.text()
    summary = view.table.frame()
    assert list(summary["model"]) == ["logistic", "nb"]
    np.testing.assert_allclose(summary["auc_folds"], averaged[["logistic", "nb"]])

    folder = tmp_path / "export"
    with qtbot.waitSignal(window.results_exported, timeout=60000) as done:
        window.export_results(str(folder))
    names = {os.path.basename(p) for p in done.args[0]}
    assert {"predictions.csv", "roc_curve.csv", "pr_curve.csv"} <= names
    assert "decision_curve.csv" not in names


@pytest.fixture(scope="module")
def wine_result():
    return run_to_end(run_experiment(parse_experiment({
        "dataset": {"builtin": "wine"}, "models": [{"name": "nb", "estimator": "GaussianNB"}],
        "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0}, "curves": {"pr": False}})))


def test_class_picker_for_three_classes(qtbot, wine_result):
    state = AppState()
    view = RocPrView(state)
    qtbot.addWidget(view)
    view.show()
    state.set_result(wine_result)
    assert view.class_combo.isVisibleTo(view)
    assert [view.class_combo.itemText(i) for i in range(3)] == ["class_0", "class_1",
                                                                "class_2"]
    roc = wine_result.tables()["roc_curve.csv"]
    for index, label in enumerate(["class_0", "class_1", "class_2"]):
        view.class_combo.setCurrentIndex(index)
        expected = roc[(roc["curve"] == "averaged") & (roc["class"] == label)]["auc"].iloc[0]
        assert view.roc_plot.drawn_curves() == {"nb": pytest.approx(expected, abs=1e-15)}
    assert not view.pr_plot.isVisibleTo(view)                # "pr": false
    assert view.points.text() == ""                          # no operating point


def test_pooled_far_from_the_folds_is_said():
    import pandas as pd

    from gui.views.roc_pr_view import pooled_gap_text

    summary = pd.DataFrame({"model": ["a", "b"], "class": ["x", "x"], "auc_folds": [0.8, 0.9],
                            "auc_pooled": [0.79, 0.85], "ap_folds": [0.6, 0.7],
                            "ap_pooled": [0.595, 0.69]})
    text = pooled_gap_text(summary, "x")
    assert "pooled AUC differs" in text and "b (0.850 pooled, 0.900 over the folds)" in text
    assert "a (" not in text
    assert pooled_gap_text(summary.assign(auc_pooled=[0.8, 0.9]), "x") == ""


def test_help_button_opens_the_guide_at_roc_pr(qtbot, monkeypatch):
    opened = []
    monkeypatch.setattr("gui.help.show_help", lambda topic, parent=None: opened.append(topic))
    view = RocPrView(AppState())
    qtbot.addWidget(view)
    view.findChild(QToolButton, "help_roc_pr").click()
    assert [ALIASES[topic] for topic in opened] == ["results#roc_pr"]


def test_fractions_typed():
    assert parse_fractions("1, 0.5 0.25") == (0.25, 0.5, 1.0)
    for bad in ("", "a", "0", "1.5", "0.5, 0.5"):
        with pytest.raises(ValueError):
            parse_fractions(bad)
