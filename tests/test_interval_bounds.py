"""A summary interval that passes the metric's possible range is kept as computed (it
equals the corrected-t formula) and named in an ``interval_past_bound`` note."""
import pandas as pd
import pytest

from engine.evaluation.experiment import parse_experiment
from engine.evaluation.interval_bounds import interval_bound_notes, metric_range
from engine.foundation.progress import run_to_end
from engine.runs.analysis import run_experiment


def summary(rows):
    return pd.DataFrame(rows, columns=["model", "metric", "ci_low", "ci_high"])


@pytest.mark.parametrize("metric, expected", [("roc_auc", (0.0, 1.0)),
                                              ("accuracy", (0.0, 1.0)),
                                              ("matthews_corrcoef", (-1.0, 1.0)),
                                              ("neg_log_loss", (None, 0.0)),
                                              ("neg_expected_cost", (None, 0.0))])
def test_metric_ranges(metric, expected):
    assert metric_range(metric) == expected


def test_each_metric_and_side_past_its_range_gets_one_note():
    notes = interval_bound_notes(summary([
        ("a", "roc_auc", 0.98, 1.006), ("b", "roc_auc", 0.97, 1.0001),
        ("c", "roc_auc", 0.5, 0.9),
        ("a", "accuracy", -0.02, 0.3),
        ("a", "matthews_corrcoef", -0.5, 0.2),              # inside [-1, 1]
        ("a", "neg_log_loss", -9.0, 0.01)]))
    found = [(n.fields["metric"], n.fields["side"], n.fields["bound"], n.fields["models"])
             for n in notes]
    assert found == [("roc_auc", "upper", 1.0, ("a", "b")),
                     ("accuracy", "lower", 0.0, ("a",)),
                     ("neg_log_loss", "upper", 0.0, ("a",))]
    assert all(n.code == "interval_past_bound" for n in notes)
    assert "reaches above 1, the largest possible value" in str(notes[0])
    assert "read that end as 1" in str(notes[0])


def test_intervals_inside_the_range_say_nothing():
    assert interval_bound_notes(summary([("a", "roc_auc", 0.0, 1.0),
                                         ("b", "accuracy", 0.4, 0.6)])) == []


def test_a_run_names_exactly_the_models_whose_interval_passes_1(run_result):
    table = run_result.summary
    past = table[(table["metric"] == "roc_auc") & (table["ci_high"] > 1)]["model"].tolist()
    assert past, "the fixture should have an interval above 1"
    notes = [n for n in run_result.notes if n.code == "interval_past_bound"]
    assert [list(n.fields["models"]) for n in notes] == [past]


@pytest.fixture(scope="module")
def run_result():
    return run_to_end(run_experiment(parse_experiment({
        "dataset": {"builtin": "breast_cancer"},
        "models": [{"name": "logistic", "estimator": "LogisticRegression", "scale": True},
                   {"name": "nb", "estimator": "GaussianNB"}],
        "cv": {"n_splits": 5, "n_repeats": 2, "random_state": 0}, "metrics": ["roc_auc"]})))
