"""Bar labels that never overlap: each bar's name under it, shortened with "…" to the
width of its slot; when even a shortened name cannot fit, the bars are numbered (the hover
read-out and the title name them), every second or third bar only when even the numbers are
wider than a slot. Redrawn whenever the plot is resized."""
from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics

#: Room left between two neighbouring labels, in pixels.
LABEL_GAP_PX = 8
#: The fewest characters of a name worth showing before falling back to numbers.
FEWEST_CHARACTERS = 3


def fit_bar_labels(names: list, slot_px: float, metrics: QFontMetrics) -> list:
    """The tick label of each bar, for bars ``slot_px`` pixels apart: the names when they
    fit, else the names shortened to fit, else ``1``, ``2``, …"""
    room = slot_px - LABEL_GAP_PX
    if all(metrics.horizontalAdvance(name) <= room for name in names):
        return list(names)
    shortened = [metrics.elidedText(name, Qt.ElideRight, int(room)) for name in names]
    if all(len(text.rstrip("…")) >= min(FEWEST_CHARACTERS, len(name))
           for text, name in zip(shortened, names)):
        return shortened
    return numbered_labels(len(names), slot_px, metrics)


def numbered_labels(count: int, slot_px: float, metrics: QFontMetrics) -> list:
    """``1``, ``2``, … under ``count`` bars ``slot_px`` apart; where the widest number needs
    more than one slot, only every ``step``-th bar is numbered (the others get "")."""
    numbers = [str(i) for i in range(1, count + 1)]
    widest = max(metrics.horizontalAdvance(text) for text in numbers) + LABEL_GAP_PX
    step = max(1, math.ceil(widest / max(slot_px, 1e-9)))
    return [text if i % step == 0 else "" for i, text in enumerate(numbers)]


def label_bars(panel, names: list, offset: float = 0.0) -> list:
    """Put :func:`fit_bar_labels` under the bars at 0, 1, … of ``panel``'s plot (a
    :class:`~gui.plots.plot_panel.PlotPanel`); returns the labels."""
    axis = panel.plot.getAxis("bottom")
    if not names:
        axis.setTicks(None)
        return []
    low, high = panel.plot.vb.viewRange()[0]
    width = panel.plot.vb.width()
    slot = width / max(high - low, 1e-9)
    labels = fit_bar_labels([str(n) for n in names], slot, QFontMetrics(axis.font()))
    axis.setTicks([[(i + offset, label) for i, label in enumerate(labels)]])
    return labels
