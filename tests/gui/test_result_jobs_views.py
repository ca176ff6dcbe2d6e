"""The Calibration and ALOOCV views start their jobs through the run service: the budget's
question and refusal as the Run gives them, coded errors as plain-text warnings, and the
numbers of the engine's direct calls on a real cross-validation of breast_cancer."""
import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from engine.evaluation.aloocv import run_aloocv
from engine.evaluation.calibration import run_calibration
from engine.evaluation.experiment import AloocvSettings, CalibrationSettings, parse_experiment
from engine.foundation.machine import format_bytes, format_seconds
from engine.foundation.progress import run_to_end
from engine.input.data import dataset_from_frame
from engine.runs import result_jobs
from engine.runs.analysis import run_experiment
from gui.jobs import Job
from gui.state import AppState
from gui.views.aloocv_view import AloocvView
from gui.views.calibration_view import CalibrationView

MODELS = [{"estimator": "GaussianNB"},
          {"estimator": "LogisticRegression", "scale": True, "params": {"max_iter": 1000}}]
CV = {"n_splits": 3, "n_repeats": 1, "random_state": 0}


@pytest.fixture(scope="module")
def cv_result():
    return run_to_end(run_experiment(parse_experiment(
        {"dataset": {"builtin": "breast_cancer"}, "models": MODELS, "cv": CV,
         "metrics": ["roc_auc"]})))


