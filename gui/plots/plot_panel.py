"""Shared pieces of every plot: a titled pyqtgraph plot with a hover read-out, a clickable
legend and a "Save image…" button (PNG or SVG, written off the GUI thread).

Plot modules subclass :class:`PlotPanel`, create their items once in ``__init__`` and
update them with ``setData`` when new results arrive.

The file name proposed for a saved image names what the plot shows: the parts given to
:meth:`PlotPanel.set_name_hint` (model, metric) or, without them, what the title (after
its colon) and the axis labels say, e.g. ``posterior_rbf_vs_linear_roc_auc.png``.
"""
from __future__ import annotations

import functools
import os
import re
import weakref
from typing import Optional

import pyqtgraph as pg
import shiboken6
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QHBoxLayout, QPushButton, QSizePolicy,
                               QVBoxLayout, QWidget)

from ..file_dialogs import announce_saved, ask_save_path, plain_text, with_parts
from ..jobs import Job, JobSlot
from ..plain_text import escape, warn
from ..views.widgets import ElidingLabel
from engine.evaluation.metrics import known_metrics
from engine.evaluation.verdict import metric_label

#: pyqtgraph's global options for every plot, set when the first :class:`PlotPanel` is
#: made (not on import). No antialiasing: Qt's raster engine takes ~0.5 s to paint
#: antialiased lines wider than one pixel (6 lines x 100 points, width 2: 500 ms with,
#: 9 ms without), which froze the window on every hover, zoom and live update.
PYQTGRAPH_OPTIONS = {"antialias": False, "background": "w", "foreground": "#222"}

#: Colour-blind-safe palette (Okabe-Ito), cycled for series.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#000000"]


def light_grid(plot, x: bool = True, y: bool = True, alpha: float = 0.25) -> None:
    """A grid at the labelled ticks and one level below, not finer: pyqtgraph's finest
    grid level tripled the paint time of a plot (measured 9 ms -> 28 ms)."""
    plot.showGrid(x=x, y=y, alpha=alpha)
    for name in ("left", "bottom"):
        plot.getAxis(name).setStyle(maxTickLevel=1)


#: After the eight colours, series repeat them with another marker and a dashed line, so
#: no two of the first 40 series look alike (colour alone would repeat at the ninth).
SYMBOLS = ["o", "s", "t", "d", "star"]


