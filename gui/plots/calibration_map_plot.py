"""The deployable calibration map as a step function: every bucket of uncalibrated
probability (bucket_low .. bucket_high on x) is replaced by one calibrated probability (y).
Flat stretches are buckets the fit pooled; the dashed diagonal means "no change".
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pyqtgraph as pg
from PySide6.QtCore import Qt

from engine.foundation.columns import METHOD, MODEL

from .plot_panel import PlotPanel, legend_above
from .reliability_plot import (fill_legend, legend_entries, ordered_series,
                               series_label, series_pen)


def step_points(table: pd.DataFrame) -> tuple:
    """(edges, values) for a ``stepMode="center"`` curve from map rows in bucket order."""
    table = table.sort_values("bucket_low", kind="mergesort")
    low = table["bucket_low"].to_numpy(dtype=float)
    if not low.size:
        return np.array([]), np.array([])
    edges = np.append(low, float(table["bucket_high"].iloc[-1]))
    return edges, table["calibrated"].to_numpy(dtype=float)


class CalibrationMapPlot(PlotPanel):
    """One step line per (model, method) map, over the diagonal."""

    def __init__(self, parent=None):
        super().__init__("Calibration map (lookup table)", "calibration_map.png", parent,
                         x_label="uncalibrated probability (the model's output)",
                         y_label="calibrated probability", legend=False)
        legend_above(self)
        self.diagonal = pg.PlotDataItem([0, 1], [0, 1],
                                        pen=pg.mkPen("#888", width=1, style=Qt.DashLine))
        self.plot.addItem(self.diagonal)
        self.plot.setLimits(xMin=-0.05, xMax=1.05, yMin=-0.05, yMax=1.05)
        self.plot_widget.setToolTip("To calibrate a new prediction, find its bucket on the "
                                    "x axis and read the calibrated probability off the line.")
        self._steps: list = []
        self._tables: list = []     # (model, method, table sorted by bucket)
        self._labels: list = []

    def show_maps(self, table: pd.DataFrame, models: list) -> None:
        """The maps of ``models`` from the engine's ``map`` table (one class)."""
        series = ordered_series(table, models) if len(table) else []
        self._tables = []
        while len(self._steps) < len(series):
            step = pg.PlotDataItem(stepMode="center")
            self.plot.addItem(step)
            self._steps.append(step)
        for step, (model, method) in zip(self._steps, series):
            rows = table[(table[MODEL].astype(str) == model)
                         & (table[METHOD].astype(str) == method)]
            rows = rows.sort_values("bucket_low", kind="mergesort").reset_index(drop=True)
            self._tables.append((model, method, rows))
            edges, values = step_points(rows)
            step.setData(edges, values, stepMode="center", pen=series_pen(models, model, method))
        for step in self._steps[len(series):]:
            step.setData([], [])
        labels = [series_label(models, model, method) for model, method in series]
        if labels != self._labels:
            self._labels = labels
            fill_legend(self.legend, legend_entries(models, series, self._steps), self.diagonal,
                        "no change")
        self.plot.setRange(xRange=(0, 1), yRange=(0, 1), padding=0.03)

    def drawn_maps(self) -> dict:
        """``{(model, method): map rows in bucket order}`` of the step lines drawn."""
        return {(model, method): rows for model, method, rows in self._tables}

    def describe_point(self, x: float, y: float) -> str:
        """The calibrated value of every shown map at the mouse's uncalibrated probability."""
        if not 0 <= x <= 1 or not self._tables:
            return ""
        models = list(dict.fromkeys(model for model, _, _ in self._tables))
        parts, bucket = [], ""
        for model, method, rows in self._tables:
            index = int(np.searchsorted(rows["bucket_low"].to_numpy(), x, side="right")) - 1
            if not 0 <= index < len(rows):
                continue
            row = rows.iloc[index]
            parts.append(f"{series_label(models, model, method)} → {row['calibrated']:.3f}")
            bucket = (f"bucket {row['bucket_low']:.3g}–{row['bucket_high']:.3g} "
                      f"({int(row['count'])} predictions)")
        if len(models) > 1:
            bucket = f"uncalibrated {x:.3f}"
        return f"{bucket}: " + ", ".join(parts) if parts else ""
