"""Choices made inside the folds (engine.evaluation.tuning): nested grid search and tuned thresholds,
checked against scikit-learn's own GridSearchCV / TunedThresholdClassifierCV run by hand."""
import numpy as np
import pandas as pd
import pytest
from engine.foundation.errors import error_code, error_fields
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.metrics import confusion_matrix, f1_score, make_scorer
from sklearn.model_selection import (GridSearchCV, ParameterGrid, RepeatedStratifiedKFold,
                                     TunedThresholdClassifierCV, cross_val_score,
                                     cross_validate)

from engine.evaluation.catalogue import ModelSpec, expand_models, make_pipeline
from engine.evaluation.cv import CVConfig, run_cv
from engine.input.data import dataset_from_frame, load_builtin
from engine.evaluation.experiment import parse_experiment
from engine.foundation.progress import run_to_end
from engine.evaluation.costs import cost_score
from engine.evaluation.tuning import cost_scorer, optimism_notes


def _mixed_data():
    """Numbers with gaps and a text column: the pipeline imputes and one-hot encodes."""
    rng = np.random.default_rng(4)
    n = 160
    colour = rng.choice(["red", "green", "blue"], n)
    x1, x2 = rng.normal(size=n), rng.normal(scale=5, size=n)
    logit = 1.5 * x1 + 0.2 * x2 + (colour == "red") * 1.2 - 0.3
    y = np.where(rng.random(n) < 1 / (1 + np.exp(-logit)), "yes", "no")
    x1[rng.choice(n, 10, replace=False)] = np.nan
    return dataset_from_frame(pd.DataFrame({"x1": x1, "x2": x2, "colour": colour, "y": y}), "y")


def _X(dataset):
    return dataset.X if not dataset.is_plain_numeric() else dataset.X.to_numpy(dtype=float)


def _plain(spec):
    return ModelSpec(spec.name, spec.estimator, dict(spec.params), spec.scale)


def _outer(config):
    return RepeatedStratifiedKFold(n_splits=config.n_splits, n_repeats=config.n_repeats,
                                   random_state=config.random_state)


def _prefixed(grid, pipe):
    prefix = "model__" if hasattr(pipe, "steps") else ""
    grids = [grid] if isinstance(grid, dict) else grid
    out = [{prefix + k: v for k, v in g.items()} for g in grids]
    return out[0] if isinstance(grid, dict) else out


CASES = [
    ("breast_cancer", {"name": "svc", "estimator": "SVC", "scale": True,
                       "params": {"random_state": 0},
                       "tune": {"grid": {"C": [0.1, 1, 10], "gamma": [0.001, 0.01]},
                                "inner_splits": 3}}, "roc_auc"),
    ("mixed", {"name": "logistic", "estimator": "LogisticRegression", "scale": True,
               "params": {"max_iter": 2000},
               "tune": {"grid": {"C": [0.01, 0.1, 1]}, "inner_splits": 3}}, "f1"),
    ("moons", {"name": "knn", "estimator": "KNeighborsClassifier",
               "tune": {"grid": [{"n_neighbors": [1, 5, 15]},
                                 {"n_neighbors": [5], "weights": ["distance"]}],
                        "scoring": "balanced_accuracy"}}, "roc_auc"),
]


def _scorer(metric, dataset):
    """scikit-learn's scorer, with the data's positive class for F1 (the mixed data's
    positive class is its smaller one, code 0)."""
    if metric == "f1" and dataset.pos_label not in (None, 1):
        return make_scorer(f1_score, pos_label=dataset.pos_label)
    return metric


def _data(name):
    return _mixed_data() if name == "mixed" else load_builtin(name)


#: The mixed-data case takes about 15 s (a logistic regression of 2,000 iterations on
#: one-hot columns, nested): in the slow set.
@pytest.mark.parametrize("name, entry, metric",
                         [pytest.param(*case, marks=pytest.mark.slow) if case[0] == "mixed"
                          else case for case in CASES], ids=[c[0] for c in CASES])
