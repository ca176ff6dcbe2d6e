"""Cross-validation runner: exactly scikit-learn's splits and scores, cancel, failures."""
import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score

from engine.evaluation.catalogue import ModelSpec, expand_models, make_pipeline
from engine.evaluation.cv import CVConfig, make_splits, run_cv
from engine.input.data import dataset_from_frame, load_builtin
from engine.foundation.progress import Progress, run_to_end


def _sk_scores(dataset, spec, config, metric):
    splitter = RepeatedStratifiedKFold(n_splits=config.n_splits, n_repeats=config.n_repeats,
                                       random_state=config.random_state)
    X = dataset.X if not dataset.is_plain_numeric() else dataset.X.to_numpy()
    return cross_val_score(make_pipeline(spec, dataset=dataset), X, dataset.y, cv=splitter,
                           scoring=metric)


@pytest.mark.parametrize("name, entries, metrics", [
    ("breast_cancer",
     [{"name": "logistic", "estimator": "LogisticRegression", "scale": True,
       "params": {"max_iter": 2000}},
      {"name": "nb", "estimator": "GaussianNB"}],
     ["roc_auc", "accuracy", "neg_log_loss", "balanced_accuracy", "f1", "neg_brier_score",
      "average_precision"]),
    ("iris",
     [{"name": "knn", "estimator": "KNeighborsClassifier", "scale": True},
      {"name": "tree", "estimator": "DecisionTreeClassifier", "params": {"random_state": 0}}],
     ["accuracy", "roc_auc_ovr", "f1_macro", "neg_log_loss", "balanced_accuracy"]),
])
@pytest.mark.slow
def test_fold_scores_equal_cross_val_score(name, entries, metrics):
    dataset = load_builtin(name)
    config = CVConfig(n_splits=5, n_repeats=2, random_state=3)
    specs = expand_models(entries)
    result = run_to_end(run_cv(dataset, specs, config, metrics))
    for spec in specs:
        for metric in metrics:
            ours = result.scores.query("model == @spec.name and metric == @metric")["score"]
            np.testing.assert_allclose(ours.to_numpy(), _sk_scores(dataset, spec, config, metric),
                                       rtol=1e-12, atol=1e-12, err_msg=f"{spec.name} {metric}")
    assert result.failures.query("kind == 'error'").empty


@pytest.mark.slow
def test_parallel_gives_identical_numbers():
    dataset = load_builtin("wine")
    specs = expand_models([{"name": "forest", "estimator": "RandomForestClassifier",
                            "params": {"n_estimators": 20, "random_state": 0}},
                           {"name": "lda", "estimator": "LinearDiscriminantAnalysis"}])
    config = CVConfig(n_splits=3, n_repeats=2, random_state=0)
    serial = run_to_end(run_cv(dataset, specs, config, ["accuracy", "neg_log_loss"]))
    parallel = run_to_end(run_cv(dataset, specs, config, ["accuracy", "neg_log_loss"], n_jobs=2))
    pd.testing.assert_frame_equal(serial.scores.drop(columns="fit_seconds"),
                                  parallel.scores.drop(columns="fit_seconds"))
    pd.testing.assert_frame_equal(serial.predictions, parallel.predictions)


def test_progress_and_out_of_fold_predictions():
    dataset = load_builtin("moons")
    specs = expand_models([{"name": "svc", "estimator": "SVC"},
                           {"name": "svc_p", "estimator": "SVC",
                            "params": {"probability": True, "random_state": 0}}])
    records = []
    result = run_to_end(run_cv(dataset, specs, CVConfig(5, 3, 0), ["roc_auc"]),
                        on_progress=records.append)
    assert [r.done for r in records] == list(range(1, 31))
    assert all(r.total == 30 for r in records)
    assert records[0].detail.model == "svc" and "roc_auc" in records[0].detail.scores
    assert result.prediction_kind == {"svc": "decision", "svc_p": "proba"}
    preds = result.predictions
    # every row appears once per repeat per model
    counts = preds.groupby(["model", "repeat"])["row"].nunique()
    assert (counts == dataset.n_rows).all()
    proba = preds[preds.model == "svc_p"][["score_0", "score_1"]].to_numpy()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_cancel_between_folds():
    dataset = load_builtin("moons")
    specs = expand_models([{"estimator": "SVC"}])
    job = run_cv(dataset, specs, CVConfig(10, 10, 0), ["roc_auc"])
    first = [next(job) for _ in range(3)]
    job.close()  # the consumer cancels
    assert isinstance(first[-1], Progress) and first[-1].done == 3
    with pytest.raises(StopIteration):
        next(job)


