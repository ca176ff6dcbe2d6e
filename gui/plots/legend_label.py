"""A legend above a plot, as one line of rich text that wraps: it never covers the data.

pyqtgraph's ``LegendItem`` sits inside the plot (over the lines) and, moved into the plot's
layout, re-laid out the whole plot for every entry (20 models: ~300 ms). This label is set
once per run; each entry is a swatch drawn in the series' colour, dash and marker, then
the name, which is a link: clicking it emits ``model_clicked``.
"""
from __future__ import annotations


from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel

from engine.foundation.html_text import html_text
from .plot_panel import colour, line_style, symbol

#: How a swatch shows the line style and the marker of a series, in text.
DASHES = {Qt.SolidLine: "━━", Qt.DashLine: "╍╍", Qt.DotLine: "┅┅", Qt.DashDotLine: "━╍",
          Qt.DashDotDotLine: "━┅"}
MARKERS = {"o": "●", "s": "■", "t": "▼", "d": "◆", "star": "★"}


def swatch(i: int, markers: bool = True) -> str:
    """Series ``i``'s swatch: its line (solid, dashed, ...) and its marker."""
    mark = MARKERS.get(symbol(i), "●") if markers else ""
    line = DASHES.get(line_style(i), "━━")
    return f"<span style='color:{colour(i)}; font-weight:bold'>{line[0]}{mark}{line[1]}</span>"


class LegendLabel(QLabel):
    """Names of the series with their swatches; wraps to as many rows as needed."""

    model_clicked = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.RichText)
        self.setTextInteractionFlags(Qt.LinksAccessibleByMouse)
        self.linkActivated.connect(self._on_link)
        self.setToolTip("Click a name to highlight that model")
        self._names: list = []

    @property
    def names(self) -> list:
        return list(self._names)

    def set_names(self, names: list, markers: bool = True) -> None:
        """One entry per series ``i`` (colour, dash and marker of series ``i``)."""
        self._names = [str(n) for n in names]
        entries = [f"<span style='white-space:nowrap'>{swatch(i, markers)}&nbsp;"
                   f"<a href='{i}' style='color:#222; text-decoration:none'>"
                   f"{html_text(name)}</a></span>" for i, name in enumerate(self._names)]
        self.setText(" &nbsp; ".join(entries))
        self.setVisible(bool(entries))

    def clear_names(self) -> None:
        self.set_names([])

    def _on_link(self, link: str) -> None:
        if link.isdigit() and int(link) < len(self._names):
            self.model_clicked.emit(self._names[int(link)])
