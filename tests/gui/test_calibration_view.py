"""The Calibration view driven offscreen on a real cross-validation of breast_cancer.

The numbers on screen and in the exported files are compared with the engine's own
``run_calibration`` on the same run and settings.
"""
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import Qt

from engine.runs.analysis import run_experiment
from engine.evaluation.calibration import run_calibration
from engine.evaluation.experiment import CalibrationSettings, parse_experiment
from engine.foundation.progress import run_to_end
from gui.state import AppState
from gui.views.calibration_view import ALL_MODELS, CalibrationView

MODELS = [{"estimator": "GaussianNB"},
          {"estimator": "LogisticRegression", "scale": True, "params": {"max_iter": 1000}}]


def experiment(builtin="breast_cancer", models=MODELS, metrics=("roc_auc",)):
    return parse_experiment({"dataset": {"builtin": builtin}, "models": models,
                             "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
                             "metrics": list(metrics)})


@pytest.fixture(scope="module")
def cv_result():
    return run_to_end(run_experiment(experiment()))


@pytest.fixture(scope="module")
def engine_calibration(cv_result):
    return run_to_end(run_calibration(cv_result.dataset, cv_result.cv,
                                      list(cv_result.experiment.models), CalibrationSettings()))


@pytest.fixture
def state(qapp):
    app_state = AppState()
    app_state.set_model_entries(MODELS)
    yield app_state
    app_state.deleteLater()


@pytest.fixture
def view(qtbot, state):
    widget = CalibrationView(state)
    qtbot.addWidget(widget)
    widget.resize(1280, 700)
    widget.show()
    yield widget
    widget.wait_for_job()
    for panel in (widget.map_panel, widget.curve_panel, widget.scores_panel):
        panel.wait_for_export()


def press_run(qtbot, view, state):
    """Click "Run calibration" and wait until the result carries the calibration."""
    with qtbot.waitSignal(state.result_changed, timeout=60000):
        qtbot.mouseClick(view.bar.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: not view.running, timeout=60000)


def cancelled(message: str) -> bool:
    """The view's status message when its calibration job was cancelled."""
    return message == "Calibration cancelled"


def engine_points(calibration, model, method):
    rows = calibration.curve[(calibration.curve.model == model)
                             & (calibration.curve.method == method)]
    return rows.mean_predicted.to_numpy(), rows.fraction_positive.to_numpy()


# ---------------------------------------------------------------------- pages
def test_without_a_result_the_view_says_what_to_do(qtbot, view, state, cv_result):
    assert view.stack.currentWidget() is view.hint
    assert "Run a cross-validation first" in view.hint.text()
    assert not view.bar.isVisible()
    state.set_result(cv_result)
    assert view.stack.currentWidget() is view.intro
    assert view.bar.isVisible() and view.bar.run_button.isEnabled()


# ---------------------------------------------------------------------- running
@pytest.mark.slow
def test_run_calibration_shows_the_engine_numbers(qtbot, view, state, cv_result,
                                                  engine_calibration):
    state.set_result(cv_result)
    press_run(qtbot, view, state)
    calibration = state.result.calibration
    assert calibration is not None
    assert state.result.cv is cv_result.cv
    assert state.calibration is None      # this result only: the next CV run does not calibrate
    assert state.result.experiment.calibration == CalibrationSettings()
    assert view.stack.currentWidget() is view.content
    pd.testing.assert_frame_equal(view.scores_panel.frame(), engine_calibration.scores)
    pd.testing.assert_frame_equal(calibration.map, engine_calibration.map)
    # the table shows the engine's numbers (rounded for display only)
    model = view.scores_panel.model
    brier = list(engine_calibration.scores.columns).index("brier")
    assert model.data(model.index(1, brier)) == f"{engine_calibration.scores.brier[1]:.4f}"
    # the first model is on screen: its diagram before and after each method
    assert view.model_combo.currentText() == "GaussianNB"
    drawn = view.reliability.drawn_series()
    assert set(drawn) == {("GaussianNB", m) for m in ("uncalibrated", "isotonic", "sigmoid")}
    for method in ("uncalibrated", "isotonic"):
        np.testing.assert_allclose(drawn[("GaussianNB", method)],
                                   engine_points(engine_calibration, "GaussianNB", method))
    # every point carries the table's Jeffreys interval as an error bar
    bands = view.reliability.drawn_bands()
    rows = engine_calibration.curve[(engine_calibration.curve.model == "GaussianNB")
                                    & (engine_calibration.curve.method == "uncalibrated")]
    np.testing.assert_allclose(bands[("GaussianNB", "uncalibrated")],
                               (rows.mean_predicted, rows.ci_low, rows.ci_high), atol=1e-12)
    # naive Bayes crowds into the end buckets: said in plain words, with a way out
    assert not view.banner.isHidden() and "GaussianNB" in view.banner.text()
    assert not view.quantile_button.isHidden()
    assert "How this was measured" in view.notes.toPlainText()
    assert "GaussianNB" in view.verdict.text() and "Brier" in view.verdict.text()


