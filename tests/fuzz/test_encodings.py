"""Files that are not UTF-8: Windows-1252 and Shift-JIS are read as what they are.

The campaign of issue 31 found a Windows-1252 file's "€" and smart quotes read as latin-1
(C1 control characters in ``confusion.csv``) and Shift-JIS files as latin-1 mojibake.
The rule (``engine.input.csv_values._not_utf8``) is checked on files pandas writes
(``DataFrame.to_csv(encoding=...)``, as a Windows Excel or R would save them): each is
read exactly as the same table saved as UTF-8, with a note naming the encoding; the
genuinely ambiguous ones follow the stated rule and say what else would fit (bytes
that are valid UTF-8 are read as UTF-8, first of all).  Hypothesis
draws Japanese and Western texts (bounded: 200 examples).
"""
import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris

from engine.input.csv_values import choose_encoding
from engine.input.data import load_csv
from tests.fuzz.conftest import headless

pytestmark = pytest.mark.fuzz

FUZZ = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
WESTERN = {0: "“setosa” – €5", 1: "versicolor…", 2: "virginica ™ naïve"}
JAPANESE = {0: "ヒオウギアヤメ", 1: "東京都", 2: "大阪府"}


def iris_frame(names: dict) -> pd.DataFrame:
    data = load_iris(as_frame=True)
    frame = data.frame.copy()
    frame["species"] = frame.pop("target").map(names)
    return frame


def saved(tmp_path, frame, encoding, name="data.csv"):
    path = tmp_path / name
    frame.to_csv(path, index=False, encoding=encoding)
    return str(path)


def encoding_note(dataset):
    notes = [note for note in dataset.notes if note.code == "encoding"]
    assert len(notes) == 1, [str(n) for n in dataset.notes]
    return notes[0]


@pytest.mark.parametrize("names, encoding, shown", [
    (WESTERN, "cp1252", "Windows-1252 (cp1252)"),
    (JAPANESE, "cp932", "Shift-JIS (cp932)"),
    ({0: "東京都", 1: "大阪府", 2: "北海道"}, "shift_jis", "Shift-JIS (cp932)"),
])
def test_a_file_reads_as_the_same_table_saved_as_utf8(tmp_path, names, encoding, shown):
    frame = iris_frame(names)
    other = load_csv(saved(tmp_path, frame, encoding), target="species")
    utf8 = load_csv(saved(tmp_path, frame, "utf-8", "utf8.csv"), target="species")
    assert other.classes == utf8.classes == tuple(sorted(names.values()))
    np.testing.assert_array_equal(other.y, utf8.y)
    pd.testing.assert_frame_equal(other.X, utf8.X)
    note = encoding_note(other)
    assert note.fields["encoding"] == ("cp932" if encoding == "shift_jis" else encoding)
    assert note.fields["name"] == shown and not note.fields["ambiguous"]
    assert str(note) == f"the file is not UTF-8; read it as {shown}"


def test_a_latin1_file_is_read_as_before(tmp_path):
    frame = iris_frame({0: "café", 1: "Zürich", 2: "Ærø"})
    dataset = load_csv(saved(tmp_path, frame, "latin-1"), target="species")
    assert dataset.classes == ("Zürich", "café", "Ærø")
    assert str(encoding_note(dataset)) == "the file is not UTF-8; read it as latin-1"


@pytest.mark.parametrize("text, encoding, chosen, alternative", [
    ("県,区分\n東京都,大\n", "cp932", "cp932", "cp1252"),           # both decode it
    ("名前,ラベル\nさくら,はい\n", "cp932", "cp932", "cp1252"),     # kana decide
    ("name,label\nélève,yes\nprof,no\n", "latin-1", "latin-1", "cp932"),
    ("name,label\nJean–Pierre,yes\nprof,no\n", "cp1252", "cp1252", "cp932"),
    ("ｶﾀｶﾅ,ﾗﾍﾞﾙ\nｱｲｳ,ﾊｲ\n", "cp932", "latin-1", "cp932"),           # the rule's limit
])
def test_ambiguous_bytes_follow_the_stated_rule(text, encoding, chosen, alternative):
    found, notes = choose_encoding("f.csv", text.encode(encoding))
    assert found == chosen
    assert notes[0].fields["ambiguous"] and notes[0].fields["alternative"] == alternative
    assert f'set "encoding" to "{alternative}" if the text looks wrong' in str(notes[0])


