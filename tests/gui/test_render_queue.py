"""The render queue drops the drawing of a widget deleted mid-drawing, even when the
drawing's own clean-up touches that widget (a window closed while a result is drawn)."""
import shiboken6
import pytest
from PySide6.QtWidgets import QWidget

from gui.render_queue import NEXT_TURN, RenderQueue, paint_in_turns


def drawing(widget, steps):
    widget.setUpdatesEnabled(False)
    try:
        for _ in range(3):
            steps.append(1)
            yield NEXT_TURN
    finally:
        widget.setUpdatesEnabled(True)        # fails once the widget is deleted


def test_a_drawing_of_a_deleted_widget_is_dropped_quietly(qapp):
    queue, steps = RenderQueue(), []
    widget = QWidget()
    started = drawing(widget, steps)
    next(started)                             # one piece drawn
    queue.submit(widget, started)
    shiboken6.delete(widget)
    queue.flush()                             # the deleted widget's drawing is dropped
    assert steps == [1] and not queue.busy


def test_a_living_widgets_failing_clean_up_is_not_hidden(qapp):
    queue = RenderQueue()
    owner = QWidget()

    def broken():
        try:
            yield NEXT_TURN
        finally:
            raise RuntimeError("a real error of a living view")

    started = broken()
    next(started)
    queue.submit(owner, started)
    with pytest.raises(RuntimeError, match="living view"):
        queue.cancel(owner)


def test_a_page_shown_paints_one_plot_per_turn(qapp):
    queue, owner = RenderQueue(), object()
    plots = [QWidget() for _ in range(3)]
    paint_in_turns(queue, owner, plots)
    assert [p.updatesEnabled() for p in plots] == [True, False, False]
    queue.run_slice()                        # the next turn: one more
    assert [p.updatesEnabled() for p in plots] == [True, True, False]
    queue.flush()
    assert all(p.updatesEnabled() for p in plots) and not queue.busy


def test_a_page_left_early_leaves_no_plot_unpainted(qapp):
    queue, owner = RenderQueue(), object()
    plots = [QWidget() for _ in range(3)]
    paint_in_turns(queue, owner, plots)
    assert queue.busy
    paint_in_turns(queue, owner, [QWidget()])  # another page shown (one plot: no spreading)
    assert all(p.updatesEnabled() for p in plots) and not queue.busy


def test_finish_runs_one_owners_drawing_to_its_end_and_leaves_the_others(qapp):
    queue, steps = RenderQueue(), []

    def counting(name):
        for step in range(3):
            steps.append((name, step))
            yield NEXT_TURN

    queue.submit("reset", counting("reset"))
    queue.submit("other", counting("other"))
    queue.finish("reset")
    assert steps == [("reset", 0), ("reset", 1), ("reset", 2)]
    assert queue.busy                            # the other drawing still waits its turns
    queue.finish("reset")                        # nothing left of it: nothing happens
    queue.flush()
    assert steps[3:] == [("other", 0), ("other", 1), ("other", 2)] and not queue.busy
