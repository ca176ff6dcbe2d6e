"""The headless runner: exit codes, one error line, atomic and spreadsheet-safe tables."""
import csv
import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from tests.helpers import (FORMULA, MAIN, assert_one_error_line, is_number, results, run_main,
                           slow_experiment, write_experiment)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("overrides, fragments", [
    ({"models": [{"estimator": "SVC", "params": {"C": 0}}]}, ("'C' parameter",)),
    ({"models": [{"estimator": "subprocess.Popen"}]}, ("unknown estimator",)),
    ({"metrics": ["acc"]}, ('metrics[0]: unknown metric "acc"',)),
    ({"cv": {"n_splits": 60, "n_repeats": 1}}, ("lower the number of folds",)),
    ({"cv": {"folds": 3}}, ("unknown key(s) folds",)),
    ({"dataset": {"csv": "missing.csv", "target": "y"}}, ("does not exist",)),
    ({"comparison": {"correction": "magic"}}, ("unknown correction",)),
    ({"colour": "blue"}, ("unknown key(s) colour",)),
])
@pytest.mark.slow
def test_bad_experiments_exit_2_with_one_line(tmp_path, overrides, fragments):
    exp = write_experiment(tmp_path / "exp.json", **overrides)
    out = tmp_path / "out"
    done = run_main(exp, "--out", out)
    assert_one_error_line(done, *fragments)
    assert not out.exists() or not os.listdir(out)


@pytest.mark.slow
def test_unreadable_experiment_and_bad_arguments(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert_one_error_line(run_main(bad, "--out", tmp_path / "o"), "not valid JSON")
    assert_one_error_line(run_main(tmp_path / "none.json", "--out", tmp_path / "o"),
                          "does not exist")
    assert_one_error_line(run_main(bad), "--out")
    exp = write_experiment(tmp_path / "exp.json")
    assert_one_error_line(run_main(exp, "--out", tmp_path / "o", "--jobs", "0"), "--jobs")


@pytest.mark.slow
def test_csv_experiment_with_formula_like_labels(tmp_path):
    rows = ["x1,x2,label"] + [f"{i % 7},{(i * 3) % 5},{'=cmd' if i % 2 else '+ok'}"
                              for i in range(40)]
    (tmp_path / "d.csv").write_text("\n".join(rows) + "\n")
    exp = write_experiment(tmp_path / "exp.json", dataset={"csv": "d.csv", "target": "label"},
                           models=[{"name": "=evil()", "estimator": "GaussianNB"},
                                   {"name": "-tree", "estimator": "DecisionTreeClassifier",
                                    "params": {"random_state": 0}}])
    done = run_main(exp, "--out", tmp_path / "out", "--quiet")
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "out" / "summary.csv").read_text()
    assert "'=evil()" in text and "'-tree" in text
    for name in results(tmp_path / "out"):
        if name in ("report.html", "report.md"):   # the report, not a table (test_report)
            continue
        for line in (tmp_path / "out" / name).read_text().splitlines():
            for cell in line.split(","):
                assert not cell.startswith(("=", "@", "+")), (name, line)


@pytest.mark.slow
def test_jobs_give_identical_tables(tmp_path):
    exp = write_experiment(tmp_path / "exp.json",
                           models=[{"name": "tree", "estimator": "DecisionTreeClassifier",
                                    "params": {"random_state": 0}},
                                   {"name": "nb", "estimator": "GaussianNB"}],
                           cv={"n_splits": 3, "n_repeats": 3, "random_state": 1})
    assert run_main(exp, "--out", tmp_path / "a", "--quiet").returncode == 0
    assert run_main(exp, "--out", tmp_path / "b", "--jobs", "2", "--quiet").returncode == 0
    for name in ("summary.csv", "pairwise.csv", "credible_intervals.csv", "correlation.csv"):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()
    a = pd.read_csv(tmp_path / "a" / "fold_scores.csv").drop(columns="fit_seconds")
    b = pd.read_csv(tmp_path / "b" / "fold_scores.csv").drop(columns="fit_seconds")
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT semantics")
def test_ctrl_c_exits_130_and_writes_nothing(tmp_path):
    exp = slow_experiment(tmp_path / "exp.json")
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, MAIN, "run", str(exp), "--out", str(out)],
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    line = ""
    while time.time() < deadline and "/100" not in line:  # wait for the first progress
        line = proc.stderr.readline()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted: no result table was written" in err
    assert "kept the " in err and "run the same command again to resume" in err
    assert not out.exists() or not results(out)


