"""Inputs that change only when the user means it: the mouse wheel over a drop-down, a number
box or a slider scrolls the panel under it, not the value, unless the user clicked into it.

One event filter on the application (:func:`install_wheel_guard`, idempotent) covers every
such widget, also the ones created later: each one's focus policy loses *wheel focus* when it
is polished (a wheel turn no longer focuses it), and a wheel turn over one that does not have
the keyboard focus goes to the scroll bar of the nearest scroll area around it that can move
that way (a panel, a table or a list scrolls). Scroll bars are not guarded: a scroll area
hands every wheel turn over its contents to its own scroll bar, so guarding them would leave
nothing able to scroll.
"""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (QAbstractScrollArea, QAbstractSlider, QAbstractSpinBox,
                               QApplication, QComboBox, QScrollBar)

#: The inputs whose value a wheel turn would change.
GUARDED = (QComboBox, QAbstractSpinBox, QAbstractSlider)


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
    """The application's event filter (see the module's docstring)."""

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        # every event of the application passes here (~10,000 when the window is first
        # shown): the widget's class is asked first, as reading the event's type builds
        # a Python enum value each time (about half of this filter's cost)
        if not guarded(watched):
            return False
        kind = event.type()
        if kind == QEvent.Polish:
            without_wheel_focus(watched)
        elif kind == QEvent.Wheel and not watched.hasFocus():
            without_wheel_focus(watched)
            bar = scroll_bar_under(watched, event)
            if bar is not None:
                QApplication.sendEvent(bar, event)   # the panel under it scrolls
            event.ignore()                           # the value stays
            return True
        return False


_GUARD: Optional[WheelGuard] = None


def install_wheel_guard(app: Optional[QApplication] = None) -> WheelGuard:
    """Install the guard on ``app`` (the running application) once; returns it."""
    global _GUARD
    app = app or QApplication.instance()
    if _GUARD is None:
        _GUARD = WheelGuard()
    if not app.property("wheel_guard_installed"):
        app.installEventFilter(_GUARD)
        app.setProperty("wheel_guard_installed", True)
    return _GUARD
