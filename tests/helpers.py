"""Helpers shared by the engine's test modules (shared fixtures live in conftest.py).

A test module imports what it needs from here, never from another test module.
"""
import glob
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin

from engine.runs.analysis import run_experiment
from engine.evaluation.experiment import parse_experiment
from engine.foundation.processes import descendants, is_running
from engine.foundation.progress import run_to_end
from engine.runs.store import ResultStore

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAIN = os.path.join(ROOT, "main.py")

# ----------------------------------------------------------------------------- the runner

def run_main(*args, timeout=300):
    """``python main.py run ARGS...`` in a child process."""
    return subprocess.run([sys.executable, MAIN, "run", *map(str, args)], capture_output=True,
                          text=True, timeout=timeout)


def results(out):
    """The files of a result folder, without the result store (``store.sqlite`` and
    SQLite's side files), which stays across runs."""
    return sorted(n for n in os.listdir(out) if not n.startswith("store.sqlite"))


def write_experiment(path, **overrides):
    """A small experiment file (naive Bayes on iris, 3 folds) with ``overrides``."""
    data = {"dataset": {"builtin": "iris"},
            "models": [{"name": "nb", "estimator": "GaussianNB"}],
            "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
            "metrics": ["accuracy"]}
    data.update(overrides)
    path.write_text(json.dumps(data))
    return path


def slow_experiment(path):
    """A run long enough (500 forest fits) to be interrupted or to fail early in."""
    return write_experiment(path, dataset={"builtin": "breast_cancer"},
                            models=[{"name": "forest", "estimator": "RandomForestClassifier",
                                     "params": {"n_estimators": 50, "random_state": 0}}],
                            cv={"n_splits": 10, "n_repeats": 10})


def assert_one_error_line(done, *fragments):
    """The run exited 2 with one ``error:`` line holding every fragment, no traceback."""
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert "Traceback" not in done.stderr
    for fragment in fragments:
        assert fragment in lines[0]

# ----------------------------------------------------------------------------- tables

#: The first characters that make a spreadsheet read a cell as a formula.
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True

# ----------------------------------------------------------------------------- the store

STORE_MODELS = [{"name": "nb", "estimator": "GaussianNB"},
                {"name": "tree", "estimator": "DecisionTreeClassifier",
                 "params": {"max_depth": 3, "random_state": 0}}]


def store_experiment(models=STORE_MODELS, n_repeats=2, **overrides):
    """Two models on iris, 3 folds x ``n_repeats``, accuracy and log loss."""
    data = {"dataset": {"builtin": "iris"}, "models": models,
            "cv": {"n_splits": 3, "n_repeats": n_repeats, "random_state": 0},
            "metrics": ["accuracy", "neg_log_loss"], **overrides}
    return parse_experiment(data)


def run_with_store(exp, store=None):
    """Run ``exp`` to its end (with a result store, when given)."""
    return run_to_end(run_experiment(exp, store=store))


def assert_same_tables(a, b):
    """Every table equal, every column but the fit times; the predictions too."""
    ta, tb = a.tables(), b.tables()
    assert ta.keys() == tb.keys()
    for name in ta:
        keep = [c for c in ta[name].columns if "seconds" not in str(c)]
        pd.testing.assert_frame_equal(ta[name][keep], tb[name][keep], check_exact=True)
    pd.testing.assert_frame_equal(a.cv.predictions, b.cv.predictions, check_exact=True)


def foreign(path):
    """Another program's SQLite database at ``path``."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE people (name TEXT)")
        db.execute("INSERT INTO people VALUES ('ada')")
    db.close()


def not_sqlite(path):
    """A CSV file at ``path`` (not an SQLite database)."""
    with open(path, "w") as stream:
        stream.write("name,score\nada,1\n")


def damaged(path):
    """A result store at ``path`` with 3,000 bytes overwritten."""
    with ResultStore(path) as store:
        run_with_store(store_experiment(n_repeats=1), store)
    with open(path, "r+b") as stream:
        stream.seek(100)
        stream.write(b"\xff" * 3000)

# ----------------------------------------------------------------------------- data

def visits(n_subjects=30, per_subject=(2, 6), seed=0, label_every=3) -> pd.DataFrame:
    """Repeated visits of subjects: each subject's rows share a label and lie close."""
    rng = np.random.default_rng(seed)
    rows = []
    for s in range(n_subjects):
        centre = rng.normal(size=2) + (1.0 if s % label_every == 0 else 0.0)
        for _ in range(int(rng.integers(*per_subject, endpoint=True))):
            x1, x2 = centre + 0.2 * rng.normal(size=2)
            rows.append({"subject": f"S{s:02d}", "x1": x1, "x2": x2,
                         "label": "yes" if s % label_every == 0 else "no"})
    return pd.DataFrame(rows)


