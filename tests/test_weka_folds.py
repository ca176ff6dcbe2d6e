"""Weka's fold assignment (engine.evaluation.weka_folds, ``"cv": {"scheme": "weka"}``) against Weka 3.6.

``tests/data/weka/weka_folds.json`` was written by Weka itself (``WekaFolds.java`` beside
it, run against the Debian package's weka.jar 3.6.14): draws of ``java.util.Random``, the
test fold of every row per repeat, a SHA-256 digest of every training set in the order
Weka's classifier receives it (whole for one case), and Weka's ZeroR's correct test rows
per fold.
"""
import hashlib
import json
import os

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import cross_val_score

from engine.runs.analysis import run_experiment
from engine.evaluation.catalogue import expand_models, make_pipeline
from engine.evaluation.cv import CVConfig, check_folds, feature_matrix, make_splits, run_cv
from engine.input.readers import load_dataset
from engine.evaluation.experiment import parse_experiment
from engine.foundation.progress import run_to_end
from engine.evaluation.weka_folds import JavaRandom, stratify, weka_splits

FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "weka")
with open(os.path.join(FOLDER, "weka_folds.json"), encoding="utf-8") as _stream:
    WEKA = json.load(_stream)
TARGETS = {"breast-cancer": "Class", "iris": "class", "contact-lenses": "contact-lenses"}
CASES = WEKA["cases"]


def _case_id(case):
    return f"{case['data']}-k{case['n_splits']}-s{case['random_state']}"


def _dataset(name):
    return load_dataset({"csv": f"{name}.csv", "target": TARGETS[name]}, base_dir=FOLDER)


def _y(case):
    if case["data"] == "iris-missing":
        y = _dataset("iris").y.copy()
        y[WEKA["missing_class_rows"]] = -1          # as Weka: a missing class value
        return y
    return _dataset(case["data"]).y


def _digest(rows) -> str:
    return hashlib.sha256(",".join(map(str, rows)).encode()).hexdigest()[:16]


def _fold_text(test_sets, n_rows) -> str:
    fold = np.empty(n_rows, dtype=int)
    for f, test in enumerate(test_sets):
        fold[test] = f
    return "".join(np.base_repr(f, 36).lower() for f in fold)


