"""The corrected-t interval of the AUC over the fold models (method ``corrected_t`` in
auc_intervals.csv) against an independent computation (sklearn's roc_auc_score per fold,
scipy's t) and a transcription of mlr3inferr's ``ci.cor_t``, both to 1e-12."""
import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import t as student_t
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GroupKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from engine.evaluation.curves.auc_tables import auc_tables
from tests.helpers import oof_predictions


@pytest.fixture(scope="module")
def cancer_predictions():
    x, y = load_breast_cancer(return_X_y=True)
    classes = ["malignant", "benign"]
    models = {"logistic": make_pipeline(StandardScaler(), LogisticRegression(C=0.05)),
              "svm": make_pipeline(StandardScaler(), LinearSVC(C=0.01, random_state=0))}
    return oof_predictions(x, y, classes, models), y, classes


def _independent(table, model, label, level, n_rows):
    """Mean fold AUC ± t(k r − 1) · sqrt((1/(k r) + n_test/n_train) s²), by hand."""
    part = table[table["model"] == model]
    aucs, n_test = [], []
    for _, fold in part.groupby(["repeat", "fold"]):
        aucs.append(roc_auc_score(fold["true_class"] == label, fold[f"p_{label}"]))
        n_test.append(len(fold))
    aucs = np.asarray(aucs)
    n_te = np.mean(n_test)
    n_tr = n_rows - n_te
    half = student_t.ppf(0.5 + level / 2, len(aucs) - 1) * math.sqrt(
        (1 / len(aucs) + n_te / n_tr) * np.var(aucs, ddof=1))
    return aucs.mean(), max(0.0, aucs.mean() - half), min(1.0, aucs.mean() + half)


def _mlr3inferr_cor_t(mus, n1, n2, alpha):
    """mlr3inferr's ``MeasureCiCorrectedT$.ci`` (R/MeasureCiCorT.R, github:mlr-org/mlr3inferr
    at f8401a9), line by line, with J the number of resampling iterations (here the k × r
    folds), n1 the training and n2 the test set size; then ``within_range = TRUE`` of
    R/MeasureAbstractCi.R clips to the measure's range, [0, 1] for the AUC."""
    J = len(mus)
    estimate = np.mean(mus)
    estimate_sd = np.std(mus, ddof=1)                  # sd(mus)
    sd_corrected = estimate_sd * math.sqrt(1 / J + n2 / n1)
    z = student_t.ppf(1 - alpha / 2, J - 1)            # qt(1 - alpha / 2, df = J - 1)
    halfwidth = sd_corrected * z
    ci = np.array([estimate, estimate - halfwidth, estimate + halfwidth])
    return np.minimum(np.maximum(ci, 0.0), 1.0)        # pmin(pmax(ci, 0), 1)


def _corrected(intervals, model, label):
    rows = intervals.query("model == @model and positive_class == @label "
                           "and method == 'corrected_t'")
    assert len(rows) == 1 and pd.isna(rows["repeat"].iloc[0])
    return rows.iloc[0]


def test_two_classes_equal_independent_and_mlr3inferr(cancer_predictions):
    table, y, classes = cancer_predictions
    # the svm has no probabilities: give the independent sum the score the table uses
    table = table.assign(p_malignant=np.where(table["model"] == "svm", -table["decision"],
                                              table.get("p_malignant")))
    intervals = auc_tables(table, classes, positive_class="malignant", level=0.9).intervals
    for model in ("logistic", "svm"):
        row = _corrected(intervals, model, "malignant")
        expected = _independent(table, model, "malignant", 0.9, len(y))
        assert (row["auc"], row["ci_low"], row["ci_high"]) == pytest.approx(expected,
                                                                              abs=1e-12)
        assert row["ci_high"] - row["ci_low"] > 0.01
        part = table[table["model"] == model]
        mus = [roc_auc_score(f["true_class"] == "malignant", f["p_malignant"])
               for _, f in part.groupby(["repeat", "fold"])]
        n2 = part.groupby(["repeat", "fold"]).size().mean()
        assert (row["auc"], row["ci_low"], row["ci_high"]) == pytest.approx(
            tuple(_mlr3inferr_cor_t(mus, len(y) - n2, n2, 0.1)), abs=1e-12)
        assert (row["n_folds"], row["n_repeats"], row["level"]) == (10, 2, 0.9)
        assert row["estimate"] == "fold_average"
        assert row["estimand"] == "expected_score_at_training_size"
    assert list(intervals["method"].iloc[:1]) == ["corrected_t"]      # shown first


