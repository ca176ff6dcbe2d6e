"""The ALO curve: approximate leave-one-out log-likelihood against C (log scale), exact
leave-one-out beside it when computed, and the best C marked by a line, a point and a label.

Items are created once; :meth:`AloocvPlot.show_curve` updates them with ``setData``.
With ``setLogMode(x=True)`` the curves take C itself, while the vertical line and the
label live in view coordinates (log10 C).
"""
from __future__ import annotations

import math
from typing import Optional

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from ..plain_text import escape
from .plot_panel import PlotPanel, colour, legend_above, light_grid, plain_axes

X_LABEL = "C (inverse regularization strength, log scale)"
Y_LABEL = "leave-one-out log-likelihood"
ALO_NAME = "ALO (approximate leave-one-out)"
LOO_NAME = "exact leave-one-out"
UNRELIABLE_NAME = "ALO unreliable here (off the scale)"
BEST = colour(2)


def format_C(C: float) -> str:
    """C as the user reads it: three significant digits."""
    return f"{C:.3g}"


class AloocvPlot(PlotPanel):
    """ALO (and exact LOO) log-likelihood of one model over C, with the optimum marked."""

    def __init__(self, parent=None):
        super().__init__("ALO curve", "aloocv_curve.png", parent, x_label=X_LABEL,
                         y_label=Y_LABEL, legend=False)
        legend_above(self)      # never over the curve
        self.legend.setColumnCount(2)
        self.plot.setAxisItems({"bottom": CAxis(orientation="bottom")})
        plain_axes(self.plot)
        self.plot.setLabel("bottom", X_LABEL)
        self.plot.setLogMode(x=True, y=False)
        light_grid(self.plot)
        self.alo_item = self.plot.plot([], [], name=ALO_NAME,
                                       pen=pg.mkPen(colour(0), width=2), symbol="x",
                                       symbolSize=7, symbolPen=pg.mkPen(colour(0)),
                                       symbolBrush=colour(0))
        self.loo_item = self.plot.plot([], [], name=LOO_NAME,
                                       pen=pg.mkPen(colour(1), width=2, style=Qt.DashLine),
                                       symbol="o", symbolSize=6, symbolPen=pg.mkPen(colour(1)),
                                       symbolBrush=pg.mkBrush("w"))
        # points where ALO is unreliable: drawn apart, left out of the plot's scale
        self.unreliable_item = pg.PlotDataItem([], [], pen=None, symbol="x", symbolSize=9,
                                               symbolPen=pg.mkPen("#c00", width=1.5),
                                               name=UNRELIABLE_NAME)
        self.plot.addItem(self.unreliable_item, ignoreBounds=True)
        self.best_point = self.plot.plot([], [], name="best C (highest ALO)", pen=None,
                                         symbol="o", symbolSize=12,
                                         symbolPen=pg.mkPen("#222", width=1.5),
                                         symbolBrush=BEST)
        self.best_line = pg.InfiniteLine(angle=90, movable=False,
                                         pen=pg.mkPen(BEST, width=1.5, style=Qt.DashLine))
        self.best_label = pg.TextItem("", color="#114d3a", anchor=(0, 1.1))
        self.best_label.setFont(_bold_font())
        self.placeholder = pg.TextItem("No curve yet: press “Compute ALO curve” above.",
                                       color="#777", anchor=(0.5, 0.5))
        for item in (self.best_line, self.best_label, self.placeholder):
            self.plot.addItem(item, ignoreBounds=True)
        self._C = np.empty(0)
        self._alo = np.empty(0)
        self._loo = np.empty(0)
        self.optimum_C: Optional[float] = None
        self._cleared = False            # True while no curve is shown (see clear_curve)
        self.clear_curve()

    # ------------------------------------------------------------------ data
    def show_curve(self, C, alo, loo=None, best_C: Optional[float] = None,
                   best_value: Optional[float] = None, reliable=None) -> None:
        """Draw one model's curve; ``loo`` may be all NaN (not computed).

        Points where ``reliable`` is False are drawn as red crosses, apart from the
        line and outside the plot's automatic scale, so one extreme value cannot
        flatten the rest of the curve.
        """
        self._cleared = False
        self._C = np.asarray(C, dtype=float)
        self._alo = np.asarray(alo, dtype=float)
        self._loo = (np.full(len(self._C), np.nan) if loo is None
                     else np.asarray(loo, dtype=float))
        good = (np.ones(len(self._C), dtype=bool) if reliable is None
                else np.asarray(reliable, dtype=bool))
        self.alo_item.setData(self._C, np.where(good, self._alo, np.nan), connect="finite")
        self.unreliable_item.setData(self._C[~good], self._alo[~good])
        self._set_legend_entry(self.alo_item, ALO_NAME, True)
        self._set_legend_entry(self.unreliable_item, UNRELIABLE_NAME, bool((~good).any()))
        has_loo = bool(np.isfinite(self._loo).any())
        self.loo_item.setData(self._C if has_loo else [], self._loo if has_loo else [])
        self._set_legend_entry(self.loo_item, LOO_NAME, has_loo)
        self._mark_best(best_C, best_value)
        self.placeholder.setVisible(False)
        self.plot.getAxis("left").setStyle(showValues=True)
        self.readout.setText("")
        self.plot.enableAutoRange()
        self.legend.setVisible(True)

    def clear_curve(self) -> None:
        """No curve: the placeholder on a fixed range. Clearing a plot already clear does
        nothing (setting the range again costs pyqtgraph a relayout of both axes, and
        applying an experiment clears it several times)."""
        self.clear_readout()
        if self._cleared:
            return
        self._cleared = True
        self._C = self._alo = self._loo = np.empty(0)
        for item in (self.alo_item, self.loo_item, self.unreliable_item):
            item.setData([], [])
        self._set_legend_entry(self.loo_item, LOO_NAME, False)
        self._set_legend_entry(self.unreliable_item, UNRELIABLE_NAME, False)
        self._mark_best(None, None)
        self.plot.disableAutoRange()
        self.plot.setRange(xRange=(-3, 3), yRange=(0, 1), padding=0.02)
        self.placeholder.setPos(0, 0.5)
        self.placeholder.setVisible(True)
        self.plot.getAxis("left").setStyle(showValues=False)
        self.legend.setVisible(False)

    def _mark_best(self, C: Optional[float], value: Optional[float]) -> None:
        visible = C is not None and value is not None and C > 0 and math.isfinite(value)
        self.optimum_C = C if visible else None
        for item in (self.best_line, self.best_label):
            item.setVisible(visible)
        self._set_legend_entry(self.best_point, "best C (highest ALO)", visible)
        if not visible:
            self.best_point.setData([], [])
            return
        x = math.log10(C)
        self.best_point.setData([C], [value])
        self.best_line.setValue(x)
        self.best_label.setText(f"C = {format_C(C)}")
        self.best_label.setPos(x, value)
        logs = np.log10(self._C) if len(self._C) else np.array([x])
        right_half = x > 0.5 * (logs.min() + logs.max())
        self.best_label.setAnchor((1.08, 1.15) if right_half else (-0.08, 1.15))

    def _set_legend_entry(self, item, name: str, visible: bool) -> None:
        self.legend.removeItem(item)
        if visible:
            self.legend.addItem(item, escape(name))

    # ------------------------------------------------------------------ reading
    def curve_data(self) -> tuple:
        """``(C, alo, loo)`` as drawn (C in the user's scale, not log10)."""
        return self._C.copy(), self._alo.copy(), self._loo.copy()

    def describe_point(self, x: float, y: float) -> str:
        if not len(self._C):
            return ""
        C = 10.0 ** x
        j = int(np.argmin(np.abs(np.log10(self._C) - x)))
        text = (f"C ≈ {format_C(C)} · nearest computed C = {self._C[j]:.4g}: "
                f"ALO {self._alo[j]:.2f}")
        if math.isfinite(self._loo[j]):
            text += f", exact LOO {self._loo[j]:.2f}"
        return text


class CAxis(pg.AxisItem):
    """The log-C axis labelled with plain numbers (0.001 … 1000), no SI prefix."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.enableAutoSIPrefix(False)

    def logTickStrings(self, values, scale, spacing):
        decades = abs(self.range[1] - self.range[0]) if self.range else 6
        strings = []
        for v in values:
            mantissa = round(10.0 ** (v - math.floor(v + 1e-9)), 6)
            wanted = mantissa == 1 or (decades < 2.5 and mantissa in (2, 5)) or decades < 0.7
            strings.append(_plain(10.0 ** v) if wanted else "")
        return strings


def _plain(value: float) -> str:
    if 1e-4 <= value < 1e6:
        return f"{value:.6g}"
    return f"{value:.0e}".replace("e+0", "e").replace("e-0", "e-")


def _bold_font():
    from PySide6.QtGui import QFont

    font = QFont()
    font.setBold(True)
    font.setPointSize(10)
    return font
