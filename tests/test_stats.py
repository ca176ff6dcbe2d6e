"""Statistics against independent computations (scipy) and their degenerate cases."""
import numpy as np
import pandas as pd
import pytest
from engine.foundation.errors import error_code, error_fields
from scipy import stats as sps

from engine.evaluation.stats import (ComparisonSettings, adjust_pvalues, compare_models,
                                     corrected_std, corrected_ttest, plain_ttest, posterior,
                                     summary_table)

RNG = np.random.default_rng(42)


def test_plain_ttest_equals_scipy_paired_ttest():
    a = RNG.normal(0.80, 0.05, 50)
    b = a - RNG.normal(0.01, 0.02, 50)
    t_stat, p_value = plain_ttest(a - b)
    reference = sps.ttest_rel(a, b, alternative="greater")
    assert t_stat == pytest.approx(reference.statistic, rel=1e-12)
    assert p_value == pytest.approx(reference.pvalue, rel=1e-10)


def test_corrected_ttest_scales_the_variance():
    d = RNG.normal(0.01, 0.03, 30)  # 3 x 10-fold
    n_train, n_test = 180.0, 20.0
    t_stat, p_value = corrected_ttest(d, n_train, n_test)
    factor = 1 / 30 + n_test / n_train
    expected_t = d.mean() / np.sqrt(d.var(ddof=1) * factor)
    assert t_stat == pytest.approx(expected_t, rel=1e-12)
    assert p_value == pytest.approx(sps.t.sf(abs(expected_t), 29), rel=1e-12)
    # with n_test / n_train = 0 the correction vanishes: the plain test
    assert corrected_ttest(d, 1e300, 0.0)[0] == pytest.approx(plain_ttest(d)[0], rel=1e-12)


def test_posterior_matches_scipy_t():
    d = RNG.normal(0.005, 0.02, 100)
    post = posterior(d, 90, 10)
    ref = sps.t(99, loc=d.mean(), scale=corrected_std(d, 90, 10))
    probs = post.probabilities(0.01)
    assert probs["p_mu_positive"] == pytest.approx(ref.sf(0.0), rel=1e-12)
    assert probs["p_better"] == pytest.approx(ref.sf(0.01), rel=1e-12)
    assert probs["p_worse"] == pytest.approx(ref.cdf(-0.01), rel=1e-12)
    assert sum(probs[k] for k in ("p_better", "p_equivalent", "p_worse")) == pytest.approx(1.0)
    low, high = post.interval(0.9)
    assert (low, high) == pytest.approx(ref.interval(0.9), rel=1e-12)


def test_bonferroni_and_holm_against_hand_computation():
    p = np.array([0.01, 0.04, 0.03, 0.005, np.nan])
    np.testing.assert_allclose(adjust_pvalues(p, method="bonferroni")[:4], [0.04, 0.16, 0.12, 0.02])
    # Holm: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 -> 0.02, 0.03, 0.06, 0.06 (monotone)
    np.testing.assert_allclose(adjust_pvalues(p, method="holm")[:4], [0.03, 0.06, 0.06, 0.02])
    assert np.isnan(adjust_pvalues(p, method="holm")[4])
    assert adjust_pvalues([0.5, 0.6], method="bonferroni").max() == 1.0
    np.testing.assert_array_equal(adjust_pvalues(p[:4], method="none"), p[:4])
    with pytest.raises(ValueError, match="bonferroni, holm, none"):
        adjust_pvalues(p, method="sidak")


def test_identical_models_have_defined_results():
    d = np.zeros(20)
    assert corrected_ttest(d, 90, 10) == (0.0, 0.5)
    probs = posterior(d, 90, 10).probabilities(0.01)
    assert probs == {"p_mu_positive": 0.5, "p_better": 0.0, "p_equivalent": 1.0, "p_worse": 0.0}
    assert posterior(d, 90, 10).interval(0.95) == (0.0, 0.0)


def test_constant_nonzero_difference_is_a_point_mass():
    d = np.full(20, 0.05)
    t_stat, p_value = corrected_ttest(d, 90, 10)
    assert t_stat == np.inf and p_value == 0.0
    probs = posterior(d, 90, 10).probabilities(0.01)
    assert probs["p_better"] == 1.0 and probs["p_equivalent"] == 0.0


def test_nan_folds_are_left_out_of_a_pair():
    folds = 20
    scores = pd.DataFrame([RNG.normal(0.9, 0.02, folds), RNG.normal(0.85, 0.02, folds),
                           RNG.normal(0.8, 0.02, folds)], index=["a", "b", "c"])
    scores.iloc[1, 3] = np.nan
    comparison = compare_models(scores, 90, 10, settings=ComparisonSettings(correction="holm"))
    pw = comparison.pairwise.set_index(["model_1", "model_2"])
    assert pw.loc[("a", "b"), "n_folds"] == folds - 1
    assert pw.loc[("a", "c"), "n_folds"] == folds
    keep = ~scores.loc["b"].isna()
    expected = corrected_ttest((scores.loc["a"] - scores.loc["b"])[keep], 90, 10)
    assert pw.loc[("a", "b"), "t_stat"] == pytest.approx(expected[0])
    assert not pw.isna().any().any()


def test_all_failed_model_gives_nan_not_crash():
    scores = pd.DataFrame([RNG.normal(0.9, 0.02, 10), np.full(10, np.nan)], index=["ok", "bad"])
    comparison = compare_models(scores, 90, 10)
    row = comparison.pairwise.iloc[0]
    assert (row.model_1, row.model_2) == ("ok", "bad")
    assert np.isnan(row.t_stat) and np.isnan(row.p_better) and row.n_folds == 0
    assert comparison.intervals[["lower", "upper"]].isna().all().all()


def test_settings_validation_messages():
    for settings, code, fields in ((dict(rope=-0.1), "comparison_rope", {"rope": -0.1}),
                                   (dict(alpha=1.5), "comparison_alpha", {"alpha": 1.5}),
                                   (dict(credible_levels=(0.5, 1.0)),
                                    "comparison_credible_level", {"level": 1.0})):
        with pytest.raises(ValueError) as caught:
            ComparisonSettings(**settings)
        assert error_code(caught.value) == code and dict(error_fields(caught.value)) == fields


def test_summary_ranks_and_counts_failures():
    rows = [("a", 0, f, "acc", s, 9, 1, 0.0) for f, s in enumerate([0.8, 0.9, np.nan])]
    rows += [("b", 0, f, "acc", s, 9, 1, 0.0) for f, s in enumerate([0.9, 0.95, 0.9])]
    scores = pd.DataFrame(rows, columns=["model", "repeat", "fold", "metric", "score",
                                         "n_train", "n_test", "fit_seconds"])
    summary = summary_table(scores, ("a", "b"), ("acc",)).set_index("model")
    assert summary.loc["a", "mean"] == pytest.approx(0.85)
    assert summary.loc["a", "n_failed"] == 1 and summary.loc["b", "rank"] == 1
    assert summary.loc["b", "std"] == pytest.approx(np.std([0.9, 0.95, 0.9]))
