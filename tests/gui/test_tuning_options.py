"""The Models tab's "Tune inside each fold" and "Choose a decision threshold inside each
fold", driven offscreen: the entry's grid becomes a "tune" block and back, the list of
models follows, the threshold is offered for two classes only, and typed costs become the
engine's cost matrix [[c_tn, c_fp], [c_fn, c_tp]]."""
import pytest
from PySide6.QtWidgets import QLabel

from engine.input.readers import load_dataset
from engine.evaluation.costs import cost_score
from gui.state import AppState
from gui.tabs.models_tab import ModelsTab
from gui.tabs.threshold_options import cost_matrix, outcome_costs
from gui.tabs.tuning_options import editable_entry, plain_entry, put_back, tuned_entry
from tests.gui.helpers import choose, click, expanded, type_into

GRID = {"kernel": ["linear", "rbf"], "C": [0.1, 1, 10]}


@pytest.fixture(scope="module")
def two_classes():
    return load_dataset({"builtin": "moons", "n_samples": 60, "noise": 0.3, "random_state": 1})


@pytest.fixture
def tab(qtbot, two_classes):
    state = AppState()
    state.set_dataset(two_classes)
    widget = ModelsTab(state)
    widget.resize(1280, 800)
    qtbot.addWidget(widget)
    widget.show()
    return widget


def grid_svc(tab, qtbot):
    tab.add_model("SVC")
    type_into(qtbot, tab.editor.editors["kernel"], "linear, rbf")
    type_into(qtbot, tab.editor.editors["C"], "0.1, 1, 10")
    assert tab.state.model_entries[0]["grid"] == GRID
    return tab.editor


def model_lines(tab):
    return [tab.expanded_list.item(i).text() for i in range(tab.expanded_list.count())]


def test_tune_check_needs_a_list_of_values(tab, qtbot):
    tab.add_model("SVC")
    assert not tab.editor.tuning.check.isEnabled()
    assert "several values" in tab.editor.tuning.check.toolTip()
    type_into(qtbot, tab.editor.editors["C"], "0.1, 1")
    assert tab.editor.tuning.check.isEnabled() and not tab.editor.tuning.check.isChecked()


def test_ticking_makes_one_tuned_model_and_unticking_restores_the_grid(tab, qtbot):
    editor = grid_svc(tab, qtbot)
    assert tab.expanded_list.count() == 6
    options = editor.tuning
    assert not options.details.isVisibleTo(editor)
    click(qtbot, options.check)
    entry = tab.state.model_entries[0]
    assert "grid" not in entry
    assert entry["tune"] == {"grid": GRID, "inner_splits": 5}
    assert options.details.isVisibleTo(editor)
    type_into(qtbot, options.inner_folds, "3")
    choose(options.scoring, "balanced_accuracy")
    click(qtbot, options.optimism)
    assert tab.state.model_entries[0]["tune"] == {"grid": GRID, "inner_splits": 3,
                                                  "scoring": "balanced_accuracy",
                                                  "optimism": False}
    assert expanded(tab) == ["SVC"]
    assert "tuned inside each fold over 6 settings of C, kernel (3 inner folds, by " \
           "balanced accuracy)" in model_lines(tab)[0]
    assert tab.entry_list.item(0).text() == "SVC  (tuned over 6 settings)"
    assert tab.expansion_title.text().endswith("1</b>")
    click(qtbot, options.check)
    entry = tab.state.model_entries[0]
    assert entry["grid"] == GRID and "tune" not in entry
    assert tab.expanded_list.count() == 6


def test_scoring_left_to_the_primary_metric_is_omitted(tab, qtbot):
    editor = grid_svc(tab, qtbot)
    scoring = editor.tuning.scoring
    assert scoring.currentData() is None and "ROC AUC" in scoring.currentText()
    tab.state.set_cv(tab.state.cv, ("balanced_accuracy", "roc_auc"))
    assert "balanced accuracy" in scoring.itemText(0)
    click(qtbot, editor.tuning.check)
    assert "scoring" not in tab.state.model_entries[0]["tune"]      # the engine's default
    choose(scoring, "roc_auc")
    assert tab.state.model_entries[0]["tune"]["scoring"] == "roc_auc"
    choose(scoring, None)
    assert "scoring" not in tab.state.model_entries[0]["tune"]


