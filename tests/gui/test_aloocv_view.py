"""The ALOOCV view driven offscreen on breast_cancer with a scaled LogisticRegression.

What the view shows and exports is compared with the engine's own ``run_aloocv`` on the
same data and settings (the seed's optimum: C = 0.6647).
"""
import re

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import Qt

from engine.evaluation.aloocv import run_aloocv
from engine.runs.analysis import run_experiment
from engine.evaluation.catalogue import expand_models
from engine.input.data import load_builtin
from engine.evaluation.experiment import AloocvSettings, parse_experiment
from engine.foundation.progress import run_to_end
from gui.state import AppState
from gui.views.aloocv_view import AloocvView, with_C

LOGISTIC = {"estimator": "LogisticRegression", "scale": True}
SEED_C = 0.6647
SHORT = AloocvSettings(n_C=12, exact_loo=True)        # exact LOO on a short grid: ~1.5 s


@pytest.fixture(scope="module")
def dataset():
    return load_builtin("breast_cancer")


@pytest.fixture(scope="module")
def engine_alo(dataset):
    return run_to_end(run_aloocv(dataset, expand_models([LOGISTIC]), AloocvSettings()))


@pytest.fixture(scope="module")
def engine_exact(dataset):
    return run_to_end(run_aloocv(dataset, expand_models([LOGISTIC]), SHORT))


@pytest.fixture
def state(qapp, dataset):
    app_state = AppState()
    app_state.set_dataset(dataset)
    app_state.set_model_entries([LOGISTIC])
    yield app_state
    app_state.deleteLater()


@pytest.fixture
def make_view(qtbot):
    views = []

    def make(app_state):
        widget = AloocvView(app_state)
        qtbot.addWidget(widget)
        widget.resize(1280, 700)
        widget.show()
        views.append(widget)
        return widget

    yield make
    for widget in views:
        widget.wait_for_job()


@pytest.fixture
def view(make_view, state):
    return make_view(state)


def press(qtbot, view, button, n_points=None):
    """Set the number of points, click ``button`` and wait until the job has ended."""
    if n_points is not None:
        view.bar.points.setValue(n_points)
    qtbot.mouseClick(button, Qt.LeftButton)
    assert view.running
    qtbot.waitUntil(lambda: not view.running, timeout=60000)


