"""Tests for engine.runs.across: models compared across data sets.

Every number is checked against an independent computation: scipy directly on the same
matrix (ranks, Friedman, Wilcoxon), the formulas (Iman-Davenport, Nemenyi), the figures
Demšar (2006) published for his example, statsmodels (Holm), autorank (critical
difference, mean ranks, the groups of the diagram) and baycomp (the Bayesian
signed-rank test). The peer tools are test-only and skipped when absent.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from engine.runs.across import (PRIOR_STRENGTH, TABLE_FILES, compare_across,
                                signed_rank_probabilities)
from engine.runs.across.frequentist import (PERMUTATION_MAX, scipy_has_permutation_wilcoxon,
                                            critical_difference, wilcoxon_method)
from engine.foundation.notes import CODES
from tests.peers import peer

# Demšar (2006), Table 6: AUC of C4.5 and three variants on 14 UCI data sets (as printed,
# three decimals).
DEMSAR_MODELS = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DEMSAR_DATASETS = ["adult (sample)", "breast cancer", "breast cancer wisconsin", "cmc",
                   "ionosphere", "iris", "liver disorders", "lung cancer", "lymphography",
                   "mushroom", "primary tumor", "rheum", "voting", "wine"]
DEMSAR_AUC = np.array([
    [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    [0.972, 0.981, 0.975, 0.975], [0.957, 0.978, 0.946, 0.970]])


def tidy(matrix, datasets=None, models=None) -> pd.DataFrame:
    matrix = np.asarray(matrix, dtype=float)
    datasets = datasets or [f"data{i}" for i in range(matrix.shape[0])]
    models = models or [f"m{j}" for j in range(matrix.shape[1])]
    return pd.DataFrame([(d, m, matrix[i, j]) for i, d in enumerate(datasets)
                         for j, m in enumerate(models)], columns=["dataset", "model", "mean"])


def demsar(voting_cf=0.975):
    """Demšar's table; his published ranks (2.893 and 1.964) need C4.5+cf ahead of
    C4.5+m+cf on "voting", where the printed values (0.975, 0.975) tie: the unrounded
    values differed, so ``voting_cf=0.97501`` reproduces them."""
    auc = DEMSAR_AUC.copy()
    auc[12, 2] = voting_cf
    return tidy(auc, DEMSAR_DATASETS, DEMSAR_MODELS)


def random_matrix(n, k, seed=0, spread=0.02, noise=0.01, decimals=None):
    rng = np.random.default_rng(seed)
    values = (rng.uniform(0.7, 0.95, n)[:, None] + np.linspace(0, spread, k)[None, :]
              + rng.normal(0, noise, (n, k)))
    return np.round(values, decimals) if decimals else values


def codes(result) -> list:
    return [note.code for note in result.notes]


def by_pair(table: pd.DataFrame) -> dict:
    return {(r.model_1, r.model_2): r for r in table.itertuples(index=False)}


def scipy_matrix(result, values, models):
    """``values`` (data sets x models, in ``models`` order) in the ranks table's order."""
    order = [models.index(m) for m in result.ranks["model"]]
    return values[:, order]


