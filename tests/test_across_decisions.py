"""When the comparison across data sets decides (issue 26): no decision with too few data
sets, Nemenyi only after the omnibus test rejects, the Bayesian signed-rank test's posterior
probabilities (baycomp's ``sample``) beside baycomp's most-probable shares, the Wilcoxon
correction, ties shown as ties, and every data set's means on the folds every model
completed. Peers: scipy, baycomp, autorank, scikit-posthocs, statsmodels."""
from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from engine.runs.across import compare_across, minimum_datasets, signed_rank_posterior
from engine.runs.across.decisions import MIN_DATASETS, bayes_level
from engine.runs.across.report import markdown_text
from engine.evaluation.experiment import parse_experiment
from engine.foundation.progress import run_to_end
from tests.peers import peer

DATA = Path(__file__).parent / "data"
#: what a sentence that decides looks like in report.md
DECIDING = re.compile(r"\*\*|is better than|ranks better than|significantly better|differ significantly:|"
                      r"at least some models differ|are practically equivalent\.")


def tidy(matrix, models=None) -> pd.DataFrame:
    matrix = np.asarray(matrix, dtype=float)
    models = models or [f"m{j}" for j in range(matrix.shape[1])]
    return pd.DataFrame([(f"data{i}", m, matrix[i, j]) for i in range(matrix.shape[0])
                         for j, m in enumerate(models)], columns=["dataset", "model", "mean"])


# --------------------------------------------------------------------------- the minimum
@pytest.mark.parametrize("alpha", [0.1, 0.05, 0.01])
def test_the_minimum_is_where_the_exact_wilcoxon_test_can_first_reject(alpha):
    def smallest_p(n):       # one model ahead on every data set, by distinct amounts
        return stats.wilcoxon(np.arange(1.0, n + 1), method="exact").pvalue

    first = next(n for n in range(1, 30) if smallest_p(n) < alpha)
    assert minimum_datasets(alpha) == max(MIN_DATASETS, first)
    assert minimum_datasets(0.05) == 6 and smallest_p(5) == 0.0625
    assert minimum_datasets(alpha) >= 5


def test_few_data_sets_all_on_one_side_push_the_posterior_to_one():
    """Why the Bayesian test alone cannot decide with few data sets: with every
    difference beyond the ROPE, P(better) = 1 - E[w_0^2], w_0 ~ Beta(0.5, N)."""
    for n, expected in [(2, 0.914), (3, 0.952)]:
        posterior = signed_rank_posterior(np.full(n, 0.05), 0.01, n_samples=50_000)
        assert posterior.probabilities[0] == pytest.approx(
            1 - 0.75 / ((n + 0.5) * (n + 1.5)), abs=0.003)
        assert posterior.probabilities[0] == pytest.approx(expected, abs=0.003)
        assert posterior.most_probable[0] > 0.95


def two_dataset_benchmark():
    """logistic regression, naive Bayes and a tree on two real data sets (R's kyphosis and
    cats, exported with pandas)."""
    from engine.runs.benchmark import run_benchmark

    experiment = parse_experiment({
        "datasets": [{"file": str(DATA / "kyphosis.csv"), "target": "Kyphosis"},
                     {"file": str(DATA / "cats.csv"), "target": "Sex"}],
        "models": [{"name": "logistic", "estimator": "LogisticRegression", "scale": True},
                   {"name": "naive_bayes", "estimator": "GaussianNB"},
                   {"name": "tree", "estimator": "DecisionTreeClassifier",
                    "params": {"max_depth": 2}}],
        "cv": {"n_splits": 5, "n_repeats": 2, "random_state": 3},
        "metrics": ["roc_auc"]})
    return run_to_end(run_benchmark(experiment))


@pytest.fixture(scope="module")
def two():
    return two_dataset_benchmark()


