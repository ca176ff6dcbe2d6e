"""ARFF files and Excel workbooks through the real Dataset tab and main window: the Open
dialog's kinds, Weka's last attribute and declared classes, a workbook's sheets, an old .xls
refused, and the file (and sheet) saved in the experiment and opened again."""
import json
import os

import numpy as np
import pytest

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl  # noqa: E402
from PySide6.QtGui import QDropEvent  # noqa: E402
from PySide6.QtWidgets import QFileDialog  # noqa: E402

from engine.input.readers import load_dataset  # noqa: E402
from tests.peers import peer

openpyxl = peer("openpyxl")

ARFF = """% made for the GUI test
@relation 'garden survey'
@attribute height numeric
@attribute soil {clay, sand, loam}
@attribute planted date 'yyyy-MM-dd'
@attribute verdict {thrives, wilts}
@data
"""


def write_arff(path, rows=40):
    rng = np.random.default_rng(2)
    lines = []
    for i in range(rows):
        soil = ["clay", "sand", "loam"][i % 3]
        verdict = "wilts" if i % 4 == 0 else "thrives"
        if i % 10 == 5:
            lines.append(f"{{0 {rng.normal(30, 5):.2f}, 3 {verdict}}}")         # sparse
        else:
            lines.append(f"{rng.normal(30, 5):.2f}, {soil}, 2021-05-{i % 28 + 1:02d}, {verdict}")
    path.write_text(ARFF + "\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def write_workbook(path):
    book = openpyxl.Workbook()
    first = book.active
    first.title = "Trees"
    first.append(["girth", "bark", "kind"])
    for i in range(30):
        first.append([1.5 + i % 7, ["smooth", "rough"][i % 2], "oak" if i % 3 else "ash"])
    second = book.create_sheet("Shrubs")
    second.append(["width", "leaves", "berries", "family"])
    for i in range(24):
        second.append([i * 0.5, 10 + i, "yes" if i % 2 else "no", "rose" if i % 4 else "heath"])
    book.save(path)
    return str(path)


@pytest.fixture(autouse=True)
def discard_unsaved_changes(monkeypatch):
    """The main window (the conftest's ``window``) discards unsaved changes without asking."""
    monkeypatch.setattr("gui.saving.ask_choice", lambda *args: "discard")


def open_file(window, qtbot, path):
    tab = window.dataset_tab
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.open_file(path)
    return tab.state.dataset


def test_the_open_dialog_offers_every_kind(window, qtbot, monkeypatch, tmp_path):
    path = write_arff(tmp_path / "garden.arff")
    asked = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda parent, title, start, filters, *a: asked.append(filters)
                        or (path, ""))
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=60000):
        window.open_data_action.trigger()
    kinds = asked[0].split(";;")
    assert kinds[0] == "Data files (*.csv *.tsv *.txt *.arff *.xlsx *.xlsm)"
    assert kinds[1:] == ["CSV files (*.csv *.tsv *.txt)", "ARFF files (*.arff)",
                         "Excel workbooks (*.xlsx *.xlsm)", "All files (*)"]
    assert window.state.dataset.name == "garden survey"


def test_an_arff_file_loads_as_weka_reads_it(window, qtbot, tmp_path):
    path = write_arff(tmp_path / "garden.arff")
    dataset = open_file(window, qtbot, path)
    tab = window.dataset_tab
    expected = load_dataset({"file": path})
    assert dataset.name == "garden survey" and dataset.target == "verdict"
    assert dataset.classes == ("thrives", "wilts") == expected.classes   # declared order
    np.testing.assert_array_equal(dataset.y, expected.y)
    np.testing.assert_array_equal(dataset.X["planted"], expected.X["planted"])
    assert dataset.source == {"file": path, "target": "verdict"}
    assert "using the last attribute, 'verdict', as Weka does (pick another one above)" in \
        tab.notes_label.text()
    assert "seconds since 1970" in tab.notes_label.text()
    assert "written sparsely" in tab.notes_label.text()
    assert [tab.target_combo.itemText(i) for i in range(tab.target_combo.count())] == \
        ["height", "soil", "planted", "verdict"]
    assert not tab.target_form.isRowVisible(tab.sheet_combo)
    index = tab.target_combo.findText("soil")
    tab.target_combo.setCurrentIndex(index)
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.target_combo.activated.emit(index)
    soil = window.state.dataset
    assert soil.classes == ("clay", "sand", "loam") and soil.source["target"] == "soil"