class Recorder(ClassifierMixin, BaseEstimator):
    """Logistic regression that records the row ids (column 0) it is fitted on / predicts."""

    log = []

    def fit(self, X, y):
        from sklearn.linear_model import LogisticRegression

        Recorder.log.append(("fit", X[:, 0].astype(int).copy()))
        self.model_ = LogisticRegression().fit(X[:, 1:], y)
        self.classes_ = self.model_.classes_
        return self

    def predict_proba(self, X):
        Recorder.log.append(("predict", X[:, 0].astype(int).copy()))
        return self.model_.predict_proba(X[:, 1:])

    def predict(self, X):
        return self.classes_[self.predict_proba(X).argmax(axis=1)]

# ----------------------------------------------------------------------------- Weka

WEKA_JAR = "/usr/share/java/weka.jar"
EXAMPLES = "/usr/share/doc/weka/examples"
needs_weka = pytest.mark.skipif(not (shutil.which("java") and shutil.which("javac")
                                     and os.path.exists(WEKA_JAR)),
                                reason="a JDK and Weka (weka.jar) are not installed")
needs_examples = pytest.mark.skipif(not glob.glob(os.path.join(EXAMPLES, "*.arff")),
                                    reason="Weka's example files are not installed")

# ----------------------------------------------------------------------------- processes

#: Seconds within which a process must end after its runner (a generous bound).
PROMPT = 30


def command_line(pid):
    """The command line of process ``pid`` (empty when it has ended)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as stream:
            return stream.read().decode(errors="replace")
    except OSError:
        return ""


def loky_workers(pid):
    """The joblib (loky) worker processes below ``pid``."""
    return [child for child in descendants(pid) if "loky" in command_line(child)]


def assert_all_end_within(pids, seconds=PROMPT):
    """Every process of ``pids`` ends within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(is_running(pid) for pid in pids):
        time.sleep(0.02)
    alive = [(pid, command_line(pid)) for pid in pids if is_running(pid)]
    assert not alive, f"still running {seconds} s after the runner: {alive}"


def report_prose(page: str) -> str:
    """The words of ``report.html`` (or the text of ``report.md``): markup and the
    embedded experiment (its JSON and its copy for readers, the file as written) left
    out, entities read."""
    import html
    import re

    page = re.sub(r"<script\b.*?</script>", " ", page, flags=re.S)
    page = re.sub(r'<pre class="experiment">.*?</pre>', " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def rounded_zeros(text: str) -> list:
    """Every number in ``text`` printed as a rounded zero (``0.000``, ``-0.00``, ``+0.0``)
    and every p-value printed as ``p = 0``: a value that is not zero shown as zero (a true
    zero is printed ``0``)."""
    import re

    zeros = re.findall(r"(?<![\w.])[-+]?0\.0+(?![\d.])", text)
    return zeros + re.findall(r"\bp = 0(?![.\d])", text)


def oof_predictions(x, y, classes, models, n_repeats=2, n_splits=5):
    """A predictions.csv table (as engine.evaluation.curves.predictions writes it), by hand."""
    from sklearn.model_selection import RepeatedStratifiedKFold

    frames = []
    splits = RepeatedStratifiedKFold(n_splits=n_splits, n_repeats=n_repeats, random_state=0)
    for i, (train, test) in enumerate(splits.split(x, y)):
        for name, model in models.items():
            fitted = model.fit(x[train], y[train])
            frame = pd.DataFrame({"model": name, "repeat": i // n_splits + 1,
                                  "fold": i % n_splits + 1, "row": test,
                                  "true_class": np.asarray(classes, dtype=object)[y[test]]})
            if hasattr(fitted, "predict_proba"):
                for k, label in enumerate(classes):
                    frame[f"p_{label}"] = fitted.predict_proba(x[test])[:, k]
            else:
                frame["decision"] = fitted.decision_function(x[test])
            frames.append(frame)
    return pd.concat(frames, ignore_index=True).sort_values(["model", "repeat", "row"])