def test_editing_a_tuned_list_keeps_it_tuned_until_one_value_is_left(tab, qtbot):
    editor = grid_svc(tab, qtbot)
    click(qtbot, editor.tuning.check)
    assert editor.editors["C"].values() == [0.1, 1, 10]     # the fields show the tuned lists
    type_into(qtbot, editor.editors["C"], "0.5, 5")
    entry = tab.state.model_entries[0]
    assert entry["tune"]["grid"] == {"kernel": ["linear", "rbf"], "C": [0.5, 5]}
    assert "grid" not in entry and editor.tuning.check.isChecked()
    type_into(qtbot, editor.editors["C"], "2")
    type_into(qtbot, editor.editors["kernel"], "rbf")
    entry = tab.state.model_entries[0]
    assert "tune" not in entry and "grid" not in entry and entry["params"]["C"] == 2
    assert not editor.tuning.check.isChecked() and not editor.tuning.check.isEnabled()


def test_a_hand_written_grid_beside_tune_keeps_its_place():
    entry = {"estimator": "SVC", "grid": {"kernel": ["linear", "rbf"]},
             "tune": {"grid": {"C": [1, 10]}, "inner_splits": 3}}
    shown = editable_entry(entry)
    assert shown["grid"] == {"kernel": ["linear", "rbf"], "C": [1, 10]} and "tune" not in shown
    shown["grid"]["C"] = [1, 10, 100]
    back = put_back(shown, entry)
    assert back["grid"] == {"kernel": ["linear", "rbf"]}
    assert back["tune"] == {"grid": {"C": [1, 10, 100]}, "inner_splits": 3}
    assert plain_entry(tuned_entry({"estimator": "SVC", "grid": GRID},
                                   {"inner_splits": 4, "scoring": None, "optimism": True})) \
        == {"estimator": "SVC", "grid": GRID}


def test_threshold_needs_two_classes(qtbot):
    state = AppState()
    widget = ModelsTab(state)
    qtbot.addWidget(widget)
    widget.add_model("GaussianNB")
    options = widget.editor.threshold
    assert not options.check.isEnabled()
    assert "Load a data set first" in options.reason.text()
    state.set_dataset(load_dataset({"builtin": "iris"}))
    assert not options.check.isEnabled()
    assert options.reason.text() == ("This data set has 3 classes: a decision threshold is for "
                                     "two classes only (positive or not).")
    assert not options.reason.isHidden()
    state.set_dataset(load_dataset({"builtin": "breast_cancer"}))
    assert options.check.isEnabled() and options.reason.isHidden()
    assert "“benign” (the positive class)" in options.explanation.text()


def test_threshold_by_a_metric(tab, qtbot):
    tab.add_model("GaussianNB")
    options = tab.editor.threshold
    assert "0.5 by default" in options.explanation.text()
    click(qtbot, options.check)
    assert tab.state.model_entries[0]["threshold"] == {"scoring": "balanced_accuracy",
                                                       "inner_splits": 5}
    assert all(field.isHidden() for field in options.costs.values())
    choose(options.choice, "f1")
    type_into(qtbot, options.inner_folds, "12")
    assert tab.state.model_entries[0]["threshold"] == {"scoring": "f1", "inner_splits": 12}
    assert "threshold chosen inside each fold (by F1; 12 inner folds)" in model_lines(tab)[0]
    click(qtbot, options.check)
    assert "threshold" not in tab.state.model_entries[0]


def test_typed_costs_become_the_engine_matrix(tab, qtbot):
    tab.add_model("GaussianNB")
    options = tab.editor.threshold
    click(qtbot, options.check)
    choose(options.choice, "cost")
    assert not any(field.isHidden() for field in options.costs.values())
    for key, value in (("fp", 2), ("fn", 10), ("tp", -1), ("tn", 0.5)):
        type_into(qtbot, options.costs[key], str(value))
    block = tab.state.model_entries[0]["threshold"]
    assert block == {"cost": [[0.5, 2], [10, -1]], "inner_splits": 5}
    labels = [0, 1]                  # the engine's reading: rows actual, columns predicted
    assert cost_score([0], [1], block["cost"], labels) == -2      # a false positive
    assert cost_score([1], [0], block["cost"], labels) == -10     # a false negative
    assert cost_score([1], [1], block["cost"], labels) == 1       # a true positive (a gain)
    assert cost_score([0], [0], block["cost"], labels) == -0.5    # a true negative
    assert not tab.error_label.isVisible()
    assert outcome_costs(cost_matrix({"fp": 1, "fn": 2, "tp": 3, "tn": 4})) == \
        {"fp": 1, "fn": 2, "tp": 3, "tn": 4}


