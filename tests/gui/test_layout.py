"""Layout rules every plot and tab keeps: plain axis numbers, legends outside the data, series
that look different, heatmap labels that never collide, text that wraps without moving the
buttons, and results that arrive without freezing the window."""
import os

import numpy as np
import pandas as pd
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QFont, QFontMetrics

from engine.runs.analysis import run_experiment
from engine.evaluation.experiment import load_experiment
from engine.foundation.progress import run_to_end
from gui.main_window import MainWindow
from gui.plots.correlation_heatmap import CorrelationHeatmap, fit_labels
from gui.plots.fold_scores_plot import FoldScoresPlot
from gui.plots.legend_label import LegendLabel
from gui.plots.plot_panel import CountAxis, PlotPanel, colour, line_style, symbol
from gui.render_queue import NEXT_TURN, RenderQueue

SEED = os.path.join(os.path.dirname(__file__), "..", "..", "resources", "examples",
                    "svc_kernels_moons.json")
LONG_NAMES = [f"logistic regression with a long descriptive name number {i}" for i in range(12)]


@pytest.fixture(autouse=True)
def no_questions(monkeypatch):
    """Closing with unsaved changes is answered "discard" (no dialog is shown)."""
    monkeypatch.setattr("gui.saving.ask_choice", lambda *args: "discard")


@pytest.fixture
def window(qtbot, tmp_path):
    widget = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(widget)
    widget.resize(1280, 800)
    widget.show()
    yield widget
    widget.shutdown()


def test_no_axis_rescales_its_numbers(window):
    """No "accuracy (x0.001)": every axis of every plot shows the numbers themselves."""
    plots = window.findChildren(PlotPanel)
    assert len(plots) >= 9
    for panel in plots:
        items = [panel.plot] + [item for item in panel.plot_widget.scene().items()
                                if isinstance(item, pg.PlotItem)]
        for item in items:
            for side in ("left", "bottom"):
                assert not item.getAxis(side).autoSIPrefix, (panel.export_name, side)


def test_a_score_axis_over_a_narrow_range_is_labelled_plainly(qtbot):
    plot = FoldScoresPlot()
    qtbot.addWidget(plot)
    matrix = pd.DataFrame([[0.985, 0.99, 0.995], [0.986, 0.991, 0.994]], index=["a", "b"],
                          columns=pd.MultiIndex.from_tuples([(1, 1), (1, 2), (1, 3)]))
    plot.set_scores(matrix, "roc_auc", 3)
    axis = plot.plot.getAxis("left")
    assert axis.autoSIPrefixScale == 1.0 and "x0.001" not in axis.labelString()


def test_legends_are_never_inside_the_data_area(window):
    for panel in window.findChildren(PlotPanel):
        legend = panel.legend
        if isinstance(legend, pg.LegendItem):
            assert legend.parentItem() is not panel.plot.vb, panel.export_name
        else:
            assert legend is None or isinstance(legend, LegendLabel), panel.export_name


def test_the_first_ten_series_all_look_different():
    looks = {(colour(i), symbol(i), line_style(i)) for i in range(10)}
    assert len(looks) == 10
    assert len({colour(i) for i in range(8)}) == 8          # Okabe-Ito's eight colours
    assert (line_style(8), symbol(8)) != (line_style(0), symbol(0))


def test_fold_axes_count_in_whole_numbers(qtbot):
    axis = CountAxis(orientation="bottom")
    levels = axis.tickValues(0.5, 3.5, 900)
    values = np.concatenate([np.asarray(ticks, dtype=float) for _, ticks in levels])
    assert values.size and np.all(values == np.round(values))
    axis.whole_numbers = False
    assert any(spacing < 1 for spacing, _ in axis.tickSpacing(0.5, 3.5, 900))


def test_heatmap_labels_never_collide():
    metrics = QFontMetrics(QFont())
    names = ["rbf", "linear", "2_poly", "3_poly"]
    assert fit_labels(names, 200, metrics) == (names, names)
    bottom, left = fit_labels(LONG_NAMES, 40, metrics)
    assert bottom == [str(i) for i in range(1, 13)]
    assert all(metrics.horizontalAdvance(label) + 6 <= 40 for label in bottom)
    assert left[0].startswith("1 logistic") and left[0].endswith("…")
    assert all(metrics.horizontalAdvance(label) <= 190 for label in left)


def test_heatmap_with_twelve_long_names_numbers_its_columns(qtbot):
    heatmap = CorrelationHeatmap()
    qtbot.addWidget(heatmap)
    heatmap.resize(480, 400)
    heatmap.show()
    values = np.eye(12) * 0.5 + 0.5
    heatmap.set_correlation(pd.DataFrame(values, index=LONG_NAMES, columns=LONG_NAMES))
    assert heatmap.axis_labels("bottom") == [str(i) for i in range(1, 13)]
    left = heatmap.axis_labels("left")
    assert left[11].startswith("12 ")
    assert "number 3" in heatmap.describe_point(3.5, 3.5)   # full names in the read-out