def test_nested_scores_and_choices_equal_scikit_learn(name, entry, metric):
    dataset = _data(name)
    config = CVConfig(n_splits=3, n_repeats=2, random_state=5)
    spec, = expand_models([entry])
    result = run_to_end(run_cv(dataset, [spec], config, [metric, "accuracy"]))
    pipe = make_pipeline(_plain(spec), dataset=dataset)
    scoring = _scorer(entry["tune"].get("scoring", metric), dataset)
    search = GridSearchCV(pipe, _prefixed(entry["tune"]["grid"], pipe), scoring=scoring,
                          cv=entry["tune"].get("inner_splits", 5), refit=True)
    X, y = _X(dataset), dataset.y
    # cross_validate scores as cross_val_score does, and keeps each fold's fitted search
    expected = cross_validate(search, X, y, cv=_outer(config), return_estimator=True,
                              scoring={m: _scorer(m, dataset) for m in (metric, "accuracy")})
    for m in (metric, "accuracy"):
        ours = result.scores.query("metric == @m")["score"].to_numpy()
        np.testing.assert_allclose(ours, expected[f"test_{m}"], rtol=0, atol=1e-12, err_msg=m)
    if name == "breast_cancer":     # and cross_val_score itself, for one metric
        np.testing.assert_array_equal(expected[f"test_{metric}"],
                                      cross_val_score(search, X, y, cv=_outer(config),
                                                      scoring=metric))
    # tuning.csv: each outer fold's inner search (the peer fitted on that training part)
    tuning = result.tuning
    assert list(tuning.columns[:3]) == ["model", "repeat", "fold"]
    assert tuning.columns[-1] == "inner_score"
    assert len(tuning) == config.n_splits * config.n_repeats
    for peer, (_, row) in zip(expected["estimator"], tuning.iterrows()):
        chosen = {k.split("__")[-1]: v for k, v in peer.best_params_.items()}
        for param, value in chosen.items():
            assert row[param] == value, (param, row[param], value)
        for param in set(tuning.columns[3:-1]) - set(chosen):
            assert pd.isna(row[param])
        assert row["inner_score"] == pytest.approx(peer.best_score_, abs=1e-12)


def test_grid_members_and_optimism_equal_plain_cross_validation():
    dataset = load_builtin("moons")
    config = CVConfig(n_splits=5, n_repeats=2, random_state=1)
    entry = {"name": "svc", "estimator": "SVC", "params": {"random_state": 0},
             "tune": {"grid": [{"kernel": ["linear"]}, {"kernel": ["poly"], "degree": [2, 3]},
                               {"kernel": ["rbf"]}]}}
    spec, = expand_models([entry])
    result = run_to_end(run_cv(dataset, [spec], config, ["roc_auc"]))
    X, y = _X(dataset), dataset.y
    means, folds = {}, {}
    for combo, label in [({"kernel": "linear"}, "kernel=linear"),
                         ({"kernel": "poly", "degree": 2}, "kernel=poly, degree=2"),
                         ({"kernel": "poly", "degree": 3}, "kernel=poly, degree=3"),
                         ({"kernel": "rbf"}, "kernel=rbf")]:
        member = make_pipeline(ModelSpec("m", "SVC", {"random_state": 0, **combo}), dataset=dataset)
        folds[label] = cross_val_score(member, X, y, cv=_outer(config), scoring="roc_auc")
        means[label] = folds[label].mean()
    best = max(means, key=means.get)
    nested = result.scores["score"].mean()
    row = result.tuning_optimism.iloc[0]
    assert row["model"] == "svc" and row["metric"] == "roc_auc" and row["n_members"] == 4
    assert row["best_member"] == best
    assert row["best_plain_score"] == pytest.approx(means[best], abs=1e-12)
    assert row["nested_score"] == pytest.approx(nested, abs=1e-12)
    assert row["optimism"] == pytest.approx(means[best] - nested, abs=1e-12)
    # the gap's own uncertainty: the corrected-t interval of the paired fold differences
    differences = folds[best] - result.scores["score"].to_numpy()
    n, n_train, n_test = len(differences), len(y) * 4 / 5, len(y) / 5
    se = np.sqrt((1 / n + n_test / n_train) * np.var(differences, ddof=1))
    half = stats.t(n - 1).ppf(0.975) * se
    assert row["ci_low"] == pytest.approx(differences.mean() - half, abs=1e-12)
    assert row["ci_high"] == pytest.approx(differences.mean() + half, abs=1e-12)
    assert row["p_value_two_sided"] == pytest.approx(
        2 * stats.t(n - 1).sf(abs(differences.mean() / se)), abs=1e-12)
    assert row["n_folds"] == 10 and row["tuning_metric"] == "roc_auc"
    note, = optimism_notes(result.tuning_optimism)
    assert note.code == "tuning_optimism" and note.fields["best_member"] == best
    assert note.fields["shown"] == (row["ci_low"] > 0)
    assert "95% interval" in str(note) and "smaller (inner) training sets" in str(note)
    # members are not models of the comparison
    assert result.models == ("svc",) and set(result.scores["model"]) == {"svc"}


