"""ROC and precision-recall curves (issue #29) against scikit-learn's functions on the same
out-of-fold predictions, to 1e-12, on a two-class and a three-class real data set; the
averaged curves and the operating points against computations written out here."""
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import (average_precision_score, precision_recall_curve, roc_auc_score,
                             roc_curve)

from engine.runs.analysis import run_experiment
from engine.evaluation.experiment import parse_experiment
from engine.foundation.progress import run_to_end

TOL = dict(rtol=0, atol=1e-12)


def run(dataset, models, **more):
    data = {"dataset": {"builtin": dataset}, "models": models,
            "cv": {"n_splits": 5, "n_repeats": 2, "random_state": 0},
            "metrics": ["accuracy"], "curves": {}, **more}
    return run_to_end(run_experiment(parse_experiment(data)))


@pytest.fixture(scope="module")
def cancer_run():
    return run("breast_cancer", [
        {"name": "logistic", "estimator": "LogisticRegression", "scale": True},
        {"name": "svm", "estimator": "SVC", "scale": True},
        {"name": "costly", "estimator": "LogisticRegression", "scale": True,
         "threshold": {"cost": [[0, 1], [5, 0]]}}], costs=[[0, 1], [4, 0]])


@pytest.fixture(scope="module")
def wine_run():
    return run("wine", [{"name": "nb", "estimator": "GaussianNB"},
                        {"name": "forest", "estimator": "RandomForestClassifier",
                         "params": {"n_estimators": 30}}])


def scores_of(predictions, label, classes):
    if f"p_{label}" in predictions and predictions[f"p_{label}"].notna().all():
        return predictions[f"p_{label}"].to_numpy()
    sign = 1.0 if label == classes[1] else -1.0
    return sign * predictions["decision"].to_numpy()


def check_pooled(result, label):
    tables = result.tables()
    predictions, roc, pr = (tables[n] for n in ("predictions.csv", "roc_curve.csv",
                                                "pr_curve.csv"))
    classes = result.dataset.classes
    for model in result.cv.models:
        for repeat in (1, 2):
            rows = predictions[(predictions["model"] == model)
                               & (predictions["repeat"] == repeat)]
            y = rows["true_class"].to_numpy() == label
            s = scores_of(rows, label, classes)
            mine = roc[(roc["model"] == model) & (roc["class"] == label)
                       & (roc["curve"] == "pooled") & (roc["repeat"] == repeat)]
            fpr, tpr, cut = roc_curve(y, s)
            np.testing.assert_allclose(mine["fpr"], fpr, **TOL)
            np.testing.assert_allclose(mine["tpr"], tpr, **TOL)
            np.testing.assert_array_equal(mine["threshold"], cut)
            np.testing.assert_allclose(mine["auc"], roc_auc_score(y, s), **TOL)
            mine = pr[(pr["model"] == model) & (pr["class"] == label)
                      & (pr["curve"] == "pooled") & (pr["repeat"] == repeat)]
            precision, recall, cut = precision_recall_curve(y, s, drop_intermediate=True)
            np.testing.assert_allclose(mine["precision"], precision, **TOL)
            np.testing.assert_allclose(mine["recall"], recall, **TOL)
            np.testing.assert_array_equal(mine["threshold"].to_numpy()[:-1], cut)
            np.testing.assert_allclose(mine["average_precision"],
                                       average_precision_score(y, s), **TOL)


def test_pooled_curves_equal_scikit_learn_two_classes(cancer_run):
    check_pooled(cancer_run, "benign")
    roc = cancer_run.tables()["roc_curve.csv"]
    assert set(roc["class"]) == {"benign"}          # the positive class only


def test_pooled_curves_equal_scikit_learn_one_vs_rest(wine_run):
    roc = wine_run.tables()["roc_curve.csv"]
    assert set(roc["class"]) == set(wine_run.dataset.classes)
    for label in wine_run.dataset.classes:
        check_pooled(wine_run, label)


