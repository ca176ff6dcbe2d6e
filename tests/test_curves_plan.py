"""The learning curves' fits in the one count of a run (engine.runs.run_plan, issue #29):
fractions x outer folds x compared models, in the steps, the budget and the words."""
from engine.evaluation.experiment import parse_experiment
from engine.runs.run_plan import plan_run

MODELS = [{"name": "nb", "estimator": "GaussianNB"},
          {"name": "tuned", "estimator": "LogisticRegression",
           "tune": {"grid": {"C": [0.1, 1.0, 10.0]}, "inner_splits": 3}}]


def experiment(curves, datasets=None):
    data = {"models": MODELS, "cv": {"n_splits": 4, "n_repeats": 3, "random_state": 0}}
    data.update({"datasets": datasets} if datasets else {"dataset": {"builtin": "iris"}})
    if curves is not None:
        data["curves"] = curves
    return parse_experiment(data)


def test_learning_fits_are_fractions_folds_and_models():
    plain = plan_run(experiment(None))
    curves = plan_run(experiment({"roc": True}))
    learning = plan_run(experiment({"learning": [0.25, 0.5, 1.0]}))
    assert plain.learning_fits == curves.learning_fits == 0
    assert plain.steps == curves.steps                      # ROC, PR: no fit
    assert learning.learning_fits == 3 * 12 * 2             # a tuned model counts once
    assert learning.fits == plain.fits                      # the store's fits unchanged
    assert learning.steps == plain.steps + 72
    assert learning.budget[0] == plain.budget[0] + 72
    assert "then 72 learning-curve fits" in learning.text()
    assert "learning" not in plain.text()


def test_several_data_sets_count_each():
    several = experiment({"learning": True}, [{"builtin": "iris"}, {"builtin": "wine"}])
    plan = plan_run(several)
    assert plan.learning_fits == 2 * 5 * 12 * 2
    assert plan.datasets[0].steps == plan.datasets[1].steps == plan.steps // 2