def test_a_file_that_changes_encoding_after_its_start_is_read_as_latin1(tmp_path):
    body = "a,b\n" + "“x”,1\n“y”,2\n" * 20_000
    path = tmp_path / "late.csv"
    path.write_bytes(body.encode("cp1252") + b"\x81z,3\n")     # 0x81: no cp1252 character
    dataset = load_csv(str(path), target="a")
    note = encoding_note(dataset)
    assert note.fields["encoding"] == "latin-1"
    assert "starts like Windows-1252 (cp1252)" in str(note)
    assert set(dataset.classes) == {"\\x93x\\x94", "\\x93y\\x94", "\\x81z"}  # C1, written out


JAPANESE_WORDS = st.text(st.sampled_from(
    "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん"
    "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヲン"
    "東京都大阪府北海道県市町村人口区分学校先生日本語名前"), min_size=1, max_size=6)
WESTERN_WORDS = st.builds(
    lambda head, accent, tail, mark: mark[0] + head + accent + tail + mark[1],
    st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz"), min_size=1, max_size=5),
    st.sampled_from(["", *"àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿßÀÉÖÜ"]),
    st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz"), max_size=5),
    st.sampled_from([("", ""), ("“", "”"), ("‘", "’"), ("", " €"), ("", "…"), ("", " –"),
                     ("", "™")]))


def table(words: list) -> str:
    return "name,value\n" + "".join(f"{w},{i}\n" for i, w in enumerate(words))


@settings(max_examples=100, **FUZZ)
@given(st.lists(JAPANESE_WORDS, min_size=1, max_size=20))
def test_japanese_text_is_shift_jis(words):
    """Japanese words are read as Shift-JIS; with only one-character words (one kanji
    each, no kana: '分') the bytes may fit Windows-1252 as well, and then the note names
    Shift-JIS as the alternative (the rule's stated limit)."""
    data = table(words).encode("cp932")
    found, notes = choose_encoding("f.csv", data)
    if found != "cp932":
        assert all(len(word) == 1 for word in words)
        assert notes[0].fields["ambiguous"] and notes[0].fields["alternative"] == "cp932"
    else:
        assert data.decode(found) == table(words)


@settings(max_examples=100, **FUZZ)
@given(st.lists(WESTERN_WORDS, min_size=1, max_size=20))
def test_western_text_is_never_shift_jis(words):
    data = table(words).encode("cp1252")
    assume(not utf8(data))         # "aß…" is valid UTF-8 too (DF 85): UTF-8 comes first
    found, _ = choose_encoding("f.csv", data)
    assert found in ("cp1252", "latin-1") and data.decode(found) == table(words)


def utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@pytest.mark.slow
def test_a_windows_1252_run_writes_the_same_tables_as_utf8(tmp_path):
    """Headless: the "€" and smart quotes reach confusion.csv as themselves, never as C1
    control characters, and notes.txt names the encoding."""
    frame = iris_frame(WESTERN)
    outs = {}
    for encoding in ("cp1252", "utf-8"):
        folder = tmp_path / encoding
        folder.mkdir()
        saved(folder, frame, encoding)
        (folder / "exp.json").write_text(json.dumps({
            "dataset": {"csv": "data.csv", "target": "species"},
            "models": [{"name": "nb", "estimator": "GaussianNB"}],
            "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
            "metrics": ["accuracy"]}), encoding="utf-8")
        done = headless(folder / "exp.json", "--out", folder / "out", cwd=folder)
        assert done.returncode == 0, done.stderr
        outs[encoding] = folder / "out"
    for name in ("confusion.csv", "per_class.csv"):
        assert (outs["cp1252"] / name).read_bytes() == (outs["utf-8"] / name).read_bytes()
    confusion = (outs["cp1252"] / "confusion.csv").read_text("utf-8")
    assert "“setosa” – €5" in confusion and "\\x93" not in confusion
    notes = (outs["cp1252"] / "notes.txt").read_text("utf-8")
    assert "the file is not UTF-8; read it as Windows-1252 (cp1252)" in notes


@pytest.mark.gui
def test_the_dataset_tab_names_the_encoding(qtbot, tmp_path):
    from gui.state import AppState
    from gui.tabs.dataset_tab import DatasetTab

    tab = DatasetTab(AppState())
    qtbot.addWidget(tab)
    tab.show()
    try:
        path = saved(tmp_path, iris_frame(JAPANESE), "cp932")
        with qtbot.waitSignal(tab.view_ready, timeout=30000):
            tab.open_file(path)
        assert tab.state.dataset.classes == tuple(sorted(JAPANESE.values()))
        shown = tab.notes_label.text()
        assert "read it as Shift-JIS (cp932)" in shown and "save the file as UTF-8" in shown
    finally:
        tab.shutdown()
