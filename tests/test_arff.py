"""ARFF files read as Weka reads them: every example Weka ships and hand-made files
(quoting, sparse rows, dates, weights, missing values) compared with what Weka itself reads
(tests/data/arff/WekaDump.java run on Weka's own jar), dense files also with scipy.io.arff,
and the errors a user meets."""
import glob
import json
import os
import subprocess

import numpy as np
import pandas as pd
import pytest
from scipy.io import arff as scipy_arff

from engine.input.arff import read_arff
from engine.input.readers import load_dataset
from engine.input.java_dates import compile_pattern
from engine.input.readers import read_table
from tests.helpers import EXAMPLES, WEKA_JAR, needs_examples, needs_weka

HERE = os.path.dirname(os.path.abspath(__file__))
DUMP = os.path.join(HERE, "data", "arff", "WekaDump.java")
WEKA_DUMMY = "*WEKA*DUMMY*STRING*FOR*STRING*ATTRIBUTES*"   # Weka's left-out string value


def weka_read(*paths) -> list:
    """What Weka reads from each file: {relation, attributes, rows: [[weight, values...]]}."""
    done = subprocess.run(["java", "-cp", WEKA_JAR, DUMP, *map(str, paths)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    files = []
    for line in done.stdout.splitlines():
        item = json.loads(line)
        if isinstance(item, dict):
            files.append({**item, "rows": []})
        else:
            files[-1]["rows"].append(item)
    return files


def assert_reads_as_weka(table, weka) -> None:
    assert table.relation == weka["relation"]
    assert [(a.name, a.kind) for a in table.attributes] == [tuple(a) for a in weka["attributes"]]
    rows = weka["rows"]
    assert len(table.frame) == len(rows)
    for j, attribute in enumerate(table.attributes):
        theirs = [row[j + 1] for row in rows]
        ours = table.frame.iloc[:, j]
        if attribute.kind in ("numeric", "date"):
            expected = np.array([np.nan if v is None else v for v in theirs], dtype=float)
            scale = 1000.0 if attribute.kind == "date" else 1.0        # Weka: milliseconds
            np.testing.assert_array_equal(ours.to_numpy(dtype=float) * scale, expected,
                                          err_msg=attribute.name)
        else:
            expected = [None if v is None or v == WEKA_DUMMY else v for v in theirs]
            assert [None if pd.isna(v) else v for v in ours] == expected, attribute.name


@pytest.fixture(scope="module")
def examples():
    return sorted(glob.glob(os.path.join(EXAMPLES, "*.arff")))


@pytest.mark.slow
@needs_weka
@needs_examples
def test_every_example_weka_ships_reads_as_weka_reads_it(examples):
    assert len(examples) >= 20            # diabetes, credit-g, ReutersCorn (strings), ...
    for path, weka in zip(examples, weka_read(*examples)):
        assert_reads_as_weka(read_arff(path), weka)


@needs_examples
@pytest.mark.parametrize("name", ["iris", "diabetes", "credit-g", "weather.nominal", "labor",
                                  "vote"])   # soybean: scipy fails
def test_dense_files_read_as_scipy_reads_them(name):
    path = os.path.join(EXAMPLES, f"{name}.arff")
    data, meta = scipy_arff.loadarff(path)
    ours = read_arff(path).frame
    assert list(ours.columns) == list(meta.names())
    for column, kind in zip(meta.names(), meta.types()):
        if kind == "numeric":
            np.testing.assert_array_equal(ours[column].to_numpy(dtype=float), data[column])
        else:
            theirs = [None if v == b"?" else v.decode() for v in data[column]]
            assert [None if pd.isna(v) else v for v in ours[column]] == theirs, column


QUOTING = r"""% a comment before the header
@RELATION 'quoting and escapes'
% comments between attributes
@Attribute 'the name' STRING
@attribute "colour choice" {'light red', "dark, blue", plain, '?'}
@ATTRIBUTE n1 REAL
@attribute n2 integer
@attribute n3 NUMERIC
@DATA
'it\'s', 'light red', 1.5, 2, -3e2   % a comment after a row
"say \"hi\"", "dark, blue", ?, 4, .5
'tab\there\nnew line', plain,1e-3,  5,6
'back\\slash %not a comment', '?', 7, 8, 9

?	plain	10	11	12
'\u00e9t\u00e9 caf\u00e9', plain, 1, 2, 3
"""

SPARSE = """@relation sparse
@attribute n numeric
@attribute c {first, second, third}
@attribute s string
@attribute d date 'yyyy-MM-dd HH:mm'
@attribute k {no, yes}
@data
{0 1.5, 1 third, 4 yes}
{2 hello, 3 '2020-01-02 03:04'}
{}
{1 second}
3, second, text, '2021-03-04 05:06', yes
{0 ?, 4 ?}
"""

DATES = """@relation dates
@attribute iso date
@attribute dmy date "dd/MM/yyyy"
@attribute compact date yyyyMMddHHmmss
@attribute words date "EEE, d MMM yyyy hh:mm a"
@attribute zoned date "yyyy-MM-dd'T'HH:mm:ss.SSSZ"
@attribute day_of_year date "yyyy-DDD"
@attribute k {a, b}
@data
2020-01-02T03:04:05, 31/12/1999, 20240229235959, 'Wed, 4 Mar 2020 01:02 PM', 2020-01-02T03:04:05.123+0130, 2021-060, a
1970-01-01T00:00:00, 1/2/1970, 19000101000000, 'Sunday, 29 February 2004 12:00 AM', 1999-12-31T23:59:59.999-0800, 2000-366, b
?, ?, ?, ?, ?, ?, a
"""

WEIGHTS = """@relation weights
@attribute x numeric
@attribute k {a, b}
@data
1, a, {2}
{0 2, 1 b}, {2}
3, b, {2}
"""


@pytest.fixture
def write(tmp_path):
    def make(text, name="t.arff", encoding="utf-8"):
        path = tmp_path / name
        path.write_bytes(text.encode(encoding))
        return str(path)
    return make


@needs_weka
@pytest.mark.parametrize("text", [QUOTING, SPARSE, DATES, WEIGHTS],
                         ids=["quoting", "sparse", "dates", "weights"])
def test_hand_made_files_read_as_weka_reads_them(write, text):
    path = write(text.replace(r"\u00e9", "\u00e9"))
    assert_reads_as_weka(read_arff(path), weka_read(path)[0])


def test_quoting_escapes_comments_and_missing_values(write):
    table = read_arff(write(QUOTING.replace(r"\u00e9", "\u00e9")))
    frame = table.frame
    assert table.relation == "quoting and escapes"
    assert list(frame.columns) == ["the name", "colour choice", "n1", "n2", "n3"]
    assert [None if pd.isna(v) else v for v in frame["the name"]] == [
        "it's", 'say "hi"', "tab\there\nnew line", "back\\slash %not a comment", None,
        "\u00e9t\u00e9 caf\u00e9"]
    assert list(frame["colour choice"]) == ["light red", "dark, blue", "plain", "?", "plain",
                                            "plain"]
    np.testing.assert_array_equal(frame["n1"], [1.5, np.nan, 1e-3, 7, 10, 1])
    np.testing.assert_array_equal(frame["n3"], [-300, 0.5, 6, 9, 12, 3])


def test_sparse_rows_leave_out_zeros_and_first_values(write):
    table = read_arff(write(SPARSE))
    frame = table.frame
    np.testing.assert_array_equal(frame["n"], [1.5, 0, 0, 0, 3, np.nan])
    assert list(frame["c"]) == ["third", "first", "first", "second", "second", "first"]
    assert [None if pd.isna(v) else v for v in frame["s"]] == [None, "hello", None, None,
                                                              "text", None]
    np.testing.assert_array_equal(frame["d"], [0, 1577934240, 0, 0, 1614834360, 0])
    assert [None if pd.isna(v) else v for v in frame["k"]] == ["yes", "no", "no", "no", "yes",
                                                              None]
    codes = [n.code for n in table.notes]
    assert "sparse_rows" in codes and "string_attributes" in codes and \
        "dates_as_numbers" in codes
    assert next(n for n in table.notes if n.code == "sparse_rows").fields["n_rows"] == 5


def utc(text):
    return pd.Timestamp(text, tz="UTC")


def test_dates_are_seconds_since_1970_utc(write):
    frame = read_arff(write(DATES)).frame
    expected = {
        "iso": [utc("2020-01-02T03:04:05"), utc("1970-01-01")],
        "dmy": [utc("1999-12-31"), utc("1970-02-01")],
        "compact": [utc("2024-02-29T23:59:59"), utc("1900-01-01")],
        "words": [utc("2020-03-04T13:02"), utc("2004-02-29T00:00")],
        "zoned": [utc("2020-01-02T01:34:05.123"),
                  utc("2000-01-01T07:59:59.999")],
        "day_of_year": [utc("2021-03-01"), utc("2000-12-31")]}
    for column, stamps in expected.items():
        seconds = [(s - pd.Timestamp(0, tz="UTC")).total_seconds() for s in stamps]
        np.testing.assert_allclose(frame[column][:2], seconds, rtol=0, atol=1e-6,
                                   err_msg=column)
        assert np.isnan(frame[column][2])


@pytest.mark.parametrize("pattern, text, fragment", [
    ("yyyy-MM-dd", "2021-02-30", "not a valid date"),
    ("yyyy-MM-dd", "2021-13-01", "not a valid date"),
    ("yyyy-MM-dd", "01/02/2021", "does not fit the date pattern"),
    ("hh:mm a", "13:00 PM", "h must be from 1 to 12"),
])
def test_dates_that_java_refuses_are_refused(pattern, text, fragment):
    with pytest.raises(ValueError, match=fragment):
        compile_pattern(pattern).seconds(text)


def test_equal_weights_are_ignored_with_a_note(write):
    table = read_arff(write(WEIGHTS))
    note = next(n for n in table.notes if n.code == "instance_weights_ignored")
    assert note.fields["weight"] == 2 and note.fields["n_rows"] == 3
    np.testing.assert_array_equal(table.frame["x"], [1, 2, 3])


@pytest.mark.parametrize("text, code, fields", [
    (WEIGHTS.replace("3, b, {2}", "3, b, {0.5}"), "arff_weights", {"weights": (0.5, 2.0)}),
    (WEIGHTS.replace("3, b, {2}", "3, b"), "arff_weights", {"weights": (1.0, 2.0)}),
    ("@relation r\n@attribute bag relational\n@end bag\n@data\n", "arff_line",
     {"line": 2, "problem": "relational", "name": "bag"}),
    ("@relation r\n@attribute x numeric\n@attribute k {a,b}\n@data\n1,a\n2,c\n", "arff_line",
     {"line": 6, "problem": "not_declared", "name": "k", "value": "c", "declared": ("a", "b")}),
    ("@relation r\n@attribute x numeric\n@attribute k {a,b}\n@data\n1,a\nten,b\n", "arff_line",
     {"line": 6, "problem": "not_number", "name": "x", "value": "ten"}),
    ("@relation r\n@attribute x numeric\n@attribute k {a,b}\n@data\n1,a\n2\n", "arff_line",
     {"line": 6, "problem": "n_values", "n_values": 1, "n_attributes": 2}),
    ("@relation r\n@attribute x numeric\n@attribute k {a,b}\n@data\n1,'a\n", "arff_line",
     {"line": 5, "problem": "open_quote", "quote": "'"}),
    ("@relation r\n@attribute x numeric\n@attribute k {a,b}\n@data\n{2 a}\n", "arff_line",
     {"line": 5, "problem": "sparse_index", "index": "2", "last": 1}),
    ("@relation r\n@attribute x numeric\n@attribute x {a,b}\n@data\n", "arff_line",
     {"line": 3, "problem": "attribute_twice", "name": "x"}),
    ("@relation r\n@attribute x float\n@data\n", "arff_line",
     {"line": 2, "problem": "unknown_type", "kind": "float"}),
    ("@relation r\n@attribute d date 'yyyy-ww'\n@data\n", "arff_line",
     {"line": 2, "problem": "date_format", "name": "d"}),
    ("@relation r\n@attribute x numeric\n", "arff_no_data", {}),
    ("@relation r\n@attribute x numeric\n@data\n% nothing\n", "data_no_rows",
     {"kind": "arff"}),
    ("a,b,c\n1,2,3\n", "arff_line", {"line": 1, "problem": "no_relation"}),
])
def test_bad_files_are_refused_naming_the_line(write, text, code, fields):
    with pytest.raises(ValueError) as error:
        read_arff(write(text))
    assert error.value.code == code
    assert {key: error.value.fields[key] for key in fields} == fields
    assert error.value.fields["path"].endswith(".arff")


def test_a_bad_date_names_the_line_and_the_attribute(write):
    text = ("@relation r\n@attribute d date 'yyyy-MM-dd'\n@attribute k {a}\n@data\n"
            "2020-02-30,a\n")
    with pytest.raises(ValueError) as error:
        read_arff(write(text))
    for fragment in ["line 5", "attribute 'd'", "not a valid date"]:
        assert fragment in str(error.value)


def test_binary_and_latin1_files(write, tmp_path):
    with pytest.raises(ValueError, match="PNG image .* not an ARFF text file"):
        read_arff(write("\x89PNG\r\n\x1a\n", "p.arff", "latin-1"))
    text = "@relation r\n@attribute x numeric\n@attribute k {caf\u00e9,th\u00e9}\n@data\n" \
        + "1,caf\u00e9\n" * 20_000 + "2,th\u00e9\n"            # past the 64 KB looked at first
    table = read_arff(write(text, "l.arff", "latin-1"))
    assert table.frame["k"].iloc[-1] == "th\u00e9"
    assert any(n.code == "encoding" and n.fields["encoding"] == "latin-1" for n in table.notes)


# ----------------------------------------------------------------------------- data sets

@needs_examples
def test_an_arff_data_set_takes_the_last_attribute_and_the_relation_name():
    ds = load_dataset({"file": os.path.join(EXAMPLES, "credit-g.arff")})
    assert ds.name == "german_credit" and ds.target == "class"
    assert ds.classes == ("good", "bad")                # declared order, not sorted
    assert np.bincount(ds.y).tolist() == [700, 300]
    assert ds.X.shape == (1000, 20)
    assert "checking_status" in ds.categorical_columns and "duration" in ds.numeric_columns
    note = next(n for n in ds.notes if n.code == "target_chosen")
    assert "the last attribute, 'class', as Weka does" in str(note)
    assert ds.pos_label == 1                            # 'bad', the smaller class
    assert ds.source == {"file": os.path.join(EXAMPLES, "credit-g.arff")}
    named = load_dataset({"file": os.path.join(EXAMPLES, "credit-g.arff"),
                          "target": "foreign_worker", "exclude": ["class"]})
    assert named.target == "foreign_worker" and named.classes == ("yes", "no")


def test_declared_classes_without_rows_are_left_out_with_a_note(write):
    path = write("@relation r\n@attribute x numeric\n@attribute k {zebra, ant, cat, dog}\n"
                 "@data\n" + "".join(f"{i},{'zebra' if i % 3 else 'cat'}\n" for i in range(30)))
    ds = load_dataset({"file": path})
    assert ds.classes == ("zebra", "cat")
    assert ds.y.tolist() == [1 if i % 3 == 0 else 0 for i in range(30)]
    note = next(n for n in ds.notes if n.code == "empty_classes")
    assert note.fields["classes"] == ("ant", "dog")


@needs_examples
def test_string_attributes_are_text_as_the_csv_path_treats_text():
    table = read_table(os.path.join(EXAMPLES, "ReutersCorn-test.arff"))
    assert table.target == "class-att" and table.class_order["class-att"] == ["0", "1"]
    ds = load_dataset({"file": os.path.join(EXAMPLES, "weather.nominal.arff")})
    assert ds.classes == ("yes", "no") and ds.X.shape == (14, 4)
    ds = load_dataset({"file": os.path.join(EXAMPLES, "ReutersCorn-test.arff")})
    assert ds.X.shape == (604, 1) and ds.classes == ("0", "1")
    codes = {n.code: n for n in ds.notes}
    assert codes["string_attributes"].fields["columns"] == ("Text",)
    assert codes["many_categories"].fields == {"column": "Text", "n_categories": 602}


@needs_examples
def test_a_numeric_last_attribute_is_not_forced_to_be_the_target():
    table = read_table(os.path.join(EXAMPLES, "cpu.arff"))
    assert table.target is None                         # chosen as for a CSV file
    ds = load_dataset({"file": os.path.join(EXAMPLES, "cpu.arff")})
    note = next(n for n in ds.notes if n.code == "target_chosen")
    # the numeric last attribute is no class: the documented rule picks the only column
    # that looks like classes, and the note says which rule chose it
    assert "class" in ds.X.columns and ds.target == note.fields["column"] == "CHMIN"
    assert note.fields["rule"] == "only"


def test_a_large_file_is_read_in_linear_time(write):
    rng = np.random.default_rng(0)
    values = rng.normal(size=(60_000, 5)).round(6)
    lines = "".join(",".join(map(str, row)) + (",a\n" if i % 2 else ",b\n")
                    for i, row in enumerate(values))
    header = "@relation big\n" + "".join(f"@attribute x{i} numeric\n" for i in range(5))
    path = write(header + "@attribute k {a,b}\n@data\n" + lines)
    frame = read_arff(path).frame
    np.testing.assert_array_equal(frame.iloc[:, :5].to_numpy(), values)
    assert frame["k"].tolist() == ["b", "a"] * 30_000
