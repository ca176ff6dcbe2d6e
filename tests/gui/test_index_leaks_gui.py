"""The Dataset tab on files exported by R and pandas: the index column unticked (and ticked
back), a leak marked ⚠ and unticked, the biopsy ID offered as groups, and a workbook whose
first sheet is notes opened through the sheet picker."""
import os

import openpyxl
import pandas as pd
import pytest

pytest.importorskip("PySide6")

from PySide6.QtWidgets import QInputDialog  # noqa: E402

from engine.input.readers import load_dataset  # noqa: E402
from tests.gui.helpers import boxes, click_box


@pytest.fixture
def tab(dataset_tab):
    """The Dataset tab (tests/gui/conftest.py), which this module's tests drive."""
    return dataset_tab


EXPORTS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "exports")
GLASS_R = os.path.join(EXPORTS, "glass_r.csv")
BIOPSY_R = os.path.join(EXPORTS, "biopsy_r.csv")
TITANIC = os.path.join(EXPORTS, "titanic_pandas.csv")


def open_path(tab, qtbot, path):
    with qtbot.waitSignal(tab.view_ready, timeout=20000):
        tab.open_file(path)
    return tab.state.dataset


def pick_target(tab, qtbot, target):
    tab.target_combo.setCurrentText(target)
    with qtbot.waitSignal(tab.view_ready, timeout=20000):
        tab.target_combo.activated.emit(tab.target_combo.currentIndex())
    return tab.state.dataset


def test_the_index_is_unticked_with_its_note_and_can_be_ticked_back(tab, qtbot):
    assert open_path(tab, qtbot, GLASS_R).target == "type"    # the only candidate, shown
    assert "target" not in tab.state.dataset.source           # and waiting for its click
    dataset = pick_target(tab, qtbot, "type")
    assert dataset.target == "type" and "Unnamed: 0" not in dataset.X.columns
    assert boxes(tab)["Unnamed: 0"] == (False, True)          # unticked, can be ticked
    item = tab.columns.item("Unnamed: 0")
    assert "row index as R or pandas write it" in item.toolTip()
    assert "Tick to use it as a feature anyway" in item.toolTip()
    assert "left out index-like column(s): 'Unnamed: 0'" in tab.notes_label.text()
    assert '"features"' not in tab.notes_label.text()
    assert dataset.X.equals(load_dataset({"csv": GLASS_R, "target": "type"}).X)
    click_box(qtbot, tab, "Unnamed: 0")                       # ticked back: kept, a leak
    kept = tab.state.dataset
    assert kept.source["features"] == ["Unnamed: 0"] and "Unnamed: 0" in kept.X.columns
    assert boxes(tab)["Unnamed: 0"] == (True, True)
    assert "⚠ possible leak" in tab.columns.item("Unnamed: 0").text()
    assert "6 runs of one class (6 classes)" in tab.columns.item("Unnamed: 0").toolTip()
    tab.state.set_model_entries([{"estimator": "GaussianNB"}])
    assert tab.state.to_experiment().dataset["features"] == ["Unnamed: 0"]
    click_box(qtbot, tab, "Unnamed: 0")                       # and out again
    out = tab.state.dataset
    assert "Unnamed: 0" not in out.X.columns and "features" not in out.source
    assert boxes(tab)["Unnamed: 0"] == (False, True)
    click_box(qtbot, tab, "Unnamed: 0")
    assert tab.state.dataset.source.get("features") == ["Unnamed: 0"]
    assert "exclude" not in tab.state.dataset.source


def test_a_leak_is_marked_and_unticked_on_a_three_class_target(tab, qtbot, tmp_path):
    frame = pd.read_csv(TITANIC).drop(columns="Unnamed: 0")
    frame["deck"] = frame["passengerClass"].map({"1st": "A", "2nd": "E", "3rd": "G"})
    frame.loc[[4, 400, 900], "deck"] = "E"                   # a few slips
    path = tmp_path / "titanic_deck.csv"
    frame.to_csv(path, index=False)
    open_path(tab, qtbot, str(path))
    dataset = pick_target(tab, qtbot, "passengerClass")
    assert dataset.source["exclude"] == ["deck"] and "deck" not in dataset.X.columns
    assert boxes(tab)["deck"] == (False, True)
    deck = tab.columns.item("deck")
    assert "⚠ possible leak" in deck.text()
    share = 100 * (len(frame) - 3) / len(frame)
    assert f"for {share:.1f}% of rows" in deck.toolTip()
    assert "⚠" in tab.columns.count_label.text()


