"""The ``curves`` block and ``predictions.csv`` (issue #29): parsed and refused like every
block, the out-of-fold probabilities equal scikit-learn's ``cross_val_predict`` on the same
splits, and a rerun from the result store, grouped, Weka, tuned and several-data-set runs
give them too."""
import json
import os

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from engine.runs.analysis import run_experiment
from engine.evaluation.experiment import DEFAULT_LEARNING, CurvesSettings, parse_experiment
from engine.foundation.progress import run_to_end
from engine.runs.store import ResultStore
from tests.test_cli import assert_one_error_line, run_main, write_experiment

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def experiment(dataset, models, n_repeats=1, **more):
    data = {"dataset": dataset, "models": models,
            "cv": {"n_splits": 5, "n_repeats": n_repeats, "random_state": 0},
            "metrics": ["accuracy"], "curves": {}, **more}
    return parse_experiment(data, base_dir=DATA)


def logistic(name="logistic"):
    return {"name": name, "estimator": "LogisticRegression", "scale": True,
            "params": {"max_iter": 1000}}


def test_curves_block_defaults_and_round_trip():
    exp = experiment({"builtin": "iris"}, [logistic()])
    assert exp.curves == CurvesSettings(roc=True, pr=True, decision=True, learning=())
    assert exp.to_json()["curves"] == {"roc": True, "pr": True, "decision": True,
                                       "learning": []}
    again = parse_experiment({**exp.to_json(), "curves": {"learning": True, "roc": False}})
    assert again.curves.learning == DEFAULT_LEARNING and not again.curves.roc
    assert parse_experiment({**exp.to_json(), "curves": {"learning": [1, 0.5]}}) \
        .curves.learning == (0.5, 1.0)
    assert parse_experiment({k: v for k, v in exp.to_json().items() if k != "curves"}) \
        .curves is None


@pytest.mark.parametrize("curves, fragment", [
    ({"roc": "yes"}, "curves.roc"),
    ({"learning": [0, 0.5]}, "curves.learning[0]"),
    ({"learning": [0.5, 1.5]}, "curves.learning[1]"),
    ({"learning": [0.5, 0.5]}, "listed twice"),
    ({"bands": True}, "unknown key"),
    ([True], "curves"),
])
@pytest.mark.slow
def test_bad_curves_blocks_are_one_error_line(tmp_path, curves, fragment):
    exp = write_experiment(tmp_path / "exp.json", curves=curves)
    assert_one_error_line(run_main(exp, "--out", tmp_path / "out"), fragment)


def test_probabilities_equal_cross_val_predict_two_and_three_classes():
    for name, loader in (("breast_cancer", load_breast_cancer), ("wine", load_wine)):
        exp = experiment({"builtin": name}, [logistic()])
        result = run_to_end(run_experiment(exp))
        table = result.tables()["predictions.csv"]
        X, y = loader(return_X_y=True)
        splitter = RepeatedStratifiedKFold(n_splits=5, n_repeats=1, random_state=0)
        peer = cross_val_predict(make_pipeline(StandardScaler(),
                                               LogisticRegression(max_iter=1000)),
                                 X, y, cv=splitter, method="predict_proba")
        classes = result.dataset.classes
        assert list(table["row"]) == list(range(len(y)))
        mine = table[[f"p_{c}" for c in classes]].to_numpy()
        np.testing.assert_allclose(mine, peer, rtol=0, atol=1e-12)
        assert list(table["true_class"]) == [classes[k] for k in result.dataset.y]
        assert list(table.columns[:6]) == ["model", "repeat", "fold", "row", "id",
                                           "true_class"]
        assert list(table["id"]) == list(range(1, len(y) + 1))    # built-in: 1-based rows