def _row(**values):
    base = {"model": "svc", "metric": "roc_auc", "n_members": 4, "best_member": "C=1",
            "best_plain_score": 0.93, "nested_score": 0.92, "optimism": 0.01,
            "p_value_two_sided": 0.3, "n_folds": 10, "tuning_metric": "roc_auc"}
    return pd.DataFrame([{**base, **values}])


def test_optimism_is_called_so_only_when_its_interval_excludes_zero():
    noisy, = optimism_notes(_row(ci_low=-0.004, ci_high=0.012), alpha=0.05)
    assert not noisy.fields["shown"]
    assert "too optimistic" not in str(noisy) and "flattered" not in str(noisy)
    assert "cannot tell optimism from fold-to-fold noise" in str(noisy)
    assert "95% interval -0.004 to 0.012" in str(noisy)
    clear, = optimism_notes(_row(ci_low=0.004, ci_high=0.016, p_value_two_sided=0.002),
                            alpha=0.1)
    assert clear.fields["shown"] and "90% interval" in str(clear)
    assert "would have flattered it" in str(clear)
    below, = optimism_notes(_row(optimism=-0.02, ci_low=-0.03, ci_high=-0.01), alpha=0.05)
    assert not below.fields["shown"] and "show no optimism" in str(below)


def test_a_tuning_metric_other_than_the_compared_one_gets_a_note():
    optimism, differs = optimism_notes(_row(ci_low=-0.004, ci_high=0.012,
                                            tuning_metric="accuracy"))
    assert optimism.code == "tuning_optimism" and differs.code == "tuning_metric_differs"
    assert differs.fields == {"model": "svc", "metric": "roc_auc", "tuning_metric": "accuracy"}
    assert "chose the setting by accuracy" in str(differs)


def test_the_optimism_interval_follows_a_new_alpha():
    from engine.evaluation.tuning import optimism_at

    table = _row(ci_low=-0.004, ci_high=0.012)
    wider = optimism_at(table, 0.01, 0.05)
    half = 0.008 * stats.t(9).ppf(0.995) / stats.t(9).ppf(0.975)
    assert wider.loc[0, "ci_low"] == pytest.approx(0.004 - half, abs=1e-12)
    assert wider.loc[0, "ci_high"] == pytest.approx(0.004 + half, abs=1e-12)


def test_optimism_can_be_switched_off():
    spec, = expand_models([{"estimator": "GaussianNB",
                            "tune": {"grid": {"var_smoothing": [1e-9, 1e-3]},
                                     "optimism": False}}])
    result = run_to_end(run_cv(load_builtin("moons"), [spec], CVConfig(3, 1, 0), ["accuracy"]))
    assert result.tuning_optimism.empty and len(result.tuning) == 3


@pytest.mark.slow
@pytest.mark.parametrize("block", [{"scoring": "balanced_accuracy"}, {"scoring": "f1"},
                                   {"cost": [[0, 1], [5, 0]]}])
def test_threshold_scores_equal_tuned_threshold_classifier(block):
    dataset = load_builtin("breast_cancer")
    config = CVConfig(n_splits=3, n_repeats=1, random_state=2)
    spec, = expand_models([{"name": "logistic", "estimator": "LogisticRegression",
                            "scale": True, "params": {"max_iter": 2000}, "threshold": block}])
    result = run_to_end(run_cv(dataset, [spec], config, ["accuracy", "roc_auc"]))
    scoring = cost_scorer(block["cost"]) if "cost" in block else block["scoring"]
    peer = TunedThresholdClassifierCV(make_pipeline(_plain(spec), dataset=dataset), scoring=scoring,
                                      cv=5, random_state=0)
    X, y = _X(dataset), dataset.y
    expected = cross_validate(peer, X, y, cv=_outer(config), scoring=["accuracy", "roc_auc"],
                              return_estimator=True, return_indices=True)
    for m in ("accuracy", "roc_auc"):
        ours = result.scores.query("metric == @m")["score"].to_numpy()
        np.testing.assert_allclose(ours, expected[f"test_{m}"], rtol=0, atol=1e-12, err_msg=m)
    thresholds = result.thresholds
    assert list(thresholds.columns) == ["model", "repeat", "fold", "threshold", "inner_score",
                                        "positive_class"]
    assert (thresholds["positive_class"] == "benign").all()     # code 1, the threshold's class
    for fold, (fitted, test, (_, row)) in enumerate(zip(  # noqa: B007 (the query reads it)
            expected["estimator"], expected["indices"]["test"], thresholds.iterrows())):
        assert row["threshold"] == pytest.approx(fitted.best_threshold_, abs=1e-12)
        assert row["inner_score"] == pytest.approx(fitted.best_score_, abs=1e-12)
        kept = result.predictions.query("fold == @fold + 1")
        np.testing.assert_array_equal(kept["row"].to_numpy(), test)
        np.testing.assert_array_equal(kept["predicted"].to_numpy(), fitted.predict(X[test]))


