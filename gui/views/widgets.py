"""Small widget helpers shared by the Results views (ALOOCV, Calibration)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QStackedWidget, QVBoxLayout, QWidget


class blocked:
    """``with blocked(widget):`` no signals from ``widget`` inside."""

    def __init__(self, widget):
        self.widget = widget

    def __enter__(self):
        self.previous = self.widget.blockSignals(True)

    def __exit__(self, *_):
        self.widget.blockSignals(self.previous)


def gap(parent) -> QFrame:
    """A thin vertical line between groups of controls in a bar."""
    line = QFrame(parent)
    line.setFrameShape(QFrame.VLine)
    line.setStyleSheet("color: #ccc;")
    return line


def text_label(text: str, parent) -> QLabel:
    """A wrapping, selectable label."""
    label = QLabel(text, parent)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextSelectableByMouse)
    return label


def hint_label(text: str, parent) -> QLabel:
    """A view's centred, wrapping hint, shown while it has nothing to show."""
    label = QLabel(text, parent)
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignCenter)
    label.setMargin(40)
    return label


def verdict_label(parent) -> QLabel:
    """A wrapping, selectable rich-text label for a view's verdict in words."""
    label = text_label("", parent)
    label.setTextFormat(Qt.RichText)
    return label


def fill_with_pages(view: QWidget, *pages: QWidget) -> QStackedWidget:
    """``pages`` (a hint first, then the content) stacked to fill ``view``, edge to edge."""
    stack = QStackedWidget(view)
    for page in pages:
        stack.addWidget(page)
    layout = QVBoxLayout(view)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(stack)
    return stack


def escape(text: str) -> str:
    """Plain text made safe inside a rich-text label."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
