"""ROC or precision-recall curves of every model: the fold-averaged curve with its band,
the first repeat's pooled curve, the operating point, and the line of a model that guesses.

Items are made once per model slot and updated with ``setData``; a result with fewer
models hides the slots it does not use.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pyqtgraph as pg
from PySide6.QtCore import Qt

from ..plain_text import escape
from .plot_panel import PlotPanel, colour, legend_above, line_style

#: What each kind of curve draws: (title, x column, y column, band columns, x and y labels,
#: the value in the legend, its name there).
KINDS = {
    "roc": ("ROC curve", "fpr", "tpr", ("tpr_low", "tpr_high"), "false-positive rate",
            "true-positive rate (recall)", "auc", "AUC"),
    "pr": ("Precision-recall curve", "recall", "precision",
           ("precision_low", "precision_high"), "recall (true-positive rate)", "precision",
           "average_precision", "AP"),
}
EMPTY_TEXT = "No curve for this class."


class _Slot:
    """The items of one model: band, averaged line, pooled line, operating point."""

    def __init__(self, plot, index: int):
        pen = pg.mkPen(colour(index), width=2, style=line_style(index))
        brush = pg.mkBrush(pg.mkColor(colour(index)).lighter(100))
        fill = pg.mkColor(colour(index))
        fill.setAlpha(45)
        self.low = pg.PlotCurveItem([], [], pen=pg.mkPen(fill, width=1))
        self.high = pg.PlotCurveItem([], [], pen=pg.mkPen(fill, width=1))
        self.band = pg.FillBetweenItem(self.low, self.high, brush=pg.mkBrush(fill))
        self.mean = pg.PlotDataItem([], [], pen=pen)
        self.pooled = pg.PlotDataItem([], [], pen=pg.mkPen(colour(index), width=1,
                                                           style=Qt.DotLine))
        self.point = pg.ScatterPlotItem([], [], size=11, symbol="o", brush=brush,
                                        pen=pg.mkPen("#000", width=1.2))
        for item in (self.band, self.low, self.high, self.pooled, self.mean, self.point):
            plot.addItem(item)

    def set_visible(self, visible: bool) -> None:
        for item in (self.band, self.low, self.high, self.mean, self.pooled, self.point):
            item.setVisible(visible)


class CurvePlot(PlotPanel):
    """One kind of curve (``"roc"`` or ``"pr"``) for every model, one class at a time."""

    def __init__(self, kind: str, parent=None):
        title, _, _, _, x_label, y_label, _, _ = KINDS[kind]
        super().__init__(title, f"{kind}_curve.png", parent, x_label=x_label,
                         y_label=y_label, legend=False)
        self.kind = kind
        legend_above(self)
        self.plot.setXRange(0, 1, padding=0.02)
        self.plot.setYRange(0, 1, padding=0.02)
        self.plot.setAspectLocked(False)
        self.guess = pg.PlotDataItem([], [], pen=pg.mkPen("#888", width=1, style=Qt.DashLine))
        self.plot.addItem(self.guess)
        self.slots: list = []
        self.shown: dict = {}
        self._rows = {}

    def _slot(self, index: int) -> _Slot:
        while len(self.slots) <= index:
            self.slots.append(_Slot(self.plot, len(self.slots)))
        return self.slots[index]

    def show_curves(self, table: pd.DataFrame, models: list, label) -> None:
        """Draw ``table``'s curves (``roc_curve.csv`` or ``pr_curve.csv``) of class
        ``label`` for ``models`` (in that order, colours by position)."""
        title, x, y, (low, high), _, _, value, value_name = KINDS[self.kind]
        rows = table[table["class"].astype(str) == str(label)] if table is not None else None
        self.legend.clear()
        self.shown, self._rows = {}, {}
        for index, model in enumerate(models):
            slot = self._slot(index)
            mine = rows[rows["model"] == model] if rows is not None else pd.DataFrame()
            averaged = mine[mine["curve"] == "averaged"] if len(mine) else mine
            if averaged.empty:
                slot.set_visible(False)
                continue
            pooled = mine[(mine["curve"] == "pooled") & (mine["repeat"] == 1)]
            points = mine[(mine["curve"] == "operating_point") & (mine["repeat"] == 1)]
            slot.low.setData(averaged[x].to_numpy(float), averaged[low].to_numpy(float))
            slot.high.setData(averaged[x].to_numpy(float), averaged[high].to_numpy(float))
            slot.mean.setData(averaged[x].to_numpy(float), averaged[y].to_numpy(float))
            slot.pooled.setData(pooled[x].to_numpy(float), pooled[y].to_numpy(float))
            slot.point.setData(points[x].to_numpy(float), points[y].to_numpy(float))
            slot.set_visible(True)
            score = float(averaged[value].iloc[0])
            self.legend.addItem(slot.mean, f"{escape(model)} ({value_name} {score:.3f})")
            self.shown[model] = score
            self._rows[model] = averaged
        self.legend.setColumnCount(max(1, min(2, len(self.shown))))
        for slot in self.slots[len(models):]:
            slot.set_visible(False)
        self._draw_guess(rows)
        self.title.setText(f"<b>{escape(title)}: class “{escape(label)}”</b>")
        self.set_name_hint(self.kind, label)

    def _draw_guess(self, rows) -> None:
        """The diagonal (ROC) or the class's share (PR): a model that guesses."""
        if self.kind == "roc":
            self.guess.setData([0, 1], [0, 1])
            return
        shares = rows["prevalence"].dropna() if rows is not None and len(rows) else []
        if len(shares):
            share = float(shares.iloc[0])
            self.guess.setData([0, 1], [share, share])
        else:
            self.guess.setData([], [])

    def drawn_curves(self) -> dict:
        """``{model: value in the legend}`` of the curves drawn (for tests)."""
        return dict(self.shown)

    def describe_point(self, x: float, y: float) -> str:
        _, xcol, ycol, (low, high), _, _, _, _ = KINDS[self.kind]
        if not 0 <= x <= 1 or not self._rows:
            return ""
        parts = []
        for model, rows in self._rows.items():
            i = int(np.argmin(np.abs(rows[xcol].to_numpy(float) - x)))
            row = rows.iloc[i]
            parts.append(f"{model} {row[ycol]:.3f} [{row[low]:.2f}–{row[high]:.2f}]")
        return f"{xcol} {x:.2f}: " + "; ".join(parts)