# --------------------------------------------------------------------------- Demšar (2006)
def test_demsar_published_ranks_friedman_and_critical_difference():
    result = compare_across(demsar(voting_cf=0.97501), metric="roc_auc")
    mean_rank = dict(zip(result.ranks["model"], result.ranks["mean_rank"]))
    published = {"C4.5": 3.143, "C4.5+m": 2.000, "C4.5+cf": 2.893, "C4.5+m+cf": 1.964}
    assert mean_rank == pytest.approx(published, abs=5e-4)
    assert result.ranks["model"].tolist() == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]
    # Demšar's chi2_F = 12N/(k(k+1)) (sum R^2 - k(k+1)^2/4) = 9.28 and F_F = 3.69 (he
    # leaves out scipy's correction for ties: "mushroom" ties all four)
    n, k = 14, 4
    ranks = result.ranks["mean_rank"].to_numpy()
    chi2_f = 12 * n / (k * (k + 1)) * (np.sum(ranks ** 2) - k * (k + 1) ** 2 / 4)
    assert chi2_f == pytest.approx(9.28, abs=5e-3)
    assert (n - 1) * chi2_f / (n * (k - 1) - chi2_f) == pytest.approx(3.69, abs=5e-3)
    nemenyi = result.nemenyi
    assert nemenyi["critical_difference"].iloc[0] == pytest.approx(1.25, abs=5e-3)
    assert nemenyi["critical_difference"].iloc[0] == pytest.approx(
        2.569 * np.sqrt(k * (k + 1) / (6 * n)), abs=5e-4)      # q_0.05 = 2.569 (his Table 5)
    assert not nemenyi["significant"].any()                   # 1.179 < 1.25
    assert result.cliques() == [["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]]


def test_demsar_at_alpha_010_two_variants_beat_c45():
    result = compare_across(demsar(voting_cf=0.97501), metric="roc_auc", alpha=0.10)
    cd = result.nemenyi["critical_difference"].iloc[0]
    assert cd == pytest.approx(2.291 * np.sqrt(4 * 5 / (6 * 14)), abs=5e-4)   # q_0.10 = 2.291
    significant = result.nemenyi[result.nemenyi["significant"]]
    assert set(zip(significant["model_1"], significant["model_2"])) == {
        ("C4.5+m+cf", "C4.5"), ("C4.5+m", "C4.5")}
    assert result.cliques() == [["C4.5+m+cf", "C4.5+m", "C4.5+cf"], ["C4.5+cf", "C4.5"]]


def test_demsar_wilcoxon_example_t_equals_12():
    """Demšar's Wilcoxon example, C4.5+m against C4.5: R+ = 93, R- = 12, so T = 12 (the
    zero difference on "lung cancer" splits its rank)."""
    result = compare_across(demsar(), metric="roc_auc")
    row = by_pair(result.wilcoxon)[("C4.5+m", "C4.5")]
    assert row.statistic == 12.0
    direct = stats.wilcoxon(DEMSAR_AUC[:, 1], DEMSAR_AUC[:, 0], zero_method="zsplit",
                            method="approx" if not scipy_has_permutation_wilcoxon()
                            else "asymptotic")
    assert row.p_value == pytest.approx(direct.pvalue, rel=1e-12)
    assert row.p_value < 0.05 and row.method == "asymptotic"


@pytest.mark.parametrize("alpha, published", [
    (0.05, [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]),
    (0.10, [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920])])
def test_nemenyi_q_alpha_is_demsars_table(alpha, published):
    for k, q in zip(range(2, 11), published):
        n = 7
        q_alpha = critical_difference(alpha, k, n) / np.sqrt(k * (k + 1) / (6 * n))
        assert q_alpha == pytest.approx(q, abs=1e-3), k


# --------------------------------------------------------------------------- against scipy
def test_ranks_are_scipy_rankdata_per_dataset_with_average_ties():
    values = random_matrix(9, 5, decimals=2)                 # rounded: ties
    models = [f"m{j}" for j in range(5)]
    result = compare_across(tidy(values), metric="accuracy")
    expected = np.vstack([stats.rankdata(-row) for row in values])
    got = result.dataset_scores["rank"].to_numpy().reshape(9, 5)
    np.testing.assert_array_equal(got, expected)
    assert (expected % 1 == 0.5).any()                        # the data has ties
    means = dict(zip(result.ranks["model"], result.ranks["mean_rank"]))
    assert [means[m] for m in models] == pytest.approx(expected.mean(axis=0))
    assert result.ranks["mean_rank"].is_monotonic_increasing
    assert (result.ranks["n_datasets"] == 9).all()
    assert result.dataset_scores["mean"].to_numpy() == pytest.approx(values.ravel())


def test_friedman_and_iman_davenport_against_scipy_and_the_formula():
    values = random_matrix(12, 5, seed=3)
    result = compare_across(tidy(values), metric="roc_auc")
    row = result.friedman.iloc[0]
    direct = stats.friedmanchisquare(*values.T)
    assert row["chi2"] == pytest.approx(direct.statistic, rel=1e-12)
    assert row["p_value"] == pytest.approx(direct.pvalue, rel=1e-12)
    n, k = 12, 5
    f = (n - 1) * direct.statistic / (n * (k - 1) - direct.statistic)
    assert row["iman_davenport_f"] == pytest.approx(f, rel=1e-12)
    assert row["iman_davenport_p_value"] == pytest.approx(
        stats.f.sf(f, k - 1, (k - 1) * (n - 1)), rel=1e-12)
    assert (row["n_datasets"], row["n_models"]) == (12, 5)


def test_wilcoxon_against_scipy_on_the_same_matrix_and_holm():
    values = random_matrix(15, 4, seed=5)
    models = [f"m{j}" for j in range(4)]
    result = compare_across(tidy(values), metric="roc_auc")
    ordered = scipy_matrix(result, values, models)
    names = result.ranks["model"].tolist()
    rows = by_pair(result.wilcoxon)
    for i in range(4):
        for j in range(i + 1, 4):
            direct = stats.wilcoxon(ordered[:, i], ordered[:, j], zero_method="zsplit")
            row = rows[(names[i], names[j])]
            assert row.statistic == direct.statistic
            assert row.p_value == pytest.approx(direct.pvalue, rel=1e-12)
            assert row.method == "exact"                      # no ties, 15 data sets


def test_holm_against_statsmodels():
    multitest = peer("statsmodels.stats.multitest")
    result = compare_across(tidy(random_matrix(9, 6, seed=5, spread=0.03)), metric="roc_auc")
    _, holm, _, _ = multitest.multipletests(result.wilcoxon["p_value"], method="holm")
    np.testing.assert_allclose(result.wilcoxon["p_value_adjusted"], holm, rtol=1e-12)


@pytest.mark.parametrize("n, decimals", [(8, 2), (20, 2), (60, None)])
def test_wilcoxon_methods_follow_scipys_auto_choice(n, decimals):
    """Ties and n <= 13: all sign flips; ties and more data sets, or more than 50:
    the normal approximation; scipy >= 1.15's method="auto" chooses the same."""
    values = random_matrix(n, 3, seed=n, decimals=decimals)
    result = compare_across(tidy(values), metric="accuracy")
    models = ["m0", "m1", "m2"]
    ordered = scipy_matrix(result, values, models)
    expected = {(8, 2): "permutation", (20, 2): "asymptotic", (60, None): "asymptotic"}
    methods = set(result.wilcoxon["method"])
    if not scipy_has_permutation_wilcoxon():
        expected[(8, 2)] = "asymptotic"
    assert expected[(n, decimals)] in methods
    if scipy_has_permutation_wilcoxon():
        names = result.ranks["model"].tolist()
        for i, j in [(0, 1), (0, 2), (1, 2)]:
            direct = stats.wilcoxon(ordered[:, i], ordered[:, j], zero_method="zsplit")
            row = by_pair(result.wilcoxon)[(names[i], names[j])]
            assert row.p_value == pytest.approx(direct.pvalue, rel=1e-10)
    assert "across_wilcoxon_method" in codes(result)


def test_wilcoxon_method_rule():
    assert wilcoxon_method(np.array([0.1, -0.2, 0.3])) == "exact"
    assert wilcoxon_method(np.array([0.1, -0.1, 0.3])) in ("permutation", "asymptotic")
    assert wilcoxon_method(np.array([0.0, -0.2, 0.3])) in ("permutation", "asymptotic")
    assert wilcoxon_method(np.zeros(4)) == ""
    ties = np.r_[[0.1, -0.1], np.arange(1, PERMUTATION_MAX + 1) / 10]
    assert wilcoxon_method(ties) == "asymptotic"              # 15 data sets with ties


# --------------------------------------------------------------------------- Nemenyi
def test_nemenyi_critical_difference_and_p_values_from_the_formula():
    values = random_matrix(10, 6, seed=2)
    result = compare_across(tidy(values), metric="roc_auc", alpha=0.05)
    n, k = 10, 6
    cd = stats.studentized_range.ppf(0.95, k, np.inf) / np.sqrt(2) * np.sqrt(k * (k + 1) / (6 * n))
    table = result.nemenyi
    assert len(table) == k * (k - 1) // 2
    assert table["critical_difference"].to_numpy() == pytest.approx(np.full(len(table), cd))
    rank = dict(zip(result.ranks["model"], result.ranks["mean_rank"]))
    for r in table.itertuples(index=False):
        gap = rank[r.model_2] - rank[r.model_1]
        assert gap >= 0 and r.mean_rank_difference == pytest.approx(gap)
        q = gap * np.sqrt(2) / np.sqrt(k * (k + 1) / (6 * n))
        assert r.p_value == pytest.approx(stats.studentized_range.sf(q, k, np.inf), abs=1e-9)
        assert r.significant == (gap > cd)
        assert (r.p_value < 0.05) == r.significant


def _autorank(values, alpha):
    mpl = peer("matplotlib")
    mpl.use("Agg")
    autorank = peer("autorank")
    from autorank._util import get_sorted_rank_groups

    frame = pd.DataFrame(values, columns=[f"m{j}" for j in range(values.shape[1])])
    result = autorank.autorank(frame, alpha=alpha, verbose=False, force_mode="nonparametric")
    return result, get_sorted_rank_groups(result, reverse=True)     # best first


@pytest.mark.parametrize("n, k, seed, alpha", [(10, 6, 1, 0.05), (25, 4, 2, 0.05),
                                               (12, 8, 3, 0.10)])
def test_critical_difference_ranks_and_cliques_against_autorank(n, k, seed, alpha):
    values = random_matrix(n, k, seed=seed, spread=0.04)
    ours = compare_across(tidy(values), metric="roc_auc", alpha=alpha)
    theirs, (sorted_ranks, names, groups) = _autorank(values, alpha)
    # autorank's CD uses statsmodels' tabulated qsturng; scipy integrates exactly
    assert ours.nemenyi["critical_difference"].iloc[0] == pytest.approx(theirs.cd, rel=2e-4)
    assert ours.friedman["p_value"].iloc[0] == pytest.approx(theirs.pvalue, rel=1e-12)
    assert ours.ranks["model"].tolist() == names               # autorank: worst first
    assert ours.ranks["mean_rank"].to_numpy() == pytest.approx(
        theirs.rankdf["meanrank"].to_numpy(dtype=float)[::-1])
    assert ours.cliques() == [names[i:j + 1] for i, j in groups]


def test_cliques_of_a_ladder():
    # mean ranks 1, 2, 3, 4 on 30 data sets, k = 4: CD = 2.569 sqrt(20/180) = 0.856
    values = np.tile([4.0, 3.0, 2.0, 1.0], (30, 1))
    values[:5] = [3.0, 4.0, 1.0, 2.0]                       # ranks 1.17, 1.83, 3.17, 3.83
    result = compare_across(tidy(values, models=list("ABCD")), metric="accuracy")
    assert result.ranks["mean_rank"].to_numpy() == pytest.approx([7 / 6, 11 / 6, 19 / 6, 23 / 6])
    assert result.cliques() == [["A", "B"], ["C", "D"]]


# --------------------------------------------------------------------------- Bayesian
CONFIGS = [  # n data sets, shift, noise, rope
    (10, 0.01, 0.01, 0.01), (5, 0.0, 0.01, 0.01), (20, 0.02, 0.02, 0.005),
    (8, 0.003, 0.01, 0.0), (14, 0.0, 0.02, 0.02), (30, -0.004, 0.01, 0.01)]


@pytest.mark.parametrize("n, shift, noise, rope", CONFIGS)
def test_signed_rank_is_baycomps_with_the_same_seed(n, shift, noise, rope):
    baycomp = peer("baycomp")
    rng = np.random.default_rng(n)
    x = rng.normal(0.8, 0.03, n)
    y = x - shift + rng.normal(0, noise, n)
    ours = signed_rank_probabilities(x - y, rope, n_samples=20_000, random_state=7)
    theirs = baycomp.two_on_multiple(x, y, rope=rope, nsamples=20_000, random_state=7)
    np.testing.assert_allclose(ours, theirs, atol=2 / 20_000)
    assert ours.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("n, shift, noise, rope", CONFIGS)
def test_signed_rank_agrees_with_baycomp_within_monte_carlo_error(n, shift, noise, rope):
    baycomp = peer("baycomp")
    rng = np.random.default_rng(100 + n)
    x = rng.normal(0.8, 0.03, n)
    y = x - shift + rng.normal(0, noise, n)
    ours = signed_rank_probabilities(x - y, rope, n_samples=50_000, random_state=1)
    theirs = np.array(baycomp.SignedRankTest.probs(x, y, rope, nsamples=50_000,
                                                   random_state=2))
    if rope == 0:                                   # probs(with_rope=False): (left, right)
        theirs = np.array([theirs[0], 0.0, theirs[1]])
    error = np.sqrt(theirs * (1 - theirs) / 50_000 * 2)      # two independent estimates
    assert np.all(np.abs(ours - theirs) <= 5 * error + 1e-4), (ours, theirs)


def test_signed_rank_table_orientation_and_prior():
    assert PRIOR_STRENGTH == 0.5                             # baycomp's SignedRankTest default
    values = np.column_stack([np.linspace(0.7, 0.9, 12), np.linspace(0.7, 0.9, 12) - 0.05])
    result = compare_across(tidy(values, models=["worse", "better"][::-1]), metric="roc_auc")
    row = result.signed_rank.iloc[0]
    assert (row.model_1, row.model_2) == ("better", "worse")
    assert row.share_most_probable_better == 1.0 and row.share_most_probable_worse == 0.0
    # every difference beyond the ROPE: P(better) = 1 - E[w_0^2], w_0 ~ Beta(0.5, N)
    expected = 1 - 0.5 * 1.5 / ((12 + 0.5) * (12 + 1.5))
    assert row.p_better == pytest.approx(expected, abs=5e-4) and row.p_worse == 0.0


def test_identical_models_are_equivalent_and_zero_rope_splits():
    assert signed_rank_probabilities(np.zeros(6), 0.01).tolist() == [0.0, 1.0, 0.0]
    assert signed_rank_probabilities(np.zeros(6), 0.0).tolist() == [0.5, 0.0, 0.5]


def test_reproducible_with_random_state():
    frame = tidy(random_matrix(6, 4, seed=9, noise=0.02))
    a = compare_across(frame, metric="roc_auc", random_state=3)
    b = compare_across(frame, metric="roc_auc", random_state=3)
    c = compare_across(frame, metric="roc_auc", random_state=4)
    for name in TABLE_FILES:
        pd.testing.assert_frame_equal(a.tables()[name], b.tables()[name])
    assert a.report() == b.report()
    assert not a.signed_rank.equals(c.signed_rank)
    np.testing.assert_allclose(a.signed_rank[["p_better", "p_equivalent", "p_worse"]],
                               c.signed_rank[["p_better", "p_equivalent", "p_worse"]],
                               atol=0.02)


def test_signed_rank_chunks_give_the_same_counts(monkeypatch):
    from engine.runs.across import signed_rank

    d = np.random.default_rng(0).normal(0.005, 0.01, (3, 9))
    whole = signed_rank_probabilities(d, 0.01, n_samples=5000)
    monkeypatch.setattr(signed_rank, "CHUNK_BYTES", 4 * 55 * 7)   # chunks of 7 draws
    np.testing.assert_array_equal(signed_rank_probabilities(d, 0.01, n_samples=5000), whole)


# --------------------------------------------------------------------------- edge cases
def test_tables_columns_and_order_of_first_appearance():
    frame = tidy(random_matrix(5, 3), datasets=["z", "a", "m", "b", "c"],
                 models=["svm", "knn", "lr"])
    frame["std"] = 0.1                                        # extra columns are ignored
    frame = frame.sample(frac=1, random_state=0).sort_values("dataset", kind="mergesort")
    result = compare_across(frame, metric="accuracy")
    assert list(result.tables()) == list(TABLE_FILES)
    assert list(result.dataset_scores.columns) == ["dataset", "model", "mean", "rank",
                                                   "n_folds", "n_failed"]
    assert list(result.ranks.columns) == ["model", "mean_rank", "n_datasets"]
    assert list(result.friedman.columns) == ["n_datasets", "n_models", "chi2", "p_value",
                                             "iman_davenport_f", "iman_davenport_p_value"]
    assert list(result.nemenyi.columns) == ["model_1", "model_2", "mean_rank_difference",
                                            "critical_difference", "p_value", "significant",
                                            "beyond_critical_difference"]
    assert list(result.wilcoxon.columns)[:5] == ["model_1", "model_2", "statistic", "p_value",
                                                 "p_value_adjusted"]
    assert list(result.signed_rank.columns) == [
        "model_1", "model_2", "p_better", "p_equivalent", "p_worse",
        "share_most_probable_better", "share_most_probable_equivalent",
        "share_most_probable_worse", "decision"]
    scores = result.dataset_scores
    assert scores["dataset"].tolist() == [d for d in "abcmz" for _ in range(3)]
    first_models = pd.unique(frame.sort_values("dataset", kind="mergesort")["model"]).tolist()
    assert scores["model"].tolist() == first_models * 5
    assert (result.metric, result.alpha, result.rope) == ("accuracy", 0.05, 0.01)


def test_two_models_get_wilcoxon_and_signed_rank_only():
    result = compare_across(tidy(random_matrix(8, 2, seed=4)), metric="roc_auc")
    assert np.isnan(result.friedman[["chi2", "p_value", "iman_davenport_f"]].to_numpy()).all()
    assert result.friedman[["n_datasets", "n_models"]].iloc[0].tolist() == [8, 2]
    assert result.nemenyi.empty and result.cliques() == []
    assert len(result.wilcoxon) == 1 and len(result.signed_rank) == 1
    assert "across_two_models" in codes(result)
    text = result.report()
    assert "Not computed: there are only two models" in text and "Wilcoxon" in text


@pytest.mark.parametrize("shape", [(6, 1), (1, 4), (0, 0)])
def test_too_few_models_or_datasets_give_ranks_only(shape):
    n, k = shape
    frame = tidy(random_matrix(max(n, 1), max(k, 1)))[: n * k] if n * k else \
        pd.DataFrame({"dataset": ["a"], "model": ["x"], "mean": [np.nan]})
    result = compare_across(frame, metric="accuracy")
    assert result.nemenyi.empty and result.wilcoxon.empty and result.signed_rank.empty
    assert np.isnan(result.friedman["chi2"].iloc[0])
    assert "across_too_few" in codes(result)
    assert result.report().startswith("# Comparison of")
    assert result.cliques() == []


def test_a_failed_model_on_one_dataset_drops_the_dataset():
    values = random_matrix(10, 4, seed=6)
    values[3, 2] = np.nan
    result = compare_across(tidy(values), metric="roc_auc")
    note = next(n for n in result.notes if n.code == "across_dataset_left_out")
    assert note.fields["dataset"] == "data3" and note.fields["models"] == ("m2",)
    assert (result.ranks["n_datasets"] == 9).all()
    assert result.friedman["n_datasets"].iloc[0] == 9
    kept = np.delete(values, 3, axis=0)
    assert result.friedman["chi2"].iloc[0] == pytest.approx(
        stats.friedmanchisquare(*kept.T).statistic)
    scores = result.dataset_scores
    assert scores.loc[scores["dataset"] == "data3", "rank"].isna().all()
    assert len(scores) == 40


def test_a_model_failing_on_many_datasets_is_dropped_instead():
    values = random_matrix(6, 5, seed=7)
    values[[0, 2, 4], 1] = np.nan
    result = compare_across(tidy(values), metric="roc_auc")
    note = next(n for n in result.notes if n.code == "across_model_left_out")
    assert note.fields["model"] == "m1" and note.fields["datasets"] == ("data0", "data2",
                                                                          "data4")
    assert "across_dataset_left_out" not in codes(result)
    assert result.ranks["model"].iloc[-1] == "m1" and np.isnan(result.ranks["mean_rank"].iloc[-1])
    assert result.ranks["n_datasets"].tolist() == [6, 6, 6, 6, 0]
    assert set(result.wilcoxon["model_1"]) | set(result.wilcoxon["model_2"]) == \
        {"m0", "m2", "m3", "m4"}


def test_a_model_that_failed_everywhere_is_dropped_and_missing_rows_count_as_missing():
    frame = tidy(random_matrix(6, 4, seed=8))
    frame.loc[frame["model"] == "m3", "mean"] = np.nan
    frame = frame.drop(index=frame.index[(frame["model"] == "m0") & (frame["dataset"] == "data5")])
    result = compare_across(frame, metric="roc_auc")
    assert [n.code for n in result.notes][:2] == ["across_model_left_out",
                                                  "across_dataset_left_out"]
    assert "any data set" in str(result.notes[0])
    assert result.friedman[["n_datasets", "n_models"]].iloc[0].tolist() == [5, 3]


def test_identical_models_and_all_ties():
    values = random_matrix(7, 3, seed=10)
    values[:, 2] = values[:, 0]
    result = compare_across(tidy(values), metric="roc_auc")
    row = result.wilcoxon[result.wilcoxon["method"] == ""]
    assert len(row) == 1 and np.isnan(row["p_value"].iloc[0])
    assert result.wilcoxon["p_value_adjusted"].notna().sum() == 2
    assert "across_wilcoxon_undefined" in codes(result)
    pair = result.signed_rank[result.signed_rank["p_equivalent"] == 1.0]
    assert len(pair) == 1
    tied = compare_across(tidy(np.full((6, 3), 0.8)), metric="roc_auc")
    assert np.isnan(tied.friedman["chi2"].iloc[0])
    assert "across_all_tied" in codes(tied)
    assert (tied.ranks["mean_rank"] == 2.0).all()
    assert not tied.nemenyi["significant"].any()
    assert "every model has the same score everywhere" in tied.report()


def test_few_datasets_caveat_says_no_wilcoxon_p_can_be_significant():
    result = compare_across(tidy(random_matrix(4, 3, seed=11)), metric="roc_auc")
    note = next(n for n in result.notes if n.code == "across_few_datasets")
    assert note.fields["min_wilcoxon_p"] == 0.125 and note.fields["alpha"] == 0.05
    assert (result.wilcoxon["p_value"] >= 0.125).all()
    many = compare_across(tidy(random_matrix(12, 6, seed=11)), metric="roc_auc")
    assert "across_few_datasets" not in codes(many)
    assert "across_friedman_approximate" not in codes(many)


@pytest.mark.parametrize("frame, match", [
    (pd.DataFrame({"dataset": ["a"], "model": ["x"]}), "no column mean"),
    (pd.DataFrame({"dataset": ["a", "a"], "model": ["x", "x"], "mean": [0.1, 0.2]}),
     "more than one mean"),
    (pd.DataFrame({"dataset": ["a"], "model": ["x"], "mean": ["high"]}), "must hold numbers"),
    (pd.DataFrame({"dataset": [None], "model": ["x"], "mean": [0.5]}), "data set and a model"),
    ([1, 2, 3], "must be a table")])
def test_bad_input_is_a_value_error_that_says_what_to_change(frame, match):
    with pytest.raises(ValueError, match=match):
        compare_across(frame, metric="accuracy")


@pytest.mark.parametrize("kwargs, match", [({"alpha": 1.5}, "alpha"), ({"rope": -1}, "rope"),
                                           ({"n_samples": 0}, "n_samples"),
                                           ({"metric": ""}, "metric")])
def test_bad_settings_are_value_errors(kwargs, match):
    settings = {"metric": "accuracy", **kwargs}
    with pytest.raises(ValueError, match=match):
        compare_across(tidy(random_matrix(5, 3)), **settings)


def test_every_note_code_is_registered():
    values = random_matrix(4, 2, seed=12, decimals=2)
    values[1, 1] = np.nan
    result = compare_across(tidy(values), metric="accuracy")
    assert result.notes and all(n.code in CODES and n.code.startswith("across_")
                                for n in result.notes)


# --------------------------------------------------------------------------- report
def test_report_states_the_results_in_plain_words():
    result = compare_across(demsar(voting_cf=0.97501), metric="roc_auc", alpha=0.10)
    text = result.report()
    assert text.startswith("# Comparison of 4 models across 14 data sets")
    assert "ROC AUC (`roc_auc`)" in text
    assert "| 1 | C4.5+m+cf | 1.96 | 14 |" in text
    chi2 = result.friedman["chi2"].iloc[0]
    assert f"Friedman chi² = {chi2:.3g}" in text
    assert "The critical difference is 1.12 mean ranks" in text
    assert "**C4.5+m+cf ranks better than C4.5** (mean ranks 1.18 apart" in text
    row = by_pair(result.signed_rank)[("C4.5+m+cf", "C4.5")]
    assert (f"C4.5+m+cf against C4.5: P(C4.5+m+cf ahead by more than the ROPE) = "
            f"{row.p_better:.3f}, P(practically equivalent) = {row.p_equivalent:.3f}") in text
    assert "## How to read this" in text and "## What to keep in mind" in text
    for note in result.notes:
        assert str(note) in text


def test_report_formats_small_p_values():
    values = random_matrix(40, 3, seed=13, spread=0.2, noise=0.001)
    text = compare_across(tidy(values), metric="roc_auc").report()
    assert "p < 0.001" in text and "> 0.999" in text
    assert "| < 0.001 | < 0.001 | **yes** |" in text             # the Wilcoxon table


def test_result_pickles_for_the_run_process():
    import pickle

    result = compare_across(tidy(random_matrix(6, 3, seed=14)), metric="roc_auc")
    again = pickle.loads(pickle.dumps(result))
    for name, table in result.tables().items():
        pd.testing.assert_frame_equal(again.tables()[name], table)
    assert again.notes == result.notes and again.report() == result.report()
