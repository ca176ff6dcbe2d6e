"""Issue #40: a calibration kept in the run's result store shows again when the run is
re-opened from Earlier runs (no fit), and the Calibration view's rerun with the same
settings plans no fit and asks nothing."""
import pandas as pd
import pytest
from PySide6.QtCore import Qt

from engine import run_service
from engine.evaluation.experiment import CalibrationSettings, parse_experiment
from engine.foundation.progress import run_to_end
from engine.runs import result_jobs
from engine.runs.analysis import run_experiment
from gui.jobs_budget import budget_allows
from gui.state import AppState
from gui.views.calibration_view import CalibrationView
from gui.views.runs_view import RunsView

MODELS = [{"estimator": "GaussianNB"},
          {"estimator": "LogisticRegression", "scale": True, "params": {"max_iter": 1000}}]
SETTINGS = CalibrationSettings(methods=("sigmoid",), map_buckets=50)


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    """A stored run of breast_cancer and the calibration kept beside it, as the view's job
    keeps it."""
    path = str(tmp_path_factory.mktemp("kept") / "store.sqlite")
    run = run_to_end(run_experiment(parse_experiment(
        {"dataset": {"builtin": "breast_cancer"}, "models": MODELS,
         "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
         "metrics": ["roc_auc"]}), store=path))
    checked = run_service.check_calibration(run.dataset, run.cv, run.experiment.models,
                                            SETTINGS, store=path)
    return path, run_to_end(run_service.run_job(checked))


@pytest.fixture
def views(qtbot, qapp, kept):
    state = AppState()
    state.set_model_entries(MODELS)
    state.result_store = lambda: kept[0]
    runs = RunsView(state, lambda: kept[0])
    calibration = CalibrationView(state)
    for widget in (runs, calibration):
        qtbot.addWidget(widget)
        widget.show()
    yield state, runs, calibration
    calibration.wait_for_job()
    runs.shutdown()
    state.deleteLater()


def test_reopening_the_run_shows_its_kept_calibration(qtbot, views, kept):
    state, runs, view = views
    assert view.stack.currentWidget() is view.hint
    runs.refresh()
    qtbot.waitUntil(lambda: len(runs.table.frame()) == 1, timeout=30000)
    runs.select_run(1)
    with qtbot.waitSignal(runs.opened, timeout=60000):
        runs.open_button.click()
    assert state.result.experiment.calibration == SETTINGS
    assert view.stack.currentWidget() is view.content             # no "Run calibration"
    pd.testing.assert_frame_equal(view.scores_panel.frame(), kept[1].scores,
                                  check_exact=True)
    assert view.bar.settings().map_buckets == 50                   # the kept settings


@pytest.mark.slow                  # the job's child process starts (about 5 s)
def test_the_same_calibration_again_fits_nothing_and_asks_nothing(
        qtbot, views, kept, monkeypatch):
    state, runs, view = views
    runs.refresh()
    qtbot.waitUntil(lambda: len(runs.table.frame()) == 1, timeout=30000)
    runs.select_run(1)
    with qtbot.waitSignal(runs.opened, timeout=60000):
        runs.open_button.click()
    monkeypatch.setattr(result_jobs, "ASK_FITS", 0)                 # any fit would ask
    monkeypatch.setattr("gui.jobs_budget.ask", lambda *args: pytest.fail("asked"))
    answered = []
    monkeypatch.setattr("gui.views.calibration_view.budget_allows",
                        lambda parent, assessment, *args: answered.append(assessment)
                        or budget_allows(parent, assessment, *args))
    before = state.result
    with qtbot.waitSignal(state.result_changed, timeout=60000):
        qtbot.mouseClick(view.bar.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: not view.running, timeout=60000)
    [assessment] = answered
    assert assessment.plan.budget == (0, 0, 0) and assessment.n_fits == 0
    assert state.result is not before
    pd.testing.assert_frame_equal(state.result.calibration.map, kept[1].map,
                                  check_exact=True)
