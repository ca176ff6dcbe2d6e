"""The Cross-validation tab's "Fold assignment": choosing Weka 3 reaches the experiment,
the saved file and back (offscreen, the real widgets)."""
import json
import os

import numpy as np
import pytest

from engine.evaluation.cv import make_splits  # noqa: E402
from engine.input.data import load_builtin  # noqa: E402
from engine.evaluation.weka_folds import weka_splits  # noqa: E402
from gui.state import AppState  # noqa: E402
from gui.tabs.cv_tab import CVTab  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")


@pytest.fixture
def tab(qtbot):
    widget = CVTab(AppState())
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.shutdown()


def test_choosing_weka_makes_a_weka_experiment(tab):
    state = tab.state
    assert tab.scheme_combo.currentData() == "sklearn" and state.cv.scheme == "sklearn"
    state.set_dataset(load_builtin("iris"))
    state.set_model_entries([{"estimator": "GaussianNB"}])
    tab.folds_box.setValue(3)
    tab.seed_box.setValue(1)
    tab.scheme_combo.setCurrentIndex(tab.scheme_combo.findText("Weka 3"))
    experiment = state.to_experiment()
    assert experiment.cv.scheme == "weka" and experiment.to_json()["cv"]["scheme"] == "weka"
    assert (experiment.cv.n_splits, experiment.cv.random_state) == (3, 1)
    # the folds such an experiment runs on are Weka's, seeded 1, 2, ...
    ours = make_splits(state.dataset.y, experiment.cv)
    weka = weka_splits(state.dataset.y, 3, experiment.cv.n_repeats, 1)
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(ours, weka))
    # other settings keep the choice; going back gives scikit-learn's folds
    tab.repeats_box.setValue(2)
    assert state.cv.scheme == "weka"
    tab.scheme_combo.setCurrentIndex(tab.scheme_combo.findData("sklearn"))
    assert state.to_experiment().cv.scheme == "sklearn"
    assert tab.scheme_combo.toolTip()


@pytest.fixture(autouse=True)
def discard_unsaved_changes(monkeypatch):
    """The main window (the conftest's ``window``) discards unsaved changes without asking."""
    monkeypatch.setattr("gui.saving.ask_choice", lambda *args: "discard")


def _open(window, qtbot, path):
    with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                           timeout=20000):
        window.open_experiment(path)


def test_saving_and_opening_keeps_the_fold_assignment(window, qtbot, tmp_path):
    _open(window, qtbot, SEED)
    combo = window.cv_tab.scheme_combo
    assert combo.currentData() == "sklearn"
    combo.setCurrentIndex(combo.findData("weka"))
    saved = tmp_path / "weka.json"
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        window.save_experiment(str(saved))
    assert json.loads(saved.read_text(encoding="utf-8"))["cv"]["scheme"] == "weka"
    combo.setCurrentIndex(combo.findData("sklearn"))
    _open(window, qtbot, str(saved))
    assert combo.currentData() == "weka" and window.state.cv.scheme == "weka"
    assert combo.currentText() == "Weka 3"
