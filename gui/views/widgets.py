"""Small widget helpers shared by the Results views and tab: labels, page headers with
their "?" button, a hint shown until there is a result."""
from __future__ import annotations

import html
import re

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QStackedWidget, QTabWidget,
                               QToolButton, QVBoxLayout, QWidget)

from ..help import help_button
from ..plain_text import plain_label, plain_tip, rich_label

#: The narrowest an :class:`ElidingLabel` asks to be, in pixels.
ELIDED_MINIMUM = 48


class ElidingLabel(QLabel):
    """A one-line label that never makes its window wider than the screen: given less
    room than its text needs, it shows the text shortened with "…" (bold when the text
    is), the whole text in its tooltip. ``text()`` is the text as set: plain text, or
    with ``rich`` the app's markup (data in it put through :func:`gui.plain_text.escape`)."""

    def __init__(self, text: str = "", parent=None, rich: bool = False):
        super().__init__(text, parent)
        self.setTextFormat(Qt.RichText if rich else Qt.PlainText)
        self._own_tip = False
        self._sync_tip()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), ELIDED_MINIMUM), hint.height())

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        super().setText(text)
        self._sync_tip()

    def setToolTip(self, tip: str) -> None:  # noqa: N802 - Qt's name
        self._own_tip = bool(tip)
        super().setToolTip(tip)

    def is_elided(self) -> bool:
        """True while the label shows its text shortened."""
        return self.width() < super().sizeHint().width()

    def _rich(self) -> bool:
        return self.textFormat() == Qt.RichText

    def _plain(self) -> str:
        if not self._rich():
            return self.text().strip()
        return html.unescape(re.sub(r"<[^>]+>", "", self.text())).strip()

    def _sync_tip(self) -> None:
        if not self._own_tip:
            QLabel.setToolTip(self, plain_tip(self._plain()) if self.is_elided() else "")

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._sync_tip()

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if not self.is_elided():
            super().paintEvent(event)
            return
        font = self.font()
        font.setBold(font.bold() or (self._rich() and self.text().lstrip().startswith("<b>")))
        painter = QPainter(self)
        painter.setFont(font)
        painter.setPen(self.palette().color(QPalette.WindowText))
        text = QFontMetrics(font).elidedText(self._plain(), Qt.ElideRight, self.width())
        painter.drawText(self.rect(), Qt.AlignLeft | Qt.AlignVCenter, text)


class ViewTabs(QTabWidget):
    """Tabs of many pages whose height never depends on their width, to the layouts around
    them. Qt asks a tab widget's height for a width from every page, shown or not
    (``QStackedLayout::heightForWidth``), and a page full of wrapped text lays all its
    text out to answer: with the 15 Results views, each relayout of the window cost
    50-120 ms of the window's thread (a view switched, results arriving). The page shown
    still wraps its own text to its own width."""

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return False

    def heightForWidth(self, _width: int) -> int:  # noqa: N802 - Qt's name
        return -1


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


def text_label(text: str, parent, rich: bool = False) -> QLabel:
    """A wrapping, selectable label: plain text, or with ``rich`` the app's markup (data
    in it put through :func:`gui.plain_text.escape`)."""
    label = rich_label(text, parent) if rich else plain_label(text, parent)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextSelectableByMouse)
    return label


def hint_label(text: str, parent) -> QLabel:
    """A view's centred, wrapping hint (the app's markup), shown while it has nothing to
    show."""
    label = rich_label(text, parent)
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignCenter)
    label.setMargin(40)
    return label


def verdict_label(parent) -> QLabel:
    """A wrapping, selectable rich-text label for a view's verdict in words (data in it
    put through :func:`gui.plain_text.escape`)."""
    return text_label("", parent, rich=True)


def fill_with_pages(view: QWidget, *pages: QWidget) -> QStackedWidget:
    """``pages`` (a hint first, then the content) stacked to fill ``view``, edge to edge."""
    stack = QStackedWidget(view)
    for page in pages:
        stack.addWidget(page)
    layout = QVBoxLayout(view)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(stack)
    return stack


def topic_button(topic: str, parent) -> QToolButton:
    """The guide's "?" button for one part of this tab."""
    return help_button(topic, parent, f"What is this? ({topic.replace('_', ' ')}; opens the "
                                      "guide)")


class PageHeader(QWidget):
    """One line (or two) saying what a view shows, with its "?" button."""

    def __init__(self, text: str, topic: str, parent=None):
        super().__init__(parent)
        self.label = rich_label(text, self)
        self.label.setWordWrap(True)
        self.label.setStyleSheet("color: #444;")
        self.help_button = topic_button(topic, self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(2, 0, 2, 2)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.help_button, 0, Qt.AlignTop)
