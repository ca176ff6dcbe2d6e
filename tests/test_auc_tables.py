"""auc_intervals.csv and auc_tests.csv against scikit-learn's AUC and direct formulas."""
import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from engine.evaluation.curves.auc_tables import auc_tables
from engine.evaluation.curves.delong import delong_interval, delong_test
from engine.evaluation.curves.ledell import ledell_interval
from tests.helpers import oof_predictions


@pytest.fixture(scope="module")
def cancer_predictions():
    x, y = load_breast_cancer(return_X_y=True)
    classes = ["malignant", "benign"]
    models = {"logistic": make_pipeline(StandardScaler(), LogisticRegression(C=0.05)),
              "svm": make_pipeline(StandardScaler(), LinearSVC(C=0.01, random_state=0))}
    return oof_predictions(x, y, classes, models), y, classes


def _repeat(table, model, repeat):
    return table[(table["model"] == model) & (table["repeat"] == repeat)].sort_values("row")


def test_intervals_equal_sklearn_auc_and_formulas(cancer_predictions):
    table, y, classes = cancer_predictions
    result = auc_tables(table, classes, positive_class="malignant", level=0.9)
    intervals = result.intervals
    part = _repeat(table, "svm", 2)
    positive = (part["true_class"] == "malignant").to_numpy()
    score = -part["decision"].to_numpy()              # decision grows with "benign"
    delong = intervals.query("model == 'svm' and repeat == 2 and method == 'delong'").iloc[0]
    assert delong["auc"] == pytest.approx(roc_auc_score(positive, score), abs=1e-14)
    assert delong["auc"] > 0.95 and delong["positive_class"] == "malignant"
    assert (delong["auc"], delong["ci_low"], delong["ci_high"]) == pytest.approx(
        delong_interval(positive, score, level=0.9), abs=1e-14)
    assert (delong["n_positive"], delong["n_negative"]) == (212, 357)
    ledell = intervals.query("model == 'svm' and repeat == 2 and method == 'ledell'").iloc[0]
    fold_aucs = [roc_auc_score(positive[part["fold"] == f], score[part["fold"] == f])
                 for f in range(1, 6)]
    assert ledell["auc"] == pytest.approx(np.mean(fold_aucs), abs=1e-14)
    assert (ledell["ci_low"], ledell["ci_high"]) == pytest.approx(
        ledell_interval(positive, score, part["fold"].to_numpy(), level=0.9)[1:3], abs=1e-14)


def test_summary_rows_average_the_repeats(cancer_predictions):
    table, y, classes = cancer_predictions
    intervals = auc_tables(table, classes).intervals
    assert set(intervals["positive_class"]) == {"benign"}
    mine = intervals.query("model == 'logistic' and method == 'ledell'")
    summary = mine[mine["repeat"].isna()].iloc[0]
    each = mine[mine["repeat"].notna()]
    assert len(each) == 2 and summary["n_repeats"] == 2
    for column in ("auc", "ci_low", "ci_high"):
        assert summary[column] == pytest.approx(each[column].mean(), abs=1e-15)


def test_tests_table(cancer_predictions):
    table, y, classes = cancer_predictions
    result = auc_tables(table, classes, positive_class="malignant", alpha=0.05)
    tests = result.tests
    assert len(tests) == 3 and set(tests["model_1"]) == {"logistic"}
    row = tests[tests["repeat"] == 1].iloc[0]
    a, b = _repeat(table, "logistic", 1), _repeat(table, "svm", 1)
    positive = (a["true_class"] == "malignant").to_numpy()
    expected = delong_test(positive, a["p_malignant"], -b["decision"].to_numpy())
    assert tuple(row[["auc_1", "auc_2", "difference", "z", "p_value"]]) == pytest.approx(
        expected, abs=1e-14)
    summary = tests[tests["repeat"].isna()].iloc[0]
    p_values = tests["p_value"][tests["repeat"].notna()]
    assert summary["p_value"] == pytest.approx(p_values.median(), abs=1e-15)
    assert summary["share_below_alpha"] == (p_values < 0.05).mean()
    assert [n.code for n in result.notes] == ["auc_pooled_test"]


def test_multiclass_one_vs_rest():
    x, y = load_iris(return_X_y=True)
    classes = ["setosa", "versicolor", "virginica"]
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.1))
    table = oof_predictions(x, y, classes, {"logistic": model}, n_repeats=1)
    intervals = auc_tables(table, classes).intervals
    delong = intervals[(intervals["method"] == "delong") & intervals["repeat"].notna()]
    assert list(delong["positive_class"]) == classes
    for label, auc in zip(delong["positive_class"], delong["auc"]):
        assert auc == pytest.approx(roc_auc_score(table["true_class"] == label,
                                                  table[f"p_{label}"]), abs=1e-14)


def test_failed_fold_and_grouped(cancer_predictions):
    table, y, classes = cancer_predictions
    failed = table.drop(table.index[(table["model"] == "svm") & (table["repeat"] == 1)
                                    & (table["fold"] == 3)])
    groups = np.arange(len(y)) // 3
    result = auc_tables(failed, classes, groups=groups)
    skipped = [n.fields for n in result.notes if n.code == "auc_not_computed"]
    assert skipped == [{"model": "svm", "positive_class": "benign", "repeat": 1,
                        "reason": "missing_predictions"}]
    svm = result.intervals.query("model == 'svm' and method == 'ledell'")
    assert list(svm["repeat"].astype("float").fillna(0)) == [2, 0]
    assert svm["n_groups"].iloc[0] == len(np.unique(groups))
    assert list(result.tests["repeat"].astype("float").fillna(0)) == [2, 0]
    grouped = [n.fields for n in result.notes if n.code == "auc_grouped_rows"]
    assert grouped == [{"n_groups": 190, "n_rows": 569}]
