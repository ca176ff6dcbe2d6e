"""Inputs that change only when the user means it: a mouse-wheel turn over a drop-down, a
number box or a slider that the user has not clicked into changes nothing, on every tab and
every Results view; once clicked into, the wheel works as usual."""
import os

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (QAbstractSlider, QAbstractSpinBox, QApplication, QComboBox,
                               QScrollArea, QVBoxLayout, QWidget)

from engine.runs.analysis import run_experiment
from engine.evaluation.experiment import load_experiment
from engine.foundation.progress import run_to_end
from gui.wheel_guard import install_wheel_guard

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")


@pytest.fixture(autouse=True)
def no_questions(monkeypatch):
    monkeypatch.setattr("gui.saving.ask_choice", lambda *args: "discard")


def wheel(widget, steps: int) -> None:
    """One wheel turn of ``steps`` notches (negative: towards the user) over ``widget``."""
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(QPoint(2, 2))), QPoint(0, 0),
                        QPoint(0, 120 * steps), Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase,
                        False)
    QApplication.sendEvent(widget, event)


def value(widget):
    if isinstance(widget, QComboBox):
        return widget.currentIndex()
    if isinstance(widget, QAbstractSpinBox) and not hasattr(widget, "value"):
        return widget.text()                 # the Models tab's number-or-list box
    return widget.value()


def inputs(root) -> list:
    return [w for kind in (QComboBox, QAbstractSpinBox, QAbstractSlider)
            for w in root.findChildren(kind)]


def movable(widget) -> bool:
    """A widget a wheel turn could move (enabled, with somewhere to go)."""
    if not widget.isEnabled():
        return False
    if isinstance(widget, QComboBox):
        return widget.count() > 1
    if not hasattr(widget, "maximum"):
        return True
    return widget.maximum() > widget.minimum()


def every_view(window):
    """Make each tab, and each Results view, current in turn; yields its name."""
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        yield window.tabs.tabText(index)
    views = window.results_tab.views
    window.tabs.setCurrentWidget(window.results_tab)
    for index in range(views.count()):
        views.setCurrentIndex(index)
        yield views.tabText(index)


@pytest.mark.slow
def test_the_wheel_changes_no_unfocused_input_anywhere(window, qtbot):
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=20000):
        window.open_experiment(SEED)
    window.state.set_result(run_to_end(run_experiment(load_experiment(SEED))))
    qtbot.waitUntil(lambda: not window.state.renderer.busy, timeout=20000)
    window.setFocus()
    checked = set()
    for view in every_view(window):
        qtbot.wait(20)
        for widget in inputs(window):
            if not movable(widget) or id(widget) in checked:
                continue
            checked.add(id(widget))
            assert not widget.hasFocus()
            assert widget.focusPolicy() != Qt.WheelFocus, widget.objectName()
            before = value(widget)
            for steps in (-1, 1, 1):
                wheel(widget, steps)
                assert value(widget) == before, (view, type(widget).__name__, widget.toolTip())
    kinds = {kind for widget in inputs(window) if id(widget) in checked
             for kind in (QComboBox, QAbstractSpinBox) if isinstance(widget, kind)}
    assert len(checked) >= 12 and kinds == {QComboBox, QAbstractSpinBox}


def test_the_wheel_works_in_an_input_the_user_clicked_into(window, qtbot):
    box = window.cv_tab.folds_box
    window.tabs.setCurrentWidget(window.cv_tab)
    window.activateWindow()
    before = box.value()
    wheel(box, 1)
    assert box.value() == before
    qtbot.mouseClick(box, Qt.LeftButton)
    box.setFocus()
    qtbot.waitUntil(box.hasFocus, timeout=2000)
    wheel(box, 1)
    assert box.value() == before + 1


def test_a_refused_turn_is_left_for_the_scroll_area_under_it(qtbot):
    install_wheel_guard()
    area = QScrollArea()
    qtbot.addWidget(area)
    inner = QWidget()
    layout = QVBoxLayout(inner)
    combos = []
    for _ in range(40):
        combo = QComboBox(inner)
        combo.addItems(["a", "b", "c"])
        layout.addWidget(combo)
        combos.append(combo)
    area.setWidget(inner)
    area.resize(200, 150)
    area.show()
    qtbot.waitExposed(area)
    event = QWheelEvent(QPointF(5, 5), QPointF(combos[0].mapToGlobal(QPoint(5, 5))),
                        QPoint(0, 0), QPoint(0, -120), Qt.NoButton, Qt.NoModifier,
                        Qt.NoScrollPhase, False)
    # Qt hands a spontaneous wheel event on to the parent when the receiver leaves it
    # unaccepted; a sent one is not handed on, so the refusal itself is checked.
    assert QApplication.sendEvent(combos[0], event) and not event.isAccepted()
    assert combos[0].currentIndex() == 0
