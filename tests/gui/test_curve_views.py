"""The Decision curve and Learning curve views on a real run with a curves block.

The lines, bands and tables on screen are the engine's numbers; the views say what to
switch on when a run has no curves, and their "?" opens the guide at their section.
"""
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from PySide6.QtWidgets import QToolButton

from engine.runs.analysis import run_experiment
from engine.evaluation.experiment import parse_experiment
from engine.foundation.progress import run_to_end
from gui.help import ALIASES, HELP_DIR
from gui.state import AppState
from gui.views.decision_curve_view import DecisionCurveView
from gui.views.learning_curve_view import LearningCurveView

MODELS = [{"estimator": "GaussianNB"},
          {"estimator": "LogisticRegression", "scale": True, "params": {"max_iter": 1000}},
          {"estimator": "SVC", "scale": True}]


def experiment(builtin="breast_cancer", curves=None):
    data = {"dataset": {"builtin": builtin}, "models": MODELS,
            "cv": {"n_splits": 3, "n_repeats": 2, "random_state": 0}, "metrics": ["roc_auc"]
            if builtin == "breast_cancer" else ["accuracy"]}
    if curves is not None:
        data["curves"] = curves
    return parse_experiment(data)


@pytest.fixture(scope="module")
def curves_result():
    return run_to_end(run_experiment(experiment(curves={"decision": True,
                                                        "learning": [0.3, 0.6, 1.0]})))


@pytest.fixture(scope="module")
def plain_result():
    return run_to_end(run_experiment(experiment()))


@pytest.fixture
def state(qapp):
    app_state = AppState()
    yield app_state
    app_state.deleteLater()


def make(qtbot, cls, state):
    view = cls(state)
    qtbot.addWidget(view)
    view.resize(1280, 760)
    view.show()
    return view


def test_decision_view_draws_the_engine_curves(qtbot, state, curves_result):
    view = make(qtbot, DecisionCurveView, state)
    assert view.stack.currentWidget() is view.hint
    state.set_result(curves_result)
    assert view.stack.currentIndex() == 1
    decision = curves_result.curves.decision
    drawn = view.plot.drawn_lines()
    assert set(drawn) == {"GaussianNB", "LogisticRegression", "treat all", "treat none"}
    summary = decision.summary
    for name, (x, y) in drawn.items():
        rows = summary[summary["model"] == name]
        np.testing.assert_allclose(x, rows["threshold"])
        np.testing.assert_allclose(y, rows["mean_net_benefit"])
    rows = summary[summary["model"] == "GaussianNB"]
    low, high = view.plot.drawn_band("GaussianNB")
    np.testing.assert_allclose(low, rows["band_low"])
    np.testing.assert_allclose(high, rows["band_high"])
    pd.testing.assert_frame_equal(view.table.frame(), summary)
    # the class the threshold is about is named; SVC's missing curve is explained
    assert f"“{curves_result.dataset.classes[1]}”" in view.plot.title.text()
    assert "SVC" in view.notes.text() and "no probabilities" in view.notes.text()
    # the pair: its bootstrap probability drawn, and summed up over the chosen range
    assert view.pair_combo.currentText() == "GaussianNB vs LogisticRegression"
    pair = decision.pairs
    np.testing.assert_allclose(view.plot.pair_line.getData()[1], pair["p_more_benefit"])
    view.low.setValue(0.1)
    view.high.setValue(0.3)
    inside = pair[(pair["threshold"] >= 0.1 - 1e-9) & (pair["threshold"] <= 0.3 + 1e-9)]
    text = view.pair_text.text()
    assert "0.10 and 0.30" in text
    if inside["p_less_benefit"].min() >= 0.95:
        assert "LogisticRegression gives more net benefit than GaussianNB in at least 95%" in text
    elif inside["p_more_benefit"].min() >= 0.95:
        assert "GaussianNB gives more net benefit than LogisticRegression in at least 95%" in text
    else:
        assert (f"from {inside['p_more_benefit'].min():.2f} to "
                f"{inside['p_more_benefit'].max():.2f}") in text
    assert view.plot.plot.vb.viewRange()[0][0] == pytest.approx(0.1, abs=0.01)


