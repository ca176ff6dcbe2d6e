"""The Models tab, driven offscreen: add, edit, grids, presets, rename, duplicate, remove;
the options for imbalanced classes (balance check, resampling) with the Dataset tab's warning,
the saved file and a run."""
import json

import numpy as np
import pytest
from sklearn.metrics import recall_score


from PySide6.QtCore import Qt  # noqa: E402

from gui.state import AppState  # noqa: E402
from gui.tabs.imbalance_options import RESAMPLE_CHOICES  # noqa: E402
from gui.tabs.models_tab import ModelsTab, parse_field, set_param  # noqa: E402
from tests.gui.waiting import run_succeeds
from tests.peers import peer
from tests.gui.helpers import expanded, type_into, write_skewed_csv


@pytest.fixture
def tab(qtbot):
    widget = ModelsTab(AppState())
    widget.resize(1280, 760)
    qtbot.addWidget(widget)
    widget.show()
    return widget


def test_empty_tab_shows_a_hint(tab):
    assert "Add" in tab.scroll.widget().text()
    assert tab.error_label.isVisible() and "add at least one" in tab.error_label.text()


def test_add_model_and_edit_a_number(tab, qtbot):
    tab.add_model("LogisticRegression")
    assert tab.state.model_entries == [{"name": "LogisticRegression", "scale": True,
                                        "estimator": "LogisticRegression", "params": {}}]
    assert expanded(tab) == ["LogisticRegression"]
    type_into(qtbot, tab.editor.editors["C"], "0.5")
    assert tab.state.model_entries[0]["params"] == {"C": 0.5}


def test_comma_separated_values_make_a_grid(tab, qtbot):
    tab.add_model("SVC")
    type_into(qtbot, tab.editor.editors["kernel"], "linear, rbf")
    type_into(qtbot, tab.editor.editors["C"], "0.1, 1, 10")
    entry = tab.state.model_entries[0]
    assert entry["grid"] == {"kernel": ["linear", "rbf"], "C": [0.1, 1, 10]}
    names = expanded(tab)
    assert len(names) == 6 and "SVC_0.1_linear" in names and "SVC_10_rbf" in names
    assert tab.expansion_title.text().endswith("6</b>")
    assert tab.entry_list.item(0).text() == "SVC  (6 models)"


def test_bad_value_is_shown_in_red_not_raised(tab, qtbot):
    tab.add_model("SVC")
    type_into(qtbot, tab.editor.editors["kernel"], "wobbly")
    assert tab.error_label.isVisible()
    assert "kernel" in tab.error_label.text()
    assert tab.expanded_list.count() == 0
    type_into(qtbot, tab.editor.editors["kernel"], "linear")
    assert not tab.error_label.isVisible() and expanded(tab) == ["SVC"]


def test_checkbox_scale_and_bool_parameters(tab):
    tab.add_model("SVC")
    assert tab.editor.scale_check.isChecked()                  # SVC is scale-sensitive
    tab.editor.scale_check.setChecked(False)
    assert "scale" not in tab.state.model_entries[0]
    tab.editor.scale_check.setChecked(True)
    tab.editor.editors["shrinking"].setChecked(False)
    entry = tab.state.model_entries[0]
    assert entry["scale"] is True and entry["params"] == {"shrinking": False}
    assert "scaled" in tab.expanded_list.item(0).text()


def test_duplicate_rename_remove(tab, monkeypatch):
    tab.add_model("GaussianNB")
    tab.duplicate_selected()
    assert [e["name"] for e in tab.state.model_entries] == ["GaussianNB", "GaussianNB_copy"]
    monkeypatch.setattr("gui.tabs.models_tab.QInputDialog.getText",
                        lambda *args, **kwargs: ("smooth_nb", True))
    tab.ask_rename()
    assert [e["name"] for e in tab.state.model_entries] == ["GaussianNB", "smooth_nb"]
    tab.rename_selected("GaussianNB")                      # a clash is explained, not raised
    assert "two models are named" in tab.error_label.text()
    tab.remove_selected()
    assert expanded(tab) == ["GaussianNB"]


def test_seed_preset_expands_like_the_scikit_learn_example(tab, qtbot):
    tab.apply_preset("SVC kernels (scikit-learn example)")
    assert expanded(tab) == ["linear", "2_poly", "3_poly", "rbf"]
    kernel = tab.editor.editors["kernel"]
    assert not kernel.isEnabled() and kernel.currentText() == "linear, poly, rbf"
    type_into(qtbot, tab.editor.editors["C"], "2")                # outside the grid: still editable
    assert tab.state.model_entries[0]["params"] == {"random_state": 0, "C": 2}
    assert len(expanded(tab)) == 4


def test_spin_box_steps_a_single_value(tab):
    tab.add_model("KNeighborsClassifier")
    box = tab.editor.editors["n_neighbors"]
    box.stepBy(2)
    assert tab.state.model_entries[0]["params"] == {"n_neighbors": 7}


def test_parsing_helpers():
    assert parse_field("0.1, 1, none, true, rbf") == [0.1, 1, None, True, "rbf"]
    entry = set_param({"estimator": "SVC", "params": {"C": 2}}, "C", [1.0], 1.0)
    assert entry == {"estimator": "SVC", "params": {}}


