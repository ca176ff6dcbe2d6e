"""Loading data: built-ins, CSV dialects and encodings, clear errors for bad files."""
import numpy as np
import pandas as pd
import pytest

from engine.foundation.errors import error_code, error_fields
from engine.input.data import BUILTINS, load_builtin, load_csv
from engine.input.readers import load_dataset

ROWS = [("1.5", "red", "yes"), ("2.0", "blue", "no"), ("", "red", "yes"), ("3.25", "", "no"),
        ("0.5", "grün", "yes"), ("4.0", "blue", "no")]


def _write(path, sep=",", encoding="utf-8", header=("size", "colour", "label"), rows=ROWS):
    text = "\n".join(sep.join(r) for r in [header, *rows]) + "\n"
    path.write_bytes(text.encode(encoding))
    return str(path)


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_builtins_load_offline(name):
    ds = load_builtin(name)
    assert ds.n_rows == len(ds.X) > 0 and len(ds.classes) >= 2
    assert ds.source["builtin"] == name


def test_moons_is_the_seed_data():
    from sklearn.datasets import make_moons

    X, y = make_moons(noise=0.352, random_state=1, n_samples=100)
    ds = load_builtin("moons")
    np.testing.assert_array_equal(ds.X.to_numpy(), X)
    np.testing.assert_array_equal(ds.y, y)


@pytest.mark.parametrize("sep", [",", ";", "\t"])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "latin-1"])
def test_csv_dialects_and_encodings(tmp_path, sep, encoding):
    ds = load_csv(_write(tmp_path / "d.csv", sep, encoding), target="label")
    assert list(ds.X.columns) == ["size", "colour"]
    assert ds.classes == ("no", "yes")
    assert ds.y.tolist() == [1, 0, 1, 0, 1, 0]
    assert "grün" in set(ds.X["colour"].dropna())
    assert ds.categorical_columns == ["colour"] and ds.n_missing == 2
    codes = {n.code for n in ds.notes}
    assert {"one_hot_encoded", "missing_imputed"} <= codes
    assert any("one-hot" in n for n in map(str, ds.notes))
    assert any("imputed" in n for n in map(str, ds.notes))


def test_relative_csv_path_in_experiment(tmp_path):
    _write(tmp_path / "d.csv")
    ds = load_dataset({"csv": "d.csv", "target": "label"}, base_dir=str(tmp_path))
    assert ds.n_rows == 6 and ds.source["csv"] == "d.csv"


def test_rows_without_target_are_dropped_with_a_note(tmp_path):
    rows = ROWS + [("9.0", "red", "")]
    ds = load_csv(_write(tmp_path / "d.csv", rows=rows), target="label")
    assert ds.n_rows == 6 and any("dropped 1 row" in n for n in map(str, ds.notes))


def test_identifier_column_is_left_out(tmp_path):
    frame = pd.DataFrame({"id": [f"c{i}" for i in range(40)], "x": np.arange(40.0),
                          "y": ["a", "b"] * 20})
    frame.to_csv(tmp_path / "d.csv", index=False)
    ds = load_csv(str(tmp_path / "d.csv"), target="y")
    assert list(ds.X.columns) == ["x"] and any("identifier" in n for n in map(str, ds.notes))


@pytest.mark.parametrize("content, message", [
    (None, "does not exist"),
    (b"", "empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
    (b"only\n1\n2\n", "only one column"),
    (b"a,b\n", "no rows"),
])
def test_bad_files_have_clear_messages(tmp_path, content, message):
    path = tmp_path / "bad.csv"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ValueError, match=message):
        load_csv(str(path))


def test_bad_target_choices(tmp_path):
    path = _write(tmp_path / "d.csv")
    with pytest.raises(ValueError, match="no column 'kind'.*size, colour, label"):
        load_csv(path, target="kind")
    one_class = [(r[0], r[1], "yes") for r in ROWS]
    with pytest.raises(ValueError) as caught:
        load_csv(_write(tmp_path / "one.csv", rows=one_class), target="label")
    assert error_code(caught.value) == "target_one_class"
    assert dict(error_fields(caught.value)) == {"target": "label", "classes": ("yes",)}
    frame = pd.DataFrame({"x": np.arange(50.0), "y": np.arange(50.0) * 1.5})
    frame.to_csv(tmp_path / "reg.csv", index=False)
    with pytest.raises(ValueError) as caught:
        load_csv(str(tmp_path / "reg.csv"), target="y")
    assert error_code(caught.value) == "target_not_classes"
    assert dict(error_fields(caught.value)) == {"target": "y", "n_classes": 50, "n_rows": 50}


def test_builtin_option_errors():
    with pytest.raises(ValueError) as caught:
        load_builtin("titanic")
    assert error_code(caught.value) == "builtin_unknown"
    assert "iris" in error_fields(caught.value)["builtins"]
    with pytest.raises(ValueError) as caught:
        load_builtin("moons", colour=3)
    assert error_code(caught.value) == "builtin_options"
    assert error_fields(caught.value)["options"] == ("colour",)
    assert error_fields(caught.value)["allowed"][0] == "n_samples"