LABEL = "ok\r=cmd|' /C calc'!A0"


@pytest.mark.slow
def test_control_characters_and_formulas_stay_inside_their_cell(tmp_path):
    frame = pd.DataFrame({"x1": [i % 7 for i in range(40)], "x2": [(i * 3) % 5 for i in range(40)],
                          "label": [LABEL if i % 2 else "b\n=2" for i in range(40)]})
    frame.to_csv(tmp_path / "d.csv", index=False)        # quoted cells keep CR and LF
    exp = write_experiment(tmp_path / "exp.json", dataset={"csv": "d.csv", "target": "label"},
                           models=[{"name": "=evil()", "estimator": "GaussianNB"},
                                   {"name": "@nb", "estimator": "GaussianNB"}])
    out = tmp_path / "out"
    done = run_main(exp, "--out", out, "--quiet")
    assert done.returncode == 0, done.stderr
    rows = {}
    for name in os.listdir(out):
        if name.endswith(".csv"):
            with open(out / name, encoding="utf-8", newline="") as stream:
                rows[name] = list(csv.reader(stream))
            for row in rows[name]:
                assert len(row) == len(rows[name][0]), (name, row)
                for cell in row:
                    assert not (cell.startswith(FORMULA) and not is_number(cell)), (name, cell)
                    assert "\r" not in cell and "\n" not in cell, (name, cell)
    assert len(rows["fold_scores.csv"]) == 1 + 2 * 3 and len(rows["summary.csv"]) == 1 + 2
    assert {r[0] for r in rows["summary.csv"][1:]} == {"'=evil()", "'@nb"}
    notes = (out / "notes.txt").read_text(encoding="utf-8")
    assert "\r" not in notes and all(line for line in notes.split("\n")[:-1])


def test_empty_out_exits_2(tmp_path):
    exp = write_experiment(tmp_path / "exp.json")
    for value in ("", "   "):
        assert_one_error_line(run_main(exp, "--out", value), "--out")
    assert sorted(os.listdir(tmp_path)) == ["exp.json"]


@pytest.mark.slow
def test_an_unwritable_out_fails_before_computing(tmp_path):
    exp = slow_experiment(tmp_path / "exp.json")
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder\n")
    done = run_main(exp, "--out", blocker)       # no --quiet: a fit would print progress
    assert_one_error_line(done, f"cannot write to {blocker}: it is a file, not a folder")
    root = not hasattr(os, "geteuid") or os.geteuid() == 0
    if root:                                     # root writes anywhere: a file blocks it
        out = blocker / "sub"
    else:
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o500)
        out = locked / "sub"
    try:
        started = time.monotonic()
        done = run_main(exp, "--out", out)
        assert_one_error_line(done, f"cannot write to {out}: ")
        assert time.monotonic() - started < 60
    finally:
        if not root:
            locked.chmod(0o700)
    assert not out.exists()


