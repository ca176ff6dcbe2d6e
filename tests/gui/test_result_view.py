"""The Results views' base class (gui.views.result_view, issue #40): the hint until the
state's result has the view's part, then the header and content; a drawing written as a
generator goes through the render queue, and the hint cancels an unfinished one."""
from __future__ import annotations

from types import SimpleNamespace

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from gui.state import AppState
from gui.views.result_view import READY, ResultView


class Numbers(ResultView):
    """Shows ``result.numbers``, a label's text per number, one per slice."""

    HINT, HEADER, TOPIC = "<p>No numbers</p>", "The numbers", "summary"

    def build(self, content: QWidget, layout: QVBoxLayout) -> None:
        self.label = QLabel("", content)
        layout.addWidget(self.label)
        self.drawn = []

    def part_of(self, result):
        return getattr(result, "numbers", None) or None

    def hint_text(self, result) -> str:
        return "<p>An empty list</p>" if getattr(result, "numbers", None) == [] else self.HINT

    def draw(self, result, numbers):
        for number in numbers:
            self.drawn.append(number)
            self.label.setText(str(number))
            yield


class Plain(Numbers):
    """The same view, drawn at once."""

    def draw(self, result, numbers) -> None:
        self.drawn = list(numbers)


def test_the_hint_until_the_result_has_the_views_part_then_the_content(qtbot):
    state = AppState()
    view = Plain(state)
    qtbot.addWidget(view)
    assert view.stack.currentWidget() is view.hint and view.hint.text() == Numbers.HINT
    assert view.header.label.text() == "The numbers"
    state.set_result(SimpleNamespace(numbers=[4, 5]))
    assert view.stack.currentWidget() is view.content and view.drawn == [4, 5]
    state.set_result(SimpleNamespace(numbers=[]))
    assert view.stack.currentWidget() is view.hint
    assert view.hint.text() == "<p>An empty list</p>"


def test_a_generator_is_drawn_in_slices_and_the_hint_cancels_it(qtbot):
    state = AppState()
    view = Numbers(state)
    qtbot.addWidget(view)
    state.set_result(SimpleNamespace(numbers=[1, 2, 3]))
    assert view.stack.currentWidget() is view.content and view.drawn == []
    assert state.renderer.busy
    state.renderer.flush()
    assert view.drawn == [1, 2, 3] and view.label.text() == "3"
    state.set_result(SimpleNamespace(numbers=[7, 8]))
    state.set_result(None)                     # before the drawing ran: it is dropped
    assert not state.renderer.busy and view.stack.currentWidget() is view.hint
    state.renderer.flush()
    assert view.drawn == [1, 2, 3]


def test_a_view_built_after_the_result_shows_it_at_once(qtbot):
    state = AppState()
    state.set_result(SimpleNamespace(numbers=[9]))
    view = Plain(state)
    qtbot.addWidget(view)
    assert view.stack.currentWidget() is view.content and view.drawn == [9]


class Staged(Plain):
    """A bar above the pages, a footer below, a ready page for a result whose numbers
    are not made yet (``numbers`` None), no header."""

    HEADER = ""
    MARGINS = (6, 6, 6, 6)

    def make_bar(self) -> QWidget:
        return QLabel("bar", self)

    def make_footer(self) -> QWidget:
        return QLabel("footer", self)

    def make_ready(self) -> QWidget:
        return QLabel("ready to run", self)

    def part_of(self, result):
        if result is None:
            return None
        numbers = getattr(result, "numbers", None)
        return READY if numbers is None else numbers


def test_the_hooks_add_a_bar_a_footer_and_a_ready_page(qtbot):
    state = AppState()
    view = Staged(state)
    qtbot.addWidget(view)
    layout = view.layout()
    assert [layout.itemAt(i).widget() for i in range(layout.count())] == \
        [view.bar, view.stack, view.footer]
    assert layout.contentsMargins().left() == 6 and view.header is None
    assert view.stack.count() == 3 and view.stack.currentWidget() is view.hint
    state.set_result(SimpleNamespace(numbers=None))
    assert view.stack.currentWidget() is view.ready and view.drawn == []
    state.set_result(SimpleNamespace(numbers=[7]))
    assert view.stack.currentWidget() is view.content and view.drawn == [7]
    state.set_result(None)
    assert view.stack.currentWidget() is view.hint_page is view.hint


def test_without_hooks_there_is_no_bar_footer_or_ready_page(qtbot):
    view = Plain(AppState())
    qtbot.addWidget(view)
    assert view.bar is None and view.footer is None and view.ready is None
    assert view.stack.count() == 2 and view.layout().count() == 1
