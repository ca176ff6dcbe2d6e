"""Correlation of the models' scores across folds, as a labelled heatmap.

High correlations mean the folds move all models together: the scores of two models
are not independent samples, which a plain t-test wrongly assumes.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtGui import QFont

from .plot_panel import PlotPanel

COLOUR_MAP = "CET-D1"   # diverging blue - white - red, -1 .. 1


class CorrelationHeatmap(PlotPanel):
    """A square of Pearson correlations with the values written in the cells.

    Clicking a cell picks its two models (``models_clicked``), a diagonal cell one.
    """

    models_clicked = Signal(list)

    def __init__(self, parent=None):
        super().__init__("Correlation of fold scores", "correlation.png", parent, legend=False)
        self._names: list = []
        self._values = np.zeros((0, 0))
        self._texts: list = []
        cmap = pg.colormap.get(COLOUR_MAP)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setColorMap(cmap)
        self.image.setLevels((-1.0, 1.0))
        self.plot.addItem(self.image)
        self.colour_bar = pg.ColorBarItem(values=(-1.0, 1.0), colorMap=cmap, interactive=False,
                                          width=14, label="Pearson r", colorMapMenu=False)
        self.colour_bar.setImageItem(self.image, insert_in=self.plot)
        self.outline = pg.PlotCurveItem(pen=pg.mkPen("#111", width=3), connect="finite")
        self.plot.addItem(self.outline)
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
        ticks = [[(i + 0.5, name) for i, name in enumerate(self._names)]]
        for side in ("bottom", "left"):
            self.plot.getAxis(side).setTicks(ticks)
            self.plot.getAxis(side).setStyle(tickLength=0)
        self._write_values()
        self.plot.setRange(xRange=(0, n), yRange=(0, n), padding=0.02)
        self.set_selection([])

    def _write_values(self) -> None:
        n = len(self._names)
        font = QFont()
        font.setPointSize(10 if n <= 6 else 8)
        while len(self._texts) < n * n:
            text = pg.TextItem(anchor=(0.5, 0.5))
            text.setFont(font)
            self.plot.addItem(text)
            self._texts.append(text)
        for k, text in enumerate(self._texts):
            i, j = divmod(k, n) if n else (0, 0)
            text.setVisible(k < n * n)
            if k < n * n:
                value = self._values[i, j]
                text.setText("—" if math.isnan(value) else f"{value:.2f}")
                text.setColor("#fff" if abs(np.nan_to_num(value)) > 0.6 else "#222")
                text.setPos(j + 0.5, i + 0.5)

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
