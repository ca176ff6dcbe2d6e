"""The skeleton the Results views share (issue #40: one of each).

A :class:`ResultView` is a stack of two pages: a centred hint while the run has nothing
for the view (its :attr:`~ResultView.HINT`, or what :meth:`~ResultView.hint_text` says
for this result), and the content: a :class:`~gui.views.widgets.PageHeader` with the
guide's "?" button, then what :meth:`~ResultView.build` lays out (pickers, a plot, a
:class:`~gui.table_panel.TablePanel` with Copy and Export CSV). It follows
``AppState.result_changed`` (or another of the state's values: :meth:`~ResultView.followed`);
:meth:`~ResultView.part_of` picks what the view shows (None: the hint) and
:meth:`~ResultView.draw` draws it. A ``draw`` written as a generator is drawn through the
application's render queue (:mod:`gui.render_queue`), a piece per turn of the event loop,
views on screen first; a newer result replaces an unfinished drawing and the hint
cancels it. Optional hooks serve the views that start jobs of their own (Calibration,
ALOOCV): :meth:`~ResultView.make_bar` puts a bar above the pages and
:meth:`~ResultView.make_footer` a line below them, :meth:`~ResultView.make_ready` adds a
third page (a run button) that :meth:`~ResultView.part_of` shows by answering
:data:`READY`, :meth:`~ResultView.make_hint` gives a hint page of the view's own, and an
empty :attr:`~ResultView.HEADER` leaves the header out.
"""
from __future__ import annotations

import inspect
from typing import Optional

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QStackedWidget, QVBoxLayout, QWidget

from ..state import AppState
from .widgets import PageHeader, hint_label

#: What :meth:`ResultView.part_of` answers to show the view's ready page (see
#: :meth:`ResultView.make_ready`): the result can have this view's part, not yet made.
READY = object()


class ResultView(QWidget):
    """A hint, or a header and the view's own content, following the state's result.

    Subclasses set :attr:`HINT`, :attr:`HEADER` and :attr:`TOPIC` and write
    :meth:`build`, :meth:`part_of` and :meth:`draw`.
    """

    #: Shown while the result has nothing for this view (the app's markup).
    HINT = ""
    #: The line above the content saying what the view shows (the app's markup).
    HEADER = ""
    #: The guide's topic of the header's "?" button.
    TOPIC = ""
    #: The margins (left, top, right, bottom) around the bar, pages and footer.
    MARGINS = (0, 0, 0, 0)

    def __init__(self, state: AppState, parent=None):
        super().__init__(parent)
        self.state = state
        self.hint_page = self.make_hint()
        self.content = QWidget(self)
        layout = QVBoxLayout(self.content)
        layout.setContentsMargins(0, 0, 0, 0)
        self.header = PageHeader(self.HEADER, self.TOPIC, self.content) if self.HEADER else None
        if self.header is not None:
            layout.addWidget(self.header)
        self.build(self.content, layout)
        self.ready = self.make_ready()
        self.stack = QStackedWidget(self)
        for page in (self.hint_page, self.ready, self.content):
            if page is not None:
                self.stack.addWidget(page)
        self.bar, self.footer = self.make_bar(), self.make_footer()
        self._lay_out()
        changed, value = self.followed(state)
        changed.connect(self.set_result)
        self.set_result(value)

    def _lay_out(self) -> None:
        """The bar (if any), the pages filling the rest, the footer (if any)."""
        outer = QVBoxLayout(self)
        outer.setContentsMargins(*self.MARGINS)
        for widget, stretch in ((self.bar, 0), (self.stack, 1), (self.footer, 0)):
            if widget is not None:
                outer.addWidget(widget, stretch)

    def make_hint(self) -> QWidget:
        """The page shown while the result has nothing for this view: by default
        ``hint``, a centred :attr:`HINT` that :meth:`hint_text` rewrites (a page of the
        view's own sets ``hint`` to the label on it)."""
        self.hint = hint_label(self.HINT, self)
        return self.hint

    def make_bar(self) -> Optional[QWidget]:
        """A widget above the pages, or None (the default: none)."""
        return None

    def make_footer(self) -> Optional[QWidget]:
        """A widget below the pages, or None (the default: none)."""
        return None

    def make_ready(self) -> Optional[QWidget]:
        """A third page, shown when :meth:`part_of` answers :data:`READY`, or None."""
        return None

    def followed(self, state: AppState) -> tuple:
        """The state's signal the view follows and its value now: the run's result."""
        return state.result_changed, state.result

    def build(self, content: QWidget, layout: QVBoxLayout) -> None:
        """Add the view's widgets to ``layout`` (of ``content``, below the header)."""
        raise NotImplementedError

    def part_of(self, result):
        """What of ``result`` this view shows; None (the default) shows the hint,
        :data:`READY` the ready page."""
        return None

    def hint_text(self, result) -> str:
        """The hint for ``result`` (which has nothing for this view): :attr:`HINT`."""
        return self.HINT

    def forget(self) -> None:
        """Drop what the view kept of the result it showed (the hint is shown)."""

    def draw(self, result, part):
        """Draw ``part`` of ``result``; a generator is drawn through the render queue."""
        raise NotImplementedError

    def set_result(self, result) -> None:
        """Show ``result``'s part for this view, or the hint when it has none."""
        part = self.part_of(result)
        if part is None or part is READY:
            self.state.renderer.cancel(self)
            self.forget()
            if part is READY:
                self.stack.setCurrentWidget(self.ready)
                return
            self.hint.setText(self.hint_text(result))
            self.stack.setCurrentWidget(self.hint_page)
            return
        if inspect.isgeneratorfunction(self.draw):
            self.stack.setCurrentWidget(self.content)
            self.state.renderer.submit(self, self.draw(result, part))
            return
        self.draw(result, part)
        self.stack.setCurrentWidget(self.content)


def side_by_side(parent: QWidget, first: QWidget, second: QWidget, sizes=None,
                 orientation=Qt.Horizontal) -> QSplitter:
    """``first`` and ``second`` in a splitter of ``parent`` (a plot beside its table),
    given ``sizes`` (pixels) when not None."""
    splitter = QSplitter(orientation, parent)
    splitter.addWidget(first)
    splitter.addWidget(second)
    if sizes is not None:
        splitter.setSizes(sizes)
    return splitter