def test_opened_blocks_are_shown(tab):
    tab.state.set_model_entries([{"estimator": "LogisticRegression", "name": "lr",
                                  "tune": {"grid": {"C": [1, 10]}, "inner_splits": 7,
                                           "scoring": "accuracy", "optimism": False},
                                  "threshold": {"cost": [[0, 1], [4, 0]], "inner_splits": 3}}])
    tab.entry_list.setCurrentRow(0)
    tuning, threshold = tab.editor.tuning, tab.editor.threshold
    assert tuning.check.isChecked() and tuning.inner_folds.value() == 7
    assert tuning.scoring.currentData() == "accuracy" and not tuning.optimism.isChecked()
    assert threshold.check.isChecked() and threshold.choice.currentData() == "cost"
    assert {k: f.value() for k, f in threshold.costs.items()} == {"fp": 1, "fn": 4, "tp": 0,
                                                                   "tn": 0}
    assert threshold.inner_folds.value() == 3
    assert tab.editor.editors["C"].values() == [1, 10]


@pytest.mark.parametrize("width", [1000, 1100, 1280, 1600])
def test_the_options_wrap_and_show_every_line(tab, qtbot, qapp, width):
    """Long metric names and explanations wrap: no sideways scrolling, and every wrapped
    text gets the height of all its lines (none is cut off at the bottom)."""
    editor = grid_svc(tab, qtbot)
    click(qtbot, editor.tuning.check)
    click(qtbot, editor.threshold.check)
    tab.state.set_dataset(load_dataset({"builtin": "iris"}))     # the reason line shows too
    tab.resize(width, 700)
    qapp.processEvents()
    assert tab.scroll.horizontalScrollBar().maximum() == 0
    assert not editor.threshold.reason.isHidden()
    wrapped = [label for label in editor.findChildren(QLabel)
               if label.wordWrap() and label.isVisible()]
    assert len(wrapped) >= 4
    assert [label.text()[:20] for label in wrapped
            if label.height() < label.heightForWidth(label.width())] == []


def test_help_buttons_open_the_guide_at_tuning_and_threshold(tab, qtbot, monkeypatch):
    from PySide6.QtWidgets import QToolButton

    opened = []
    monkeypatch.setattr("gui.help.show_help", lambda topic, parent=None: opened.append(topic))
    grid_svc(tab, qtbot)
    for topic in ("models#tuning", "models#threshold"):
        tab.editor.findChild(QToolButton, f"help_{topic}").click()
    assert opened == ["models#tuning", "models#threshold"]


def test_a_tuned_list_of_parameter_sets_from_the_example(tab, qtbot):
    """The nested example's tuned kernels (a list of parameter sets): the fields of the
    sets are locked, other fields edit the model, unticking gives the four models back."""
    import json
    import os

    path = os.path.join(os.path.dirname(__file__), "..", "..", "resources", "examples",
                        "svc_kernels_nested_moons.json")
    with open(path, encoding="utf-8") as handle:
        tuned = json.load(handle)["models"][1]
    tab.state.set_model_entries([tuned])
    tab.entry_list.setCurrentRow(0)
    editor = tab.editor
    assert editor.tuning.check.isChecked() and not editor.editors["kernel"].isEnabled()
    assert tab.entry_list.item(0).text() == "svc_tuned  (tuned over 4 settings)"
    type_into(qtbot, editor.editors["C"], "2")
    entry = tab.state.model_entries[0]
    assert entry["tune"] == tuned["tune"] and entry["params"] == {"random_state": 0, "C": 2}
    click(qtbot, editor.tuning.check)
    entry = tab.state.model_entries[0]
    assert "tune" not in entry and entry["grid"] == tuned["tune"]["grid"]
    assert expanded(tab) == ["svc_tuned_linear", "svc_tuned_2_poly", "svc_tuned_3_poly",
                             "svc_tuned_rbf"]