def test_two_real_data_sets_state_no_decision_anywhere(two):
    across = two.across
    assert across.n_datasets == 2 and not across.decides and across.min_datasets == 6
    text = across.report()
    assert "## No decision with 2 data sets" in text
    assert "needs at least 6 data sets" in text
    assert not DECIDING.search(text), DECIDING.search(text)
    assert set(across.signed_rank["decision"]) == {"too_few_datasets"}
    assert not across.wilcoxon["significant"].any()
    assert not across.nemenyi["significant"].any()
    assert "across_no_decision" in [n.code for n in across.notes]
    # the numbers are still there: every probability of the table is in the text
    for row in across.signed_rank.itertuples(index=False):
        assert f"{row.p_better:.3f}" in text or row.p_better < 0.001 or row.p_better > 0.999


def test_posthoc_is_read_only_after_the_omnibus_test_rejects():
    """Ten models on eight data sets: Iman-Davenport p = 0.057 does not reject, while
    the best and worst models' mean ranks lie beyond the critical difference (Nemenyi p =
    0.0048): no Nemenyi difference is stated. autorank (which uses Friedman's chi-square)
    does not reject either and computes the same critical difference; scikit-posthocs
    gives the same Nemenyi p-values."""
    rng = np.random.default_rng(27)
    values = rng.uniform(0.7, 0.9, (8, 10))
    values[:, 0] += 0.08
    values[:, -1] -= 0.08
    values = np.round(values, 3)
    result = compare_across(tidy(values), metric="roc_auc", n_samples=5000)
    friedman = result.friedman.iloc[0]
    assert 0.05 < friedman["iman_davenport_p_value"] < 0.06
    pair = result.nemenyi[(result.nemenyi["model_1"] == "m0") & (result.nemenyi["model_2"] == "m9")]
    assert bool(pair["beyond_critical_difference"].iloc[0]) and pair["p_value"].iloc[0] < 0.01
    assert not result.nemenyi["significant"].any() and not result.posthoc_interpretable
    assert "across_posthoc_not_interpretable" in [n.code for n in result.notes]
    text = result.report()
    section = text[text.index("## Which models differ?"):text.index("## Pairs, one at a time")]
    assert "Not interpretable here: the Friedman test does not reject" in section
    assert "m0 and m9: mean ranks" in section and "not interpretable" in section
    assert "is better than" not in section and "**" not in section
    assert "Benavoli, Corani and Mangili 2016" in section
    autorank = pytest.importorskip("autorank")
    sp = pytest.importorskip("scikit_posthocs")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = autorank.autorank(pd.DataFrame(values, columns=[f"m{j}" for j in range(10)]),
                                   alpha=0.05, verbose=False, force_mode="nonparametric")
    assert theirs.omnibus == "friedman" and theirs.pvalue >= 0.05
    assert theirs.pvalue == pytest.approx(friedman["p_value"], rel=1e-12)
    # autorank reads q_alpha from a table of four decimals
    assert theirs.cd == pytest.approx(result.nemenyi["critical_difference"].iloc[0], rel=1e-4)
    posthoc = sp.posthoc_nemenyi_friedman(values)
    for row in result.nemenyi.itertuples(index=False):
        i, j = int(row.model_1[1:]), int(row.model_2[1:])
        assert row.p_value == pytest.approx(posthoc.iloc[i, j], abs=1e-9)


def test_posthoc_after_a_rejecting_omnibus_test_states_the_differences():
    rng = np.random.default_rng(3)
    values = rng.uniform(0.7, 0.9, (14, 4)) + np.array([0.0, 0.0, 0.03, 0.08])
    result = compare_across(tidy(values), metric="roc_auc", n_samples=5000)
    assert result.posthoc_interpretable
    significant = result.nemenyi[result.nemenyi["significant"]]
    assert len(significant) and significant["beyond_critical_difference"].all()
    for row in significant.itertuples(index=False):
        assert f"**{row.model_1} ranks better than {row.model_2}**" in result.report()


# --------------------------------------------------------------------------- Bayesian
CONFIGS = [(8, 0.01, 0.01, 0.01), (12, 0.0, 0.02, 0.02), (20, 0.005, 0.01, 0.0),
           (6, 0.03, 0.005, 0.01)]