def test_legend_names_are_links_that_pick_a_model(qtbot):
    legend = LegendLabel()
    qtbot.addWidget(legend)
    legend.set_names(["a", "b <i>"])
    assert "&lt;i&gt;" in legend.text()                     # names are text, not markup
    with qtbot.waitSignal(legend.model_clicked) as picked:
        legend.linkActivated.emit("1")
    assert picked.args == ["b <i>"]


def test_run_button_stays_put_when_the_size_text_wraps(window, qtbot):
    cv = window.cv_tab
    window.tabs.setCurrentWidget(cv)
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=60000):
        window.dataset_tab.load_builtin("breast_cancer")
    window.state.set_model_entries([{"name": "a", "estimator": "GaussianNB", "params": {}}])
    qtbot.wait(50)
    before = cv.run_button.mapTo(window, cv.run_button.rect().topLeft())
    window.state.set_model_entries([{"name": name, "estimator": "GaussianNB", "params": {}}
                                    for name in LONG_NAMES])
    qtbot.wait(50)
    after = cv.run_button.mapTo(window, cv.run_button.rect().topLeft())
    assert before == after


# ---------------------------------------------------------------------- the render queue
def test_render_queue_draws_in_slices_visible_first_and_replaces(qtbot):
    queue = RenderQueue(budget_ms=1000)
    done = []

    def drawing(name, steps):
        for step in range(steps):
            done.append((name, step))
            yield NEXT_TURN

    queue.submit("a", drawing("a", 3))
    queue.submit("b", drawing("b", 2))
    queue.submit("a", drawing("a2", 1))              # replaces a's unfinished drawing
    with qtbot.waitSignal(queue.idle, timeout=60000):
        pass
    assert done == [("b", 0), ("b", 1), ("a2", 0)]        # one owner at a time, in order
    assert not queue.busy


class Owner:
    def __init__(self, visible):
        self.visible = visible

    def isVisible(self):  # noqa: N802 - Qt's name
        return self.visible


def test_render_queue_draws_what_is_on_screen_first(qtbot):
    queue = RenderQueue(budget_ms=1000)
    done = []

    def drawing(name):
        done.append(name)
        yield NEXT_TURN

    queue.submit(Owner(False), drawing("hidden"))
    queue.submit(Owner(True), drawing("shown"))
    with qtbot.waitSignal(queue.idle, timeout=60000):
        pass
    assert done == ["shown", "hidden"]


def test_render_queue_drops_the_drawing_of_a_deleted_widget(qtbot):
    """A window closed while its drawing is pending: the drawing is dropped, the others
    still run, and nothing raises in the event loop."""
    import shiboken6
    from PySide6.QtWidgets import QWidget

    queue = RenderQueue(budget_ms=1000)
    done = []

    def drawing(name):
        done.append(name)
        yield NEXT_TURN

    gone, kept = QWidget(), QWidget()
    qtbot.addWidget(kept)
    queue.submit(gone, drawing("gone"))
    queue.submit(kept, drawing("kept"))
    shiboken6.delete(gone)
    with qtbot.waitSignal(queue.idle, timeout=60000):
        pass
    assert done == ["kept"] and not queue.busy


def test_render_queue_flush_finishes_everything_now():
    queue = RenderQueue()
    done = []

    def drawing():
        for step in range(5):
            done.append(step)
            yield

    queue.submit("x", drawing())
    queue.flush()
    assert done == list(range(5)) and not queue.busy


@pytest.mark.slow
def test_a_new_result_is_drawn_through_the_queue_without_blocking(window, qtbot):
    """set_result returns at once; the results tab is complete when the queue is idle."""
    result = run_to_end(run_experiment(load_experiment(SEED)))
    window.tabs.setCurrentWidget(window.results_tab)
    window.state.set_result(result)
    assert window.state.renderer.busy                     # nothing drawn synchronously
    qtbot.waitUntil(lambda: not window.state.renderer.busy, timeout=60000)
    tab = window.results_tab
    assert tab.stack.currentWidget() is tab.content
    assert tab.fold_plot.legend.names == list(result.cv.models)
    assert tab.updatesEnabled() and tab.fold_plot.updatesEnabled()
    assert len(tab.summary_panel.frame()) == len(result.cv.models)


# ---------------------------------------------------------------------- a window that fits
TWELVE = ([{"name": "logistic", "estimator": "LogisticRegression", "scale": True},
           {"name": "naive_bayes", "estimator": "GaussianNB"},
           {"name": "knn", "estimator": "KNeighborsClassifier", "scale": True},
           {"name": "tree", "estimator": "DecisionTreeClassifier",
            "params": {"max_depth": 3, "random_state": 0}}]
          + [{"name": name, "estimator": "GaussianNB", "params": {"var_smoothing": 1e-9 * (i + 1)}}
             for i, name in enumerate(LONG_NAMES[:8])])


