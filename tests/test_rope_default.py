"""The ROPE default per metric family (issue 26, item 6): one function,
``engine.evaluation.stats.default_rope``, gives the value, its unit and its reason, within a data set
and across data sets; a ROPE given in the file is kept as it is."""
import numpy as np
import pytest
from scipy import stats

from engine.runs.analysis import run_experiment
from engine.runs.benchmark import run_benchmark
from engine.evaluation.experiment import parse_experiment
from engine.foundation.progress import run_to_end
from engine.evaluation.stats import (ROPE_DEFAULTS, ComparisonSettings, default_rope,
                                     metric_family)

MODELS = [{"name": "nb", "estimator": "GaussianNB"},
          {"name": "tree", "estimator": "DecisionTreeClassifier",
           "params": {"max_depth": 2, "random_state": 0}}]
CV = {"n_splits": 3, "n_repeats": 2, "random_state": 0}


@pytest.mark.parametrize("metric, family, rope", [
    ("accuracy", "share", 0.01), ("balanced_accuracy", "share", 0.01),
    ("f1_macro", "share", 0.01), ("matthews_corrcoef", "share", 0.01),
    ("roc_auc", "ranking", 0.005), ("roc_auc_ovr_weighted", "ranking", 0.005),
    ("average_precision", "ranking", 0.005), ("neg_log_loss", "log_loss", 0.007),
    ("neg_brier_score", "brier", 0.0025), ("d2_log_loss_score", "skill", 0.01)])
def test_each_family_has_its_default_with_a_unit_and_a_reason(metric, family, rope):
    default = default_rope(metric)
    assert metric_family(metric) == family == default.family
    assert default.rope == rope and default.unit and default.reason
    assert ComparisonSettings().rope_for(metric) == rope
    assert ComparisonSettings(rope=0.03).rope_for(metric) == 0.03


def test_log_loss_default_is_one_percent_of_the_no_skill_loss():
    assert default_rope("neg_log_loss").rope == pytest.approx(0.01 * np.log(2), abs=5e-4)
    assert default_rope("neg_brier_score").rope == pytest.approx(0.01 * 0.25)


def _posterior_equivalent(differences, n_train, n_test, rope):
    """P(−rope ≤ μ ≤ rope) of the correlated t-test, computed here with scipy."""
    n = len(differences)
    scale = np.sqrt((1 / n + n_test / n_train) * np.var(differences, ddof=1))
    post = stats.t(n - 1, loc=differences.mean(), scale=scale)
    return post.cdf(rope) - post.cdf(-rope)


def test_a_run_without_rope_uses_its_metrics_default_and_says_so():
    experiment = parse_experiment({"dataset": {"builtin": "breast_cancer"}, "models": MODELS,
                                   "metrics": ["roc_auc"], "cv": CV})
    assert experiment.comparison.rope is None
    assert "rope" not in experiment.to_json()["comparison"]      # saved as "the default"
    result = run_to_end(run_experiment(experiment))
    assert result.experiment.comparison.rope is None       # the file's meaning, as recorded
    assert result.comparison.settings.rope == 0.005
    note = next(n for n in result.notes if n.code == "default_rope")
    assert note.fields == {"metric": "roc_auc", "rope": 0.005, "family": "ranking",
                           "unit": "AUC points", "reason": ROPE_DEFAULTS["ranking"].reason}
    matrix = result.cv.score_matrix()
    n_train, n_test = result.cv.train_test_sizes()
    row = result.comparison.pairwise.iloc[0]
    differences = (matrix.loc[row["model_1"]] - matrix.loc[row["model_2"]]).to_numpy()
    assert row["p_equivalent"] == pytest.approx(
        _posterior_equivalent(differences, n_train, n_test, 0.005), abs=1e-12)


def test_a_given_rope_is_kept_and_no_note_is_made():
    experiment = parse_experiment({"dataset": {"builtin": "breast_cancer"}, "models": MODELS,
                                   "metrics": ["roc_auc"], "cv": CV,
                                   "comparison": {"rope": 0.01}})
    result = run_to_end(run_experiment(experiment))
    assert result.comparison.settings.rope == 0.01
    assert not any(n.code == "default_rope" for n in result.notes)


def test_across_data_sets_uses_the_same_default():
    experiment = parse_experiment({
        "datasets": [{"builtin": "breast_cancer"}, {"builtin": "moons"}],
        "models": MODELS, "metrics": ["accuracy"], "cv": CV})
    result = run_to_end(run_benchmark(experiment))
    assert result.across.rope == default_rope("accuracy").rope == 0.01
    for single in result.results:
        assert single.comparison.settings.rope == 0.01
