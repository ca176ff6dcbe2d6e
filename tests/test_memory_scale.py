"""What a large run does to save memory changes no number and no table.

* the out-of-fold predictions, filled into their final columns, equal a plain
  scikit-learn loop over the same splits (clone, fit, predict_proba / decision_function,
  predict), concatenated with pandas;
* a CSV file read in pieces (:mod:`engine.input.csv_pieces`) gives the table a whole read
  gives (dtypes, values, notes, error messages), and falls back to a whole read when the
  pieces are typed differently;
* plain float features share one array with the fits' matrix, and the headless runner
  writes byte-identical tables either way.
"""
from __future__ import annotations

import os
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from engine.input import csv_pieces, data as data_module
from engine.evaluation.catalogue import expand_models, make_pipeline
from engine.cli import run as cli_run
from engine.evaluation import cv as cv_module
from engine.evaluation.cv import (CVConfig, FoldFit, feature_matrix, make_splits,
                                  prediction_columns, run_cv, split_label)
from engine.input.data import dataset_from_frame, load_builtin, load_csv, one_block, read_csv_table
from engine.foundation.progress import run_to_end


# ---------------------------------------------------------------- predictions
def _sklearn_predictions(dataset, specs, config):
    """The predictions table from a plain loop: a fresh clone per (model, split)."""
    X, y = dataset.X.to_numpy(dtype=float), dataset.y
    parts = []
    for s, (train, test) in enumerate(make_splits(y, config)):
        repeat, fold = split_label(s, config.n_splits)
        for spec in specs:
            model = clone(make_pipeline(spec, dataset=dataset)).fit(X[train], y[train])
            if hasattr(model, "predict_proba"):
                values = model.predict_proba(X[test])
            else:
                values = model.decision_function(X[test])
            part = pd.DataFrame({"model": spec.name, "repeat": repeat, "fold": fold,
                                 "row": test, "y": y[test]})
            for k in range(values.shape[1]):
                part[f"score_{k}"] = values[:, k]
            part["predicted"] = model.predict(X[test]).astype(np.int64)
            parts.append(part)            # split order, then model order (the run's)
    return pd.concat(parts, ignore_index=True)


def test_predictions_equal_a_plain_scikit_learn_loop():
    dataset = load_builtin("iris")
    specs = expand_models([{"estimator": "LogisticRegression", "params": {"max_iter": 500}},
                           {"estimator": "SVC", "params": {"random_state": 0}},
                           {"estimator": "RidgeClassifier"}])
    config = CVConfig(3, 2, 0)
    result = run_to_end(run_cv(dataset, specs, config, ["accuracy"]))
    expected = _sklearn_predictions(dataset, specs, config)
    assert list(result.predictions.columns) == prediction_columns(3)
    pd.testing.assert_frame_equal(result.predictions, expected, check_exact=False,
                                  rtol=0, atol=1e-12)
    assert result.prediction_kind == {"LogisticRegression": "proba", "SVC": "decision",
                                      "RidgeClassifier": "decision"}


def _run_with(monkeypatch, change):
    """run_cv of two models on 12 rows, 2 folds, each fit's outcome passed through
    ``change(index, outcome)``; (result, tasks, splits, dataset, specs, outcomes)."""
    dataset = load_builtin("moons", n_samples=12, random_state=0)
    specs = expand_models([{"estimator": "GaussianNB"}, {"estimator": "DummyClassifier"}])
    config = CVConfig(2, 1, 0)
    splits = make_splits(dataset.y, config)
    outcomes = []

    def changed(*args):
        outcome = change(len(outcomes), cv_module.fit_and_score.__wrapped__(*args))
        outcomes.append(outcome)
        return outcome

    changed.__wrapped__ = cv_module.fit_and_score
    monkeypatch.setattr(cv_module, "fit_and_score", changed)
    result = run_to_end(run_cv(dataset, specs, config, ["accuracy"]))
    tasks = [(m, s) for s in range(len(splits)) for m in range(len(specs))]
    return result, tasks, splits, dataset, specs, outcomes


def test_failed_fits_have_no_rows_and_unknown_labels_are_minus_one(monkeypatch):
    def change(index, outcome):
        if index == 1:                            # failed: nothing kept
            return FoldFit((np.nan,), error="ValueError: no", errors=("ValueError: no",))
        if index == 2:                            # no predicted labels
            return replace(outcome, labels=None)
        return outcome

    result, tasks, splits, dataset, specs, outcomes = _run_with(monkeypatch, change)
    rows = []
    for (m, s), outcome in zip(tasks, outcomes):
        if outcome.values is None:
            continue
        test = splits[s][1]
        labels = np.full(len(test), -1) if outcome.labels is None else outcome.labels
        rows.append(pd.DataFrame({"model": specs[m].name, "repeat": 1, "fold": s + 1,
                                  "row": test, "y": dataset.y[test],
                                  "score_0": outcome.values[:, 0],
                                  "score_1": outcome.values[:, 1],
                                  "predicted": labels.astype(np.int64)}))
    assert len(rows) == 3
    expected = pd.concat(rows, ignore_index=True)
    pd.testing.assert_frame_equal(result.predictions, expected, check_exact=True)
    assert list(result.failures["kind"]) == ["error"]
    assert len(result.scores) == len(tasks)