@pytest.mark.slow
def test_notes_are_printed_and_written_with_a_manifest(tmp_path):
    exp = tmp_path / "exp.json"                  # no metrics: the default is noted after the run
    exp.write_text(json.dumps({"dataset": {"builtin": "iris"},
                               "models": [{"name": "nb", "estimator": "GaussianNB"}],
                               "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0}}))
    out = tmp_path / "out"
    done = run_main(exp, "--out", out, "--jobs", "1")
    assert done.returncode == 0, done.stderr
    printed = [line[len("note: "):] for line in done.stderr.splitlines()
               if line.startswith("note: ")]
    assert printed[0] == "Iris flowers, 150 x 4, three classes"
    assert any(note.startswith("no metric given") for note in printed)
    assert (out / "notes.txt").read_text(encoding="utf-8").splitlines() == printed
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["tables"] == [n for n in results(out) if n != "run.json"]
    assert manifest["experiment"]["models"] == [{"name": "nb", "estimator": "GaussianNB"}]
    default = next(note for note in printed if note.startswith("no metric given"))
    assert manifest["experiment"]["metrics"] == [default.split()[4]]     # the metric used
    assert manifest["command"]["jobs"] == 1 and manifest["exit_status"] == 0
    assert manifest["versions"]["sklearn"] and manifest["written_by"] == "honest-eval"
    quiet = run_main(exp, "--out", out, "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == ""
    assert (out / "notes.txt").read_text(encoding="utf-8").splitlines() == printed


@pytest.mark.slow
def test_a_rerun_replaces_the_previous_result_set_only(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "run.json").write_text(json.dumps({       # an earlier run of the app
        "tables": ["aloocv_curve.csv", "calibration_map.csv", "failures.csv"],
        "written_by": "honest-eval"}))
    for name in ("failures.csv", "calibration_map.csv", "aloocv_curve.csv", "mine.csv",
                 "summary_2023.csv"):
        (out / name).write_text("old\n")
    (out / ".honest-eval-tmp-killed00.csv").write_text("half")
    (out / ".tmp-draft.txt").write_text("a user's draft")
    (out / ".staging-photos").mkdir()
    exp = write_experiment(tmp_path / "exp.json")
    done = run_main(exp, "--out", out, "--quiet")
    assert done.returncode == 0, done.stderr
    assert results(out) == [".staging-photos", ".tmp-draft.txt", "confusion.csv",
                            "correlation.csv", "credible_intervals.csv", "fold_scores.csv",
                            "mine.csv", "notes.txt", "pairwise.csv", "per_class.csv",
                            "report.html", "report.md", "run.json", "summary.csv",
                            "summary_2023.csv"]
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["removed"] == ["aloocv_curve.csv", "calibration_map.csv", "failures.csv"]


@pytest.mark.slow
def test_a_folder_the_app_did_not_write_is_refused_before_computing(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    for name in ("failures.csv", "mine.csv"):
        (out / name).write_text("old\n")
    exp = slow_experiment(tmp_path / "exp.json")
    done = run_main(exp, "--out", out)              # no --quiet: a fit would print progress
    assert_one_error_line(done, "holds files this app did not write ('failures.csv', "
                                "'mine.csv')")
    assert "[" not in done.stderr
    assert sorted(os.listdir(out)) == ["failures.csv", "mine.csv"]


@pytest.mark.parametrize("where, message", [
    ("before the commit", "still holds the previous run's complete results"),
    ("after the commit", "the new results in"),
])
def test_ctrl_c_while_writing_says_what_the_folder_holds(tmp_path, monkeypatch, capsys,
                                                          where, message):
    from engine.output import result_folder
    from engine.cli import run

    exp = write_experiment(tmp_path / "exp.json")
    out = tmp_path / "out"
    assert run([str(exp), "--out", str(out), "--quiet"]) == 0
    before = {name: (out / name).read_bytes() for name in results(out)}
    real_write_csv, real_roll_forward = result_folder.write_csv, result_folder.roll_forward
    calls = []

    def interrupt_once(real):
        def wrapper(*args, **kwargs):
            calls.append(args)
            if len(calls) == 2:
                raise KeyboardInterrupt
            return real(*args, **kwargs)
        return wrapper

    if where == "before the commit":
        monkeypatch.setattr(result_folder, "write_csv", interrupt_once(real_write_csv))
    else:
        calls.append(None)
        monkeypatch.setattr(result_folder, "roll_forward", interrupt_once(real_roll_forward))
    capsys.readouterr()
    exp = write_experiment(tmp_path / "exp.json", cv={"n_splits": 4, "n_repeats": 1})
    assert run([str(exp), "--out", str(out), "--quiet"]) == 130
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    after = {name: (out / name).read_bytes() for name in results(out)}
    scores = pd.read_csv(out / "fold_scores.csv")
    if where == "before the commit":
        assert after == before
    else:
        assert set(after) == set(before) and len(scores) == 4
        assert json.loads(after["run.json"])["experiment"]["cv"]["n_splits"] == 4


@pytest.mark.slow
def test_a_model_name_with_a_carriage_return_is_refused(tmp_path):
    exp = write_experiment(tmp_path / "exp.json",
                           models=[{"name": "x\r=cr", "estimator": "GaussianNB"}])
    assert_one_error_line(run_main(exp, "--out", tmp_path / "out"), "control character")


@pytest.mark.slow
def test_a_run_where_no_model_scores_exits_2_with_the_reason(tmp_path):
    exp = write_experiment(tmp_path / "exp.json",
                           models=[{"name": "svc", "estimator": "SVC"},
                                   {"name": "ridge", "estimator": "RidgeClassifier"}],
                           metrics=["neg_log_loss"])
    done = run_main(exp, "--out", tmp_path / "out", "--quiet")
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 2 and "Traceback" not in done.stderr      # the pre-run check
    for model, line in zip(("svc", "ridge"), errors):
        assert f"model '{model}' gives no probabilities" in line and "neg_log_loss" in line
    assert not (tmp_path / "out" / "summary.csv").exists()
