"""Grouped rows inside the folds (issue #14): calibration, nested tuning and thresholds
split each outer training part by groups too; ALOOCV on grouped rows says it is optimistic.

Every number is checked against scikit-learn computed independently (metadata routing
passing the groups, or a hand loop over the outer folds). The data are the worked
example's repeated subjects (resources/dev/make_repeated_subjects.py): 40 subjects with
5 to 10 visits each and a personal fingerprint, so a leak through the inner folds shows.
"""
import importlib.util
import os

import numpy as np
import pandas as pd
import pytest
from engine.foundation.errors import error_code, error_fields
import sklearn
from sklearn.calibration import CalibratedClassifierCV
from sklearn.model_selection import (GridSearchCV, StratifiedGroupKFold,
                                     TunedThresholdClassifierCV, cross_validate)
from sklearn.naive_bayes import GaussianNB

import engine.evaluation.calibration.analysis as calibration
from engine.evaluation.aloocv import run_aloocv
from engine.runs.analysis import run_experiment
from engine.evaluation.catalogue import ModelSpec, expand_models, make_pipeline
from engine.evaluation.cv import CVConfig, make_splits, run_cv
from engine.input.data import dataset_from_frame
from engine.evaluation.experiment import AloocvSettings, CalibrationSettings, parse_experiment
from engine.runs.fingerprint import KEY_FORMAT, environment_record
from engine.foundation.progress import run_to_end
from engine.evaluation.tuning import uses_groups, wrap_model
from tests.peers import peer
from tests.helpers import Recorder

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG = CVConfig(n_splits=4, n_repeats=2, random_state=3)


