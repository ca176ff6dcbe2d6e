"""Correlation of the models' scores across folds, as a labelled heatmap.

High correlations mean the folds move all models together: the scores of two models
are not independent samples, which a plain t-test wrongly assumes.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontMetrics

from .cell_text import CellText
from .plot_panel import PlotPanel, plain_axes

COLOUR_MAP = "CET-D1"   # diverging blue - white - red, -1 .. 1
LEFT_LABEL_PX = 190     # longer model names are elided on the left axis (full in the read-out)


def numbered(names: list) -> list:
    """``["1 rbf", "2 linear", ...]``: the left axis's names when the bottom shows numbers."""
    return [f"{i} {name}" for i, name in enumerate(names, start=1)]


def fit_labels(names: list, cell_px: float, metrics: QFontMetrics) -> tuple:
    """``(bottom, left)`` tick labels that never collide: the names under their columns
    when each fits its cell's width, otherwise column numbers below and numbered names
    on the left; left labels elided to :data:`LEFT_LABEL_PX`."""
    widest = max((metrics.horizontalAdvance(n) for n in names), default=0)
    if widest + 6 <= cell_px:
        bottom, left = list(names), list(names)
    else:
        bottom, left = [str(i) for i in range(1, len(names) + 1)], numbered(names)
    left = [metrics.elidedText(text, Qt.ElideRight, LEFT_LABEL_PX) for text in left]
    return bottom, left


class CorrelationHeatmap(PlotPanel):
    """A square of Pearson correlations with the values written in the cells.

    Clicking a cell picks its two models (``models_clicked``), a diagonal cell one.
    """

    models_clicked = Signal(list)

    def __init__(self, parent=None):
        super().__init__("Correlation of fold scores", "correlation.png", parent, legend=False)
        self._names: list = []
        self._values = np.zeros((0, 0))
        self._axis_labels: dict = {"bottom": [], "left": []}
        self.cells = CellText()
        cmap = pg.colormap.get(COLOUR_MAP)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setColorMap(cmap)
        self.image.setLevels((-1.0, 1.0))
        self.plot.addItem(self.image)
        self.colour_bar = pg.ColorBarItem(values=(-1.0, 1.0), colorMap=cmap, interactive=False,
                                          width=14, label="Pearson r", colorMapMenu=False)
        self.colour_bar.setImageItem(self.image, insert_in=self.plot)
        plain_axes(self.colour_bar)
        self.outline = pg.PlotCurveItem(pen=pg.mkPen("#111", width=3), connect="finite")
        self.plot.addItem(self.outline)
        self.plot.addItem(self.cells)
        self.plot.vb.sigResized.connect(lambda *_: self._label_axes())
        self.plot.showGrid(x=False, y=False)
        self.plot.invertY(True)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.setMenuEnabled(False)
        self.plot_widget.setToolTip("Click a cell to compare its two models")
        self.plot.scene().sigMouseClicked.connect(self._on_clicked)

    def set_correlation(self, correlation: pd.DataFrame) -> None:
        """Show a square correlation table (models as index and columns)."""
        self._names = [str(n) for n in correlation.index]
        self._values = correlation.to_numpy(dtype=float)
        n = len(self._names)
        self.image.setImage(np.nan_to_num(self._values, nan=0.0), autoLevels=False)
        self.image.setLevels((-1.0, 1.0))
        self.image.setRect(0, 0, n, n)
        self._label_axes()
        self._write_values()
        self.plot.setRange(xRange=(0, n), yRange=(0, n), padding=0.02)
        self.set_selection([])

    def _label_axes(self) -> None:
        n = len(self._names)
        if not n:
            return
        metrics = QFontMetrics(self.plot.getAxis("bottom").font())
        bottom, left = fit_labels(self._names, self.plot.vb.width() / n, metrics)
        self._axis_labels = {"bottom": bottom, "left": left}
        for side, labels in self._axis_labels.items():
            axis = self.plot.getAxis(side)
            axis.setTicks([[(i + 0.5, label) for i, label in enumerate(labels)]])
            axis.setStyle(tickLength=0)

    def axis_labels(self, side: str) -> list:
        """The labels under the columns (``"bottom"``) or beside the rows (``"left"``), in
        the table's order: names, or numbers when the names do not fit (see
        :func:`fit_labels`)."""
        return list(self._axis_labels[side])

    def _write_values(self) -> None:
        values = self._values
        texts = np.where(np.isnan(values), "—", np.char.mod("%.2f", np.nan_to_num(values)))
        colours = np.where(np.abs(np.nan_to_num(values)) > 0.6, "#fff", "#222")
        self.cells.set_point_size(10 if len(self._names) <= 6 else 8)
        self.cells.set_cells(texts, colours)

    def set_selection(self, names: list) -> None:
        """Outline the picked pair's cells (or the row and column of one model)."""
        index = [self._names.index(n) for n in names if n in self._names]
        cells = set()
        if len(index) >= 2:
            cells = {(index[0], index[1]), (index[1], index[0])}
        elif len(index) == 1:
            cells = {(index[0], k) for k in range(len(self._names))}
        xs, ys = [], []
        for i, j in sorted(cells):
            xs += [j, j + 1, j + 1, j, j, np.nan]
            ys += [i, i, i + 1, i + 1, i, np.nan]
        self.outline.setData(np.array(xs, dtype=float), np.array(ys, dtype=float))

    def _cell_at(self, x: float, y: float):
        i, j = math.floor(y), math.floor(x)
        n = len(self._names)
        return (i, j) if 0 <= i < n and 0 <= j < n else None

    def _on_clicked(self, event) -> None:
        if not self.plot.vb.sceneBoundingRect().contains(event.scenePos()):
            return
        point = self.plot.vb.mapSceneToView(event.scenePos())
        cell = self._cell_at(point.x(), point.y())
        if cell is not None:
            i, j = cell
            self.models_clicked.emit([self._names[i]] if i == j
                                     else [self._names[i], self._names[j]])

    def describe_point(self, x: float, y: float) -> str:
        cell = self._cell_at(x, y)
        if cell is None:
            return ""
        i, j = cell
        return f"{self._names[i]} and {self._names[j]}: r = {self._values[i, j]:.3f}"
