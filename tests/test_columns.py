"""engine.foundation.columns names the columns the result tables really have: a table renamed in the
engine fails here, not silently in the GUI that reads it by these names."""
import pytest

from engine.foundation import columns
from engine.runs.analysis import run_experiment
from engine.runs.benchmark import run_benchmark
from engine.evaluation.experiment import parse_experiment
from engine.foundation.progress import run_to_end

MODELS = [{"name": "lr", "estimator": "LogisticRegression", "params": {"max_iter": 500}},
          {"name": "nb", "estimator": "GaussianNB"},
          {"name": "tree", "estimator": "DecisionTreeClassifier",
           "params": {"max_depth": 3, "random_state": 0}}]
CV = {"n_splits": 3, "n_repeats": 1, "random_state": 0}


@pytest.fixture(scope="module")
def one():
    experiment = parse_experiment({"dataset": {"builtin": "iris"}, "models": MODELS,
                                   "cv": CV, "metrics": ["accuracy"],
                                   "calibration": {"methods": ["sigmoid"]}})
    return run_to_end(run_experiment(experiment)).tables()


@pytest.fixture(scope="module")
def several():
    experiment = parse_experiment({
        "datasets": [{"name": "iris", "builtin": "iris"}, {"name": "wine", "builtin": "wine"},
                     {"name": "cancer", "builtin": "breast_cancer"}],
        "models": MODELS, "cv": CV, "metrics": ["accuracy"]})
    return run_to_end(run_benchmark(experiment)).tables()


def test_one_data_sets_tables_have_the_named_columns(one):
    assert columns.MODEL in one["summary.csv"] and columns.MEAN in one["summary.csv"]
    assert columns.METRIC in one["fold_scores.csv"]
    pairwise = one["pairwise.csv"]
    assert set(columns.PAIR) <= set(pairwise) and set(columns.OUTCOMES) <= set(pairwise)
    calibrated = [name for name, table in one.items() if columns.METHOD in table]
    assert calibrated, "no calibration table has a method column"


def test_several_data_sets_tables_have_the_named_columns(several):
    ranks = several["ranks.csv"]
    assert {columns.MODEL, columns.MEAN_RANK} <= set(ranks)
    with_rank = [table for table in several.values()
                 if {columns.DATASET, columns.RANK, columns.MODEL} <= set(table)]
    assert with_rank, "no table of several data sets ranks the models per data set"
    signed = several["signed_rank.csv"]
    assert set(columns.PAIR) <= set(signed) and set(columns.OUTCOMES) <= set(signed)
