"""The critical-difference diagram of a comparison across data sets (Demšar 2006, as
autorank and Orange draw it).

An axis of mean ranks from 1 (best, on the left) to k; each model's name is joined to
its mean rank by an elbow line (the better half on the left, the rest on the right, each
name on its own row, so names never collide); Nemenyi's critical difference as a bar with
its value; thick bars join the models that no test separates
(``AcrossComparison.cliques()``).

The vertical layout is in rows (one per name), the horizontal one in mean ranks; the
margins for the names are set in pixels whenever the plot is resized, and names longer
than their margin are elided (the full name in the hover read-out and the tooltip).
Every item is created once (text items are pooled) and updated with ``setData``.
"""
from __future__ import annotations

import math
import os
from typing import Optional

import numpy as np
import pandas as pd
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics

from engine.foundation.html_text import html_text
from engine.foundation.columns import MEAN_RANK, MODEL

from ..plain_text import plain_tip
from .plot_panel import PlotPanel

ELLIPSIS = "\u2026"

LINE, NAME, RANK_TEXT, BAR = "#333333", "#1a1a1a", "#777777", "#D55E00"
#: rows above the axis: the critical-difference bar, its label and the axis numbers
CD_ROW, TICK_ROW = -2.1, -0.75
CLIQUE_TOP, CLIQUE_GAP = 0.55, 0.38   # the first clique bar's row, and between bars
NAME_GAP_PX = 8          # between the end of an elbow and its name
END_PX = 18              # elbows reach this far past the ends of the axis
MIN_AXIS_SHARE = 0.34    # the axis keeps at least this share of the width
MIN_ROW_PX = 26          # the plot is never so short that two names' rows overlap
TEXT_PAD_PX = 12         # a text item's own margins (Qt's document margin, both sides)
AXIS_TITLE = "mean rank (1 = best)"


def sides(n_models: int) -> tuple:
    """How many names go on the left (the better half, as Demšar and Orange place them)
    and how many on the right."""
    left = math.ceil(n_models / 2)
    return left, n_models - left


def clique_rows(cliques: list, ranks: dict) -> list:
    """``(low, high, row)`` of each clique's bar: from its best to its worst mean rank,
    stacked one row below the other (``row`` from 0)."""
    bars = []
    for row, members in enumerate(cliques):
        values = [ranks[m] for m in members if m in ranks]
        if values:
            bars.append((min(values), max(values), row))
    return bars


def name_rows(ordered: list, top: float) -> list:
    """``(model, side, row y)``, best first: the left half top to bottom from the best,
    the right half from the worst (on top) to the middle, so no elbows cross."""
    n_left, _ = sides(len(ordered))
    placed = []
    for i, model in enumerate(ordered):
        if i < n_left:
            placed.append((model, "left", top + i))
        else:
            placed.append((model, "right", top + len(ordered) - 1 - i))
    return placed


def distinct_names(names: list, width: int, metrics: QFontMetrics) -> dict:
    """``{name: shown}``: each name elided in the middle to ``width`` pixels; names that
    would then read alike keep the part where they differ (``logistic…ber 3 with a…``)."""
    shown = {n: metrics.elidedText(n, Qt.ElideMiddle, width) for n in names}
    groups: dict = {}
    for name, text in shown.items():
        groups.setdefault(text, []).append(name)
    for group in (g for g in groups.values() if len(g) > 1):
        common = len(os.path.commonprefix(group))
        for name in group:
            head = name[:min(8, common)]
            tail = name[max(common - 4, len(head)):]
            shown[name] = metrics.elidedText(f"{head}{ELLIPSIS}{tail}", Qt.ElideRight, width)
    return shown


