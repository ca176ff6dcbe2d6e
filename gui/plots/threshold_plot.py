"""The decision threshold each outer training fold chose (``thresholds.csv``), on the
positive class's probability (or decision score; the axis names the class): one line
with markers per model over the folds in split order, and a dashed line at the threshold a
model uses when none is chosen (0.5 on probabilities, 0 on decision scores such as an SVC's;
none when the models differ). Thresholds that jump from fold to fold say the
choice is unstable (few rows, or a flat score around the best threshold)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pyqtgraph as pg
from PySide6.QtCore import Qt

from engine.foundation.columns import MODEL

from .class_counts_plot import PlotHint
from .legend_label import LegendLabel
from .plot_panel import PlotPanel, colour, count_axis, line_style, symbol

#: The threshold of a model that gives probabilities when none is chosen.
DEFAULT_THRESHOLD = 0.5
#: The usual threshold by what the model's values are (``CVResult.prediction_kind``).
USUAL_THRESHOLDS = {"proba": DEFAULT_THRESHOLD, "decision": 0.0}
TITLE = "Threshold chosen on each training fold"
Y_LABEL = "chosen threshold"


def axis_label(table: pd.DataFrame, kinds=None) -> str:
    """The y axis's words: what the thresholds are on, ``threshold on P(no)`` (probabilities)
    or ``threshold on the decision score of no``, from the table's ``positive_class``;
    ``chosen threshold`` when the table names no class or the models' values differ."""
    if "positive_class" not in table.columns:
        return Y_LABEL
    positive = set(table["positive_class"].dropna().astype(str))
    values = {(kinds or {}).get(m, "proba") for m in table[MODEL]}
    if len(positive) != 1 or len(values) != 1:
        return Y_LABEL
    name = positive.pop()
    return (f"threshold on P({name})" if values.pop() == "proba"
            else f"threshold on the decision score of {name}")
EMPTY = "No model in this run chose a decision threshold inside the folds."


def fold_positions(table: pd.DataFrame, n_splits: int) -> np.ndarray:
    """The outer fold of each row in split order, from 1: ``(repeat - 1) * n_splits + fold``
    (``repeat`` and ``fold`` count from 1, as in the tables)."""
    return ((table["repeat"].to_numpy(dtype=int) - 1) * n_splits
            + table["fold"].to_numpy(dtype=int)).astype(float)


class ThresholdPlot(PlotPanel):
    """Chosen threshold by outer fold, a line per model; items made once, then ``setData``."""

    def __init__(self, parent=None):
        super().__init__(f"{TITLE} (dashed: 0.5)",
                         "thresholds.png", parent,
                         x_label="outer fold (in split order)", y_label=Y_LABEL,
                         legend=False)
        count_axis(self)
        self.legend = LegendLabel(self)
        self.legend.setToolTip("")
        self.insert_above_plot(self.legend)
        self.default_line = pg.InfiniteLine(
            pos=DEFAULT_THRESHOLD, angle=0, movable=False,
            pen=pg.mkPen("#888", width=1, style=Qt.DashLine))
        self.plot.addItem(self.default_line)
        self._curves: list = []
        self._points: dict = {}     # model -> (x, threshold) as drawn
        self.hint = PlotHint(self, EMPTY)

    def set_usual_threshold(self, value) -> None:
        """The dashed line at ``value``, the threshold used when none is chosen (None: no
        line, for models whose usual thresholds differ)."""
        self.default_line.setVisible(value is not None)
        if value is not None:
            self.default_line.setValue(value)
        self.title.setText(f"<b>{TITLE}</b>" + ("" if value is None else
                                                 f" <b>(dashed: {value:g})</b>"))

    def set_thresholds(self, table: pd.DataFrame, n_splits: int, kinds=None) -> None:
        """Draw a ``thresholds.csv`` table (the hint when it has no rows); ``kinds``: what
        each model's values are (``CVResult.prediction_kind``), which places the dashed
        line (:data:`USUAL_THRESHOLDS`; 0.5 when not given)."""
        if table is None or table.empty:
            self._points = {}
            self.hint.show(EMPTY)
            return
        models = list(dict.fromkeys(table[MODEL]))
        usual = {USUAL_THRESHOLDS.get((kinds or {}).get(m, "proba")) for m in models}
        self.set_usual_threshold(usual.pop() if len(usual) == 1 else None)
        self.plot.setLabel("left", axis_label(table, kinds))
        self._ensure_curves(len(models))
        x_all = fold_positions(table, n_splits)
        self._points = {}
        for i, model in enumerate(models):
            rows = (table[MODEL] == model).to_numpy()
            order = np.argsort(x_all[rows], kind="stable")
            x, y = x_all[rows][order], table["threshold"].to_numpy(dtype=float)[rows][order]
            self._style(self._curves[i], i)
            self._curves[i].setData(x, y, connect="finite")
            self._points[model] = (x, y)
        self.legend.set_names(models)
        self._show_all(x_all, table["threshold"].to_numpy(dtype=float))
        self.hint.hide()

    def _ensure_curves(self, count: int) -> None:
        while len(self._curves) < count:
            curve = pg.PlotDataItem(symbolSize=7)
            self.plot.addItem(curve)
            self._curves.append(curve)
        for curve in self._curves[count:]:
            curve.setData([], [])

    @staticmethod
    def _style(curve, i: int) -> None:
        curve.setPen(pg.mkPen(colour(i), width=1.5, style=line_style(i)))
        curve.setSymbol(symbol(i))
        curve.setSymbolBrush(pg.mkBrush(colour(i)))
        curve.setSymbolPen(pg.mkPen(colour(i)))

    def _show_all(self, x: np.ndarray, y: np.ndarray) -> None:
        finite = y[np.isfinite(y)]
        if self.default_line.isVisible():               # the dashed line stays in view
            finite = np.append(finite, float(self.default_line.value()))
        low = float(finite.min()) if finite.size else 0.0
        high = float(finite.max()) if finite.size else 1.0
        span = max(high - low, 0.05)
        self.plot.setRange(xRange=(0.5, float(x.max()) + 0.5),
                           yRange=(low - 0.06 * span, high + 0.06 * span), padding=0)

    def axis_text(self) -> str:
        """The y axis's label as shown (for tests)."""
        return self.plot.getAxis("left").labelText

    def drawn(self) -> dict:
        """``{model: (fold positions, thresholds)}`` as drawn (for tests)."""
        return {model: (list(x), list(y)) for model, (x, y) in self._points.items()}

    def describe_point(self, x: float, y: float) -> str:
        fold = int(round(x))
        found = []
        for model, (xs, ys) in self._points.items():
            at = np.flatnonzero(xs == fold)
            if at.size:
                found.append(f"{model} {ys[at[0]]:.3f}")
        return f"fold {fold}: " + ", ".join(found) if found else ""