def test_scale_sensitive_models_are_added_scaled(tab):
    tab.add_model("KNeighborsClassifier")
    tab.add_model("RandomForestClassifier")
    knn, forest = tab.state.model_entries
    assert knn["scale"] is True and "scale" not in forest
    assert tab.editor.scale_check.isChecked() is False          # the forest is selected
    assert "same results whatever the units" in tab.editor.scale_check.toolTip()
    tab.entry_list.setCurrentRow(0)
    assert tab.editor.scale_check.isChecked()
    assert "depends on the units" in tab.editor.scale_check.toolTip()
    tip = tab.editor.editors["n_neighbors"].toolTip()
    assert tip.startswith("<qt>") and "Number of neighbors" in tip


def test_each_model_is_described_in_words(tab, qtbot):
    tab.add_model("KNeighborsClassifier")
    assert tab.expanded_list.item(0).text() == ("KNeighborsClassifier:  features scaled; "
                                                "default settings")
    type_into(qtbot, tab.editor.editors["n_neighbors"], "7")
    assert tab.expanded_list.item(0).text().endswith("features scaled; n_neighbors = 7")
    tab.rename_selected("knn")
    assert tab.expanded_list.item(0).text() == ("knn:  KNeighborsClassifier; features scaled; "
                                                "n_neighbors = 7")


# ---------------------------------------------------------------------- imbalanced classes
def test_balance_check_only_for_estimators_with_class_weight(tab, qtbot):
    tab.add_model("GaussianNB")
    assert tab.editor.imbalance.balance_check is None
    tab.add_model("RandomForestClassifier")
    check = tab.editor.imbalance.balance_check
    assert check is not None and not check.isChecked()
    qtbot.mouseClick(check, Qt.LeftButton)
    assert tab.state.model_entries[1]["params"]["class_weight"] == "balanced"
    assert tab.editor.editors["class_weight"].text() == "balanced"
    assert "class_weight = balanced" in tab.expanded_list.item(1).text()
    qtbot.mouseClick(check, Qt.LeftButton)
    assert "class_weight" not in tab.state.model_entries[1]["params"]
    # typing the parameter ticks the check
    line = tab.editor.editors["class_weight"]
    line.selectAll()
    qtbot.keyClicks(line, "balanced")
    qtbot.keyClick(line, Qt.Key_Return)
    assert check.isChecked()


def test_resample_choice_sets_the_key_and_back(tab, qtbot):
    peer("imblearn")
    tab.add_model("KNeighborsClassifier")
    box = tab.editor.imbalance.resample_box
    assert box.currentData() is None and box.isEnabled()
    choose_resample(qtbot, box, "smote")
    assert tab.state.model_entries[0]["resample"] == "smote"
    assert "training folds resampled (smote)" in tab.expanded_list.item(0).text()
    assert tab.state.model_specs()[0].resample == "smote"
    choose_resample(qtbot, box, None)
    assert "resample" not in tab.state.model_entries[0]


def choose_resample(qtbot, box, value):
    """Pick a resampling choice with the keyboard, as a user would."""
    target = [v for _, v, _ in RESAMPLE_CHOICES].index(value)
    box.setFocus()
    while box.currentIndex() != target:
        qtbot.keyClick(box, Qt.Key_Down if box.currentIndex() < target else Qt.Key_Up)


@pytest.mark.slow
def test_imbalance_warning_choices_saved_file_and_run(window, qtbot, tmp_path, monkeypatch):
    """The Dataset tab's warning, both controls, the saved file, and a run reporting
    balanced accuracy and per-class recall."""
    peer("imblearn")
    monkeypatch.setattr("gui.saving.ask_choice", lambda *args: "discard")
    frame = write_skewed_csv(tmp_path / "machines.csv")
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=60000):
        window.dataset_tab.open_file(str(tmp_path / "machines.csv"))
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=60000):
        window.dataset_tab.candidate_buttons[0].click()     # status, the only candidate
    notes = window.dataset_tab.notes_label.text()
    rare = int((frame["status"] == "fault").sum())
    assert "the classes are imbalanced" in notes and f"{rare} of 200 rows" in notes
    models = window.models_tab
    models.apply_preset("Quick baseline trio")          # logistic, random_forest, naive_bayes
    models.entry_list.setCurrentRow(0)
    qtbot.mouseClick(models.editor.imbalance.balance_check, Qt.LeftButton)
    models.entry_list.setCurrentRow(2)
    assert models.editor.imbalance.balance_check is None     # GaussianNB has no class_weight
    choose_resample(qtbot, models.editor.imbalance.resample_box, "over")
    path = tmp_path / "machines_experiment.json"
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        assert window.save_experiment(str(path))
    saved = json.loads(path.read_text(encoding="utf-8"))["models"]
    assert saved[0]["params"]["class_weight"] == "balanced" and "resample" not in saved[0]
    assert saved[2]["resample"] == "over"
    window.cv_tab.folds_box.setValue(3)
    window.cv_tab.repeats_box.setValue(1)
    with run_succeeds(qtbot, window.cv_tab):
        window.cv_tab.start_run()
    window.state.renderer.flush()
    result = window.state.result
    assert result.cv.metrics == ("roc_auc", "balanced_accuracy")
    shown = window.results_tab.per_class.scores.frame()
    a = window.results_tab.model_a_combo.currentText()  # noqa: F841 (read by the query)
    preds = result.cv.predictions.query("model == @a")
    expected = recall_score(preds["y"], preds["predicted"], average=None)
    np.testing.assert_allclose(shown.query("model == @a")["recall"].to_numpy(), expected)
