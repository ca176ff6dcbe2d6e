"""Helpers shared by the GUI test modules: driving widgets as a user would, and data they
open (shared fixtures live in tests/gui/conftest.py; waits in tests/gui/waiting.py).

A test module imports what it needs from here, never from another test module.
"""
import os

import numpy as np
import pandas as pd
from PySide6.QtCore import QPoint, Qt
from sklearn.datasets import make_classification

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#: The app's seed example (SVC kernels on the moons data).
SEED = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")


def open_seed(window, qtbot, path=SEED):
    """Open an experiment in the main window and wait until its data set is shown."""
    with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                           timeout=20000):
        window.open_experiment(path)


def expanded(tab):
    """The names in the Models tab's list of expanded models."""
    return [tab.expanded_list.item(i).text().split(":")[0] for i in range(tab.expanded_list.count())]


def type_into(qtbot, editor, text):
    """Type like a user: select what is there, type over it, press Return."""
    line = editor.lineEdit() if hasattr(editor, "lineEdit") else editor
    line.selectAll()
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key_Return)


def write_skewed_csv(path):
    """200 rows, four features, 90% "ok" and 10% "fault" in ``status``."""
    X, y = make_classification(200, n_features=4, n_informative=2, weights=[0.9],
                               random_state=2)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    frame["status"] = np.where(y == 1, "fault", "ok")
    frame.to_csv(path, index=False)
    return frame


def click(qtbot, check):
    """Click the box itself (a check stretched over its row takes no click at its centre)."""
    check.ensurePolished()
    qtbot.mouseClick(check, Qt.LeftButton, pos=QPoint(6, check.height() // 2))


def choose(combo, data) -> None:
    """Pick the item holding ``data`` as a user would (``activated`` is emitted)."""
    index = combo.findData(data)
    assert index >= 0, data
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def click_box(qtbot, tab, name, wait=True):
    """Click the check box of column ``name`` in the Dataset tab's feature list."""
    item = tab.columns.item(name)
    assert item is not None, f"no check box for {name!r}"
    view = tab.columns.list
    view.scrollToItem(item)
    rect = view.visualItemRect(item)
    where = QPoint(rect.left() + 10, rect.center().y())
    if not wait:
        qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=where)
        return
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=where)


def boxes(tab):
    """Column -> (ticked, can be changed) of the Dataset tab's feature list."""
    out = {}
    for i in range(tab.columns.list.count()):
        item = tab.columns.list.item(i)
        out[item.data(Qt.UserRole)] = (item.checkState() == Qt.Checked,
                                       bool(item.flags() & Qt.ItemIsEnabled))
    return out
