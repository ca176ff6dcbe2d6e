"""The result store with the model options that change what a fit is: tuning inside the
folds (with its grid members' plain fits), a tuned threshold, resampling. Reused fits give
the same tables; a change of the option recomputes that model only."""
import pytest

from engine.evaluation.experiment import parse_experiment
from engine.runs.store import ResultStore
from tests.peers import peer
from tests.helpers import assert_same_tables as same_tables, run_with_store as run

TUNED = {"name": "tuned", "estimator": "LogisticRegression", "params": {"max_iter": 500},
         "tune": {"grid": {"C": [0.1, 1.0]}, "inner_splits": 3}}
THRESHOLD = {"name": "cut", "estimator": "GaussianNB",
             "threshold": {"scoring": "balanced_accuracy", "inner_splits": 3}}
OVER = {"name": "over", "estimator": "DecisionTreeClassifier",
        "params": {"max_depth": 2, "random_state": 0}, "resample": "over"}


def experiment(models):
    return parse_experiment({
        "dataset": {"builtin": "breast_cancer"}, "models": models,
        "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
        "metrics": ["roc_auc", "balanced_accuracy"]})


@pytest.mark.slow
def test_tuned_thresholded_and_resampled_fits_are_reused_whole(tmp_path):
    peer("imblearn")
    path = str(tmp_path / "store.sqlite")
    exp = experiment([TUNED, THRESHOLD, OVER])
    fresh = run(exp)
    assert {"tuning.csv", "thresholds.csv", "tuning_optimism.csv"} <= set(fresh.tables())
    with ResultStore(path) as store:
        run(exp, store)
        # 3 folds x (3 models + the tuned model's 2 grid members as plain models)
        assert (store.reused, store.computed) == (0, 15)
    with ResultStore(path) as store:
        again = run(exp, store)
        assert (store.reused, store.computed) == (15, 0)
    same_tables(fresh, again)
    changed = experiment([TUNED, THRESHOLD, {**OVER, "resample": "under"}])
    with ResultStore(path) as store:
        result = run(changed, store)
        assert (store.reused, store.computed) == (12, 3)
    same_tables(run(changed), result)
    retuned = experiment([{**TUNED, "tune": {**TUNED["tune"], "inner_splits": 4}},
                          THRESHOLD, OVER])
    with ResultStore(path) as store:
        run(retuned, store)
        assert store.computed == 3          # the tuned model; its plain members are unchanged
