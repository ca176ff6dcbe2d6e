"""The reliability diagram: for each bin of predicted probability, the mean prediction (x)
against the share of rows that really were positive (y). A calibrated model sits on the
diagonal. Beneath it, linked on x, a histogram of the predicted probabilities shows where
the predictions are (a diagram point resting on 3 rows says little). Each point carries
the 95% Jeffreys interval of its observed frequency as an error bar (the engine's
``ci_low``/``ci_high``, counting each row once however many repeats were pooled).

Series are (model, method) pairs: for one model the colour tells the method; for several
models the colour tells the model and the line style the method.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from engine.evaluation.calibration import CURVE_COLUMNS, VARIANTS
from engine.foundation.columns import METHOD, MODEL

from ..plain_text import escape
from .plot_panel import PlotPanel, colour, legend_above, light_grid, plain_axes

METHOD_ORDER = VARIANTS                       # the engine's order: uncalibrated first
METHOD_SYMBOLS = {"uncalibrated": "o", "isotonic": "t", "sigmoid": "s"}
METHOD_DASH = {"uncalibrated": Qt.SolidLine, "isotonic": Qt.DashLine, "sigmoid": Qt.DotLine}
HIST_BINS = 20
MIN_SIZE, MAX_SIZE = 5.0, 16.0


def series_colour(models: list, model: str, method: str) -> str:
    """One model: colour by method; several: colour by model."""
    if len(models) == 1:
        return colour(METHOD_ORDER.index(method) if method in METHOD_ORDER else 3)
    return colour(models.index(model))


def series_pen(models: list, model: str, method: str, width: float = 2.0):
    dash = Qt.SolidLine if len(models) == 1 else METHOD_DASH.get(method, Qt.SolidLine)
    return pg.mkPen(series_colour(models, model, method), width=width, style=dash)


def series_label(models: list, model: str, method: str) -> str:
    return method if len(models) == 1 else f"{model} · {method}"


def ordered_series(frame: pd.DataFrame, models: list) -> list:
    """``[(model, method)]`` present in ``frame``, models in the given order, methods in
    the usual order (uncalibrated first)."""
    present = set(zip(frame[MODEL].astype(str), frame[METHOD].astype(str)))
    methods = list(METHOD_ORDER) + sorted({m for _, m in present} - set(METHOD_ORDER))
    return [(model, method) for model in models for method in methods
            if (model, method) in present]


def legend_entries(models: list, series: list, items: list) -> list:
    """``[(item, label)]``: one model: its series by method; several: a swatch per model
    (colour) and per method (line style), legend-only items, so the legend stays short."""
    if len(models) == 1:
        return [(item, method) for item, (_, method) in zip(items, series)]
    methods = list(dict.fromkeys(method for _, method in series))
    entries = [(pg.PlotDataItem(pen=pg.mkPen(colour(i), width=3)), model)
               for i, model in enumerate(models)]
    entries += [(pg.PlotDataItem(pen=pg.mkPen("#555", width=2, style=METHOD_DASH.get(m)),
                                 symbol=METHOD_SYMBOLS.get(m, "o"), symbolSize=7,
                                 symbolBrush=pg.mkBrush("#555")), m) for m in methods]
    return entries


def fill_legend(legend: pg.LegendItem, entries: list, extra, extra_label: str,
                budget: int = 520) -> None:
    """The entries, then the reference line's, in as many columns as fit ``budget`` pixels."""
    legend.clear()
    labels = [label for _, label in entries] + [extra_label]
    widths = [45 + 7 * len(label) for label in labels]
    columns = len(labels) if sum(widths) <= budget else max(1, budget // max(widths))
    legend.setColumnCount(columns)
    for item, label in entries:
        item.setVisible(True)
        legend.addItem(item, escape(label))
    legend.addItem(extra, extra_label)


def point_sizes(counts: np.ndarray) -> np.ndarray:
    """Marker sizes growing with the square root of the bin's count."""
    counts = np.asarray(counts, dtype=float)
    if not counts.size or counts.max() <= 0:
        return np.full(counts.shape, MIN_SIZE)
    return MIN_SIZE + (MAX_SIZE - MIN_SIZE) * np.sqrt(counts / counts.max())


class ReliabilityPlot(PlotPanel):
    """Reliability diagram over a histogram of the predicted probabilities."""

    def __init__(self, parent=None):
        super().__init__("Reliability diagram", "reliability_diagram.png", parent,
                         x_label="mean predicted probability", y_label="fraction of positives",
                         legend=False)
        self._stack_histogram()
        self.diagonal = pg.PlotDataItem([0, 1], [0, 1],
                                        pen=pg.mkPen("#888", width=1, style=Qt.DashLine))
        self.plot.addItem(self.diagonal)
        self.plot_widget.setToolTip("Points on the dashed diagonal are perfectly calibrated: "
                                    "of the rows predicted at 30%, 30% were positive. Bigger "
                                    "points hold more predictions. Click a legend swatch to "
                                    "hide or show a line.")
        self._curves: list = []
        self._errors: list = []
        self._bars: list = []
        self._series: list = []       # (model, method, diagram frame, histogram counts)
        self._labels: list = []
        self._edges = np.linspace(0.0, 1.0, HIST_BINS + 1)
        self.clear()

    def _stack_histogram(self) -> None:
        """Put the histogram under the diagram in the same scene (saved as one image)."""
        layout = legend_above(self)
        self.histogram = layout.addPlot(row=2, col=0)
        plain_axes(self.histogram)
        layout.layout.setRowStretchFactor(2, 1)
        self.histogram.setXLink(self.plot)
        self.histogram.setLabel("bottom", "predicted probability")
        self.histogram.setLabel("left", "predictions")
        light_grid(self.histogram)
        self.histogram.getAxis("left").setWidth(self.plot.getAxis("left").width())
        self.histogram.setMouseEnabled(x=True, y=False)
        for item in (self.plot, self.histogram):
            item.setLimits(xMin=-0.05, xMax=1.05, yMin=-0.05)
        self.plot.setLimits(yMax=1.05)
        self.plot.getAxis("bottom").setHeight(34)

    # -- data
    def clear(self) -> None:
        self.show_series(pd.DataFrame(columns=CURVE_COLUMNS), pd.DataFrame(), [], "")

    def show_series(self, curve: pd.DataFrame, probabilities: pd.DataFrame, models: list,
                    prob_column: str, class_name: str = "") -> None:
        """Diagrams of ``models`` (every method) from the engine's ``curve`` table (one class)
        and histograms of ``prob_column`` of the engine's ``probabilities`` table."""
        series = ordered_series(curve, models)
        self._series = [self._series_data(curve, probabilities, model, method, prob_column)
                        for model, method in series]
        self._ensure_items(len(series))
        for i, (model, method, diagram, counts) in enumerate(self._series):
            self._draw(i, models, model, method, diagram, counts)
        for curve_item, bars, errors in zip(self._curves[len(series):],
                                            self._bars[len(series):],
                                            self._errors[len(series):]):
            curve_item.setData([], [])
            bars.setData([], [])
            errors.setData(x=np.zeros(0), y=np.zeros(0), top=np.zeros(0), bottom=np.zeros(0))
        labels = [series_label(models, m, method) for m, method, _, _ in self._series]
        if labels != self._labels:
            self._labels = labels
            pairs = [(model, method) for model, method, _, _ in self._series]
            fill_legend(self.legend, legend_entries(models, pairs, self._curves), self.diagonal,
                        "perfectly calibrated")
        title = "Reliability diagram" + (f" (probability of class “{class_name}”)"
                                         if class_name else "")
        self.title.setText(f"<b>{escape(title)}</b>")
        self.plot.setRange(xRange=(0, 1), yRange=(0, 1), padding=0.03)
        self.histogram.enableAutoRange(axis="y")

    def _series_data(self, curve, probabilities, model, method, prob_column) -> tuple:
        diagram = curve[(curve[MODEL].astype(str) == model)
                        & (curve[METHOD].astype(str) == method)]
        counts = np.zeros(HIST_BINS)
        if prob_column and prob_column in probabilities.columns:
            rows = probabilities[(probabilities[MODEL].astype(str) == model)
                                 & (probabilities[METHOD].astype(str) == method)]
            counts = np.histogram(np.clip(rows[prob_column].to_numpy(dtype=float), 0, 1),
                                  bins=self._edges)[0]
        return model, method, diagram.reset_index(drop=True), counts

    def _ensure_items(self, count: int) -> None:
        while len(self._curves) < count:
            errors = pg.ErrorBarItem(x=np.zeros(0), y=np.zeros(0), beam=0.012)
            self.plot.addItem(errors)
            self._errors.append(errors)
            curve = pg.PlotDataItem()
            self.plot.addItem(curve)
            curve.visibleChanged.connect(lambda c=curve, e=errors: e.setVisible(c.isVisible()))
            self._curves.append(curve)
            bars = pg.PlotDataItem(stepMode="center")
            self.histogram.addItem(bars)
            self._bars.append(bars)

    def _draw(self, i, models, model, method, diagram, counts) -> None:
        pen = series_pen(models, model, method)
        tint = QColor(series_colour(models, model, method))
        self._curves[i].setData(diagram["mean_predicted"].to_numpy(dtype=float),
                                diagram["fraction_positive"].to_numpy(dtype=float),
                                pen=pen, symbol=METHOD_SYMBOLS.get(method, "o"),
                                symbolSize=point_sizes(diagram["count"].to_numpy()),
                                symbolBrush=pg.mkBrush(tint), symbolPen=pg.mkPen("w"))
        self._draw_errors(i, diagram, tint)
        fill = QColor(tint)
        fill.setAlpha(50 if method == "uncalibrated" else 0)
        self._bars[i].setData(self._edges, counts, stepMode="center", pen=pen,
                              fillLevel=0 if method == "uncalibrated" else None,
                              brush=pg.mkBrush(fill))

    def _draw_errors(self, i, diagram, tint) -> None:
        """The observed frequency's interval as an error bar (none without the columns)."""
        x = diagram["mean_predicted"].to_numpy(dtype=float)
        y = diagram["fraction_positive"].to_numpy(dtype=float)
        if {"ci_low", "ci_high"} <= set(diagram.columns):
            top = diagram["ci_high"].to_numpy(dtype=float) - y
            bottom = y - diagram["ci_low"].to_numpy(dtype=float)
        else:
            x = y = top = bottom = np.zeros(0)
        pale = QColor(tint)
        pale.setAlpha(150)
        self._errors[i].setData(x=x, y=y, top=top, bottom=bottom, pen=pg.mkPen(pale, width=1.5))

    def drawn_bands(self) -> dict:
        """``{(model, method): (x, low, high)}``: the error bars drawn."""
        bands = {}
        for (model, method, _, _), errors in zip(self._series, self._errors):
            opts = errors.opts
            x, y = np.asarray(opts["x"]), np.asarray(opts["y"])
            bands[(model, method)] = (x, y - np.asarray(opts["bottom"]),
                                      y + np.asarray(opts["top"]))
        return bands

    def drawn_series(self) -> dict:
        """``{(model, method): (x, y)}``: the points of every diagram line drawn, in legend
        order (mean predicted probability, fraction of positives)."""
        return {(model, method): tuple(np.asarray(v) for v in curve.getData())
                for (model, method, _, _), curve in zip(self._series, self._curves)}

    # -- hover read-out
    def on_mouse_moved(self, event) -> None:
        position = event[0]
        if self.histogram.sceneBoundingRect().contains(position):
            point = self.histogram.vb.mapSceneToView(position)
            self.readout.setText(self.describe_bin(point.x()))
            return
        super().on_mouse_moved(event)

    def describe_point(self, x: float, y: float) -> str:
        """The diagram point nearest the mouse, or what the diagonal means there."""
        best, best_distance = None, 0.04
        for i, (model, method, diagram, _) in enumerate(self._series):
            if not self._curves[i].isVisible() or diagram.empty:
                continue
            distance = np.hypot(diagram["mean_predicted"] - x, diagram["fraction_positive"] - y)
            row = int(np.argmin(distance.to_numpy()))
            if distance.iloc[row] < best_distance:
                best, best_distance = (model, method, diagram.iloc[row]), distance.iloc[row]
        if best is None:
            if 0 <= x <= 1:
                return f"a calibrated model predicting {x:.0%} is right {x:.0%} of the time"
            return ""
        model, method, row = best
        band = (f", 95% interval {row['ci_low']:.3f}–{row['ci_high']:.3f}"
                if "ci_low" in row.index and np.isfinite(row["ci_low"]) else "")
        return (f"{model} · {method}: bin {row['bin_low']:.2f}–{row['bin_high']:.2f}, "
                f"mean predicted {row['mean_predicted']:.3f}, observed "
                f"{row['fraction_positive']:.3f}{band} ({int(row['count'])} predictions)")

    def describe_bin(self, x: float) -> str:
        index = int(np.searchsorted(self._edges, x, side="right")) - 1
        if not 0 <= index < HIST_BINS or not self._series:
            return ""
        models = list(dict.fromkeys(model for model, *_ in self._series))
        counts = ", ".join(f"{series_label(models, model, method)} {int(counts[index])}"
                           for model, method, _, counts in self._series)
        return (f"predicted {self._edges[index]:.2f}–{self._edges[index + 1]:.2f}: "
                f"{counts} predictions")