def test_learning_view_draws_the_engine_curves(qtbot, state, curves_result):
    view = make(qtbot, LearningCurveView, state)
    state.set_result(curves_result)
    assert view.stack.currentIndex() == 1
    summary = curves_result.curves.learning.summary
    for name, (x, y) in view.plot.drawn_lines().items():
        rows = summary[summary["model"] == name]
        np.testing.assert_allclose(x, rows["n_train"])
        np.testing.assert_allclose(y, rows["mean"])
        low, high = view.plot.drawn_band(name)
        np.testing.assert_allclose(low, rows["band_low"])
        np.testing.assert_allclose(high, rows["band_high"])
    assert set(view.plot.drawn_lines()) == {m["estimator"] for m in MODELS}
    (x_low, x_high), _ = view.plot.plot.getViewBox().viewRange()
    sizes = summary["n_train"]
    assert sizes.min() - 0.1 * np.ptp(sizes) < x_low < sizes.min()   # the sizes tried, not 0
    assert sizes.max() < x_high < sizes.max() + 0.1 * np.ptp(sizes)
    pd.testing.assert_frame_equal(view.table.frame(), summary)
    verdicts = [n for n in curves_result.notes if n.code == "learning_flattened"]
    assert len(verdicts) == 3
    for note in verdicts:
        assert note.fields["model"] in view.verdict.text()
    assert "ROC AUC" in view.verdict.text() and "may " in view.verdict.text()


def test_learning_header_says_how_the_parts_were_taken(qtbot, state, curves_result):
    view = make(qtbot, LearningCurveView, state)
    state.set_result(curves_result)
    assert "the first rows of every training fold" in view.header.label.text()
    shuffled = replace(curves_result.curves,
                       learning=replace(curves_result.curves.learning, shuffled=True))
    state.set_result(replace(curves_result, curves=shuffled))
    assert "a random part (the fold shuffled)" in view.header.label.text()
    assert "first rows" not in view.header.label.text()


def test_learning_sentences_keep_the_model_names_as_spelled():
    from engine.foundation.notes import Note
    from gui.views.learning_curve_view import verdict_html

    notes = [Note("learning_flattened", "naive_bayes: from 52 to 64 training rows the mean "
                  "roc_auc changed by +0.0010, less than its standard error",
                  {"model": "naive_bayes", "metric": "roc_auc", "gain": 0.001, "se": 0.02,
                   "flattened": True}),
             Note("learning_sizes_merged", "some learning-curve fractions give the same "
                  "training size and were merged", {"fractions": [0.1], "n_train": [5]})]
    html = verdict_html(notes)
    assert "naive_bayes: from 52 to 64" in html and "Naive_bayes" not in html
    assert "mean ROC AUC changed" in html
    assert "Some learning-curve fractions" in html


def test_views_without_curves_say_what_to_switch_on(qtbot, state, plain_result):
    state.set_result(plain_result)
    decision = make(qtbot, DecisionCurveView, state)
    learning = make(qtbot, LearningCurveView, state)
    assert decision.stack.currentWidget() is decision.hint
    assert "Decision curves" in decision.hint.text()
    assert learning.stack.currentWidget() is learning.hint
    assert "Learning curve" in learning.hint.text()


def test_multiclass_decision_view_says_why_there_is_no_curve(qtbot, state):
    result = run_to_end(run_experiment(experiment("iris", curves={"decision": True})))
    state.set_result(result)
    view = make(qtbot, DecisionCurveView, state)
    assert view.stack.currentWidget() is view.hint
    assert "two classes" in view.hint.text()


@pytest.mark.parametrize("cls, topic", [(DecisionCurveView, "decision_curve"),
                                        (LearningCurveView, "learning_curve")])
