"""Applying an experiment never blocks the window's thread for seconds (issue #43).

Not a timing unit test: the bound (2 s for any one gap between ticks of a 10 ms timer) is
some forty times the 50 ms target, so a busy machine passes; what fails is a regression
of the kind the issue found (every editor and plot built and redrawn at once, the model
entries parsed again and again), which holds the thread for seconds on large setups.
tests/benchmarks/bench_gui_responsiveness.py measures the real figures.
"""
from __future__ import annotations

import time

from PySide6.QtCore import QTimer

from gui.app import DEFAULT_EXPERIMENT

#: The longest gap allowed between two ticks of the 10 ms timer (seconds).
LONGEST_GAP_S = 2.0


class Gaps:
    """Gaps between the ticks of a 10 ms timer on the window's thread."""

    def __init__(self):
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self.tick)
        self.gaps: list = []
        self.last = None

    def start(self) -> None:
        self.last = time.perf_counter()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()
        self.tick()                       # the time since the last tick counts too

    def tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append(now - self.last)
        self.last = now


def open_and_wait(window, qtbot) -> None:
    with qtbot.waitSignal(window.experiment_loaded, timeout=60000):
        window.open_experiment(DEFAULT_EXPERIMENT)
    qtbot.waitUntil(lambda: not window.state.renderer.busy, timeout=60000)


def test_applying_the_example_experiment_leaves_the_window_responsive(window, qtbot):
    open_and_wait(window, qtbot)           # the first time also imports scikit-learn's parts
    gaps = Gaps()
    gaps.start()
    open_and_wait(window, qtbot)
    gaps.stop()
    assert len(window.state.model_specs()) == 4           # the example's grid: 4 models
    assert len(gaps.gaps) >= 2
    assert max(gaps.gaps) < LONGEST_GAP_S


def test_the_models_editor_is_built_when_first_asked_for(window, qtbot):
    open_and_wait(window, qtbot)
    tab = window.models_tab
    assert not tab.isVisible() and not tab.editor_built       # another tab is on screen
    assert tab.editor_title.text().startswith("<b>Parameters of SVC</b> — SVC:")
    editor = tab.editor                                      # asked for: built now
    assert editor is not None and tab.scroll.widget() is editor
    assert editor.editors["random_state"].values() == [0]      # the example's own value
    window.tabs.setCurrentWidget(tab)
    assert tab.editor is editor                              # not built again when shown
