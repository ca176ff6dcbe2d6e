"""The Dataset tab, driven offscreen: built-ins, CSV files, target choice, bad files, drops,
the feature check boxes, the positive class and the notes that follow them."""
import os

import numpy as np
import pandas as pd
import pytest

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl  # noqa: E402
from PySide6.QtGui import QDropEvent  # noqa: E402

import gui.dataset_loading as dataset_loading  # noqa: E402
from engine.input.data import dataset_from_frame, load_csv  # noqa: E402
from gui.dataset_loading import file_dataset, with_changes  # noqa: E402
from tests.gui.helpers import boxes, click_box


@pytest.fixture
def tab(dataset_tab):
    """The Dataset tab (tests/gui/conftest.py), which this module's tests drive."""
    return dataset_tab


LOGISTIC = {"estimator": "LogisticRegression", "scale": True}
PENGUINS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "penguins.csv")


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
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
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
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.load_builtin("moons", n_samples=240, noise=0.2, random_state=3)
    assert tab.state.dataset.n_rows == 240
    assert tab.state.dataset.source == {"builtin": "moons", "n_samples": 240, "noise": 0.2,
                                        "random_state": 3}


def test_messy_csv_with_semicolons(tab, qtbot, tmp_path):
    path = write_messy_csv(tmp_path / "animals.csv")
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.open_file(str(path))
    dataset = tab.state.dataset
    assert dataset.classes == ("cat", "dog")
    assert dataset.categorical_columns == ["colour"]
    assert dataset.n_missing == 6
    assert any("semicolon" in str(note) for note in dataset.notes)
    text = tab.summary.text()
    assert "Missing values" in text and "colour" in text
    assert "semicolon" in tab.notes_label.text()
    assert tab.preview.model.rowCount() == 60 and tab.preview.model.columnCount() == 4
    assert tab.target_combo.isEnabled() and tab.target_combo.currentText() == ""
    assert dataset.target == "species" and "target" not in dataset.source   # two candidates
    assert tab.candidate_buttons[0].text() == \
        "species  —  named like an outcome (species), 2 classes, the last column"
    assert [tab.x_combo.itemText(i) for i in range(tab.x_combo.count())] == ["height", "weight"]


def test_picking_another_target_rederives_the_dataset(tab, qtbot, tmp_path):
    path = write_messy_csv(tmp_path / "animals.csv")
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.open_file(str(path))
    tab.target_combo.setCurrentText("colour")
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.target_combo.activated.emit(tab.target_combo.currentIndex())
    dataset = tab.state.dataset
    assert dataset.target == "colour" and dataset.classes == ("blue", "green", "red")
    assert "species" in dataset.categorical_columns
    assert dataset.source["target"] == "colour"


def test_bad_file_gives_a_dialog_with_the_engine_message(tab, qtbot, tmp_path, warnings_shown):
    bad = tmp_path / "picture.csv"
    bad.write_bytes(b"\x89PNG\x00\x00\x00binary")
    with qtbot.waitSignal(tab.load_failed, timeout=60000):
        tab.open_file(str(bad))
    qtbot.waitUntil(lambda: len(warnings_shown) == 1)
    title, text = warnings_shown[0]
    assert "binary" in text and "Pick another file" in text
    assert tab.state.dataset is None


def test_one_class_target_is_refused_with_advice(tab, qtbot, tmp_path, warnings_shown):
    path = tmp_path / "one.csv"
    path.write_text("a,b,label\n1,2,x\n3,4,x\n5,6,x\n", encoding="utf-8")
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.open_file(str(path))
    assert tab.state.dataset.target == "a"           # a candidate, not 'label' (one class)
    assert "'b'" in tab.notes_label.text() and "'label'" not in tab.notes_label.text()
    index = tab.target_combo.findText("label")
    tab.target_combo.setCurrentIndex(index)
    with qtbot.waitSignal(tab.load_failed, timeout=60000):
        tab.target_combo.activated.emit(index)
    qtbot.waitUntil(lambda: len(warnings_shown) == 1)
    assert "only one class" in warnings_shown[0][1]
    assert tab.state.dataset.target == "a" and tab.target_combo.currentText() == ""


