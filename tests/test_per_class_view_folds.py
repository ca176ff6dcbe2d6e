"""The Per class page, fold by fold, driven offscreen on a real cross-validation of iris:
the matrices, per-class scores, titles and exported files against scikit-learn."""
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import confusion_matrix, precision_recall_fscore_support

from engine.runs.analysis import run_experiment
from engine.evaluation.experiment import parse_experiment
from engine.foundation.progress import run_to_end
from gui.views.per_class_view import ALL_FOLDS, PerClassView, fold_label

MODELS = [{"name": "nb", "estimator": "GaussianNB"},
          {"name": "tree", "estimator": "DecisionTreeClassifier",
           "params": {"max_depth": 2, "random_state": 0}}]
K = 3


@pytest.fixture(scope="module")
def result():
    experiment = parse_experiment({"dataset": {"builtin": "iris"}, "models": MODELS,
                                   "cv": {"n_splits": 3, "n_repeats": 2, "random_state": 0},
                                   "metrics": ["accuracy"]})
    return run_to_end(run_experiment(experiment))


@pytest.fixture
def view(qtbot, result):
    widget = PerClassView()
    qtbot.addWidget(widget)
    widget.resize(1000, 600)
    widget.show()
    widget.set_result(result)
    widget.show_pair("nb", "tree")
    yield widget
    for panel in (widget.matrix_a, widget.matrix_b, widget.scores):
        panel.wait_for_export()


def _folds(predictions):
    return sorted(set(zip(predictions["repeat"], predictions["fold"])))


def _rows(predictions, model, fold=None):
    part = predictions[predictions.model == model]
    if fold is not None:
        part = part[(part.repeat == fold[0]) & (part.fold == fold[1])]
    return part[part.predicted >= 0]


def _expected(predictions, model, fold=None):
    part = _rows(predictions, model, fold)
    if part.empty:
        return np.zeros((K, K), dtype=int)
    return confusion_matrix(part["y"], part["predicted"], labels=list(range(K)))


def _shown(panel):
    frame = panel.frame()
    assert list(frame.columns) == ["true class", "predicted setosa", "predicted versicolor",
                                   "predicted virginica"]
    assert list(frame["true class"]) == ["setosa", "versicolor", "virginica"]
    return frame.iloc[:, 1:].to_numpy()


def test_picker_lists_all_folds_then_each_fold_as_in_the_table(view, result):
    folds = _folds(result.cv.predictions)
    combo = view.fold_combo
    assert combo.count() == 1 + 6 and combo.itemText(0) == ALL_FOLDS
    assert [combo.itemText(i) for i in range(1, 7)] == [
        f"Repeat {r}, fold {f}" for r, f in folds]
    assert fold_label(3, 7) == "repeat 3, fold 7"           # no renumbering on screen
    assert combo.currentIndex() == 0 and view.fold() is None
    preds = result.cv.predictions
    np.testing.assert_array_equal(_shown(view.matrix_a), _expected(preds, "nb"))
    np.testing.assert_array_equal(_shown(view.matrix_b), _expected(preds, "tree"))
    assert _shown(view.matrix_a).sum() == 2 * 150


def test_one_fold_shows_that_folds_counts_and_scores(view, result):
    preds = result.cv.predictions
    fold = _folds(preds)[4]
    view.fold_combo.setCurrentIndex(5)
    assert view.fold() == fold
    label = fold_label(*fold)
    for panel, model in ((view.matrix_a, "nb"), (view.matrix_b, "tree")):
        expected = _expected(preds, model, fold)
        np.testing.assert_array_equal(_shown(panel), expected)
        assert expected.sum() == 50                           # one third of iris
        assert panel.title.text() == f"<b>Confusion matrix: {model} — {label}</b>"
        assert model in panel.export_name and "repeat" in panel.export_name
    scores = view.scores.frame()
    assert label in view.scores.title.text()
    assert list(scores["model"]) == ["nb"] * K + ["tree"] * K
    for model in ("nb", "tree"):
        part = _rows(preds, model, fold)
        p, r, f1, s = precision_recall_fscore_support(part["y"], part["predicted"],
                                                      labels=list(range(K)),
                                                      zero_division=np.nan)
        mine = scores[scores.model == model]
        np.testing.assert_allclose(mine["precision"], p, rtol=1e-12)
        np.testing.assert_allclose(mine["recall"], r, rtol=1e-12)
        np.testing.assert_allclose(mine["f1"], f1, rtol=1e-12)
        np.testing.assert_array_equal(mine["support"], s)


