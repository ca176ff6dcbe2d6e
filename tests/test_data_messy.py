"""Real-world spreadsheets: numbers written the European way, missing markers, stray
text in number columns, thousands separators, infinite values, control characters."""
import csv
import os

import numpy as np
import pandas as pd
import pytest

from engine.foundation.errors import error_code, error_fields
from engine.input.csv_values import STRAY_MAX_CELLS, plain_number, visible
from engine.input.data import dataset_from_frame, load_csv, read_csv_table
from engine.input.readers import load_dataset

PENGUINS = os.path.join(os.path.dirname(__file__), "data", "penguins.csv")
NUMBERS = ["bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g", "year"]


def _raw():
    """penguins.csv as text, missing values written 'NA'."""
    return pd.read_csv(PENGUINS, dtype=str, keep_default_na=False)


def _clean():
    return load_csv(PENGUINS, target="species")


def _same_numbers(clean, messy, stray=()):
    """Messy X equals clean X, except the (row, column) cells in ``stray`` are missing."""
    assert list(messy.X.columns) == list(clean.X.columns)
    assert messy.X.dtypes.to_dict() == clean.X.dtypes.to_dict()
    expected = clean.X.copy()
    for row, column in stray:
        expected.loc[row, column] = np.nan
    pd.testing.assert_frame_equal(messy.X, expected, check_exact=True)
    assert messy.classes == clean.classes and messy.y.tolist() == clean.y.tolist()


def _european(raw: pd.DataFrame) -> pd.DataFrame:
    """Decimal commas, dot thousands, '?' and other markers for missing values."""
    messy = raw.copy()
    for column in ("bill_length_mm", "bill_depth_mm"):
        messy[column] = messy[column].str.replace(".", ",", regex=False)
    messy["body_mass_g"] = [v if v == "NA" else f"{int(v) // 1000}.{int(v) % 1000:03d}"
                            for v in raw["body_mass_g"]]
    markers = ["?", "NA", "n/a", "-", "  ", "null", "--", "N/A", "None", "nan", "NaN", "na",
               "NULL", ""]
    missing = messy.eq("NA")
    for k, (row, col) in enumerate(zip(*np.nonzero(missing.to_numpy()))):
        messy.iat[row, col] = markers[k % len(markers)]
    return messy


def test_european_spreadsheet_reads_the_same_numbers(tmp_path):
    messy = _european(_raw())
    messy.loc[10, "bill_length_mm"] = "n.d. (pas mesuré)"
    messy.loc[20, "flipper_length_mm"] = "abc"
    path = tmp_path / "penguins_fr.csv"
    messy.to_csv(path, sep=";", index=False, encoding="latin-1")
    ds = load_csv(str(path), target="species")
    _same_numbers(_clean(), ds, [(10, "bill_length_mm"), (20, "flipper_length_mm")])
    notes = "\n".join(map(str, ds.notes))
    assert "decimal comma detected" in notes and "'39,1'" in notes
    assert "line 12 'n.d. (pas mesuré)'" in notes and "line 22 'abc'" in notes
    assert "'3.750' as 3750" in notes
    assert "latin-1" in notes and "semicolon" in notes


def test_explicit_decimal_is_used_and_recorded(tmp_path):
    messy = _european(_raw())
    path = tmp_path / "p.csv"
    messy.to_csv(path, sep=";", index=False)
    ds = load_dataset({"csv": "p.csv", "target": "species", "decimal": ",", "thousands": "."},
                      base_dir=str(tmp_path))
    _same_numbers(_clean(), ds)
    assert ds.source["decimal"] == "," and ds.source["thousands"] == "."
    assert not any("detected: read" in n for n in map(str, ds.notes))
    ds = load_csv(str(path), target="species", thousands=".")
    _same_numbers(_clean(), ds)
    assert ds.source["thousands"] == "." and "decimal" not in ds.source


def test_thousands_commas_in_a_quoted_csv(tmp_path):
    raw = _raw()
    raw["body_mass_g"] = [v if v == "NA" else f"{int(v):,}" for v in raw["body_mass_g"]]
    path = tmp_path / "p.csv"
    raw.to_csv(path, index=False, quoting=csv.QUOTE_ALL)
    ds = load_csv(str(path), target="species")
    _same_numbers(_clean(), ds)
    assert any("'3,750' as 3750" in n for n in map(str, ds.notes))


def test_thousands_column_is_not_taken_for_an_identifier(tmp_path):
    rng = np.random.default_rng(0)
    size = rng.integers(1_000, 2_000_000, 200)
    label = np.where(size > 1_000_000, "big", "small")
    frame = pd.DataFrame({"size": [f"{v:,}" for v in size], "label": label})
    frame.to_csv(tmp_path / "d.csv", index=False)
    ds = load_csv(str(tmp_path / "d.csv"), target="label")
    assert ds.numeric_columns == ["size"] and ds.X["size"].tolist() == size.tolist()
    assert not any("identifier" in n for n in map(str, ds.notes))