def plain(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


# ---------------------------------------------------------------------- the curve
@pytest.mark.slow
def test_compute_shows_the_engine_optimum_and_curve(qtbot, view, engine_alo):
    assert view.stack.currentWidget() is view.content
    assert view.plot.placeholder.isVisible() and not view.use_button.isVisible()
    press(qtbot, view, view.bar.compute_button)
    engine_best = engine_alo.optimum.iloc[0]
    shown_C = view.plot.optimum_C
    assert shown_C == pytest.approx(SEED_C, rel=0.01)               # the seed's optimum
    assert shown_C == pytest.approx(engine_best.C, rel=1e-9)
    assert view.plot.best_label.toPlainText() == "C = 0.665"
    assert view.plot.best_line.value() == pytest.approx(np.log10(engine_best.C))
    assert "Best C = 0.6647" in view.summary.text()
    # the plotted curve is the engine's table, on a log10 axis
    C, alo, loo = view.plot.curve_data()
    np.testing.assert_allclose(C, engine_alo.curve.C)
    np.testing.assert_allclose(alo, engine_alo.curve.alo_log_likelihood, rtol=1e-9)
    assert np.isnan(loo).all() and view.plot.loo_item.getData()[0] is None or \
        len(view.plot.loo_item.getData()[0]) == 0
    x, y = view.plot.alo_item.getData()
    np.testing.assert_allclose(x, np.log10(engine_alo.curve.C))
    np.testing.assert_allclose(y, engine_alo.curve.alo_log_likelihood, rtol=1e-9)
    pd.testing.assert_frame_equal(view.curve_panel.frame(), engine_alo.curve)
    pd.testing.assert_frame_equal(view.optimum_panel.frame(), engine_alo.optimum)
    # hovering reads C and the values of the nearest computed point
    text = view.plot.describe_point(np.log10(engine_best.C), -40.0)
    assert "C ≈ 0.665" in text and "ALO" in text
    assert "best C = 0.6647" in view.status.text()


def test_export_curve_and_optimum(qtbot, view, engine_alo, tmp_path):
    press(qtbot, view, view.bar.compute_button)
    for panel, name, expected in ((view.curve_panel, "aloocv_curve.csv", engine_alo.curve),
                                  (view.optimum_panel, "aloocv_optimum.csv",
                                   engine_alo.optimum)):
        assert panel.export_name == name
        with qtbot.waitSignal(panel.exported, timeout=60000) as written:
            panel.export_to(str(tmp_path / name))
        back = pd.read_csv(written.args[0])
        assert list(back.columns) == list(expected.columns)
        for column in ("C", "alo_log_likelihood"):
            np.testing.assert_allclose(back[column], expected[column], rtol=1e-12)
    curve = pd.read_csv(tmp_path / "aloocv_curve.csv", keep_default_na=False)
    assert (curve["loo_log_likelihood"] == "").all()       # empty where not computed


# ---------------------------------------------------------------------- exact LOO
@pytest.mark.slow
def test_cancel_exact_loo_then_run_it_again(qtbot, view, engine_exact):
    press(qtbot, view, view.bar.compute_button, n_points=12)
    alo_only = view.aloocv
    view.bar.points.setValue(50)                               # long enough to cancel
    qtbot.mouseClick(view.bar.exact_button, Qt.LeftButton)
    assert view.bar.cancel_button.isVisible() and not view.bar.compute_button.isEnabled(), (view.status.text(), view.running, view.bar.exact_button.isEnabled(), view.bar.exact_button.isVisible())
    qtbot.waitUntil(lambda: view.bar.progress.maximum() > 0, timeout=60000)   # under way
    qtbot.mouseClick(view.bar.cancel_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: not view.running, timeout=60000)
    assert "Cancelled" in view.status.text()
    assert view.aloocv is alo_only                              # the last result stays
    assert not view.bar.cancel_button.isVisible() and view.bar.exact_button.isEnabled()
    assert len(view.plot.curve_data()[0]) == 12
    press(qtbot, view, view.bar.exact_button, n_points=12)
    C, alo, loo = view.plot.curve_data()
    np.testing.assert_allclose(C, engine_exact.curve.C)
    np.testing.assert_allclose(loo, engine_exact.curve.loo_log_likelihood, rtol=1e-8)
    np.testing.assert_allclose(alo, engine_exact.curve.alo_log_likelihood, rtol=1e-9)
    x, _ = view.plot.loo_item.getData()
    np.testing.assert_allclose(x, np.log10(engine_exact.curve.C))
    assert view.notes.isVisible() and "Exact leave-one-out confirms ALO" in view.notes.text()


# ---------------------------------------------------------------------- results in the state
@pytest.mark.slow
def test_stores_the_curve_in_the_result_and_shows_an_existing_one(qtbot, make_view, state,
                                                                   dataset):
    experiment = parse_experiment({"dataset": {"builtin": "breast_cancer"}, "models": [LOGISTIC],
                                   "cv": {"n_splits": 2, "n_repeats": 1, "random_state": 0},
                                   "aloocv": {"n_C": 12}})
    with_alo = run_to_end(run_experiment(experiment, dataset=dataset))
    state.set_result(with_alo)
    view = make_view(state)                                     # shown at once, no computing
    assert not view.running and view.aloocv is with_alo.aloocv
    assert len(view.plot.curve_data()[0]) == 12
    assert view.bar.points.value() == 12
    assert view.plot.optimum_C == pytest.approx(SEED_C, rel=0.01)
    state.set_result(with_alo.__class__(**{**with_alo.__dict__, "aloocv": None}))
    press(qtbot, view, view.bar.compute_button, n_points=20)
    assert state.result.aloocv is view.aloocv
    assert len(state.result.aloocv.curve) == 20
    assert state.result.cv is with_alo.cv


# ---------------------------------------------------------------------- use this C
def test_use_this_C_sets_the_model_parameter(qtbot, view, state):
    press(qtbot, view, view.bar.compute_button, n_points=12)
    assert view.use_button.isVisible() and view.use_button.isEnabled()
    assert "0.6647" in view.use_button.text()
    with qtbot.waitSignal(state.models_changed):
        qtbot.mouseClick(view.use_button, Qt.LeftButton)
    assert state.model_entries[0]["params"]["C"] == pytest.approx(SEED_C, rel=1e-3)
    assert state.model_entries[0]["scale"] is True
    assert "C set to 0.6647 (was 1)" in view.status.text()
    assert view.bar.model_combo.currentText() == "LogisticRegression"
    assert "set to C = 0.6647" in view.summary.text()


def test_use_this_C_replaces_a_grid_over_C(qtbot, make_view, state):
    state.set_model_entries([{**LOGISTIC, "name": "lr", "grid": {"C": [0.1, 1, 10]}}])
    view = make_view(state)
    assert [view.bar.model_combo.itemText(i) for i in range(3)] == ["lr_0.1", "lr_1", "lr_10"]
    press(qtbot, view, view.bar.compute_button, n_points=12)
    qtbot.mouseClick(view.use_button, Qt.LeftButton)
    entry = state.model_entries[0]
    assert "grid" not in entry and entry["params"]["C"] == pytest.approx(SEED_C, rel=1e-3)
    assert "replaces the grid over C (0.1, 1, 10)" in view.status.text()
    assert "now called lr" in view.status.text()
    assert view.bar.model_combo.currentText() == "lr"


def test_with_C_keeps_the_rest_of_a_grid():
    entry = {"estimator": "LogisticRegression", "grid": [{"C": [1, 2], "tol": [1e-4, 1e-3]}]}
    new, note = with_C(entry, 0.5)
    assert new == {"estimator": "LogisticRegression", "params": {"C": 0.5},
                   "grid": [{"tol": [1e-4, 1e-3]}]}
    assert "(1, 2)" in note and entry["grid"][0]["C"] == [1, 2]        # input untouched


# ---------------------------------------------------------------------- plain words
def test_optimum_at_the_edge_is_explained(qtbot, view):
    view.bar.C_max.setValue(0.1)
    press(qtbot, view, view.bar.compute_button, n_points=12)
    assert view.notes.isVisible()
    assert "edge of the search range" in view.notes.text()
    assert "widen the range" in view.notes.text().lower()
    assert view.plot.optimum_C == pytest.approx(0.1)


def test_a_bad_range_is_refused_in_plain_words(qtbot, view):
    view.bar.C_min.setValue(10.0)
    view.bar.C_max.setValue(1.0)
    qtbot.mouseClick(view.bar.compute_button, Qt.LeftButton)
    assert not view.running
    assert "C from must be smaller than C to" in view.status.text()


def test_without_a_logistic_regression_the_view_says_how_to_add_one(qtbot, make_view, state):
    state.set_model_entries([{"estimator": "GaussianNB"},
                             {"estimator": "LogisticRegression", "name": "lasso",
                              "params": {"l1_ratio": 1.0, "solver": "saga"}}])
    view = make_view(state)
    assert view.stack.currentWidget() is view.hint_page
    text = plain(view.hint.text())
    assert "Add a LogisticRegression model in the Models tab" in text
    assert "lasso: ALO needs the ridge (L2) penalty" in text
    assert not view.bar.compute_button.isEnabled() and not view.bar.exact_button.isEnabled()
    state.set_model_entries([LOGISTIC])
    assert view.stack.currentWidget() is view.content
    assert view.bar.compute_button.isEnabled()


def test_a_new_dataset_clears_the_curve(qtbot, view, state, dataset):
    press(qtbot, view, view.bar.compute_button, n_points=12)
    state.set_dataset(dataset)
    assert view.aloocv is None and view.plot.placeholder.isVisible()
    assert view.curve_panel.frame().empty


def test_help_button_opens_the_aloocv_topic(qtbot, view, monkeypatch):
    opened = []
    monkeypatch.setattr("gui.help.show_help", lambda topic, parent: opened.append(topic))
    qtbot.mouseClick(view.bar.help_button, Qt.LeftButton)
    assert opened == ["aloocv"]


def test_after_a_run_over_several_data_sets_the_curve_is_for_the_one_picked(qtbot, make_view,
                                                                            dataset,
                                                                            engine_alo):
    """The Dataset tab may have another data set selected than the Results tab's picker: the
    curve is computed on the picked data set's data, and picking another one that has no
    curve yet clears the curve shown."""
    from engine.runs.benchmark import run_benchmark

    several = run_to_end(run_benchmark(parse_experiment({
        "datasets": [{"builtin": "moons", "n_samples": 120, "random_state": 0},
                     {"builtin": "breast_cancer"}],
        "models": [LOGISTIC], "cv": {"n_splits": 3, "n_repeats": 1}})))
    app_state = AppState()
    app_state.set_dataset(several.results[0].dataset)       # moons selected for editing
    app_state.set_model_entries([LOGISTIC])
    view = make_view(app_state)
    app_state.set_benchmark(several)
    app_state.pick_dataset("breast_cancer")
    assert view.data() is several.results[1].dataset
    press(qtbot, view, view.bar.compute_button)
    assert view.plot.optimum_C == pytest.approx(engine_alo.optimum.iloc[0].C, rel=1e-9)
    app_state.pick_dataset("moons")
    assert view.aloocv is None and view.data() is several.results[0].dataset
    app_state.deleteLater()


def test_on_grouped_rows_the_view_says_the_curve_is_optimistic(qtbot, make_view, qapp):
    from engine.input.data import dataset_from_frame
    from tests.helpers import visits

    grouped = dataset_from_frame(visits(), "label", name="visits", groups="subject",
                                 source={"csv": "visits.csv", "groups": "subject"})
    app_state = AppState()
    app_state.set_dataset(grouped)
    app_state.set_model_entries([LOGISTIC])
    view = make_view(app_state)
    press(qtbot, view, view.bar.compute_button, n_points=6)
    assert view.notes.isVisible()
    text = plain(view.notes.text())
    assert "one row at a time" in text and "optimistic" in text
    assert "grouped cross-validation" in text and "'subject'" in text
    app_state.deleteLater()


def test_the_summary_says_when_C_became_a_tuned_grid(qtbot, view, state):
    """Issue 37: after C became a grid searched inside each fold, the view no longer says
    the model is set to C = 1."""
    press(qtbot, view, view.bar.compute_button, n_points=12)
    assert "The model is set to C = 1 now." in view.summary.text()
    with qtbot.waitSignal(state.models_changed):
        state.set_model_entries([{**LOGISTIC, "tune": {"grid": {"C": [0.1, 1, 10]}}}])
    text = view.summary.text()
    assert "set to C" not in text
    assert "The model now tunes C inside each training fold, over 0.1, 1, 10." in text
    assert "Best C = 0.6647" in text