def test_no_kept_predictions_give_the_empty_table(monkeypatch):
    def change(index, outcome):
        return FoldFit((np.nan,), error="E: x", errors=("E: x",))

    result = _run_with(monkeypatch, change)[0]
    assert result.predictions.empty
    assert list(result.predictions.columns) == prediction_columns(2)


# ---------------------------------------------------------------- reading in pieces
def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _numbers(n=60, seed=0):
    rng = np.random.default_rng(seed)
    lines = ["a,b,c,label"]
    for _ in range(n):
        lines.append(f"{rng.normal():.17g},{rng.integers(-5, 5)},{rng.random() * 1e6:.6f},"
                     f"{'yes' if rng.random() < 0.4 else 'no'}")
    return "\n".join(lines) + "\n"


def _with(cells, n=60):
    """A CSV whose column b holds ``cells(i)`` in row i."""
    lines = ["a,b,t"] + [f"{i * 0.5},{cells(i)},{i % 2}" for i in range(n)]
    return "\n".join(lines) + "\n"


FILES = {
    "numbers": _numbers(),
    "ints_then_missing": _with(lambda i: "" if i == 50 else i),
    "ints_then_decimals": _with(lambda i: i if i < 40 else i + 0.25),
    "huge_ints_then_decimals": _with(lambda i: 2**60 + i if i < 40 else 1.5),
    "numbers_then_text": _with(lambda i: "abc" if i == 55 else i * 1.5),
    "stray_cell": _with(lambda i: "?" if i == 33 else i * 1.5),
    "text_then_empty": _with(lambda i: "" if i > 30 else f"w{i % 3}"),
    "booleans_then_missing": _with(lambda i: "" if i == 45 else ("True" if i % 3 else "False")),
    "semicolons_decimal_comma": "a;b;t\n" + "".join(f"{i},5;{i * 2},25;{i % 2}\n"
                                                    for i in range(60)),
    "trailing_separator": "a,b,t,\n" + "".join(f"{i},{i * 2},{i % 2},\n" for i in range(60)),
}


@pytest.fixture
def in_pieces(monkeypatch):
    """Every file read in pieces of 7 rows."""
    monkeypatch.setattr(csv_pieces, "PIECES_FROM_BYTES", 0)
    monkeypatch.setattr(csv_pieces, "PIECE_ROWS", 7)


def _read_both(monkeypatch, path):
    monkeypatch.setattr(csv_pieces, "PIECES_FROM_BYTES", 0)
    monkeypatch.setattr(csv_pieces, "PIECE_ROWS", 7)
    pieces = read_csv_table(path)
    monkeypatch.setattr(csv_pieces, "PIECES_FROM_BYTES", 10**15)
    whole = read_csv_table(path)
    return pieces, whole


@pytest.mark.parametrize("name", sorted(FILES))
def test_a_file_read_in_pieces_equals_the_whole_read(tmp_path, monkeypatch, name):
    path = _write(tmp_path, f"{name}.csv", FILES[name])
    (frame, notes), (whole, whole_notes) = _read_both(monkeypatch, path)
    pd.testing.assert_frame_equal(frame, whole, check_exact=True)
    assert [str(n) for n in notes] == [str(n) for n in whole_notes]


def test_pieces_typed_alike_are_joined_and_others_read_whole(tmp_path, monkeypatch):
    calls = []
    original = pd.read_csv

    def counting(*args, **kwargs):
        if kwargs.get("nrows") != 0:              # not the header's width (csv_bounds)
            calls.append("pieces" if kwargs.get("chunksize") else "whole")
        return original(*args, **kwargs)

    monkeypatch.setattr(csv_pieces.pd, "read_csv", counting)
    monkeypatch.setattr(csv_pieces, "PIECES_FROM_BYTES", 0)
    monkeypatch.setattr(csv_pieces, "PIECE_ROWS", 7)
    read_csv_table(_write(tmp_path, "a.csv", FILES["ints_then_decimals"]))
    read_csv_table(_write(tmp_path, "b.csv", FILES["numbers_then_text"]))
    # the second file's pieces disagree (numbers, then text): it is read again, whole
    assert calls == ["pieces", "pieces", "whole"]


