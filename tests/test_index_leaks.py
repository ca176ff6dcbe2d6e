"""Index columns, leaks for every target kind and group suggestions, on files exported the
way R's ``write.csv`` and pandas' ``to_csv`` write them (``tests/data/exports``, made from
R's data sets by ``make_exports.py`` there, sorted by class, with the row index)."""
import json
import os

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score

from engine.foundation.errors import error_code, error_fields
from engine.evaluation.catalogue import expand_models, make_pipeline
from engine.input.data import dataset_from_frame, load_csv
from engine.input.readers import load_dataset
from engine.input.data_checks import LEAK_SAMPLE_ROWS, leak_notes
from engine.foundation.notes import CODES
from engine.foundation.schema import check_experiment_schema
from tests.helpers import run_main

EXPORTS = os.path.join(os.path.dirname(__file__), "data", "exports")
GLASS_R = os.path.join(EXPORTS, "glass_r.csv")
GLASS_PANDAS = os.path.join(EXPORTS, "glass_pandas.csv")
BIOPSY_R = os.path.join(EXPORTS, "biopsy_r.csv")
PENGUINS_RAW = os.path.join(EXPORTS, "penguins_raw_r.csv")
TITANIC = os.path.join(EXPORTS, "titanic_pandas.csv")


def by_code(dataset, code):
    return [note for note in dataset.notes if note.code == code]


def class_changes(values, labels) -> int:
    """How often the class changes between rows next to each other in the order of
    ``values`` (unique values: no ties)."""
    ordered = pd.Series(np.asarray(labels)).iloc[np.argsort(np.asarray(values), kind="stable")]
    return int((ordered.to_numpy()[1:] != ordered.to_numpy()[:-1]).sum())


# ----------------------------------------------------------------------------- index columns

@pytest.mark.parametrize("path, target, reason", [
    (GLASS_R, "type", "index_name"), (GLASS_PANDAS, "type", "row_numbers"),
    (BIOPSY_R, "class", "index_name"), (PENGUINS_RAW, "Species", "index_name"),
    (TITANIC, "passengerClass", "row_numbers")])
def test_the_exported_index_is_left_out_with_a_note(path, target, reason):
    raw = pd.read_csv(path)
    assert raw.columns[0] == "Unnamed: 0"                 # as pandas reads both exports
    ds = load_csv(path, target=target)
    assert "Unnamed: 0" not in ds.X.columns
    assert list(ds.X.columns) == [c for c in raw.columns[1:] if c != target
                                  and c in ds.X.columns]
    note, = by_code(ds, "index_columns_left_out")
    assert list(note.fields["columns"]) == ["Unnamed: 0"]
    assert list(note.fields["reasons"]) == [reason]
    assert "index_columns_left_out" in CODES and "identifier_feature" in CODES


def test_listing_the_index_under_features_keeps_it():
    spec = {"file": GLASS_R, "target": "type", "features": ["Unnamed: 0"]}
    check_experiment_schema({"dataset": spec, "models": [{"estimator": "GaussianNB"}]})
    ds = load_dataset(spec)
    assert list(ds.X.columns) == list(pd.read_csv(GLASS_R).columns[:-1])
    assert ds.source["features"] == ["Unnamed: 0"]
    assert not by_code(ds, "index_columns_left_out")
    with pytest.raises(ValueError) as caught:
        load_dataset({**spec, "exclude": ["Unnamed: 0"]})
    assert error_code(caught.value) == "kept_and_left_out"
    assert error_fields(caught.value)["columns"] == ("Unnamed: 0",)
    with pytest.raises(ValueError) as caught:
        load_dataset({**spec, "features": ["rownames"]})
    assert error_code(caught.value) == "columns_missing"
    assert (error_fields(caught.value)["role"], error_fields(caught.value)["wanted"]) == \
        ("keep", ("rownames",))
    with pytest.raises(ValueError, match="'type' is the target"):
        load_dataset({**spec, "features": ["type"]})


