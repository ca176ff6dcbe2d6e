"""Costs that count (issue 25), through the real widgets: costs typed for a model's threshold
on the Models tab make "expected cost" a metric of the Cross-validation tab, offered as the
one to compare on with one click (not forced); the run compares on it, and the Results tab
says lower is better."""
import json

import numpy as np
import pytest
from PySide6.QtCore import Qt
from sklearn.metrics import confusion_matrix

from engine.evaluation.costs import COST_METRIC
from tests.gui.waiting import run_succeeds
from tests.gui.helpers import choose, click, open_seed, type_into

pytestmark = pytest.mark.usefixtures("answers")     # questions before closing answered



def _experiment(tmp_path, metrics=("roc_auc",)):
    experiment = {"dataset": {"builtin": "moons", "n_samples": 90, "noise": 0.35,
                              "random_state": 1},
                  "models": [{"name": "nb", "estimator": "GaussianNB"},
                             {"name": "logistic", "estimator": "LogisticRegression",
                              "scale": True}],
                  "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
                  "metrics": list(metrics)}
    path = tmp_path / "costs.json"
    path.write_text(json.dumps(experiment), encoding="utf-8")
    return str(path)


def _offered(combo) -> list:
    return [combo.itemData(i) for i in range(combo.count())]


def _type_costs(window, qtbot, fn=5):
    """Tick the first model's threshold and choose it by costs: a miss costs ``fn``."""
    tab = window.models_tab
    window.tabs.setCurrentWidget(tab)
    tab.entry_list.setCurrentRow(0)
    options = tab.editor.threshold
    click(qtbot, options.check)
    choose(options.choice, "cost")
    type_into(qtbot, options.costs["fn"], str(fn))
    assert tab.state.model_entries[0]["threshold"]["cost"] == [[0, 1], [fn, 0]]
    return options


@pytest.mark.slow
def test_typed_costs_offer_the_expected_cost_and_one_click_compares_on_it(
        window, qtbot, tmp_path, answers):
    open_seed(window, qtbot, _experiment(tmp_path))
    cv_tab = window.cv_tab
    assert COST_METRIC not in _offered(cv_tab.primary_combo)       # no costs yet
    assert cv_tab.cost_offer.isHidden()
    _type_costs(window, qtbot)
    assert COST_METRIC in _offered(cv_tab.primary_combo)
    assert window.state.metrics == ("roc_auc",)                     # offered, not forced
    window.tabs.setCurrentWidget(cv_tab)
    assert cv_tab.cost_offer.isVisible()
    words = cv_tab.cost_offer_label.text()
    assert "false negative 5" in words and "ROC AUC does not depend on the threshold" in words
    assert "neg_" not in words and "roc_auc" not in words           # words, not scorer ids
    qtbot.mouseClick(cv_tab.cost_button, Qt.LeftButton)
    assert window.state.metrics[0] == COST_METRIC
    assert cv_tab.primary_combo.currentText().startswith("expected cost")
    assert cv_tab.cost_offer.isHidden()
    with run_succeeds(qtbot, cv_tab):
        cv_tab.run_button.click()
    result = window.state.result
    assert result.cv.primary_metric == COST_METRIC
    assert result.comparison.settings.rope == pytest.approx(0.01)   # the family default
    # the expected cost of each fold is the confusion matrix times the costs over n
    kept = result.cv.predictions
    for model in ("nb", "logistic"):
        rows = kept[(kept["model"] == model) & (kept["fold"] == 1)]
        counts = confusion_matrix(rows["y"], rows["predicted"], labels=[0, 1])
        score = result.cv.scores.query("model == @model and fold == 1 "
                                       "and metric == @COST_METRIC")["score"].iloc[0]
        assert -score == pytest.approx((counts * np.array([[0, 1], [5, 0]])).sum() / len(rows))
    window.tabs.setCurrentWidget(window.results_tab)
    qtbot.waitUntil(lambda: "lower cost is better" in window.results_tab.controls.context.text(),
                    timeout=60000)
    assert not [n for n in result.notes if n.code == "costs_not_compared"]


def test_removing_the_costs_drops_the_expected_cost(window, qtbot, tmp_path, answers):
    open_seed(window, qtbot, _experiment(tmp_path))
    options = _type_costs(window, qtbot)
    cv_tab = window.cv_tab
    qtbot.mouseClick(cv_tab.cost_button, Qt.LeftButton)
    assert window.state.metrics[0] == COST_METRIC
    click(qtbot, options.check)                                     # no threshold: no costs
    assert "threshold" not in window.state.model_entries[0]
    assert COST_METRIC not in _offered(cv_tab.primary_combo)
    assert COST_METRIC not in window.state.metrics
    assert cv_tab.cost_offer.isHidden()


@pytest.mark.slow
def test_a_run_on_roc_auc_with_typed_costs_notes_it(window, qtbot, tmp_path, answers):
    open_seed(window, qtbot, _experiment(tmp_path))
    _type_costs(window, qtbot)
    window.tabs.setCurrentWidget(window.cv_tab)
    with run_succeeds(qtbot, window.cv_tab):
        window.cv_tab.run_button.click()
    note, = [n for n in window.state.result.notes if n.code == "costs_not_compared"]
    assert note.fields["metric"] == "roc_auc" and note.fields["threshold_free"] is True


@pytest.mark.slow
def test_top_level_costs_are_kept_run_and_saved(window, qtbot, tmp_path, answers):
    """A file's own "costs" (no threshold gives them) stay in the app: offered, run, saved."""
    path = tmp_path / "costs.json"
    experiment = json.loads(open(_experiment(tmp_path, [COST_METRIC]), encoding="utf-8").read())
    experiment["costs"] = [[0, 2], [3, 0]]
    path.write_text(json.dumps(experiment), encoding="utf-8")
    open_seed(window, qtbot, str(path))
    cv_tab = window.cv_tab
    assert window.state.costs == ((0.0, 2.0), (3.0, 0.0))
    assert cv_tab.primary_combo.currentData() == COST_METRIC
    window.tabs.setCurrentWidget(cv_tab)
    with run_succeeds(qtbot, cv_tab):
        cv_tab.run_button.click()
    result = window.state.result
    assert result.experiment.metric_costs() == ((0.0, 2.0), (3.0, 0.0))
    assert result.comparison.settings.rope == pytest.approx(0.01)   # the family default
    saved = tmp_path / "saved.json"
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        window.save_experiment(str(saved))
    assert json.loads(saved.read_text(encoding="utf-8"))["costs"] == [[0, 2], [3, 0]]
