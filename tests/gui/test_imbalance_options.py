"""Imbalanced classes in the app, driven offscreen: the Dataset tab's warning, the Models
tab's "Balance classes" check and "Resample training folds" choice, the saved file, and a
run that reports balanced accuracy and per-class recall."""
import json

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import Qt
from sklearn.datasets import make_classification
from sklearn.metrics import recall_score

from gui.state import AppState
from gui.tabs.imbalance_options import RESAMPLE_CHOICES
from gui.tabs.models_tab import ModelsTab

pytest.importorskip("imblearn")


@pytest.fixture
def tab(qtbot):
    widget = ModelsTab(AppState())
    widget.resize(1280, 760)
    qtbot.addWidget(widget)
    widget.show()
    return widget


def write_skewed_csv(path):
    X, y = make_classification(200, n_features=4, n_informative=2, weights=[0.9],
                               random_state=2)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    frame["status"] = np.where(y == 1, "fault", "ok")
    frame.to_csv(path, index=False)
    return frame


def choose_resample(qtbot, box, value):
    """Pick a resampling choice with the keyboard, as a user would."""
    target = [v for _, v, _ in RESAMPLE_CHOICES].index(value)
    box.setFocus()
    while box.currentIndex() != target:
        qtbot.keyClick(box, Qt.Key_Down if box.currentIndex() < target else Qt.Key_Up)


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
    tab.add_model("KNeighborsClassifier")
    box = tab.editor.imbalance.resample_box
    assert box.currentData() is None and box.isEnabled()
    choose_resample(qtbot, box, "smote")
    assert tab.state.model_entries[0]["resample"] == "smote"
    assert "training folds resampled (smote)" in tab.expanded_list.item(0).text()
    assert tab.state.model_specs()[0].resample == "smote"
    choose_resample(qtbot, box, None)
    assert "resample" not in tab.state.model_entries[0]


def test_warning_choices_saved_file_and_run(window, qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr("gui.saving.ask_choice", lambda *args: "discard")
    frame = write_skewed_csv(tmp_path / "machines.csv")
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=10000):
        window.dataset_tab.open_csv(str(tmp_path / "machines.csv"))
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
    with qtbot.waitSignal(window.experiment_saved, timeout=10000):
        assert window.save_experiment(str(path))
    saved = json.loads(path.read_text(encoding="utf-8"))["models"]
    assert saved[0]["params"]["class_weight"] == "balanced" and "resample" not in saved[0]
    assert saved[2]["resample"] == "over"
    window.cv_tab.folds_box.setValue(3)
    window.cv_tab.repeats_box.setValue(1)
    with qtbot.waitSignal(window.cv_tab.run_succeeded, timeout=60000):
        window.cv_tab.start_run()
    window.state.renderer.flush()
    result = window.state.result
    assert result.cv.metrics == ("roc_auc", "balanced_accuracy")
    shown = window.results_tab.per_class.scores.frame()
    a = window.results_tab.model_a_combo.currentText()
    preds = result.cv.predictions.query("model == @a")
    expected = recall_score(preds["y"], preds["predicted"], average=None)
    np.testing.assert_allclose(shown.query("model == @a")["recall"].to_numpy(), expected)