def test_cancel_parallel_run_stops_early():
    dataset = load_builtin("breast_cancer")
    specs = expand_models([{"name": "forest", "estimator": "RandomForestClassifier",
                            "params": {"n_estimators": 30, "random_state": 0}}])
    job = run_cv(dataset, specs, CVConfig(10, 10, 0), ["accuracy"], n_jobs=2)
    record = next(job)
    job.close()
    assert record.done == 1


def test_failures_are_recorded_and_others_go_on():
    dataset = load_builtin("iris")
    specs = [ModelSpec("broken", "GaussianNB", {"priors": [0.5, 0.5, 0.5]}),
             ModelSpec("mlp", "MLPClassifier", {"max_iter": 2, "random_state": 0}),
             ModelSpec("lda", "LinearDiscriminantAnalysis")]
    result = run_to_end(run_cv(dataset, specs, CVConfig(3, 1, 0), ["accuracy"]))
    broken = result.scores.query("model == 'broken'")
    assert broken["score"].isna().all()
    errors = result.failures.query("model == 'broken' and kind == 'error'")
    assert len(errors) == 3 and "priors" in errors["message"].iloc[0].lower()
    warnings = result.failures.query("model == 'mlp' and kind == 'warning'")
    assert len(warnings) == 3 and "ConvergenceWarning" in warnings["message"].iloc[0]
    assert result.scores.query("model == 'lda'")["score"].notna().all()


def test_categorical_and_missing_values_are_handled_inside_the_folds():
    rng = np.random.default_rng(0)
    n = 120
    frame = pd.DataFrame({
        "size": rng.normal(size=n),
        "colour": rng.choice(["red", "green", "blue"], size=n).astype(object),
        "label": np.where(rng.random(n) < 0.5, "yes", "no"),
    })
    frame.loc[::7, "size"] = np.nan
    frame.loc[::11, "colour"] = None
    dataset = dataset_from_frame(frame, "label")
    specs = expand_models([{"name": "logistic", "estimator": "LogisticRegression",
                            "scale": True}])
    result = run_to_end(run_cv(dataset, specs, CVConfig(4, 2, 0), ["accuracy"]))
    assert result.scores["score"].notna().all()
    np.testing.assert_allclose(result.scores["score"],
                               _sk_scores(dataset, specs[0], CVConfig(4, 2, 0), "accuracy"))


def test_too_few_rows_per_class_is_a_clear_error():
    frame = pd.DataFrame({"x": np.arange(30.0), "y": ["a"] * 27 + ["b"] * 3})
    dataset = dataset_from_frame(frame, "y")
    with pytest.raises(ValueError, match="only 3 row.*lower the number of folds to 3"):
        make_splits(dataset.y, CVConfig(5, 1, 0))


def test_metric_errors_are_clear():
    dataset = load_builtin("iris")
    specs = expand_models([{"estimator": "GaussianNB"}])
    with pytest.raises(ValueError, match="roc_auc_ovr"):
        next(run_cv(dataset, specs, CVConfig(3, 1, 0), ["roc_auc"]))
    with pytest.raises(ValueError, match='unknown metric "auc"'):
        next(run_cv(dataset, specs, CVConfig(3, 1, 0), ["auc"]))
