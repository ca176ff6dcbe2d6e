"""Each model's score on every CV test fold: the scikit-learn example's "model AUC per CV
test fold" lines. Lines that rise and fall together show that the folds, not only the
models, drive the scores — the reason the comparison needs a corrected test.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor

from engine.evaluation.verdict import metric_label

from ..render_queue import draw_now
from .legend_label import LegendLabel
from .plot_panel import PlotPanel, colour, count_axis, line_style, symbol

DIMMED_ALPHA = 45
NORMAL_WIDTH, SELECTED_WIDTH = 1.5, 3.5
CURVES_PER_SLICE = 5   # curves drawn between two turns of the event loop
#: Markers on the fold points only up to this many points in all: beyond, they hide the
#: lines and paint slowly (20 models x 100 folds: 26 ms a paint with markers, 13 without).
MAX_MARKED_POINTS = 800


class FoldScoresPlot(PlotPanel):
    """One line (with markers) per model over the folds in split order.

    Click a line or a name in the legend above the plot to pick that model
    (``model_clicked``). Dotted lines separate the repeats.
    """

    model_clicked = Signal(str)

    def __init__(self, parent=None):
        super().__init__("Scores per CV test fold", "fold_scores.png", parent,
                         x_label="CV test fold (in split order; dotted lines separate repeats)",
                         y_label="Score", legend=False)
        count_axis(self)
        self.legend = LegendLabel(self)
        self.legend.model_clicked.connect(self.model_clicked)
        self.insert_above_plot(self.legend)
        self.plot_widget.setToolTip("Click a line or a name above the plot to highlight that "
                                    "model. Drag to pan, wheel to zoom, right-click for more.")
        self._curves: list = []
        self._separators: list = []
        self._names: list = []
        self._matrix = pd.DataFrame()
        self._selection: list = []
        self._styles: dict = {}     # curve -> the style it has (restyle only what changes)
        self._markers = True
        self._legend_markers = True

    # -- data
    def set_scores(self, matrix: pd.DataFrame, metric: str, n_splits: int) -> None:
        """Show a score matrix (models as rows, folds as columns in split order)."""
        draw_now(self.draw_scores(matrix, metric, n_splits))

    def draw_scores(self, matrix: pd.DataFrame, metric: str, n_splits: int):
        """:meth:`set_scores` as a drawing for :class:`~gui.render_queue.RenderQueue`:
        it yields after every few curves; the plot is painted once, when it is complete."""
        self.plot_widget.setUpdatesEnabled(False)
        self.plot.disableAutoRange()     # the range is set once, at the end
        try:
            yield from self._draw_scores(matrix, metric, n_splits)
        finally:
            self.plot_widget.setUpdatesEnabled(True)

    def _draw_scores(self, matrix: pd.DataFrame, metric: str, n_splits: int):
        self._matrix = matrix
        self._markers = matrix.size <= MAX_MARKED_POINTS
        self.plot.setLabel("left", f"Score ({metric_label(metric)})")
        names = [str(n) for n in matrix.index]
        values = matrix.to_numpy(dtype=float)
        x = np.arange(1, matrix.shape[1] + 1, dtype=float)
        yield from self._ensure_curves(len(names))
        for start in range(0, len(names), CURVES_PER_SLICE):
            for curve, row in zip(self._curves[start:start + CURVES_PER_SLICE],
                                  values[start:start + CURVES_PER_SLICE]):
                curve.setData(x, row, connect="finite")
            yield
        if names != self._names or self._markers != self._legend_markers:
            self._relabel(names)
            self._legend_markers = self._markers
        self._place_separators(matrix.shape[1], n_splits)
        self.plot.setLimits(xMin=0, xMax=matrix.shape[1] + 1)
        yield from self._restyle_in_slices()
        self._show_all(values)

    def _show_all(self, values: np.ndarray) -> None:
        """Every fold in view."""
        finite = values[np.isfinite(values)]
        if not finite.size:
            self.plot.enableAutoRange()
            return
        low, high = float(finite.min()), float(finite.max())
        span = max(high - low, 1e-6)
        self.plot.setRange(xRange=(0.5, values.shape[1] + 0.5),
                           yRange=(low - 0.04 * span, high + 0.04 * span), padding=0)

    def _ensure_curves(self, count: int):
        """Curves are created once and reused; new ones a few per slice."""
        while len(self._curves) < count:
            for _ in range(min(CURVES_PER_SLICE, count - len(self._curves))):
                curve = pg.PlotDataItem(symbol="o", symbolSize=5)
                curve.setCurveClickable(True, width=8)
                curve.sigClicked.connect(self._on_curve_clicked)
                curve.sigPointsClicked.connect(self._on_curve_clicked)
                self.plot.addItem(curve)
                self._curves.append(curve)
            yield
        for curve in self._curves[count:]:
            curve.setData([], [])

    def _relabel(self, names: list) -> None:
        self._names = names
        for curve in self._curves[:len(names)]:
            curve.setVisible(True)
        self.legend.set_names(names, markers=self._markers)

    def _place_separators(self, n_folds: int, n_splits: int) -> None:
        positions = np.arange(n_splits, n_folds, n_splits) + 0.5 if 0 < n_splits < n_folds else []
        while len(self._separators) < len(positions):
            line = pg.InfiniteLine(angle=90, movable=False,
                                   pen=pg.mkPen("#999", width=1, style=Qt.DotLine))
            self.plot.addItem(line, ignoreBounds=True)
            self._separators.append(line)
        for i, line in enumerate(self._separators):
            line.setVisible(i < len(positions))
            if i < len(positions):
                line.setValue(positions[i])

    def model_curves(self) -> dict:
        """``{model: its line}`` (``pg.PlotDataItem``), in the score matrix's row order."""
        return dict(zip(self._names, self._curves))

    # -- selection
    def set_selection(self, names: list) -> None:
        """Highlight the picked models (thicker lines, the others dimmed)."""
        self._selection = [n for n in names if n in self._names]
        self._apply_styles()

    def _apply_styles(self) -> None:
        draw_now(self._restyle_in_slices())

    def _restyle_in_slices(self):
        changed = 0
        for i, (curve, name) in enumerate(zip(self._curves, self._names)):
            picked = name in self._selection
            dimmed = bool(self._selection) and not picked
            style = (i, picked, dimmed, self._markers)
            if self._styles.get(curve) != style:
                self._styles[curve] = style
                self._style_curve(curve, *style)
                changed += 1
                if changed % CURVES_PER_SLICE == 0:
                    yield

    @staticmethod
    def _style_curve(curve, i: int, picked: bool, dimmed: bool, markers: bool) -> None:
        """Set a curve's pen and markers at once (one update instead of four)."""
        base = QColor(colour(i))
        base.setAlpha(DIMMED_ALPHA if dimmed else 230)
        curve.opts.update(
            pen=pg.mkPen(base, width=SELECTED_WIDTH if picked else NORMAL_WIDTH,
                         style=line_style(i)),
            symbol=symbol(i) if markers or picked else None, symbolBrush=pg.mkBrush(base), symbolPen=pg.mkPen(base),
            symbolSize=7 if picked else 5)
        curve.updateItems(styleUpdate=True)
        curve.setZValue(10 if picked else 0)

    def _on_curve_clicked(self, item, *_args) -> None:
        if item in self._curves[:len(self._names)]:
            self.model_clicked.emit(self._names[self._curves.index(item)])

    # -- hover
    def describe_point(self, x: float, y: float) -> str:
        n_folds = self._matrix.shape[1]
        index = int(round(x)) - 1
        if not 0 <= index < n_folds:
            return ""
        column = self._matrix.columns[index]
        where = (f"repeat {column[0]}, fold {column[1]}"
                 if isinstance(column, tuple) and len(column) == 2 else f"column {column}")
        values = self._matrix.iloc[:, index].sort_values(ascending=False)
        scores = " · ".join(f"{name} {value:.3f}" for name, value in values.items()
                            if np.isfinite(value))
        return f"test fold {index + 1} ({where}): {scores}"
