"""The held-out score beside the cross-validated estimate: per model two points with their
intervals (``test_scores.csv``): the CV mean with its corrected-t interval, and the score
on the test file with its bootstrap interval."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from ..plain_text import rich_label
from .bar_labels import label_bars
from .class_counts_plot import PlotHint
from .plot_panel import PlotPanel

#: (label, colour, offset on the x axis) of the two estimates of a model.
SERIES = (("cross-validated estimate (corrected-t interval)", "#E69F00", -0.15),
          ("held-out test file (bootstrap interval)", "#0072B2", 0.15))
EMPTY = "No held-out test in this result."


class HeldoutPlot(PlotPanel):
    """Two points with interval bars per model; the hover read-out gives the numbers."""

    def __init__(self, parent=None):
        super().__init__("Held-out score and CV estimate", "heldout.png", parent,
                         x_label="model", y_label="score", legend=False)
        key = rich_label(" &nbsp; ".join(f"<span style='color:{colour}'>●</span>&nbsp;{label}"
                                         for label, colour, _ in SERIES), self)
        key.setTextFormat(Qt.RichText)
        self.insert_above_plot(key)
        self.bars = [pg.ErrorBarItem(x=np.zeros(0), y=np.zeros(0), height=np.zeros(0),
                                     beam=0.08, pen=pg.mkPen(colour, width=2))
                     for _, colour, _ in SERIES]
        self.points = [pg.ScatterPlotItem(size=10, brush=pg.mkBrush(colour), pen=pg.mkPen(None))
                       for _, colour, _ in SERIES]
        for item in (*self.bars, *self.points):
            self.plot.addItem(item)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self._rows = None
        self.hint = PlotHint(self, EMPTY)
        self.tick_labels: list = []
        self.plot.vb.sigResized.connect(lambda *_: self._label_models())

    def _label_models(self) -> None:
        models = [] if self._rows is None else [str(m) for m in self._rows["model"]]
        self.tick_labels = label_bars(self, models)

    def set_scores(self, rows, metric_name: str) -> None:
        """Draw ``rows``: one row per model of ``test_scores.csv`` (one metric, bootstrap)."""
        rows = rows.reset_index(drop=True)
        self._rows = rows
        if rows.empty:
            self.hint.show(EMPTY)
            return
        x = np.arange(len(rows), dtype=float)
        columns = (("cv_mean", "cv_ci_low", "cv_ci_high"), ("score", "ci_low", "ci_high"))
        values = []
        for (centre, low, high), bar, points, (_, _, shift) in zip(columns, self.bars,
                                                                    self.points, SERIES):
            y, lo, hi = (rows[c].to_numpy(dtype=float) for c in (centre, low, high))
            shown = np.isfinite(y)
            points.setData(x=x[shown] + shift, y=y[shown])
            whole = shown & np.isfinite(lo) & np.isfinite(hi)
            bar.setData(x=x[whole] + shift, y=(lo[whole] + hi[whole]) / 2,
                        height=hi[whole] - lo[whole])
            values += [y[shown], lo[whole], hi[whole]]
        values = np.concatenate(values)
        if len(values):
            low, high = float(values.min()), float(values.max())
            pad = max(0.02, 0.08 * (high - low))
            self.plot.setYRange(low - pad, high + pad, padding=0)
        self.plot.setXRange(-0.6, len(x) - 0.4, padding=0)
        self.plot.setLabel("left", metric_name)
        self._label_models()
        self.title.setText(f"<b>Held-out score and CV estimate: {metric_name}</b>")
        self.hint.hide()

    def drawn_points(self) -> dict:
        """``{series label: (x, y)}`` as drawn (for tests)."""
        return {label: tuple(list(map(float, a)) for a in points.getData())
                for (label, _, _), points in zip(SERIES, self.points)}

    def describe_point(self, x: float, y: float) -> str:
        rows, i = self._rows, int(round(x))
        if rows is None or not 0 <= i < len(rows):
            return ""
        row = rows.iloc[i]
        return (f"{row['model']}: held-out {row['score']:.3f} "
                f"({row['ci_low']:.3f} to {row['ci_high']:.3f}), CV {row['cv_mean']:.3f} "
                f"({row['cv_ci_low']:.3f} to {row['cv_ci_high']:.3f})")