def test_a_bad_line_is_reported_alike(tmp_path, monkeypatch):
    text = _with(lambda i: i) + '1,2,"never closed\n'
    path = _write(tmp_path, "bad.csv", text)
    messages = []
    for size in (0, 10**15):
        monkeypatch.setattr(csv_pieces, "PIECES_FROM_BYTES", size)
        monkeypatch.setattr(csv_pieces, "PIECE_ROWS", 7)
        with pytest.raises(ValueError) as error:
            read_csv_table(path)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    assert "never closes" in messages[0]


def test_joined_refuses_pieces_it_cannot_join_exactly():
    ints = pd.DataFrame({"x": np.array([1, 2], dtype=np.int64)})
    floats = pd.DataFrame({"x": [0.5, np.nan]})
    huge = pd.DataFrame({"x": np.array([2**53 + 1], dtype=np.int64)})
    text = pd.DataFrame({"x": np.array(["a", "b"], dtype=object)})
    assert csv_pieces.joined([]) is None
    assert csv_pieces.joined([ints, floats])["x"].tolist()[:2] == [1.0, 2.0]
    assert csv_pieces.joined([huge, floats]) is None
    assert csv_pieces.joined([floats, text]) is None
    assert csv_pieces.joined([ints, pd.DataFrame({"y": [1]})]) is None


# ---------------------------------------------------------------- features in one block
def test_float_features_share_one_array_with_the_fits_matrix(tmp_path, in_pieces):
    dataset = load_csv(_write(tmp_path, "f.csv", _numbers(200)), target="label")
    X = feature_matrix(dataset)
    assert dataset.X.dtypes.tolist() == [np.float64, np.int64, np.float64]
    # mixed dtypes: left as they are (the matrix is a converted copy)
    assert not np.shares_memory(X, dataset.X["a"].to_numpy())
    floats = dataset_from_frame(pd.DataFrame({"a": [0.5, 1.5] * 15, "b": [2.0, 1.0] * 15,
                                              "t": [0, 1] * 15}), "t")
    X = feature_matrix(floats)
    assert np.shares_memory(X, floats.X["a"].to_numpy())
    np.testing.assert_array_equal(X, np.column_stack([[0.5, 1.5] * 15, [2.0, 1.0] * 15]))


def test_one_block_keeps_the_table():
    frame = pd.DataFrame({"a": [1.0, np.nan], "b": [3.0, 4.0]}, index=[5, 9])
    frame["c"] = [0.25, -1.0]                      # its own block
    pd.testing.assert_frame_equal(one_block(frame), frame, check_exact=True)
    mixed = frame.assign(d=[1, 2])
    assert one_block(mixed) is mixed


def test_the_runner_writes_the_same_tables_either_way(tmp_path, monkeypatch):
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(rng.normal(size=(300, 4)), columns=list("abcd"))
    frame["target"] = np.where(frame["a"] + rng.normal(size=300) > 0, "up", "down")
    data = tmp_path / "data.csv"
    frame.to_csv(data, index=False)
    experiment = tmp_path / "exp.json"
    experiment.write_text('{"dataset": {"csv": "data.csv", "target": "target"}, "models": ['
                          '{"estimator": "LogisticRegression"}, {"estimator": "GaussianNB"}],'
                          ' "cv": {"n_splits": 3, "n_repeats": 2, "random_state": 0},'
                          ' "metrics": ["roc_auc", "accuracy"]}', encoding="utf-8")
    folders = {}
    for way in ("before", "after"):
        if way == "before":                    # read whole, features as read
            monkeypatch.setattr(csv_pieces, "PIECES_FROM_BYTES", 10**15)
            monkeypatch.setattr(data_module, "one_block", lambda features: features)
        else:
            monkeypatch.undo()
            monkeypatch.setattr(csv_pieces, "PIECES_FROM_BYTES", 0)
            monkeypatch.setattr(csv_pieces, "PIECE_ROWS", 40)
        folders[way] = tmp_path / way
        assert cli_run([str(experiment), "--out", str(folders[way]), "--quiet"]) == 0
    names = sorted(n for n in os.listdir(folders["before"]) if n.endswith(".csv"))
    assert names == sorted(n for n in os.listdir(folders["after"]) if n.endswith(".csv"))
    assert {"fold_scores.csv", "confusion.csv", "per_class.csv"} <= set(names)
    for name in names:
        before = pd.read_csv(folders["before"] / name, dtype=str, keep_default_na=False)
        after = pd.read_csv(folders["after"] / name, dtype=str, keep_default_na=False)
        if name == "fold_scores.csv":
            before, after = before.drop(columns="fit_seconds"), after.drop(columns="fit_seconds")
        pd.testing.assert_frame_equal(before, after)
