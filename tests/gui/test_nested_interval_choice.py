"""The Cross-validation tab's "Interval": choosing nested CV reaches the experiment and
other settings keep it and its repeats (offscreen, the real widgets)."""
from dataclasses import replace

import pytest

from engine.input.data import load_builtin
from engine.runs.run_plan import plan_run
from gui.state import AppState
from gui.tabs.cv_tab import CVTab


@pytest.fixture
def tab(qtbot):
    widget = CVTab(AppState())
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.shutdown()


def test_choosing_nested_makes_a_nested_experiment(tab):
    state = tab.state
    assert tab.interval_combo.currentData() == "corrected_t"
    assert state.cv.interval == "corrected_t"
    state.set_dataset(load_builtin("iris"))
    state.set_model_entries([{"estimator": "GaussianNB"}])
    tab.folds_box.setValue(3)
    tab.interval_combo.setCurrentIndex(tab.interval_combo.findData("nested"))
    experiment = state.to_experiment()
    assert experiment.cv.interval == "nested"
    assert experiment.to_json()["cv"]["interval"] == "nested"
    assert plan_run(experiment).nested_fits == 1 * 10 * 3 * 3
    # a file's nested_repeats survives other settings; going back drops the interval
    state.set_cv(replace(state.cv, nested_repeats=4), tuple(state.metrics), state.n_jobs)
    tab.repeats_box.setValue(2)
    assert (state.cv.interval, state.cv.nested_repeats, state.cv.n_repeats) == ("nested", 4, 2)
    tab.interval_combo.setCurrentIndex(tab.interval_combo.findData("corrected_t"))
    assert "interval" not in state.to_experiment().to_json()["cv"]
    assert tab.interval_combo.toolTip()
