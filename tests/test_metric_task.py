"""Only scorers that fit a classification task are accepted (a positive list).

Regression, clustering and sample-averaged (multilabel) scorers ran on a classifier and
wrote tables of meaningless numbers; they are refused with one line that says what kind
of score the name is and lists the valid ones.
"""
import ast
import os

import numpy as np
import pytest
from sklearn.metrics import get_scorer_names

from engine.evaluation.experiment import parse_experiment
from engine.foundation.errors import error_code, error_fields
from engine.evaluation.metrics import (CLASSIFICATION_SCORERS, FAST_METRICS, FoldScorer,
                                       check_metrics, known_metrics, metric_problem, metrics_for)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = {"dataset": {"builtin": "moons"}, "models": [{"estimator": "GaussianNB"}]}


def gui_common_metrics() -> tuple:
    """COMMON_METRICS of the CV tab (gui.metric_choice), read from its source (no Qt import)."""
    with open(os.path.join(ROOT, "gui", "metric_choice.py"), encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "COMMON_METRICS"
                                                for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("COMMON_METRICS not found")


def test_every_metric_the_app_offers_is_valid():
    offered = set(gui_common_metrics()) | set(metrics_for(2)) | set(metrics_for(3))
    offered |= set(FAST_METRICS)
    assert offered <= set(known_metrics())
    for name in offered:
        assert metric_problem(name) is None, name
    parse_experiment({**BASE, "metrics": sorted(offered), "costs": [[0, 1], [1, 0]]})


def test_the_allowed_set_is_a_positive_list_of_classification_scorers():
    assert set(known_metrics()) <= set(CLASSIFICATION_SCORERS)
    assert set(known_metrics()) == set(CLASSIFICATION_SCORERS) & (
        set(get_scorer_names()) | set(FAST_METRICS) | {"neg_expected_cost"})
    refused = set(get_scorer_names()) - set(known_metrics())
    assert {"r2", "neg_mean_squared_error", "adjusted_rand_score", "f1_samples"} <= refused


REFUSED = {
    "r2": "regression",
    "neg_mean_squared_error": "regression",
    "neg_mean_poisson_deviance": "regression",
    "explained_variance": "regression",
    "adjusted_rand_score": "clustering",
    "normalized_mutual_info_score": "clustering",
    "f1_samples": "multilabel",
    "precision_samples": "multilabel",
    "recall_samples": "multilabel",
    "jaccard_samples": "multilabel",
    "positive_likelihood_ratio": "other",
    "accuracy_score": "unknown",
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_scorers_that_do_not_fit_are_refused_with_the_valid_ones(name):
    with pytest.raises(ValueError) as caught:
        parse_experiment({**BASE, "metrics": ["accuracy", name]})
    assert error_code(caught.value) == "metric_invalid"
    fields = error_fields(caught.value)
    assert (fields["place"], fields["reason"], fields["shown"]) == \
        ("metrics[1]", REFUSED[name], f'"{name}"')
    assert fields["allowed"] == tuple(known_metrics())
    assert len(str(caught.value).splitlines()) == 1
    if name == "accuracy_score":                            # the hint: a name it may be
        assert fields["close"] == '"accuracy"'


def test_one_scorer_name_alone_is_named_as_the_section():
    with pytest.raises(ValueError) as caught:
        parse_experiment({**BASE, "metrics": "r2"})
    assert error_code(caught.value) == "metric_invalid"
    assert error_fields(caught.value)["place"] == "metrics"
    assert error_fields(caught.value)["reason"] == "regression"


def test_a_run_refuses_them_too_listing_the_metrics_for_the_target():
    with pytest.raises(ValueError) as caught:
        check_metrics(["r2"], 3)
    fields = error_fields(caught.value)
    assert error_code(caught.value) == "metric_invalid" and fields["reason"] == "regression"
    assert "roc_auc_ovr" in fields["allowed"] and "f1" not in fields["allowed"]


def test_top_k_accuracy_is_for_more_than_two_classes():
    assert "top_k_accuracy" in metrics_for(3) and "top_k_accuracy" not in metrics_for(2)
    with pytest.raises(ValueError) as caught:
        check_metrics(["top_k_accuracy"], 2)
    assert error_code(caught.value) == "metric_multiclass_only"
    assert error_fields(caught.value)["metric"] == "top_k_accuracy"
    assert check_metrics(["top_k_accuracy"], 3) == ["top_k_accuracy"]


def test_every_allowed_metric_scores_a_fitted_classifier():
    """The positive list holds nothing that fails on an ordinary two- or three-class fit."""
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression

    X, y = load_iris(return_X_y=True)
    for n_classes, keep in ((2, y < 2), (3, np.ones(len(y), bool))):
        model = LogisticRegression(max_iter=500).fit(X[keep][::2], y[keep][::2])
        scorer = FoldScorer(model, X[keep][1::2], y[keep][1::2], list(range(n_classes)),
                            costs=[[0, 1], [2, 0]])
        for name in metrics_for(n_classes):
            assert np.isfinite(scorer.score(name)), (n_classes, name)