def _repeated_subjects() -> pd.DataFrame:
    path = os.path.join(HERE, "..", "resources", "dev", "make_repeated_subjects.py")
    spec = importlib.util.spec_from_file_location("make_repeated_subjects", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.repeated_subjects()


@pytest.fixture(scope="module")
def subjects():
    frame = _repeated_subjects().drop(columns=["visit"])
    return dataset_from_frame(frame, "condition", name="repeated subjects", groups="subject",
                              source={"csv": "repeated_subjects.csv", "groups": "subject"})


def _X(dataset):
    return dataset.X.to_numpy(dtype=float)


def _outer(dataset, config=CONFIG):
    """The grouped outer splits, drawn here with scikit-learn itself."""
    splits = []
    for repeat in range(config.n_repeats):
        splitter = StratifiedGroupKFold(config.n_splits, shuffle=True,
                                        random_state=config.random_state + repeat)
        splits += list(splitter.split(_X(dataset), dataset.y, dataset.groups))
    return splits


def _plain(spec):
    return ModelSpec(spec.name, spec.estimator, dict(spec.params), spec.scale)


# ----------------------------------------------------------------------------- calibration

@pytest.fixture(scope="module")
def calibrated(subjects):
    models = expand_models([{"name": "nb", "estimator": "GaussianNB"}])
    cv = run_to_end(run_cv(subjects, models, CONFIG, ["roc_auc"]))
    settings = CalibrationSettings(methods=("isotonic", "sigmoid"))
    return cv, run_to_end(run_calibration_(subjects, cv, models, settings))


def run_calibration_(dataset, cv, models, settings, inner_splits=3):
    return calibration.run_calibration(dataset, cv, models, settings, inner_splits=inner_splits)


@pytest.mark.parametrize("method", ["isotonic", "sigmoid"])
def test_grouped_calibration_equals_sklearn_with_grouped_inner_pairs(subjects, calibrated,
                                                                     method):
    _, result = calibrated
    X, y, groups = _X(subjects), subjects.y, subjects.groups
    probs = result.probabilities.query("model == 'nb' and method == @method")
    for split, (train, test) in enumerate(_outer(subjects)):
        seed = int(np.random.SeedSequence([CONFIG.random_state, split]).generate_state(1)[0])
        inner = list(StratifiedGroupKFold(3, shuffle=True, random_state=seed)
                     .split(X[train], y[train], groups[train]))
        expected = CalibratedClassifierCV(GaussianNB(), method=method, cv=inner) \
            .fit(X[train], y[train]).predict_proba(X[test])
        repeat, fold = divmod(split, CONFIG.n_splits)
        part = probs[(probs["repeat"] == repeat + 1) & (probs["fold"] == fold + 1)]
        np.testing.assert_array_equal(part["row"].to_numpy(), np.sort(test))
        np.testing.assert_allclose(part[["prob_0", "prob_1"]].to_numpy(), expected,
                                   rtol=1e-12, atol=1e-15)
    note = next(n for n in result.notes if n.code == "calibration_method")
    assert note.fields["grouped"] is True and "keeps the rows of a group together" in str(note)


def test_no_inner_calibration_fold_shares_a_group_with_its_fit(subjects, monkeypatch):
    frame = _repeated_subjects().drop(columns=["visit"])
    frame.insert(0, "row_id", np.arange(len(frame), dtype=float))
    dataset = dataset_from_frame(frame, "condition", name="ids", groups="subject")
    models = expand_models([{"name": "lr", "estimator": "LogisticRegression"}])
    cv = run_to_end(run_cv(dataset, models, CVConfig(4, 1, 0), ["roc_auc"]))
    calls = []

    def spy(estimator, X, y, train, test, *rest):
        Recorder.log = []
        outcome = original(estimator, X, y, train, test, *rest)
        calls.append((train, test, list(Recorder.log)))
        return outcome

    original = calibration.calibrate_fold
    monkeypatch.setattr(calibration, "make_pipeline", lambda spec, dataset: Recorder())
    monkeypatch.setattr(calibration, "calibrate_fold", spy)
    run_to_end(calibration.run_calibration(dataset, cv, models,
                                           CalibrationSettings(methods=("sigmoid",)),
                                           inner_splits=3))
    groups = dataset.groups
    assert len(calls) == 4
    for train, _test, log in calls:
        fits = [rows for what, rows in log if what == "fit"]
        held_out = [rows for what, rows in log if what == "predict"][:3]
        assert len(fits) == 3
        for fitted, calibrated_on in zip(fits, held_out):      # one inner fold each
            assert not np.intersect1d(groups[fitted], groups[calibrated_on]).size
            assert np.isin(fitted, train).all() and np.isin(calibrated_on, train).all()
        np.testing.assert_array_equal(np.sort(np.concatenate(held_out)), np.sort(train))


@pytest.mark.slow
def test_grouped_calibration_of_a_tuned_model_routes_the_groups(subjects):
    models = expand_models([{"name": "lr", "estimator": "LogisticRegression", "scale": True,
                             "tune": {"grid": {"C": [0.01, 1]}, "inner_splits": 2,
                                      "optimism": False}}])
    config = CVConfig(3, 1, 0)
    cv = run_to_end(run_cv(subjects, models, config, ["roc_auc"]))
    result = run_to_end(calibration.run_calibration(
        subjects, cv, models, CalibrationSettings(methods=("sigmoid",)), inner_splits=2))
    X, y, groups = _X(subjects), subjects.y, subjects.groups
    train, test = make_splits(y, config, groups)[0]
    seed = int(np.random.SeedSequence([0, 0]).generate_state(1)[0])
    inner = list(StratifiedGroupKFold(2, shuffle=True, random_state=seed)
                 .split(X[train], y[train], groups[train]))
    pipe = make_pipeline(_plain(models[0]), dataset=subjects)
    search = GridSearchCV(pipe, {"model__C": [0.01, 1]}, scoring="roc_auc",
                          cv=StratifiedGroupKFold(2))
    with sklearn.config_context(enable_metadata_routing=True):
        expected = CalibratedClassifierCV(search, method="sigmoid", cv=inner) \
            .fit(X[train], y[train], groups=groups[train]).predict_proba(X[test])
    part = result.probabilities.query("method == 'sigmoid' and repeat == 1 and fold == 1")
    np.testing.assert_allclose(part[["prob_0", "prob_1"]].to_numpy(), expected, rtol=1e-12)
    assert not any(n.code == "calibration_folds_failed" for n in result.notes)


def test_too_few_groups_for_the_inner_calibration_split_is_a_clear_error(subjects, calibrated):
    cv, _ = calibrated
    models = expand_models([{"name": "nb", "estimator": "GaussianNB"}])
    with pytest.raises(ValueError, match=r"only 1[0-9] group\(s\) of rows that belong together.*"
                                         r"lower inner_splits to 1[0-9] or fewer"):
        run_to_end(run_calibration_(subjects, cv, models,
                                    CalibrationSettings(methods=("sigmoid",)), inner_splits=20))


# ----------------------------------------------------------------------------- tuning

TUNED = {"name": "knn", "estimator": "KNeighborsClassifier", "scale": True,
         "tune": {"grid": {"n_neighbors": [1, 5, 25]}, "inner_splits": 3}}


@pytest.mark.slow
def test_grouped_nested_scores_equal_metadata_routed_cross_validate(subjects):
    spec, = expand_models([TUNED])
    result = run_to_end(run_cv(subjects, [spec], CONFIG, ["roc_auc", "accuracy"]))
    pipe = make_pipeline(_plain(spec), dataset=subjects)
    search = GridSearchCV(pipe, {"model__n_neighbors": [1, 5, 25]}, scoring="roc_auc",
                          cv=StratifiedGroupKFold(3), refit=True)
    X, y, groups = _X(subjects), subjects.y, subjects.groups
    expected = {"roc_auc": [], "accuracy": []}
    peers = []
    with sklearn.config_context(enable_metadata_routing=True):
        for repeat in range(CONFIG.n_repeats):
            outer = StratifiedGroupKFold(CONFIG.n_splits, shuffle=True,
                                         random_state=CONFIG.random_state + repeat)
            found = cross_validate(search, X, y, cv=outer, params={"groups": groups},
                                   scoring=["roc_auc", "accuracy"], return_estimator=True)
            for metric in expected:
                expected[metric] += list(found[f"test_{metric}"])
            peers += found["estimator"]
    for metric, scores in expected.items():
        ours = result.scores.query("metric == @metric")["score"].to_numpy()
        np.testing.assert_allclose(ours, scores, rtol=0, atol=1e-12, err_msg=metric)
    for fitted, (_, row) in zip(peers, result.tuning.iterrows()):
        assert row["n_neighbors"] == fitted.best_params_["model__n_neighbors"]
        assert row["inner_score"] == pytest.approx(fitted.best_score_, abs=1e-12)


def test_grouped_nested_choice_equals_a_hand_loop_and_no_inner_split_mixes_groups(subjects):
    spec, = expand_models([TUNED])
    config = CVConfig(4, 1, 3)
    result = run_to_end(run_cv(subjects, [spec], config, ["roc_auc"]))
    X, y, groups = _X(subjects), subjects.y, subjects.groups
    pipe = make_pipeline(_plain(spec), dataset=subjects)
    for (train, test), (_, row), score in zip(
            _outer(subjects, config), result.tuning.iterrows(), result.scores["score"]):
        splitter = StratifiedGroupKFold(3)
        for inner_train, inner_test in splitter.split(X[train], y[train], groups[train]):
            assert not np.intersect1d(groups[train][inner_train],
                                      groups[train][inner_test]).size
        search = GridSearchCV(pipe, {"model__n_neighbors": [1, 5, 25]}, scoring="roc_auc",
                              cv=splitter).fit(X[train], y[train], groups=groups[train])
        assert row["n_neighbors"] == search.best_params_["model__n_neighbors"]
        assert score == pytest.approx(search.score(X[test], y[test]), abs=1e-12)


def _balanced(y_true, y_pred, pos_label=None):
    from sklearn.metrics import balanced_accuracy_score

    return balanced_accuracy_score(y_true, y_pred)


def _balanced_accuracy_of(positive):
    """Balanced accuracy as a scorer naming the positive class, so that
    TunedThresholdClassifierCV thresholds that class's probability."""
    from sklearn.metrics import make_scorer

    return make_scorer(_balanced, pos_label=positive)


@pytest.mark.slow
@pytest.mark.parametrize("block", [{"scoring": "balanced_accuracy"},
                                   {"cost": [[0, 1], [4, 0]], "inner_splits": 4}])
def test_grouped_thresholds_equal_a_hand_loop(subjects, block):
    from engine.evaluation.tuning import cost_scorer

    spec, = expand_models([{"name": "lr", "estimator": "LogisticRegression", "scale": True,
                            "threshold": block}])
    config = CVConfig(4, 1, 3)
    result = run_to_end(run_cv(subjects, [spec], config, ["accuracy"]))
    X, y, groups = _X(subjects), subjects.y, subjects.groups
    # the positive class is "no" (code 0, the smaller class): the scorer names it, so the
    # threshold is on P(no)
    scoring = (cost_scorer(block["cost"], pos_label=subjects.pos_label) if "cost" in block
               else _balanced_accuracy_of(subjects.pos_label))
    for (train, test), (_, row), score in zip(
            _outer(subjects, config), result.thresholds.iterrows(), result.scores["score"]):
        peer = TunedThresholdClassifierCV(make_pipeline(_plain(spec), dataset=subjects),
                                          scoring=scoring, random_state=0,
                                          cv=StratifiedGroupKFold(block.get("inner_splits", 5)))
        with sklearn.config_context(enable_metadata_routing=True):
            peer.fit(X[train], y[train], groups=groups[train])
        assert row["threshold"] == pytest.approx(peer.best_threshold_, abs=1e-12)
        assert row["inner_score"] == pytest.approx(peer.best_score_, abs=1e-12)
        assert score == pytest.approx(np.mean(peer.predict(X[test]) == y[test]), abs=1e-12)


@pytest.mark.slow
def test_grouped_threshold_around_the_grid_search(subjects):
    spec, = expand_models([{"name": "lr", "estimator": "LogisticRegression", "scale": True,
                            "tune": {"grid": {"C": [0.01, 1]}, "inner_splits": 2,
                                     "optimism": False},
                            "threshold": {"scoring": "balanced_accuracy", "inner_splits": 2}}])
    config = CVConfig(3, 1, 0)
    result = run_to_end(run_cv(subjects, [spec], config, ["balanced_accuracy"]))
    pipe = make_pipeline(_plain(spec), dataset=subjects)
    peer = TunedThresholdClassifierCV(
        GridSearchCV(pipe, {"model__C": [0.01, 1]}, scoring="balanced_accuracy",
                     cv=StratifiedGroupKFold(2)),
        scoring=_balanced_accuracy_of(subjects.pos_label), cv=StratifiedGroupKFold(2),
        random_state=0)
    assert_routed_scores(result, peer, subjects, 0, "balanced_accuracy")


def test_grouped_tuning_of_a_resampled_model_equals_routed_cross_validate(subjects):
    """imbalanced-learn's Pipeline inside the grouped search: the sampler resamples each
    inner training part only, and the groups still reach the inner splitter."""
    peer("imblearn")
    spec, = expand_models([{"name": "lr", "estimator": "LogisticRegression", "scale": True,
                            "resample": "smote",
                            "tune": {"grid": {"C": [0.01, 1]}, "inner_splits": 3,
                                     "optimism": False}}])
    spec = replace_tune(spec, tune=spec.tune, resample_seed=0)   # as an experiment seeds it
    config = CVConfig(3, 1, 1)
    result = run_to_end(run_cv(subjects, [spec], config, ["roc_auc"]))
    pipe = make_pipeline(replace_tune(spec), dataset=subjects)
    search = GridSearchCV(pipe, {"model__C": [0.01, 1]}, scoring="roc_auc",
                          cv=StratifiedGroupKFold(3))
    assert_routed_scores(result, search, subjects, 1, "roc_auc")


def assert_routed_scores(result, peer, subjects, seed: int, scoring: str) -> None:
    """``result``'s scores (one repeat of 3 grouped folds seeded ``seed``) equal
    ``cross_validate(peer)`` on the same folds, the groups routed to its inner splits."""
    with sklearn.config_context(enable_metadata_routing=True):
        expected = cross_validate(peer, _X(subjects), subjects.y,
                                  cv=StratifiedGroupKFold(3, shuffle=True, random_state=seed),
                                  params={"groups": subjects.groups},
                                  scoring=scoring)["test_score"]
    np.testing.assert_allclose(result.scores["score"].to_numpy(), expected, rtol=0, atol=1e-12)


def replace_tune(spec, **changes):
    """``spec`` without its ``tune`` (or with ``changes``)."""
    from dataclasses import replace

    return replace(spec, **({"tune": None} | changes))


def test_without_groups_the_inner_splitter_is_unchanged(subjects):
    from dataclasses import replace

    spec, = expand_models([{**TUNED, "threshold": {"scoring": "accuracy"}}])
    pipe = make_pipeline(_plain(spec), dataset=subjects)
    plain = wrap_model(pipe, spec, dataset=replace(subjects, groups=None))
    assert plain.cv == 5 and plain.estimator.cv == 3 and not uses_groups(plain)
    grouped = wrap_model(pipe, spec, dataset=subjects)
    assert isinstance(grouped.cv, StratifiedGroupKFold) and grouped.cv.n_splits == 5
    assert isinstance(grouped.estimator.cv, StratifiedGroupKFold) and not grouped.cv.shuffle
    assert uses_groups(grouped) and uses_groups(grouped.estimator)


def test_too_many_inner_folds_for_the_groups_is_a_clear_error(subjects):
    spec, = expand_models([{**TUNED, "tune": {**TUNED["tune"], "inner_splits": 35}}])
    with pytest.raises(ValueError) as caught:
        run_to_end(run_cv(subjects, [spec], CONFIG, ["roc_auc"]))
    assert error_code(caught.value) == "inner_groups_too_few"
    fields = error_fields(caught.value)
    assert (fields["model"], fields["block"], fields["inner_splits"]) == ("knn", "tune", 35)
    assert 30 <= fields["fewest"] < 35                  # what the message tells to set


def test_the_store_key_format_changed_with_the_grouped_inner_folds():
    assert KEY_FORMAT == 3 and environment_record()["format"] == 3


# ----------------------------------------------------------------------------- ALOOCV

def test_aloocv_on_grouped_rows_carries_the_note(subjects):
    from dataclasses import replace

    models = expand_models([{"name": "lr", "estimator": "LogisticRegression", "scale": True},
                            {"name": "nb", "estimator": "GaussianNB"}])
    settings = AloocvSettings(C_min=0.01, C_max=10.0, n_C=5)
    result = run_to_end(run_aloocv(subjects, models, settings))
    note, = [n for n in result.notes if n.code == "alo_grouped_rows"]
    assert dict(note.fields) == {"model": "lr", "groups_column": "subject", "n_groups": 40}
    text = str(note)
    assert "one row at a time" in text and "optimistic" in text
    assert "grouped cross-validation" in text
    plain = run_to_end(run_aloocv(replace(subjects, groups=None), models, settings))
    assert not any(n.code == "alo_grouped_rows" for n in plain.notes)
    np.testing.assert_array_equal(plain.curve["alo_log_likelihood"],
                                  result.curve["alo_log_likelihood"])


def test_the_grouped_aloocv_note_is_among_the_run_notes(subjects):
    experiment = parse_experiment({
        "dataset": {"csv": "unused.csv", "target": "condition", "groups": "subject"},
        "models": [{"name": "lr", "estimator": "LogisticRegression", "scale": True}],
        "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0}, "metrics": ["roc_auc"],
        "aloocv": {"C_min": 0.01, "C_max": 10, "n_C": 4}})
    result = run_to_end(run_experiment(experiment, dataset=subjects))
    codes = [n.code for n in result.notes]
    assert codes.count("alo_grouped_rows") == 1


# ----------------------------------------------------------------------------- workers

GROUPED_RUN = {
    "dataset": {"csv": "unused.csv", "target": "condition", "groups": "subject"},
    "models": [{"name": "knn", "estimator": "KNeighborsClassifier", "scale": True,
                "tune": {"grid": {"n_neighbors": [1, 15]}, "inner_splits": 2}},
               {"name": "lr", "estimator": "LogisticRegression", "scale": True,
                "threshold": {"scoring": "balanced_accuracy", "inner_splits": 2}}],
    "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0}, "metrics": ["roc_auc"],
    "calibration": {"methods": ["sigmoid"]}}


def _same_tables(ours: dict, theirs: dict) -> None:
    assert set(ours) == set(theirs)
    for name in ours:
        left, right = ours[name], theirs[name]
        if "fit_seconds" in left:
            left, right = left.drop(columns="fit_seconds"), right.drop(columns="fit_seconds")
        pd.testing.assert_frame_equal(left, right, check_exact=False, rtol=1e-12, obj=name)


@pytest.mark.slow
def test_grouped_inner_folds_give_the_same_tables_with_two_workers(subjects):
    experiment = parse_experiment(GROUPED_RUN)
    serial = run_to_end(run_experiment(experiment, dataset=subjects))
    parallel = run_to_end(run_experiment(experiment, n_jobs=2, dataset=subjects))
    _same_tables(serial.tables(), parallel.tables())
    assert {"tuning.csv", "thresholds.csv", "calibration_scores.csv"} <= set(serial.tables())


@pytest.mark.slow
def test_grouped_inner_folds_give_the_same_tables_on_a_dask_cluster(subjects):
    peer("distributed")
    from engine.evaluation.cluster import ClusterSpec, open_cluster

    experiment = parse_experiment(GROUPED_RUN)
    serial = run_to_end(run_experiment(experiment, dataset=subjects))
    with open_cluster(ClusterSpec.parse("local:2")) as cluster:
        remote = run_to_end(run_experiment(experiment, dataset=subjects, cluster=cluster))
    _same_tables(serial.tables(), remote.tables())
