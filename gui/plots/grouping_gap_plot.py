"""The grouping gap as bars: each model's mean score with ordinary folds (groups ignored)
beside its mean with the rows of each group kept together (``engine.runs.grouping_gap``)."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from engine.foundation.columns import MODEL

from ..plain_text import rich_label
from .bar_labels import label_bars
from .class_counts_plot import PlotHint
from .plot_panel import PlotPanel

#: (label, colour) of the two bars of a model: ungrouped light, grouped strong.
SERIES = (("ordinary folds (groups ignored)", "#E69F00"),
          ("rows of a group kept together", "#0072B2"))
EMPTY = "No grouping gap in this result."


class GroupingGapPlot(PlotPanel):
    """Two bars per model; the hover read-out gives both means and the gap."""

    def __init__(self, parent=None):
        super().__init__("Mean score with and without groups", "grouping_gap.png", parent,
                         x_label="model", y_label="mean score", legend=False)
        self.bars = [pg.BarGraphItem(x=[], height=[], width=0.38, brush=pg.mkBrush(colour),
                                     pen=pg.mkPen(None)) for _, colour in SERIES]
        key = rich_label(" &nbsp; ".join(f"<span style='color:{colour}'>■</span>&nbsp;{label}"
                                         for label, colour in SERIES), self)
        key.setTextFormat(Qt.RichText)
        self.insert_above_plot(key)     # above the bars: it never covers one
        for bar in self.bars:
            self.plot.addItem(bar)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self._rows = None
        self.hint = PlotHint(self, EMPTY)
        self.tick_labels: list = []
        self.plot.vb.sigResized.connect(lambda *_: self._label_bars())

    def _label_bars(self) -> None:
        models = [] if self._rows is None else [str(m) for m in self._rows[MODEL]]
        self.tick_labels = label_bars(self, models)

    def set_gap(self, table, metric: str, metric_name: str) -> None:
        """Draw ``table``'s rows of ``metric`` (a ``grouping_gap.csv`` table)."""
        rows = table[table["metric"] == metric].reset_index(drop=True)
        self._rows = rows
        if rows.empty:
            self.hint.show(EMPTY)
            return
        x = np.arange(len(rows))
        ungrouped = rows["ungrouped_mean"].to_numpy(dtype=float)
        grouped = rows["grouped_mean"].to_numpy(dtype=float)
        self.bars[0].setOpts(x=x - 0.2, height=np.nan_to_num(ungrouped), width=0.38)
        self.bars[1].setOpts(x=x + 0.2, height=np.nan_to_num(grouped), width=0.38)
        self.plot.setLabel("left", f"mean {metric_name}")
        values = np.concatenate([ungrouped, grouped])
        values = values[np.isfinite(values)]
        low = min(0.0, float(values.min())) if len(values) else 0.0
        high = max(1.0, float(values.max())) if len(values) else 1.0
        self.plot.setXRange(-0.6, len(x) - 0.4, padding=0)
        self.plot.setYRange(low, high * 1.04 if high > 0 else high, padding=0)
        self._label_bars()
        self.title.setText(f"<b>Mean score with and without groups: {metric_name}</b>")
        self.hint.hide()

    def drawn_heights(self) -> dict:
        """``{series label: bar heights}`` as drawn (for tests)."""
        return {label: list(np.asarray(bar.opts["height"], dtype=float))
                for (label, _), bar in zip(SERIES, self.bars)}

    def describe_point(self, x: float, y: float) -> str:
        rows, i = self._rows, int(round(x))
        if rows is None or not 0 <= i < len(rows):
            return ""
        row = rows.iloc[i]
        return (f"{row['model']}: {row['ungrouped_mean']:.3f} without groups, "
                f"{row['grouped_mean']:.3f} with them (gap {row['gap']:+.3f})")