def test_large_data_is_sampled_for_the_scatter(tab, qtbot):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.normal(size=20000), "b": rng.normal(size=20000),
                          "y": rng.integers(0, 2, 20000)})
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.state.set_dataset(dataset_from_frame(frame, "y", name="big"))
    assert tab.sample_note.text() == "a random sample of 5,000 of 20,000 rows"
    assert tab.scatter_plot.points_shown() == 5000
    assert tab.preview.model.rowCount() == 20000


def test_dropping_a_csv_file_opens_it(tab, qtbot, tmp_path):
    path = write_messy_csv(tmp_path / "dropped.csv")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(QPointF(10, 10), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.dropEvent(event)
    assert tab.state.dataset.name == "dropped"


# ----------------------------------------------------------------------------- helpers

def open_penguins(tab, qtbot, target="sex"):
    """penguins.csv opened, and ``target`` chosen (species, island and sex could be it)."""
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.open_file(PENGUINS)
    if target is None:
        return tab.state.dataset
    index = tab.target_combo.findText(target)
    tab.target_combo.setCurrentIndex(index)
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.target_combo.activated.emit(index)
    return tab.state.dataset


def show(tab, qtbot, dataset):
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.state.set_dataset(dataset)
    return dataset


def pick(qtbot, tab, combo, text):
    """Choose ``text`` in ``combo`` as a user does, and wait for the data to follow."""
    index = combo.findText(text)
    assert index >= 0, f"{text!r} not offered"
    combo.setCurrentIndex(index)
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        combo.activated.emit(index)
    return tab.state.dataset


def positive_row_shown(tab):
    return tab.target_form.isRowVisible(tab.pos_combo)


# ----------------------------------------------------------------------------- target

def test_a_csv_with_several_candidates_waits_for_the_choice(tab, qtbot):
    dataset = open_penguins(tab, qtbot, target=None)
    assert dataset.target == "species"                   # the best candidate, only shown
    assert dataset.source == {"csv": os.path.abspath(PENGUINS)}
    assert tab.target_combo.currentText() == "" and tab.target_combo.currentIndex() == -1
    assert [tab.target_combo.itemText(i) for i in range(tab.target_combo.count())] == \
        ["species", "island", "bill_length_mm", "bill_depth_mm", "flipper_length_mm",
         "body_mass_g", "sex", "year"]
    assert [b.text().split("  —  ")[0] for b in tab.candidate_buttons
            if b.isVisibleTo(tab)] == ["species", "island", "sex"]     # never 'year'
    assert "the column to predict is not chosen yet" in tab.notes_label.text()
    assert not positive_row_shown(tab)
    dataset = open_penguins(tab, qtbot)                  # sex: 11 rows without one
    assert dataset.source == {"csv": os.path.abspath(PENGUINS), "target": "sex"}
    assert "dropped 11 row(s)" in tab.notes_label.text()
    assert not tab.candidates_box.isVisibleTo(tab)


def test_picking_another_target_keeps_the_other_choices(tab, qtbot):
    dataset = show(tab, qtbot, load_csv(os.path.abspath(PENGUINS), target="sex", sep=",",
                                        encoding="utf-8", decimal=".", exclude=["year"],
                                        pos_label="male"))
    assert dataset.classes[dataset.pos_label] == "male"
    assert tab.pos_combo.currentText() == "male"
    species = pick(qtbot, tab, tab.target_combo, "species")
    assert species.target == "species" and species.classes == ("Adelie", "Chinstrap", "Gentoo")
    assert species.source == {"csv": os.path.abspath(PENGUINS), "target": "species", "sep": ",",
                              "encoding": "utf-8", "decimal": ".", "exclude": ["year"]}
    assert species.pos_label is None                     # three classes: no positive class
    assert "year" not in species.X.columns and "sex" in species.X.columns
    assert boxes(tab)["year"] == (False, True) and "species" not in boxes(tab)
    assert not positive_row_shown(tab)
    assert "positive class" not in tab.notes_label.text()
    island = pick(qtbot, tab, tab.target_combo, "island")  # the file is not read again
    assert island.source["target"] == "island" and "species" in island.X.columns


def test_a_positive_class_that_still_fits_is_kept(tab, qtbot, tmp_path):
    path = tmp_path / "answers.csv"
    rng = np.random.default_rng(0)
    rows = ["x,first,second"] + [f"{rng.normal():.3f},{rng.choice(['yes', 'no'])},"
                                 f"{rng.choice(['yes', 'no'])}" for _ in range(40)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    show(tab, qtbot, load_csv(str(path), target="second", pos_label="yes"))
    dataset = pick(qtbot, tab, tab.target_combo, "first")
    assert dataset.source["pos_label"] == "yes" and dataset.classes[dataset.pos_label] == "yes"
    assert tab.pos_combo.currentText() == "yes"


def test_the_file_is_read_once_while_only_choices_change(monkeypatch):
    reads = []
    real = dataset_loading.read_table
    monkeypatch.setattr(dataset_loading, "read_table",
                        lambda *a, **k: reads.append(a) or real(*a, **k))
    raw, first = file_dataset({"csv": PENGUINS}, "penguins")
    raw, second = file_dataset({**first.source, "target": "species", "exclude": ["island"]},
                              "penguins", raw)
    assert len(reads) == 1
    assert second.target == "species" and "island" not in second.X.columns
    _, third = file_dataset({**second.source, "sep": ","}, "penguins", raw)   # read again
    assert len(reads) == 2 and third.source["sep"] == ","


# ----------------------------------------------------------------------------- features

def test_unticking_a_column_leaves_it_out_and_is_saved(tab, qtbot):
    before = open_penguins(tab, qtbot)
    assert all(ticked and enabled for ticked, enabled in boxes(tab).values())
    assert list(boxes(tab)) == ["species", "island", "bill_length_mm", "bill_depth_mm",
                                "flipper_length_mm", "body_mass_g", "year"]
    assert tab.columns.count_label.text().startswith("7 of 7 columns")
    notes_before = tab.notes_label.text()
    click_box(qtbot, tab, "island")
    dataset = tab.state.dataset
    assert "island" not in dataset.X.columns and dataset.X.shape[1] == 6
    assert dataset.source["exclude"] == ["island"] and dataset.target == "sex"
    tab.state.set_model_entries([LOGISTIC])
    assert tab.state.to_experiment().dataset["exclude"] == ["island"]
    assert boxes(tab)["island"] == (False, True)
    assert tab.columns.count_label.text().startswith("6 of 7 columns")
    assert tab.preview.model.columnCount() == 7          # 6 features + the target
    notes = tab.notes_label.text()
    assert notes != notes_before and "one-hot encoded inside each model: species<" in notes
    assert dataset.pos_label == before.pos_label
    click_box(qtbot, tab, "island")                       # and back
    assert "island" in tab.state.dataset.X.columns
    assert "exclude" not in tab.state.dataset.source


def test_quick_clicks_all_count(tab, qtbot):
    open_penguins(tab, qtbot)
    click_box(qtbot, tab, "island", wait=False)
    click_box(qtbot, tab, "year", wait=False)
    qtbot.waitUntil(lambda: tab.state.dataset.source.get("exclude") == ["island", "year"]
                    and tab.shown_dataset is tab.state.dataset, timeout=10000)
    assert boxes(tab)["island"] == (False, True) and boxes(tab)["year"] == (False, True)


def test_choices_made_while_loading_are_all_applied(tab, qtbot):
    open_penguins(tab, qtbot)
    click_box(qtbot, tab, "island", wait=False)          # loading starts
    index = tab.pos_combo.findText("male")
    tab.pos_combo.setCurrentIndex(index)
    tab.pos_combo.activated.emit(index)                   # waits for it
    qtbot.waitUntil(lambda: tab.state.dataset.source.get("pos_label") == "male"
                    and tab.shown_dataset is tab.state.dataset, timeout=10000)
    dataset = tab.state.dataset
    assert dataset.source["exclude"] == ["island"] and "island" not in dataset.X.columns
    assert dataset.classes[dataset.pos_label] == "male"
    assert tab.pos_combo.currentText() == "male" and boxes(tab)["island"] == (False, True)


def test_source_changes_merge_the_columns_left_out():
    source = {"csv": "a.csv", "target": "y", "drop": ["id"], "exclude": ["z"], "sep": ";"}
    assert with_changes(source, {"target": "z"}) == \
        {"csv": "a.csv", "target": "z", "exclude": ["id"], "sep": ";"}
    assert with_changes(source, {"exclude": ["z"]}) == \
        {"csv": "a.csv", "target": "y", "exclude": ["z"], "sep": ";"}
    assert with_changes(source, {"exclude": []}) == {"csv": "a.csv", "target": "y", "sep": ";"}
    assert with_changes(source, {"pos_label": 0})["pos_label"] == 0


def test_leaving_out_the_last_feature_is_refused(tab, qtbot, tmp_path, warnings_shown):
    path = tmp_path / "small.csv"
    path.write_text("a,label\n" + "".join(f"{i},{'xy'[i % 2]}\n" for i in range(10)),
                    encoding="utf-8")
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.open_file(str(path))
    before = tab.state.dataset
    with qtbot.waitSignal(tab.load_failed, timeout=60000):
        click_box(qtbot, tab, "a", wait=False)
    assert warnings_shown[0][1].startswith("No feature columns")
    assert tab.state.dataset is before
    assert boxes(tab)["a"] == (True, True)


def test_identifier_empty_and_leaking_columns_are_marked(tab, qtbot, tmp_path):
    rng = np.random.default_rng(2)
    n = 60
    outcome = rng.choice(["ill", "well"], n)
    frame = pd.DataFrame({"patient": [f"P{i:03d}" for i in range(n)],
                          "age": rng.integers(20, 80, n), "notes": [""] * n,
                          "discharge_code": np.where(outcome == "ill", "D1", "D0"),
                          "outcome": outcome})
    path = tmp_path / "patients.csv"
    frame.to_csv(path, index=False)
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.open_file(str(path))
    shown = boxes(tab)
    assert shown["patient"] == (False, False) and shown["notes"] == (False, False)
    assert shown["age"] == (True, True)
    assert shown["discharge_code"] == (False, True)         # a leak starts unticked
    assert tab.state.dataset.source["exclude"] == ["discharge_code"]
    assert list(tab.state.dataset.X.columns) == ["age"]
    assert "identifier" in tab.columns.item("patient").toolTip()
    assert "empty" in tab.columns.item("notes").toolTip()
    leak = tab.columns.item("discharge_code")
    assert "⚠ possible leak" in leak.text() and "alone predicts" in leak.toolTip()
    assert "tick it under Features to use it anyway" in tab.notes_label.text()
    assert '"exclude"' not in tab.notes_label.text()
    assert "1 of 4 columns" in tab.columns.count_label.text()
    assert "⚠" in tab.columns.count_label.text()
    click_box(qtbot, tab, "discharge_code")                  # the user decides: ticked
    assert "exclude" not in tab.state.dataset.source
    assert "discharge_code" in tab.state.dataset.X.columns
    assert "leave it out (untick it under Features)" in tab.notes_label.text()
    assert "⚠ possible leak" in tab.columns.item("discharge_code").text()
    click_box(qtbot, tab, "discharge_code")
    assert tab.state.dataset.source["exclude"] == ["discharge_code"]
    assert "⚠ possible leak" in tab.columns.item("discharge_code").text()


# ----------------------------------------------------------------------------- positive class

def test_the_positive_class_can_be_picked(tab, qtbot):
    dataset = open_penguins(tab, qtbot)
    assert positive_row_shown(tab) and tab.pos_combo.isEnabled()
    assert [tab.pos_combo.itemText(i) for i in range(2)] == ["female", "male"]
    counts = dataset.class_counts()
    assert counts["female"] < counts["male"]
    assert tab.pos_combo.currentText() == "female" == dataset.classes[dataset.pos_label]
    assert "the smaller class; pick another under Positive class" in tab.notes_label.text()
    assert "precision, recall and F1" in tab.pos_combo.toolTip()
    male = pick(qtbot, tab, tab.pos_combo, "male")
    assert male.classes[male.pos_label] == "male" and male.pos_label == 1
    assert male.source["pos_label"] == "male"
    tab.state.set_model_entries([LOGISTIC])
    assert tab.state.to_experiment().dataset["pos_label"] == "male"
    assert "positive class: 'male' (as asked)" in tab.notes_label.text()
    assert "Positive class</td><td>male" in tab.summary.text()
    assert tab.pos_combo.currentText() == "male"
    species = pick(qtbot, tab, tab.target_combo, "species")
    assert species.pos_label is None and "pos_label" not in species.source
    assert not positive_row_shown(tab)


def test_builtins_show_their_positive_class_and_columns_read_only(tab, qtbot):
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.load_builtin("breast_cancer")
    assert positive_row_shown(tab) and not tab.pos_combo.isEnabled()
    assert tab.pos_combo.currentText() == "benign"
    assert "second class" in tab.pos_combo.toolTip()
    shown = boxes(tab)
    assert len(shown) == 30 and all(ticked and not enabled for ticked, enabled in shown.values())
    assert "Built-in data sets use all their columns" in tab.columns.count_label.text()
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.load_builtin("iris")
    assert not positive_row_shown(tab)


def test_column_rows_read_the_notes():
    from engine.foundation.notes import Note
    from gui.views.column_picker import EXCLUDED, LEFT_OUT, USED, column_rows
    from gui.views.dataset_notes import screen_note

    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "town": list("pqrs"), "y": list("xyxy")})
    dataset = dataset_from_frame(frame, "y", notes=[
        Note("many_categories", "column 'town' has 120 categories: one-hot encoding makes many "
             "columns; consider dropping it", {"column": "town", "n_categories": 120}),
        Note("empty_columns_left_out", "left out empty column(s): blank",
             {"columns": ["blank"]})])
    rows = {r.name: r for r in column_rows(["a", "town", "blank", "gone", "y"], dataset,
                                           excluded=["gone"])}
    assert list(rows) == ["a", "town", "blank", "gone"]
    assert rows["a"].status == USED and rows["town"].warning == "120 categories"
    assert rows["blank"].status == LEFT_OUT and "empty" in rows["blank"].why
    assert rows["gone"].status == EXCLUDED
    assert screen_note(dataset.notes[0]).endswith("(untick it under Features)")


