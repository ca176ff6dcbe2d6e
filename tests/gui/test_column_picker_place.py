"""Unticking a ⚠ column keeps the list where it is: the row under the cursor stays under
it (the list kept its scroll position, the text above it its height). A possible leak
starts unticked, so the test ticks it back first, as a user who wants it would."""
import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import Qt


@pytest.fixture(autouse=True)
def discard_unsaved_changes(monkeypatch):
    monkeypatch.setattr("gui.saving.ask_choice", lambda *args: "discard")


def leaky_file(tmp_path):
    """40 noise columns, one that copies the outcome (a leak) among them, the outcome last."""
    rng = np.random.default_rng(3)
    outcome = rng.integers(0, 2, 300)
    frame = pd.DataFrame({f"noise_{i:02d}": rng.normal(size=300) for i in range(40)})
    frame.insert(25, "recorded_after", outcome * 10 + rng.integers(0, 2, 300))
    frame["outcome"] = np.where(outcome == 1, "yes", "no")
    path = tmp_path / "leaky.csv"
    frame.to_csv(path, index=False)
    return path


def test_unticking_a_warned_column_does_not_move_the_list(window, qtbot, tmp_path):
    tab = window.dataset_tab
    with qtbot.waitSignal(tab.view_ready, timeout=20000):
        tab.open_file(str(leaky_file(tmp_path)))
    picker = tab.columns
    item = picker.item("recorded_after")
    assert "⚠" in item.text()                       # the engine flagged it
    assert item.checkState() == Qt.Unchecked         # and a possible leak starts unticked
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        item.setCheckState(Qt.Checked)               # the user ticks it back
    item = picker.item("recorded_after")
    picker.list.scrollToItem(item)
    qtbot.wait(20)
    before_scroll = picker.list.verticalScrollBar().value()
    assert before_scroll > 0
    before_row = picker.list.visualItemRect(item).top()
    before_list = picker.list.mapTo(window, picker.list.rect().topLeft())
    with qtbot.waitSignal(tab.view_ready, timeout=20000):
        item.setCheckState(Qt.Unchecked)             # unticked, as by a click
    qtbot.wait(20)
    after = picker.item("recorded_after")
    assert after.checkState() == Qt.Unchecked
    assert "recorded_after" not in [str(c) for c in window.state.dataset.X.columns]
    assert picker.list.verticalScrollBar().value() == before_scroll
    assert picker.list.visualItemRect(after).top() == before_row
    assert picker.list.mapTo(window, picker.list.rect().topLeft()) == before_list
