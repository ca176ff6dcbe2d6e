"""Inputs that change only when the user means it: a mouse-wheel turn over a drop-down, a
number box or a slider that the user has not clicked into changes nothing, on every tab and
every Results view, and scrolls the panel under it; once clicked into, the wheel works as
usual. Tables, lists and panels scroll under the wheel (their scroll bars are not guarded)."""
import os

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (QAbstractSlider, QAbstractSpinBox, QApplication, QComboBox,
                               QScrollArea, QScrollBar, QSlider, QTableWidget, QVBoxLayout,
                               QWidget)

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
    """The guarded inputs under ``root`` (scroll bars are meant to scroll)."""
    return [w for kind in (QComboBox, QAbstractSpinBox, QAbstractSlider)
            for w in root.findChildren(kind) if not isinstance(w, QScrollBar)]


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


def combo_column(qtbot, count: int = 40):
    """A short scroll area over a column of ``count`` drop-downs; returns (area, combos)."""
    install_wheel_guard()
    area = QScrollArea()
    qtbot.addWidget(area)
    inner = QWidget()
    layout = QVBoxLayout(inner)
    combos = []
    for _ in range(count):
        combo = QComboBox(inner)
        combo.addItems(["a", "b", "c"])
        layout.addWidget(combo)
        combos.append(combo)
    slider = QSlider(Qt.Horizontal, inner)
    slider.setRange(0, 10)
    layout.addWidget(slider)
    area.setWidget(inner)
    area.resize(200, 150)
    area.show()
    qtbot.waitExposed(area)
    return area, combos + [slider]


def test_a_turn_over_an_unfocused_input_scrolls_the_panel_under_it(qtbot):
    area, guarded_inputs = combo_column(qtbot)
    bar = area.verticalScrollBar()
    assert bar.maximum() > 0 and bar.value() == 0
    wheel(guarded_inputs[0], -1)                    # towards the user: down the panel
    first = bar.value()
    assert first > 0 and guarded_inputs[0].currentIndex() == 0
    wheel(guarded_inputs[1], -2)
    assert bar.value() > first and guarded_inputs[1].currentIndex() == 0
    wheel(guarded_inputs[1], 2)                     # back up
    assert bar.value() == first
    slider = guarded_inputs[-1]
    wheel(slider, -1)
    assert slider.value() == 0


def test_a_turn_over_a_table_or_a_scroll_bar_scrolls_it(qtbot):
    install_wheel_guard()
    table = QTableWidget(300, 3)
    qtbot.addWidget(table)
    table.resize(300, 200)
    table.show()
    qtbot.waitExposed(table)
    bar = table.verticalScrollBar()
    assert bar.value() == 0
    wheel(table.viewport(), -1)                     # over the rows
    over_rows = bar.value()
    assert over_rows > 0
    wheel(bar, -1)                                  # over the scroll bar itself
    assert bar.value() > over_rows


def test_a_turn_over_an_unfocused_input_outside_any_panel_changes_nothing(qtbot):
    install_wheel_guard()
    combo = QComboBox()
    combo.addItems(["a", "b", "c"])
    qtbot.addWidget(combo)
    combo.show()
    qtbot.waitExposed(combo)
    wheel(combo, -1)
    assert combo.currentIndex() == 0


def test_the_dataset_notes_below_the_fold_scroll_under_the_wheel(window, qtbot, tmp_path):
    """At 1280 x 800 the Dataset tab's side column (target, notes) is taller than the
    window; the wheel over it, or over a drop-down in it, scrolls it."""
    from gui.tabs.dataset_tab import SideScroll

    rng = np.random.default_rng(0)
    rows = 200
    frame = pd.DataFrame({"ID": rng.permutation(1000)[:rows],
                          "Survive": np.r_[np.ones(160, int), np.zeros(40, int)],
                          **{f"x{i}": rng.normal(size=rows) for i in range(6)}})
    frame.to_csv(tmp_path / "icu_like.csv", index=False)
    window.resize(1280, 800)
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=20000):
        window.dataset_tab.open_file(str(tmp_path / "icu_like.csv"))
    side = window.dataset_tab.findChild(SideScroll)
    bar = side.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0, timeout=5000)
    combo = next(c for c in side.widget().findChildren(QComboBox) if c.isVisible())
    chosen = combo.currentIndex()
    wheel(combo, -1)
    over_combo = bar.value()
    assert over_combo > 0 and combo.currentIndex() == chosen
    wheel(side.viewport(), -1)
    assert bar.value() > over_combo