@pytest.mark.parametrize("n, shift, noise, rope", CONFIGS)
def test_posterior_probabilities_are_baycomps_sample_means(n, shift, noise, rope):
    baycomp = pytest.importorskip("baycomp")
    rng = np.random.default_rng(n)
    x = rng.normal(0.8, 0.03, n)
    y = x - shift + rng.normal(0, noise, n)
    ours = signed_rank_posterior(x - y, rope, n_samples=20_000, random_state=5)
    sample = baycomp.SignedRankTest.sample(x, y, rope, nsamples=20_000, random_state=5)
    np.testing.assert_allclose(ours.probabilities, sample.mean(axis=0), atol=2e-6)
    theirs = baycomp.two_on_multiple(x, y, rope=rope, nsamples=20_000, random_state=5)
    np.testing.assert_allclose(ours.most_probable, theirs, atol=2 / 20_000)


def test_signed_rank_table_holds_both_and_decides_at_the_adjusted_level():
    rng = np.random.default_rng(4)
    values = rng.uniform(0.7, 0.9, (10, 3)) + np.array([0.0, 0.015, 0.05])
    result = compare_across(tidy(values), metric="roc_auc", n_samples=20_000)
    assert result.bayes_level == pytest.approx(1 - 0.05 / 3) == bayes_level(0.05, "holm", 3)
    table = result.signed_rank
    sums = table[["p_better", "p_equivalent", "p_worse"]].sum(axis=1)
    np.testing.assert_allclose(sums, 1.0, atol=1e-6)
    for row in table.itertuples(index=False):
        expected = ("model_1" if row.p_better >= result.bayes_level else "model_2"
                    if row.p_worse >= result.bayes_level else "equivalent"
                    if row.p_equivalent >= result.bayes_level else "none")
        assert row.decision == expected
    none = compare_across(tidy(values), metric="roc_auc", n_samples=20_000, correction="none")
    assert none.bayes_level == pytest.approx(0.95)
    assert "read on its own, without adjustment" in none.report()


def test_a_consistent_difference_inside_the_rope_says_how_the_tests_differ():
    """Ten data sets, one model ahead by 0.002 to 0.004 on every one: Wilcoxon finds a
    significant difference (exact p = 2/1024), the Bayesian test calls the two practically
    equivalent (ROPE 0.01); the report says both and why they do not contradict."""
    x = np.full(10, 0.85)
    y = x - np.linspace(0.002, 0.004, 10)
    result = compare_across(tidy(np.column_stack([x, y]), models=["a", "b"]),
                            metric="roc_auc")
    assert result.wilcoxon["p_value"].iloc[0] == pytest.approx(2 / 1024)
    assert result.signed_rank["decision"].iloc[0] == "equivalent"
    text = result.report()
    assert "**They are practically equivalent.** The Wilcoxon test finds a significant" in text
    assert "smaller than the ROPE" in text


def test_a_bayesian_decision_the_wilcoxon_test_does_not_share_says_they_disagree():
    """The wording when the Bayesian test decides and the Wilcoxon test does not (no such
    case turned up in 3000 random pairs of 6 to 10 data sets: the posterior probability is
    the stricter of the two; the words are there for when it happens)."""
    from types import SimpleNamespace

    from engine.runs.across.report import decision_words

    result = compare_across(tidy(np.random.default_rng(1).uniform(0.7, 0.9, (8, 3))),
                            metric="roc_auc", n_samples=1000)
    row = SimpleNamespace(decision="model_1", model_1="a", model_2="b")
    wilcoxon = SimpleNamespace(significant=False, p_value_adjusted=0.0625)
    words = decision_words(row, result, wilcoxon, None)
    assert words.startswith(" **a is better than b by more than the ROPE.**")
    assert "does not find a significant difference (Wilcoxon p = 0.0625 after Holm)" in words
    assert "the tests disagree" in words
    agree = decision_words(row, result, SimpleNamespace(significant=True,
                                                         p_value_adjusted=0.01), None)
    assert "The Wilcoxon test agrees" in agree and "disagree" not in agree


# --------------------------------------------------------------------------- Wilcoxon, ties
@pytest.mark.parametrize("correction, method", [("holm", "holm"), ("bonferroni", "bonferroni"),
                                                ("none", None)])
