"""Fuzzing the CSV reader: whatever the bytes, a Dataset or one clear ValueError line.

Files are made from random bytes and from random tables written in utf-8, latin-1,
cp1252 or utf-16, with comma, semicolon, tab or vertical-bar separators, quoted cells,
ragged rows, decimal commas, missing markers and comment lines; ``engine.input.data.load_csv``
reads each with or without the encoding and separator given, and a target column
chosen or not.  A few files also go through the headless runner (exit 0 or 2, no
traceback, nothing half-written).  Bounded: 1,210 reader examples (about 10 s) and 6
runner examples (about 12 s).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.input.data import Dataset, load_csv
from tests.helpers import results

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRST = re.compile(r"[A-Za-z'\"]")
ENCODINGS = ("utf-8", "latin-1", "cp1252", "utf-16")
SEPARATORS = (",", ";", "\t", "|")
MARKERS = ("", "?", "NA", "n/a", "-", "null", " ")
FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                     HealthCheck.function_scoped_fixture])


def assert_outcome(path, **options):
    """load_csv gives a Dataset or a one-line ValueError that starts with a word."""
    try:
        result = load_csv(path, **options)
    except ValueError as exc:
        message = str(exc)
        assert message and "\n" not in message and "\r" not in message, repr(message)
        assert FIRST.match(message), repr(message)
        return message
    assert isinstance(result, Dataset)
    assert len(result.X) == len(result.y) > 0 and len(result.classes) >= 2
    return result


def write(data: bytes) -> str:
    handle, path = tempfile.mkstemp(suffix=".csv")
    with os.fdopen(handle, "wb") as stream:
        stream.write(data)
    return path


def read(data: bytes, **options):
    path = write(data)
    try:
        return assert_outcome(path, **options)
    finally:
        os.unlink(path)


# ----------------------------------------------------------------------------- strategies

words = st.text(alphabet=st.characters(codec="latin-1", exclude_characters="\x00"),
                max_size=6)
numbers = st.one_of(st.integers(-10 ** 6, 10 ** 6).map(str),
                    st.floats(-1e6, 1e6, allow_nan=False).map(lambda x: f"{x:.3f}"),
                    st.floats(-1e3, 1e3, allow_nan=False).map(
                        lambda x: f"{x:.2f}".replace(".", ",")))
grouped = st.integers(1000, 10 ** 7).map(lambda n: f"{n:,}")
cells = st.one_of(numbers, numbers, grouped, st.sampled_from(MARKERS), words,
                  st.sampled_from(["a", "b", "c", 'x"y', '"open', "inf", "-", "1e5"]))


def quoted(cell: str, sep: str) -> str:
    if cell.startswith('"open'):                    # an unbalanced quote, left as written
        return cell
    if sep in cell or '"' in cell or "\n" in cell or "\r" in cell:
        return '"' + cell.replace('"', '""') + '"'
    return cell


@st.composite
def tables(draw):
    sep = draw(st.sampled_from(SEPARATORS))
    n_columns = draw(st.integers(1, 5))
    n_rows = draw(st.integers(0, 30))
    header = [draw(st.one_of(words, st.sampled_from(["x", "y", "label", "class"])))
              for _ in range(n_columns)]
    ragged = draw(st.integers(0, 4)) == 0                    # one table in five
    rows = []
    for _ in range(n_rows):
        width = n_columns + (draw(st.sampled_from([0, 0, 0, -1, 1, 2])) if ragged else 0)
        row = [draw(cells) for _ in range(max(1, width - 1))]
        rows.append(row + [draw(st.sampled_from(["a", "b", "c", "", "?"]))])
    lines = [sep.join(quoted(c, sep) for c in header)]
    lines += [sep.join(quoted(c, sep) for c in row) for row in rows]
    if draw(st.booleans()) and lines:
        lines.insert(draw(st.integers(0, len(lines))), "# a comment" + sep + "x")
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    encoding = draw(st.sampled_from(ENCODINGS))
    text = newline.join(lines) + newline
    data = text.encode(encoding, errors="replace")
    target = draw(st.one_of(st.none(), st.sampled_from(header)))
    give_encoding = draw(st.booleans())
    give_sep = draw(st.booleans())
    options = {"target": target or None,
               "encoding": encoding if give_encoding else None,
               "sep": sep if give_sep else None,
               "decimal": draw(st.sampled_from([None, None, ".", ","]))}
    return data, options


# ----------------------------------------------------------------------------- reader

@settings(FUZZ, max_examples=500)
@given(st.binary(max_size=3000))
def test_random_bytes(data):
    read(data)


TEXTISH = list(b"0123456789,;|\t\n\r\"#.-e abcxy?\x85\xe9\xc3\xa9\xff\xfe\xef\xbb\xbf")


@settings(FUZZ, max_examples=300)
@given(st.lists(st.sampled_from(TEXTISH), max_size=2000).map(bytes))
def test_random_text_like_bytes(data):
    read(data)


@pytest.mark.slow
@settings(FUZZ, max_examples=350)
@given(tables())
def test_random_tables(case):
    data, options = case
    read(data, **options)


@settings(FUZZ, max_examples=60)
@given(st.binary(min_size=1, max_size=400), st.sampled_from(ENCODINGS + ("utf-32", "ascii")))
def test_random_bytes_with_a_given_encoding(data, encoding):
    read(data, encoding=encoding)


def test_a_clean_table_in_every_encoding_is_read_the_same(tmp_path):
    text = "x;y;label\n" + "".join(f"{i},5;{i * 2};{'ab'[i % 2]}é\n" for i in range(30))
    frames = []
    for encoding in ENCODINGS:
        for named in (encoding, None):
            path = tmp_path / f"{encoding}.csv"
            path.write_bytes(text.encode(encoding))
            result = assert_outcome(str(path), encoding=named)
            assert isinstance(result, Dataset), (encoding, named, result)
            frames.append((result.X["x"].tolist(), result.classes))
    assert all(frame == frames[0] for frame in frames)
    assert frames[0][0][:2] == [0.5, 1.5] and frames[0][1] == ("aé", "bé")


# ----------------------------------------------------------------------------- runner

@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="subprocess timing")
@settings(FUZZ, max_examples=6)
@given(tables())
def test_runner_exits_0_or_2_and_leaves_no_half_written_file(tmp_path, case):
    data, options = case
    folder = tempfile.mkdtemp(dir=tmp_path)
    with open(os.path.join(folder, "d.csv"), "wb") as stream:
        stream.write(data)
    dataset = {"csv": "d.csv", **{k: v for k, v in options.items() if v is not None}}
    experiment = {"dataset": dataset, "models": [{"name": "nb", "estimator": "GaussianNB"}],
                  "cv": {"n_splits": 2, "n_repeats": 1, "random_state": 0},
                  "metrics": ["accuracy"]}
    with open(os.path.join(folder, "exp.json"), "w", encoding="utf-8") as stream:
        json.dump(experiment, stream)
    out = os.path.join(folder, "out")
    done = subprocess.run([sys.executable, os.path.join(ROOT, "main.py"), "run",
                           os.path.join(folder, "exp.json"), "--out", out, "--quiet"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 2), done.stderr
    assert "Traceback" not in done.stderr
    if done.returncode == 2:
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: "), done.stderr
        assert not os.path.exists(out) or not results(out)
    else:
        manifest = json.loads(open(os.path.join(out, "run.json"), encoding="utf-8").read())
        assert results(out) == sorted([*manifest["tables"], "run.json"])