def builtin_box(tab):
    """What the built-in box shows: (picked name, description, {option: value}, Load on)."""
    return (tab.builtin_combo.currentText(), tab.builtin_description.text(),
            tab.builtin_options(), tab.load_builtin_button.isEnabled())


def apply_experiment_file(tab, qtbot, experiment):
    from engine.input.readers import load_dataset

    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.state.apply_experiment(experiment, load_dataset(experiment.dataset,
                                                            base_dir=experiment.base_dir))


def assert_no_builtin_claimed(tab, placeholder="a file is loaded"):
    name, description, options, load_on = builtin_box(tab)
    assert name == "" and tab.builtin_combo.currentIndex() == -1
    assert placeholder in tab.builtin_combo.placeholderText()
    assert "not a built-in" in description and options == {} and not load_on


def test_the_builtin_box_names_only_the_data_in_use(tab, qtbot):
    from engine.evaluation.experiment import load_experiment, parse_experiment

    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.load_builtin("moons", n_samples=240, noise=0.2, random_state=3)
    assert builtin_box(tab) == ("moons", "Two interleaving half circles (scikit-learn "
                                "make_moons)", {"n_samples": 240, "noise": 0.2,
                                                "random_state": 3}, True)
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.open_file(PENGUINS)
    assert_no_builtin_claimed(tab)
    assert "moons" not in tab.builtin_combo.currentText()
    seed = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))),
                        "resources", "examples", "svc_kernels_moons.json")
    apply_experiment_file(tab, qtbot, load_experiment(seed))           # a built-in again
    assert builtin_box(tab)[0::2] == ("moons", {"n_samples": 100, "noise": 0.352,
                                                "random_state": 1})
    apply_experiment_file(tab, qtbot, parse_experiment(
        {"dataset": {"csv": PENGUINS, "target": "species"},
         "models": [{"estimator": "GaussianNB"}]}))                   # an experiment's CSV
    assert_no_builtin_claimed(tab)
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.state.set_dataset(dataset_from_frame(pd.DataFrame({"a": [1, 2, 3, 4], "y": [0, 1] * 2}),
                                                 "y", name="frame"))
    assert_no_builtin_claimed(tab, "other data is loaded")
    tab.builtin_combo.setCurrentIndex(tab.builtin_combo.findData("iris"))  # picked by the user
    assert builtin_box(tab) == ("iris", "Iris flowers, 150 x 4, three classes", {}, True)
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.load_builtin_button.click()
    assert tab.state.dataset.name == "iris" and builtin_box(tab)[0] == "iris"


