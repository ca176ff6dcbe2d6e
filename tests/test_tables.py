"""Nothing wrong gets written: safe cells, the user's permissions, one consistent result set."""
import csv
import io
import json
import os
import random
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.output.folder_entries import MARKER_TEXT, STAGING_MARKER
from engine.output.result_folder import (KNOWN_TABLES, STAGING_PREFIX, TEMPORARY_PREFIX,
                                         FolderRefused, read_manifest, recover_folder,
                                         write_result_folder, write_tables)
from engine.output.tables import csv_text, safe_cell, write_csv
from tests.helpers import FORMULA, is_number

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONTROL = "".join(map(chr, range(32))) + "\x7f"
OURS = (STAGING_PREFIX, TEMPORARY_PREFIX)


def check_cells(rows, n_rows, n_cells):
    assert len(rows) == n_rows
    for row in rows:
        assert len(row) == n_cells, row
        for cell in row:
            assert not (cell.startswith(FORMULA) and not is_number(cell)), cell
            assert not any(ch in CONTROL for ch in cell), cell


def read_rows(text):
    return list(csv.reader(io.StringIO(text, newline="")))


# ---- cells --------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, written", [
    ("x\r=cr", "x\\r=cr"),
    ("ok\r=cmd|' /C calc'!A0", "ok\\r=cmd|' /C calc'!A0"),
    ("\r=cmd", "\\r=cmd"), ("\t=1", "\\t=1"), ("a\nb", "a\\nb"), ("\x00x", "\\x00x"),
    ("\x1b[31m", "\\x1b[31m"), ("del\x7f", "del\\x7f"),
    ("=1+1", "'=1+1"), ("@SUM(A1)", "'@SUM(A1)"), ("-tree", "'-tree"), ("+ok", "'+ok"),
    ("-1.5", "-1.5"), ("+2e3", "+2e3"), ("plain", "plain"), ("", ""),
])
def test_safe_cell_writes_control_characters_out_then_guards_formulas(raw, written):
    assert safe_cell(raw) == written


def test_safe_cell_keeps_other_values():
    assert safe_cell(1.5) == 1.5 and safe_cell(None) is None and safe_cell(True) is True


def test_control_characters_cannot_break_rows_or_start_formulas(tmp_path):
    frame = pd.DataFrame({"model": ["x\r=cr", "nb"],
                          "class": ["ok\r=cmd|' /C calc'!A0", "\n=2"],
                          "score\r=x": [0.5, -1.0]},
                         index=pd.Index(["\t@a", "b\x00"], name="=row"))
    for index in (False, True):
        expected = (len(frame) + 1, 3 + index)
        check_cells(read_rows(csv_text(frame, index=index)), *expected)
        path = write_csv(frame, str(tmp_path / f"t{int(index)}.csv"), index=index)
        with open(path, encoding="utf-8", newline="") as stream:
            rows = list(csv.reader(stream))
        check_cells(rows, *expected)
        assert rows[1][index:index + 2] == ["x\\r=cr", "ok\\r=cmd|' /C calc'!A0"]
    back = pd.read_csv(tmp_path / "t1.csv", index_col=0)
    assert list(back.index) == ["\\t@a", "b\\x00"] and back.index.name == "'=row"
    assert list(back.columns) == ["model", "class", "score\\r=x"]


def test_numbers_keep_full_precision_and_duplicate_columns_work():
    frame = pd.DataFrame([[0.1 + 0.2, "=a", "-b"]], columns=["x", "name", "name"])
    rows = read_rows(csv_text(frame))
    assert rows[1] == [repr(0.1 + 0.2), "'=a", "'-b"]


text_cells = st.text(alphabet=st.sampled_from(list(CONTROL) + list("=+-@'\",;. aZ09é|!")),
                     max_size=12)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(names=st.lists(text_cells, min_size=1, max_size=4, unique=True),
       labels=st.lists(text_cells, min_size=1, max_size=5),
       index=st.booleans())
def test_any_text_gives_well_formed_safe_csv(tmp_path_factory, names, labels, index):
    frame = pd.DataFrame({name: [labels[(i + j) % len(labels)] for j in range(len(labels))]
                          for i, name in enumerate(names)})
    frame["score"] = np.linspace(-1, 1, len(labels))
    if index:
        frame.index = pd.Index(labels, name=names[0])
    shape = (len(labels) + 1, len(names) + 1 + index)
    check_cells(read_rows(csv_text(frame, index=index)), *shape)
    path = write_csv(frame, str(tmp_path_factory.mktemp("h") / "t.csv"), index=index)
    with open(path, encoding="utf-8", newline="") as stream:
        check_cells(list(csv.reader(stream)), *shape)


