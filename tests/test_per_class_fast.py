"""Vectorised confusion counts, pooled and per fold, against scikit-learn's
confusion_matrix computed model by model and fold by fold."""
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import confusion_matrix, precision_recall_fscore_support

from engine.evaluation.catalogue import ModelSpec
from engine.evaluation.cv import CVConfig, run_cv
from engine.input.data import load_builtin
from engine.evaluation.per_class import (class_scores, confusion_counts, confusion_per_fold,
                                         confusion_table, fold_pairs, per_class_table)
from engine.foundation.progress import run_to_end

MODELS = [ModelSpec("nb", "GaussianNB"), ModelSpec("tree", "DecisionTreeClassifier",
                                                   {"max_depth": 2, "random_state": 0})]


def _cv(name):
    data = load_builtin(name)
    return data, run_to_end(run_cv(data, MODELS, CVConfig(3, 2, 0), ["accuracy"]))


@pytest.fixture(scope="module", params=["iris", "breast_cancer"])
def result(request):
    return _cv(request.param)


def _with_failures(predictions):
    """A copy where ``tree`` failed on the second fold (predicted -1, as when it could not
    predict) and ``nb`` on the last one (no rows, as when its fit failed)."""
    folds = sorted(set(zip(predictions["repeat"], predictions["fold"])))
    broken = predictions.copy()
    r, f = folds[1]
    broken.loc[(broken.model == "tree") & (broken.repeat == r) & (broken.fold == f),
               "predicted"] = -1
    r, f = folds[-1]
    gone = (broken.model == "nb") & (broken.repeat == r) & (broken.fold == f)
    return broken[~gone].reset_index(drop=True), folds


def _sklearn(preds, k):
    ok = preds[preds["predicted"] >= 0]      # a failed fold counts nothing
    if ok.empty:
        return np.zeros((k, k), dtype=int)
    return confusion_matrix(ok["y"], ok["predicted"], labels=list(range(k)))


def _matrices(table, k):
    """``count`` of a long table as one k x k matrix per (model[, repeat, fold])."""
    return table["count"].to_numpy().reshape(-1, k, k)


@pytest.mark.parametrize("failing", [False, True])
def test_pooled_counts_equal_confusion_matrix_per_model(result, failing):
    data, cv = result
    k = len(data.classes)
    predictions = _with_failures(cv.predictions)[0] if failing else cv.predictions
    table = confusion_table(predictions, cv.models, data.classes)
    assert list(table.columns) == ["model", "true_class", "predicted_class", "count"]
    assert list(table["model"]) == [m for m in cv.models for _ in range(k * k)]
    assert list(table["true_class"][: k * k]) == [c for c in data.classes for _ in range(k)]
    assert list(table["predicted_class"][: k * k]) == list(data.classes) * k
    for model, mine in zip(cv.models, _matrices(table, k)):
        expected = _sklearn(predictions[predictions.model == model], k)
        np.testing.assert_array_equal(mine, expected)
        if not failing:
            assert mine.sum() == 2 * len(data.y)          # every row once per repeat
    if failing:   # each model lost one fold of rows: one third of a repeat
        sums = _matrices(table, k).sum(axis=(1, 2))
        assert (sums < 2 * len(data.y)).all() and (sums > len(data.y)).all()


@pytest.mark.parametrize("failing", [False, True])
def test_per_fold_counts_equal_confusion_matrix_per_model_and_fold(result, failing):
    data, cv = result
    k = len(data.classes)
    if failing:
        predictions, folds = _with_failures(cv.predictions)
    else:
        predictions = cv.predictions
        folds = sorted(set(zip(predictions["repeat"], predictions["fold"])))
    assert len(folds) == 6 and fold_pairs(predictions) == folds
    table = confusion_per_fold(predictions, cv.models, data.classes)
    assert list(table.columns) == ["model", "repeat", "fold", "true_class",
                                   "predicted_class", "count"]
    assert len(table) == len(cv.models) * len(folds) * k * k       # zeros included
    keys = table[["model", "repeat", "fold"]].drop_duplicates().itertuples(index=False)
    assert [tuple(key) for key in keys] == [(m, r, f) for m in cv.models for r, f in folds]
    mine = _matrices(table, k).reshape(len(cv.models), len(folds), k, k)
    for i, model in enumerate(cv.models):
        for j, (r, f) in enumerate(folds):
            part = predictions[(predictions.model == model) & (predictions.repeat == r)
                               & (predictions.fold == f)]
            expected = _sklearn(part, k)
            np.testing.assert_array_equal(mine[i, j], expected)
    if failing:
        assert mine[1, 1].sum() == 0 and mine[0, -1].sum() == 0    # the failed folds
        assert mine[1, 0].sum() == mine[0, 0].sum() > 0
    pooled = _matrices(confusion_table(predictions, cv.models, data.classes), k)
    np.testing.assert_array_equal(mine.sum(axis=1), pooled)
    summed = table.groupby(["model", "true_class", "predicted_class"], sort=False)["count"]
    np.testing.assert_array_equal(summed.sum().to_numpy(), pooled.reshape(-1))


def test_counts_of_listed_folds_and_models_only(result):
    data, cv = result
    k = len(data.classes)
    folds = fold_pairs(cv.predictions)
    last = folds[-1]
    counts = confusion_counts(cv.predictions, ["tree", "absent"], data.classes,
                              folds=[last, (99, 99)])
    assert counts.shape == (2, 2, k, k)
    part = cv.predictions[(cv.predictions.model == "tree") & (cv.predictions.repeat == last[0])
                          & (cv.predictions.fold == last[1])]
    np.testing.assert_array_equal(counts[0, 0], _sklearn(part, k))
    assert counts[0, 1].sum() == 0 and counts[1].sum() == 0


def test_per_fold_scores_equal_scikit_learn(result):
    data, cv = result
    k = len(data.classes)
    folds = fold_pairs(cv.predictions)
    counts = confusion_counts(cv.predictions, cv.models, data.classes, folds=folds)
    scores = class_scores(counts)
    for i, model in enumerate(cv.models):
        for j, (r, f) in enumerate(folds):
            part = cv.predictions[(cv.predictions.model == model) & (cv.predictions.repeat == r)
                                  & (cv.predictions.fold == f)]
            p, rec, f1, s = precision_recall_fscore_support(
                part["y"], part["predicted"], labels=list(range(k)), zero_division=np.nan)
            np.testing.assert_allclose(scores["precision"][i, j], p, rtol=1e-12)
            np.testing.assert_allclose(scores["recall"][i, j], rec, rtol=1e-12)
            np.testing.assert_allclose(scores["f1"][i, j], f1, rtol=1e-12)
            np.testing.assert_array_equal(scores["support"][i, j], s)


def test_shuffled_rows_and_label_dtypes_as_before(result):
    """Row order does not matter; labels keep the dtype a list of them gets."""
    data, cv = result
    shuffled = cv.predictions.sample(frac=1, random_state=1)
    a = confusion_table(cv.predictions, cv.models, data.classes)
    b = confusion_table(shuffled, cv.models, data.classes)
    pd.testing.assert_frame_equal(a, b)
    assert a["true_class"].dtype == pd.Series(list(data.classes)).dtype
    numeric = confusion_table(cv.predictions, cv.models, tuple(range(len(data.classes))))
    assert numeric["true_class"].dtype == np.int64
    per_class = per_class_table(a, data.classes)
    assert list(per_class["model"]) == [m for m in cv.models for _ in data.classes]
