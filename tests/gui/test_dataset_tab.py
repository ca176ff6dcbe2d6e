"""The Dataset tab, driven offscreen: built-ins, CSV files, target choice, bad files, drops."""
import numpy as np
import pandas as pd
import pytest



from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl  # noqa: E402
from PySide6.QtGui import QDropEvent  # noqa: E402

from engine.data import dataset_from_frame  # noqa: E402
from gui.state import AppState  # noqa: E402
from gui.tabs.dataset_tab import DatasetTab  # noqa: E402


@pytest.fixture
def tab(qtbot):
    state = AppState()
    widget = DatasetTab(state)
    widget.resize(1280, 760)
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.shutdown()


def write_messy_csv(path, rows=60):
    rng = np.random.default_rng(1)
    lines = ["height;colour;weight;species"]
    for i in range(rows):
        height = "" if i % 10 == 3 else f"{rng.normal(170, 10):.1f}"
        colour = ["red", "green", "blue"][i % 3]
        lines.append(f"{height};{colour};{rng.normal(70, 8):.2f};{'cat' if i % 2 else 'dog'}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_builtin_loads_and_fills_the_views(tab, qtbot):
    with qtbot.waitSignal(tab.view_ready, timeout=10000):
        tab.load_builtin("iris")
    dataset = tab.state.dataset
    assert dataset.name == "iris" and dataset.n_rows == 150
    assert "150" in tab.summary.text() and "3 classes" in tab.summary.text()
    assert list(tab.counts_plot.bars.opts["height"]) == [50, 50, 50]
    assert tab.preview.model.rowCount() == 150
    assert tab.preview.model.columnCount() == 5           # 4 features + the target
    assert tab.sample_note.text() == "all 150 rows"
    assert not tab.target_combo.isEnabled()               # built-ins have a fixed target


def test_generator_options_are_used(tab, qtbot):
    with qtbot.waitSignal(tab.view_ready, timeout=10000):
        tab.load_builtin("moons", n_samples=240, noise=0.2, random_state=3)
    assert tab.state.dataset.n_rows == 240
    assert tab.state.dataset.source == {"builtin": "moons", "n_samples": 240, "noise": 0.2,
                                        "random_state": 3}


def test_messy_csv_with_semicolons(tab, qtbot, tmp_path):
    path = write_messy_csv(tmp_path / "animals.csv")
    with qtbot.waitSignal(tab.view_ready, timeout=10000):
        tab.open_csv(str(path))
    dataset = tab.state.dataset
    assert dataset.classes == ("cat", "dog")
    assert dataset.categorical_columns == ["colour"]
    assert dataset.n_missing == 6
    assert any("semicolon" in note for note in dataset.notes)
    text = tab.summary.text()
    assert "Missing values" in text and "colour" in text and "semicolon" in text
    assert tab.preview.model.rowCount() == 60 and tab.preview.model.columnCount() == 4
    assert tab.target_combo.isEnabled() and tab.target_combo.currentText() == "species"
    assert [tab.x_combo.itemText(i) for i in range(tab.x_combo.count())] == ["height", "weight"]


def test_picking_another_target_rederives_the_dataset(tab, qtbot, tmp_path):
    path = write_messy_csv(tmp_path / "animals.csv")
    with qtbot.waitSignal(tab.view_ready, timeout=10000):
        tab.open_csv(str(path))
    tab.target_combo.setCurrentText("colour")
    with qtbot.waitSignal(tab.view_ready, timeout=10000):
        tab.target_combo.activated.emit(tab.target_combo.currentIndex())
    dataset = tab.state.dataset
    assert dataset.target == "colour" and dataset.classes == ("blue", "green", "red")
    assert "species" in dataset.categorical_columns
    assert dataset.source["target"] == "colour"


def test_bad_file_gives_a_dialog_with_the_engine_message(tab, qtbot, tmp_path, warnings_shown):
    bad = tmp_path / "picture.csv"
    bad.write_bytes(b"\x89PNG\x00\x00\x00binary")
    with qtbot.waitSignal(tab.load_failed, timeout=10000):
        tab.open_csv(str(bad))
    qtbot.waitUntil(lambda: len(warnings_shown) == 1)
    title, text = warnings_shown[0]
    assert "binary" in text and "Pick another file" in text
    assert tab.state.dataset is None


def test_one_class_target_is_refused_with_advice(tab, qtbot, tmp_path, warnings_shown):
    path = tmp_path / "one.csv"
    path.write_text("a,b,label\n1,2,x\n3,4,x\n5,6,x\n", encoding="utf-8")
    with qtbot.waitSignal(tab.load_failed, timeout=10000):
        tab.open_csv(str(path))
    qtbot.waitUntil(lambda: len(warnings_shown) == 1)
    assert "only one class" in warnings_shown[0][1]


def test_large_data_is_sampled_for_the_scatter(tab, qtbot):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.normal(size=20000), "b": rng.normal(size=20000),
                          "y": rng.integers(0, 2, 20000)})
    with qtbot.waitSignal(tab.view_ready, timeout=10000):
        tab.state.set_dataset(dataset_from_frame(frame, "y", name="big"))
    assert tab.sample_note.text() == "a random sample of 5,000 of 20,000 rows"
    shown = sum(len(item.data) for item in tab.scatter_plot._items if item.isVisible())
    assert shown == 5000
    assert tab.preview.model.rowCount() == 20000


def test_dropping_a_csv_file_opens_it(tab, qtbot, tmp_path):
    path = write_messy_csv(tmp_path / "dropped.csv")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(QPointF(10, 10), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    with qtbot.waitSignal(tab.view_ready, timeout=10000):
        tab.dropEvent(event)
    assert tab.state.dataset.name == "dropped"
