"""The headless runner: exit codes, one error line, atomic and spreadsheet-safe tables."""
import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAIN = os.path.join(ROOT, "main.py")


def run_main(*args, timeout=300):
    return subprocess.run([sys.executable, MAIN, "run", *map(str, args)], capture_output=True,
                          text=True, timeout=timeout)


def write_experiment(path, **overrides):
    data = {"dataset": {"builtin": "iris"},
            "models": [{"name": "nb", "estimator": "GaussianNB"}],
            "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
            "metrics": ["accuracy"]}
    data.update(overrides)
    path.write_text(json.dumps(data))
    return path


def assert_one_error_line(done, *fragments):
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert "Traceback" not in done.stderr
    for fragment in fragments:
        assert fragment in lines[0]


@pytest.mark.parametrize("overrides, fragments", [
    ({"models": [{"estimator": "SVC", "params": {"C": 0}}]}, ("'C' parameter",)),
    ({"models": [{"estimator": "subprocess.Popen"}]}, ("unknown estimator",)),
    ({"metrics": ["acc"]}, ("unknown metric 'acc'",)),
    ({"cv": {"n_splits": 60, "n_repeats": 1}}, ("lower the number of folds",)),
    ({"cv": {"folds": 3}}, ("unknown key(s) folds",)),
    ({"dataset": {"csv": "missing.csv", "target": "y"}}, ("does not exist",)),
    ({"comparison": {"correction": "magic"}}, ("unknown correction",)),
    ({"colour": "blue"}, ("unknown key(s) colour",)),
])
def test_bad_experiments_exit_2_with_one_line(tmp_path, overrides, fragments):
    exp = write_experiment(tmp_path / "exp.json", **overrides)
    out = tmp_path / "out"
    done = run_main(exp, "--out", out)
    assert_one_error_line(done, *fragments)
    assert not out.exists() or not os.listdir(out)


def test_unreadable_experiment_and_bad_arguments(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert_one_error_line(run_main(bad, "--out", tmp_path / "o"), "not valid JSON")
    assert_one_error_line(run_main(tmp_path / "none.json", "--out", tmp_path / "o"),
                          "does not exist")
    assert_one_error_line(run_main(bad), "--out")
    exp = write_experiment(tmp_path / "exp.json")
    assert_one_error_line(run_main(exp, "--out", tmp_path / "o", "--jobs", "0"), "--jobs")


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
    for name in os.listdir(tmp_path / "out"):
        for line in (tmp_path / "out" / name).read_text().splitlines():
            for cell in line.split(","):
                assert not cell.startswith(("=", "@", "+")), (name, line)


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


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT semantics")
def test_ctrl_c_exits_130_and_writes_nothing(tmp_path):
    exp = write_experiment(tmp_path / "exp.json", dataset={"builtin": "breast_cancer"},
                           models=[{"name": "forest", "estimator": "RandomForestClassifier",
                                    "params": {"n_estimators": 50, "random_state": 0}}],
                           cv={"n_splits": 10, "n_repeats": 10})
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
    assert "Traceback" not in err and "interrupted" in err
    assert not out.exists() or not os.listdir(out)