def _weka_pairs(case):
    """The fixture's (train, test) pairs, train in Weka's order (whole-order case only)."""
    k, n = case["n_splits"], case["n_rows"]
    pairs = []
    for split, train in enumerate(case["train"]):
        fold = np.array(list(case["test_fold"][split // k]))
        test = np.flatnonzero(fold == np.base_repr(split % k, 36).lower())
        pairs.append((np.array(train), test))
        assert sorted(train + test.tolist()) == list(range(n))
    return pairs


def test_java_random_draws_what_java_draws():
    bounds = WEKA["java_random"]["bounds"]
    for seed, draws in WEKA["java_random"]["draws"].items():
        random = JavaRandom(int(seed))
        assert [random.next_int(bounds[i % len(bounds)]) for i in range(len(draws))] == draws


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_folds_and_training_order_equal_wekas(case):
    y, k = _y(case), case["n_splits"]
    assert len(y) == case["n_rows"]
    splits = weka_splits(y, k, case["n_repeats"], case["random_state"])
    assert len(splits) == k * case["n_repeats"]
    for repeat in range(case["n_repeats"]):
        block = splits[repeat * k:(repeat + 1) * k]
        assert _fold_text([test for _, test in block], len(y)) == case["test_fold"][repeat]
    assert [_digest(train) for train, _ in splits] == case["train_sha256_16"]
    if "train" in case:
        assert [train.tolist() for train, _ in splits] == case["train"]


@pytest.mark.parametrize("case", [c for c in CASES if c["data"] != "iris-missing"],
                         ids=_case_id)
def test_the_projects_splits_are_wekas(case):
    """make_splits with scheme weka: Weka's folds, training rows in Weka's order, test rows
    ascending; the data read by the project's CSV reader."""
    y, k = _dataset(case["data"]).y, case["n_splits"]
    config = CVConfig(k, case["n_repeats"], case["random_state"], scheme="weka")
    ours = make_splits(y, config)
    weka = weka_splits(y, k, case["n_repeats"], case["random_state"])
    for (train, test), (weka_train, weka_test) in zip(ours, weka):
        np.testing.assert_array_equal(train, weka_train)
        np.testing.assert_array_equal(test, np.sort(weka_test))
    assert [_digest(train) for train, _ in ours] == case["train_sha256_16"]


@pytest.mark.parametrize("case", [c for c in CASES if c["data"] != "iris-missing"],
                         ids=_case_id)
def test_baseline_scores_equal_wekas_zero_r_fold_by_fold(case):
    """The majority-class baseline (Weka's ZeroR, scikit-learn's DummyClassifier) gets as
    many test rows right on every fold of the project's run as ZeroR did in Weka."""
    dataset = _dataset(case["data"])
    config = CVConfig(case["n_splits"], case["n_repeats"], case["random_state"], scheme="weka")
    spec = expand_models([{"estimator": "DummyClassifier",
                           "params": {"strategy": "most_frequent"}}])
    result = run_to_end(run_cv(dataset, spec, config, ["accuracy"]))
    scores = result.scores.sort_values(["repeat", "fold"])
    correct = np.rint(scores["score"] * scores["n_test"]).astype(int)
    assert correct.tolist() == case["zero_r_correct"]
    assert np.allclose(scores["score"] * scores["n_test"], correct, atol=1e-9)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_fold_scores_equal_cross_val_score_on_wekas_index_pairs():
    """Per-fold scores of the project's run with scheme weka equal scikit-learn's
    cross_val_score given Weka's own (train, test) pairs, training rows in Weka's order:
    an order-sensitive model (a network trained in mini-batches, without shuffling) sees
    the rows as Weka's classifier sees them, and a different order scores differently."""
    case = next(c for c in CASES if "train" in c)
    dataset = _dataset(case["data"])
    config = CVConfig(case["n_splits"], case["n_repeats"], case["random_state"], scheme="weka")
    specs = expand_models([
        {"name": "nb", "estimator": "GaussianNB"},
        {"name": "logistic", "estimator": "LogisticRegression", "scale": True},
        {"name": "mlp", "estimator": "MLPClassifier", "scale": True,
         "params": {"hidden_layer_sizes": [4], "max_iter": 2, "batch_size": 10,
                    "shuffle": False, "random_state": 0}}])
    result = run_to_end(run_cv(dataset, specs, config, ["accuracy", "neg_log_loss"]))
    pairs = _weka_pairs(case)
    X = feature_matrix(dataset)
    for spec in specs:
        for metric in ("accuracy", "neg_log_loss"):
            ours = result.scores.query("model == @spec.name and metric == @metric")
            ours = ours.sort_values(["repeat", "fold"])["score"].to_numpy()
            theirs = cross_val_score(make_pipeline(spec, dataset=dataset), X, dataset.y, cv=pairs,
                                     scoring=metric)
            np.testing.assert_array_equal(ours, theirs, err_msg=f"{spec.name} {metric}")
    sorted_pairs = [(np.sort(train), test) for train, test in pairs]
    other = cross_val_score(make_pipeline(specs[2], dataset=dataset), X, dataset.y, cv=sorted_pairs,
                            scoring="neg_log_loss")
    ours = result.scores.query("model == 'mlp' and metric == 'neg_log_loss'")
    assert not np.allclose(ours.sort_values(["repeat", "fold"])["score"], other)


def test_stratify_gathers_classes_and_deals_them_out():
    # rows 0-5 of classes a b a c b a (codes 0 1 0 2 1 0), traced by hand through Weka's
    # loop: from row 0 the later a's are swapped forward (1 <-> 2, then place 2 <-> 5),
    # giving 0 2 5 3 4 1; the next class is the one now right after the a's (c, row 3),
    # then b: gathered 0 2 5 | 3 | 4 1. Dealt into 2 folds: places 0 2 4, then 1 3 5.
    rows = stratify([0, 1, 2, 3, 4, 5], np.array([0, 1, 0, 2, 1, 0]), 2)
    assert rows == [0, 5, 4, 2, 3, 1]


def test_uneven_folds_and_the_corrected_test_sizes():
    """Weka's first n % k folds hold one row more; the corrected t-test's sizes are the
    means over every fold, n/k and n - n/k, the same totals Weka's PairedCorrectedTTester
    divides."""
    dataset = _dataset("breast-cancer")                   # 286 rows: 6 folds of 29, 4 of 28
    config = CVConfig(10, 2, 1, scheme="weka")
    sizes = [len(test) for _, test in make_splits(dataset.y, config)]
    assert sizes == [29] * 6 + [28] * 4 + [29] * 6 + [28] * 4
    result = run_to_end(run_cv(dataset, expand_models([{"estimator": "GaussianNB"}]), config,
                               ["accuracy"]))
    n_train, n_test = result.train_test_sizes()
    assert (n_train, n_test) == pytest.approx((286 - 28.6, 28.6), abs=1e-12)
    assert n_test / n_train == pytest.approx(1 / 9)


def test_fold_limits_follow_weka():
    y = _dataset("contact-lenses").y                      # 24 rows: 15, 5 and 4 per class
    with pytest.raises(ValueError, match="smallest class has only 4"):
        check_folds(y, CVConfig(10, 1, 1))
    check_folds(y, CVConfig(10, 1, 1, scheme="weka"))    # Weka allows it
    check_folds(y, CVConfig(24, 1, 1, scheme="weka"))
    with pytest.raises(ValueError, match="only 24 rows, but 25 folds.*24 or fewer"):
        check_folds(y, CVConfig(25, 1, 1, scheme="weka"))


def test_experiment_key_round_trip_notes_and_refusals():
    entry = {"dataset": {"csv": "contact-lenses.csv", "target": "contact-lenses"},
             "models": [{"estimator": "DummyClassifier"}],
             "cv": {"n_splits": 10, "n_repeats": 2, "random_state": 1, "scheme": "weka"},
             "metrics": ["accuracy"]}
    experiment = parse_experiment(entry, base_dir=FOLDER)
    assert experiment.cv == CVConfig(10, 2, 1, "weka")
    assert experiment.to_json()["cv"] == entry["cv"]
    assert parse_experiment(experiment.to_json(), base_dir=FOLDER) == experiment
    default = parse_experiment({**entry, "cv": {"n_splits": 3}}, base_dir=FOLDER)
    assert default.cv.scheme == "sklearn" and default.to_json()["cv"]["scheme"] == "sklearn"
    result = run_to_end(run_experiment(experiment))
    small = [note for note in result.notes if note.code == "weka_small_classes"]
    assert len(small) == 1 and small[0].fields["classes"] == ("hard", "soft")
    assert small[0].fields["counts"] == (4, 5) and small[0].fields["n_splits"] == 10
    with pytest.raises(ValueError, match="cv.scheme"):
        parse_experiment({**entry, "cv": {"scheme": "Weka"}}, base_dir=FOLDER)
    with pytest.raises(ValueError, match="needs a seed"):
        parse_experiment({**entry, "cv": {"scheme": "weka", "random_state": None}}, base_dir=FOLDER)


@pytest.mark.slow
def test_headless_run_records_the_scheme_and_gives_wekas_baseline(tmp_path, capsys):
    from engine.cli import run

    case = next(c for c in CASES if (c["data"], c["n_splits"]) == ("breast-cancer", 10))
    exp = tmp_path / "weka.json"
    exp.write_text(json.dumps({
        "dataset": {"csv": os.path.join(FOLDER, "breast-cancer.csv"), "target": "Class"},
        "models": [{"name": "zero_r", "estimator": "DummyClassifier",
                    "params": {"strategy": "most_frequent"}},
                   {"name": "nb", "estimator": "GaussianNB"}],
        "cv": {"n_splits": 10, "n_repeats": case["n_repeats"],
               "random_state": case["random_state"], "scheme": "weka"},
        "metrics": ["accuracy"]}))
    assert run([str(exp), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    manifest = json.loads((tmp_path / "out" / "run.json").read_text(encoding="utf-8"))
    assert manifest["experiment"]["cv"]["scheme"] == "weka"
    scores = pd.read_csv(tmp_path / "out" / "fold_scores.csv").query("model == 'zero_r'")
    assert (scores["repeat"].tolist(), scores["fold"].tolist()) == (
        [r for r in range(1, 4) for _ in range(10)], list(range(1, 11)) * 3)
    correct = np.rint(scores["score"] * scores["n_test"]).astype(int)
    assert correct.tolist() == case["zero_r_correct"]


@pytest.mark.slow
def test_calibration_refits_inside_wekas_training_folds_in_wekas_order():
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.model_selection import StratifiedKFold

    from engine.evaluation.calibration import run_calibration
    from engine.evaluation.experiment import CalibrationSettings

    case = next(c for c in CASES if "train" in c)
    dataset = _dataset(case["data"])
    config = CVConfig(case["n_splits"], case["n_repeats"], case["random_state"], scheme="weka")
    specs = expand_models([{"name": "nb", "estimator": "GaussianNB"}])
    cv = run_to_end(run_cv(dataset, specs, config, ["neg_log_loss"]))
    result = run_to_end(run_calibration(dataset, cv, specs,
                                        CalibrationSettings(methods=("sigmoid",))))
    X = feature_matrix(dataset)
    part = result.probabilities.query("model == 'nb' and method == 'sigmoid'")
    for split, (train, test) in enumerate(_weka_pairs(case)):
        seed = int(np.random.SeedSequence([case["random_state"], split]).generate_state(1)[0])
        inner = StratifiedKFold(5, shuffle=True, random_state=seed)
        expected = CalibratedClassifierCV(make_pipeline(specs[0], dataset=dataset),
                                          method="sigmoid",
                                          cv=inner).fit(X[train], dataset.y[train])
        repeat, fold = divmod(split, case["n_splits"])
        rows = part[(part["repeat"] == repeat + 1) & (part["fold"] == fold + 1)]
        np.testing.assert_array_equal(rows["row"], np.sort(test))
        np.testing.assert_allclose(rows.filter(like="prob_").to_numpy(),
                                   expected.predict_proba(X[np.sort(test)]), rtol=1e-12)