def test_a_workbook_offers_its_sheets(window, qtbot, tmp_path):
    path = write_workbook(tmp_path / "plants.xlsx")
    dataset = open_file(window, qtbot, path)
    tab = window.dataset_tab
    assert dataset.name == "plants" and dataset.target == "kind" and dataset.n_rows == 30
    assert tab.target_form.isRowVisible(tab.sheet_combo)
    assert [tab.sheet_combo.itemText(i) for i in range(tab.sheet_combo.count())] == \
        ["Trees", "Shrubs"]
    assert tab.sheet_combo.currentText() == "Trees"
    assert "read the sheet 'Trees' of the 2 in the workbook (pick another one under Sheet)" \
        in tab.notes_label.text()
    tab.sheet_combo.setCurrentIndex(1)
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.sheet_combo.activated.emit(1)
    shrubs = window.state.dataset
    assert shrubs.source == {"file": path, "sheet": "Shrubs"}    # two candidates: none named
    assert shrubs.target == "family"                               # the first, shown
    assert tab.candidate_buttons[0].text().startswith("family  —  ")
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.candidate_buttons[0].click()
    shrubs = window.state.dataset
    assert shrubs.source == {"file": path, "sheet": "Shrubs", "target": "family"}
    assert list(shrubs.X.columns) == ["width", "leaves", "berries"] and shrubs.n_rows == 24
    assert tab.sheet_combo.currentText() == "Shrubs"
    assert shrubs.X.equals(load_dataset({"file": path, "sheet": "Shrubs", "target": "family"}).X)


def test_the_file_and_sheet_are_saved_and_opened_again(window, qtbot, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    path = write_workbook(project / "plants.xlsx")
    open_file(window, qtbot, path)
    tab = window.dataset_tab
    tab.sheet_combo.setCurrentIndex(1)
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.sheet_combo.activated.emit(1)
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.candidate_buttons[0].click()                      # family
    window.models_tab.add_model("GaussianNB")
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        window.save_experiment(str(project / "study.json"))
    saved = json.loads((project / "study.json").read_text(encoding="utf-8"))
    assert saved["dataset"] == {"file": "plants.xlsx", "sheet": "Shrubs", "target": "family"}
    moved = tmp_path / "moved"
    project.rename(moved)
    with qtbot.waitSignals([window.experiment_loaded, tab.view_ready], timeout=20000):
        window.open_experiment(str(moved / "study.json"))
    again = window.state.dataset
    assert again.source == {"file": str(moved / "plants.xlsx"), "sheet": "Shrubs",
                            "target": "family"}
    assert again.n_rows == 24 and tab.sheet_combo.currentText() == "Shrubs"
    assert not window.is_dirty()


def test_an_old_xls_file_is_refused_with_advice(window, qtbot, tmp_path, warnings_shown):
    old = tmp_path / "old.xls"
    old.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(200))
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(old))])
    event = QDropEvent(QPointF(10, 10), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    with qtbot.waitSignal(window.dataset_tab.load_failed, timeout=60000):
        window.dropEvent(event)
    qtbot.waitUntil(lambda: len(warnings_shown) == 1)
    assert "save it as an Excel workbook (.xlsx) or as CSV" in warnings_shown[0][1]
    assert window.state.dataset is None or "builtin" in window.state.dataset.source


def test_dropping_an_arff_file_opens_it(window, qtbot, tmp_path):
    path = write_arff(tmp_path / "dropped.arff")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(path)])
    event = QDropEvent(QPointF(10, 10), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=60000):
        window.dropEvent(event)
    assert window.state.dataset.source["file"] == os.path.abspath(path)
