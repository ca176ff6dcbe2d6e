"""A plot line with a shaded band around it, created once and then updated with setData
(the decision and learning curves: one per model)."""
from __future__ import annotations

import pyqtgraph as pg


def add_banded_line(plot) -> tuple:
    """Add a band and a line on top of it to ``plot``; returns ``(line, band, (low,
    high))`` where ``low`` and ``high`` are the band's edges (set their data to move it).
    The band is shown and hidden with its line (e.g. from the legend)."""
    # edges need a pen: a PlotDataItem without one keeps no path for the fill
    low, high = (pg.PlotDataItem(pen=pg.mkPen(0, 0, 0, 0)),
                 pg.PlotDataItem(pen=pg.mkPen(0, 0, 0, 0)))
    band = pg.FillBetweenItem(low, high, brush=pg.mkBrush(0, 0, 0, 0))
    line = pg.PlotDataItem()
    plot.addItem(band)
    plot.addItem(line)
    line.visibleChanged.connect(lambda: band.setVisible(line.isVisible()))
    return line, band, (low, high)
