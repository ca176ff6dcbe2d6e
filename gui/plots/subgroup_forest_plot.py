"""A forest plot of one model's subgroup scores: each subgroup's score (the mean over
repeats of its out-of-fold score) with its interval, one row per subgroup, and the
model's score on all rows as a dashed line. Subgroups too small to judge (under 30 rows
or 5 rows of a class: ``verdict_allowed`` false) are drawn grey and hollow and their row
says so. Items are made once and updated with ``setData``; the hover read-out gives each
row's numbers.
"""
from __future__ import annotations

import math
from typing import Optional

import numpy as np
import pandas as pd
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics

from ..plain_text import escape
from .class_counts_plot import PlotHint
from .plot_panel import PlotPanel

EMPTY = "No subgroup scores for this choice."
NO_VERDICT = "too few rows/events: no verdict"
JUDGED, UNJUDGED = "#0072B2", "#9a9a9a"
#: The widest a row's label is drawn, in pixels (a longer one loses its middle to "…" and
#: keeps its end, the row count; the read-out gives it whole).
LABEL_PX = 220


def row_label(row) -> str:
    """``sex = F (150 rows)``: a subgroup as its row in the plot."""
    return f"{row['column']} = {row['subgroup']} ({int(row['n_rows']):,} rows)"


def row_text(row) -> str:
    """One row's numbers in words, for the read-out."""
    text = (f"{row['column']} = {row['subgroup']}: {row['score']:.3f}")
    if np.isfinite(row["ci_low"]) and np.isfinite(row["ci_high"]):
        level = float(row["level"]) if "level" in row else math.nan
        width = f"{level:.0%} interval" if np.isfinite(level) else "interval"
        text += f" ({width} {row['ci_low']:.3f} to {row['ci_high']:.3f})"
    text += f", {int(row['n_rows']):,} rows"
    if "n_positive" in row and pd.notna(row["n_positive"]):
        text += f", {int(row['n_positive']):,} positive"
    return text if bool(row["verdict_allowed"]) else f"{text}: {NO_VERDICT}"


class SubgroupForestPlot(PlotPanel):
    """Rows of subgroups (first on top), scores along the bottom axis."""

    def __init__(self, parent=None):
        super().__init__("Score per subgroup", "subgroup_forest.png", parent,
                         x_label="score", legend=False)
        self.bars = {kind: pg.ErrorBarItem(x=np.zeros(0), y=np.zeros(0), beam=0.18,
                                           pen=pg.mkPen(colour, width=2))
                     for kind, colour in ((True, JUDGED), (False, UNJUDGED))}
        self.points = {True: pg.ScatterPlotItem(size=9, brush=pg.mkBrush(JUDGED),
                                                pen=pg.mkPen(JUDGED), symbol="s"),
                       False: pg.ScatterPlotItem(size=9, brush=pg.mkBrush("w"),
                                                 pen=pg.mkPen(UNJUDGED, width=2), symbol="s")}
        for item in (*self.bars.values(), *self.points.values()):
            self.plot.addItem(item)
        self.overall = pg.InfiniteLine(angle=90, movable=False,
                                       pen=pg.mkPen("#D55E00", width=1, style=Qt.DashLine),
                                       label="all rows", labelOpts={"position": 0.97,
                                                                    "color": "#D55E00"})
        self.plot.addItem(self.overall)
        self.plot.invertY(True)
        self.plot.setMouseEnabled(x=True, y=False)
        self._rows: Optional[pd.DataFrame] = None
        self._tags: list = []        # "no verdict" beside grey rows; made as needed, reused
        self.hint = PlotHint(self, EMPTY)

    def set_rows(self, rows: pd.DataFrame, model: str, metric_name: str,
                 overall: Optional[float] = None) -> None:
        """Draw ``rows`` (``subgroup_scores.csv`` rows of one model and metric, in order);
        ``overall`` the model's score on all rows (a dashed line), if known."""
        rows = rows.reset_index(drop=True)
        self._rows = rows
        if rows.empty:
            self.hint.show(EMPTY)
            return
        y = np.arange(len(rows), dtype=float)
        score = rows["score"].to_numpy(dtype=float)
        low = rows["ci_low"].to_numpy(dtype=float)
        high = rows["ci_high"].to_numpy(dtype=float)
        judged = rows["verdict_allowed"].to_numpy(dtype=bool)
        for kind in (True, False):
            keep = (judged == kind) & np.isfinite(score)
            spans = keep & np.isfinite(low) & np.isfinite(high)
            self.bars[kind].setData(x=score[spans], y=y[spans], left=(score - low)[spans],
                                    right=(high - score)[spans])
            self.points[kind].setData(x=score[keep], y=y[keep])
        self._label_rows(rows)
        self._tag_unjudged(np.flatnonzero(~judged), np.where(np.isfinite(high), high, score))
        known = overall is not None and bool(np.isfinite(overall))
        self.overall.setVisible(known)
        if known:
            self.overall.setValue(float(overall))
        values = np.concatenate([score, low, high, [overall if overall is not None else np.nan]])
        values = values[np.isfinite(values)]
        if len(values):
            span = max(float(values.max() - values.min()), 0.02)
            self.plot.setXRange(values.min() - 0.06 * span, values.max() + 0.06 * span,
                                padding=0)
        self.plot.setYRange(-0.6, len(rows) - 0.4, padding=0)
        self.plot.setLabel("bottom", escape(metric_name))
        self.title.setText(f"<b>Score per subgroup: {escape(model)}, {escape(metric_name)}</b>")
        self.set_name_hint(model, metric_name)
        self.clear_readout()
        self.hint.hide()

    def _label_rows(self, rows: pd.DataFrame) -> None:
        metrics = QFontMetrics(self.plot.getAxis("left").font())
        labels = [metrics.elidedText(row_label(row), Qt.ElideMiddle, LABEL_PX)
                  for _, row in rows.iterrows()]
        axis = self.plot.getAxis("left")
        axis.setTicks([list(enumerate(labels))])
        axis.setWidth(max(metrics.horizontalAdvance(label) for label in labels) + 14)

    def _tag_unjudged(self, rows, right) -> None:
        """Write "too few rows/events: no verdict" to the right of each grey row."""
        while len(self._tags) < len(rows):
            tag = pg.TextItem(NO_VERDICT, color=UNJUDGED, anchor=(0, 0.5))
            self.plot.addItem(tag)
            self._tags.append(tag)
        for tag, row in zip(self._tags, rows):
            tag.setPos(float(right[row]) if np.isfinite(right[row]) else 0.0, float(row))
            tag.setVisible(True)
        for tag in self._tags[len(rows):]:
            tag.setVisible(False)

    def tags(self) -> list:
        """``(row, text)`` of the "no verdict" tags shown (for tests)."""
        return [(int(round(t.pos().y())), t.textItem.toPlainText()) for t in self._tags
                if t.isVisible()]

    def drawn_rows(self) -> list:
        """``(label, score, judged)`` of every row drawn, top to bottom (for tests)."""
        if self._rows is None:
            return []
        return [(row_label(row), float(row["score"]), bool(row["verdict_allowed"]))
                for _, row in self._rows.iterrows()]

    def drawn_points(self, judged: bool) -> list:
        """``(score, row)`` of the points drawn solid (``judged``) or hollow (for tests)."""
        x, y = self.points[judged].getData()
        return [(float(a), int(b)) for a, b in zip(x, y)]

    def describe_point(self, x: float, y: float) -> str:
        rows, i = self._rows, int(round(y))
        if rows is None or not 0 <= i < len(rows):
            return ""
        return row_text(rows.iloc[i])