@pytest.mark.slow
def test_threshold_around_the_grid_search():
    dataset = load_builtin("breast_cancer")
    config = CVConfig(n_splits=3, n_repeats=1, random_state=0)
    spec, = expand_models([{"name": "lr", "estimator": "LogisticRegression", "scale": True,
                            "params": {"max_iter": 2000},
                            "tune": {"grid": {"C": [0.01, 1]}, "inner_splits": 2,
                                     "optimism": False},
                            "threshold": {"scoring": "balanced_accuracy", "inner_splits": 2}}])
    result = run_to_end(run_cv(dataset, [spec], config, ["balanced_accuracy"]))
    pipe = make_pipeline(_plain(spec), dataset=dataset)
    peer = TunedThresholdClassifierCV(
        GridSearchCV(pipe, {"model__C": [0.01, 1]}, scoring="balanced_accuracy", cv=2),
        scoring="balanced_accuracy", cv=2, random_state=0)
    expected = cross_val_score(peer, _X(dataset), dataset.y, cv=_outer(config),
                               scoring="balanced_accuracy")
    np.testing.assert_allclose(result.scores["score"].to_numpy(), expected, rtol=0, atol=1e-12)
    assert len(result.tuning) == 3 and len(result.thresholds) == 3


def test_cost_scorer_by_hand():
    y = np.array([0, 0, 0, 1, 1])
    pred = np.array([0, 1, 1, 0, 1])
    cost = [[0.0, 1.0], [5.0, -2.0]]         # tn, fp / fn, tp
    # one tn (0), two fp (1 each), one fn (5), one tp (-2): 0 + 2 + 5 - 2 = 5 over 5 rows
    assert cost_score(y, pred, cost, [0, 1]) == pytest.approx(-1.0)
    # the positive class is code 0: the matrix's rows and columns swap
    assert cost_score(y, pred, cost, [1, 0]) == pytest.approx(-(1 * 0 + 1 * 1 + 2 * 5 - 2) / 5)

    class Fixed(ClassifierMixin, BaseEstimator):     # a classifier predicting ``pred``
        classes_ = np.array([0, 1])

        def predict(self, X):
            return pred

    assert cost_scorer(cost)(Fixed(), np.zeros((5, 1)), y) == pytest.approx(-1.0)
    counts = confusion_matrix(y, pred)
    assert -float((counts * np.array(cost)).sum()) / 5 == pytest.approx(-1.0)


@pytest.mark.slow
def test_same_numbers_with_two_workers():
    dataset = load_builtin("breast_cancer")
    config = CVConfig(n_splits=3, n_repeats=1, random_state=0)
    specs = expand_models([
        {"name": "svc", "estimator": "SVC", "scale": True,
         "tune": {"grid": {"C": [0.1, 1]}, "inner_splits": 3}},
        {"name": "lr", "estimator": "LogisticRegression", "scale": True,
         "params": {"max_iter": 2000}, "threshold": {"cost": [[0, 1], [4, 0]]}}])
    serial = run_to_end(run_cv(dataset, specs, config, ["roc_auc", "accuracy"]))
    parallel = run_to_end(run_cv(dataset, specs, config, ["roc_auc", "accuracy"], n_jobs=2))
    pd.testing.assert_frame_equal(serial.scores.drop(columns="fit_seconds"),
                                  parallel.scores.drop(columns="fit_seconds"))
    for table in ("tuning", "thresholds", "tuning_optimism", "predictions"):
        pd.testing.assert_frame_equal(getattr(serial, table), getattr(parallel, table))


def _parse(model):
    return parse_experiment({"dataset": {"builtin": "iris"}, "models": [model],
                             "metrics": ["accuracy"]})


