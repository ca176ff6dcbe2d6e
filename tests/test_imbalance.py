"""Imbalanced classes (issue #14): the rule, the data note, the default metrics, class
weights against scikit-learn, and the clear error when imbalanced-learn is missing."""
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import balanced_accuracy_score, recall_score
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from engine.runs.analysis import run_experiment
from engine.runs.benchmark import experiment_for
from engine.evaluation.catalogue import CATALOGUE, parameter_specs, takes_class_weight
from engine.input.data import dataset_from_frame, load_builtin
from engine.evaluation.experiment import parse_experiment
from engine.input.imbalance import (FEW_ROWS, INSTALL_HINT, SHARE_OF_EVEN, imbalance_note,
                                    is_imbalanced)
from engine.foundation.notes import CODES
from engine.foundation.progress import run_to_end


def skewed_frame(n=300, weight=0.9, seed=0) -> pd.DataFrame:
    X, y = make_classification(n, n_features=6, n_informative=3, weights=[weight],
                               random_state=seed)
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
    frame["outcome"] = np.where(y == 1, "rare", "common")
    return frame


@pytest.fixture(scope="module")
def skewed():
    return dataset_from_frame(skewed_frame(), "outcome", name="skewed")


@pytest.fixture(scope="module")
def even():
    return dataset_from_frame(skewed_frame(weight=0.5), "outcome", name="even")


# ----------------------------------------------------------------------------- the rule
@pytest.mark.parametrize("counts, expected", [
    ([80, 20], False),          # 20% of two classes: the border, not below it
    ([81, 19], True),
    ([50, 50], False),
    ([30, 35, 35], False),
    ([12, 44, 44], True),       # 12% < 40% of a third (13.3%)
    ([180] * 9 + [90], False),  # digits-like: 5.3% of ten classes is not below 4%
    ([15, 40], True),           # few rows (< 20) and under half of the largest
    ([15, 25], False),          # few rows, but not under half of the largest
    ([0, 10, 90], True),        # an empty class does not count
])
def test_imbalance_rule(counts, expected):
    assert is_imbalanced(counts) is expected


def test_rule_constants_are_the_documented_ones():
    assert SHARE_OF_EVEN == 0.4 and FEW_ROWS == 20
    assert "class_imbalance" in CODES and "default_metric_imbalanced" in CODES


# ----------------------------------------------------------------------------- the note
def test_note_names_the_smallest_class_its_rows_and_share(skewed):
    notes = [n for n in skewed.notes if n.code == "class_imbalance"]
    assert len(notes) == 1
    counts = skewed_frame()["outcome"].value_counts()
    fields = notes[0].fields
    assert fields["class"] == "rare" and fields["count"] == counts["rare"]
    assert fields["share"] == pytest.approx(counts["rare"] / counts.sum())
    assert fields["majority_share"] == pytest.approx(counts["common"] / counts.sum())
    text = str(notes[0])
    assert f"{counts['rare']} of {counts.sum()} rows" in text
    assert "Balance classes" in text and "Resample training folds" in text


def test_no_note_on_even_classes_or_the_builtin_data(even):
    assert not [n for n in even.notes if n.code == "class_imbalance"]
    for name in ("breast_cancer", "iris", "wine", "digits"):
        assert not [n for n in load_builtin(name).notes if n.code == "class_imbalance"]


def test_note_on_three_classes_says_largest_class():
    note = imbalance_note([100, 100, 10], ["a", "b", "c"])
    assert note.fields["class"] == "c" and note.fields["n_classes"] == 3
    assert note.fields["majority_share"] == pytest.approx(100 / 210)


# ----------------------------------------------------------------------------- metrics
def run(dataset, models, metrics=None, n_splits=5, n_repeats=2):
    data = {"dataset": {"builtin": "iris"}, "models": models,
            "cv": {"n_splits": n_splits, "n_repeats": n_repeats, "random_state": 0}}
    if metrics:
        data["metrics"] = metrics
    return run_to_end(run_experiment(parse_experiment(data), n_jobs=1, dataset=dataset))


LOGISTIC = [{"name": "logistic", "estimator": "LogisticRegression", "scale": True}]