def test_wilcoxon_follows_the_correction(correction, method):
    multipletests = peer("statsmodels.stats.multitest").multipletests

    rng = np.random.default_rng(8)
    values = rng.uniform(0.7, 0.9, (9, 4)) + np.array([0.0, 0.01, 0.03, 0.04])
    result = compare_across(tidy(values), metric="roc_auc", correction=correction,
                            n_samples=2000)
    p = result.wilcoxon["p_value"].to_numpy()
    expected = p if method is None else multipletests(p, method=method)[1]
    np.testing.assert_allclose(result.wilcoxon["p_value_adjusted"], expected, rtol=1e-12)
    np.testing.assert_array_equal(result.wilcoxon["significant"], expected < 0.05)
    header = {"holm": "p (Holm)", "bonferroni": "p (Bonferroni)", "none": "p (not adjusted)"}
    assert f"| model 1 | model 2 | p | {header[correction]} | significant |" in result.report()
    with pytest.raises(ValueError, match="unknown correction"):
        compare_across(tidy(values), metric="roc_auc", correction="sidak")


def test_tied_mean_ranks_share_a_place_in_the_report():
    values = np.array([[0.9, 0.8, 0.7], [0.9, 0.7, 0.8]] * 3)       # mean ranks 1, 2.5, 2.5
    result = compare_across(tidy(values), metric="roc_auc", n_samples=2000)
    assert result.ranks["mean_rank"].iloc[1] == result.ranks["mean_rank"].iloc[2]
    text = result.report()
    lines = [line for line in text.splitlines() if line.startswith("| 1 ") or
             line.startswith("| 2= ")]
    assert len(lines) == 3 and sum(line.startswith("| 2= ") for line in lines) == 2


# --------------------------------------------------------------------------- common folds
def test_every_data_sets_means_are_on_the_folds_every_model_completed(monkeypatch):
    """A naive Bayes that raises whenever one marked row is in the test fold: its other
    folds are kept by the data set's own summary, but its mean across data sets (and every
    other model's) is over the folds every model completed there."""
    from sklearn.naive_bayes import GaussianNB

    from engine.runs.benchmark import run_benchmark

    cats = pd.read_csv(DATA / "cats.csv")
    marker = float(cats["Hwt"].max())
    original = GaussianNB.fit

    def flaky(self, X, y, sample_weight=None):
        X = np.asarray(X, dtype=float)
        if X.shape[1] == 2 and X[:, 1].max() < marker:   # cats, the marked row is tested
            raise ValueError("this fold is too hard")
        return original(self, X, y, sample_weight=sample_weight)

    monkeypatch.setattr(GaussianNB, "fit", flaky)
    experiment = parse_experiment({
        "datasets": [{"file": str(DATA / "cats.csv"), "target": "Sex"},
                     {"file": str(DATA / "kyphosis.csv"), "target": "Kyphosis"}],
        "models": [{"name": "logistic", "estimator": "LogisticRegression", "scale": True},
                   {"name": "flaky_nb", "estimator": "GaussianNB"},
                   {"name": "tree", "estimator": "DecisionTreeClassifier",
                    "params": {"max_depth": 2}}],
        "cv": {"n_splits": 5, "n_repeats": 3, "random_state": 1}, "metrics": ["roc_auc"]})
    benchmark = run_to_end(run_benchmark(experiment))
    scores = benchmark.tables()["fold_scores.csv"]
    cats_scores = scores[scores["dataset"] == "cats"]
    matrix = cats_scores.pivot_table(index=["repeat", "fold"], columns="model",
                                     values="score", dropna=False)
    assert matrix["flaky_nb"].isna().sum() == 3          # one fold per repeat
    common = matrix.dropna()
    table = benchmark.across.dataset_scores.set_index(["dataset", "model"])
    for model in ("logistic", "flaky_nb", "tree"):
        assert table.loc[("cats", model), "mean"] == pytest.approx(common[model].mean(),
                                                                   rel=1e-12)
        assert table.loc[("cats", model), "n_folds"] == 12
    own = matrix["logistic"].mean()            # over all 15 folds, the hard ones too
    assert own != pytest.approx(common["logistic"].mean(), abs=1e-6)
    assert table.loc[("cats", "flaky_nb"), "n_failed"] == 3
    assert table.loc[("kyphosis", "flaky_nb"), "n_folds"] == 15    # no failure there
    note = next(n for n in benchmark.across.notes if n.code == "across_failed_folds")
    assert note.fields["models"] == ("flaky_nb",)
    assert dict(note.fields["folds"]) == {"flaky_nb": (("cats", 3),)}
    assert markdown_text(str(note)) in benchmark.across.report()   # flaky\_nb