# ---- permissions --------------------------------------------------------------------------

@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_files_get_the_users_umask_permissions(tmp_path, umask, mode):
    code = ("import sys, pandas as pd\n"
            "from engine.output.tables import write_csv\n"
            "from engine.output.result_folder import write_result_folder\n"
            "t = pd.DataFrame({'a': [1]})\n"
            "write_csv(t, sys.argv[1] + '/one.csv')\n"
            "write_result_folder({'summary.csv': t}, sys.argv[1] + '/run', {}, ['a note'])\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          preexec_fn=lambda: os.umask(umask))
    assert done.returncode == 0, done.stderr
    for path in ("one.csv", "run/summary.csv", "run/notes.txt", "run/run.json"):
        assert os.stat(tmp_path / path).st_mode & 0o777 == mode, path


# ---- one result set -----------------------------------------------------------------------

def table(run, rows=3):
    return pd.DataFrame({"run": [run] * rows, "x": np.arange(rows) / 7})


def test_result_folder_holds_tables_notes_and_manifest(tmp_path):
    out = tmp_path / "out"
    paths = write_result_folder({"summary.csv": table("a"), "correlation.csv": table("a")},
                                str(out), {"experiment": {"k": 1}}, ["one", "two\nlines"])
    assert [os.path.basename(p) for p in paths] == ["summary.csv", "correlation.csv",
                                                    "notes.txt", "run.json"]
    assert sorted(os.listdir(out)) == ["correlation.csv", "notes.txt", "run.json",
                                       "summary.csv"]
    assert (out / "notes.txt").read_text() == "one\ntwo\\nlines\n"
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["experiment"] == {"k": 1}
    assert manifest["tables"] == ["correlation.csv", "notes.txt", "summary.csv"]
    assert manifest["removed"] == [] and manifest["written"][:2] == "20"
    assert set(manifest["versions"]) == {"python", "numpy", "scipy", "sklearn", "pandas",
                                        "openpyxl", "imblearn", "app"}
    assert manifest["versions"]["pandas"] == pd.__version__
    assert (out / "correlation.csv").read_text().startswith(",run,x\n0,a,")   # with index


def test_a_new_run_removes_the_previous_runs_tables_only(tmp_path):
    out = tmp_path / "out"
    write_result_folder({"summary.csv": table("a"), "failures.csv": table("a"),
                         "calibration_map.csv": table("a"), "tuning.csv": table("a")},
                        str(out), {}, ["a note"])
    for name in ("my_results.csv", "summary_old.csv", "notes.md", "calibration_mine.csv"):
        (out / name).write_text("mine\n")
    write_tables({"summary.csv": table("b"), "pairwise.csv": table("b")}, str(out))
    assert sorted(os.listdir(out)) == ["calibration_mine.csv", "my_results.csv", "notes.md",
                                       "pairwise.csv", "run.json", "summary.csv",
                                       "summary_old.csv"]
    manifest = read_manifest(str(out))
    assert manifest["tables"] == ["pairwise.csv", "summary.csv"]
    assert manifest["removed"] == ["calibration_map.csv", "failures.csv", "notes.txt",
                                   "tuning.csv"]
    assert set(pd.read_csv(out / "summary.csv")["run"]) == {"b"}


def test_a_folder_without_a_manifest_of_ours_is_refused_and_left_as_it_was(tmp_path):
    (tmp_path / "failures.csv").write_text("old\n")
    (tmp_path / "data.csv").write_text("precious\n")
    (tmp_path / "run.json").write_text(json.dumps({"tables": ["data.csv"]}))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(FolderRefused) as refused:
        write_result_folder({"summary.csv": table("a")}, str(tmp_path), {}, [])
    assert refused.value.code == "foreign_folder"
    assert refused.value.names == ("data.csv", "failures.csv", "run.json")
    assert refused.value.manifest_problem == "it was not written by this app"
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_an_unlisted_file_under_a_table_name_is_never_replaced(tmp_path):
    write_result_folder({"summary.csv": table("a")}, str(tmp_path), {}, [])
    (tmp_path / "pairwise.csv").write_text("mine\n")
    with pytest.raises(FolderRefused, match="pairwise.csv") as refused:
        write_result_folder({"summary.csv": table("b"), "pairwise.csv": table("b")},
                            str(tmp_path), {}, [])
    assert refused.value.code == "unlisted_files"
    assert (tmp_path / "pairwise.csv").read_text() == "mine\n"
    write_result_folder({"summary.csv": table("b")}, str(tmp_path), {}, [])   # not in its way
    assert (tmp_path / "pairwise.csv").read_text() == "mine\n"


def test_every_table_the_engine_writes_is_known():
    import re

    names = set()
    for module in ("runs/analysis.py", "evaluation/aloocv/analysis.py",
                   "evaluation/calibration/analysis.py"):
        with open(os.path.join(ROOT, "engine", module), encoding="utf-8") as stream:
            names |= set(re.findall(r'"([a-z_]+\.csv)"', stream.read()))
    assert names and names <= KNOWN_TABLES


def test_bad_table_names_are_refused(tmp_path):
    for name in ("../x.csv", ".hidden.csv", "run.json", "notes.txt", "a/b.csv", "extra.csv"):
        with pytest.raises(ValueError, match="table name"):
            write_result_folder({name: table("a")}, str(tmp_path), {}, [])
    assert os.listdir(tmp_path) == []


def test_leftovers_of_killed_runs_are_cleaned_and_a_committed_set_completed(tmp_path):
    write_result_folder({"summary.csv": table("a"), "failures.csv": table("a")},
                        str(tmp_path), {}, [])
    stale = tmp_path / f"{STAGING_PREFIX}dead0000"
    stale.mkdir()
    (stale / STAGING_MARKER).write_text(MARKER_TEXT)
    (stale / "summary.csv").write_text("half")
    (tmp_path / f"{TEMPORARY_PREFIX}dead0000.csv").write_text("half")
    committed = tmp_path / f"{STAGING_PREFIX}commit00"   # killed after its commit point
    committed.mkdir()
    (committed / STAGING_MARKER).write_text(MARKER_TEXT)
    table("c").to_csv(committed / "pairwise.csv", index=False)
    (committed / "run.json").write_text(json.dumps(
        {"tables": ["pairwise.csv", "summary.csv"], "removed": ["failures.csv"],
         "run": "c", "written_by": "honest-eval"}))
    table("c").to_csv(tmp_path / "summary.csv", index=False)   # already moved
    (tmp_path / "run.json").write_text(json.dumps(                # the transition manifest
        {"tables": ["failures.csv", "pairwise.csv", "summary.csv"], "removed": [],
         "rolling_forward": committed.name, "written_by": "honest-eval"}))
    recover_folder(str(tmp_path))
    assert sorted(os.listdir(tmp_path)) == ["pairwise.csv", "run.json", "summary.csv"]
    assert assert_consistent(str(tmp_path)) == "c"


@pytest.mark.skipif(sys.platform == "win32", reason="advisory locks")
def test_a_live_writers_staging_folder_is_left_alone(tmp_path):
    import fcntl

    live = tmp_path / f"{STAGING_PREFIX}live0000"
    live.mkdir()
    fd = os.open(live, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        write_result_folder({"summary.csv": table("a")}, str(tmp_path), {}, [])
        assert live.exists()
    finally:
        os.close(fd)
    recover_folder(str(tmp_path))
    assert not live.exists()


class Crash(BaseException):
    """Stands for the process dying at that instant."""


@pytest.mark.parametrize("notes", [[], ["new"]])
def test_a_crash_at_any_rename_leaves_one_set_or_a_recoverable_commit(tmp_path, monkeypatch,
                                                                       notes):
    """Crash at every rename in turn: writes, commit, roll forward."""
    real_replace = os.replace
    old = {"summary.csv": table("old"), "failures.csv": table("old"),
           "calibration_map.csv": table("old")}
    new = {"summary.csv": table("new"), "pairwise.csv": table("new")}
    outcomes = set()
    for crash_at in range(20):
        folder = tmp_path / str(crash_at)
        write_result_folder(old, str(folder), {"run": "old"}, ["old"])
        calls = []

        def replace(source, target):
            calls.append(target)
            if len(calls) > crash_at:
                raise Crash()
            return real_replace(source, target)

        monkeypatch.setattr(os, "replace", replace)
        try:
            write_result_folder(new, str(folder), {"run": "new"}, notes)
            finished = True
        except Crash:
            finished = False
        finally:
            monkeypatch.setattr(os, "replace", real_replace)
        before = consistent_or_in_transition(str(folder))
        recover_folder(str(folder))
        run = assert_consistent(str(folder))
        outcomes.add((before, run))
        assert not [n for n in os.listdir(folder) if n.startswith(OURS)]
        if finished:
            assert run == "new"
            break
    assert outcomes >= {("old", "old"), ("transition", "new"), ("new", "new")}


def consistent_or_in_transition(folder):
    """The run the folder holds, or "transition" (a transition manifest while the
    committed staging folder it names waits to be rolled forward)."""
    rolling = (read_manifest(folder) or {}).get("rolling_forward")
    if rolling and os.path.exists(os.path.join(folder, rolling, "run.json")):
        return "transition"
    return assert_consistent(folder)


def assert_consistent(folder):
    """Every table run.json lists is there and from its run; no other known table is."""
    manifest = read_manifest(folder)
    present = set(os.listdir(folder)) & (KNOWN_TABLES | {"notes.txt"})
    if manifest is None:
        assert not present, present
        return None
    listed = set(manifest["tables"])
    assert present == listed, (present, listed)
    run = manifest.get("run")
    for name in listed - {"notes.txt"}:
        frame = pd.read_csv(os.path.join(folder, name))
        if "run" in frame:
            assert set(frame["run"]) == {run}, name
    if "notes.txt" in listed and run is not None:
        with open(os.path.join(folder, "notes.txt"), encoding="utf-8") as stream:
            assert stream.readline().strip() == run
    return run


WRITER = r"""
import itertools, os, sys
import numpy as np, pandas as pd
from engine.output.result_folder import write_result_folder
folder, tag = sys.argv[1], sys.argv[2]
print("ready", flush=True)
for i in itertools.count():
    run = f"{tag}-{i}"
    base = pd.DataFrame({"run": [run] * 5000, "x": np.arange(5000) / 7})
    tables = {"fold_scores.csv": base, "summary.csv": base, "pairwise.csv": base}
    if i % 2:
        tables["failures.csv"] = base
    if i % 3 == 0:
        tables.update({"calibration_curve.csv": base, "calibration_map.csv": base})
    write_result_folder(tables, folder, {"run": run}, [run] * (i % 2))
    print("wrote", run, flush=True)
"""


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_killing_the_writer_never_leaves_a_mix(tmp_path):
    """SIGKILL a writer of big result sets at random moments, several times over."""
    folder = tmp_path / "out"
    write_result_folder({"summary.csv": table("first")}, str(folder), {"run": "first"}, [])
    (folder / "mine.csv").write_text("precious\n")
    rng = random.Random(4)
    start = time.monotonic()
    for attempt in range(8):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(folder), str(attempt)],
                                cwd=ROOT, stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.0, 1.2))
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
        consistent_or_in_transition(str(folder))          # raises on a mix
        if attempt % 2:                 # the next writer recovers on its own otherwise
            recover_folder(str(folder))
            assert_consistent(str(folder))
        if time.monotonic() - start > 14:
            break
    recover_folder(str(folder))
    assert assert_consistent(str(folder)) is not None
    assert (folder / "mine.csv").read_text() == "precious\n"
    # Left: at most a staging folder killed before its marker was written, which the
    # protocol leaves alone and reports (it cannot tell it is the app's); nothing else.
    left = [n for n in os.listdir(folder) if n.startswith(OURS)]
    assert all(n.startswith(STAGING_PREFIX) and not (folder / n / STAGING_MARKER).exists()
               for n in left), left


def test_the_semicolon_style_is_what_a_decimal_comma_spreadsheet_reads(tmp_path):
    """Semicolons between columns, decimal commas, a byte-order mark; the numbers read back
    exactly, text with commas and semicolons intact; the standard style is unchanged."""
    frame = pd.DataFrame({"model": ["rbf, C = 0,5", "a;b", "D² Brier"],
                          "mean": [0.9412345678901234, -1.5e-7, 12345.5],
                          "n_folds": [100, 100, 99]})
    european = write_csv(frame, str(tmp_path / "eu.csv"), style="semicolon")
    raw = open(european, "rb").read()
    assert raw.startswith(b"\xef\xbb\xbf")
    assert raw.decode("utf-8-sig").splitlines()[0] == "model;mean;n_folds"
    assert "0,9412345678901234" in raw.decode("utf-8-sig")
    back = pd.read_csv(european, sep=";", decimal=",", encoding="utf-8-sig")
    pd.testing.assert_frame_equal(back, frame)
    standard = write_csv(frame, str(tmp_path / "std.csv"))
    assert not open(standard, "rb").read().startswith(b"\xef\xbb\xbf")
    pd.testing.assert_frame_equal(pd.read_csv(standard), frame)
