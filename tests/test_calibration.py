"""Calibration: diagrams, scores and maps against independent computations; no leakage."""
import numpy as np
import pandas as pd
import pytest
from scipy.special import expit
from sklearn.calibration import CalibratedClassifierCV, calibration_curve
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import brier_score_loss, log_loss
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB

import engine.evaluation.calibration.analysis as calibration
from engine.evaluation.calibration import (apply_calibration_map, calibration_scores,
                                           fit_calibration_map, fold_score_matrix,
                                           reliability_diagram, run_calibration)
from engine.evaluation.catalogue import expand_models
from engine.evaluation.cv import CVConfig, make_splits, run_cv
from engine.input.data import dataset_from_frame, load_builtin
from engine.evaluation.experiment import CalibrationSettings
from engine.foundation.progress import run_to_end
from engine.evaluation.stats import compare_models
from tests.helpers import Recorder

CONFIG = CVConfig(n_splits=5, n_repeats=2, random_state=0)
SETTINGS = CalibrationSettings(methods=("isotonic", "sigmoid"), n_bins=10, map_buckets=200)


@pytest.fixture(scope="module")
def cancer():
    dataset = load_builtin("breast_cancer")
    models = expand_models([
        {"name": "nb", "estimator": "GaussianNB"},
        {"name": "svc", "estimator": "SVC", "scale": True, "params": {"random_state": 0}},
    ])
    cv = run_to_end(run_cv(dataset, models, CONFIG, ["roc_auc", "neg_brier_score",
                                                     "neg_log_loss"]))
    result = run_to_end(run_calibration(dataset, cv, models, SETTINGS, inner_splits=3))
    return dataset, models, cv, result


@pytest.fixture(scope="module")
def iris():
    dataset = load_builtin("iris")
    models = expand_models([
        {"name": "logistic", "estimator": "LogisticRegression", "scale": True,
         "params": {"max_iter": 1000}},
        {"name": "svc", "estimator": "SVC", "scale": True, "params": {"random_state": 0}},
    ])
    cv = run_to_end(run_cv(dataset, models, CONFIG, ["accuracy", "neg_brier_score"]))
    result = run_to_end(run_calibration(dataset, cv, models, SETTINGS, inner_splits=3))
    return dataset, models, cv, result


def _pooled(result, model, method):
    part = result.probabilities[(result.probabilities.model == model)
                                & (result.probabilities.method == method)]
    probs = part.filter(like="prob_").to_numpy()
    return part["y"].to_numpy(), probs, part


# ----------------------------------------------------------------------------- diagrams, scores

@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("method", ["uncalibrated", "isotonic", "sigmoid"])
def test_reliability_diagram_equals_sklearn_calibration_curve(cancer, strategy, method):
    _, _, _, result = cancer
    y, probs, _ = _pooled(result, "nb", method)
    diagram = reliability_diagram(y, probs[:, 1], n_bins=10, strategy=strategy)
    prob_true, prob_pred = calibration_curve(y, probs[:, 1], n_bins=10, strategy=strategy)
    np.testing.assert_allclose(diagram["fraction_positive"], prob_true, rtol=1e-12)
    np.testing.assert_allclose(diagram["mean_predicted"], prob_pred, rtol=1e-12)
    assert diagram["count"].sum() == len(y) == 2 * 569
    # counts recomputed from the bin edges
    edges = np.append(diagram["bin_low"].to_numpy(), diagram["bin_high"].iloc[-1])
    if strategy == "uniform":
        ids = np.searchsorted(np.linspace(0, 1, 11)[1:-1], probs[:, 1])
        np.testing.assert_array_equal(np.bincount(ids, minlength=10)[diagram["bin"]],
                                      diagram["count"])
    assert np.all(np.diff(edges) >= 0)


def test_curve_table_is_the_pooled_diagram(cancer):
    _, _, _, result = cancer
    y, probs, _ = _pooled(result, "svc", "sigmoid")
    table = result.curve[(result.curve.model == "svc") & (result.curve.method == "sigmoid")]
    prob_true, prob_pred = calibration_curve(y, probs[:, 1], n_bins=10)
    np.testing.assert_allclose(table["fraction_positive"], prob_true)
    np.testing.assert_allclose(table["mean_predicted"], prob_pred)
    assert set(table["class"]) == {"benign"} or len(set(table["class"])) == 1
    assert list(result.curve.columns[:6]) == ["model", "method", "bin", "mean_predicted",
                                              "fraction_positive", "count"]