def test_an_id_column_is_shown_left_out_and_cleared_when_it_becomes_the_target(tab, qtbot,
                                                                                tmp_path):
    from gui.views.column_picker import LEFT_OUT, column_rows

    rng = np.random.default_rng(2)
    frame = pd.DataFrame({"x": rng.normal(size=40), "code": rng.integers(1, 4, 40),
                          "colour": ["red", "blue"] * 20, "y": ["a", "b", "b", "a"] * 10})
    frame.to_csv(tmp_path / "coded.csv", index=False)
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.open_source({"csv": str(tmp_path / "coded.csv"), "target": "y",
                          "id_column": "code"})
    dataset = tab.state.dataset
    assert list(dataset.ids) == list(frame["code"]) and "code" not in dataset.X.columns
    rows = {r.name: r for r in column_rows(list(frame.columns), dataset)}
    assert rows["code"].status == LEFT_OUT and "names the rows" in rows["code"].why
    assert not rows["code"].keepable
    tab.target_combo.setCurrentText("code")
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.target_combo.activated.emit(tab.target_combo.currentIndex())
    dataset = tab.state.dataset
    assert dataset.target == "code" and "id_column" not in dataset.source
    assert list(dataset.ids) == list(range(1, 41))


def test_the_row_id_choice_names_the_rows_and_goes_into_the_source(tab, qtbot, tmp_path):
    rng = np.random.default_rng(4)
    frame = pd.DataFrame({"x": rng.normal(size=40), "code": rng.permutation(40) * 3 + 7,
                          "y": ["a", "b", "b", "a"] * 10})
    frame.loc[6, "y"] = None
    frame.to_csv(tmp_path / "coded.csv")                  # pandas' index: Unnamed: 0
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.open_source({"csv": str(tmp_path / "coded.csv"), "target": "y",
                          "features": ["code"]})
    combo = tab.id_combo
    assert tab.target_form.isRowVisible(combo)
    assert [combo.itemText(i) for i in range(combo.count())] == \
        ["automatic: Unnamed: 0", "Unnamed: 0", "x", "code"]
    assert combo.currentIndex() == 0 and list(tab.state.dataset.ids) == \
        [i for i in range(40) if i != 6]
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        combo.activated.emit(combo.findData("code"))
    dataset = tab.state.dataset
    assert dataset.source["id_column"] == "code" and "features" not in dataset.source
    assert list(dataset.ids) == list(frame["code"].drop(index=6))
    assert "code" not in dataset.X.columns and tab.id_combo.currentText() == "code"
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.id_combo.activated.emit(0)
    assert "id_column" not in tab.state.dataset.source
    assert tab.id_combo.currentText() == "automatic: Unnamed: 0"
