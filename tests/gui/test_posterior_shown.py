"""The posterior plot first shown at a new size: its items placed for that size when it
is resized (not only while painting, which asked for more paints) and its axes of a fixed
size (an axis widened to its labels while painting laid the plot out again), still
showing the engine's numbers. Driven offscreen on the scikit-learn example's result."""
import os

import numpy as np
import pytest
from PySide6.QtCore import QPointF

from engine.evaluation.experiment import load_experiment
from engine.evaluation.stats import Posterior, posterior
from engine.evaluation.verdict import pair_differences
from engine.foundation.progress import run_to_end
from engine.runs.analysis import run_experiment
from gui.plots.posterior_plot import INTERVAL_STEP, PosteriorPlot
from gui.state import AppState
from gui.tabs.results_tab import BAYESIAN_PAGE, ResultsTab

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "resources", "examples",
                       "svc_kernels_moons.json")
PROBABILITIES = {"p_mu_positive": 0.9, "p_better": 0.5, "p_equivalent": 0.4, "p_worse": 0.1}


def placed_at(plot, label) -> tuple:
    """Where ``label`` is in the scene, and where its data position maps to now."""
    view = plot.plot.getViewBox()
    expected = view.mapViewToScene(QPointF(label.pos()))
    return label.scenePos(), expected


def drawn_posterior(qtbot, scale: float = 0.01) -> PosteriorPlot:
    plot = PosteriorPlot()
    qtbot.addWidget(plot)
    plot.resize(500, 300)
    plot.set_posterior(Posterior(9, 0.02, scale), "rbf", "linear", 0.01, [0.5, 0.75, 0.95],
                       PROBABILITIES, "accuracy")
    return plot


def test_resizing_places_the_labels_before_any_paint(qtbot):
    plot = drawn_posterior(qtbot)
    plot.resize(670, 406)
    plot.show()              # resized now (Qt delivers a hidden widget's resize on showing)
    before = [label.transform() for label in (plot.rope_label, *plot.interval_labels)]
    plot.plot.getViewBox().prepareForPaint()   # what a paint does first: nothing left
    after = [label.transform() for label in (plot.rope_label, *plot.interval_labels)]
    assert before == after
    peak = float(plot.curve.getData()[1].max())
    assert plot.rope_label.pos().y() == pytest.approx(1.14 * peak)
    scene, expected = placed_at(plot, plot.rope_label)
    assert (scene.x(), scene.y()) == pytest.approx((expected.x(), expected.y()), abs=1.0)
    assert plot.rope_label.toPlainText() == "ROPE ±0.01"


@pytest.mark.parametrize("scale", [0.1, 0.0005])   # peaks of about 4 and about 800
def test_painting_leaves_the_axes_their_size(qtbot, scale):
    plot = drawn_posterior(qtbot, scale)
    axes = (plot.plot.getAxis("left"), plot.plot.getAxis("bottom"))
    sizes = [(axis.maximumWidth(), axis.maximumHeight()) for axis in axes]
    plot.grab()                                # painted once, offscreen
    assert [(axis.maximumWidth(), axis.maximumHeight()) for axis in axes] == sizes
    assert axes[0].tickStrings([-1.0, 0.0, 2.0], 1.0, 1.0) == ["", "0", "2"]


@pytest.fixture(scope="module")
def seed_result():
    return run_to_end(run_experiment(load_experiment(EXAMPLE)))


def test_the_bayesian_page_first_shown_draws_the_engine_posterior(qtbot, seed_result):
    state = AppState()
    tab = ResultsTab(state)
    qtbot.addWidget(tab)
    tab.resize(1280, 800)
    tab.show()
    state.set_result(seed_result)
    state.renderer.flush()
    tab.views.setCurrentIndex(BAYESIAN_PAGE)
    qtbot.waitUntil(lambda: tab.posterior.isVisible())
    qtbot.wait(50)
    comparison = seed_result.comparison
    differences = pair_differences(seed_result.cv.score_matrix(), "rbf", "linear")
    expected = posterior(differences, comparison.n_train, comparison.n_test)
    x, y = tab.posterior.curve.getData()
    np.testing.assert_allclose(y, expected.pdf(x))
    peak = float(y.max())
    (x_low, x_high), (y_low, y_high) = tab.posterior.plot.getViewBox().viewRange()
    span = x[-1] - x[0]
    assert x_low == pytest.approx(x[0] - 0.02 * span, rel=0.05)
    assert x_high == pytest.approx(x[-1] + 0.02 * span, rel=0.05)
    assert y_high == pytest.approx(1.15 * peak)
    assert y_low == pytest.approx(-(3 + 0.6) * INTERVAL_STEP * peak)
    scene, where = placed_at(tab.posterior, tab.posterior.rope_label)
    assert (scene.x(), scene.y()) == pytest.approx((where.x(), where.y()), abs=1.0)
    state.deleteLater()
