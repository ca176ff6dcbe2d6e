"""engine.evaluation.verdict: plain-language verdicts from pairwise comparison rows (no Qt)."""
import math

import numpy as np
import pandas as pd
import pytest

from engine.evaluation.stats import ComparisonSettings, compare_models
from engine.evaluation.verdict import (format_p, metric_label, oriented_pair, pair_differences,
                                       pair_posterior, pair_verdict)

# The scikit-learn example's rbf vs linear row (rounded as it prints them).
SEED_ROW = {"model_1": "rbf", "model_2": "linear", "mean_difference": 0.01,
            "t_stat": 0.750, "p_value": 0.227, "p_value_adjusted": 1.0,
            "t_stat_uncorrected": 2.611, "p_value_uncorrected": 0.005,
            "p_mu_positive": 0.773, "p_better": 0.500, "p_equivalent": 0.432,
            "p_worse": 0.068, "n_folds": 100}


def row(**changes):
    values = dict(SEED_ROW)
    values.update(changes)
    return values


def test_seed_pair_reads_as_undecided_and_not_significant():
    verdict = pair_verdict(SEED_ROW, "rbf", "linear", rope=0.01, alpha=0.05)
    assert verdict.outcome == "undecided"
    assert not verdict.significant
    assert "practically equivalent with probability 0.432" in verdict.text
    assert "rbf is better with probability 0.500" in verdict.text
    assert "no significant difference (two-sided p = 0.454" in verdict.text
    assert "Bonferroni" in verdict.text
    # the naive test would have been fooled: the verdict says so
    # two-sided 0.010, and the one-sided value the table holds, named as such
    assert ("naive t-test would call it significant (two-sided p = 0.010; one-sided "
            "p = 0.005, the p_value_uncorrected of pairwise.csv)") in verdict.text


def test_reversed_order_swaps_better_and_worse():
    values = oriented_pair(SEED_ROW, "linear", "rbf")
    assert values["model_1"] == "linear" and values["model_2"] == "rbf"
    assert values["mean_difference"] == pytest.approx(-0.01)
    assert values["p_better"] == 0.068 and values["p_worse"] == 0.5
    assert values["p_mu_positive"] == pytest.approx(0.227)
    assert values["p_value"] == 0.227
    text = pair_verdict(SEED_ROW, "linear", "rbf", rope=0.01, alpha=0.05).text
    assert text.startswith("linear and rbf are practically equivalent")
    assert "linear is better with probability 0.068 and rbf with probability 0.500" in text


def test_oriented_pair_rejects_other_models():
    with pytest.raises(KeyError):
        oriented_pair(SEED_ROW, "rbf", "2_poly")


@pytest.mark.parametrize("changes, model_a, outcome, phrase", [
    ({"p_better": 0.97, "p_equivalent": 0.02, "p_worse": 0.01}, "rbf", "better",
     "rbf is practically better than linear (by more than the ROPE of ±0.01) "
     "with probability 0.970; a decision needs 0.95 (1 − 0.05)"),
    ({"p_better": 0.97, "p_equivalent": 0.02, "p_worse": 0.01}, "linear", "worse",
     "rbf is practically better than linear"),
    ({"p_better": 0.02, "p_equivalent": 0.96, "p_worse": 0.02}, "rbf", "equivalent",
     "rbf and linear are practically equivalent (they differ by less than ±0.01) "
     "with probability 0.960"),
])
def test_decided_outcomes(changes, model_a, outcome, phrase):
    model_b = "linear" if model_a == "rbf" else "rbf"
    verdict = pair_verdict(row(**changes), model_a, model_b, rope=0.01, alpha=0.05)
    assert verdict.outcome == outcome
    assert phrase in verdict.text


def test_significance_uses_the_adjusted_p_value():
    significant = row(p_value=0.001, p_value_adjusted=0.006, mean_difference=0.05,
                      p_value_two_sided=0.002, p_value_two_sided_adjusted=0.012)
    verdict = pair_verdict(significant, "linear", "rbf", rope=0.01, alpha=0.05,
                           correction="holm")
    assert verdict.significant
    assert ("finds rbf significantly better than linear (two-sided p = 0.002; after Holm "
            "correction p = 0.012" in verdict.text)
    not_after_correction = row(p_value=0.02, p_value_adjusted=0.12)
    verdict = pair_verdict(not_after_correction, "rbf", "linear", 0.01, 0.05)
    assert not verdict.significant
    assert "after Bonferroni correction p = 0.240" in verdict.text


