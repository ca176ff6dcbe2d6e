"""Choices made while loading: the columns left out, the target when none is named, the
positive class, and warnings about columns that leak the answer."""
import os

import numpy as np
import pandas as pd
import pytest

from engine.foundation.errors import error_code, error_fields
from engine.foundation.errors import EngineError
from engine.input.data import dataset_from_frame, load_builtin, load_csv
from engine.input.readers import load_dataset
from engine.input.data_checks import target_problem

PENGUINS = os.path.join(os.path.dirname(__file__), "data", "penguins.csv")


def _penguins():
    return pd.read_csv(PENGUINS)


# ----------------------------------------------------------------------------- exclude

def test_exclude_means_drop_and_is_recorded(tmp_path):
    by_drop = load_csv(PENGUINS, target="species", drop=["island", "year"])
    by_exclude = load_csv(PENGUINS, target="species", exclude=["island", "year"])
    pd.testing.assert_frame_equal(by_drop.X, by_exclude.X)
    assert "island" not in by_exclude.X.columns
    assert by_exclude.source["exclude"] == ["island", "year"] and "drop" not in by_exclude.source
    assert by_drop.source["drop"] == ["island", "year"] and "exclude" not in by_drop.source
    both = load_csv(PENGUINS, target="species", drop=["island"], exclude=["year"])
    assert list(both.X.columns) == list(by_drop.X.columns)
    spec = {"csv": PENGUINS, "target": "species", "exclude": ["sex"]}
    assert "sex" not in load_dataset(spec).X.columns
    with pytest.raises(ValueError) as caught:
        load_csv(PENGUINS, target="species", exclude=["beak"])
    assert error_code(caught.value) == "columns_missing"
    assert (error_fields(caught.value)["role"], error_fields(caught.value)["wanted"]) == \
        ("leave_out", ("beak",))


# ----------------------------------------------------------------------------- target

def _with_comments(frame):
    frame = frame.copy()
    comments = pd.Series([None] * len(frame), dtype=object)
    comments[::25] = "Nest never observed with full clutch."
    comments[3::40] = "Not enough blood for isotopes."
    frame["Comments"] = comments
    return frame


def test_no_target_is_assumed_among_several_candidates(tmp_path):
    """A mostly empty comments column last, species before it: no column is assumed; the
    error lists the candidates, species first, never the comments."""
    frame = _with_comments(_penguins()[["island", "bill_length_mm", "body_mass_g", "sex",
                                         "species"]])
    path = tmp_path / "penguins_raw.csv"
    frame.to_csv(path, index=False)
    with pytest.raises(EngineError) as caught:
        load_csv(str(path))
    assert caught.value.code == "target_not_named"
    assert list(caught.value.fields["candidates"]) == ["species", "island", "sex"]
    assert list(caught.value.fields["reasons"][0]) == ["named like an outcome (species)",
                                                       "3 classes"]
    assert load_csv(str(path), target="species").classes == ("Adelie", "Chinstrap", "Gentoo")


def test_the_one_column_that_could_be_classes_is_used():
    ds = dataset_from_frame(_penguins()[["bill_length_mm", "body_mass_g", "species"]])
    assert ds.target == "species"
    assert ("target column not given; using 'species', the only column that looks like "
            "classes (name the target to choose another)") in map(str, ds.notes)


def test_an_identifier_is_never_a_candidate():
    """R's sleep data (write.csv's row numbers left out): extra, group, ID. Each of ten
    subjects took both drugs, so the classes are the group and ID names the subject."""
    frame = pd.DataFrame({"extra": [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0,
                                    1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4],
                          "group": [1] * 10 + [2] * 10, "ID": list(range(1, 11)) * 2})
    ds = dataset_from_frame(frame)
    assert ds.target == "group"
    note = next(n for n in ds.notes if n.code == "target_chosen")
    assert note.fields["column"] == "group" and note.fields["rule"] == "only"
    assert [n.fields["column"] for n in ds.notes if n.code == "groups_suggested"] == ["ID"]
    only_ids = pd.DataFrame({"x": np.linspace(0, 1, 20), "subject_id": list("abcd") * 5})
    with pytest.raises(EngineError) as caught:
        dataset_from_frame(only_ids)
    assert caught.value.code == "target_not_named" and not caught.value.fields["candidates"]
    assert dataset_from_frame(only_ids, "subject_id").target == "subject_id"