@pytest.mark.parametrize("method", ["uncalibrated", "isotonic"])
def test_scores_equal_sklearn_brier_and_log_loss(cancer, method):
    _, _, _, result = cancer
    y, probs, _ = _pooled(result, "nb", method)
    scores = calibration_scores(y, probs[:, 1])
    assert scores["brier"] == pytest.approx(brier_score_loss(y, probs[:, 1]), rel=1e-12)
    assert scores["log_loss"] == pytest.approx(log_loss(y, probs[:, 1]), rel=1e-12)
    prob_true, prob_pred = calibration_curve(y, probs[:, 1], n_bins=10)
    counts = np.bincount(np.searchsorted(np.linspace(0, 1, 11)[1:-1], probs[:, 1]))
    counts = counts[counts > 0]
    ece = np.sum(counts * np.abs(prob_true - prob_pred)) / counts.sum()
    assert scores["ece"] == pytest.approx(ece, rel=1e-12)
    row = result.scores[(result.scores.model == "nb") & (result.scores.method == method)].iloc[0]
    assert row["brier"] == pytest.approx(scores["brier"], rel=1e-12)
    # the table scores P(class 1), as scikit-learn's (and the CV's) neg_log_loss does
    assert row["log_loss"] == pytest.approx(log_loss(y, probs[:, 1]), rel=1e-12)
    assert calibration_scores(y, probs)["log_loss"] == pytest.approx(row["log_loss"], rel=1e-12)
    assert row["ece"] == pytest.approx(ece, rel=1e-12)


@pytest.mark.parametrize("method", ["uncalibrated", "sigmoid"])
def test_top_label_ece_against_a_direct_computation(cancer, method):
    _, _, _, result = cancer
    y, probs, _ = _pooled(result, "nb", method)
    confidence, correct = probs.max(axis=1), (probs.argmax(axis=1) == y)
    bins = np.searchsorted(np.linspace(0, 1, 11)[1:-1], confidence)
    gaps = [abs(correct[bins == b].mean() - confidence[bins == b].mean()) * np.sum(bins == b)
            for b in np.unique(bins)]
    row = result.scores[(result.scores.model == "nb") & (result.scores.method == method)].iloc[0]
    assert row["ece_top_label"] == pytest.approx(np.sum(gaps) / len(y), rel=1e-12)


def test_uncalibrated_fold_scores_equal_the_cv_scorers(cancer):
    _, _, cv, result = cancer
    fs = result.fold_scores
    for metric in ("neg_brier_score", "neg_log_loss"):
        mine = fs[(fs.model == "nb") & (fs.method == "uncalibrated") & (fs.metric == metric)]
        theirs = cv.scores[(cv.scores.model == "nb") & (cv.scores.metric == metric)]
        np.testing.assert_allclose(mine.sort_values(["repeat", "fold"])["score"],
                                   theirs.sort_values(["repeat", "fold"])["score"], rtol=1e-10)
    assert list(fs.columns) == ["model", "method", "repeat", "fold", "metric", "score"]
    assert len(fs) == 2 * 3 * 10 * 2


# ----------------------------------------------------------------------------- maps

def _seed_procedure(y, p, n):
    """The blog's recipe, written independently: equal buckets, rates, weighted isotonic."""
    ids = np.minimum(np.floor(p * n).astype(int), n - 1)
    counts = np.bincount(ids, minlength=n)
    rates = np.bincount(ids, weights=y, minlength=n)
    full = counts > 0
    iso = IsotonicRegression(out_of_bounds="clip").fit(np.flatnonzero(full), rates[full] / counts[full],
                                                       sample_weight=counts[full])
    return iso.predict(ids)