def test_export_writes_the_fold_shown(qtbot, view, result, tmp_path):
    preds = result.cv.predictions
    fold = _folds(preds)[2]
    view.fold_combo.setCurrentIndex(3)
    panel = view.matrix_b
    assert panel.export_name == f"confusion_matrix_tree_repeat_{fold[0]}_fold_{fold[1]}.csv"
    path = str(tmp_path / panel.export_name)
    with qtbot.waitSignal(panel.exported, timeout=10000):
        panel.export_to(path)
    assert panel.wait_for_export()
    written = pd.read_csv(path)
    assert list(written["true class"]) == ["setosa", "versicolor", "virginica"]
    np.testing.assert_array_equal(written.iloc[:, 1:].to_numpy(),
                                  _expected(preds, "tree", fold))
    assert not np.array_equal(written.iloc[:, 1:].to_numpy(), _expected(preds, "tree"))
    scores_path = str(tmp_path / view.scores.export_name)
    with qtbot.waitSignal(view.scores.exported, timeout=10000):
        view.scores.export_to(scores_path)
    assert view.scores.wait_for_export()
    assert pd.read_csv(scores_path)["support"].sum() == 2 * 50


def test_choice_kept_when_the_pair_changes_reset_on_a_new_result(view, result):
    preds = result.cv.predictions
    fold = _folds(preds)[1]
    view.fold_combo.setCurrentIndex(2)
    view.show_pair("tree", "nb")
    assert view.fold() == fold
    np.testing.assert_array_equal(_shown(view.matrix_a), _expected(preds, "tree", fold))
    assert fold_label(*fold) in view.matrix_a.title.text()
    view.set_result(result)
    view.show_pair("tree", "nb")
    assert view.fold_combo.currentIndex() == 0 and view.fold() is None
    assert view.matrix_a.title.text() == "<b>Confusion matrix: tree</b>"
    assert view.matrix_a.export_name == "confusion_matrix_tree.csv"
    np.testing.assert_array_equal(_shown(view.matrix_a), _expected(preds, "tree"))


def test_failed_fold_shows_zeros_and_says_so(view, result):
    preds = result.cv.predictions
    folds = _folds(preds)
    failed = folds[3]
    broken = preds.copy()
    broken.loc[(broken.model == "tree") & (broken.repeat == failed[0])
               & (broken.fold == failed[1]), "predicted"] = -1
    view.set_result(replace(result, cv=replace(result.cv, predictions=broken)))
    view.show_pair("nb", "tree")
    view.fold_combo.setCurrentIndex(4)
    assert view.fold() == failed
    assert "(failed on this fold)" in view.matrix_b.title.text()
    assert "failed" not in view.matrix_a.title.text()
    assert _shown(view.matrix_b).sum() == 0
    np.testing.assert_array_equal(_shown(view.matrix_a), _expected(preds, "nb", failed))
    tree = view.scores.frame().query("model == 'tree'")
    assert tree["support"].sum() == 0 and tree["recall"].isna().all()
    view.fold_combo.setCurrentIndex(0)                       # summed: the other folds only
    np.testing.assert_array_equal(_shown(view.matrix_b), _expected(broken, "tree"))
    assert _shown(view.matrix_b).sum() == 2 * 150 - 50


def test_no_result_clears_the_page(view):
    view.set_result(None)
    assert view.fold_combo.count() == 1 and not view.fold_combo.isEnabled()
    assert view.matrix_a.frame().empty and view.scores.frame().empty
