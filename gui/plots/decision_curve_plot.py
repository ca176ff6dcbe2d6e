"""The decision curve: net benefit against the threshold probability of the positive class,
one line per model (the mean over repeats) in its min–max band over repeats, with ``treat
all`` (grey) and ``treat none`` (black, 0). Beneath it, linked on x, the chosen pair's
probability that the first model gives more net benefit (a paired row bootstrap).

Items are created once per series and updated with ``setData``.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from engine.evaluation.curves.decision import TREAT_ALL, TREAT_NONE

from ..plain_text import escape
from .band_line import add_banded_line
from .plot_panel import PlotPanel, colour, legend_above, light_grid, plain_axes

REFERENCE = {TREAT_ALL: ("#888", Qt.DashLine), TREAT_NONE: ("#222", Qt.DotLine)}


class DecisionCurvePlot(PlotPanel):
    """Net benefit per model with its band, the references, and the pair's probability."""

    def __init__(self, parent=None):
        super().__init__("Decision curve", "decision_curve.png", parent,
                         x_label="threshold probability", y_label="net benefit",
                         legend=False)
        layout = legend_above(self)
        self.pair_plot = layout.addPlot(row=2, col=0)
        plain_axes(self.pair_plot)
        light_grid(self.pair_plot)
        layout.layout.setRowStretchFactor(1, 5)
        layout.layout.setRowStretchFactor(2, 2)
        self.pair_plot.setXLink(self.plot)
        self.pair_plot.setLabel("left", "P(first more)")
        self.pair_plot.setLabel("bottom", "threshold probability")
        self.pair_plot.setTitle("")
        self.pair_plot.setYRange(0, 1, padding=0.05)
        self.pair_plot.setMouseEnabled(x=True, y=False)
        self.pair_plot.getAxis("left").setWidth(self.plot.getAxis("left").width())
        self.pair_plot.addItem(pg.InfiniteLine(0.5, angle=0, pen=pg.mkPen("#aaa",
                                                                          style=Qt.DashLine)))
        self.pair_line = pg.PlotDataItem(pen=pg.mkPen("#333", width=2))
        self.pair_plot.addItem(self.pair_line)
        self.references = {}
        for name, (tint, style) in REFERENCE.items():
            item = pg.PlotDataItem(pen=pg.mkPen(tint, width=1.5, style=style))
            self.plot.addItem(item)
            self.references[name] = item
        self._lines: list = []
        self._edges: list = []
        self._bands: list = []
        self._models: list = []
        self._summary = pd.DataFrame()
        self._pair = pd.DataFrame()
        self.plot.setToolTip("Net benefit: true positives minus false positives weighted by "
                             "the odds of the threshold, per row. Higher is better; a model "
                             "is worth using only where it is above both grey lines.")

    # -- items
    def _ensure_items(self, count: int) -> None:
        while len(self._lines) < count:
            line, band, edges = add_banded_line(self.plot)
            self._edges.append(edges)
            self._bands.append(band)
            self._lines.append(line)

    # -- data
    def show_curves(self, summary: pd.DataFrame, positive_class, models: list) -> None:
        """Draw ``decision_summary.csv`` rows of ``models`` and the two references."""
        self._summary, self._models = summary, list(models)
        self._ensure_items(len(models))
        self.legend.clear()
        self.legend.setColumnCount(min(len(models) + 2, 4))
        for i, name in enumerate(models):
            rows = summary[summary["model"] == name]
            x = rows["threshold"].to_numpy(dtype=float)
            tint = QColor(colour(i))
            self._lines[i].setData(x, rows["mean_net_benefit"].to_numpy(dtype=float),
                                   pen=pg.mkPen(tint, width=2))
            low, high = self._edges[i]
            low.setData(x, rows["band_low"].to_numpy(dtype=float))
            high.setData(x, rows["band_high"].to_numpy(dtype=float))
            pale = QColor(tint)
            pale.setAlpha(45)
            self._bands[i].setBrush(pg.mkBrush(pale))
            edge = QColor(tint)
            edge.setAlpha(90)
            for item in self._edges[i]:
                item.setPen(pg.mkPen(edge, width=1))
            self._lines[i].setVisible(True)
            self.legend.addItem(self._lines[i], escape(name))
        for i in range(len(models), len(self._lines)):
            self._lines[i].setData([], [])
            for edge in self._edges[i]:
                edge.setData([], [])
        for name, item in self.references.items():
            rows = summary[summary["model"] == name]
            item.setData(rows["threshold"].to_numpy(dtype=float),
                         rows["mean_net_benefit"].to_numpy(dtype=float))
            self.legend.addItem(item, escape(name))
        label = f"threshold probability of class “{escape(positive_class)}”"
        self.plot.setLabel("bottom", "")
        self.pair_plot.setLabel("bottom", label)
        self.title.setText("<b>Decision curve: net benefit of treating when "
                           f"P(“{escape(positive_class)}”) ≥ threshold</b>")
        self._set_y_range(summary)

    def _set_y_range(self, summary) -> None:
        """From a little below 0 to a little above the best mean (treat all dives far below
        0 at high thresholds; drawing all of it would flatten every model's curve)."""
        values = summary["mean_net_benefit"].to_numpy(dtype=float)
        top = float(np.nanmax(values)) if len(values) else 1.0
        top = top if top > 0 else 0.1
        self.plot.setYRange(-0.15 * top, 1.08 * top, padding=0)

    def set_threshold_range(self, low: float, high: float) -> None:
        """Show only the thresholds a decision maker would use."""
        self.plot.setXRange(low, high, padding=0.01)

    def show_pair(self, pair: pd.DataFrame, model_1: str, model_2: str) -> None:
        """The probability (``p_more_benefit``) that ``model_1`` beats ``model_2``."""
        self._pair = pair
        self.pair_line.setData(pair["threshold"].to_numpy(dtype=float),
                               pair["p_more_benefit"].to_numpy(dtype=float))
        self.pair_plot.setTitle(f"<span style='font-size:9pt'>P({escape(model_1)} gives more "
                                f"net benefit than {escape(model_2)}): paired bootstrap of "
                                "rows</span>")

    def clear_pair(self) -> None:
        self._pair = pd.DataFrame()
        self.pair_line.setData([], [])
        self.pair_plot.setTitle("")

    # -- reading
    def drawn_lines(self) -> dict:
        """``{model: (threshold, mean net benefit)}`` as drawn, references included."""
        drawn = {name: tuple(np.asarray(v) for v in self._lines[i].getData())
                 for i, name in enumerate(self._models)}
        for name, item in self.references.items():
            drawn[name] = tuple(np.asarray(v) for v in item.getData())
        return drawn

    def drawn_band(self, model: str) -> tuple:
        low, high = self._edges[self._models.index(model)]
        return np.asarray(low.getData()[1]), np.asarray(high.getData()[1])

    def describe_point(self, x: float, y: float) -> str:
        if self._summary.empty or not 0 < x < 1:
            return ""
        t = float(np.clip(np.round(x, 2), 0.01, 0.99))
        rows = self._summary[np.isclose(self._summary["threshold"], t)]
        parts = [f"{row.model} {row.mean_net_benefit:.3f}" for row in rows.itertuples()]
        text = f"threshold {t:.2f}: net benefit " + ", ".join(parts)
        if not self._pair.empty:
            pair = self._pair[np.isclose(self._pair["threshold"], t)]
            if len(pair):
                text += f"; P(first of pair gives more) {pair['p_more_benefit'].iloc[0]:.2f}"
        return text
