"""Two features against each other, one colour per class (items reused between data sets)."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from ..plain_text import escape
from ..render_queue import NEXT_TURN, draw_now
from .class_counts_plot import PlotHint
from .plot_panel import PlotPanel, colour, legend_above

#: Points styled in one turn of the event loop (see :meth:`FeatureScatterPlot.drawing_points`).
POINTS_PER_TURN = 2000
SYMBOLS = ("o", "s", "t", "d", "+", "x", "star", "p", "h", "t1")


class FeatureScatterPlot(PlotPanel):
    """Scatter of feature x against feature y, coloured by class, with a class legend."""

    def __init__(self, parent=None):
        super().__init__("Two features", "feature_scatter.png", parent, x_label="feature",
                         y_label="feature", legend=False)
        legend_above(self)      # the classes' legend never hides points
        self.legend.setColumnCount(4)
        self._items: list = []
        self.hint = PlotHint(self, "Load a data set with at least two numeric columns to see "
                             "how the classes spread over two features.")

    def _item(self, i: int) -> pg.ScatterPlotItem:
        while len(self._items) <= i:
            k = len(self._items)
            item = pg.ScatterPlotItem(size=6, pen=pg.mkPen(None), symbol=SYMBOLS[k % len(SYMBOLS)],
                                      brush=pg.mkBrush(pg.mkColor(colour(k)).lighter(105)))
            item.setOpacity(0.75)
            self.plot.addItem(item)
            self._items.append(item)
        return self._items[i]

    def set_points(self, x, y, codes, class_labels, x_name: str, y_name: str) -> None:
        """Draw points (x[i], y[i]) of class ``class_labels[codes[i]]``."""
        draw_now(self.drawing_points(x, y, codes, class_labels, x_name, y_name))

    def drawing_points(self, x, y, codes, class_labels, x_name: str, y_name: str):
        """:meth:`set_points` as a drawing for the render queue (gui/render_queue.py): at
        most :data:`POINTS_PER_TURN` points a turn (pyqtgraph styles each point in Python,
        ~3 us a point: the 5,000 points of a large file's sample held the window ~20 ms)."""
        self.legend.clear()
        x, y, codes = np.asarray(x, float), np.asarray(y, float), np.asarray(codes)
        finite = np.isfinite(x) & np.isfinite(y)          # rows with a missing value are left out
        x, y, codes = x[finite], y[finite], codes[finite]
        for k, label in enumerate(class_labels):
            mask = codes == k
            item = self._item(k)
            xs, ys = x[mask], y[mask]
            item.setData(xs[:POINTS_PER_TURN], ys[:POINTS_PER_TURN])
            for start in range(POINTS_PER_TURN, len(xs), POINTS_PER_TURN):
                yield NEXT_TURN
                item.addPoints(xs[start:start + POINTS_PER_TURN],
                               ys[start:start + POINTS_PER_TURN])
            item.setVisible(True)
            self.legend.addItem(item, escape(label))
        for item in self._items[len(class_labels):]:
            item.setData([], [])
            item.setVisible(False)
        self.plot.setLabel("bottom", escape(x_name))
        self.plot.setLabel("left", escape(y_name))
        self.plot.enableAutoRange()
        self.hint.hide()

    def points_shown(self) -> int:
        """How many points are drawn (every class)."""
        return sum(len(item.data) for item in self._items if item.isVisible())

    def clear_points(self, hint: str) -> None:
        for item in self._items:
            item.setData([], [])
        self.legend.clear()
        self.hint.show(hint)