def test_space_thousands_with_a_decimal_comma(tmp_path):
    (tmp_path / "d.csv").write_text("amount\tkind\n1 234,5\ta\n12\tb\n-3 000 000,25\ta\n"
                                    "7,5\tb\n", encoding="utf-8")
    frame, notes = read_csv_table(str(tmp_path / "d.csv"))
    assert frame["amount"].tolist() == [1234.5, 12.0, -3000000.25, 7.5]


@pytest.mark.parametrize("cell, decimal, expected", [
    ("12,345", ".", "12345"), ("1,234,567.5", ".", "1234567.5"), ("1.234,5", ",", "1234.5"),
    ("39,1", ",", "39.1"), ("1\u00a0234", ".", "1234"), ("-0,5", ",", "-0.5"),
    ("1'234", ".", "1234"), ("Infinity", ".", "Infinity"), ("12,34", ".", None),
    ("0,123", ".", None), ("1.2.3", ".", None), ("39.1", ",", None), ("abc", ".", None),
])
def test_plain_number(cell, decimal, expected):
    assert plain_number(cell, decimal=decimal) == expected


@pytest.mark.parametrize("marker", ["?", "NA", "N/A", "n/a", "na", "NaN", "nan", "null", "NULL",
                                    "None", "-", "--", "", "   ", " ? "])
def test_missing_markers(tmp_path, marker):
    rows = [f"{i}.5,{'a' if i % 2 else 'b'},{'x' if i % 3 else 'y'}" for i in range(30)]
    rows[3] = f"{marker},{marker},y"
    (tmp_path / "d.csv").write_text("num,cat,label\n" + "\n".join(rows) + "\n")
    ds = load_csv(str(tmp_path / "d.csv"), target="label")
    assert ds.numeric_columns == ["num"] and ds.X["num"].isna().tolist() == [i == 3
                                                                            for i in range(30)]
    assert ds.X["cat"].isna().sum() == 1 and set(ds.X["cat"].dropna()) == {"a", "b"}


def _stray_file(path, n_rows, n_stray):
    values = [f"{i}.25" for i in range(n_rows)]
    for k in range(n_stray):
        values[2 * k + 1] = f"oops{k}"
    labels = (["a", "b"] * n_rows)[:n_rows]
    pd.DataFrame({"x": values, "z": np.arange(n_rows), "label": labels}).to_csv(path, index=False)
    return str(path)


@pytest.mark.parametrize("n_rows, n_stray, numeric", [
    (40, 2, True), (40, 3, False), (19, 1, False), (20, 1, True),
    (1000, STRAY_MAX_CELLS, True), (1000, STRAY_MAX_CELLS + 1, False),
])
def test_stray_cells_limit(tmp_path, n_rows, n_stray, numeric):
    ds = load_csv(_stray_file(tmp_path / "d.csv", n_rows, n_stray), target="label")
    if numeric:
        assert ds.numeric_columns == ["x", "z"] and ds.X["x"].isna().sum() == n_stray
        note = next(n for n in map(str, ds.notes) if "not numbers count as missing" in n)
        assert f"{n_stray} cell(s)" in note and "line 3 'oops0'" in note
    else:
        assert "x" not in ds.numeric_columns
        assert any("looks like numbers" in n and f"{n_stray} of its {n_rows}" in n
                   for n in map(str, ds.notes))


def test_infinite_values_count_as_missing(tmp_path):
    rows = [f"{i}.5,{'a' if i % 2 else 'b'}" for i in range(30)]
    rows[4], rows[7], rows[9] = "inf,a", "-Infinity,b", "Infinity,a"
    (tmp_path / "d.csv").write_text("x,label\n" + "\n".join(rows) + "\n")
    ds = load_csv(str(tmp_path / "d.csv"), target="label")
    assert ds.X["x"].isna().sum() == 3 and np.isfinite(ds.X["x"].dropna()).all()
    assert any("'x': 3 infinite value(s)" in n for n in map(str, ds.notes))


def test_spaces_around_categories_are_removed(tmp_path):
    rows = [f"{i},{['male', 'male ', ' female', 'female'][i % 4]},{'ab'[i % 2]}"
            for i in range(20)]
    (tmp_path / "d.csv").write_text("x,sex,label\n" + "\n".join(rows) + "\n")
    ds = load_csv(str(tmp_path / "d.csv"), target="label")
    assert set(ds.X["sex"]) == {"male", "female"}
    assert any("removed spaces" in n and "'sex'" in n for n in map(str, ds.notes))