def test_unique_id_numbers_are_left_out_and_other_integers_stay():
    rng = np.random.default_rng(0)
    n = 60
    frame = pd.DataFrame({"x": rng.normal(size=n), "PassengerId": rng.permutation(n) + 500,
                          "count": rng.permutation(n), "visits": rng.integers(0, 5, n),
                          "y": np.repeat(["a", "b"], n // 2)})
    ds = dataset_from_frame(frame, "y")
    note, = by_code(ds, "index_columns_left_out")
    assert list(note.fields["columns"]) == ["PassengerId"]
    assert list(note.fields["reasons"]) == ["id_name"]
    assert list(ds.X.columns) == ["x", "count", "visits"]


def _fold_scores(tmp_path, name, dataset):
    experiment = {"dataset": dataset,
                  "models": [{"name": "forest", "estimator": "RandomForestClassifier",
                              "params": {"n_estimators": 25, "random_state": 0}},
                             {"name": "lr", "estimator": "LogisticRegression", "scale": True,
                              "params": {"max_iter": 2000}}],
                  "cv": {"n_splits": 5, "n_repeats": 2, "random_state": 0},
                  "metrics": ["accuracy"]}
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(experiment))
    done = run_main(path, "--out", tmp_path / name, "--quiet")
    assert done.returncode == 0, done.stderr
    return pd.read_csv(tmp_path / name / "fold_scores.csv")


@pytest.mark.slow
def test_glass_scores_without_the_index_equal_a_run_that_drops_it(tmp_path):
    default = _fold_scores(tmp_path, "default", {"file": GLASS_R, "target": "type"})
    dropped = _fold_scores(tmp_path, "dropped", {"file": GLASS_R, "target": "type",
                                                 "exclude": ["Unnamed: 0"]})
    pd.testing.assert_frame_equal(default.drop(columns="fit_seconds"),
                                  dropped.drop(columns="fit_seconds"))
    raw = pd.read_csv(GLASS_R)
    ds = load_csv(GLASS_R, target="type")
    X = raw.drop(columns=["Unnamed: 0", "type"]).to_numpy()
    assert np.array_equal(X, ds.X.to_numpy())
    spec = expand_models([{"estimator": "RandomForestClassifier",
                           "params": {"n_estimators": 25, "random_state": 0}}])[0]
    expected = cross_val_score(make_pipeline(spec, dataset=ds), X, ds.y, scoring="accuracy",
                               cv=RepeatedStratifiedKFold(n_splits=5, n_repeats=2,
                                                          random_state=0))
    np.testing.assert_allclose(default.query("model == 'forest'")["score"], expected,
                               rtol=0, atol=1e-15)
    kept = _fold_scores(tmp_path, "kept", {"file": GLASS_R, "target": "type",
                                           "features": ["Unnamed: 0"]})
    with_index = kept.query("model == 'forest'")["score"].mean()
    assert with_index > expected.mean() + 0.1          # what the index gave away


# ----------------------------------------------------------------------------- leaks

def test_a_kept_index_is_a_leak_on_the_six_class_glass_target():
    ds = load_csv(GLASS_R, target="type", features=["Unnamed: 0"])
    assert len(ds.classes) == 6
    leak, = by_code(ds, "possible_leak")
    raw = pd.read_csv(GLASS_R)
    changes = class_changes(raw["Unnamed: 0"], raw["type"])
    assert changes == 5                                 # six runs, one per class
    assert leak.fields["column"] == "Unnamed: 0" and leak.fields["target"] == "type"
    assert leak.fields["share"] == pytest.approx(100 * (len(raw) - changes) / len(raw))
    assert (leak.fields["rows_judged"], leak.fields["n_rows"]) == (214, 214)
    assert leak.fields["left_out"] is False
    assert "6 runs of one class (6 classes)" in leak.fields["rule"]
    assert '"exclude": ["Unnamed: 0"]' in str(leak)
    assert not by_code(load_csv(GLASS_R, target="type"), "possible_leak")   # the others


def test_the_titanic_index_leaks_the_passenger_class_even_when_left_out():
    ds = load_csv(TITANIC, target="passengerClass", exclude=["Unnamed: 0"])
    leak, = by_code(ds, "possible_leak")
    raw = pd.read_csv(TITANIC)
    assert leak.fields["left_out"] is True and "left out, as asked" in str(leak)
    assert leak.fields["share"] == pytest.approx(
        100 * (len(raw) - class_changes(raw["Unnamed: 0"], raw["passengerClass"])) / len(raw))
    assert "Unnamed: 0" not in ds.X.columns


def test_near_perfect_numbers_and_text_on_six_classes_are_flagged():
    raw = pd.read_csv(GLASS_R).drop(columns="Unnamed: 0")
    rng = np.random.default_rng(3)
    order = {label: i for i, label in enumerate(sorted(raw["type"].unique()))}
    raw["measured"] = raw["type"].map(order) * 10.0 + rng.uniform(0, 1, len(raw))
    raw["label_code"] = raw["type"].str.upper().str[::-1]
    raw.loc[3, "label_code"] = "DAEH" if raw.loc[3, "type"] != "Head" else "NOC"   # a slip
    raw = raw.sample(frac=1, random_state=1).reset_index(drop=True)
    leaks = {note.fields["column"]: note for note in
             by_code(dataset_from_frame(raw, "type"), "possible_leak")}
    assert set(leaks) == {"measured", "label_code"}
    assert leaks["measured"].fields["share"] == pytest.approx(
        100 * (len(raw) - 5) / len(raw))
    # the commonest class of each of its 7 values, counted independently
    table = pd.crosstab(raw["label_code"], raw["type"])
    share = 100 * table.max(axis=1).sum() / len(raw)
    assert leaks["label_code"].fields["share"] == pytest.approx(share)
    assert share == pytest.approx(100 * (len(raw) - 1) / len(raw))
    assert "each of its 6 values" in leaks["label_code"].fields["rule"]


def test_a_large_table_is_judged_on_a_stated_sample():
    rng = np.random.default_rng(0)
    n = 30_000
    y = rng.integers(0, 4, n)
    features = pd.DataFrame({"noise": rng.normal(size=n), "leak": y * 5.0 + rng.random(n),
                             "word": np.array(list("abcd"))[y]})
    notes = {note.fields["column"]: note for note in leak_notes(features, y, "kind")}
    assert set(notes) == {"leak", "word"}
    for note in notes.values():
        assert (note.fields["rows_judged"], note.fields["n_rows"]) == (LEAK_SAMPLE_ROWS, n)
    assert notes["leak"].fields["share"] == pytest.approx(100 * (1 - 3 / LEAK_SAMPLE_ROWS))
    assert notes["word"].fields["share"] == 100.0
    assert notes == {note.fields["column"]: note
                     for note in leak_notes(features, y, "kind")}    # the same on every load


def test_strong_honest_columns_are_not_leaks_on_many_classes():
    raw = pd.read_csv(GLASS_R).drop(columns="Unnamed: 0")
    assert not by_code(dataset_from_frame(raw, "type"), "possible_leak")
    for target in ("Species", "Island", "Sex"):
        assert not by_code(load_csv(PENGUINS_RAW, target=target), "possible_leak")


# ----------------------------------------------------------------------------- groups

def test_the_biopsy_patient_id_is_suggested_as_groups_and_noted_as_a_feature():
    ds = load_csv(BIOPSY_R, target="class")
    raw = pd.read_csv(BIOPSY_R)
    suggested, = by_code(ds, "groups_suggested")
    assert suggested.fields["column"] == "ID"
    assert suggested.fields["n_values"] == raw["ID"].nunique() == 645
    assert suggested.fields["rows_per_value"] == round(len(raw) / 645, 2)
    assert raw["ID"].value_counts().max() == 6
    feature, = by_code(ds, "identifier_feature")
    assert dict(feature.fields) == {"column": "ID", "n_values": 645}
    grouped = load_csv(BIOPSY_R, target="class", groups="ID")
    assert not by_code(grouped, "groups_suggested") and not by_code(grouped, "identifier_feature")
    assert len(np.unique(grouped.groups)) == 645


def test_a_date_is_never_suggested_as_groups():
    ds = load_csv(PENGUINS_RAW, target="Species")
    suggested = [n.fields["column"] for n in by_code(ds, "groups_suggested")]
    assert "Date Egg" not in suggested and suggested == ["Individual ID"]
    raw = pd.read_csv(PENGUINS_RAW).rename(columns={"Date Egg": "laid"})
    raw["laid_text"] = pd.to_datetime(raw["laid"]).dt.strftime("%d %b %Y")
    raw["laid_us"] = pd.to_datetime(raw["laid"]).dt.strftime("%m/%d/%Y")
    ds = dataset_from_frame(raw, "Species")
    suggested = [n.fields["column"] for n in by_code(ds, "groups_suggested")]
    assert not {"laid", "laid_text", "laid_us"} & set(suggested)


# ----------------------------------------------------------------------------- workbooks

@pytest.mark.slow
def test_a_notes_sheet_first_is_refused_naming_the_sheets_to_read(tmp_path):
    import openpyxl

    from engine.input.excel import NotATable

    book = openpyxl.Workbook()
    book.active.title = "Read me"
    book.active.append(["Glass fragments, exported from R's MASS::fgl."])
    data = book.create_sheet("glass")
    frame = pd.read_csv(GLASS_R).drop(columns="Unnamed: 0")
    data.append(list(frame.columns))
    for row in frame.itertuples(index=False):
        data.append(list(row))
    path = tmp_path / "glass.xlsx"
    book.save(path)
    with pytest.raises(NotATable) as caught:
        load_dataset({"file": str(path)})
    assert caught.value.sheet == "Read me" and caught.value.sheets == ["Read me", "glass"]
    assert str(caught.value).endswith("the workbook's other sheet(s): 'glass' (set \"sheet\" "
                                      "to read one)")
    ds = load_dataset({"file": str(path), "sheet": "glass", "target": "type"})
    assert ds.X.shape == (214, 9) and np.array_equal(ds.X.to_numpy(),
                                                     frame.drop(columns="type").to_numpy())
    experiment = tmp_path / "exp.json"
    experiment.write_text(json.dumps({"dataset": {"file": "glass.xlsx", "target": "type"},
                                      "models": [{"estimator": "GaussianNB"}]}))
    done = run_main(experiment, "--out", tmp_path / "out")
    assert done.returncode == 2
    error, = [line for line in done.stderr.splitlines() if line.strip()]
    assert error.startswith("error:") and "'glass'" in error and '"sheet"' in error
