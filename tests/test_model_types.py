"""The allow-list of saved-model types is exact: every type, loader and function the app
writes into a model file (every catalogue estimator; scaled, prepared, resampled, tuned and
thresholded as the held-out run fits them; grouped inner folds; the parameters that change
what a fitted model holds, such as class weights keyed by class code) is in
:data:`engine.runs.heldout.model_types.ALLOWED`, and the list holds nothing the app does not
write."""
import io
import json
import os
import tempfile
import zipfile

import numpy as np
import pandas as pd
import pytest

from engine.evaluation.catalogue import CATALOGUE, expand_models
from engine.evaluation.metrics import metrics_for
from engine.foundation.progress import run_to_end
from engine.input.data import dataset_from_frame
from engine.runs.heldout import run_heldout
from engine.runs.heldout.model_types import ALLOWED, schema_types
from engine.runs.heldout.saved import load_model, saved_model_files
from engine.runs.heldout.test_file import test_set_from_frame as held_out_rows
from tests.peers import peer

#: Parameters that keep the fits quick without changing the types a model holds.
QUICK = {"RandomForestClassifier": {"n_estimators": 3}, "ExtraTreesClassifier": {"n_estimators": 3},
         "GradientBoostingClassifier": {"n_estimators": 3},
         "HistGradientBoostingClassifier": {"max_iter": 3},
         "AdaBoostClassifier": {"n_estimators": 3},
         "MLPClassifier": {"max_iter": 20, "hidden_layer_sizes": [4]}}
#: Parameter values that change what a fitted model holds (other trees, optimizers, losses).
VARIANTS = [("KNeighborsClassifier", {"algorithm": "ball_tree"}),
            ("KNeighborsClassifier", {"algorithm": "brute"}),
            ("KNeighborsClassifier", {"metric": "manhattan"}),
            *[("KNeighborsClassifier", {"metric": metric}) for metric in (
                "chebyshev", "braycurtis", "canberra", "dice", "hamming", "jaccard",
                "rogerstanimoto", "russellrao", "sokalmichener", "sokalsneath")],
            ("KNeighborsClassifier", {"p": 3}),
            ("MLPClassifier", {"solver": "sgd"}), ("MLPClassifier", {"solver": "lbfgs"}),
            ("GradientBoostingClassifier", {"loss": "exponential"}),
            ("HistGradientBoostingClassifier", {"early_stopping": True}),
            ("LogisticRegression", {"class_weight": {"0": 1, "1": 5}})]


def frames() -> dict:
    rng = np.random.default_rng(0)
    n = 90
    numbers = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n),
                            "c": rng.normal(size=n)})
    two = np.where(numbers.a + rng.normal(size=n) > 0, "yes", "no")
    mixed = numbers.assign(colour=rng.choice(["red", "blue", "green"], n))
    mixed.loc[::7, "a"] = np.nan
    return {"binary": numbers.assign(t=two), "mixed": mixed.assign(t=two),
            "multi": numbers.assign(t=rng.choice(["x", "y", "z"], n))}


def entry(name, estimator, **extra):
    params = {**QUICK.get(estimator, {}), **extra.pop("params", {})}
    return {"name": name, "estimator": estimator, "params": params, **extra}


def model_entries(n_classes: int) -> list:
    """Every catalogue estimator bare and scaled, each sampler, the variants, a grid
    search by every metric for this many classes and a threshold by every way."""
    out = [entry(f"{e}{s}", e, scale=bool(s)) for e in CATALOGUE for s in ("", "_s")]
    out += [entry(f"nb_{r}", "GaussianNB", resample=r) for r in ("over", "under", "smote")]
    out += [entry(f"v{i}", e, params=p) for i, (e, p) in enumerate(VARIANTS)]
    tune = {"grid": {"var_smoothing": [1e-9, 1e-8]}, "inner_splits": 2}
    out += [entry(f"tune_{m}", "GaussianNB", tune={**tune, "scoring": m})
            for m in metrics_for(n_classes) if m != "neg_expected_cost"]
    if n_classes == 2:
        out += [entry(f"thr_{m}", "GaussianNB", threshold={"scoring": m, "inner_splits": 2})
                for m in ("f1", "precision", "recall", "jaccard", "balanced_accuracy")]
        out.append(entry("thr_cost", "GaussianNB",
                         threshold={"cost": [[0, 1], [5, 0]], "inner_splits": 2}))
    return out


