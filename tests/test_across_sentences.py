"""The across-data-set report's sentences read back against its tables (issue #38)."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from engine.runs.across import compare_across
from engine.runs.across.decisions import fewest_for_level, highest_probability
from tests.peers import peer


def tidy(matrix: np.ndarray, models=None) -> pd.DataFrame:
    models = models or [f"m{j}" for j in range(matrix.shape[1])]
    return pd.DataFrame([{"dataset": f"d{i}", "model": models[j], "mean": matrix[i, j],
                          "n_folds": 10, "n_failed": 0}
                         for i in range(matrix.shape[0]) for j in range(matrix.shape[1])])


@pytest.mark.parametrize("n", [2, 3, 7, 9])
def test_the_highest_probability_is_baycomps_with_every_difference_on_one_side(n):
    baycomp = peer("baycomp")
    x = np.linspace(0.8, 0.9, n)
    sample = baycomp.SignedRankTest.sample(x, x - 0.2, 0.01, nsamples=50_000,
                                           random_state=1)
    assert sample.mean(axis=0).max() == pytest.approx(highest_probability(n, 0.01), abs=4e-3)


def test_the_highest_probability_reaches_the_issues_numbers():
    assert highest_probability(7, 0.01) == pytest.approx(0.9882, abs=1e-4)
    assert highest_probability(8, 0.01) < 1 - 0.05 / 6 <= highest_probability(9, 0.01)
    assert fewest_for_level(1 - 0.05 / 6, 0.01) == 9
    assert fewest_for_level(0.95, 0.01) == 3


def test_an_unreachable_bayesian_level_is_said_with_its_numbers():
    rng = np.random.default_rng(0)
    matrix = rng.uniform(0.6, 0.9, (7, 1)) + np.array([0.0, 0.05, 0.10, 0.15])
    result = compare_across(tidy(matrix), metric="roc_auc", rope=0.01, correction="holm")
    report = result.report()
    found = re.search(r"at least ([\d.]+): with (\d+) pairs", report)
    assert float(found.group(1)) == pytest.approx(result.bayes_level, abs=5e-5)
    assert int(found.group(2)) == len(result.signed_rank) == 6
    found = re.search(r"No result can reach ([\d.]+) with fewer than (\d+) data sets: with "
                      r"(\d+) data sets the highest probability this test can give is ([\d.]+)",
                      report)
    assert found, report
    assert int(found.group(2)) == 9 and int(found.group(3)) == 7
    assert float(found.group(4)) == pytest.approx(0.9882, abs=1e-4)
    assert (result.signed_rank[["p_better", "p_worse"]].max(axis=1)
            <= float(found.group(4)) + 1e-9).all()
    assert set(result.signed_rank["decision"]) == {"none"}
    assert "a Bayesian decision at 0.9917 needs at least 9 (there are 7)" in report


def test_two_models_are_not_told_about_friedman_and_nemenyi():
    rng = np.random.default_rng(1)
    matrix = rng.uniform(0.6, 0.9, (8, 1)) + np.array([0.0, 0.05])
    report = compare_across(tidy(matrix), metric="roc_auc", rope=0.01).report()
    how = report.split("## How to read this", 1)[1]
    assert "Friedman test first asks" not in how and "Nemenyi test read" not in how
    assert "With two models the Wilcoxon and Bayesian signed-rank tests compare them" in how
    assert "No result can reach" not in report


def test_three_models_keep_the_friedman_explanation():
    rng = np.random.default_rng(1)
    matrix = rng.uniform(0.6, 0.9, (8, 1)) + np.array([0.0, 0.05, 0.1])
    how = compare_across(tidy(matrix), metric="roc_auc", rope=0.01).report().split(
        "## How to read this", 1)[1]
    assert "The Friedman test first asks whether the models differ at all" in how
