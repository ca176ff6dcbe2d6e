"""An interval for every model's score (issue 26, item 7): ``summary.csv``'s ``ci_low`` and
``ci_high`` are mean ± t(1−α/2, k·r−1)·sqrt((1/(k·r) + n_test/n_train)·s²) with mean fold
sizes, at the comparison's α, checked against the formula computed here with
``scipy.stats.t`` from ``fold_scores.csv`` alone."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from engine.runs.analysis import run_experiment
from engine.evaluation.experiment import parse_experiment
from engine.foundation.progress import run_to_end
from engine.evaluation.stats import ComparisonSettings, summary_table

DATA = Path(__file__).parent / "data" / "creditcard.csv"


def _expected(scores: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """The interval by the formula, independent of engine.evaluation.stats."""
    splits = scores.drop_duplicates(["repeat", "fold"])
    n_train, n_test = splits["n_train"].mean(), splits["n_test"].mean()
    rows = []
    for (model, metric), part in scores.groupby(["model", "metric"], sort=False):
        values = part["score"].dropna().to_numpy()
        n = len(values)
        half = (stats.t(df=n - 1).ppf(1 - alpha / 2)
                * np.sqrt((1 / n + n_test / n_train) * np.var(values, ddof=1)))
        rows.append((model, metric, values.mean() - half, values.mean() + half))
    return pd.DataFrame(rows, columns=["model", "metric", "ci_low", "ci_high"])


@pytest.fixture(scope="module")
def result():
    experiment = parse_experiment({
        "dataset": {"csv": str(DATA), "target": "card", "pos_label": "no"},
        "models": [{"name": "logistic", "estimator": "LogisticRegression", "scale": True,
                    "params": {"max_iter": 2000}},
                   {"name": "tree", "estimator": "DecisionTreeClassifier",
                    "params": {"max_depth": 3, "random_state": 0}}],
        "metrics": ["roc_auc", "balanced_accuracy"],
        "cv": {"n_splits": 5, "n_repeats": 3, "random_state": 1},
        "comparison": {"alpha": 0.1}})
    return run_to_end(run_experiment(experiment))


def test_summary_intervals_equal_the_formula_at_the_comparisons_alpha(result):
    summary = result.tables()["summary.csv"]
    assert list(summary.columns[-3:]) == ["ci_low", "ci_high", "estimand"]
    assert set(summary["estimand"]) == {"expected_score_at_training_size"}
    expected = _expected(result.cv.scores, alpha=0.1)
    merged = summary.merge(expected, on=["model", "metric"], suffixes=("", "_expected"))
    assert len(merged) == 4
    np.testing.assert_allclose(merged["ci_low"], merged["ci_low_expected"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(merged["ci_high"], merged["ci_high_expected"], rtol=0,
                               atol=1e-12)
    assert (merged["ci_low"] < merged["mean"]).all() and (merged["mean"] < merged["ci_high"]).all()
    # the correction makes it wider than the naive t interval of 15 folds
    naive = stats.t(df=14).ppf(0.95) * result.cv.scores.groupby(
        ["model", "metric"], sort=False)["score"].std(ddof=1).to_numpy() / np.sqrt(15)
    assert ((merged["ci_high"] - merged["mean"]).to_numpy() > naive * 1.5).all()


def test_intervals_follow_alpha_when_the_comparison_changes(result):
    again = result.with_comparison(ComparisonSettings(alpha=0.01))
    expected = _expected(result.cv.scores, alpha=0.01)
    merged = again.summary.merge(expected, on=["model", "metric"], suffixes=("", "_expected"))
    np.testing.assert_allclose(merged["ci_low"], merged["ci_low_expected"], rtol=0, atol=1e-12)
    assert ((again.summary["ci_high"] - again.summary["ci_low"]).to_numpy()
            > (result.summary["ci_high"] - result.summary["ci_low"]).to_numpy()).all()


def test_failed_folds_are_left_out_and_one_fold_gives_no_interval():
    scores = pd.DataFrame({
        "model": ["a"] * 4 + ["b"] * 4, "repeat": [1] * 8, "fold": [1, 2, 3, 4] * 2,
        "metric": ["acc"] * 8, "score": [0.8, 0.7, np.nan, 0.9, 0.6, np.nan, np.nan, np.nan],
        "n_train": [90, 90, 90, 90] * 2, "n_test": [30, 30, 30, 30] * 2,
        "fit_seconds": [0.1] * 8})
    summary = summary_table(scores, ("a", "b"), ("acc",), alpha=0.05).set_index("model")
    values = np.array([0.8, 0.7, 0.9])
    half = stats.t(2).ppf(0.975) * np.sqrt((1 / 3 + 30 / 90) * values.var(ddof=1))
    assert summary.loc["a", "ci_low"] == pytest.approx(0.8 - half, abs=1e-12)
    assert summary.loc["a", "ci_high"] == pytest.approx(0.8 + half, abs=1e-12)
    assert np.isnan(summary.loc["b", "ci_low"]) and np.isnan(summary.loc["b", "ci_high"])
