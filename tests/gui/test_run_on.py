"""The CV tab's "Run on" choice: a run on a Dask scheduler (a LocalCluster started here)
gives the numbers of a run on this computer; a bad address is a dialog."""
import pandas as pd
import pytest

from engine.runs.analysis import run_experiment
from engine.input.data import load_builtin
from engine.foundation.progress import run_to_end
from gui.tabs.run_on import SCHEDULER, THIS_COMPUTER
from tests.gui.waiting import run_succeeds
from tests.peers import peer

distributed = peer("distributed")


def small_setup(tab):
    tab.state.set_dataset(load_builtin("breast_cancer"))
    tab.state.set_model_entries([{"name": "forest", "estimator": "RandomForestClassifier",
                                  "params": {"n_estimators": 10, "random_state": 0}},
                                 {"name": "nb", "estimator": "GaussianNB"}])
    tab.folds_box.setValue(3)
    tab.repeats_box.setValue(2)


@pytest.mark.slow
def test_a_run_on_a_dask_scheduler_gives_this_computers_numbers(tab, qtbot):
    small_setup(tab)
    assert tab.run_on.combo.currentText() == THIS_COMPUTER and not tab.run_on.address.isEnabled()
    tab.run_on.combo.setCurrentText(SCHEDULER)
    assert tab.run_on.address.isEnabled() and not tab.jobs_box.isEnabled()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        qtbot.keyClicks(tab.run_on.address, cluster.scheduler_address)
        with run_succeeds(qtbot, tab):
            tab.start_run()
        assert not tab.run_on.address.isEnabled() or not tab.running
    assert tab.run_on.address.isEnabled() and tab.progress_bar.value() == 12
    here = run_to_end(run_experiment(tab.state.to_experiment(), dataset=tab.state.dataset))
    pd.testing.assert_frame_equal(tab.state.result.cv.scores.drop(columns="fit_seconds"),
                                  here.cv.scores.drop(columns="fit_seconds"))
    pd.testing.assert_frame_equal(tab.state.result.cv.predictions, here.cv.predictions)


def test_an_unreachable_or_missing_address_is_a_dialog(tab, qtbot, warnings_shown, monkeypatch):
    import engine.evaluation.cluster

    monkeypatch.setattr(engine.evaluation.cluster, "CONNECT_SECONDS", 1.0)
    small_setup(tab)
    tab.run_on.combo.setCurrentText(SCHEDULER)
    tab.start_run()
    qtbot.waitUntil(lambda: len(warnings_shown) == 1, timeout=60000)
    assert "Give the Dask scheduler's address" in warnings_shown[0][1]
    qtbot.keyClicks(tab.run_on.address, "local:2")
    tab.start_run()
    qtbot.waitUntil(lambda: len(warnings_shown) == 2, timeout=60000)
    assert "choose \"This computer\"" in warnings_shown[1][1]
    tab.run_on.address.clear()
    qtbot.keyClicks(tab.run_on.address, "tcp://127.0.0.1:9")
    tab.start_run()
    qtbot.waitUntil(lambda: len(warnings_shown) == 3, timeout=60000)
    assert "Cannot reach the Dask scheduler at tcp://127.0.0.1:9" in warnings_shown[2][1]
    assert tab.run_button.isEnabled() and tab.state.result is None
