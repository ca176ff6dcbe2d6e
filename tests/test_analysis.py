"""A whole experiment with ALOOCV and calibration gives every table of docs/experiment-format.md."""
import json

import numpy as np
import pandas as pd
import pytest

from engine.runs.analysis import run_experiment
from engine.input.readers import load_dataset
from engine.evaluation.experiment import experiment_json_text, load_experiment, parse_experiment
from engine.foundation.progress import run_to_end
from engine.output.result_folder import write_tables

CONTRACT = {
    "fold_scores.csv": ["model", "repeat", "fold", "metric", "score", "n_train", "n_test",
                        "fit_seconds"],
    "summary.csv": ["model", "metric", "mean", "std", "rank"],
    "pairwise.csv": ["model_1", "model_2", "mean_difference", "t_stat", "p_value",
                     "p_value_adjusted", "t_stat_uncorrected", "p_value_uncorrected",
                     "p_mu_positive", "p_better", "p_equivalent", "p_worse"],
    "credible_intervals.csv": ["model_1", "model_2", "level", "lower", "upper"],
    "aloocv_curve.csv": ["model", "C", "alo_log_likelihood", "loo_log_likelihood"],
    "aloocv_optimum.csv": ["model", "C", "alo_log_likelihood"],
    "calibration_curve.csv": ["model", "method", "bin", "mean_predicted", "fraction_positive",
                              "count"],
    "calibration_scores.csv": ["model", "method", "brier", "log_loss", "ece"],
    "calibration_map.csv": ["model", "method", "bucket_low", "bucket_high", "calibrated"],
}

EXPERIMENT = {
    "dataset": {"builtin": "breast_cancer"},
    "models": [{"name": "logistic", "estimator": "LogisticRegression", "scale": True,
                "params": {"max_iter": 1000}},
               {"name": "naive_bayes", "estimator": "GaussianNB"}],
    "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
    "metrics": ["roc_auc", "neg_log_loss"],
    "aloocv": {"C_min": 0.01, "C_max": 100, "n_C": 12, "exact_loo": False},
    "calibration": {"methods": ["isotonic", "sigmoid"], "n_bins": 10, "map_buckets": 50},
}


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    folder = tmp_path_factory.mktemp("full")
    path = folder / "exp.json"
    path.write_text(json.dumps(EXPERIMENT))
    result = run_to_end(run_experiment(load_experiment(str(path))))
    write_tables(result.tables(), str(folder / "out"))
    return {name: pd.read_csv(folder / "out" / name) for name in CONTRACT}


def test_every_table_has_the_contract_columns(tables):
    for name, columns in CONTRACT.items():
        if name == "pairwise.csv":      # two-sided p first (issue 26); every name kept
            assert set(columns) <= set(tables[name].columns), name
            continue
        assert list(tables[name].columns[:len(columns)]) == columns, name


def test_pairwise_puts_the_two_sided_p_first_and_keeps_the_one_sided_by_name(tables):
    pairwise = tables["pairwise.csv"]
    assert list(pairwise.columns[:8]) == [
        "model_1", "model_2", "mean_difference", "t_stat", "p_value_two_sided",
        "p_value_two_sided_adjusted", "p_value_one_sided", "p_value_one_sided_adjusted"]
    np.testing.assert_array_equal(pairwise["p_value_one_sided"], pairwise["p_value"])
    np.testing.assert_array_equal(pairwise["p_value_one_sided_adjusted"],
                                  pairwise["p_value_adjusted"])
    np.testing.assert_allclose(pairwise["p_value_two_sided"],
                               np.minimum(1.0, 2 * pairwise["p_value"]), rtol=1e-12)