def test_help_opens_the_guide_at_the_view(qtbot, monkeypatch, cls, topic):
    opened = []
    monkeypatch.setattr("gui.help.show_help", lambda t, parent=None: opened.append(t))
    view = cls(AppState())
    qtbot.addWidget(view)
    view.findChild(QToolButton, f"help_{topic}").click()
    assert [ALIASES[t] for t in opened] == [f"results#{topic}"]
    with open(f"{HELP_DIR}/results.html", encoding="utf-8") as page:
        assert f'id="{topic}"' in page.read()


def test_the_shuffle_switch_sets_learning_shuffle(qtbot):
    from engine.evaluation.experiment import CurvesSettings
    from gui.tabs.curves_options import CurvesOptions

    box = CurvesOptions()
    qtbot.addWidget(box)
    blocks = []
    box.changed.connect(blocks.append)
    box.setChecked(True)
    assert not box.shuffle_check.isEnabled()          # no learning curve: nothing to shuffle
    box.learning_check.setChecked(True)
    assert box.shuffle_check.isEnabled()
    box.shuffle_check.setChecked(True)
    assert box.settings().learning_shuffle is True
    assert box.settings().to_json()["learning_shuffle"] is True
    box.learning_check.setChecked(False)
    assert box.settings().learning_shuffle is False
    box.show_settings(CurvesSettings(learning=(0.5, 1.0), learning_shuffle=True))
    assert box.shuffle_check.isChecked() and box.learning_check.isChecked()
    box.show_settings(CurvesSettings(learning=(0.5, 1.0)))
    assert not box.shuffle_check.isChecked()


@pytest.mark.slow
def test_run_from_the_window_shows_both_views_and_exports(window, qtbot, tmp_path,
                                                          monkeypatch):
    """Tick decision and learning curves on the CV tab, run, read both views, export."""
    import json
    import os

    from PySide6.QtCore import QPoint, Qt

    from tests.gui.waiting import run_succeeds

    monkeypatch.setattr("gui.saving.ask_choice",
                        lambda parent, title, text, choices, default: "discard")
    path = tmp_path / "plain.json"
    path.write_text(json.dumps({
        "dataset": {"builtin": "breast_cancer"},
        "models": [{"name": "logistic", "estimator": "LogisticRegression", "scale": True},
                   {"name": "nb", "estimator": "GaussianNB"}],
        "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0}, "metrics": ["roc_auc"]}),
        encoding="utf-8")
    with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                           timeout=20000):
        window.open_experiment(str(path))
    tab = window.cv_tab
    window.tabs.setCurrentWidget(tab)
    box = tab.curves_box
    box.setChecked(True)
    box.fractions_edit.setText("0.5, 1")
    qtbot.mouseClick(box.learning_check, Qt.LeftButton,
                     pos=QPoint(6, box.learning_check.height() // 2))
    assert window.state.curves.decision and window.state.curves.learning == (0.5, 1.0)
    with run_succeeds(qtbot, tab):
        tab.run_button.click()
    views = window.results_tab.views
    titles = [views.tabText(i) for i in range(views.count())]
    result = window.state.result
    for title, cls in (("Decision curve", DecisionCurveView),
                       ("Learning curve", LearningCurveView)):
        view = views.widget(titles.index(title))
        assert isinstance(view, cls)
        window.tabs.setCurrentWidget(window.results_tab)
        views.setCurrentWidget(view)
        assert view.stack.currentIndex() == 1
    decision_view = views.widget(titles.index("Decision curve"))
    x, y = decision_view.plot.drawn_lines()["logistic"]
    rows = result.curves.decision.summary
    np.testing.assert_allclose(y, rows[rows["model"] == "logistic"]["mean_net_benefit"])
    learning_view = views.widget(titles.index("Learning curve"))
    assert set(learning_view.plot.drawn_lines()) == {"logistic", "nb"}
    folder = tmp_path / "export"
    with qtbot.waitSignal(window.results_exported, timeout=60000) as done:
        window.export_results(str(folder))
    names = {os.path.basename(p) for p in done.args[0]}
    assert {"decision_curve.csv", "decision_summary.csv", "decision_pairs.csv",
            "learning_curve.csv", "learning_summary.csv"} <= names
