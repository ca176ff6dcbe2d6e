"""The Results tab's "Tuning" view, and the whole path to it: a grid ticked "Tune inside each
fold" and a model given typed costs on the Models tab are saved as the engine's blocks, run,
and shown with the run's own tuning.csv, thresholds.csv and tuning_optimism.csv."""
import json

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QToolButton

from engine.runs.analysis import run_experiment
from engine.evaluation.experiment import parse_experiment
from engine.foundation.progress import run_to_end
from gui.help import ALIASES
from gui.state import AppState
from gui.views.tuning_view import TuningView, choice_counts
from tests.gui.waiting import run_succeeds
from tests.gui.helpers import open_seed, type_into

pytestmark = pytest.mark.usefixtures("answers")     # questions before closing answered


MOONS = {"builtin": "moons", "n_samples": 80, "noise": 0.3, "random_state": 1}


def click(qtbot, check):
    qtbot.mouseClick(check, Qt.LeftButton, pos=QPoint(6, check.height() // 2))


def tuning_view(window) -> TuningView:
    views = window.results_tab.views
    titles = [views.tabText(i) for i in range(views.count())]
    return views.widget(titles.index("Tuning"))


@pytest.mark.slow
def test_ticked_on_the_models_tab_saved_run_and_shown(window, qtbot, tmp_path, answers):
    experiment = {"dataset": MOONS,
                  "models": [{"name": "svc", "estimator": "SVC", "params": {"random_state": 0},
                              "grid": {"kernel": ["linear", "rbf"], "C": [0.5, 5]}},
                             {"name": "nb", "estimator": "GaussianNB"}],
                  "cv": {"n_splits": 3, "n_repeats": 2, "random_state": 0},
                  "metrics": ["roc_auc", "accuracy"]}
    path = tmp_path / "plain.json"
    path.write_text(json.dumps(experiment), encoding="utf-8")
    open_seed(window, qtbot, str(path))
    tab = window.models_tab
    window.tabs.setCurrentWidget(tab)
    assert tab.expanded_list.count() == 5
    tab.entry_list.setCurrentRow(0)
    click(qtbot, tab.editor.tuning.check)
    tab.editor.tuning.inner_folds.setValue(3)
    tab.entry_list.setCurrentRow(1)
    options = tab.editor.threshold
    click(qtbot, options.check)
    options.choice.setCurrentIndex(options.choice.findData("cost"))
    options.choice.activated.emit(options.choice.currentIndex())
    type_into(qtbot, options.costs["fn"], "4")
    options.inner_folds.setValue(3)
    assert tab.expanded_list.count() == 2

    saved = tmp_path / "tuned.json"
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        window.save_experiment(str(saved))
    models = json.loads(saved.read_text(encoding="utf-8"))["models"]
    assert models[0] == {"name": "svc", "estimator": "SVC", "params": {"random_state": 0},
                         "tune": {"grid": {"kernel": ["linear", "rbf"], "C": [0.5, 5]},
                                  "inner_splits": 3}}
    assert models[1] == {"name": "nb", "estimator": "GaussianNB",
                         "threshold": {"cost": [[0, 1], [4, 0]], "inner_splits": 3}}

    view = tuning_view(window)
    assert view.stack.currentWidget() is view.hint      # nothing run yet
    window.tabs.setCurrentWidget(window.cv_tab)
    with run_succeeds(qtbot, window.cv_tab):
        window.cv_tab.run_button.click()
    window.tabs.setCurrentWidget(window.results_tab)
    window.results_tab.views.setCurrentWidget(view)
    window.state.renderer.flush()
    tables = window.state.result.tables()
    assert view.stack.currentIndex() == 1
    pd.testing.assert_frame_equal(view.chosen_table.frame(), tables["tuning.csv"])
    pd.testing.assert_frame_equal(view.thresholds_table.frame(), tables["thresholds.csv"])
    pd.testing.assert_frame_equal(view.optimism_table.frame(), tables["tuning_optimism.csv"])
    assert list(tables["tuning.csv"]["model"]) == ["svc"] * 6
    assert list(tables["thresholds.csv"]["model"]) == ["nb"] * 6
    counts = view.counts_table.frame()
    assert counts.groupby("parameter")["times_chosen"].sum().to_dict() == {"C": 6, "kernel": 6}
    optimism = tables["tuning_optimism.csv"].iloc[0]
    assert optimism["n_members"] == 4
    assert f"{optimism['nested_score']:.4g}" in view.verdict.text()
    assert f"95% interval {optimism['ci_low']:.3g} to {optimism['ci_high']:.3g}" \
        in view.verdict.text()
    shown = view.optimism_table.frame().columns
    assert {"ci_low", "ci_high", "p_value_two_sided", "tuning_metric"} <= set(shown)
    assert ("color:#b35900" in view.verdict.text()) == (optimism["ci_low"] > 0)
    assert view.settings_part.isVisibleTo(view) and view.threshold_part.isVisibleTo(view)
    x, y = view.threshold_plot.drawn()["nb"]
    thresholds = tables["thresholds.csv"]
    assert x == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    positive = window.state.result.dataset.classes[window.state.result.dataset.pos_label]
    assert view.threshold_plot.axis_text() == f"threshold on P({positive})"
    np.testing.assert_allclose(y, thresholds.sort_values(["repeat", "fold"])["threshold"])


@pytest.fixture(scope="module")
def plain_result():
    experiment = parse_experiment({"dataset": MOONS,
                                   "models": [{"name": "nb", "estimator": "GaussianNB"}],
                                   "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0}})
    return run_to_end(run_experiment(experiment))


def test_empty_state_says_what_to_tick(qtbot, plain_result):
    state = AppState()
    view = TuningView(state)
    qtbot.addWidget(view)
    assert view.stack.currentWidget() is view.hint
    state.set_result(plain_result)
    state.renderer.flush()
    assert view.stack.currentWidget() is view.hint
    assert "No model in this run was tuned inside the folds" in view.hint.text()
    assert "Tune inside each fold" in view.hint.text()


def test_help_button_opens_the_guide_at_tuning(qtbot, monkeypatch):
    opened = []
    monkeypatch.setattr("gui.help.show_help", lambda topic, parent=None: opened.append(topic))
    view = TuningView(AppState())
    qtbot.addWidget(view)
    view.findChild(QToolButton, "help_tuning").click()
    assert [ALIASES[topic] for topic in opened] == ["results#tuning"]


def test_choice_counts_count_each_value_per_model():
    tuning = pd.DataFrame({"model": ["a", "a", "a", "b", "b"], "repeat": [1] * 5,
                           "fold": [1, 2, 3, 1, 2], "C": [0.1, 1.0, 0.1, 10.0, 10.0],
                           "kernel": ["rbf", "rbf", "linear", None, None],
                           "inner_score": [0.9] * 5})
    counts = choice_counts(tuning)
    assert counts.values.tolist() == [["a", "C", "0.1", 2, 2 / 3], ["a", "C", "1", 1, 1 / 3],
                                      ["a", "kernel", "rbf", 2, 2 / 3],
                                      ["a", "kernel", "linear", 1, 1 / 3],
                                      ["b", "C", "10", 2, 1.0]]


def test_the_dashed_line_is_the_usual_threshold_of_what_the_models_give(qtbot):
    """0.5 for probabilities, 0 for decision scores (an SVC's), none when they differ."""
    import pandas as pd

    from gui.plots.threshold_plot import ThresholdPlot

    plot = ThresholdPlot()
    qtbot.addWidget(plot)
    table = pd.DataFrame({"model": ["svc", "svc", "nb", "nb"], "repeat": [1, 1, 1, 1],
                          "fold": [1, 2, 1, 2], "threshold": [-0.3, 0.2, 0.3, 0.4],
                          "inner_score": [0.8, 0.8, 0.7, 0.7]})
    svc = table[table["model"] == "svc"]
    plot.set_thresholds(svc, 2, {"svc": "decision"})
    assert plot.default_line.value() == 0.0 and "dashed: 0" in plot.title.text()
    plot.set_thresholds(table[table["model"] == "nb"], 2, {"nb": "proba"})
    assert plot.default_line.value() == 0.5 and "dashed: 0.5" in plot.title.text()
    plot.set_thresholds(table, 2, {"svc": "decision", "nb": "proba"})
    assert not plot.default_line.isVisible() and "dashed" not in plot.title.text()


def test_the_axis_names_the_class_the_thresholds_are_on(qtbot):
    """thresholds.csv's positive_class names what the threshold is on: P(no) for
    probabilities, the decision score of "no" for decision values."""
    from gui.plots.threshold_plot import ThresholdPlot

    plot = ThresholdPlot()
    qtbot.addWidget(plot)
    table = pd.DataFrame({"model": ["lr", "lr"], "repeat": [1, 1], "fold": [1, 2],
                          "threshold": [0.08, 0.1], "inner_score": [-0.3, -0.3],
                          "positive_class": ["no", "no"]})
    plot.set_thresholds(table, 2, {"lr": "proba"})
    assert plot.axis_text() == "threshold on P(no)"
    plot.set_thresholds(table, 2, {"lr": "decision"})
    assert plot.axis_text() == "threshold on the decision score of no"
    plot.set_thresholds(table.drop(columns="positive_class"), 2, {"lr": "proba"})
    assert plot.axis_text() == "chosen threshold"