def plain_axes(plot) -> None:
    """Tick labels as the numbers themselves: no "(x0.001)" scale in the axis label (a score
    axis from 0.985 to 0.995 read "Score (x0.001)" with ticks 985 .. 995)."""
    for side in ("left", "bottom", "right", "top"):
        plot.getAxis(side).enableAutoSIPrefix(False)


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def symbol(i: int) -> str:
    """Series ``i``'s marker: circles for the first eight, then squares, triangles, ..."""
    return SYMBOLS[(i // len(PALETTE)) % len(SYMBOLS)]


def line_style(i: int):
    """Series ``i``'s line: solid for the first eight, then dashed, dotted, ..."""
    styles = (Qt.SolidLine, Qt.DashLine, Qt.DotLine, Qt.DashDotLine, Qt.DashDotDotLine)
    return styles[(i // len(PALETTE)) % len(styles)]


@functools.lru_cache(maxsize=1)
def _metric_words() -> tuple:
    """``(words, metric name)`` of every known metric (its name and its label), longest
    first: what to look for in a plot's title and axis labels."""
    pairs = {}
    for name in known_metrics():
        for words in (name, metric_label(name)):
            pairs.setdefault(words.lower(), name)
    return tuple(sorted(pairs.items(), key=lambda pair: -len(pair[0])))


def metric_in(text: str) -> str:
    """The metric that ``text`` names ("" if none), e.g. ``"Score (ROC AUC)"`` -> ``roc_auc``."""
    text = text.lower()
    for words, name in _metric_words():
        if re.search(rf"(?<![\w]){re.escape(words)}(?![\w])", text):
            return name
    return ""


class CountAxis(pg.AxisItem):
    """An axis that can be told to count (folds, repeats): ticks on whole numbers only, so
    no "fold 2.5" is ever labelled."""

    whole_numbers = True

    def tickSpacing(self, minVal, maxVal, size):  # noqa: N802,N803 - pyqtgraph's names
        levels = super().tickSpacing(minVal, maxVal, size)
        if not self.whole_numbers:
            return levels
        return [(spacing, offset) for spacing, offset in levels if spacing >= 1] or [(1.0, 0)]


def count_axis(panel: "PlotPanel", side: str = "bottom") -> CountAxis:
    """Give ``panel``'s plot a :class:`CountAxis` on ``side`` (keeping its label)."""
    label = panel.plot.getAxis(side).labelText
    axis = CountAxis(orientation=side)
    panel.plot.setAxisItems({side: axis})
    panel.plot.setLabel(side, label)
    light_grid(panel.plot)
    plain_axes(panel.plot)
    return axis


def legend_above(panel: "PlotPanel") -> pg.GraphicsLayout:
    """Make the panel's scene a layout: a legend row (row 0) above the plot (row 1), so the
    legend never hides data. Returns the layout (more rows can go below)."""
    layout = pg.GraphicsLayout()
    panel.plot_widget.setCentralItem(layout)
    panel.legend = pg.LegendItem(offset=None, frame=False, labelTextSize="9pt",
                                 horSpacing=14)
    panel.legend.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
    panel.legend.setMinimumWidth(10)   # a long legend is clipped, never the plot
    layout.addItem(panel.legend, row=0, col=0)
    layout.addItem(panel.plot, row=1, col=0)
    layout.layout.setRowStretchFactor(1, 3)
    return layout


#: Every plot panel built (see :func:`panels_in`).
_PANELS: weakref.WeakSet = weakref.WeakSet()


def panels_in(window) -> list:
    """The plot panels inside ``window``, from the panels registered as they are built:
    ``window.findChildren(PlotPanel)`` walks every widget of the window (15-50 ms, and
    new data asks three times)."""
    return [panel for panel in list(_PANELS)
            if shiboken6.isValid(panel) and window.isAncestorOf(panel)]


class PlotView(pg.PlotWidget):
    """A plot widget that places its items for a new size when it is resized, before it
    is painted. pyqtgraph moves the view's items (text labels follow the view's
    transform) only while painting, which asks for a second paint; a page shown for the
    first time painted its plots twice or more in a row."""

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        plot = self.getPlotItem()
        if plot is not None:              # None while pyqtgraph builds the widget
            plot.getViewBox().prepareForPaint()


class PlotPanel(QWidget):
    """A plot with a title row (hover read-out, Save image…) above it."""

    saved = Signal(str)

    def __init__(self, title: str, export_name: str, parent=None, x_label: str = "",
                 y_label: str = "", legend: bool = True):
        super().__init__(parent)
        _PANELS.add(self)
        pg.setConfigOptions(**PYQTGRAPH_OPTIONS)  # before any item reads them (cheap, idempotent)
        self.export_name = export_name
        self._name_hint: Optional[tuple] = None
        self._save_job = JobSlot()
        self.plot_widget = PlotView(parent=self)
        self.plot = self.plot_widget.getPlotItem()
        light_grid(self.plot)
        plain_axes(self.plot)
        if x_label:
            self.plot.setLabel("bottom", x_label)
        if y_label:
            self.plot.setLabel("left", y_label)
        self.legend = self.plot.addLegend(offset=(-10, 10)) if legend else None
        if self.legend is not None:
            self.legend.setLabelTextSize("9pt")
        self.title = ElidingLabel(f"<b>{escape(title)}</b>", self, rich=True)
        self.readout = ElidingLabel("", self)
        self.readout.setStyleSheet("color: #555;")
        self.readout.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.save_button = QPushButton("Save image…", self)
        self.save_button.setToolTip("Save this plot as PNG or SVG")
        self.save_button.clicked.connect(self._ask_save_path)
        header = QHBoxLayout()
        header.addWidget(self.title)
        header.addSpacing(12)
        header.addWidget(self.readout, 1)
        header.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.plot_widget, 1)
        self._hover_proxy = pg.SignalProxy(self.plot.scene().sigMouseMoved, rateLimit=30,
                                           slot=self.on_mouse_moved)

    def insert_above_plot(self, widget: QWidget) -> None:
        """Put ``widget`` (e.g. a :class:`~gui.plots.legend_label.LegendLabel`) between the
        title row and the plot."""
        layout = self.layout()
        layout.insertWidget(layout.indexOf(self.plot_widget), widget)

    # -- hover read-out: subclasses override describe_point
    def describe_point(self, x: float, y: float) -> str:
        """Text for the read-out when the mouse is at data coordinates (x, y)."""
        return f"x = {x:.4g}, y = {y:.4g}"

    def clear_readout(self) -> None:
        """Say nothing until the mouse moves again (what it said was about other data).
        A read-out already empty is left alone: new data clears every plot's, and
        setting a label's text measures it again."""
        if self.readout.text():
            self.readout.setText("")

    def on_mouse_moved(self, event) -> None:
        position = event[0]
        if not self.plot.sceneBoundingRect().contains(position):
            return
        point = self.plot.vb.mapSceneToView(position)
        self.readout.setText(self.describe_point(point.x(), point.y()))

    # -- export
    def set_name_hint(self, *parts) -> None:
        """What the plot shows, for the proposed file name (e.g. ``model, metric``);
        no parts: read it off the title and the axis labels."""
        parts = tuple(str(part) for part in parts if part)
        self._name_hint = parts or None

    def shown_parts(self) -> list:
        """The subject of the title (after its colon: models, metric) and the metric the
        axis labels name."""
        title = plain_text(self.title.text())
        subject = title.split(":", 1)[1] if ":" in title else ""
        subject = re.split(r",| — | \(", subject)[0].strip()
        labels = " ".join(plain_text(self.plot.getAxis(side).labelText)
                          for side in ("left", "bottom"))
        metric = metric_in(f"{title} {labels}")
        if metric_in(subject) == metric:
            subject = ""
        return [subject, metric]

    def proposed_name(self) -> str:
        """The file name proposed when saving: the export name and what the plot shows."""
        parts = self._name_hint if self._name_hint is not None else self.shown_parts()
        return with_parts(self.export_name, parts)

    def _ask_save_path(self) -> None:
        path = ask_save_path(self, "Save image", "images", self.proposed_name(),
                             "PNG image (*.png);;SVG drawing (*.svg)")
        if path:
            self.save_image(path)

    def save_image(self, path: str) -> str:
        """Save the plot as PNG or SVG (by the file name's ending), written off the GUI thread.

        The picture is rendered here (Qt paints on the GUI thread); the file is written
        by a worker. ``saved`` fires with the path when the file is complete.
        """
        if path.lower().endswith(".svg"):
            payload = _render_svg(self.plot_widget)
            work = lambda: _write_bytes(payload, path)  # noqa: E731
        else:
            if not path.lower().endswith(".png"):
                path += ".png"
            image = self.plot_widget.grab().toImage()
            work = lambda: _save_image(image, path)  # noqa: E731
        job = Job(work, name="save-image")
        job.succeeded.connect(self._on_saved)
        job.failed.connect(self._on_save_failed)
        self._save_job.start(job)
        return path

    def wait_for_save(self, msecs: int = 10000) -> bool:
        return self._save_job.wait(msecs)

    def _on_saved(self, path) -> None:
        announce_saved(self, f"Saved the image {os.path.basename(str(path))}", str(path))
        self.saved.emit(str(path))

    def _on_save_failed(self, message: str) -> None:
        warn(self, "Save failed", f"Could not save the image:\n{message}\n\n"
             "Choose another folder or name.")


def _render_svg(widget) -> bytes:
    """The widget drawn as SVG (Qt's own SVG generator; vector text and lines)."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRect, QSize
    from PySide6.QtGui import QPainter
    from PySide6.QtSvg import QSvgGenerator

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(QSize(widget.width(), widget.height()))
    generator.setViewBox(QRect(0, 0, widget.width(), widget.height()))
    generator.setTitle("plot")
    painter = QPainter(generator)
    widget.render(painter)
    painter.end()
    buffer.close()
    return bytes(data.data())


def _write_bytes(payload: bytes, path: str) -> str:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(payload)
    return path


def _save_image(image, path: str) -> str:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    if not image.save(path, "PNG"):
        raise OSError(f"could not write {path}")
    return path