@pytest.mark.parametrize("model, message", [
    ({"estimator": "SVC", "tune": {"grid": {"C": [1, -1]}}}, "models[0].tune.grid.C"),
    ({"estimator": "SVC", "tune": {"grid": {"colour": [1]}}}, "models[0].tune.grid.colour"),
    ({"estimator": "SVC", "tune": {"grid": {"C": [1]}, "scoring": "r2"}},
     "models[0].tune.scoring"),
    ({"estimator": "SVC", "tune": {"grid": {}}}, "models[0].tune"),
    ({"estimator": "SVC", "grid": {"C": [1, 2]}, "tune": {"grid": {"C": [1]}}},
     "models[0].tune"),
    ({"estimator": "SVC", "threshold": {"cost": [[0, 1, 2], [1, 0, 2]]}},
     "models[0].threshold.cost"),
    ({"estimator": "SVC", "threshold": {"cost": [[1, 1], [1, 1]]}}, "models[0].threshold.cost"),
    ({"estimator": "SVC", "threshold": {"scoring": "roc_auc"}}, "models[0].threshold.scoring"),
    ({"estimator": "SVC", "threshold": {"scoring": "f1", "cost": [[0, 1], [1, 0]]}},
     "models[0].threshold"),
])
def test_bad_blocks_are_refused_naming_the_place(model, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")
                       .replace(".", r"\.")):
        _parse(model)


@pytest.mark.parametrize("model, code, fields", [
    ({"estimator": "SVC", "tune": {"grid": {"colour": [1]}}}, "unknown_parameter",
     {"parameter": "colour", "place": "models[0].tune.grid.colour"}),
    ({"estimator": "SVC", "grid": {"C": [1, 2]}, "tune": {"grid": {"C": [1]}}},
     "tuned_and_grid", {"parameters": ("C",), "place": "models[0].tune"}),
    ({"estimator": "SVC", "threshold": {"cost": [[1, 1], [1, 1]]}}, "cost_matrix_flat",
     {"place": "models[0].threshold.cost"}),
])
def test_bad_blocks_are_coded(model, code, fields):
    with pytest.raises(ValueError) as caught:
        _parse(model)
    assert error_code(caught.value) == code
    assert {k: error_fields(caught.value)[k] for k in fields} == fields


def test_threshold_refuses_three_classes():
    spec, = expand_models([{"estimator": "LogisticRegression", "params": {"max_iter": 500},
                            "threshold": {"scoring": "balanced_accuracy"}}])
    with pytest.raises(ValueError) as caught:
        run_to_end(run_cv(load_builtin("iris"), [spec], CVConfig(3, 1, 0), ["accuracy"]))
    assert error_code(caught.value) == "threshold_two_class_only"
    assert dict(error_fields(caught.value)) == {"model": spec.name, "n_classes": 3}


def test_file_keeps_the_blocks_and_scoring_defaults_to_the_first_metric():
    tune = {"grid": {"C": [0.1, 1]}}
    data = {"dataset": {"builtin": "moons"}, "metrics": ["balanced_accuracy", "roc_auc"],
            "models": [{"name": "svc", "estimator": "SVC", "tune": tune,
                        "threshold": {"scoring": "f1"}}]}
    experiment = parse_experiment(data)
    assert experiment.models[0].tune["scoring"] == "balanced_accuracy"
    assert experiment.models[0].tune["inner_splits"] == 5
    saved = experiment.to_json()["models"][0]
    assert saved["tune"] == tune and saved["threshold"] == {"scoring": "f1"}
    assert parse_experiment(experiment.to_json()).models == experiment.models
    # no metric named: the default metric for the data's classes
    del data["metrics"]
    filled = parse_experiment(data).with_metrics_for(2)
    assert filled.models[0].tune["scoring"] == "roc_auc"


def test_the_guard_counts_the_fits_inside_the_folds():
    from engine.runs import guards

    models = [{"name": "plain", "estimator": "GaussianNB"},
              {"name": "tuned", "estimator": "SVC",
               "tune": {"grid": {"C": [1, 2, 3], "gamma": [0.1, 1]}, "inner_splits": 4}},
              {"name": "both", "estimator": "SVC",
               "tune": {"grid": {"C": [1, 2]}, "inner_splits": 3, "optimism": False},
               "threshold": {"scoring": "f1", "inner_splits": 2}}]
    experiment = parse_experiment({"dataset": {"builtin": "moons"}, "models": models,
                                   "cv": {"n_splits": 5, "n_repeats": 2}})
    assessment = guards.check_run(experiment, load_builtin("moons"), n_jobs=1)
    # plain 1; tuned 6 x 4 + 1 search fits + 6 members; both (2 x 3 + 1) x (2 + 1)
    assert assessment.n_cv_fits == 10 * (1 + (6 * 4 + 1 + 6) + 7 * 3)
    search = make_pipeline(experiment.models[1], dataset=load_builtin("moons"))
    assert search.cv == 4 and len(ParameterGrid(search.param_grid)) == 6
