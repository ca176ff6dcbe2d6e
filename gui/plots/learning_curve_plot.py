"""The learning curve: each model's mean primary score against the training-set size,
with the fold band (mean ± one standard deviation over the folds). Items are created
once per model and updated with ``setData``."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pyqtgraph as pg
from PySide6.QtGui import QColor

from ..plain_text import escape
from .band_line import add_banded_line
from .plot_panel import PlotPanel, colour, legend_above, symbol


class LearningCurvePlot(PlotPanel):
    """Mean score per training size, one line per model, in its fold band."""

    def __init__(self, parent=None):
        super().__init__("Learning curve", "learning_curve.png", parent,
                         x_label="training rows", y_label="score", legend=False)
        legend_above(self)
        self._lines: list = []
        self._edges: list = []
        self._bands: list = []
        self._models: list = []
        self._summary = pd.DataFrame()
        self.plot.setToolTip("Each point: the mean score over the folds of models fitted on "
                             "that many training rows; the band: ± one standard deviation "
                             "over the folds. A curve still rising at the right may gain "
                             "from more data.")

    def _ensure_items(self, count: int) -> None:
        while len(self._lines) < count:
            line, band, edges = add_banded_line(self.plot)
            self._edges.append(edges)
            self._bands.append(band)
            self._lines.append(line)

    def show_curves(self, summary: pd.DataFrame, models: list, metric_name: str) -> None:
        """Draw ``learning_summary.csv``'s rows of ``models``."""
        self._summary, self._models = summary, list(models)
        self._ensure_items(len(models))
        self.legend.clear()
        self.legend.setColumnCount(min(max(len(models), 1), 4))
        for i, name in enumerate(models):
            rows = summary[summary["model"] == name].sort_values("n_train")
            x = rows["n_train"].to_numpy(dtype=float)
            tint = QColor(colour(i))
            self._lines[i].setData(x, rows["mean"].to_numpy(dtype=float),
                                   pen=pg.mkPen(tint, width=2), symbol=symbol(i),
                                   symbolSize=7, symbolBrush=pg.mkBrush(tint),
                                   symbolPen=pg.mkPen("w"), connect="finite")
            low, high = self._edges[i]
            low.setData(x, rows["band_low"].to_numpy(dtype=float), connect="finite")
            high.setData(x, rows["band_high"].to_numpy(dtype=float), connect="finite")
            pale = QColor(tint)
            pale.setAlpha(45)
            self._bands[i].setBrush(pg.mkBrush(pale))
            edge = QColor(tint)
            edge.setAlpha(90)
            for item in self._edges[i]:
                item.setPen(pg.mkPen(edge, width=1))
            self.legend.addItem(self._lines[i], escape(name))
        for i in range(len(models), len(self._lines)):
            self._lines[i].setData([], [])
            for edge in self._edges[i]:
                edge.setData([], [])
        self.plot.setLabel("left", f"mean {metric_name}")
        self.title.setText(f"<b>Learning curve: {metric_name} against training rows</b>")
        self._set_range(summary[summary["model"].isin(models)])

    def _set_range(self, rows) -> None:
        """The data's own ranges (the band's edges included), neither from 0: the
        question is how the score changes across the sizes tried."""
        values = rows[["band_low", "band_high", "mean"]].to_numpy(dtype=float)
        values = values[np.isfinite(values)]
        sizes = rows["n_train"].to_numpy(dtype=float)
        if not len(values) or not len(sizes):
            return
        low, high = float(values.min()), float(values.max())
        pad = max((high - low) * 0.08, 1e-3)
        self.plot.setYRange(low - pad, high + pad, padding=0)
        first, last = float(sizes.min()), float(sizes.max())
        margin = max((last - first) * 0.04, 1.0)
        self.plot.setXRange(first - margin, last + margin, padding=0)

    def drawn_lines(self) -> dict:
        """``{model: (training rows, mean score)}`` as drawn."""
        return {name: tuple(np.asarray(v) for v in self._lines[i].getData())
                for i, name in enumerate(self._models)}

    def drawn_band(self, model: str) -> tuple:
        low, high = self._edges[self._models.index(model)]
        return np.asarray(low.getData()[1]), np.asarray(high.getData()[1])

    def describe_point(self, x: float, y: float) -> str:
        if self._summary.empty:
            return ""
        sizes = np.sort(self._summary["n_train"].unique())
        n = sizes[int(np.argmin(np.abs(sizes - x)))]
        rows = self._summary[self._summary["n_train"] == n]
        parts = [f"{row.model} {row.mean:.3f} ± {row.std:.3f}" for row in rows.itertuples()]
        return f"{int(n):,} training rows: " + ", ".join(parts)