def test_years_are_not_candidates():
    with pytest.raises(EngineError) as caught:
        dataset_from_frame(_penguins())              # the last column is 'year'
    assert "year" not in caught.value.fields["candidates"]
    assert caught.value.fields["candidates"][0] == "species"


@pytest.mark.parametrize("column, problem", [
    (["a sentence that goes on and on, about nothing much at all"] * 10 + ["b"] * 10, "free text"),
    ([f"remark {i}" for i in range(15)] + ["x"] * 5, "free text"),
    (np.linspace(0, 1, 40), "measurements"),
    (np.arange(100) % 30, "30 different values"),
    (["a"] * 30, "single value"),
    (["a", None, None] * 10, "rows are empty"),
    ([2007, 2008, 2009] * 10, "large whole numbers"),
])
def test_target_problems(column, problem):
    assert problem in target_problem(pd.Series(column))


@pytest.mark.parametrize("column", [["a", "b"] * 10, [0, 1, 2] * 10, [True, False] * 5,
                                    list(range(25)) * 20, ["yes", "no", None] * 10])
def test_sensible_targets(column):
    assert target_problem(pd.Series(column)) is None


def test_no_sensible_target_asks_for_one():
    frame = pd.DataFrame({"x": np.linspace(0, 1, 50), "y": np.linspace(2, 3, 50) ** 2})
    with pytest.raises(ValueError, match="name the target column"):
        dataset_from_frame(frame)


def test_default_target_never_picks_an_excluded_column():
    frame = _with_comments(_penguins()[["bill_length_mm", "species", "sex"]])
    ds = dataset_from_frame(frame, exclude=["sex"])
    assert ds.target == "species"


# ----------------------------------------------------------------------------- pos_label

def test_two_text_classes_default_to_the_smaller_one():
    frame = _penguins()
    frame = frame[frame.species.isin(["Adelie", "Chinstrap"])]
    ds = dataset_from_frame(frame, "species")
    assert ds.classes == ("Adelie", "Chinstrap") and ds.pos_label == 1
    assert 'positive class: \'Chinstrap\' (the smaller class; set "pos_label" to change)' \
        in map(str, ds.notes)
    fewer_adelie = _penguins()[_penguins().species.isin(["Adelie", "Gentoo"])].iloc[100:]
    ds = dataset_from_frame(fewer_adelie, "species")
    assert ds.class_counts().to_dict() == {"Adelie": 52, "Gentoo": 124} and ds.pos_label == 0


def test_zero_one_classes_default_to_one():
    frame = pd.DataFrame({"x": np.arange(30.0), "y": [1] * 25 + [0] * 5})
    ds = dataset_from_frame(frame, "y")
    assert ds.classes == (0, 1) and ds.pos_label == 1
    assert any(n.startswith("positive class: 1 (of 0 and 1") for n in map(str, ds.notes))


def test_equal_classes_default_to_the_second():
    frame = pd.DataFrame({"x": np.arange(20.0), "y": ["no", "yes"] * 10})
    ds = dataset_from_frame(frame, "y")
    assert ds.pos_label == 1 and any("same size" in n for n in map(str, ds.notes))


@pytest.mark.parametrize("labels, asked, code", [
    (["no", "yes"], "no", 0), (["no", "yes"], " yes ", 1),
    ([0, 1], 0, 0), ([0, 1], "0", 0), ([0, 1], 1.0, 1), ([2, 5], "5", 1),
])
def test_explicit_pos_label(labels, asked, code):
    frame = pd.DataFrame({"x": np.arange(20.0), "y": labels * 10})
    ds = dataset_from_frame(frame, "y", pos_label=asked)
    assert ds.pos_label == code
    assert f"positive class: {labels[code]!r} (as asked)" in map(str, ds.notes)
    note = next(n for n in ds.notes if n.code == "positive_class")
    assert note.fields["reason"] == "asked" and note.fields["label"] == labels[code]