def test_cancel_midway_then_run_again(qtbot, view, state, cv_result):
    state.set_result(cv_result)
    qtbot.mouseClick(view.bar.run_button, Qt.LeftButton)
    assert view.running and view.bar.cancel_button.isVisible()
    assert not view.bar.run_button.isVisible() and not view.intro_run_button.isEnabled()
    qtbot.waitUntil(lambda: view.bar.progress.maximum() > 0 and view.bar.progress.value() >= 1,
                    timeout=30000)
    assert view.bar.progress.value() < view.bar.progress.maximum()
    with qtbot.waitSignal(state.status_message, timeout=30000, check_params_cb=cancelled):
        qtbot.mouseClick(view.bar.cancel_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: not view.running, timeout=60000)
    assert state.result is cv_result and state.result.calibration is None
    assert view.stack.currentWidget() is view.intro
    assert view.bar.run_button.isVisible() and not view.bar.progress.isVisible()
    # again, with other settings: only sigmoid, quantile buckets
    view.bar.isotonic.setChecked(False)
    view.bar.strategy.setCurrentIndex(view.bar.strategy.findData("quantile"))
    view.bar.buckets.setValue(50)
    press_run(qtbot, view, state)
    calibration = state.result.calibration
    assert set(calibration.scores.method) == {"uncalibrated", "sigmoid"}
    assert set(calibration.map.method) == {"sigmoid"}
    assert calibration.map.groupby("model").size().max() <= 50
    assert state.result.experiment.calibration == CalibrationSettings(
        methods=("sigmoid",), strategy="quantile", map_buckets=50)
    assert state.calibration is None      # later CV runs calibrate only when asked
    assert view.quantile_button.isHidden()       # already quantile: nothing to suggest


def test_no_method_checked_disables_run(view, state, cv_result):
    state.set_result(cv_result)
    view.bar.isotonic.setChecked(False)
    view.bar.sigmoid.setChecked(False)
    assert not view.bar.run_button.isEnabled()
    view.start_calibration()
    assert not view.running


# ---------------------------------------------------------------------- a result with calibration
def test_existing_calibration_models_selection_and_exports(qtbot, view, state, cv_result,
                                                           engine_calibration, tmp_path):
    state.set_result(replace(cv_result, calibration=engine_calibration))
    assert view.stack.currentWidget() is view.content and not view.running
    pd.testing.assert_frame_equal(view.scores_panel.frame(), engine_calibration.scores)
    assert view.class_combo.isHidden()                     # two classes: no class picker
    # switch model: plots follow and the shared selection too
    view.model_combo.setCurrentText("LogisticRegression")
    assert state.selection == ["LogisticRegression"]
    drawn = view.reliability.drawn_series()
    np.testing.assert_allclose(drawn[("LogisticRegression", "sigmoid")],
                               engine_points(engine_calibration, "LogisticRegression", "sigmoid"))
    steps = set(view.map_plot.drawn_maps())
    assert steps == {("LogisticRegression", "isotonic"), ("LogisticRegression", "sigmoid")}
    # a selection made elsewhere picks the model here
    state.set_selection(["GaussianNB"])
    assert view.model_combo.currentText() == "GaussianNB"
    assert {m for m, _ in view.reliability.drawn_series()} == {"GaussianNB"}
    view.model_combo.setCurrentText(ALL_MODELS)
    assert {m for m, _ in view.reliability.drawn_series()} == {"GaussianNB",
                                                             "LogisticRegression"}
    # exports: the engine's tables at full precision
    for panel, name, table in ((view.map_panel, "calibration_map.csv", engine_calibration.map),
                               (view.curve_panel, "calibration_curve.csv",
                                engine_calibration.curve),
                               (view.scores_panel, "calibration_scores.csv",
                                engine_calibration.scores)):
        assert panel.export_name == name
        path = str(tmp_path / name)
        with qtbot.waitSignal(panel.exported, timeout=60000):
            panel.export_to(path)
        pd.testing.assert_frame_equal(pd.read_csv(path), table.reset_index(drop=True),
                                      check_dtype=False)


def test_hover_read_outs(view, state, cv_result, engine_calibration):
    state.set_result(replace(cv_result, calibration=engine_calibration))
    x, y = engine_points(engine_calibration, "GaussianNB", "uncalibrated")
    text = view.reliability.describe_point(x[0], y[0])
    assert "GaussianNB · uncalibrated" in text and "predictions" in text
    assert "predictions" in view.reliability.describe_bin(0.01)
    assert "→" in view.map_plot.describe_point(0.5, 0.5)


