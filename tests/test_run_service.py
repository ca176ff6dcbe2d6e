"""engine.run_service: one data set is a list of one; the service's read, check and run
give what the engine's own functions give, for one data set and for several."""
import pandas as pd
import pytest

from engine import run_service
from engine.runs.analysis import ExperimentResult, run_experiment
from engine.runs.benchmark import BenchmarkResult, load_datasets, run_benchmark
from engine.input.readers import load_dataset
from engine.evaluation.experiment import parse_experiment
from engine.runs.guards import check_run
from engine.runs.preflight import check_experiment
from engine.foundation.progress import run_to_end
from engine.runs.run_plan import plan_run

MODELS = [{"name": "nb", "estimator": "GaussianNB"},
          {"name": "tree", "estimator": "DecisionTreeClassifier",
           "params": {"max_depth": 2, "random_state": 0}}]
CV = {"n_splits": 3, "n_repeats": 1, "random_state": 0}


def one():
    return parse_experiment({"dataset": {"builtin": "iris"}, "models": MODELS, "cv": CV})


def several():
    return parse_experiment({"datasets": [{"name": "iris", "builtin": "iris"},
                                          {"name": "wine", "builtin": "wine"}],
                             "models": MODELS, "cv": CV})


def test_one_data_set_is_a_list_of_one():
    experiment = one()
    datasets = run_service.read_datasets(experiment)
    assert len(datasets) == 1 and not run_service.is_several(experiment)
    direct = load_dataset(experiment.dataset, base_dir=experiment.base_dir)
    assert datasets[0].X.equals(direct.X)
    result = run_to_end(run_service.run(experiment, datasets))
    alone = run_to_end(run_experiment(experiment, dataset=direct))
    assert isinstance(result, ExperimentResult)
    pd.testing.assert_frame_equal(result.summary.drop(columns="fit_seconds", errors="ignore"),
                                  alone.summary.drop(columns="fit_seconds", errors="ignore"))


def test_several_data_sets_run_as_the_benchmark():
    experiment = several()
    datasets = run_service.read_datasets(experiment)
    assert [d.name for d in datasets] == ["iris", "wine"]
    result = run_to_end(run_service.run(experiment, datasets))
    alone = run_to_end(run_benchmark(experiment, datasets=load_datasets(experiment)))
    assert isinstance(result, BenchmarkResult)
    for name in ("ranks.csv", "dataset_scores.csv"):
        if name in alone.tables():
            pd.testing.assert_frame_equal(result.tables()[name], alone.tables()[name])


@pytest.mark.parametrize("make", [one, several])
def test_the_check_is_the_preflights_and_the_guards(make):
    experiment = make()
    datasets = run_service.read_datasets(experiment)
    checked = run_service.check_run(experiment, datasets, n_jobs=1)
    assert not checked.blocked and checked.datasets == tuple(datasets)
    assert [p.code for p in checked.problems] == \
        [p.code for p in check_experiment(experiment, list(datasets))]
    assert checked.plan == plan_run(checked.experiment, datasets=datasets)
    assert checked.assessment.plan == check_run(checked.experiment, list(datasets)).plan
    assert checked.plan.fits == 2 * 3 * len(datasets)


def test_a_blocked_run_is_not_assessed():
    experiment = parse_experiment({"dataset": {"builtin": "iris"}, "models": MODELS,
                                   "cv": CV, "metrics": ["roc_auc"]})   # binary on 3 classes
    checked = run_service.check_run(experiment, run_service.read_datasets(experiment))
    assert checked.blocked and checked.assessment is None and checked.plan is None
    assert "metric_not_for_target" in [p.code for p in checked.problems]
