"""The pre-run check (engine.runs.preflight): every setup that would fail or mislead is found
before any fit, with a fix that removes it; the headless runner refuses it (exit 2, one
``error:`` line per problem, nothing written)."""
import json
import os

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris, load_wine
from sklearn.model_selection import StratifiedKFold, TunedThresholdClassifierCV, cross_validate
from sklearn.linear_model import LogisticRegression
from sklearn.svm import SVC

from engine.input.readers import load_dataset
from engine.evaluation.experiment import parse_experiment
from engine.runs.preflight import (apply_fix, blocking, check_experiment, needed_response,
                                   spread_ratio)
from tests.helpers import run_main

WINE = {"builtin": "wine"}
CV = {"n_splits": 3, "n_repeats": 1, "random_state": 0}


def problems_of(setup, base_dir="."):
    experiment = parse_experiment(setup, base_dir=base_dir)
    blocks = experiment.dataset_blocks
    datasets = [load_dataset(block, base_dir=experiment.base_dir) for block in blocks]
    return check_experiment(experiment, datasets if experiment.datasets else datasets[0])


def fixed_by_first_fixes(setup):
    """Apply the first fix of every blocking problem until none is left (at most 10)."""
    for _ in range(10):
        stops = blocking(problems_of(setup))
        if not stops:
            return setup
        setup = apply_fix(setup, stops[0].fixes[0])
    raise AssertionError("the fixes did not remove the problems")


def test_an_svc_without_probabilities_under_ovr_roc_auc_fails_every_fold_and_is_found():
    X, y = load_wine(return_X_y=True)
    folds = StratifiedKFold(3, shuffle=True, random_state=0)
    plain = cross_validate(SVC(), X, y, cv=folds, scoring="roc_auc_ovr", error_score=np.nan)
    assert np.isnan(plain["test_score"]).all()          # scikit-learn: every fold fails
    with_proba = cross_validate(SVC(probability=True, random_state=0), X, y, cv=folds,
                                scoring="roc_auc_ovr", error_score=np.nan)
    assert np.isfinite(with_proba["test_score"]).all()
    setup = {"dataset": WINE, "models": [{"name": "svc", "estimator": "SVC", "scale": True}],
             "metrics": ["roc_auc_ovr", "accuracy"], "cv": CV}
    [problem] = problems_of(setup)
    assert (problem.code, problem.blocking) == ("no_probabilities", True)
    assert dict(problem.fields) | {"datasets": ()} == {
        "dataset": "wine", "datasets": (), "model": "svc", "entry": 0,
        "metric": "roc_auc_ovr", "where": "metric", "needs": "proba"}
    assert "roc_auc_ovr" in problem.message and "roc_auc_ovr" not in problem.words()
    kinds = [fix.kind for fix in problem.fixes]
    assert kinds == ["model_param", "metric"]
    turned_on = apply_fix(setup, problem.fixes[0])
    assert turned_on["models"][0]["params"] == {"probability": True}
    assert problems_of(turned_on) == []
    switched = apply_fix(setup, problem.fixes[1])
    assert switched["metrics"] == ["balanced_accuracy", "accuracy"]
    assert problems_of(switched) == []


def test_a_threshold_on_more_than_two_classes_is_found_and_dropped():
    X, y = load_wine(return_X_y=True)
    with pytest.raises(ValueError):                     # scikit-learn refuses it
        TunedThresholdClassifierCV(LogisticRegression(max_iter=5000)).fit(X, y)
    setup = {"datasets": [{"builtin": "moons", "n_samples": 60}, WINE],
             "models": [{"name": "nb", "estimator": "GaussianNB"},
                        {"name": "costly", "estimator": "GaussianNB",
                         "threshold": {"cost": [[0, 1], [5, 0]]}}],
             "metrics": ["accuracy"], "cv": CV}
    [problem] = problems_of(setup)
    assert problem.code == "threshold_many_classes" and problem.fields["datasets"] == ("wine",)
    assert problem.fields["entry"] == 1 and "by costs" in problem.message
    fixed = apply_fix(setup, problem.fixes[0])
    assert "threshold" not in fixed["models"][1] and problems_of(fixed) == []


def test_too_few_rows_for_the_folds_offers_the_folds_that_fit(tmp_path):
    X, y = load_iris(return_X_y=True, as_frame=True)
    frame = X.assign(species=y.map({0: "setosa", 1: "versicolor", 2: "virginica"}))
    frame = pd.concat([frame[frame.species != "virginica"],
                       frame[frame.species == "virginica"].head(3)])
    frame.to_csv(tmp_path / "small.csv")              # as pandas writes it (index column)
    setup = {"dataset": {"csv": "small.csv", "target": "species"},
             "models": [{"name": "nb", "estimator": "GaussianNB"}], "metrics": ["accuracy"],
             "cv": {"n_splits": 5, "n_repeats": 1, "random_state": 0}}
    [problem] = problems_of(setup, base_dir=str(tmp_path))
    assert problem.code == "too_few_rows" and problem.fields["possible"] == 3
    assert "only 3 row(s)" in problem.message
    assert problem.fixes[0].fields == {"n_splits": 3}
    fixed = apply_fix(setup, problem.fixes[0])
    assert fixed["cv"]["n_splits"] == 3 and problems_of(fixed, base_dir=str(tmp_path)) == []


