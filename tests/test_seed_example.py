"""The headless runner reproduces the scikit-learn example's published figures (seed 004)."""
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    out = tmp_path_factory.mktemp("seed")
    done = subprocess.run([sys.executable, os.path.join(ROOT, "main.py"), "run", EXAMPLE,
                           "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return {name: pd.read_csv(out / name) for name in os.listdir(out) if name.endswith(".csv")}


def test_all_tables_written(tables):
    assert set(tables) == {"fold_scores.csv", "summary.csv", "correlation.csv", "pairwise.csv",
                           "credible_intervals.csv", "confusion.csv", "per_class.csv"}
    scores = tables["fold_scores.csv"]
    assert list(scores.columns[:8]) == ["model", "repeat", "fold", "metric", "score", "n_train",
                                        "n_test", "fit_seconds"]
    assert len(scores) == 4 * 100
    assert set(scores["n_train"]) == {90} and set(scores["n_test"]) == {10}


def test_means_and_ranks(tables):
    summary = tables["summary.csv"].set_index("model")
    assert summary.loc["rbf", "mean"] == pytest.approx(0.94, abs=5e-5)
    assert summary.loc["linear", "mean"] == pytest.approx(0.93, abs=5e-5)
    assert summary.loc["3_poly", "mean"] == pytest.approx(0.9044, abs=5e-5)
    assert summary.loc["2_poly", "mean"] == pytest.approx(0.6852, abs=5e-5)
    assert summary["rank"].to_dict() == {"linear": 2, "2_poly": 4, "3_poly": 3, "rbf": 1}


def test_correlation_matrix(tables):
    corr = tables["correlation.csv"].set_index("model")
    assert list(corr.index) == ["rbf", "linear", "3_poly", "2_poly"]
    published = np.array([[1.000000, 0.882561, 0.783392, 0.351390],
                          [0.882561, 1.000000, 0.746492, 0.298688],
                          [0.783392, 0.746492, 1.000000, 0.355440],
                          [0.351390, 0.298688, 0.355440, 1.000000]])
    np.testing.assert_allclose(corr.to_numpy(), published, atol=5e-7)


def test_best_pair_frequentist_and_bayesian(tables):
    pair = tables["pairwise.csv"].iloc[0]
    assert (pair.model_1, pair.model_2) == ("rbf", "linear")
    assert round(pair.t_stat, 3) == 0.750 and round(pair.p_value, 3) == 0.227
    assert round(pair.t_stat_uncorrected, 3) == 2.611
    assert round(pair.p_value_uncorrected, 3) == 0.005
    assert round(pair.p_mu_positive, 3) == 0.773
    assert round(pair.p_equivalent, 3) == 0.432


def test_credible_intervals(tables):
    ci = tables["credible_intervals.csv"]
    best = ci[(ci.model_1 == "rbf") & (ci.model_2 == "linear")].set_index("level")
    published = {0.5: (0.000977, 0.019023), 0.75: (-0.005422, 0.025422),
                 0.95: (-0.016445, 0.036445)}
    for level, (low, high) in published.items():
        assert best.loc[level, "lower"] == pytest.approx(low, abs=5e-7)
        assert best.loc[level, "upper"] == pytest.approx(high, abs=5e-7)


def test_pairwise_tables(tables):
    pw = tables["pairwise.csv"]
    pairs = list(zip(pw.model_1, pw.model_2))
    assert pairs == [("rbf", "linear"), ("rbf", "3_poly"), ("rbf", "2_poly"),
                     ("linear", "3_poly"), ("linear", "2_poly"), ("3_poly", "2_poly")]
    # the example's Bonferroni table (rounded to 3 places as published)
    assert pw.p_value_adjusted.round(3).tolist() == [1.0, 0.302, 0.0, 0.807, 0.0, 0.001]
    assert pw.t_stat.round(3).tolist() == [0.750, 1.657, 4.565, 1.111, 4.276, 3.851]
    # the example's Bayesian table
    assert pw.p_worse.round(3).tolist() == [0.068, 0.018, 0.0, 0.063, 0.0, 0.0]
    assert pw.p_better.round(3).tolist() == [0.5, 0.882, 1.0, 0.75, 1.0, 1.0]
    assert pw.p_equivalent.round(3).tolist() == [0.432, 0.1, 0.0, 0.187, 0.0, 0.0]