def test_pos_label_from_an_experiment_is_recorded():
    ds = load_dataset({"csv": PENGUINS, "target": "sex", "pos_label": "male"})
    assert ds.classes == ("female", "male") and ds.pos_label == 1
    assert ds.source["pos_label"] == "male"
    assert "pos_label" not in load_csv(PENGUINS, target="sex").source


def test_bad_pos_label():
    frame = pd.DataFrame({"x": np.arange(30.0), "y": ["no", "yes", "maybe"] * 10})
    with pytest.raises(ValueError) as caught:
        dataset_from_frame(frame, "y", pos_label="yes")
    assert error_code(caught.value) == "pos_label_not_binary"
    assert error_fields(caught.value)["classes"] == ("maybe", "no", "yes")
    assert dataset_from_frame(frame, "y").pos_label is None
    with pytest.raises(ValueError) as caught:
        dataset_from_frame(frame[frame.y != "maybe"], "y", pos_label="Yes")
    assert error_code(caught.value) == "pos_label_unknown"
    assert dict(error_fields(caught.value)) == {"pos_label": "Yes", "classes": ("no", "yes")}


@pytest.mark.parametrize("name, expected", [
    ("moons", 1), ("circles", 1), ("classification", 1), ("breast_cancer", 1),
    ("iris", None), ("wine", None), ("digits", None),
])
def test_builtins_take_the_second_class(name, expected):
    ds = load_builtin(name)
    assert ds.pos_label == expected
    if name == "breast_cancer":
        assert ds.classes[ds.pos_label] == "benign"


def test_a_three_class_builtin_has_no_positive_class():
    assert load_builtin("classification", n_classes=3, n_informative=4).pos_label is None


# ----------------------------------------------------------------------------- leaks

@pytest.mark.parametrize("target", ["species", "island", "sex", "year"])
def test_penguins_have_no_leak(target):
    ds = load_csv(PENGUINS, target=target)
    assert not any("leak" in n for n in map(str, ds.notes))


def test_a_category_that_gives_the_answer_away_is_flagged():
    frame = _penguins()
    frame["code"] = frame["species"].str[:2]
    frame.loc[5, "code"] = "Ge"          # one slip: still a leak
    ds = dataset_from_frame(frame, "species")
    leaks = [n for n in ds.notes if n.code == "possible_leak"]
    assert len(leaks) == 1 and "'code'" in str(leaks[0])
    assert '"exclude": ["code"]' in str(leaks[0])
    assert leaks[0].fields["column"] == "code" and leaks[0].fields["target"] == "species"
    assert 99 <= leaks[0].fields["share"] < 100
    assert "code" in ds.X.columns        # a warning only


def test_a_number_that_separates_two_classes_is_flagged():
    frame = _penguins().dropna(subset=["sex"])
    noise = np.random.default_rng(0).normal(size=len(frame))
    frame["score"] = np.where(frame["sex"] == "male", 10.0, 0.0) + noise
    ds = dataset_from_frame(frame, "sex")
    leaks = [n for n in ds.notes if n.code == "possible_leak"]
    assert len(leaks) == 1 and "'score'" in str(leaks[0]) and "single cut" in str(leaks[0])
    assert leaks[0].fields["column"] == "score"


def test_identifiers_and_weak_columns_are_not_flagged():
    rng = np.random.default_rng(1)
    n = 200
    y = rng.integers(0, 2, n)
    frame = pd.DataFrame({"id": [f"r{i // 2}" for i in range(n)],       # 100 values
                          "good": y + rng.normal(0, 0.3, n),              # strong, not perfect
                          "y": y})
    assert not any("leak" in note for note in map(str, dataset_from_frame(frame, "y").notes))