def averaged_by_hand(predictions, model, label):
    """Vertical averages over every fold, written out: ROC by np.interp on each fold's
    scikit-learn curve; PR by counting, at every grid recall, the precision of the highest
    score threshold whose recall reaches it."""
    grid = np.linspace(0, 1, 101)
    rocs, prs, aucs = [], [], []
    rows = predictions[predictions["model"] == model]
    for _, fold in rows.groupby(["repeat", "fold"]):
        y = fold["true_class"].to_numpy() == label
        s = fold[f"p_{label}"].to_numpy()
        fpr, tpr, _ = roc_curve(y, s)
        curve = np.interp(grid, fpr, tpr)
        curve[0] = 0.0
        rocs.append(curve)
        aucs.append(roc_auc_score(y, s))
        cuts = np.sort(np.unique(s))[::-1]                  # high to low
        flagged = s[None, :] >= cuts[:, None]
        tp = (flagged & y).sum(axis=1)
        recall, precision = tp / y.sum(), tp / flagged.sum(axis=1)
        prs.append([precision[np.argmax(recall >= r - 1e-12)] for r in grid])
    rocs, prs = np.array(rocs), np.array(prs)
    return rocs.mean(0), rocs.std(0), prs.mean(0), prs.std(0), np.mean(aucs)


def test_averaged_curves_and_bands(wine_run):
    tables = wine_run.tables()
    predictions, roc, pr = (tables[n] for n in ("predictions.csv", "roc_curve.csv",
                                                "pr_curve.csv"))
    for model in wine_run.cv.models:
        for label in wine_run.dataset.classes:
            tpr, tpr_sd, precision, precision_sd, auc = averaged_by_hand(predictions, model,
                                                                         label)
            mine = roc[(roc["model"] == model) & (roc["class"] == label)
                       & (roc["curve"] == "averaged")]
            assert mine["repeat"].isna().all() and len(mine) == 101
            np.testing.assert_allclose(mine["tpr"], tpr, **TOL)
            np.testing.assert_allclose(mine["tpr_low"], np.clip(tpr - tpr_sd, 0, 1), **TOL)
            np.testing.assert_allclose(mine["tpr_high"], np.clip(tpr + tpr_sd, 0, 1), **TOL)
            np.testing.assert_allclose(mine["auc"], auc, **TOL)
            mine = pr[(pr["model"] == model) & (pr["class"] == label)
                      & (pr["curve"] == "averaged")]
            np.testing.assert_allclose(mine["precision"], precision, **TOL)
            np.testing.assert_allclose(mine["precision_high"],
                                       np.clip(precision + precision_sd, 0, 1), **TOL)


def test_operating_points(cancer_run):
    tables = cancer_run.tables()
    predictions, roc, pr = (tables[n] for n in ("predictions.csv", "roc_curve.csv",
                                                "pr_curve.csv"))
    points = roc[roc["curve"] == "operating_point"].set_index(["model", "repeat"])
    assert points["threshold_source"].to_dict() == {
        ("logistic", 1): "costs", ("logistic", 2): "costs", ("svm", 1): "default",
        ("svm", 2): "default", ("costly", 1): "tuned", ("costly", 2): "tuned"}
    assert points.loc[("logistic", 1), "threshold"] == pytest.approx(1 / 5)   # 1/(1+4)
    pr_points = pr[pr["curve"] == "operating_point"].set_index(["model", "repeat"])
    chosen = cancer_run.cv.thresholds
    for (model, repeat), point in points.iterrows():
        rows = predictions[(predictions["model"] == model) & (predictions["repeat"] == repeat)]
        y = rows["true_class"].to_numpy() == "benign"
        s = scores_of(rows, "benign", cancer_run.dataset.classes)
        if model == "costly":               # each fold at its own threshold: what predict did
            flagged = rows["predicted"].to_numpy() == "benign"
            folds = chosen[(chosen["model"] == model) & (chosen["repeat"] == repeat)]
            assert point["threshold"] == pytest.approx(folds["threshold"].median())
        else:
            flagged = s >= point["threshold"]
        tp, fp = (flagged & y).sum(), (flagged & ~y).sum()
        assert point["tpr"] == pytest.approx(tp / y.sum(), abs=1e-12)
        assert point["fpr"] == pytest.approx(fp / (~y).sum(), abs=1e-12)
        assert pr_points.loc[(model, repeat), "precision"] == pytest.approx(tp / (tp + fp),
                                                                             abs=1e-12)
    svm = predictions[predictions["model"] == "svm"]   # decision 0 is what SVC predicts
    np.testing.assert_array_equal(svm["decision"] >= 0, svm["predicted"] == "benign")


def test_switches_and_multiclass_has_no_operating_point(wine_run):
    assert not (wine_run.tables()["roc_curve.csv"]["curve"] == "operating_point").any()
    result = run("iris", [{"name": "nb", "estimator": "GaussianNB"}],
                 curves={"roc": False, "decision": False})
    assert "roc_curve.csv" not in result.tables() and "pr_curve.csv" in result.tables()
    assert isinstance(result.tables()["predictions.csv"], pd.DataFrame)
