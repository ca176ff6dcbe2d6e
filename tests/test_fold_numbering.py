"""Repeats and folds are numbered from 1 in the tables, as on screen and in the log.

Fold f of repeat r is split number (r - 1) * k + (f - 1) of scikit-learn's
``RepeatedStratifiedKFold(...).split`` (docs/experiment-format.md, ``cv``).
"""
import json
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import RepeatedStratifiedKFold

from engine.runs.analysis import run_experiment
from engine.evaluation.cv import FoldScores, split_label, split_number
from engine.evaluation.experiment import parse_experiment
from engine.foundation.progress import run_to_end
from engine.output.result_folder import write_tables

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
K, R = 3, 2
EXPERIMENT = {
    "dataset": {"builtin": "breast_cancer"},
    "models": [{"name": "nb", "estimator": "GaussianNB"},
               {"name": "short", "estimator": "LogisticRegression",   # warns: failures.csv
                "params": {"max_iter": 3}}],
    "cv": {"n_splits": K, "n_repeats": R, "random_state": 0},
    "metrics": ["roc_auc"],
    "calibration": {"methods": ["sigmoid"]},
}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("numbering")
    records = []
    result = run_to_end(run_experiment(parse_experiment(EXPERIMENT)), on_progress=records.append)
    write_tables(result.tables(), str(folder))
    return result, records, folder


def _sklearn_tests(dataset):
    splitter = RepeatedStratifiedKFold(n_splits=K, n_repeats=R, random_state=0)
    return [test for _, test in splitter.split(np.zeros(len(dataset.y)), dataset.y)]


def _assert_from_one(table):
    assert set(table["repeat"]) == set(range(1, R + 1))
    assert set(table["fold"]) == set(range(1, K + 1))


def test_written_tables_number_repeats_and_folds_from_one(run):
    _, _, folder = run
    scores = pd.read_csv(folder / "fold_scores.csv")
    _assert_from_one(scores)
    assert len(scores) == 2 * R * K
    _assert_from_one(pd.read_csv(folder / "failures.csv"))


def test_predictions_of_repeat_r_fold_f_are_sklearns_split_number(run):
    result, _, _ = run
    tests = _sklearn_tests(result.dataset)
    preds = result.cv.predictions
    _assert_from_one(preds)
    for name in result.cv.models:
        for r in range(1, R + 1):
            for f in range(1, K + 1):
                rows = preds.loc[(preds.model == name) & (preds.repeat == r)
                                 & (preds.fold == f), "row"]
                np.testing.assert_array_equal(np.sort(rows), np.sort(tests[(r - 1) * K + f - 1]))


def test_calibration_tables_number_folds_like_the_cv(run):
    result, _, _ = run
    tests = _sklearn_tests(result.dataset)
    calibration = result.calibration
    _assert_from_one(calibration.fold_scores)
    probs = calibration.probabilities
    sigmoid = probs[(probs.model == "nb") & (probs.method == "sigmoid")]
    for (r, f), part in sigmoid.groupby(["repeat", "fold"]):
        np.testing.assert_array_equal(np.sort(part["row"]), np.sort(tests[(r - 1) * K + f - 1]))
    assert list(result.cv.score_matrix().columns) == [(r, f) for r in (1, 2) for f in (1, 2, 3)]


def test_progress_labels_and_details_number_from_one(run):
    _, records, _ = run
    details = [r.detail for r in records if isinstance(r.detail, FoldScores)]
    assert len(details) == 2 * R * K
    assert {(d.repeat, d.fold) for d in details} == {(r, f) for r in (1, 2)
                                                            for f in (1, 2, 3)}
    labels = " ".join(r.label for r in records)
    assert "repeat 2, fold 3" in labels and "repeat 0" not in labels and "fold 0" not in labels


def test_split_label_and_number_are_inverse():
    for s in range(K * R):
        assert split_number(*split_label(s, K), K) == s
    assert split_label(0, K) == (1, 1) and split_label(K * R - 1, K) == (R, K)


@pytest.mark.slow
def test_headless_runner_writes_folds_from_one(tmp_path):
    path = tmp_path / "exp.json"
    path.write_text(json.dumps({k: v for k, v in EXPERIMENT.items() if k != "calibration"}))
    done = subprocess.run([sys.executable, os.path.join(ROOT, "main.py"), "run", str(path),
                           "--out", str(tmp_path / "out"), "--quiet"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    _assert_from_one(pd.read_csv(tmp_path / "out" / "fold_scores.csv"))
    _assert_from_one(pd.read_csv(tmp_path / "out" / "failures.csv"))
