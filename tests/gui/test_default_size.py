"""The default run of the user's own data is sized to about two minutes on this computer
(:mod:`gui.tabs.default_size`); an experiment file keeps its folds and repeats, and folds
or repeats the user set stay as set."""
import numpy as np
import pandas as pd
import pytest

from engine.evaluation.cv import CVConfig
from engine.evaluation.experiment import load_experiment
from engine.input.data import load_builtin
from engine.input.readers import load_dataset
from engine.runs import run_size
from gui.tabs import default_size
from tests.gui.helpers import SEED


@pytest.fixture
def sizing(monkeypatch):
    """Sizing on, its timing replaced by a fixed answer (10 x 4 in 110 of 600 seconds);
    returns the experiments it was asked to size."""
    asked = []

    def sized(experiment, datasets, n_jobs, target):
        asked.append(experiment)
        cv = CVConfig(10, 4, experiment.cv.random_state)
        return run_size.SizedRun(cv, 110.0, 600.0)
    monkeypatch.setattr(default_size, "TARGET_SECONDS", 120.0)
    monkeypatch.setattr(default_size.run_size, "sized_run", sized)
    return asked


def own_data(tmp_path, name="mine.csv"):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.normal(size=60), "b": rng.normal(size=60),
                          "y": ["no", "yes"] * 30})
    frame.to_csv(tmp_path / name, index=False)
    return load_dataset({"csv": str(tmp_path / name), "target": "y"})


def test_own_data_gets_a_run_of_about_two_minutes(tab, qtbot, tmp_path, sizing):
    tab.state.set_model_entries([{"estimator": "GaussianNB", "params": {}}])
    tab.state.set_dataset(own_data(tmp_path))
    qtbot.waitUntil(lambda: tab.state.cv.n_repeats == 4, timeout=5000)
    # new data runs "auto": the sizing caps its repeats
    assert (tab.state.cv.n_splits, tab.state.cv.auto_precision) == (10, 0.02)
    assert tab.repeats_box.value() == 0
    assert tab.repeats_box.text() == "auto (stop at 2% precision, at most 4)"
    assert tab.time_label.text() == (
        "Sized to about 2 min on this computer: 10 folds × at most 4 repeats, 1 min 50 s "
        "by timed fits (10 × 10: 10 min 00 s). Raise the repeats for more.")
    assert sizing[-1].cv.n_repeats == 10                  # sized from the default 10 x 10
    assert "10 folds × 4 repeats = 40 fits" in tab.size_label.text()
    assert '"auto" may stop before 4 repeats' in tab.size_label.text()
    tab.calibrate_check.setChecked(True)                  # sized again, from 10 x 10
    qtbot.waitUntil(lambda: len(sizing) == 2, timeout=5000)
    assert sizing[-1].cv.n_repeats == 10 and sizing[-1].calibration is not None
    tab.repeats_box.setValue(7)                           # the user asks for more
    tab.state.set_dataset(own_data(tmp_path, "other.csv"))
    qtbot.wait(600)
    assert tab.state.cv.n_repeats == 7 and len(sizing) == 2      # not sized again


def test_an_experiment_file_keeps_its_folds_and_repeats(tab, qtbot, sizing):
    tab.state.apply_experiment(load_experiment(SEED), load_builtin("moons", n_samples=100))
    tab.state.experiment_path = "seed.json"
    qtbot.wait(600)
    assert (tab.state.cv.n_splits, tab.state.cv.n_repeats) == (10, 10) and not sizing