def test_the_biopsy_id_is_offered_as_groups(tab, qtbot):
    dataset = open_path(tab, qtbot, BIOPSY_R)
    if dataset.target != "class":
        dataset = pick_target(tab, qtbot, "class")
    box = tab.groups_box
    assert box.suggest_button.isVisible() and "'ID'" in box.suggest_button.text()
    assert "⚠ identifier" in tab.columns.item("ID").text()
    with qtbot.waitSignal(tab.view_ready, timeout=20000):
        box.suggest_button.click()
    grouped = tab.state.dataset
    assert grouped.source["groups"] == "ID" and "ID" not in grouped.X.columns
    assert len(set(grouped.groups)) == 645


def write_notes_first(path):
    book = openpyxl.Workbook()
    notes = book.active
    notes.title = "Read me"
    for line in ("Glass fragments, exported from R's MASS::fgl.", "", "Columns: see sheet 2."):
        notes.append([line])
    data = book.create_sheet("glass")
    frame = pd.read_csv(GLASS_R).drop(columns="Unnamed: 0")
    data.append(list(frame.columns))
    for row in frame.itertuples(index=False):
        data.append(list(row))
    empty = book.create_sheet("empty")
    empty.append(["a header", "and no rows"])
    book.save(path)
    return str(path), frame


def test_a_workbook_with_notes_first_opens_through_the_sheet_picker(tab, qtbot, tmp_path,
                                                                    monkeypatch,
                                                                    warnings_shown):
    path, frame = write_notes_first(tmp_path / "glass.xlsx")
    asked = []

    def pick(parent, title, label, items, current, editable):
        asked.append((title, label, list(items)))
        return "glass", True

    monkeypatch.setattr(QInputDialog, "getItem", pick)
    dataset = open_path(tab, qtbot, path)
    (title, label, items), = asked
    assert items == ["glass", "empty"]
    assert "This sheet cannot be used: the sheet 'Read me' of" in label
    assert "1 column(s)" in label and '"sheet"' not in label
    assert dataset.source["sheet"] == "glass" and dataset.target == "type"
    assert dataset.X.shape == (214, 9)
    assert tab.target_form.isRowVisible(tab.sheet_combo)
    assert [tab.sheet_combo.itemText(i) for i in range(3)] == ["Read me", "glass", "empty"]
    # another sheet that is not a table: why, and the others offered; declined, the data stays
    monkeypatch.setattr(QInputDialog, "getItem",
                        lambda parent, title, label, items, *rest:
                        asked.append((title, label, list(items))) or ("", False))
    tab.sheet_combo.setCurrentIndex(2)
    tab.sheet_combo.activated.emit(2)
    qtbot.waitUntil(lambda: len(asked) == 2, timeout=20000)
    title, label, items = asked[1]
    assert "no rows of data" in label and items == ["Read me", "glass"]
    qtbot.waitUntil(lambda: tab.sheet_combo.currentText() == "glass", timeout=5000)
    assert tab.state.dataset is dataset and not warnings_shown


def test_declining_the_sheet_picker_keeps_the_data(tab, qtbot, tmp_path, monkeypatch):
    path, _ = write_notes_first(tmp_path / "glass.xlsx")
    with qtbot.waitSignal(tab.view_ready, timeout=20000):
        tab.load_builtin("iris")
    before = tab.state.dataset
    shown = []
    monkeypatch.setattr(QInputDialog, "getItem",
                        lambda *args: (shown.append(args) or ("", False)))
    tab.open_file(path)
    qtbot.waitUntil(lambda: len(shown) == 1, timeout=20000)
    qtbot.wait(50)
    assert tab.state.dataset is before