def test_isotonic_map_is_monotone_and_matches_the_seed_recipe(cancer):
    _, _, _, result = cancer
    y, probs, _ = _pooled(result, "svc", "uncalibrated")
    p = probs[:, 1]
    raw = IsotonicRegression(out_of_bounds="clip").fit(p, y).predict(p)
    gaps = []
    for n in (10, 100, 1000, 100_000):
        table = fit_calibration_map(y, p, n_buckets=n)
        assert len(table) == n and np.all(np.diff(table["calibrated"]) >= 0)
        assert table["bucket_low"].iloc[0] == 0 and table["bucket_high"].iloc[-1] == 1
        mapped = apply_calibration_map(table, p)
        seed = _seed_procedure(y, p, n)
        assert brier_score_loss(y, mapped) <= brier_score_loss(y, seed) + 1e-12
        np.testing.assert_allclose(mapped, seed, atol=1e-12)
        gaps.append(np.mean(np.abs(mapped - raw)))
    assert gaps[-1] < gaps[0] and gaps[-1] < 1e-3      # approaches IsotonicRegression on raw p
    assert brier_score_loss(y, apply_calibration_map(fit_calibration_map(y, p, n_buckets=100_000),
                                                     p)) \
        == pytest.approx(brier_score_loss(y, raw), abs=1e-4)


def test_map_table_and_quantile_buckets(cancer):
    _, _, _, result = cancer
    maps = result.map
    assert list(maps.columns[:5]) == ["model", "method", "bucket_low", "bucket_high",
                                      "calibrated"]
    for (_model, method), table in maps.groupby(["model", "method"]):
        assert len(table) == SETTINGS.map_buckets and method in ("isotonic", "sigmoid")
        assert np.all(np.diff(table["calibrated"]) >= -1e-12)
    y, probs, _ = _pooled(result, "nb", "uncalibrated")
    quantile = fit_calibration_map(y, probs[:, 1], n_buckets=50, strategy="quantile")
    assert quantile["bucket_low"].iloc[0] == 0 and quantile["bucket_high"].iloc[-1] == 1
    assert np.all(np.diff(quantile["calibrated"]) >= 0)
    uniform = fit_calibration_map(y, probs[:, 1], n_buckets=50)
    # naive Bayes crowds into the end buckets; quantile buckets spread the predictions out
    assert uniform["count"].iloc[[0, -1]].sum() > 0.8 * len(y)
    assert quantile["count"].max() < uniform["count"].max()
    assert any("first or last bucket" in note for note in map(str, result.notes))
    mapped = apply_calibration_map(quantile, probs[:, 1])
    ids = np.searchsorted(quantile["bucket_low"].to_numpy(), probs[:, 1], side="right") - 1
    np.testing.assert_array_equal(mapped, quantile["calibrated"].to_numpy()[ids])


def test_sigmoid_map_is_platt_scaling_of_the_logit():
    rng = np.random.default_rng(0)
    p = rng.uniform(0.01, 0.99, 4000)
    y = (rng.uniform(size=4000) < expit(2 * np.log(p / (1 - p)) + 0.5)).astype(int)
    table = fit_calibration_map(y, p, n_buckets=5000, method="sigmoid")
    from sklearn.linear_model import LogisticRegression

    lr = LogisticRegression(C=1e6).fit(np.log(p / (1 - p))[:, None], y)
    at = np.array([0.3, 0.5, 0.7])
    expected = lr.predict_proba(np.log(at / (1 - at))[:, None])[:, 1]
    ids = np.searchsorted(table["bucket_low"], at, side="right") - 1
    np.testing.assert_allclose(table["calibrated"].to_numpy()[ids], expected, atol=0.01)


# ----------------------------------------------------------------------------- honesty

def test_isotonic_improves_an_overconfident_model_out_of_sample(cancer):
    _, _, _, result = cancer
    matrix = -fold_score_matrix(result, metric="neg_brier_score")
    uncal, iso = matrix.loc["nb (uncalibrated)"], matrix.loc["nb (isotonic)"]
    assert iso.mean() < 0.85 * uncal.mean()
    assert (iso < uncal).mean() >= 0.7
    comparison = compare_models(fold_score_matrix(result).loc[["nb (isotonic)",
                                                              "nb (uncalibrated)"]],
                                455.2, 113.8)
    assert comparison.pairwise.iloc[0]["model_1"] == "nb (isotonic)"


def test_calibrated_fold_equals_sklearn_on_the_same_split(cancer):
    dataset, _, cv, result = cancer
    X, y = dataset.X.to_numpy(dtype=float), dataset.y
    splits = make_splits(y, cv.config)
    split = 7
    train, test = splits[split]
    seed = int(np.random.SeedSequence([0, split]).generate_state(1)[0])
    inner = StratifiedKFold(3, shuffle=True, random_state=seed)
    expected = CalibratedClassifierCV(GaussianNB(), method="isotonic", cv=inner) \
        .fit(X[train], y[train]).predict_proba(X[test])
    _, probs, part = _pooled(result, "nb", "isotonic")
    at = ((part["repeat"] == 2) & (part["fold"] == 3)).to_numpy()  # split 7 of 5 folds, from 1
    mine = probs[at]
    np.testing.assert_array_equal(part.loc[at, "row"], test)
    np.testing.assert_allclose(mine, expected, rtol=1e-12)