@pytest.fixture(scope="module")
def rare_result():
    """A run whose training folds keep 4 rows of a class: too few for 5 inner folds."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(120, 3)), columns=["a", "b", "c"])
    frame["target"] = np.r_[np.ones(6, int), np.zeros(114, int)]
    dataset = dataset_from_frame(frame, "target", name="rare")
    return run_to_end(run_experiment(parse_experiment(
        {"dataset": {"builtin": "breast_cancer"}, "models": MODELS[:1], "cv": CV,
         "metrics": ["accuracy"]}), dataset=dataset))


@pytest.fixture
def state(qapp):
    app_state = AppState()
    app_state.set_model_entries(MODELS)
    yield app_state
    app_state.deleteLater()


class Questions(list):
    answer = None


@pytest.fixture
def calibration_view(qtbot, state):
    widget = CalibrationView(state)
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.wait_for_job()


@pytest.fixture
def aloocv_view(qtbot, state):
    widget = AloocvView(state)
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.wait_for_job()


@pytest.mark.slow
def test_a_large_calibration_asks_first_then_gives_the_engine_numbers(
        qtbot, calibration_view, state, cv_result, monkeypatch):
    questions = Questions()
    monkeypatch.setattr("gui.jobs_budget.ask", lambda parent, title, text, *_:
                        questions.append((title, text)) or questions.answer)
    monkeypatch.setattr(result_jobs, "ASK_FITS", 20)           # isotonic alone: 30 fits
    estimated = fixed_estimate(monkeypatch, "calibration_view", 42.0)
    state.set_result(cv_result)
    calibration_view.bar.sigmoid.setChecked(False)
    questions.answer = QMessageBox.No
    qtbot.mouseClick(calibration_view.bar.run_button, Qt.LeftButton)
    assert calibration_view.running                             # checked on a worker thread
    qtbot.waitUntil(lambda: bool(questions) and not calibration_view.running, timeout=30000)
    assert questions == [("Start a large calibration?",
                          "This calibration makes 30 fits (2 models x 1 method x 3 folds, "
                          "with inner 5-fold splits), more than the 20 that start without "
                          f"asking; it would take {format_seconds(42.0, about=True)} with one "
                          "worker.\n\nStart it anyway? (Cancel stops it at any time; "
                          "fewer models or methods make it shorter.)")]
    assert estimated[0].plan.budget == (0, 30, 0)               # the checked job, timed
    assert not calibration_view.running and state.result.calibration is None
    questions.answer = QMessageBox.Yes
    with qtbot.waitSignal(state.result_changed, timeout=60000):
        qtbot.mouseClick(calibration_view.bar.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: not calibration_view.running, timeout=60000)
    assert len(questions) == 2
    engine = run_to_end(run_calibration(cv_result.dataset, cv_result.cv,
                                        list(cv_result.experiment.models),
                                        CalibrationSettings(methods=("isotonic",))))
    for name in ("scores", "map", "curve", "fold_scores"):
        pd.testing.assert_frame_equal(getattr(state.result.calibration, name),
                                      getattr(engine, name))


def test_a_refused_calibration_is_a_warning_and_starts_nothing(
        qtbot, calibration_view, state, cv_result, monkeypatch, warnings_shown):
    monkeypatch.setattr(result_jobs, "available_memory", lambda: 1_000)
    state.set_result(cv_result)
    qtbot.mouseClick(calibration_view.bar.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(warnings_shown) and not calibration_view.running, timeout=30000)
    assert state.result.calibration is None
    assert calibration_view.bar.run_button.isVisible()          # ready again
    [(title, text)] = warnings_shown
    assert title == "Cannot run the calibration"
    assert text == (f"This job needs about {format_bytes(569 * 2 * 8 * 8 * 2 * 3 + 569 * 30 * 8 * 2)} of memory "
                    f"but {format_bytes(1_000)} is available: choose one calibration method, "
                    "or calibrate fewer models")


def test_too_few_rows_for_the_inner_folds_is_a_coded_warning(
        qtbot, calibration_view, state, rare_result, warnings_shown):
    state.set_model_entries(MODELS[:1])
    state.set_result(rare_result)
    qtbot.mouseClick(calibration_view.bar.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(warnings_shown) and not calibration_view.running, timeout=30000)
    assert state.result.calibration is None
    [(title, text)] = warnings_shown
    assert title == "Cannot run the calibration"
    assert text.startswith("A training fold has only 4 row(s) of its smallest class")
    assert text.endswith("Change the folds on the Cross-validation tab and run it again, "
                         "then calibrate.")


def test_a_large_aloocv_asks_first_then_gives_the_engine_numbers(
        qtbot, aloocv_view, state, cv_result, monkeypatch):
    questions = Questions()
    monkeypatch.setattr("gui.jobs_budget.ask", lambda parent, title, text, *_:
                        questions.append((title, text)) or questions.answer)
    monkeypatch.setattr(result_jobs, "ASK_FITS", 10)
    fixed_estimate(monkeypatch, "aloocv_view", 7200.0)
    state.set_dataset(cv_result.dataset)
    state.set_result(cv_result)
    aloocv_view.bar.points.setValue(12)
    questions.answer = QMessageBox.No
    qtbot.mouseClick(aloocv_view.bar.compute_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: not aloocv_view.running, timeout=30000)   # timed off the window
    assert aloocv_view.aloocv is None
    assert questions[0][0] == "Start a large ALOOCV?"
    assert questions[0][1].startswith("This ALOOCV makes 12 fits (1 model x 12 values of C)")
    assert (f"; it would take {format_seconds(7200.0, about=True)} with one worker."
            in questions[0][1])
    assert aloocv_view.status.text() == "Not started."
    questions.answer = QMessageBox.Yes
    qtbot.mouseClick(aloocv_view.bar.compute_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: not aloocv_view.running, timeout=60000)
    settings = aloocv_view.bar.settings(False)
    spec = [s for s in cv_result.experiment.models if s.name == "LogisticRegression"]
    engine = run_to_end(run_aloocv(cv_result.dataset, spec, settings))
    pd.testing.assert_frame_equal(aloocv_view.aloocv.curve, engine.curve)
    pd.testing.assert_frame_equal(aloocv_view.aloocv.optimum, engine.optimum)
    assert settings.n_C == 12 and isinstance(settings, AloocvSettings)


def test_an_aloocv_that_fails_in_its_process_is_a_warning(
        qtbot, aloocv_view, state, cv_result, monkeypatch, warnings_shown):
    state.set_dataset(cv_result.dataset)
    state.set_result(cv_result)
    aloocv_view.bar.points.setValue(5)
    monkeypatch.setattr("gui.views.aloocv_view.Job.in_process",
                        classmethod(lambda cls, function, args, **options: cls(
                            lambda: _failing(), name="aloocv")))
    qtbot.mouseClick(aloocv_view.bar.compute_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: not aloocv_view.running, timeout=60000)
    [(title, text)] = warnings_shown
    assert title == "Could not compute the ALO curve"
    assert text == ("ALO applies to none of the models: it needs a LogisticRegression with "
                    "the ridge (L2) penalty\n\nAdd a LogisticRegression model on the "
                    "Models tab.")
    assert aloocv_view.aloocv is None


def fixed_estimate(monkeypatch, view: str, seconds: float) -> list:
    """The view's time estimate as a thread job giving ``seconds`` (the real one starts a
    child process and times real fits); returns the checked jobs it was asked for."""
    asked = []
    monkeypatch.setattr(f"gui.views.{view}.estimate_job", lambda checked: asked.append(
        checked) or Job(lambda: seconds, name="job-estimate"))
    return asked


def _failing():
    """A job that fails with a coded error before its first record."""
    from engine.foundation.errors import EngineError

    raise EngineError("aloocv_no_model", {"models": [], "reasons": []},
                      "ALO applies to none of the models: it needs a LogisticRegression "
                      "with the ridge (L2) penalty")
    yield  # pragma: no cover - a generator

