"""Inputs that change only when the user means it: the mouse wheel over a drop-down, a number
box or a slider scrolls the panel under it, not the value, unless the user clicked into it.

The application's style (:func:`install_wheel_guard`, idempotent) covers every such widget,
also the ones created later: when one is polished, its focus policy loses *wheel focus* (a
wheel turn no longer focuses it) and it gets the guard as its own event filter, so a wheel
turn over one that does not have the keyboard focus goes to the scroll bar of the nearest
scroll area around it that can move that way (a panel, a table or a list scrolls). Only the
guarded widgets' events pass through Python: a filter on the whole application would run for
every event of the window, each one a hand-over of the GIL while a loading thread runs.
Scroll bars are not guarded: a scroll area hands every wheel turn over its contents to its
own scroll bar, so guarding them would leave nothing able to scroll.
"""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (QAbstractScrollArea, QAbstractSlider, QAbstractSpinBox,
                               QApplication, QComboBox, QProxyStyle, QScrollBar, QWidget)

#: The inputs whose value a wheel turn would change.
GUARDED = (QComboBox, QAbstractSpinBox, QAbstractSlider)
WHEEL = QEvent.Type.Wheel


def guarded(widget) -> bool:
    """True for a drop-down, number box or slider; a scroll bar is not guarded."""
    return isinstance(widget, GUARDED) and not isinstance(widget, QScrollBar)


def without_wheel_focus(widget) -> None:
    """Click or Tab focuses ``widget``; a wheel turn no longer does."""
    if widget.focusPolicy() == Qt.WheelFocus:
        widget.setFocusPolicy(Qt.StrongFocus)


def scroll_bar_under(widget, event) -> Optional[QScrollBar]:
    """The scroll bar a wheel ``event`` over ``widget`` should move: that of the nearest
    scroll area around ``widget`` with room in the event's direction, or None."""
    sideways = abs(event.angleDelta().x()) > abs(event.angleDelta().y())
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            bar = parent.horizontalScrollBar() if sideways else parent.verticalScrollBar()
            if bar.maximum() > bar.minimum():
                return bar
        parent = parent.parentWidget()
    return None


class WheelGuard(QObject):
    """The event filter of each guarded input (see the module's docstring)."""

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() != WHEEL or watched.hasFocus():
            return False
        without_wheel_focus(watched)
        bar = scroll_bar_under(watched, event)
        if bar is not None:
            QApplication.sendEvent(bar, event)   # the panel under it scrolls
        event.ignore()                           # the value stays
        return True


class GuardStyle(QProxyStyle):
    """The application's style, unchanged, but for guarding each input as it is polished."""

    def __init__(self, base, guard: WheelGuard):
        super().__init__(base)
        self._guard = guard

    def polish(self, target):
        """Qt's polish of ``target`` (a widget, the application or a palette); a guarded
        widget also loses wheel focus and gets the guard's filter."""
        polished = super().polish(target)
        if isinstance(target, QWidget) and guarded(target):
            without_wheel_focus(target)
            target.installEventFilter(self._guard)   # Qt keeps one copy if installed again
        return polished


_GUARD: Optional[WheelGuard] = None
_STYLES: list = []     # the styles made here, kept alive as long as the application


def install_wheel_guard(app: Optional[QApplication] = None) -> WheelGuard:
    """Guard every input of ``app`` (the running application), once; returns the guard.

    The application's current style is wrapped in a :class:`GuardStyle`; setting a style
    re-polishes every widget there is, so inputs made before this call are guarded too.
    """
    global _GUARD
    app = app or QApplication.instance()
    if _GUARD is None:
        _GUARD = WheelGuard()
    if not isinstance(app.style(), GuardStyle):
        style = GuardStyle(app.style().name(), _GUARD)
        _STYLES.append(style)
        app.setStyle(style)
    return _GUARD