def _noise_dataset(n=240, seed=0):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(rng.normal(size=(n, 3)), columns=["a", "b", "c"])
    frame.insert(0, "row_id", np.arange(n, dtype=float))
    frame["target"] = rng.permutation(np.repeat([0, 1], n // 2))
    return dataset_from_frame(frame, "target", name="noise")


def test_no_calibrator_sees_its_test_fold(monkeypatch):
    dataset = _noise_dataset()
    models = expand_models([{"name": "lr", "estimator": "LogisticRegression"}])
    cv = run_to_end(run_cv(dataset, models, CVConfig(4, 1, 0), ["roc_auc"]))
    monkeypatch.setattr(calibration, "make_pipeline", lambda spec, dataset: Recorder())
    monkeypatch.setattr(calibration, "calibrate_fold", _recording(calibration.calibrate_fold))
    run_to_end(run_calibration(dataset, cv, models, CalibrationSettings(methods=("isotonic",)),
                               inner_splits=3))
    assert len(CALLS) == 4
    for train, test, log in CALLS:
        fits = [rows for what, rows in log if what == "fit"]
        predictions = [rows for what, rows in log if what == "predict"]
        assert len(fits) == 3                               # one per inner fold
        for rows in fits + predictions[:-3]:                # fits and the calibrators' inputs
            assert not np.intersect1d(rows, test).size and np.isin(rows, train).all()
        # the calibrators were fitted on inner held-out parts covering the training fold
        np.testing.assert_array_equal(np.sort(np.concatenate(predictions[:3])), np.sort(train))
        for rows in predictions[3:]:                        # only then the outer test fold
            np.testing.assert_array_equal(np.sort(rows), np.sort(test))


CALLS = []


def _recording(original):
    def wrapped(estimator, X, y, train, test, *args):
        Recorder.log = []
        outcome = original(estimator, X, y, train, test, *args)
        CALLS.append((train, test, list(Recorder.log)))
        return outcome
    return wrapped


def test_pure_noise_is_not_calibrated_better_than_chance():
    dataset = _noise_dataset(400, seed=3)
    models = expand_models([{"name": "nb", "estimator": "GaussianNB"}])
    cv = run_to_end(run_cv(dataset, models, CONFIG, ["roc_auc"]))
    result = run_to_end(run_calibration(dataset, cv, models,
                                        CalibrationSettings(methods=("isotonic",)),
                                        inner_splits=3))
    iso = result.scores.set_index("method").loc["isotonic"]
    assert iso["brier"] >= 0.25                   # chance: 0.25 for balanced noise
    # a leaky calibrator (fitted on the predictions it is scored on) looks better than chance
    y, probs, _ = _pooled(result, "nb", "uncalibrated")
    leaky = IsotonicRegression(out_of_bounds="clip").fit(probs[:, 1], y).predict(probs[:, 1])
    assert brier_score_loss(y, leaky) < 0.249


# ----------------------------------------------------------------------------- kinds, classes

def test_decision_function_models_are_calibrated_from_decision_values(cancer):
    _, _, cv, result = cancer
    assert cv.prediction_kind["svc"] == "decision"
    _, probs, part = _pooled(result, "svc", "uncalibrated")
    raw = cv.predictions[cv.predictions.model == "svc"]
    np.testing.assert_allclose(probs[:, 1], expit(raw["score_1"].to_numpy()))
    assert any("svc" in n and "logistic" in n for n in map(str, result.notes))
    for method in ("isotonic", "sigmoid"):
        _, probs, _ = _pooled(result, "svc", method)
        assert np.all((probs >= 0) & (probs <= 1))
        np.testing.assert_allclose(probs.sum(axis=1), 1)
    scores = result.scores.set_index(["model", "method"])
    assert scores.loc[("svc", "sigmoid"), "brier"] < scores.loc[("svc", "uncalibrated"), "brier"]


def test_multiclass_per_class_diagrams_and_renormalised_probabilities(iris):
    dataset, _, cv, result = iris
    for method in ("uncalibrated", "isotonic", "sigmoid"):
        for model in ("logistic", "svc"):
            y, probs, _ = _pooled(result, model, method)
            assert probs.shape == (300, 3)
            np.testing.assert_allclose(probs.sum(axis=1), 1, rtol=1e-10)
            scores = calibration_scores(y, probs)
            assert scores["brier"] == pytest.approx(
                brier_score_loss(y, probs, labels=[0, 1, 2]), rel=1e-10)
            assert scores["log_loss"] == pytest.approx(log_loss(y, probs, labels=[0, 1, 2]),
                                                       rel=1e-10)
            table = result.curve[(result.curve.model == model) & (result.curve.method == method)]
            assert list(pd.unique(table["class"])) == list(dataset.classes)
            for k, cls in enumerate(dataset.classes):
                prob_true, _ = calibration_curve(y == k, probs[:, k], n_bins=10)
                np.testing.assert_allclose(table[table["class"] == cls]["fraction_positive"],
                                           prob_true)
    fs = result.fold_scores
    mine = fs[(fs.model == "logistic") & (fs.method == "uncalibrated")
              & (fs.metric == "neg_brier_score")]["score"].to_numpy()
    theirs = cv.scores[(cv.scores.model == "logistic")
                       & (cv.scores.metric == "neg_brier_score")]["score"].to_numpy()
    np.testing.assert_allclose(mine, theirs, rtol=1e-10)
    table = result.map[(result.map.model == "logistic") & (result.map.method == "isotonic")]
    assert len(table) == 3 * SETTINGS.map_buckets
    _, probs, _ = _pooled(result, "logistic", "uncalibrated")
    mapped = apply_calibration_map(table, probs)
    np.testing.assert_allclose(mapped.sum(axis=1), 1)
    assert set(result.tables()) == {"calibration_curve.csv", "calibration_scores.csv",
                                    "calibration_map.csv"}


# ----------------------------------------------------------------------------- running

@pytest.mark.slow
def test_progress_cancel_and_identical_numbers_for_any_n_jobs():
    dataset = load_builtin("breast_cancer")
    models = expand_models([{"name": "nb", "estimator": "GaussianNB"}])
    cv = run_to_end(run_cv(dataset, models, CVConfig(3, 2, 0), ["roc_auc"]))
    settings = CalibrationSettings(methods=("isotonic", "sigmoid"), map_buckets=50)
    records = []
    one = run_to_end(run_calibration(dataset, cv, models, settings, inner_splits=3),
                     on_progress=records.append)
    assert [r.done for r in records] == list(range(1, 13)) and records[-1].total == 12
    two = run_to_end(run_calibration(dataset, cv, models, settings, n_jobs=2, inner_splits=3))
    for name in ("curve", "scores", "map", "fold_scores", "probabilities"):
        pd.testing.assert_frame_equal(getattr(one, name), getattr(two, name))
    gen = run_calibration(dataset, cv, models, settings, inner_splits=3)
    first = next(gen)
    gen.close()                                    # cooperative cancel
    assert first.done == 1
    with pytest.raises(StopIteration):
        next(gen)


def test_clear_errors():
    y = np.array([0, 1, 1, 0])
    with pytest.raises(ValueError, match="outside \\[0, 1\\]"):
        reliability_diagram(y, [0.1, 1.5, 0.2, 0.3])
    with pytest.raises(ValueError, match="'uniform' or 'quantile'"):
        fit_calibration_map(y, [0.1, 0.5, 0.2, 0.3], strategy="equal")
    with pytest.raises(ValueError, match="one row of probabilities per label"):
        calibration_scores(y, [0.1, 0.2])
    with pytest.raises(ValueError, match="bucket_low"):
        apply_calibration_map(pd.DataFrame({"x": [1]}), [0.5])
    dataset = load_builtin("iris")
    models = expand_models([{"name": "nb", "estimator": "GaussianNB"}])
    cv = run_to_end(run_cv(dataset, models, CVConfig(5, 1, 0), ["accuracy"]))
    with pytest.raises(ValueError, match="lower inner_splits"):
        next(run_calibration(dataset, cv, models, SETTINGS, inner_splits=50))
    other = expand_models([{"name": "other", "estimator": "GaussianNB"}])
    with pytest.raises(ValueError, match="not in the CV result"):
        next(run_calibration(dataset, cv, other, SETTINGS))