class CDDiagram(PlotPanel):
    """Mean ranks on an axis, names on elbows, the critical difference and the cliques."""

    def __init__(self, parent=None):
        super().__init__("Critical-difference diagram", "cd_diagram.png", parent, legend=False)
        self._ranks: dict = {}             # model -> mean rank, best first
        self._rows: list = []              # (model, side, y)
        self._bars: list = []              # (low, high, row)
        self._cd: Optional[float] = None
        self._k = 0
        self._shown: dict = {}             # model -> name as written (elided)
        self._shown_room = None
        self._name_items: list = []
        self._tick_items: list = []
        self.font = QFont()
        self.font.setPointSize(9)
        self._metrics = QFontMetrics(self.font)
        vb = self.plot.vb
        for side in ("left", "bottom"):
            self.plot.hideAxis(side)
        self.plot.showGrid(x=False, y=False)
        self.plot.invertY(True)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.setMenuEnabled(False)
        vb.disableAutoRange()
        self.axis = pg.PlotCurveItem(pen=pg.mkPen(LINE, width=2), connect="pairs")
        self.elbows = pg.PlotCurveItem(pen=pg.mkPen(LINE, width=1), connect="finite")
        self.cliques = pg.PlotCurveItem(pen=pg.mkPen(BAR, width=6), connect="pairs")
        self.cd_bar = pg.PlotCurveItem(pen=pg.mkPen(NAME, width=2), connect="pairs")
        for item in (self.axis, self.elbows, self.cliques, self.cd_bar):
            self.plot.addItem(item)
        self.cd_text = self._text(anchor=(0.0, 1.0))
        self.axis_title = self._text(anchor=(1.0, 0.5))
        self.message = self._text(anchor=(0.5, 0.5))
        self.message.setPos(0.5, 0.5)
        vb.sigResized.connect(lambda *_: self.relayout())

    def _text(self, anchor) -> pg.TextItem:
        item = pg.TextItem(anchor=anchor, color=NAME)
        item.setFont(self.font)
        self.plot.addItem(item)
        return item

    # ------------------------------------------------------------------ drawing
    def set_comparison(self, ranks: pd.DataFrame, critical_difference: Optional[float],
                       cliques: list) -> None:
        """Show a comparison at once (see :meth:`draw_comparison`)."""
        for _ in self.draw_comparison(ranks, critical_difference, cliques):
            pass

    def draw_comparison(self, ranks: pd.DataFrame, critical_difference: Optional[float],
                        cliques: list):
        """Draw, in slices (a generator for the render queue): ``ranks`` is the ranks table
        (model, mean_rank; models without a rank are left out), ``critical_difference``
        Nemenyi's (None or NaN without a Nemenyi test), ``cliques`` the groups no test
        separates."""
        ranked = ranks.dropna(subset=[MEAN_RANK]).sort_values(MEAN_RANK, kind="mergesort")
        self._ranks = {str(m): float(r) for m, r in zip(ranked[MODEL], ranked[MEAN_RANK])}
        self._shown_room = None
        self._k = len(ranks)
        cd = critical_difference
        self._cd = float(cd) if cd is not None and np.isfinite(cd) else None
        self._bars = clique_rows([[str(m) for m in c] for c in cliques], self._ranks)
        top = 1.0 + len(self._bars) * CLIQUE_GAP
        self._rows = name_rows(list(self._ranks), top)
        yield from self._ensure_items(len(self._rows), max(self._k, 0))
        self._draw_fixed()
        yield
        self.relayout()
        self.set_name_hint("cd_diagram")
        yield

    def _ensure_items(self, n_names: int, n_ticks: int):
        """Grow the pools of text items (creating one costs ~1 ms), a few per slice."""
        for pool, needed, anchor in ((self._name_items, n_names, (1.0, 0.5)),
                                     (self._tick_items, n_ticks, (0.5, 1.0))):
            while len(pool) < needed:
                pool.append(self._text(anchor))
                if len(pool) % 4 == 0:
                    yield
        for pool, needed in ((self._name_items, n_names), (self._tick_items, n_ticks)):
            for i, item in enumerate(pool):
                item.setVisible(i < needed)

    def _draw_fixed(self) -> None:
        """What does not depend on the plot's size: axis, ticks, cliques, CD bar, texts."""
        k, shown = self._k, bool(self._ranks) and self._k >= 2
        for item in (self.axis, self.elbows, self.cliques, self.cd_bar):
            item.setVisible(shown)
        self.axis_title.setVisible(shown)
        self.message.setVisible(not shown)
        if not shown:
            self.message.setText("No diagram: it needs at least two models with a mean rank "
                                 "over at least two data sets.")
            for item in self._name_items + self._tick_items:
                item.setVisible(False)
            self.cd_text.setVisible(False)
            self.plot.vb.setRange(xRange=(0, 1), yRange=(0, 1), padding=0)
            return
        ticks = np.arange(1, k + 1, dtype=float)
        halves = np.arange(1.5, k, 1.0)
        xs = np.concatenate([[1.0, float(k)], np.repeat(ticks, 2), np.repeat(halves, 2)])
        ys = np.concatenate([[0.0, 0.0], np.tile([-0.28, 0.0], k),
                             np.tile([-0.15, 0.0], len(halves))])
        self.axis.setData(xs, ys)
        for i, item in enumerate(self._tick_items[:k]):
            item.setText(str(i + 1))
            item.setPos(i + 1.0, TICK_ROW + 0.4)
        self.axis_title.setHtml(f"<span style='color:{RANK_TEXT}'>{AXIS_TITLE}</span>")
        bar_x = np.array([[low, high] for low, high, _ in self._bars], dtype=float).ravel()
        bar_y = np.repeat([CLIQUE_TOP + row * CLIQUE_GAP for *_, row in self._bars], 2)
        self.cliques.setData(bar_x, np.asarray(bar_y, dtype=float))
        self._draw_cd()
        self._draw_elbows()

    def _draw_cd(self) -> None:
        if self._cd is None:
            self.cd_bar.setData([], [])
            self.cd_text.setHtml(f"<span style='color:{RANK_TEXT}'>no critical difference: "
                                 "the Nemenyi test compares three or more models</span>")
            self.cd_text.setPos(1.0, CD_ROW + 0.45)
            self.cd_text.setVisible(True)
            return
        low, high = 1.0, 1.0 + self._cd
        self.cd_bar.setData([low, high, low, low, high, high],
                            [CD_ROW, CD_ROW, CD_ROW - 0.2, CD_ROW + 0.2, CD_ROW - 0.2,
                             CD_ROW + 0.2])
        self.cd_text.setHtml(f"critical difference = <b>{self._cd:.2f}</b>")
        self.cd_text.setPos(low, CD_ROW - 0.25)
        self.cd_text.setVisible(True)

    def _edges(self) -> tuple:
        """Where the elbows end, left and right (in ranks): set by :meth:`relayout`."""
        return getattr(self, "_edge_x", (0.5, self._k + 0.5))

    def _draw_elbows(self) -> None:
        left, right = self._edges()
        xs, ys = [], []
        for model, side, y in self._rows:
            rank = self._ranks[model]
            xs += [rank, rank, left if side == "left" else right, np.nan]
            ys += [0.0, y, y, np.nan]
        self.elbows.setData(np.asarray(xs, dtype=float), np.asarray(ys, dtype=float))

    # ------------------------------------------------------------------ size
    def relayout(self) -> None:
        """Fit the names' margins to the plot's width (eliding long names) and the rows
        to its height."""
        if not self._ranks or self._k < 2:
            return
        width = max(self.plot.vb.width(), 50.0)
        margin = self._margin_px(width)
        span_px = max(width - 2 * (margin + END_PX + NAME_GAP_PX), 20.0)
        per_px = (self._k - 1) / span_px
        left = 1.0 - END_PX * per_px
        right = self._k + END_PX * per_px
        self._edge_x = (left, right)
        outer = (margin + NAME_GAP_PX) * per_px
        bottom = max((y for *_, y in self._rows), default=1.0) + 0.7
        self.plot.vb.setRange(xRange=(left - outer, right + outer),
                              yRange=(CD_ROW - 1.0, bottom), padding=0)
        self._draw_elbows()
        self._place_names(margin, NAME_GAP_PX * per_px)
        self.axis_title.setPos(left - NAME_GAP_PX * per_px, TICK_ROW + 0.1)

    def _margin_px(self, width: float) -> float:
        """The pixels each side gives its names: the longest label's, at most what leaves
        the axis :data:`MIN_AXIS_SHARE` of the width."""
        widest = max((self._metrics.horizontalAdvance(self._label(m, 10 ** 6)[1])
                      for m in self._ranks), default=0)
        title = self._metrics.horizontalAdvance(AXIS_TITLE)
        room = (width * (1 - MIN_AXIS_SHARE)) / 2 - END_PX - NAME_GAP_PX
        return float(max(min(max(widest, title) + TEXT_PAD_PX, room), 40))

    def _label(self, model: str, room: float) -> tuple:
        """``(name as shown, plain text with the mean rank)``, the name elided to fit."""
        rank = f"{self._ranks[model]:.2f}"
        if room >= 10 ** 5:
            name = model
        else:
            if self._shown_room != room:
                space = room - TEXT_PAD_PX - self._metrics.horizontalAdvance(
                    f"\u00a0\u00a0{max(self._ranks.values()):.2f}")
                self._shown = distinct_names(list(self._ranks), max(int(space), 12),
                                             self._metrics)
                self._shown_room = room
            name = self._shown.get(model, model)
        return name, f"{name}\u00a0\u00a0{rank}"

    def _place_names(self, margin: float, gap: float) -> None:
        left, right = self._edges()
        for item, (model, side, y) in zip(self._name_items, self._rows):
            name, _ = self._label(model, margin)
            rank = f"<span style='color:{RANK_TEXT}'>{self._ranks[model]:.2f}</span>"
            shown = html_text(name)
            if side == "left":
                item.setHtml(f"<span style='color:{NAME}'>{shown}</span>&nbsp;&nbsp;{rank}")
                item.setAnchor((1.0, 0.5))
                item.setPos(left - gap, y)
            else:
                item.setHtml(f"{rank}&nbsp;&nbsp;<span style='color:{NAME}'>{shown}</span>")
                item.setAnchor((0.0, 0.5))
                item.setPos(right + gap, y)
            item.setToolTip(plain_tip(f"{model}: mean rank {self._ranks[model]:.3f}"))

    def minimum_rows_height(self) -> int:
        """Pixels the plot needs so that every name has a row of its own."""
        rows = (max((y for *_, y in self._rows), default=1.0) - CD_ROW + 2.0)
        return int(rows * MIN_ROW_PX)

    # ------------------------------------------------------------------ reading it back
    def positions(self) -> dict:
        """``{model: mean rank}`` where each elbow meets the axis, as drawn."""
        xs, ys = self.elbows.getData()
        if xs is None:
            return {}
        starts = [x for x, y in zip(xs[0::4], ys[0::4])]
        return {model: float(x) for (model, _, _), x in zip(self._rows, starts)}

    def bars(self) -> list:
        """``(low, high)`` of every clique bar, as drawn, top to bottom."""
        xs, _ = self.cliques.getData()
        if xs is None or not len(xs):
            return []
        return [(float(a), float(b)) for a, b in zip(xs[0::2], xs[1::2])]

    def critical_difference(self) -> Optional[float]:
        """The length of the critical-difference bar, as drawn (None without one)."""
        xs, _ = self.cd_bar.getData()
        return None if xs is None or not len(xs) else float(xs[1] - xs[0])

    def shown_names(self) -> dict:
        """``{model: the name as written}`` (elided when it did not fit)."""
        return {model: self._label(model, self._current_margin())[0]
                for model, *_ in self._rows}

    def name_boxes(self) -> dict:
        """``{model: QRectF}`` of every name label in the scene (to check none overlap)."""
        return {model: item.sceneBoundingRect()
                for item, (model, *_) in zip(self._name_items, self._rows)}

    def name_anchor(self, model: str) -> tuple:
        """``(x, y)`` where ``model``'s elbow meets its name."""
        left, right = self._edges()
        for name, side, y in self._rows:
            if name == model:
                return (left if side == "left" else right), y
        raise KeyError(model)

    def _current_margin(self) -> float:
        return self._margin_px(max(self.plot.vb.width(), 50.0))

    # ------------------------------------------------------------------ hover
    def describe_point(self, x: float, y: float) -> str:
        if not self._rows:
            return ""
        for low, high, row in self._bars:
            bar_y = CLIQUE_TOP + row * CLIQUE_GAP
            if abs(y - bar_y) < CLIQUE_GAP / 2 and low - 0.05 <= x <= high + 0.05:
                members = [m for m, r in self._ranks.items() if low <= r <= high]
                return "no significant difference among " + ", ".join(members)
        left, right = self._edges()
        middle = (left + right) / 2
        side = "left" if x < middle else "right"
        candidates = [(abs(row_y - y), model) for model, s, row_y in self._rows if s == side]
        if not candidates or min(candidates)[0] > 0.5:
            return "mean rank: 1 = best on every data set"
        model = min(candidates)[1]
        return f"{model}: mean rank {self._ranks[model]:.3f}"