def test_control_characters_are_made_visible():
    assert visible("a\tb\r\n\x00\x1b\x7fz") == "a\\tb\\r\\n\\x00\\x1b\\x7fz"
    frame = pd.DataFrame({"bill\tlength": np.arange(30.0), "note\x00": ["a", "b", "c"] * 10,
                          "kind\n": ["yes\x07", "no"] * 15})
    for target in ("kind\n", "kind\\n"):
        ds = dataset_from_frame(frame, target)
        assert list(ds.X.columns) == ["bill\\tlength", "note\\x00"] and ds.target == "kind\\n"
        assert ds.classes == ("no", "yes\\x07")
        texts = [str(n) for n in ds.notes]
        assert any("column name(s) with invisible control characters" in n for n in texts)
        assert any("class label(s) with invisible control characters" in n for n in texts)
        shown = {n.fields["what"]: n.fields["names"] for n in ds.notes
                 if n.code == "control_characters"}
        assert set(shown) == {"column_names", "class_labels"}
    ds = dataset_from_frame(frame, "kind\n", exclude=["note\\x00"])
    assert list(ds.X.columns) == ["bill\\tlength"]


def test_control_characters_in_a_quoted_csv_header(tmp_path):
    (tmp_path / "d.csv").write_text('"bill\nlength",label\n' + "".join(
        f"{i},{'ab'[i % 2]}\n" for i in range(10)))
    ds = load_csv(str(tmp_path / "d.csv"), target="label")
    assert list(ds.X.columns) == ["bill\\nlength"]


def test_decimal_commas_in_a_comma_separated_file(tmp_path):
    rows = [f'"{i},5",{i % 3},{"ab"[i % 2]}' for i in range(30)]
    (tmp_path / "d.csv").write_text("x,z,label\n" + "\n".join(rows) + "\n")
    ds = load_csv(str(tmp_path / "d.csv"), target="label")
    assert "x" not in ds.numeric_columns
    assert any("decimal comma" in n and 'set "decimal" to ","' in n for n in map(str, ds.notes))
    ds = load_csv(str(tmp_path / "d.csv"), target="label", decimal=",")
    assert ds.X["x"].tolist() == [i + 0.5 for i in range(30)] and ds.source["decimal"] == ","


def test_ambiguous_commas_follow_the_separator(tmp_path):
    rows = [f"{1000 + 7 * i:,};{'ab'[i % 2]}" for i in range(30)]
    (tmp_path / "semi.csv").write_text("x;label\n" + "\n".join(rows) + "\n")
    ds = load_csv(str(tmp_path / "semi.csv"), target="label")
    assert ds.X["x"].iloc[1] == 1.007
    assert any("decimal comma assumed" in n for n in map(str, ds.notes))
    note = next(n for n in ds.notes if n.code == "decimal_comma")
    assert note.fields["certain"] is False and note.fields["column"] == "x"
    ds = load_csv(str(tmp_path / "semi.csv"), target="label", decimal=".")
    assert ds.X["x"].iloc[1] == 1007
    (tmp_path / "tab.csv").write_text("x\tlabel\n" + "\n".join(rows).replace(";", "\t") + "\n")
    assert load_csv(str(tmp_path / "tab.csv"), target="label").X["x"].iloc[1] == 1007


@pytest.mark.parametrize("options, code, fields", [
    ({"decimal": ";"}, "decimal_option", {"decimal": ";"}),
    ({"thousands": "_"}, "thousands_option", {"thousands": "_"}),
    ({"decimal": ",", "thousands": ","}, "thousands_is_decimal", {"thousands": ","}),
])
def test_bad_number_formats(options, code, fields):
    with pytest.raises(ValueError) as caught:
        load_csv(PENGUINS, target="species", **options)
    assert error_code(caught.value) == code and dict(error_fields(caught.value)) == fields


def test_header_names_equal_once_stripped_get_numbered(tmp_path):
    """'x' and 'x\\x85' (a NEL, which str.strip removes) would give two columns of one
    name (found by the CSV fuzzer); they are numbered as pandas numbers duplicates."""
    from engine.input.data import load_csv, unique_names

    assert unique_names(["0", "0", "0.1", "a", "0"]) == ["0", "0.2", "0.1", "a", "0.3"]
    path = tmp_path / "nel.csv"
    path.write_bytes(b"x, x\x85,y\n1,2,a\n3,4,b\n5,6,a\n7,8,b\n")
    data = load_csv(str(path), target="y", encoding="latin-1")  # detected: cp1252, 0x85 is '…'
    assert list(data.X.columns) == ["x", "x.1"]
    assert data.X["x.1"].tolist() == [2, 4, 6, 8]
