"""Fits of a bare estimator on finite rows skip scikit-learn's repeated finiteness checks
(``assume_finite``), with the very numbers of ``cross_validate``; nothing else does."""
import numpy as np
import pytest
import sklearn
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.calibration import CalibratedClassifierCV
from sklearn.ensemble import (BaggingClassifier, GradientBoostingClassifier,
                              RandomForestClassifier, StackingClassifier)
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold, cross_validate
from sklearn.pipeline import make_pipeline as sk_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from engine.evaluation.catalogue import expand_models
from engine.evaluation.cv import (CVConfig, checked_finite, fit_and_score,
                                  learns_from_rows_alone, run_cv)
from engine.foundation.progress import run_to_end
from engine.input.data import load_builtin

pytestmark = pytest.mark.timeout(300)


class ConfigSpy(ClassifierMixin, BaseEstimator):
    """Records scikit-learn's ``assume_finite`` setting while it is fitted."""

    def fit(self, X, y):
        self.assumed_finite_ = sklearn.get_config()["assume_finite"]
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        return np.full((len(X), len(self.classes_)), 1 / len(self.classes_))


@pytest.mark.parametrize("model, expected", [
    (RandomForestClassifier(), True), (GradientBoostingClassifier(), True), (SVC(), True),
    (BaggingClassifier(SVC()), True),
    (sk_pipeline(StandardScaler(), SVC()), False), (GridSearchCV(SVC(), {}), False),
    (CalibratedClassifierCV(SVC()), False), (StackingClassifier([("svc", SVC())]), False),
    (BaggingClassifier(sk_pipeline(StandardScaler(), SVC())), False)])
def test_only_models_learning_from_the_rows_alone(model, expected):
    assert learns_from_rows_alone(model) is expected


def test_only_finite_float_arrays():
    rows = np.arange(12.0).reshape(6, 2)
    assert checked_finite(SVC(), rows)
    for bad in (np.inf, -np.inf, np.nan):
        spoiled = rows.copy()
        spoiled[3, 1] = bad
        assert not checked_finite(SVC(), spoiled)
    assert not checked_finite(SVC(), rows.astype(int))
    assert not checked_finite(sk_pipeline(StandardScaler(), SVC()), rows)


def test_the_setting_reaches_the_fit_and_goes_no_further():
    X = np.random.default_rng(0).normal(size=(40, 3))
    y = np.arange(40) % 2
    train, test = np.arange(30), np.arange(30, 40)
    fitted = []

    class Spy(ConfigSpy):
        def fit(self, X, y):
            fitted.append(self)
            return super().fit(X, y)

    fit_and_score(Spy(), X, y, train, test, ["roc_auc"], np.array([0, 1]))
    X_nan = X.copy()
    X_nan[0, 0] = np.nan
    fit_and_score(Spy(), X_nan, y, train, test, ["roc_auc"], np.array([0, 1]))
    assert [spy.assumed_finite_ for spy in fitted] == [True, False]
    assert sklearn.get_config()["assume_finite"] is False


def test_scores_and_predictions_equal_cross_validate():
    dataset = load_builtin("breast_cancer")
    specs = expand_models([
        {"name": "forest", "estimator": "RandomForestClassifier",
         "params": {"n_estimators": 15, "random_state": 0}},
        {"name": "boosting", "estimator": "GradientBoostingClassifier",
         "params": {"n_estimators": 15, "random_state": 0}},
        {"name": "svc", "estimator": "SVC", "params": {"random_state": 0}}])
    config = CVConfig(n_splits=5, n_repeats=2, random_state=1)
    result = run_to_end(run_cv(dataset, specs, config, ["roc_auc", "accuracy"]))
    splitter = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=1)
    peers = {"forest": RandomForestClassifier(n_estimators=15, random_state=0),
             "boosting": GradientBoostingClassifier(n_estimators=15, random_state=0),
             "svc": SVC(random_state=0)}
    for name, peer in peers.items():
        found = cross_validate(peer, dataset.X.to_numpy(), dataset.y, cv=splitter,
                               scoring=["roc_auc", "accuracy"])
        for metric in ("roc_auc", "accuracy"):
            ours = result.scores.query("model == @name and metric == @metric")["score"]
            np.testing.assert_allclose(ours.to_numpy(), found[f"test_{metric}"],
                                       rtol=0, atol=1e-15, err_msg=f"{name} {metric}")