def test_aloocv_tables(tables):
    curve, optimum = tables["aloocv_curve.csv"], tables["aloocv_optimum.csv"]
    assert set(curve["model"]) == {"logistic"} and len(curve) == 12
    np.testing.assert_allclose(curve["C"], np.geomspace(0.01, 100, 12))
    assert curve["loo_log_likelihood"].isna().all()
    # the seed: bbai finds C = 0.6655 on standardized breast cancer
    assert optimum.loc[0, "C"] == pytest.approx(0.6655, rel=0.01)
    assert optimum.loc[0, "alo_log_likelihood"] >= curve["alo_log_likelihood"].max() - 1e-9


def test_calibration_tables(tables):
    scores = tables["calibration_scores.csv"]
    assert set(scores["method"]) == {"uncalibrated", "isotonic", "sigmoid"}
    assert set(scores["model"]) == {"logistic", "naive_bayes"}
    map_ = tables["calibration_map.csv"]
    for (_, _), part in map_.groupby(["model", "method"]):
        assert np.all(np.diff(part["calibrated"].to_numpy()) >= -1e-12)


def test_experiment_round_trip():
    experiment = parse_experiment(EXPERIMENT)
    again = parse_experiment(json.loads(json.dumps(experiment.to_json())))
    assert again == experiment
    assert [m.name for m in again.models] == ["logistic", "naive_bayes"]


def test_saved_csv_path_is_relative_inside_the_experiment_folder(tmp_path):
    data = tmp_path / "project" / "data"
    data.mkdir(parents=True)
    csv = data / "table.csv"
    csv.write_text("a,b,label\n1,2,x\n3,4,y\n5,6,x\n7,8,y\n", encoding="utf-8")
    experiment = parse_experiment({"dataset": {"csv": str(csv), "target": "label"},
                                   "models": [{"estimator": "GaussianNB"}]})
    inside = tmp_path / "project" / "exp.json"
    text = experiment_json_text(experiment, path=str(inside))
    assert json.loads(text)["dataset"] == {"csv": "data/table.csv", "target": "label"}
    inside.write_text(text, encoding="utf-8")
    moved = tmp_path / "moved"
    (tmp_path / "project").rename(moved)                   # the folder travels as a whole
    again = load_experiment(str(moved / "exp.json"))
    assert load_dataset(again.dataset, base_dir=again.base_dir).n_rows == 4
    outside = tmp_path / "elsewhere" / "exp.json"          # not below the CSV's folder
    assert json.loads(experiment_json_text(experiment, path=str(outside)))["dataset"]["csv"] == \
        str(csv)
    assert json.loads(experiment_json_text(experiment))["dataset"]["csv"] == str(csv)


def test_models_differing_only_in_C_share_one_aloocv_curve():
    from engine.evaluation.aloocv import alo_curve
    from engine.evaluation.aloocv import prepared_matrix, run_aloocv
    from engine.evaluation.catalogue import expand_models
    from engine.evaluation.experiment import AloocvSettings

    dataset = load_dataset({"builtin": "breast_cancer"})
    models = expand_models([{"estimator": "LogisticRegression", "scale": True,
                             "grid": {"C": [0.1, 10.0]}},
                            {"name": "raw", "estimator": "LogisticRegression",
                             "params": {"max_iter": 5000}}])
    settings = AloocvSettings(C_min=0.01, C_max=100, n_C=6, exact_loo=False)
    records = []
    result = run_to_end(run_aloocv(dataset, models, settings), on_progress=records.append)
    curve = result.curve.set_index(["model", "C"])["alo_log_likelihood"].unstack(0)
    names = [m.name for m in models]
    np.testing.assert_array_equal(curve[names[0]], curve[names[1]])
    assert not np.allclose(curve[names[0]], curve["raw"])        # unscaled: its own curve
    X = prepared_matrix(dataset, models[2])
    expected = run_to_end(alo_curve(X, dataset.y, np.geomspace(0.01, 100, 6)))
    np.testing.assert_allclose(curve["raw"], expected["alo_log_likelihood"], rtol=1e-9)
    assert records[-1].done == records[-1].total
    assert list(result.optimum["model"]) == names