def test_wider_than_ledell_because_it_counts_the_fold_models(cancer_predictions):
    table, _, classes = cancer_predictions
    intervals = auc_tables(table, classes, level=0.95).intervals
    summary = intervals[intervals["repeat"].isna() & (intervals["model"] == "logistic")]
    width = (summary["ci_high"] - summary["ci_low"]).to_numpy()
    by_method = dict(zip(summary["method"], width))
    assert by_method["corrected_t"] > by_method["ledell"]
    assert dict(zip(summary["method"], summary["estimand"])) == {
        "corrected_t": "expected_score_at_training_size", "delong": "fold_models_mean",
        "ledell": "fold_models_mean"}


def test_multiclass_one_vs_rest_every_class():
    x, y = load_iris(return_X_y=True)
    classes = ["setosa", "versicolor", "virginica"]
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.1))
    table = oof_predictions(x, y, classes, {"logistic": model}, n_repeats=2)
    intervals = auc_tables(table, classes, level=0.95).intervals
    corrected = intervals[intervals["method"] == "corrected_t"]
    assert list(corrected["positive_class"]) == classes
    for label in ("versicolor", "virginica"):        # setosa: every fold AUC is 1, s = 0
        row = _corrected(intervals, "logistic", label)
        assert (row["auc"], row["ci_low"], row["ci_high"]) == pytest.approx(
            _independent(table, "logistic", label, 0.95, len(y)), abs=1e-12)
    setosa = _corrected(intervals, "logistic", "setosa")
    assert (setosa["auc"], setosa["ci_low"], setosa["ci_high"]) == (1.0, 1.0, 1.0)


def test_grouped_folds_and_one_class_fold():
    """Grouped folds (whole groups in a fold, folds of unequal size) are the folds the
    interval runs over; a fold with one class only has no AUC and is left out."""
    x, y = load_breast_cancer(return_X_y=True)
    groups = np.arange(len(y)) // 4
    frames = []
    for fold, (train, test) in enumerate(GroupKFold(5).split(x, y, groups)):
        fitted = LogisticRegression(C=0.05, max_iter=2000).fit(x[train], y[train])
        frames.append(pd.DataFrame({"model": "lr", "repeat": 1, "fold": fold + 1,
                                    "row": test, "true_class": np.array(["m", "b"])[y[test]],
                                    "p_b": fitted.predict_proba(x[test])[:, 1]}))
    table = pd.concat(frames, ignore_index=True).sort_values("row")
    row = _corrected(auc_tables(table, ["m", "b"], groups=groups).intervals, "lr", "b")
    assert row["auc"] == pytest.approx(_independent(table, "lr", "b", 0.95, len(y))[0],
                                       abs=1e-12)
    assert (row["n_groups"], row["n_folds"]) == (len(np.unique(groups)), 5)
    one_class = table.copy()
    first = one_class["fold"] == 1
    one_class.loc[first, "true_class"] = "b"
    shrunk = _corrected(auc_tables(one_class, ["m", "b"]).intervals, "lr", "b")
    kept = table[table["fold"] != 1]
    aucs = [roc_auc_score(f["true_class"] == "b", f["p_b"]) for _, f in kept.groupby("fold")]
    assert shrunk["n_folds"] == 4 and shrunk["auc"] == pytest.approx(np.mean(aucs), abs=1e-12)


def test_at_alpha_moves_the_t_quantile(cancer_predictions):
    table, _, classes = cancer_predictions
    at_95 = auc_tables(table, classes, level=0.95)
    moved = at_95.at_alpha(0.2).intervals
    fresh = auc_tables(table, classes, level=0.8).intervals
    mine, theirs = _corrected(moved, "logistic", "benign"), _corrected(fresh, "logistic",
                                                                        "benign")
    assert (mine["ci_low"], mine["ci_high"], mine["level"]) == pytest.approx(
        (theirs["ci_low"], theirs["ci_high"], 0.8), abs=1e-14)
    assert mine["ci_high"] - mine["ci_low"] < (_corrected(at_95.intervals, "logistic",
                                                          "benign")["ci_high"]
                                               - _corrected(at_95.intervals, "logistic",
                                                            "benign")["ci_low"])