def test_a_tuned_metric_that_does_not_fit_the_target_and_too_many_inner_folds():
    setup = {"dataset": WINE, "models": [
        {"name": "lr", "estimator": "LogisticRegression", "scale": True,
         "params": {"max_iter": 2000},
         "tune": {"grid": {"C": [0.1, 1.0]}, "scoring": "f1", "inner_splits": 60}}],
        "metrics": ["accuracy"], "cv": CV}
    problems = problems_of(setup)
    assert [p.code for p in problems] == ["tune_metric_not_for_target", "inner_folds_too_few"]
    smallest = int(np.bincount(load_wine().target).min())
    rows = smallest - -(-smallest // 3)                  # the smallest training part
    assert problems[1].fields["rows"] == rows and problems[1].fixes[0].fields["value"] == rows
    fixed = fixed_by_first_fixes(setup)
    assert "scoring" not in fixed["models"][0]["tune"]
    assert fixed["models"][0]["tune"]["inner_splits"] == rows


def test_unscaled_models_warn_only_when_the_features_spread_differently():
    wine = load_dataset(WINE)
    spreads = load_wine(as_frame=True).data.std()
    assert spread_ratio(wine) == pytest.approx(spreads.max() / spreads[spreads > 0].min())
    setup = {"dataset": WINE, "models": [{"name": "knn", "estimator": "KNeighborsClassifier"}],
             "metrics": ["accuracy"], "cv": CV}
    [problem] = problems_of(setup)
    assert (problem.code, problem.blocking) == ("unscaled_model", False)
    assert apply_fix(setup, problem.fixes[0])["models"][0]["scale"] is True
    moons = dict(setup, dataset={"builtin": "moons"})            # two features, one scale
    assert problems_of(moons) == []


def test_metrics_made_for_another_number_of_classes_are_replaced():
    setup = {"dataset": WINE, "models": [{"name": "nb", "estimator": "GaussianNB"}],
             "metrics": ["roc_auc", "f1"], "cv": CV}
    problems = problems_of(setup)
    assert [p.fields["suggested"] for p in problems] == ["roc_auc_ovr", "f1_macro"]
    assert fixed_by_first_fixes(setup)["metrics"] == ["roc_auc_ovr", "f1_macro"]
    assert needed_response("roc_auc") == "score" and needed_response("accuracy") == "labels"
    assert needed_response("neg_log_loss") == "proba"


def test_the_expected_cost_on_three_classes_is_found_and_replaced():
    """The costs of two outcomes cannot score a three-class target: the check lists it
    (the metrics cannot even be filled in) and its fix compares by balanced accuracy."""
    setup = {"dataset": WINE, "models": [{"name": "nb", "estimator": "GaussianNB"}],
             "metrics": ["neg_expected_cost", "accuracy"], "costs": [[0, 1], [10, 0]],
             "cv": CV}
    [problem] = problems_of(setup)
    assert (problem.code, problem.blocking) == ("metric_not_for_target", True)
    assert problem.fields["n_classes"] == 3 and "two classes only" in str(problem.words())
    assert fixed_by_first_fixes(setup)["metrics"] == ["balanced_accuracy", "accuracy"]


# ----------------------------------------------------------------------------- headless

def headless(tmp_path, setup, *args):
    path = tmp_path / "exp.json"
    path.write_text(json.dumps(setup))
    out = tmp_path / "out"
    return run_main(path, "--out", out, *args), out


@pytest.mark.parametrize("setup, expected", [
    ({"dataset": WINE, "models": [{"name": "svc", "estimator": "SVC", "scale": True},
                                  {"name": "ridge", "estimator": "RidgeClassifier",
                                   "scale": True}], "cv": CV},
     ["model 'svc' gives no probabilities", "model 'ridge' gives no probabilities"]),
    ({"datasets": [{"builtin": "moons"}, WINE],
      "models": [{"name": "t", "estimator": "GaussianNB", "threshold": {"cost": [[0, 1], [5, 0]]}}],
      "metrics": ["accuracy"], "cv": CV},
     ["model 't' chooses a decision threshold by costs (\"threshold\")"]),
    ({"dataset": WINE, "models": [{"name": "lr", "estimator": "LogisticRegression",
                                   "scale": True, "tune": {"grid": {"C": [0.1, 1.0]},
                                                           "scoring": "roc_auc"}}],
      "metrics": ["accuracy"], "cv": CV},
     ["model 'lr' is tuned on ROC AUC (roc_auc), which does not fit the 3 classes"]),
    ({"dataset": {"builtin": "iris"}, "models": [{"estimator": "GaussianNB"}],
      "metrics": ["accuracy"], "cv": {"n_splits": 60, "n_repeats": 1}},
     ["the smallest class has only 50 row(s), but 60 folds"]),
])
@pytest.mark.slow
def test_headless_refuses_each_failing_setup_before_any_fit(tmp_path, setup, expected):
    done, out = headless(tmp_path, setup)
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == len(expected) and "Traceback" not in done.stderr
    for line, fragment in zip(errors, expected):
        assert fragment in line
    assert not out.exists()                       # no table, no store, no folder


@pytest.mark.slow
def test_headless_warns_about_unscaled_models_and_runs(tmp_path):
    setup = {"dataset": WINE, "models": [{"name": "knn", "estimator": "KNeighborsClassifier"}],
             "metrics": ["accuracy"], "cv": CV}
    done, out = headless(tmp_path, setup)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning: ")]
    assert len(warnings) == 1 and "model 'knn'" in warnings[0]
    assert os.path.exists(out / "summary.csv")
