"""The held-out test: scores equal scikit-learn fitting the same pipelines on all training
rows and scoring the test file; bootstrap intervals equal scipy's bootstrap with the same
seed; DeLong's interval is engine.evaluation.curves.delong's on the same scores; bad test files are
one error line before any fit; saved models predict what the final model predicts."""
import inspect
import json

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, f1_score, log_loss, roc_auc_score
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

from engine.evaluation.catalogue import expand_models
from engine.cli import predict, run
from engine.input.readers import load_dataset
from engine.runs.heldout import load_test_set, run_heldout
from engine.runs.heldout.saved import load_model
from engine.foundation.progress import run_to_end
from tests.peers import peer

FEATURES = ["mean radius", "mean texture", "mean smoothness", "worst concavity",
            "worst symmetry"]
N_TRAIN = 380
MODELS = [{"name": "plain", "estimator": "LogisticRegression", "params": {"max_iter": 2000}},
          {"name": "scaled", "estimator": "LogisticRegression", "scale": True},
          {"name": "tuned", "estimator": "LogisticRegression", "scale": True,
           "tune": {"grid": {"C": [0.01, 0.1, 1.0, 10.0]}, "inner_splits": 3,
                    "scoring": "roc_auc"}}]
METRICS = ["roc_auc", "accuracy", "neg_log_loss", "f1"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """train.csv and test.csv (breast cancer, five features, text labels)."""
    folder = tmp_path_factory.mktemp("heldout")
    frame = load_breast_cancer(as_frame=True).frame[FEATURES + ["target"]].copy()
    frame["target"] = frame["target"].map({0: "malignant", 1: "benign"})
    frame.iloc[:N_TRAIN].to_csv(folder / "train.csv", index=False)
    frame.iloc[N_TRAIN:].to_csv(folder / "test.csv", index=False)
    return folder, frame


def sklearn_models():
    """The three models as scikit-learn builds them by hand (the peer)."""
    return {"plain": LogisticRegression(max_iter=2000, random_state=0),
            "scaled": Pipeline([("scale", StandardScaler()),
                                ("model", LogisticRegression(random_state=0))]),
            "tuned": GridSearchCV(Pipeline([("scale", StandardScaler()),
                                            ("model", LogisticRegression(random_state=0))]),
                                  {"model__C": [0.01, 0.1, 1.0, 10.0]}, cv=3,
                                  scoring="roc_auc")}


def split_arrays(frame):
    X, y = frame[FEATURES].to_numpy(float), (frame["target"] == "malignant").to_numpy(int)
    return X[:N_TRAIN], y[:N_TRAIN], X[N_TRAIN:], y[N_TRAIN:]


@pytest.fixture(scope="module")
def heldout(files):
    folder, _ = files
    dataset = load_dataset({"file": "train.csv", "target": "target"}, base_dir=str(folder))
    test = load_test_set({"file": "test.csv"}, dataset, base_dir=str(folder))
    models = expand_models(MODELS, random_state=0)
    return run_to_end(run_heldout(dataset, test, models, METRICS, n_resamples=300,
                                  random_state=7)), dataset


def test_scores_equal_sklearn_fitting_on_all_training_rows(files, heldout):
    result, dataset = heldout
    assert dataset.classes == ("benign", "malignant") and dataset.pos_label == 1
    X, y, X_test, y_test = split_arrays(files[1])
    table = result.scores[result.scores["interval"] == "bootstrap"].set_index(
        ["model", "metric"])["score"]
    for name, model in sklearn_models().items():
        model.fit(X, y)
        proba = model.predict_proba(X_test)
        expected = {"roc_auc": roc_auc_score(y_test, proba[:, 1]),
                    "accuracy": accuracy_score(y_test, model.predict(X_test)),
                    "neg_log_loss": -log_loss(y_test, proba),
                    "f1": f1_score(y_test, model.predict(X_test))}
        for metric, value in expected.items():
            assert table[(name, metric)] == pytest.approx(value, abs=1e-15, rel=0), \
                (name, metric)
    tuned = result.models["tuned"]
    assert tuned.best_params_ == sklearn_models()["tuned"].fit(X, y).best_params_
    assert set(result.scores["n_test"]) == {len(y_test)}


@pytest.mark.slow
def test_bootstrap_intervals_equal_scipy_bootstrap_with_the_same_seed(files, heldout):
    stats = peer("scipy.stats")
    result, _ = heldout
    X, y, X_test, y_test = split_arrays(files[1])
    model = sklearn_models()["scaled"].fit(X, y)
    proba, labels = model.predict_proba(X_test), model.predict(X_test)
    rows = result.scores.set_index(["model", "metric", "interval"])
    for metric, statistic in (
            ("roc_auc", lambda i: roc_auc_score(y_test[i], proba[i, 1])),
            ("accuracy", lambda i: accuracy_score(y_test[i], labels[i])),
            ("neg_log_loss", lambda i: -log_loss(y_test[i], proba[i], labels=[0, 1]))):
        seed = ({"rng": np.random.default_rng(7)} if "rng" in
                inspect.signature(stats.bootstrap).parameters else
                {"random_state": np.random.default_rng(7)})      # scipy < 1.15
        peer_ci = stats.bootstrap((np.arange(len(y_test)),), statistic, vectorized=False,
                                  n_resamples=300, method="percentile", confidence_level=0.95,
                                  **seed).confidence_interval
        row = rows.loc[("scaled", metric, "bootstrap")]
        assert row["ci_low"] == pytest.approx(peer_ci.low, abs=1e-12, rel=0), metric
        assert row["ci_high"] == pytest.approx(peer_ci.high, abs=1e-12, rel=0), metric
        assert row["n_resamples"] == 300


def test_delong_row_is_delong_of_the_final_models_scores(files, heldout):
    from engine.evaluation.curves.delong import delong_interval

    result, _ = heldout
    X, y, X_test, y_test = split_arrays(files[1])
    proba = sklearn_models()["plain"].fit(X, y).predict_proba(X_test)[:, 1]
    row = result.scores.set_index(["model", "metric", "interval"]).loc[
        ("plain", "roc_auc", "delong")]
    auc, low, high = delong_interval(y_test, proba, level=0.95)
    assert (row["score"], row["ci_low"], row["ci_high"]) == pytest.approx(
        (auc, low, high), abs=1e-12)
    assert auc == pytest.approx(roc_auc_score(y_test, proba), abs=1e-15)


def write_exp(folder, name="exp.json", **overrides):
    data = {"dataset": {"file": "train.csv", "target": "target"}, "test": {"file": "test.csv"},
            "models": MODELS[:2], "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
            "metrics": ["roc_auc", "accuracy"]}
    data.update(overrides)
    path = folder / name
    path.write_text(json.dumps(data))
    return path


def one_error_line(capsys, status, *fragments):
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert status == 2, err
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    for fragment in fragments:
        assert fragment in lines[0], err


@pytest.mark.parametrize("change, fragments", [
    (lambda f: f.drop(columns=["mean texture"]), ("lacks 1 feature column", "'mean texture'")),
    (lambda f: f.drop(columns=["target"]), ("no column 'target'",)),
    (lambda f: f.assign(target=f["target"].where(f.index > f.index[3], "cyst")),
     ("class(es) the training data does not have", "'cyst'")),
    (lambda f: f.iloc[:0], ("no row",)),
    (lambda f: f.assign(target=np.nan), ("no row",)),
])
def test_a_bad_test_file_is_one_error_line_before_any_fit(files, tmp_path, capsys, change,
                                                           fragments):
    folder, frame = files
    change(frame.iloc[N_TRAIN:]).to_csv(tmp_path / "test.csv", index=False)
    frame.iloc[:N_TRAIN].to_csv(tmp_path / "train.csv", index=False)
    status = run([str(write_exp(tmp_path)), "--out", str(tmp_path / "out")])
    one_error_line(capsys, status, "test file", *fragments)
    assert not (tmp_path / "out").exists()          # nothing fitted, nothing written


def test_decimal_commas_and_unreadable_files_are_one_error_line(files, tmp_path, capsys):
    folder, frame = files
    frame.iloc[:N_TRAIN].to_csv(tmp_path / "train.csv", index=False)
    frame.iloc[N_TRAIN:].to_csv(tmp_path / "test.csv", index=False, sep=";", decimal=",")
    status = run([str(write_exp(tmp_path, test={"file": "test.csv", "decimal": "."})),
                  "--out", str(tmp_path / "out")])
    one_error_line(capsys, status, "test file", "holds numbers in the training data")
    status = run([str(write_exp(tmp_path, test={"file": "missing.csv"})),
                  "--out", str(tmp_path / "out")])
    one_error_line(capsys, status, "missing.csv", "does not exist")
    (tmp_path / "binary.csv").write_bytes(b"\x00\xff" * 50)
    status = run([str(write_exp(tmp_path, test={"file": "binary.csv"})),
                  "--out", str(tmp_path / "out")])
    one_error_line(capsys, status, "binary.csv")


def test_a_test_file_with_several_datasets_is_refused(files, tmp_path, capsys):
    folder, _ = files
    path = write_exp(folder, "several.json",
                     datasets=[{"builtin": "iris"}, {"builtin": "wine"}])
    data = json.loads(path.read_text())
    del data["dataset"]
    path.write_text(json.dumps(data))
    status = run([str(path), "--out", str(tmp_path / "out")])
    one_error_line(capsys, status, "test:", "belongs to one data set")


@pytest.mark.slow
def test_saved_models_round_trip_through_predict(files, tmp_path, capsys):
    peer("skops")
    folder, frame = files
    out = tmp_path / "out"
    status = run([str(write_exp(folder, "save.json")), "--out", str(out), "--quiet",
                  "--save-models"])
    assert status == 0, capsys.readouterr().err
    manifest = json.loads((out / "run.json").read_text())
    assert {"model_plain.skops", "model_scaled.skops", "models_README.txt",
            "test_scores.csv"} <= set(manifest["tables"])
    assert "trust" in (out / "models_README.txt").read_text()
    X, y, X_test, _ = split_arrays(frame)
    for name in ("plain", "scaled"):
        status = predict([str(out / f"model_{name}.skops"), str(folder / "test.csv"),
                          "--out", str(tmp_path / f"{name}.csv")])
        assert status == 0, capsys.readouterr().err
        written = pd.read_csv(tmp_path / f"{name}.csv", float_precision="round_trip")
        final = load_model(str(out / f"model_{name}.skops"))["model"]
        expected = final.predict_proba(X_test)
        np.testing.assert_array_equal(written[["p_benign", "p_malignant"]].to_numpy(), expected)
        peer_proba = sklearn_models()[name].fit(X, y).predict_proba(X_test)
        np.testing.assert_allclose(expected, peer_proba, rtol=0, atol=1e-15)
        assert list(written["predicted"]) == list(np.where(final.predict(X_test) == 1,
                                                           "malignant", "benign"))
    scores = pd.read_csv(out / "test_scores.csv", float_precision="round_trip")
    summary = pd.read_csv(out / "summary.csv", float_precision="round_trip").set_index(["model", "metric"])
    for row in scores.itertuples():
        assert row.cv_mean == pytest.approx(summary.loc[(row.model, row.metric), "mean"],
                                            abs=1e-15)
        assert "one test set is one draw" in row.comparison


def test_predict_refuses_a_file_that_is_not_a_saved_model(files, tmp_path, capsys):
    peer("skops")
    folder, _ = files
    (tmp_path / "model_x.skops").write_bytes(b"not a zip file")
    status = predict([str(tmp_path / "model_x.skops"), str(folder / "test.csv"), "--out",
                      str(tmp_path / "p.csv")])
    one_error_line(capsys, status, "not a model file saved by honest-eval")


@pytest.mark.slow
def test_a_new_alpha_moves_both_intervals_without_refitting(files, heldout):
    """``at_level`` (a new α in the app) gives what a run at that level gives."""
    folder, _ = files
    result, dataset = heldout
    test = load_test_set({"file": "test.csv"}, dataset, base_dir=str(folder))
    again = run_to_end(run_heldout(dataset, test, expand_models(MODELS[:1], random_state=0),
                                   METRICS,
                                   n_resamples=300, random_state=7, level=0.9))
    moved = result.at_level(0.9).scores
    moved = moved[moved["model"] == "plain"].reset_index(drop=True)
    pd.testing.assert_frame_equal(moved, again.scores)


def test_progress_counts_the_final_fits_and_the_result_has_the_table(files):
    from engine.runs.analysis import run_experiment
    from engine.evaluation.experiment import load_experiment

    folder, _ = files
    path = write_exp(folder, "progress.json", models=[{"name": "nb", "estimator": "GaussianNB"}],
                     cv={"n_splits": 2, "n_repeats": 1, "random_state": 0})
    records = []
    result = run_to_end(run_experiment(load_experiment(str(path))), on_progress=records.append)
    assert [r.done for r in records] == list(range(1, 4)) and records[-1].total == 3
    assert list(result.tables()["test_scores.csv"]["model"].unique()) == ["nb"]


def test_a_metric_a_model_cannot_give_is_empty_and_said_in_a_note():
    from sklearn.datasets import load_iris

    from engine.input.data import dataset_from_frame
    from engine.runs.heldout.test_file import test_set_from_frame
    from engine.foundation.notes import note_code, note_fields

    frame = load_iris(as_frame=True).frame.sample(frac=1, random_state=0).reset_index(drop=True)
    train = dataset_from_frame(frame.iloc[:100].reset_index(drop=True), "target")
    test = test_set_from_frame(frame.iloc[100:].reset_index(drop=True), train)
    result = run_to_end(run_heldout(train, test, expand_models(
        [{"name": "svc", "estimator": "SVC", "scale": True}], random_state=0), ["accuracy",
                                                                                "neg_log_loss"],
        n_resamples=20))
    loss = result.scores.set_index("metric").loc["neg_log_loss"]
    assert np.isnan(loss["score"]) and loss["n_resamples"] == 0
    assert "could not be computed" in loss["comparison"]
    shared, note = result.notes       # iris has rows twice: row 38 of the test part is one
    assert note_code(shared) == "heldout_shared_rows"
    assert dict(note_fields(shared)) == {"n_shared": 1, "n_rows": 50, "rows": (38,)}
    assert note_code(note) == "heldout_failed"
    assert note_fields(note)["model"] == "svc" and note_fields(note)["metric"] == "neg_log_loss"


def test_the_experiment_keeps_test_and_save_models_and_saves_the_path_relative(tmp_path):
    from engine.evaluation.experiment import experiment_json_text, parse_experiment

    data = {"dataset": {"builtin": "iris"}, "models": [{"estimator": "GaussianNB"}],
            "test": {"file": str(tmp_path / "data" / "test.csv"), "decimal": ","},
            "save_models": True}
    experiment = parse_experiment(data, base_dir=str(tmp_path))
    assert experiment.test == data["test"] and experiment.save_models
    saved = json.loads(experiment_json_text(experiment, path=str(tmp_path / "exp.json")))
    assert saved["test"] == {"file": "data/test.csv", "decimal": ","} and saved["save_models"]
    with pytest.raises(ValueError, match="save_models: the final models"):
        parse_experiment({k: v for k, v in data.items() if k != "test"}, base_dir=str(tmp_path))
    with pytest.raises(ValueError, match="sheet"):
        parse_experiment({**data, "test": {"file": "t.csv", "sheet": "one"}},
                         base_dir=str(tmp_path))
