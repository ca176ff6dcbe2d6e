"""The Cross-validation tab's "Interval": choosing nested CV reaches the experiment and
other settings keep it and its repeats (offscreen, the real widgets)."""
from dataclasses import replace

import pytest

from engine.input.data import load_builtin
from engine.runs.run_plan import plan_run
from tests.gui.waiting import run_succeeds


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
    assert ("; then 90 nested-CV fits for the intervals — 120 fits in all"
            in tab.size_label.text())
    # a file's nested_repeats survives other settings; going back drops the interval
    state.set_cv(replace(state.cv, nested_repeats=4), tuple(state.metrics), state.n_jobs)
    tab.repeats_box.setValue(2)
    assert (state.cv.interval, state.cv.nested_repeats, state.cv.n_repeats) == ("nested", 4, 2)
    tab.interval_combo.setCurrentIndex(tab.interval_combo.findData("corrected_t"))
    assert "interval" not in state.to_experiment().to_json()["cv"]
    assert tab.interval_combo.toolTip()


@pytest.mark.slow
def test_a_nested_run_from_the_tab_gives_the_intervals(tab, qtbot):
    tab.state.set_dataset(load_builtin("iris"))
    tab.state.set_model_entries([{"name": "nb", "estimator": "GaussianNB"}])
    tab.folds_box.setValue(3)
    tab.repeats_box.setValue(1)
    tab.primary_combo.setCurrentIndex(tab.primary_combo.findData("accuracy"))
    tab.interval_combo.setCurrentIndex(tab.interval_combo.findData("nested"))
    assert "90 nested-CV fits" in plan_run(tab.state.to_experiment()).text()
    with run_succeeds(qtbot, tab):
        tab.start_run()
    table = tab.state.result.tables()["nested_intervals.csv"]
    assert list(table["model"]) == ["nb"] and list(table["n_repeats"]) == [10]
    assert 0.9 < table["bias_corrected"][0] <= 1 and table["ci_low"][0] < table["ci_high"][0]