def test_help_button_opens_the_calibration_guide(qtbot, view, state, cv_result, monkeypatch):
    calls = []
    monkeypatch.setattr("gui.help.show_help", lambda *args: calls.append(args))
    state.set_result(cv_result)
    qtbot.mouseClick(view.bar.help_button, Qt.LeftButton)
    assert calls == [("calibration", view.window())]


def test_several_classes_get_a_class_picker(qtbot, view, state):
    models = [{"estimator": "GaussianNB"}]
    result = run_to_end(run_experiment(experiment("wine", models, ("accuracy",))))
    calibration = run_to_end(run_calibration(result.dataset, result.cv,
                                             list(result.experiment.models),
                                             CalibrationSettings(methods=("sigmoid",))))
    state.set_result(replace(result, calibration=calibration))
    assert not view.class_combo.isHidden() and view.class_combo.count() == 3
    view.class_combo.setCurrentIndex(2)
    name = result.dataset.classes[2]
    x, _ = view.reliability.drawn_series()[("GaussianNB", "uncalibrated")]
    rows = calibration.curve[(calibration.curve["class"] == name)
                             & (calibration.curve.method == "uncalibrated")]
    np.testing.assert_allclose(x, rows.mean_predicted)
    assert str(name) in view.reliability.title.text()


def test_a_new_result_cancels_a_running_calibration(qtbot, view, state, cv_result):
    state.set_result(cv_result)
    qtbot.mouseClick(view.bar.run_button, Qt.LeftButton)
    with qtbot.waitSignal(state.status_message, timeout=30000, check_params_cb=cancelled):
        state.set_result(None)                  # e.g. a new data set was loaded
    qtbot.waitUntil(lambda: not view.running, timeout=60000)
    assert state.result is None and view.stack.currentWidget() is view.hint


def test_fold_evidence_uses_the_two_sided_test(cv_result, engine_calibration):
    from engine.evaluation.stats import compare_models
    from engine.evaluation.calibration import fold_score_matrix
    from gui.views.calibration_view import fold_evidence

    text = fold_evidence(engine_calibration, cv_result.cv, "GaussianNB", "isotonic")
    matrix = fold_score_matrix(engine_calibration, metric="neg_brier_score")
    rows = ["GaussianNB (uncalibrated)", "GaussianNB (isotonic)"]
    pair = compare_models(matrix.loc[rows], *cv_result.cv.train_test_sizes()).pairwise.iloc[0]
    assert pair.model_1 == rows[1]                 # isotonic repairs naive Bayes here
    assert f"two-sided p = {pair.p_value_two_sided:.3f}" in text


def test_fold_evidence_is_judged_at_the_users_alpha(cv_result, engine_calibration):
    """The view says what engine.evaluation.calibration.fold_test found, at the experiment's alpha."""
    from engine.evaluation.calibration import fold_test
    from gui.views.calibration_view import fold_evidence

    test = fold_test(engine_calibration, cv_result.cv, "GaussianNB", "isotonic")
    strict, loose = test.p_value / 2, min(0.99, test.p_value * 2)
    assert "could be chance" in fold_evidence(engine_calibration, cv_result.cv, "GaussianNB",
                                              "isotonic", strict)
    assert "holds up" in fold_evidence(engine_calibration, cv_result.cv, "GaussianNB",
                                       "isotonic", loose)


def test_the_verdict_uses_the_alpha_of_the_result(qtbot, view, state, cv_result,
                                                  engine_calibration):
    from engine.evaluation.stats import ComparisonSettings

    strict = replace(cv_result, calibration=engine_calibration).with_comparison(
        ComparisonSettings(alpha=1e-12))
    state.set_result(strict)
    view.model_combo.setCurrentIndex(view.model_combo.findText("GaussianNB"))
    assert "α = 1e-12" in view.verdict.text() and "could be chance" in view.verdict.text()


def test_the_measurement_note_says_when_the_inner_folds_keep_groups_together():
    from engine.foundation.notes import Note
    from gui.views.calibration_view import plain_note

    grouped = Note("calibration_method", "(text)", {"inner_splits": 3, "grouped": True})
    plain = Note("calibration_method", "(text)", {"inner_splits": 3, "grouped": False})
    assert "3-fold split, which keeps the rows of a group together)" in plain_note(grouped)[1]
    assert "3-fold split) and scored" in plain_note(plain)[1]
    old = Note("calibration_method", "(text)", {"inner_splits": 4})     # a stored result
    assert "4-fold split) and scored" in plain_note(old)[1]