def test_imbalanced_default_adds_balanced_accuracy_and_its_scores_equal_sklearn(skewed):
    result = run(skewed, LOGISTIC)
    assert result.cv.metrics == ("roc_auc", "balanced_accuracy")
    notes = [n for n in result.notes if n.code == "default_metric_imbalanced"]
    assert len(notes) == 1 and notes[0].fields["class"] == "rare"
    assert notes[0].fields["metrics"] == ("roc_auc", "balanced_accuracy")
    folds = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    model = make_pipeline(StandardScaler(), LogisticRegression(random_state=0))
    X, y = skewed.X.to_numpy(), skewed.y
    ours = result.cv.scores.query("metric == 'balanced_accuracy'")["score"].to_numpy()
    np.testing.assert_allclose(ours, cross_val_score(model, X, y, cv=folds,
                                                     scoring="balanced_accuracy"))
    ours = result.cv.scores.query("metric == 'roc_auc'")["score"].to_numpy()
    np.testing.assert_allclose(ours, cross_val_score(model, X, y, cv=folds, scoring="roc_auc"))
    summary = result.summary.query("metric == 'balanced_accuracy'")
    assert summary["mean"].iloc[0] == pytest.approx(
        np.mean(cross_val_score(model, X, y, cv=folds, scoring="balanced_accuracy")))


def test_per_class_recall_equals_sklearn_on_the_pooled_predictions(skewed):
    result = run(skewed, LOGISTIC)
    table = result.tables()["per_class.csv"]
    predictions = result.cv.predictions
    recall = recall_score(predictions["y"], predictions["predicted"], average=None)
    np.testing.assert_allclose(table["recall"].to_numpy(), recall)
    assert list(table["class"]) == ["common", "rare"]
    # balanced accuracy pooled over the folds is the mean of these recalls
    assert recall.mean() == pytest.approx(
        balanced_accuracy_score(predictions["y"], predictions["predicted"]))


def test_balanced_data_keep_the_single_default_metric_and_the_same_tables(even):
    result = run(even, LOGISTIC)
    assert result.cv.metrics == ("roc_auc",)
    assert not [n for n in result.notes if n.code == "default_metric_imbalanced"]
    assert set(result.cv.scores["metric"]) == {"roc_auc"}


def test_named_metrics_are_left_as_they_are(skewed):
    result = run(skewed, LOGISTIC, metrics=["accuracy"])
    assert result.cv.metrics == ("accuracy",)
    assert not [n for n in result.notes if n.code == "default_metric_imbalanced"]


def test_several_data_sets_get_balanced_accuracy_when_one_is_imbalanced(skewed, even):
    experiment = parse_experiment({"datasets": [{"builtin": "iris", "name": "a"},
                                                {"builtin": "iris", "name": "b"}],
                                   "models": LOGISTIC})
    both = experiment_for(experiment, [even, skewed])
    assert both.metrics == ("roc_auc", "balanced_accuracy")
    note = [n for n in both.notes if n.code == "default_metric_imbalanced"][0]
    assert note.fields["dataset"] == "b"
    assert experiment_for(experiment, [even, even]).metrics == ("roc_auc",)


# ----------------------------------------------------------------------------- class_weight
def test_the_estimators_that_take_class_weight():
    takes = [name for name in CATALOGUE if takes_class_weight(name)]
    assert takes == [name for name in CATALOGUE
                     if "class_weight" in [p.name for p in parameter_specs(name)]]
    assert {"LogisticRegression", "SVC", "RandomForestClassifier"} <= set(takes)
    assert "GaussianNB" not in takes and "KNeighborsClassifier" not in takes


def test_balanced_class_weight_scores_equal_sklearn(skewed):
    models = [{"name": "weighted", "estimator": "LogisticRegression", "scale": True,
               "params": {"class_weight": "balanced"}}]
    result = run(skewed, models, metrics=["balanced_accuracy", "recall"])
    folds = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    model = make_pipeline(StandardScaler(),
                          LogisticRegression(class_weight="balanced", random_state=0))
    for metric in ("balanced_accuracy", "recall"):
        ours = result.cv.scores.query("metric == @metric")["score"].to_numpy()
        theirs = cross_val_score(model, skewed.X.to_numpy(), skewed.y, cv=folds, scoring=metric)
        np.testing.assert_allclose(ours, theirs)
    plain = run(skewed, LOGISTIC, metrics=["recall"])
    assert result.summary.query("metric == 'recall'")["mean"].iloc[0] > \
        plain.summary["mean"].iloc[0]   # weighting finds more of the rare class


# ----------------------------------------------------------------------------- without imblearn
def test_resample_without_imbalanced_learn_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "imblearn", None)
    with pytest.raises(ValueError) as caught:
        parse_experiment({"dataset": {"builtin": "iris"},
                          "models": [{"estimator": "GaussianNB", "resample": "smote"}]})
    assert str(caught.value) == f"models[0].resample: {INSTALL_HINT}"


def test_unknown_resample_value_is_refused_by_the_schema():
    with pytest.raises(ValueError, match=r"models\[0\]\.resample.*over.*under.*smote"):
        parse_experiment({"dataset": {"builtin": "iris"},
                          "models": [{"estimator": "GaussianNB", "resample": "SMOTE!"}]})
