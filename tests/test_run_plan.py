"""One count of fits (engine.runs.run_plan): the plan's fits and steps are the progress records
of the run, the fits the store keeps and the fits the guards weigh -- for a tuned model,
grouped data with ``compare_ungrouped`` and several data sets."""
import os
from dataclasses import replace

import pytest
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV

from engine.evaluation.experiment import parse_experiment
from engine.foundation.progress import run_to_end
from engine.runs import guards
from engine.runs.analysis import run_experiment
from engine.runs.benchmark import load_datasets, run_benchmark
from engine.runs.run_plan import plan_run, stored_fits
from engine.runs.store import ResultStore

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "resources", "examples")
TUNED = {"name": "tuned", "estimator": "LogisticRegression", "scale": True,
         "params": {"max_iter": 2000},
         "tune": {"grid": {"C": [0.1, 1.0]}, "inner_splits": 3}}
PLAIN = {"name": "nb", "estimator": "GaussianNB"}


def experiment():
    return parse_experiment({
        "datasets": [{"name": "subjects", "csv": "repeated_subjects.csv",
                      "target": "condition", "groups": "subject"},
                     {"name": "moons", "builtin": "moons", "n_samples": 80}],
        "models": [TUNED, PLAIN], "metrics": ["accuracy"],
        "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0, "compare_ungrouped": True}},
        base_dir=EXAMPLES)


@pytest.mark.slow
def test_counts_agree_for_tuned_grouped_and_several_datasets(tmp_path):
    exp = experiment()
    datasets = load_datasets(exp)
    plan = plan_run(exp, datasets=datasets)
    folds = 3
    # per data set: 2 models + 2 grid members, on 3 folds; again without groups on subjects
    assert [p.fits for p in plan.datasets] == [(2 + 2) * folds] * 2
    assert [p.ungrouped_fits for p in plan.datasets] == [12, 0]
    assert plan.steps == 12 + 12 + 12 and plan.fits == 24
    X, y = load_iris(return_X_y=True)                    # the search's own fits, counted
    search = GridSearchCV(LogisticRegression(max_iter=2000), {"C": [0.1, 1.0]}, cv=3).fit(X, y)
    per_fold = len(search.cv_results_["params"]) * search.n_splits_   # plus the refit,
    # which is the fit the plan counts as the model's own
    assert plan.datasets[1].inner_fits == per_fold * folds      # counted as whole fits
    assessment = guards.check_run(exp, datasets)
    assert assessment.plan == plan
    assert assessment.n_cv_fits == (12 + 18) * 2 + (12 + 18)     # subjects twice, moons once
    records = []
    with ResultStore(str(tmp_path / "store.sqlite")) as store:
        run_to_end(run_benchmark(exp, datasets=datasets, store=store), on_progress=records.append)
        runs = store.runs()
        assert [run.fits for run in runs] == [p.fits for p in plan.datasets]
        assert stored_fits(store, exp, datasets) == [12, 12]
    assert [r.done for r in records] == list(range(1, plan.steps + 1))
    assert {r.total for r in records} == {plan.steps}
    again = plan.with_reused([12, 12])
    assert (again.reused, again.left) == (24, 0)


def test_one_dataset_counts_every_phase_on_one_bar():
    exp = experiment()
    one = replace(exp.for_dataset(0), calibration=None)
    datasets = load_datasets(exp)
    plan = plan_run(one, datasets=datasets[0])
    assert plan.steps == plan.datasets[0].steps == 24
    records = []
    run_to_end(run_experiment(one, dataset=datasets[0]), on_progress=records.append)
    assert [(r.done, r.total) for r in records] == [(i, 24) for i in range(1, 25)]
    assert records[-1].label.startswith("without groups")


def test_a_held_out_test_adds_one_final_fit_per_model_to_the_plan(tmp_path):
    """With a "test" file the plan counts each model's fit on all training rows, once:
    the progress records of the run are exactly the plan's steps."""
    import json

    from sklearn.datasets import load_breast_cancer

    from engine.evaluation.experiment import load_experiment
    from engine.runs.analysis import run_experiment
    from engine.runs.run_plan import plan_run

    frame = load_breast_cancer(as_frame=True).frame
    frame.iloc[:400].to_csv(tmp_path / "train.csv", index=False)
    frame.iloc[400:].to_csv(tmp_path / "test.csv", index=False)
    path = tmp_path / "exp.json"
    path.write_text(json.dumps({
        "dataset": {"file": "train.csv", "target": "target"},
        "test": {"file": "test.csv"},
        "models": [{"name": "nb", "estimator": "GaussianNB"},
                   {"name": "tree", "estimator": "DecisionTreeClassifier",
                    "params": {"max_depth": 2, "random_state": 0}}],
        "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0}}))
    experiment = load_experiment(str(path))
    plan = plan_run(experiment)
    assert (plan.fits, plan.final_fits, plan.steps) == (6, 2, 8)
    assert "then 2 on all training rows for the held-out test" in plan.text()
    records = list(_records(run_experiment(experiment)))
    assert records[-1].total == plan.steps and records[-1].done == plan.steps


def _records(job):
    """Every progress record of a run."""
    while True:
        try:
            yield next(job)
        except StopIteration:
            return