def test_the_signed_rank_draws_are_seeded_with_the_cv_random_state(two):
    """docs = code: the Bayesian signed-rank test's seed is the experiment's
    cv.random_state (3 here)."""
    from engine.runs.benchmark import dataset_means, finish

    benchmark = two
    again = finish(benchmark.experiment, benchmark.results)
    pd.testing.assert_frame_equal(again.across.signed_rank, benchmark.across.signed_rank)
    rope = benchmark.across.rope                    # the metric family's default ROPE
    direct = compare_across(dataset_means(benchmark.results), metric="roc_auc", rope=rope,
                            random_state=benchmark.experiment.cv.random_state,
                            correction=benchmark.experiment.comparison.correction)
    pd.testing.assert_frame_equal(direct.signed_rank, benchmark.across.signed_rank)
    seeded_0 = compare_across(dataset_means(benchmark.results), metric="roc_auc", rope=rope,
                              random_state=0)
    assert not seeded_0.signed_rank["p_better"].equals(benchmark.across.signed_rank["p_better"])
    docs = " ".join((Path(__file__).parents[1] / "docs" / "experiment-format.md")
                    .read_text().split())
    assert "seeded with the experiment's `cv.random_state`" in docs


# --------------------------------------------------------------------------- the examples
EXAMPLES = Path(__file__).parents[1] / "docs" / "examples"


@pytest.mark.parametrize("size", [2, 5])
def test_the_examples_below_the_minimum_decide_nothing(size):
    folder = EXAMPLES / f"across_{size}"
    text = (folder / "report.md").read_text(encoding="utf-8")
    assert f"## No decision with {size} data sets" in text
    assert not DECIDING.search(text), DECIDING.search(text)
    signed = pd.read_csv(folder / "signed_rank.csv")
    assert set(signed["decision"]) == {"too_few_datasets"}
    assert not pd.read_csv(folder / "wilcoxon.csv")["significant"].any()


def test_the_twelve_data_set_example_bolds_only_what_its_tables_decide():
    folder = EXAMPLES / "across_12"
    text = (folder / "report.md").read_text(encoding="utf-8")
    nemenyi = pd.read_csv(folder / "nemenyi.csv")
    wilcoxon = pd.read_csv(folder / "wilcoxon.csv")
    signed = pd.read_csv(folder / "signed_rank.csv")
    friedman = pd.read_csv(folder / "friedman.csv").iloc[0]
    bold = re.findall(r"\*\*(.+?)\*\*", text)
    expected = ["at least some models differ"] if friedman["iman_davenport_p_value"] < 0.05 \
        else []
    expected += [f"{r.model_1} ranks better than {r.model_2}"
                 for r in nemenyi.itertuples(index=False) if r.significant]
    expected += ["yes"] * int(wilcoxon["significant"].sum())
    for r in signed.itertuples(index=False):
        if r.decision in ("model_1", "model_2"):
            winner, loser = ((r.model_1, r.model_2) if r.decision == "model_1"
                             else (r.model_2, r.model_1))
            expected.append(f"{winner} is better than {loser} by more than the ROPE.")
        elif r.decision == "equivalent":
            expected.append("They are practically equivalent.")
    assert sorted(bold) == sorted(expected)
    # the signed-rank probabilities are the posterior means: they sum to 1
    np.testing.assert_allclose(signed[["p_better", "p_equivalent", "p_worse"]].sum(axis=1),
                               1.0, atol=1e-6)
