"""The cross-validation run, live: every fold's score as it arrives, then a summary strip.

During a run each finished fold adds a point to its model's line (x: the fold in
split order, y: the primary metric), so a user sees the scores, and how they move
together across folds, while the run goes on. When the run is over the plot shows
every fold's score of each model as a strip of points with its mean ± one std.
"""
from __future__ import annotations

import warnings

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics

from engine.evaluation.interval_bounds import metric_range
from engine.evaluation.verdict import metric_label

from .class_counts_plot import PlotHint
from ..render_queue import NEXT_TURN, draw_now
from .legend_label import LegendLabel
from .plot_panel import PlotPanel, colour, count_axis, line_style

LINES_PER_SLICE = 4
NAME_PX = 190   # longer model names are elided on the axis (full in the hover read-out)


def waiting_range(metric: str) -> tuple:
    """The score axis before a run's first fold: the metric's possible range (a negated
    loss, which has no lower limit: -1 to 0), not the rows of the last run's strip."""
    low, high = metric_range(metric)
    return (-1.0 if low is None else low), high


class LiveScoresPlot(PlotPanel):
    """Fold scores per model during a run; every fold's score per model after it."""

    IDLE_HINT = ("Press Run to cross-validate the models. Each fold's score is drawn here as "
                 "it arrives; afterwards every fold's score of every model.")

    def __init__(self, parent=None):
        super().__init__("Run", "cv_run.png", parent, x_label="CV test fold",
                         y_label="score", legend=False)
        self.lines: dict = {}
        self.fold_points = pg.ScatterPlotItem(size=5, pen=pg.mkPen(None))
        self.mean_points = pg.ScatterPlotItem(size=11, symbol="d", brush=pg.mkBrush("#222"),
                                              pen=pg.mkPen("w"))
        self.spread = pg.ErrorBarItem(x=np.zeros(0), y=np.zeros(0), pen=pg.mkPen("#222", width=2))
        for item in (self.fold_points, self.spread, self.mean_points):
            self.plot.addItem(item)
            item.setVisible(False)
        self._points: dict = {}
        self._metric = ""
        self._n_splits = 1
        self._scores = None
        self.hint = PlotHint(self, self.IDLE_HINT)
        self.fold_axis = count_axis(self)     # folds while running; scores afterwards
        self.legend = LegendLabel(self)
        self.insert_above_plot(self.legend)
        self._renderer = None
        self._waiting = None     # a result to draw when the plot is next shown

    # -- during the run
    def start(self, models: list, metric: str, n_splits: int, n_repeats: int,
              renderer=None) -> None:
        """Empty lines for the models of a new run (line items are reused across runs).

        With a :class:`~gui.render_queue.RenderQueue` the lines and the legend are drawn
        through it, a few per turn of the event loop (20 models: ~60 ms at once)."""
        self._scores, self._metric, self._n_splits = None, metric, n_splits
        self._waiting = None
        self._points = {name: ([], []) for name in models}
        self._set_score_items_visible(False)
        self.legend.set_names(models, markers=False)
        for line in self.lines.values():
            line.setData([], [])
            line.setVisible(False)
        drawing = self._draw_lines(len(models))
        self._renderer = renderer
        if renderer is None:
            draw_now(drawing)
        else:
            renderer.submit(self, drawing)
        self.fold_axis.whole_numbers = True
        self.title.setText(f"<b>Run in progress: {metric_label(metric)} on each fold as it "
                           "finishes</b>")
        self.plot.setLabel("bottom", f"CV test fold (in split order; {n_splits} folds × "
                                     f"{n_repeats} repeats)")
        self.plot.setLabel("left", f"{metric_label(metric)} (per fold)")
        self.plot.setXRange(0.5, n_splits * n_repeats + 0.5, padding=0.01)
        self.plot.setYRange(*waiting_range(metric), padding=0.02)   # not the last strip's
        self.plot.enableAutoRange(axis="y")        # from the first fold on
        self.hint.hide()

    def _draw_lines(self, count: int):
        """The run's lines, created once and reused, a few per turn of the event loop."""
        for i in range(count):
            self._line(i).setVisible(True)
            if i % LINES_PER_SLICE == LINES_PER_SLICE - 1:
                yield

    def _line(self, i: int):
        if i not in self.lines:
            # thin lines without markers: a run redraws this plot ten times a second
            self.lines[i] = self.plot.plot([], [], pen=pg.mkPen(colour(i), width=1,
                                                                  style=line_style(i)))
        return self.lines[i]

    def add_fold_scores(self, details: list) -> None:
        """Add finished folds: :class:`engine.evaluation.cv.FoldScores` records.

        Repeat and fold are numbered from 1; fold ``f`` of repeat ``r`` is drawn at
        x = (r - 1) * k + f, so the x axis runs 1 .. k * r in split order.
        """
        changed = set()
        for detail in details:
            points = self._points.get(detail.model)
            score = detail.scores.get(self._metric)
            if points is None or score is None:
                continue
            points[0].append((detail.repeat - 1) * self._n_splits + detail.fold)
            points[1].append(score)
            changed.add(detail.model)
        for i, name in enumerate(self._points):
            if name in changed:
                x, y = self._points[name]
                order = np.argsort(x, kind="stable")
                self._line(i).setData(np.asarray(x)[order], np.asarray(y, dtype=float)[order])

    # -- after the run
    def show_fold_scores(self, cv_result) -> None:
        """Every fold's primary-metric score, one row of points per model (names on the
        left, where long and many names stack without colliding), mean ± std.

        Drawn through the render queue of the run (if it had one) in two turns: 2,000
        points with their colours take about 10 ms, the rest as much again. While the
        plot is not on screen (the window shows the Results tab when a run ends), the
        drawing waits until it is shown."""
        self._stop_drawing()
        if self._renderer is not None and not self.isVisible():
            self._waiting = cv_result
            return
        self._waiting = None
        drawing = self._draw_fold_scores(cv_result)
        if self._renderer is None:
            draw_now(drawing)
        else:
            self._renderer.submit(self, drawing)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._waiting is not None:
            self.show_fold_scores(self._waiting)

    def _draw_fold_scores(self, cv_result):
        matrix = cv_result.score_matrix()
        self._scores = matrix
        values = matrix.to_numpy(dtype=float)
        finite = np.isfinite(values)
        rows = np.repeat(np.arange(len(matrix)), finite.sum(axis=1))
        jitter = np.random.default_rng(0).uniform(-0.18, 0.18, len(rows))
        brushes = np.array([pg.mkBrush(pg.mkColor(colour(i)).lighter(110))
                            for i in range(len(matrix))], dtype=object)
        self.fold_points.setData(values[finite], rows + jitter, brush=brushes[rows])
        yield NEXT_TURN                          # the points are ready, still hidden
        for line in self.lines.values():         # hidden, not emptied: emptying 20 curves
            line.setVisible(False)               # costs the scene ~20 ms; start() empties
        self.legend.clear_names()
        with np.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)   # a model without any score
            means = np.nanmean(values, axis=1)
            stds = np.nan_to_num(np.nanstd(values, axis=1, ddof=1))
        y = np.arange(len(matrix))
        self.mean_points.setData(means, y)
        self.spread.setData(x=means, y=y, width=2 * stds, beam=0.25)
        self._set_score_items_visible(True)
        self.fold_axis.whole_numbers = False
        self._label_models([str(n) for n in matrix.index])
        config, metric = cv_result.config, cv_result.primary_metric
        self.title.setText(f"<b>Score on each fold: {metric_label(metric)}, {config.n_splits} "
                           f"folds × {config.n_repeats} repeats</b> — dots: folds; ◆ and bar: "
                           "mean ± 1 std")
        self.plot.setLabel("bottom", f"{metric_label(metric)} (per fold)")
        self.plot.setLabel("left", "")
        self.plot.setYRange(-0.6, len(matrix) - 0.4, padding=0)
        self.plot.enableAutoRange(axis="x")
        self.hint.hide()

    def _label_models(self, names: list) -> None:
        """Model names on the left axis, first model on top, long names elided."""
        metrics = QFontMetrics(self.plot.getAxis("left").font())
        self.plot.getAxis("left").setTicks([[
            (i, metrics.elidedText(name, Qt.ElideRight, NAME_PX)) for i, name in enumerate(names)]])
        self.plot.invertY(True)

    def _set_score_items_visible(self, visible: bool) -> None:
        for item in (self.fold_points, self.mean_points, self.spread):
            item.setVisible(visible)
        if not visible:
            self.plot.getAxis("left").setTicks(None)
            self.plot.invertY(False)

    def _stop_drawing(self) -> None:
        """The run's lines are no longer wanted (it ended before they were all drawn)."""
        if self._renderer is not None:
            self._renderer.cancel(self)

    def reset(self, hint: str = IDLE_HINT) -> None:
        self._stop_drawing()
        self._waiting = None
        self._set_score_items_visible(False)
        for line in self.lines.values():
            line.setData([], [])
        self.legend.clear_names()
        self.title.setText("<b>Run</b>")
        self.hint.show(hint)

    def describe_point(self, x: float, y: float) -> str:
        if self._scores is None:
            return (f"fold {x:.0f}: {metric_label(self._metric)} {y:.4f}" if self._points
                    else "")
        i = int(round(y))
        if not 0 <= i < len(self._scores):
            return ""
        values = self._scores.iloc[i].to_numpy(dtype=float)
        return (f"{self._scores.index[i]}: mean {np.nanmean(values):.4f}, "
                f"min {np.nanmin(values):.4f}, max {np.nanmax(values):.4f} "
                f"over {np.isfinite(values).sum()} folds")