def test_one_sided_p_below_alpha_is_not_significant_two_sided():
    # one-sided p = 0.04 marks a 2-alpha test; the verdict uses the two-sided 0.08
    verdict = pair_verdict(row(p_value=0.04, p_value_adjusted=0.04), "rbf", "linear",
                           0.01, 0.05, correction="none")
    assert not verdict.significant
    assert "(two-sided p = 0.080, alpha = 0.05)" in verdict.text


def test_health_of_the_models_is_part_of_the_verdict():
    verdict = pair_verdict(row(n_folds=97), "rbf", "linear", 0.01, 0.05,
                           health={"rbf": (0, 12, 100), "linear": (3, 0, 100)})
    assert "Note: rbf raised warnings on 12 of 100 folds." in verdict.text
    assert "Note: linear failed on 3 of 100 folds." in verdict.text
    assert "compared on the 97 folds both completed" in verdict.text


def test_without_correction_the_plain_p_value_decides():
    verdict = pair_verdict(row(p_value=0.02, p_value_adjusted=0.02), "rbf", "linear",
                           0.01, 0.05, correction="none")
    assert verdict.significant
    assert "correction" not in verdict.text
    assert "(two-sided p = 0.040, alpha = 0.05)" in verdict.text


def test_missing_numbers_give_a_clear_message():
    verdict = pair_verdict(row(mean_difference=math.nan, p_value=math.nan), "rbf", "linear",
                           0.01, 0.05)
    assert verdict.outcome == "insufficient"
    assert "not enough complete folds" in verdict.text


def test_format_p_and_metric_label():
    assert format_p(0.2274) == "p = 0.227"
    assert format_p(0.0004) == "p < 0.001"
    assert format_p(float("nan")) == "p = n/a"
    assert metric_label("roc_auc") == "ROC AUC"
    assert metric_label("my_metric") == "my metric"


def test_verdict_agrees_with_engine_comparison():
    rng = np.random.default_rng(0)
    base = rng.uniform(0.7, 0.9, 30)
    matrix = pd.DataFrame([base + 0.05 + rng.normal(0, 0.01, 30), base,
                           base + rng.normal(0, 0.001, 30)], index=["strong", "weak", "twin"])
    comparison = compare_models(matrix, 90, 10, settings=ComparisonSettings(rope=0.01))
    strong = pair_verdict(comparison.pair("strong", "weak"), "strong", "weak", 0.01, 0.05)
    assert strong.outcome == "better" and strong.significant
    twin = pair_verdict(comparison.pair("weak", "twin"), "weak", "twin", 0.01, 0.05)
    assert twin.outcome == "equivalent" and not twin.significant


def test_pair_posterior_matches_the_pairwise_row():
    matrix = pd.DataFrame([[0.9, 0.8, np.nan, 0.85], [0.7, 0.75, 0.8, 0.7]],
                          index=["a", "b"])
    assert list(pair_differences(matrix, "a", "b")) == pytest.approx([0.2, 0.05, 0.15])
    comparison = compare_models(matrix, 90, 10, settings=ComparisonSettings(rope=0.05))
    pair = comparison.pair("a", "b")
    post = pair_posterior(matrix, "a", "b", 90, 10)
    assert post.probabilities(0.05)["p_better"] == pytest.approx(pair["p_better"])
    reverse = pair_posterior(matrix, "b", "a", 90, 10)
    assert reverse.mean == pytest.approx(-post.mean)


def test_metrics_about_one_class_name_it():
    assert metric_label("f1", positive="Chinstrap") == "F1 of 'Chinstrap'"
    assert metric_label("average_precision", positive=1) == "average precision of '1'"
    assert metric_label("roc_auc", positive="Chinstrap") == "ROC AUC"          # symmetric: no class
    assert metric_label("f1_macro", positive="Chinstrap") == "F1, mean over classes"


def test_model_health_reads_the_summary_of_the_primary_metric():
    from engine.evaluation.verdict import ModelHealth, model_health

    summary = pd.DataFrame({"model": ["a", "b", "a"], "metric": ["acc", "acc", "auc"],
                            "n_failed": [1, 0, 5], "n_warned": [0, 2, 5]})
    assert model_health(summary, "acc", 10) == {"a": ModelHealth(1, 0, 10),
                                                "b": ModelHealth(0, 2, 10)}
    older = summary.drop(columns="n_warned")           # a summary without n_warned
    assert model_health(older, "acc", 10)["b"] == (0, 0, 10)
