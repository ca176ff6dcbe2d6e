"""Rows per class as a bar chart (one BarGraphItem, updated in place)."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from ..plain_text import plain_label
from .bar_labels import label_bars
from .plot_panel import PlotPanel, colour


class PlotHint:
    """A grey sentence shown instead of the plot while there is nothing to draw."""

    def __init__(self, panel: PlotPanel, text: str):
        self.panel = panel
        self.label = plain_label(text, panel)
        self.label.setAlignment(Qt.AlignCenter)
        self.label.setWordWrap(True)
        self.label.setStyleSheet("color: #777; font-size: 11pt; background: white; "
                                 "border: 1px solid #ddd;")
        panel.layout().addWidget(self.label, 1)
        self.show(text)

    def show(self, text: str) -> None:
        self.label.setText(text)
        self.label.setVisible(True)
        self.panel.plot_widget.setVisible(False)
        self.panel.save_button.setEnabled(False)

    def hide(self) -> None:
        self.label.setVisible(False)
        self.panel.plot_widget.setVisible(True)
        self.panel.save_button.setEnabled(True)


class ClassCountsPlot(PlotPanel):
    """How many rows each class has; the hover read-out gives the count and share."""

    def __init__(self, parent=None):
        super().__init__("Rows per class", "class_counts.png", parent, x_label="class",
                         y_label="rows", legend=False)
        self.bars = pg.BarGraphItem(x=[], height=[], width=0.6)
        self.plot.addItem(self.bars)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self._labels: list = []
        self._counts = np.zeros(0)
        self.hint = PlotHint(self, "Load a data set to see how many rows each class has.")
        self.tick_labels: list = []
        self.plot.vb.sigResized.connect(lambda *_: self._label_bars())

    def set_counts(self, labels, counts) -> None:
        """Draw one bar per class label."""
        self._labels = [str(label) for label in labels]
        self._counts = np.asarray(counts, dtype=float)
        if not self._labels:
            self.hint.show("Load a data set to see how many rows each class has.")
            return
        x = np.arange(len(self._labels))
        self.bars.setOpts(x=x, height=self._counts, width=0.6,
                          brushes=[pg.mkBrush(colour(i)) for i in x], pens=[pg.mkPen(None)] * len(x))
        self.plot.setXRange(-0.6, len(x) - 0.4, padding=0)
        self._label_bars()
        self.plot.setYRange(0, max(self._counts.max(), 1) * 1.08, padding=0)
        self.hint.hide()

    def _label_bars(self) -> None:
        self.tick_labels = label_bars(self, self._labels)

    def describe_point(self, x: float, y: float) -> str:
        i = int(round(x))
        if not 0 <= i < len(self._labels):
            return ""
        share = 100.0 * self._counts[i] / max(self._counts.sum(), 1)
        return f"class {self._labels[i]}: {int(self._counts[i]):,} rows ({share:.1f} %)"
