"""Drawing new results a slice at a time, so the window never freezes when they arrive.

A view that has much to draw (tables, dozens of plot curves) writes its drawing as a
generator that ``yield``s between short pieces of work, and hands it to the application's
:class:`RenderQueue`. The queue runs pieces until its time budget for one turn of the
event loop is spent, then lets Qt paint and handle input before it goes on. Views that
are on screen are drawn first; a newer drawing of the same view replaces the older one.

Measured on 20 models x 10 x 10 folds: drawing everything at once froze the window for
~400 ms; sliced, the longest stall stays under the 50 ms target.
"""
from __future__ import annotations

import time
from typing import Iterator

import shiboken6
from PySide6.QtCore import QObject, QTimer, Signal

#: Work per event-loop turn before Qt gets the thread back (ms).
BUDGET_MS = 12
#: Yielded by a drawing to end the current turn at once (e.g. before a step whose cost
#: is mostly Qt's: layout and painting, which follow in the same turn).
NEXT_TURN = object()


class RenderQueue(QObject):
    """Pending drawings, one per owner (a widget), run in slices on the GUI thread."""

    idle = Signal()   # every pending drawing is done

    def __init__(self, parent=None, budget_ms: float = BUDGET_MS):
        super().__init__(parent)
        self.budget = budget_ms / 1000.0
        self._pending: dict = {}          # owner -> generator, in submission order
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.run_slice)

    @property
    def busy(self) -> bool:
        return bool(self._pending)

    def submit(self, owner, drawing: Iterator) -> None:
        """Draw ``drawing`` (a generator) for ``owner``, replacing its unfinished one."""
        self.cancel(owner)
        self._pending[owner] = drawing
        self._timer.start()

    def cancel(self, owner) -> None:
        """Drop ``owner``'s unfinished drawing (e.g. its result was cleared)."""
        old = self._pending.pop(owner, None)
        if old is None or old.gi_running:            # a drawing may replace itself
            return
        try:
            old.close()
        except RuntimeError:
            if _alive(owner):
                raise
            # the owner's C++ side is already deleted (a window closed mid-drawing): the
            # drawing's own clean-up touched its deleted widgets; nothing is left to draw on

    def finish(self, owner) -> None:
        """Run ``owner``'s unfinished drawing to its end now (e.g. File → New still under
        way when new data is asked for: the data must not be cleared after it came)."""
        drawing = self._pending.pop(owner, None)
        if drawing is not None and not drawing.gi_running:
            draw_now(drawing)

    def flush(self) -> None:
        """Finish every pending drawing now (tests, saving a picture of the screen)."""
        self._timer.stop()
        while self._pending:
            self._step(self._next_owner())
        self.idle.emit()

    def _next_owner(self):
        """Views on screen first, otherwise in the order they were submitted; drawings of
        widgets already deleted (a window closed mid-drawing) are dropped first."""
        for owner in [owner for owner in self._pending if not _alive(owner)]:
            self.cancel(owner)
        if not self._pending:
            return None
        for owner in self._pending:
            if _on_screen(owner):
                return owner
        return next(iter(self._pending))

    def _step(self, owner):
        """One piece of ``owner``'s drawing; returns what it yielded (None for no owner)."""
        if owner is None:
            return None
        drawing = self._pending[owner]
        try:
            return next(drawing)
        except StopIteration:
            if self._pending.get(owner) is drawing:
                del self._pending[owner]
            return None

    def run_slice(self) -> None:
        """One turn of the event loop's share: steps of the pending drawings until the
        budget is spent or one asks for the next turn (the timer calls it; a test may)."""
        deadline = time.perf_counter() + self.budget
        while self._pending and time.perf_counter() < deadline:
            if self._step(self._next_owner()) is NEXT_TURN:
                break
        if self._pending:
            self._timer.start()
        else:
            self.idle.emit()


def _alive(owner) -> bool:
    """False for a Qt object whose C++ side is already deleted."""
    return not isinstance(owner, QObject) or shiboken6.isValid(owner)


def _on_screen(owner) -> bool:
    visible = getattr(owner, "isVisible", None)
    return bool(visible and visible())


def paint_in_turns(queue: RenderQueue, owner, widgets: list) -> None:
    """Paint ``widgets`` (a page just shown) one per turn of the event loop instead of all
    in the turn that shows the page: the first at once, each other one a turn later.
    ``owner`` names the drawing in ``queue`` (a newer call replaces an unfinished one)."""
    queue.cancel(owner)                   # an earlier page's plots all paint again
    if len(widgets) < 2:
        return
    for widget in widgets[1:]:
        widget.setUpdatesEnabled(False)
    drawing = _enable_in_turns(widgets[1:])
    next(drawing)                         # started: closing it now runs its clean-up
    queue.submit(owner, drawing)


def _enable_in_turns(widgets: list):
    try:
        for widget in widgets:
            yield NEXT_TURN
            widget.setUpdatesEnabled(True)
    finally:                              # replaced or cancelled: nothing stays unpainted
        for widget in widgets:
            if shiboken6.isValid(widget):
                widget.setUpdatesEnabled(True)


def draw_now(drawing: Iterator) -> None:
    """Run a drawing generator to its end at once."""
    for _ in drawing:
        pass