def written_types(frame, entries, **options) -> set:
    train = dataset_from_frame(frame.iloc[:60].reset_index(drop=True), "t", **options)
    test = held_out_rows(frame.iloc[60:].reset_index(drop=True), train)
    result = run_to_end(run_heldout(train, test, expand_models(entries, random_state=0),
                                    ["accuracy"],
                                    n_resamples=5))
    found = set()
    with tempfile.TemporaryDirectory() as folder:
        for name, data in saved_model_files(result, train).items():
            if name.endswith(".skops"):
                with zipfile.ZipFile(io.BytesIO(data)) as archive:
                    found |= schema_types(json.loads(archive.read("schema.json")))
                path = os.path.join(folder, name)
                with open(path, "wb") as stream:
                    stream.write(data)
                loaded = load_model(path)             # every model the app writes loads
                assert loaded["features"] == list(train.X.columns)
    return found


@pytest.fixture(scope="module")
def app_types() -> set:
    peer("skops")
    peer("imblearn")
    found = set()
    for kind, frame in frames().items():
        n_classes = frame["t"].nunique()
        entries = model_entries(n_classes)
        if kind == "mixed":        # QDA's covariance is singular on one-hot columns
            entries = [e for e in entries if e["estimator"] != "QuadraticDiscriminantAnalysis"]
        found |= written_types(frame, entries)
    grouped = frames()["binary"].assign(g=np.repeat(np.arange(45), 2))
    tune = {"grid": {"var_smoothing": [1e-9, 1e-8]}, "inner_splits": 2}
    found |= written_types(grouped, [entry("grouped", "GaussianNB", tune=tune)], groups="g")
    return found


@pytest.mark.slow
def test_every_type_the_app_writes_is_allowed(app_types):
    assert app_types - ALLOWED == set()


@pytest.mark.slow
def test_the_list_allows_nothing_the_app_does_not_write(app_types):
    assert ALLOWED - app_types == set()


def test_a_model_skops_cannot_write_is_left_out_and_said(tmp_path):
    """HistGradientBoosting with early stopping by a named scoring makes skops recurse
    without end: the other models are saved, the README and the note name the one left
    out (the run used to fail after its cross-validation)."""
    from types import SimpleNamespace

    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.naive_bayes import GaussianNB

    from engine.runs.heldout.saved import load_model, saved_note

    peer("skops")
    train = dataset_from_frame(frames()["binary"], "t")
    X = train.X.to_numpy(float)
    boosted = HistGradientBoostingClassifier(early_stopping=True, scoring="accuracy",
                                             max_iter=3).fit(X, train.y)
    heldout = SimpleNamespace(models={"hgb": boosted, "nb": GaussianNB().fit(X, train.y)})
    files = saved_model_files(heldout, train)
    assert set(files) == {"model_nb.skops", "models_README.txt"}
    assert files["models_README.txt"].decode().endswith(
        "\nnot saved: hgb (skops could not write it: RecursionError)\n")
    note = saved_note(files)
    assert dict(note.fields) == {"files": ("model_nb.skops",),
                                 "not_saved": ("hgb (skops could not write it: RecursionError)",)}
    assert "1 could not be saved: hgb" in str(note)
    (tmp_path / "model_nb.skops").write_bytes(files["model_nb.skops"])
    np.testing.assert_array_equal(load_model(str(tmp_path / "model_nb.skops"))["model"]
                                  .theta_, heldout.models["nb"].theta_)
