"""Resampling inside the training folds (issue #14): scores equal imbalanced-learn's own
pipeline under scikit-learn's cross_val_score, and a sampler never touches a test fold."""
import json

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from engine.evaluation.aloocv import run_aloocv
from engine.runs.analysis import run_experiment
from engine.evaluation.catalogue import expand_models, make_pipeline, split_pipeline
from engine.evaluation.cv import CVConfig, fit_and_score, make_splits
from engine.input.data import dataset_from_frame
from engine.evaluation.experiment import AloocvSettings, experiment_json_text, parse_experiment
from engine.foundation.progress import run_to_end
from tests.peers import peer

imblearn = peer("imblearn")
from imblearn.over_sampling import SMOTE, RandomOverSampler  # noqa: E402
from imblearn.pipeline import make_pipeline as imb_pipeline  # noqa: E402
from imblearn.under_sampling import RandomUnderSampler  # noqa: E402

SAMPLERS = {"over": RandomOverSampler, "under": RandomUnderSampler, "smote": SMOTE}


@pytest.fixture(scope="module")
def skewed():
    X, y = make_classification(240, n_features=5, n_informative=3, weights=[0.85],
                               random_state=1)
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(5)])
    frame["y"] = y
    return dataset_from_frame(frame, "y", name="skewed")


def run(dataset, models, metrics, seed=0):
    data = {"dataset": {"builtin": "iris"}, "models": models, "metrics": metrics,
            "cv": {"n_splits": 4, "n_repeats": 2, "random_state": seed}}
    return run_to_end(run_experiment(parse_experiment(data), n_jobs=1, dataset=dataset))


@pytest.mark.parametrize("kind", ["over", "under", "smote"])
def test_resampled_scores_equal_cross_val_score_of_imblearn_pipeline(skewed, kind):
    models = [{"name": "tree", "estimator": "DecisionTreeClassifier", "resample": kind,
               "params": {"random_state": 3, "max_depth": 3}},
              {"name": "knn", "estimator": "KNeighborsClassifier", "resample": kind,
               "scale": True}]
    result = run(skewed, models, ["balanced_accuracy", "roc_auc"], seed=5)
    folds = RepeatedStratifiedKFold(n_splits=4, n_repeats=2, random_state=5)
    X, y = skewed.X.to_numpy(), skewed.y
    peers = {   # the tree's sampler gets its own random_state, the k-NN's the CV seed
        "tree": imb_pipeline(SAMPLERS[kind](random_state=3),
                             DecisionTreeClassifier(random_state=3, max_depth=3)),
        "knn": imb_pipeline(StandardScaler(), SAMPLERS[kind](random_state=5),
                            KNeighborsClassifier())}
    for name, pipeline in peers.items():
        for metric in ("balanced_accuracy", "roc_auc"):
            ours = result.cv.scores.query("model == @name and metric == @metric")["score"]
            theirs = cross_val_score(pipeline, X, y, cv=folds, scoring=metric)
            np.testing.assert_allclose(ours.to_numpy(), theirs, err_msg=f"{name} {metric}")
    # n_train is the training fold as split, before resampling
    first = result.cv.scores.drop_duplicates(["repeat", "fold"])
    assert set(first["n_train"] + first["n_test"]) == {len(y)}


def test_resampling_changes_the_scores(skewed):
    plain = run(skewed, [{"name": "m", "estimator": "KNeighborsClassifier"}], ["recall"])
    over = run(skewed, [{"name": "m", "estimator": "KNeighborsClassifier",
                         "resample": "over"}], ["recall"])
    assert over.summary["mean"].iloc[0] > plain.summary["mean"].iloc[0]


class Spy(ClassifierMixin, BaseEstimator):
    """Records the rows it is fitted on and the rows it predicts (a class-wide log, as a
    fitted copy is made inside fit_and_score)."""

    log: list = []

    def fit(self, X, y):
        Spy.log.append(("fit", np.array(X, copy=True), np.array(y, copy=True)))
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        Spy.log.append(("predict", np.array(X, copy=True), None))
        proba = np.full((len(X), len(self.classes_)), 1.0 / len(self.classes_))
        return proba

    def predict(self, X):
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]


@pytest.mark.parametrize("kind", ["over", "under", "smote"])
def test_samplers_never_touch_a_test_fold(skewed, kind):
    spec = expand_models([{"estimator": "GaussianNB", "resample": kind}], random_state=0)[0]
    pipeline = make_pipeline(spec, dataset=skewed)
    assert [name for name, _ in pipeline.steps] == ["resample", "model"]
    pipeline.set_params(model=Spy())
    X, y = skewed.X.to_numpy(), skewed.y
    for train, test in make_splits(y, CVConfig(n_splits=4, n_repeats=1, random_state=0)):
        Spy.log.clear()
        outcome = fit_and_score(pipeline, X, y, train, test, ["accuracy"], [0, 1])
        assert outcome.error is None
        fits = [entry for entry in Spy.log if entry[0] == "fit"]
        predicts = [entry for entry in Spy.log if entry[0] == "predict"]
        assert len(fits) == 1 and predicts
        _, fitted_X, fitted_y = fits[0]
        counts = np.bincount(fitted_y)
        assert counts[0] == counts[1]                 # the training rows were resampled
        assert len(fitted_y) != len(train)
        for _, seen, _ in predicts:                   # the test fold, untouched
            np.testing.assert_array_equal(seen, X[test])
        assert len(outcome.labels) == len(test)


def test_resampled_predictions_cover_each_test_row_once(skewed):
    result = run(skewed, [{"name": "m", "estimator": "GaussianNB", "resample": "smote"}],
                 ["accuracy"])
    predictions = result.cv.predictions
    for _, rows in predictions.groupby("repeat"):
        assert sorted(rows["row"]) == list(range(skewed.n_rows))


def test_resample_seed_and_saved_file(tmp_path):
    data = {"dataset": {"builtin": "iris"}, "cv": {"random_state": 9},
            "models": [{"name": "nb", "estimator": "GaussianNB", "resample": "smote"},
                       {"name": "rf", "estimator": "RandomForestClassifier",
                        "resample": "under", "params": {"random_state": 2}},
                       {"name": "plain", "estimator": "GaussianNB"}]}
    experiment = parse_experiment(data)
    assert [(m.resample, m.resample_seed) for m in experiment.models] == \
        [("smote", 9), ("under", 2), (None, None)]
    saved = json.loads(experiment_json_text(experiment))
    assert [m.get("resample") for m in saved["models"]] == ["smote", "under", None]
    assert parse_experiment(saved).models == experiment.models
    assert experiment.models[0].to_json()["resample"] == "smote"


def test_split_pipeline_leaves_the_sampler_out(skewed):
    spec = expand_models([{"estimator": "LogisticRegression", "resample": "over",
                           "scale": True}], random_state=0)[0]
    prep, model = split_pipeline(make_pipeline(spec, dataset=skewed))
    assert [name for name, _ in prep.steps] == ["scale"]
    assert type(model).__name__ == "LogisticRegression"


def test_aloocv_leaves_resampled_models_out(skewed):
    specs = expand_models([{"name": "lr", "estimator": "LogisticRegression",
                            "resample": "over"}], random_state=0)
    result = run_to_end(run_aloocv(skewed, specs, AloocvSettings(n_C=3)))
    notes = [n for n in result.notes if n.code == "alo_not_applicable"]
    assert notes[0].fields["reason"] == "resample"
