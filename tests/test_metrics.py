"""The fast metrics give scikit-learn's numbers, ties included."""
import numpy as np
import pytest
from sklearn.metrics import accuracy_score, balanced_accuracy_score, roc_auc_score

from engine.evaluation.metrics import FAST_METRICS, check_metrics, known_metrics

RNG = np.random.default_rng(7)


@pytest.mark.parametrize("n, ties", [(10, False), (37, True), (500, True), (1000, False)])
def test_roc_auc_matches_sklearn(n, ties):
    y = RNG.integers(0, 2, n)
    y[:2] = [0, 1]
    score = RNG.normal(size=n) + y
    if ties:
        score = np.round(score, 1)
    assert FAST_METRICS["roc_auc"][1](y, score) == pytest.approx(roc_auc_score(y, score),
                                                                 rel=1e-13, abs=1e-15)


def test_label_metrics_match_sklearn():
    y = RNG.integers(0, 3, 200)
    pred = np.where(RNG.random(200) < 0.7, y, RNG.integers(0, 3, 200))
    assert FAST_METRICS["accuracy"][1](y, pred) == pytest.approx(accuracy_score(y, pred))
    assert FAST_METRICS["balanced_accuracy"][1](y, pred) == pytest.approx(
        balanced_accuracy_score(y, pred))


def test_roc_auc_one_class_raises():
    with pytest.raises(ValueError, match="Only one class"):
        FAST_METRICS["roc_auc"][1](np.ones(5), np.arange(5.0))


def test_metric_names_are_checked():
    assert "roc_auc" in known_metrics() and "neg_mean_squared_error" not in known_metrics()
    assert check_metrics(["accuracy", "roc_auc"], 2) == ["accuracy", "roc_auc"]
    with pytest.raises(ValueError, match="listed twice"):
        check_metrics(["accuracy", "accuracy"], 2)
    with pytest.raises(ValueError, match="f1_macro"):
        check_metrics(["f1"], 3)
