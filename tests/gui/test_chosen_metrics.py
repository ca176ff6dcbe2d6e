"""Balanced accuracy joins the default metric on imbalanced data, and only the default: a
metric named in an experiment file, or chosen on the Cross-validation tab, stays alone (the
window then runs what the headless runner runs for the same file)."""
import json

import pytest

from PySide6.QtCore import Qt

from tests.gui.helpers import open_seed, write_skewed_csv

pytestmark = pytest.mark.usefixtures("answers")     # questions before closing answered



def skewed_experiment(tmp_path, metrics):
    write_skewed_csv(tmp_path / "machines.csv")
    experiment = {"dataset": {"csv": "machines.csv", "target": "status"},
                  "models": [{"name": "nb", "estimator": "GaussianNB"}],
                  "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0}}
    if metrics:
        experiment["metrics"] = metrics
    path = tmp_path / "skewed.json"
    path.write_text(json.dumps(experiment), encoding="utf-8")
    return str(path)


def test_a_metric_named_in_the_file_stays_alone(window, qtbot, tmp_path, answers):
    open_seed(window, qtbot, skewed_experiment(tmp_path, ["roc_auc"]))
    assert window.state.metrics == ("roc_auc",)
    assert window.cv_tab.metrics() == ["roc_auc"]


def test_the_default_metric_gets_balanced_accuracy(window, qtbot, tmp_path, answers):
    open_seed(window, qtbot, skewed_experiment(tmp_path, None))
    assert window.state.metrics == ("roc_auc", "balanced_accuracy")


def test_metrics_chosen_on_the_tab_survive_new_data(window, qtbot, tmp_path, answers):
    open_seed(window, qtbot)                               # the seed: balanced moons
    tab = window.cv_tab
    item = next(tab.extra_list.item(i) for i in range(tab.extra_list.count())
                if tab.extra_list.item(i).data(Qt.UserRole) == "accuracy")
    item.setCheckState(Qt.Checked)                         # as a click on its box does
    assert window.state.metrics == ("roc_auc", "accuracy")
    item.setCheckState(Qt.Unchecked)                       # ROC AUC alone, on purpose
    assert window.state.metrics == ("roc_auc",)
    write_skewed_csv(tmp_path / "machines.csv")
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=60000):
        window.dataset_tab.open_file(str(tmp_path / "machines.csv"))
    assert window.state.metrics == ("roc_auc",)
