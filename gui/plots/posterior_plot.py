"""The Bayesian view of one pair: the posterior density of the mean score difference
(model A minus model B), the region of practical equivalence (ROPE) shaded, the areas
"B better", "equivalent", "A better" filled, and the credible intervals as bars under
the curve; below the plot, the three probabilities as numbers and a stacked bar.
"""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QHBoxLayout, QVBoxLayout, QWidget

from engine.foundation.columns import P_BETTER, P_EQUIVALENT, P_WORSE
from engine.evaluation.stats import Posterior
from engine.evaluation.verdict import metric_label

from ..plain_text import escape, plain_label
from .plot_panel import PlotPanel, light_grid, plain_axes

A_COLOUR, B_COLOUR, EQUIVALENT_COLOUR = "#0072B2", "#E69F00", "#8c8c8c"
N_POINTS = 400
INTERVAL_STEP = 0.08   # vertical spacing of the credible-interval bars, times the peak


class ProbabilityBar(QWidget):
    """A stacked bar: P(B better) | P(equivalent) | P(A better), left to right like the x axis."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.fractions = (0.0, 0.0, 0.0)
        self.colours = (B_COLOUR, EQUIVALENT_COLOUR, A_COLOUR)
        self.setMinimumHeight(14)
        self.setMaximumHeight(14)

    def set_colours(self, colour_a: str, colour_b: str) -> None:
        self.colours = (colour_b, EQUIVALENT_COLOUR, colour_a)
        self.update()

    def set_fractions(self, worse: float, equivalent: float, better: float) -> None:
        values = [0.0 if not math.isfinite(v) else max(v, 0.0) for v in (worse, equivalent,
                                                                           better)]
        self.fractions = tuple(values)
        self.update()

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setPen(Qt.NoPen)
        painter.fillRect(self.rect(), QColor("#eee"))
        left = 0.0
        for fraction, colour in zip(self.fractions, self.colours):
            width = fraction * self.width()
            painter.fillRect(QRectF(left, 0, width, self.height()), QColor(colour))
            left += width
        painter.end()


class ProbabilityStrip(QWidget):
    """The probabilities as coloured numbers over a :class:`ProbabilityBar`."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.worse_label, self.equivalent_label, self.better_label = (
            plain_label("", self) for _ in range(3))
        self.positive_label = plain_label("", self)
        for label, colour in ((self.worse_label, B_COLOUR),
                              (self.equivalent_label, "#555"),
                              (self.better_label, A_COLOUR)):
            label.setStyleSheet(f"color: {colour}; font-weight: bold;")
            label.setTextInteractionFlags(Qt.TextSelectableByMouse)
            label.setWordWrap(True)                   # long model names wrap, never widen
        self.positive_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.positive_label.setWordWrap(True)          # a long sentence: never widens the window
        self.bar = ProbabilityBar(self)
        numbers = QHBoxLayout()                   # each a third of the width, wrapping in it
        for label, side in ((self.worse_label, Qt.AlignLeft),
                            (self.equivalent_label, Qt.AlignHCenter),
                            (self.better_label, Qt.AlignRight)):
            label.setAlignment(side | Qt.AlignBottom)
            numbers.addWidget(label, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.setSpacing(2)
        layout.addLayout(numbers)
        layout.addWidget(self.bar)
        layout.addWidget(self.positive_label)

    def set_probabilities(self, model_a: str, model_b: str, probabilities: dict,
                          colours: tuple = (A_COLOUR, B_COLOUR)) -> None:
        worse, equivalent, better = (probabilities[k] for k in (P_WORSE, P_EQUIVALENT, P_BETTER))
        self.worse_label.setText(f"{model_b} better: {worse:.3f}")
        self.equivalent_label.setText(f"practically equivalent: {equivalent:.3f}")
        self.better_label.setText(f"{model_a} better: {better:.3f}")
        self.better_label.setStyleSheet(f"color: {colours[0]}; font-weight: bold;")
        self.worse_label.setStyleSheet(f"color: {colours[1]}; font-weight: bold;")
        self.positive_label.setText(
            f"P({model_a} > {model_b}) = {probabilities['p_mu_positive']:.3f}  "
            "(the chance that the true mean difference is above 0, ignoring the ROPE)")
        self.bar.set_colours(*colours)
        self.bar.set_fractions(worse, equivalent, better)


class DensityAxis(pg.AxisItem):
    """A density axis: no labels below 0, where the credible-interval bars are drawn."""

    def tickStrings(self, values, scale, spacing):
        strings = super().tickStrings(values, scale, spacing)
        return [text if value >= 0 else "" for value, text in zip(values, strings)]


class PosteriorPlot(PlotPanel):
    """Posterior density of the mean difference with ROPE, outcome areas and intervals."""

    def __init__(self, parent=None):
        super().__init__("Posterior of the mean difference", "posterior.png", parent,
                         x_label="Mean difference in score (μ)", y_label="Probability density",
                         legend=False)
        self.plot.setAxisItems({"left": DensityAxis("left")})
        plain_axes(self.plot)
        self.plot.setLabel("left", "Probability density")
        self.plot.getAxis("bottom").enableAutoSIPrefix(False)
        light_grid(self.plot, x=False, alpha=0.2)
        fixed_axis_sizes(self.plot)
        self._posterior = None
        self._rope = 0.0
        self._names = ("A", "B")
        self.rope_band = pg.LinearRegionItem(movable=False, brush=pg.mkBrush(0, 0, 0, 22),
                                             pen=pg.mkPen("#777", style=Qt.DashLine))
        self.plot.addItem(self.rope_band, ignoreBounds=True)
        self.fills = {key: self._fill(colour) for key, colour in
                      (("worse", B_COLOUR), ("equivalent", EQUIVALENT_COLOUR),
                       ("better", A_COLOUR))}
        self.curve = pg.PlotDataItem(pen=pg.mkPen("#222", width=2))
        self.plot.addItem(self.curve)
        self.zero_line = pg.InfiniteLine(0.0, angle=90, pen=pg.mkPen("#444", width=1,
                                                                      style=Qt.DotLine))
        self.plot.addItem(self.zero_line, ignoreBounds=True)
        self.interval_bars: list = []
        self.interval_labels: list = []
        self.rope_label = pg.TextItem("", color="#555", anchor=(0.5, 0.0))
        self.plot.addItem(self.rope_label, ignoreBounds=True)
        self.message = pg.TextItem("", color="#a00", anchor=(0.5, 0.5))
        self.plot.addItem(self.message, ignoreBounds=True)
        self.strip = ProbabilityStrip(self)
        self.layout().addWidget(self.strip)
        self._ensure_interval_items(3)   # the usual 50/75/95% (created now, not on arrival)

    def _fill(self, colour: str) -> pg.PlotDataItem:
        item = pg.PlotDataItem(pen=None, fillLevel=0.0, brush=_translucent(colour))
        self.plot.addItem(item)
        return item

    def _colour_fills(self, colours: tuple) -> None:
        self.fills["better"].setBrush(_translucent(colours[0]))
        self.fills["worse"].setBrush(_translucent(colours[1]))

    # -- data
    def set_posterior(self, posterior: Posterior, model_a: str, model_b: str, rope: float,
                      levels, probabilities: dict, metric: str = "",
                      colours: tuple = (A_COLOUR, B_COLOUR)) -> None:
        """Show the posterior of ``model_a - model_b`` for a ROPE half-width and levels.

        ``probabilities`` holds ``p_mu_positive, p_better, p_equivalent, p_worse`` (the
        engine's numbers for A versus B); ``colours`` are the two models' series colours.
        """
        self._posterior, self._rope, self._names = posterior, rope, (model_a, model_b)
        self.title.setText(f"<b>Posterior of the mean difference: {escape(model_a)} − "
                           f"{escape(model_b)}</b>")
        self.plot.setLabel("bottom", f"Mean difference in {metric_label(metric) or 'score'} "
                                     f"(μ = {escape(model_a)} − {escape(model_b)})")
        self.rope_band.setRegion((-rope, rope))
        self.strip.set_probabilities(model_a, model_b, probabilities, colours)
        self._colour_fills(colours)
        finite = math.isfinite(posterior.mean) and math.isfinite(posterior.scale)
        if not finite or posterior.scale <= 0:
            self._show_degenerate(posterior, finite)
            return
        self.message.setText("")
        x = self._grid(posterior, rope)
        density = posterior.pdf(x)
        self.curve.setData(x, density)
        for key, mask in (("worse", x <= -rope), ("equivalent", np.abs(x) <= rope),
                          ("better", x >= rope)):
            self.fills[key].setData(x[mask], density[mask])
        peak = float(density.max())
        self.rope_label.setText(f"ROPE ±{rope:g}")
        self.rope_label.setPos(0.0, 1.14 * peak)
        self._draw_intervals(posterior, list(levels), peak)
        self.plot.setXRange(float(x[0]), float(x[-1]), padding=0.02)
        self.plot.setYRange(-(len(levels) + 0.6) * INTERVAL_STEP * peak, 1.15 * peak,
                            padding=0)

    @staticmethod
    def _grid(posterior: Posterior, rope: float) -> np.ndarray:
        low, high = (float(v) for v in posterior.ppf(np.array([0.001, 0.999])))
        low, high = min(low, -1.5 * rope), max(high, 1.5 * rope)
        x = np.linspace(low, high, N_POINTS)
        return np.unique(np.concatenate([x, [-rope, 0.0, rope]]))

    def _ensure_interval_items(self, count: int) -> None:
        while len(self.interval_bars) < count:
            bar = pg.PlotDataItem(pen=pg.mkPen("#333", width=3), connect="finite")
            label = pg.TextItem(color="#333", anchor=(0.0, 0.5))
            self.plot.addItem(bar)
            self.plot.addItem(label)
            self.interval_bars.append(bar)
            self.interval_labels.append(label)

    def _draw_intervals(self, posterior: Posterior, levels: list, peak: float) -> None:
        levels = sorted(levels)
        self._ensure_interval_items(len(levels))
        step = INTERVAL_STEP * peak
        for k, (bar, label) in enumerate(zip(self.interval_bars, self.interval_labels)):
            if k >= len(levels):
                bar.setData([], [])
                label.setText("")
                continue
            low, high = posterior.interval(levels[k])
            y = -(k + 1) * step
            tick = 0.25 * step
            bar.setData([low, high, np.nan, low, low, np.nan, high, high],
                        [y, y, np.nan, y - tick, y + tick, np.nan, y - tick, y + tick])
            label.setText(f" {levels[k]:.0%} credible")
            label.setPos(high, y)

    def _show_degenerate(self, posterior: Posterior, finite: bool) -> None:
        for item in (self.curve, *self.fills.values(), *self.interval_bars):
            item.setData([], [])
        for label in (*self.interval_labels, self.rope_label):
            label.setText("")
        if finite:
            text = (f"The two models differ by exactly {posterior.mean:.4g} on every fold:\n"
                    "the posterior is a single point.")
            self.message.setPos(posterior.mean, 0.5)
        else:
            text = "Not enough complete folds to compare these models."
            self.message.setPos(0.0, 0.5)
        self.message.setText(text)
        self.plot.setRange(xRange=(-max(self._rope * 2, 0.05), max(self._rope * 2, 0.05)),
                           yRange=(0, 1))

    def clear(self) -> None:
        for item in (self.curve, *self.fills.values(), *self.interval_bars):
            item.setData([], [])
        self.message.setText("")

    # -- hover
    def describe_point(self, x: float, y: float) -> str:
        post = self._posterior
        if post is None or not math.isfinite(post.mean) or post.scale <= 0:
            return ""
        a, b = self._names
        density = float(post.pdf(x))
        above = 1.0 - float(post.cdf(x))
        return (f"μ = {x:.4f}: density {density:.3g}, "
                f"P(μ > {x:.4f}) = {above:.3f} ({a} − {b})")


def fixed_axis_sizes(plot, text_width: int = 34) -> None:
    """Axes of a fixed size: room for tick labels of ``text_width`` pixels on the left
    and one line below. pyqtgraph widens an axis to its labels while painting it, which
    lays the plot out again and paints it again (a page shown for the first time painted
    the posterior four times in a row)."""
    plot.getAxis("left").setStyle(autoExpandTextSpace=False, tickTextWidth=text_width)
    plot.getAxis("bottom").setStyle(autoExpandTextSpace=False)


def _translucent(colour: str, alpha: int = 110):
    fill_colour = QColor(colour)
    fill_colour.setAlpha(alpha)
    return pg.mkBrush(fill_colour)