@pytest.fixture(scope="module")
def twelve_models_result():
    """Twelve models (eight with long names) on breast cancer, with ALOOCV and calibration."""
    from engine.evaluation.experiment import parse_experiment

    experiment = parse_experiment({
        "dataset": {"builtin": "breast_cancer"}, "models": TWELVE,
        "cv": {"n_splits": 3, "n_repeats": 1},
        "aloocv": {"n_C": 8}, "calibration": {}})
    return run_to_end(run_experiment(experiment))


def every_view(window):
    """Each tab, then each Results view, made current in turn (its name yielded)."""
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        yield window.tabs.tabText(index)
    window.tabs.setCurrentWidget(window.results_tab)
    views = window.results_tab.views
    for index in range(views.count()):
        views.setCurrentIndex(index)
        yield f"Results, {views.tabText(index)}"


@pytest.mark.slow
@pytest.mark.parametrize("font_scale", [1.0, 1.3])
@pytest.mark.parametrize("size", [(1280, 800), (1366, 768)])
def test_the_window_fits_the_screen_on_every_view(qtbot, tmp_path, qapp, twelve_models_result,
                                                  size, font_scale):
    """After a run with 12 models the window never grows past 1280 x 800 or 1366 x 768
    (its minimum size stays inside), on every tab and Results view; with a font 1.3 times
    larger (the issue's X display widened the window to 1496 px) it still never grows
    wider than the screen."""
    font = qapp.font()
    larger = QFont(font)
    larger.setPointSizeF(font.pointSizeF() * font_scale)
    qapp.setFont(larger)
    try:
        widget = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
        qtbot.addWidget(widget)
        widget.resize(*size)
        widget.show()
        with qtbot.waitSignal(widget.dataset_tab.view_ready, timeout=20000):
            widget.dataset_tab.load_builtin("breast_cancer")
        widget.state.set_model_entries(TWELVE)
        widget.state.set_result(twelve_models_result)
        widget.state.set_selection(["logistic", LONG_NAMES[0]])
        widget.state.renderer.flush()
        for view in every_view(widget):
            widget.state.renderer.flush()
            qtbot.wait(10)
            minimum = widget.minimumSizeHint()
            assert minimum.width() <= size[0], (view, minimum.width())
            assert widget.width() <= size[0], view
            if font_scale == 1.0:
                assert minimum.height() <= size[1], (view, minimum.height())
                assert widget.height() <= size[1], view
        widget.shutdown()
    finally:
        qapp.setFont(font)


@pytest.mark.parametrize("width, kind", [(1800, "names"), (520, "shortened"), (200, "numbers")])
def test_bar_labels_never_overlap(qtbot, width, kind):
    """Ten classes with long names: their labels fit their bars' slots (names, shortened
    names, or numbers), measured in the axis font at three widths."""
    from gui.plots.class_counts_plot import ClassCountsPlot

    names = [f"class number {i} (long)" for i in range(10)]
    plot = ClassCountsPlot()
    qtbot.addWidget(plot)
    plot.resize(width, 300)
    plot.show()
    qtbot.waitExposed(plot)
    plot.set_counts(names, np.arange(10) + 5)
    qtbot.wait(20)
    labels = plot.tick_labels
    slot = plot.plot.vb.width() / 10
    metrics = QFontMetrics(plot.plot.getAxis("bottom").font())
    shown = [i for i, label in enumerate(labels) if label]
    spans = [later - i for i, later in zip(shown, shown[1:])] or [1]
    assert all(metrics.horizontalAdvance(labels[i]) <= slot * span
               for i, span in zip(shown, spans + [min(spans)]))
    assert shown[0] == 0
    if kind == "names":
        assert labels == names
    elif kind == "shortened":
        assert all(label.endswith("…") and names[i].startswith(label[:-1])
                   for i, label in enumerate(labels))
    else:
        assert [label for label in labels if label] == [str(i) for i in range(1, 11)][::spans[0]]
    assert "class number 3 (long)" in plot.describe_point(3, 1)


def test_results_views_give_no_height_for_width_yet_wrap_their_own_text(qtbot):
    """A page of long wrapped text in the Results views' tabs does not make the tabs (and
    the window around them) taller at a narrow width, nor cost its text layout to every
    relayout; shown, the page still wraps its text to its own width."""
    from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

    from gui.views.widgets import ViewTabs

    tabs = ViewTabs()
    qtbot.addWidget(tabs)
    page = QWidget()
    label = QLabel(" ".join(["words that wrap"] * 200), page)
    label.setWordWrap(True)
    QVBoxLayout(page).addWidget(label)
    tabs.addTab(page, "long text")
    wraps = page.heightForWidth(300)
    assert wraps > 300                             # many lines at 300 px: it wraps
    assert not tabs.hasHeightForWidth()
    assert tabs.heightForWidth(300) == -1
    tabs.resize(300, 200)
    tabs.show()
    qtbot.waitExposed(tabs)
    line = label.fontMetrics().height()
    assert label.width() <= 300 and label.height() > 3 * line   # wrapped on several lines
