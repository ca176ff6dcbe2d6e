"""The across-data-set report's sentences read back against its tables (issue #38)."""
from __future__ import annotations

import re
import warnings
from pathlib import Path

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


def rounding_noise_matrix() -> np.ndarray:
    """Six data sets, four models; on the first ("iris") three models have the same fold
    accuracies and so the same mean, up to the last bit of a float."""
    iris = 0.9566666666666667
    rng = np.random.default_rng(4)
    rest = rng.uniform(0.6, 0.9, (5, 4))
    first = [iris, np.nextafter(iris, 1.0), np.nextafter(np.nextafter(iris, 1.0), 1.0), 0.94]
    return np.vstack([first, rest])


def test_ranks_and_tests_do_not_break_ties_by_rounding_noise():
    stats = peer("scipy.stats")
    sp = peer("scikit_posthocs")
    matrix = rounding_noise_matrix()
    exact = np.round(matrix, 12)                    # the ties written as ties
    assert len(set(matrix[0, :3])) == 3 and len(set(exact[0, :3])) == 1
    result = compare_across(tidy(matrix), metric="accuracy", rope=0.01)
    scores = result.dataset_scores
    assert scores[scores["dataset"] == "d0"]["rank"].tolist() == [2.0, 2.0, 2.0, 4.0]
    ranks = stats.rankdata(-exact, axis=1)
    assert scores["rank"].to_numpy() == pytest.approx(ranks.ravel())
    chi2, p_value = stats.friedmanchisquare(*exact.T)
    row = result.friedman.iloc[0]
    assert row["chi2"] == pytest.approx(chi2, abs=1e-12)
    assert row["p_value"] == pytest.approx(p_value, abs=1e-12)
    noisy_chi2 = stats.friedmanchisquare(*matrix.T)[0]
    assert abs(noisy_chi2 - chi2) > 0.1                  # the noise would have moved it
    frame = pd.DataFrame(exact, columns=[f"m{j}" for j in range(4)])
    theirs = sp.posthoc_nemenyi_friedman(frame)
    for r in result.nemenyi.itertuples(index=False):
        assert r.p_value == pytest.approx(theirs.loc[r.model_1, r.model_2], abs=1e-9)
    autorank = peer("autorank")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ranked = autorank.autorank(frame, alpha=0.05, verbose=False,
                                   force_mode="nonparametric")
    assert ranked.omnibus == "friedman"
    assert ranked.pvalue == pytest.approx(p_value, abs=1e-12)
    ours = result.ranks.set_index("model")["mean_rank"]
    for model, mean_rank in ranked.rankdf["meanrank"].items():
        assert ours[model] == pytest.approx(mean_rank, abs=1e-12)


def test_ranks_within_a_data_set_tie_means_equal_up_to_rounding():
    from engine.evaluation.stats import rank_models, snap_ties

    iris = 0.9566666666666667
    means = pd.DataFrame([[iris] * 3, [np.nextafter(iris, 1.0)] * 3, [0.9] * 3],
                         index=["a", "b", "c"])
    assert rank_models(means).tolist() == [1, 1, 3]
    spread = snap_ties(np.array([1000.0, 1000.0 + 5e-10, 999.0]))   # scale 1000: tied
    assert spread[0] == spread[1] and spread[2] == 999.0
    assert snap_ties(np.array([0.5, 0.5 + 1e-9]))[1] == 0.5 + 1e-9  # a real difference


EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def shown_matches(shown: str, value: float) -> bool:
    """Whether a probability or p-value as printed (``= 0.341``, ``< 0.001``, ``> 0.999``,
    ``0.00293``) is ``value`` at its printed precision."""
    shown = shown.strip().lstrip("= ").strip()
    if shown.startswith("<"):
        return value < float(shown[1:])
    if shown.startswith(">"):
        return value > float(shown[1:])
    digits = shown.split(".")[1] if "." in shown else ""
    significant = len(digits.lstrip("0"))
    return float(f"{value:.{max(significant, 1)}g}") == pytest.approx(float(shown)) or \
        abs(float(shown) - value) <= 0.5 * 10 ** -len(digits)


@pytest.mark.parametrize("folder", ["across_2", "across_5", "across_12"])
def test_every_shipped_across_sentence_is_its_tables(folder):
    """The shipped examples' report.md read back against their CSV tables: the Bayesian
    probabilities, the Wilcoxon p-values, Friedman's statistic, the level; no rounded
    zero; a bold decision only where signed_rank.csv or wilcoxon.csv holds one."""
    from engine.runs.across.report import markdown_text as md
    from tests.helpers import rounded_zeros

    here = EXAMPLES / folder
    report = (here / "report.md").read_text(encoding="utf-8")
    assert rounded_zeros(report) == []
    signed = pd.read_csv(here / "signed_rank.csv")
    for row in signed.itertuples(index=False):
        line = next(x for x in report.splitlines()
                    if x.startswith(f"- {md(row.model_1)} against {md(row.model_2)}:"))
        shown = re.findall(r"P\([^)]*\) ([=<>] \d+(?:\.\d+)?)", line)
        values = [row.p_better, row.p_equivalent, row.p_worse]
        assert len(shown) == 3 and all(map(shown_matches, shown, values)), line
        decided = "**" in line.split("ROPE) ", 3)[-1]
        assert decided == (row.decision not in ("none", "too_few_datasets")), line
    wilcoxon = pd.read_csv(here / "wilcoxon.csv")
    for row in wilcoxon.itertuples(index=False):
        cells = next(x for x in report.splitlines()
                     if x.startswith(f"| {md(row.model_1)} | {md(row.model_2)} |")).split("|")
        assert shown_matches(cells[3], row.p_value) and shown_matches(cells[4],
                                                                      row.p_value_adjusted)
    friedman = pd.read_csv(here / "friedman.csv").iloc[0]
    if np.isfinite(friedman["chi2"]):
        found = re.search(r"Friedman chi² = (\d+(?:\.\d+)?) \(p ([=<] \d+(?:\.\d+)?)\)",
                          report)
        assert float(found.group(1)) == pytest.approx(friedman["chi2"], rel=5e-3)
        assert shown_matches(found.group(2), friedman["p_value"])
    if int(friedman["n_datasets"]) >= 6:
        level = float(re.search(r"at least (\d+(?:\.\d+)?)",
                                report.split("Bayesian signed-rank", 1)[1]).group(1))
        m = len(signed)
        assert level == pytest.approx(1 - 0.05 / m, abs=5e-5)
    scores = pd.read_csv(here / "dataset_scores.csv")
    for _, part in scores.groupby("dataset"):
        means = part["mean"].to_numpy()
        ranks = part["rank"].to_numpy()
        close = np.abs(means[:, None] - means[None, :]) <= 1e-12
        assert np.all((ranks[:, None] == ranks[None, :]) | ~close)   # equal means, equal ranks