def test_decision_only_model_writes_decision_values():
    exp = experiment({"builtin": "breast_cancer"},
                     [{"name": "svm", "estimator": "SVC", "scale": True}])
    result = run_to_end(run_experiment(exp))
    table = result.tables()["predictions.csv"]
    assert "decision" in table and not any(c.startswith("p_") for c in table.columns)
    X, y = load_breast_cancer(return_X_y=True)
    from sklearn.svm import SVC

    peer = cross_val_predict(make_pipeline(StandardScaler(), SVC(random_state=0)), X, y,
                             cv=RepeatedStratifiedKFold(n_splits=5, n_repeats=1,
                                                        random_state=0),
                             method="decision_function")
    np.testing.assert_allclose(table["decision"].to_numpy(), peer, rtol=0, atol=1e-12)


@pytest.mark.slow
def test_rerun_from_the_store_gives_the_same_table(tmp_path):
    exp = experiment({"builtin": "wine"}, [logistic(), {"name": "nb", "estimator": "GaussianNB"}],
                     n_repeats=2)
    path = str(tmp_path / "store.sqlite")
    with ResultStore(path) as store:
        first = run_to_end(run_experiment(exp, store=store)).tables()["predictions.csv"]
    with ResultStore(path) as store:
        again = run_to_end(run_experiment(exp, store=store)).tables()["predictions.csv"]
        assert store.computed == 0 and store.reused == 20
    pd.testing.assert_frame_equal(first, again, check_exact=True)
    assert len(first) == 2 * 2 * 178


@pytest.mark.slow
def test_grouped_weka_and_tuned_runs_have_predictions():
    grouped = experiment({"csv": "orthodont.csv", "target": "Sex", "groups": "Subject"},
                         [logistic()])
    table = run_to_end(run_experiment(grouped)).tables()["predictions.csv"]
    assert sorted(table["row"]) == list(range(108))
    weka = experiment({"builtin": "iris"}, [logistic()], n_repeats=2)
    weka = parse_experiment({**weka.to_json(), "cv": {**weka.to_json()["cv"], "scheme": "weka",
                                                      "random_state": 1}})
    table = run_to_end(run_experiment(weka)).tables()["predictions.csv"]
    assert len(table) == 300 and table.groupby("repeat")["row"].nunique().eq(150).all()
    tuned = experiment({"builtin": "breast_cancer"},
                       [{"name": "tuned", "estimator": "LogisticRegression", "scale": True,
                         "tune": {"grid": {"C": [0.1, 1.0]}, "inner_splits": 3}}])
    result = run_to_end(run_experiment(tuned))
    table = result.tables()["predictions.csv"]
    assert set(table["model"]) == {"tuned"} and len(table) == 569   # no grid members
    np.testing.assert_allclose(table[["p_malignant", "p_benign"]].sum(axis=1), 1, atol=1e-12)


@pytest.mark.slow
def test_several_data_sets_write_one_stacked_table(tmp_path):
    exp = write_experiment(tmp_path / "exp.json",
                           datasets=[{"builtin": "iris"}, {"builtin": "wine"}],
                           dataset=None, curves={"roc": False})
    data = json.loads(exp.read_text())
    del data["dataset"]
    exp.write_text(json.dumps(data))
    done = run_main(exp, "--out", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    table = pd.read_csv(tmp_path / "out" / "predictions.csv")
    assert list(table.columns[:7]) == ["dataset", "model", "repeat", "fold", "row", "id",
                                      "true_class"]
    assert table.groupby("dataset")["row"].nunique().to_dict() == {"iris": 150, "wine": 178}
    assert json.loads((tmp_path / "out" / "run.json").read_text())["tables"].count(
        "predictions.csv") == 1
    written = json.loads((tmp_path / "out" / "run.json").read_text())["tables"]
    assert "pr_curve.csv" in written and "roc_curve.csv" not in written      # "roc": false
    curves = pd.read_csv(tmp_path / "out" / "pr_curve.csv")
    assert set(curves["dataset"]) == {"iris", "wine"}
    assert set(curves[curves["dataset"] == "wine"]["class"]) == {"class_0", "class_1",
                                                                 "class_2"}
