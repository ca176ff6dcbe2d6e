"""Each verdict sentence read back against the pairwise row it speaks of (issue #38).

The numbers are parsed from the sentence and compared with the table's values at the
precision they are printed with: the sentence may round, never say another number.
"""
import re

import numpy as np
import pandas as pd
import pytest

from engine.evaluation.stats import ComparisonSettings, compare_models
from engine.evaluation.verdict import bayes_level, pair_verdict, probability_text

NUMBER = r"(<|>|=)\s*(\d+(?:\.\d+)?)"


def close_to_printed(printed: str, value: float) -> bool:
    """Whether ``value`` rounds to ``printed`` (as many decimals as printed)."""
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    return abs(float(printed) - value) <= 0.5 * 10 ** -decimals + 1e-12


def p_after(text: str, words: str):
    """(sign, number) of ``<words> p = x`` / ``<words> p < x`` in ``text``."""
    found = re.search(re.escape(words) + r" p " + NUMBER, text)
    assert found, f"{words!r} not in {text!r}"
    return found.group(1), found.group(2)


def check_p(sign: str, printed: str, value: float) -> None:
    if sign == "<":
        assert value < float(printed)
    else:
        assert close_to_printed(printed, value)


def comparison(seed: int = 0, n_models: int = 3):
    """A real pairwise table: models whose folds differ by small, noisy amounts."""
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.7, 0.9, 20)
    rows = [base + shift + rng.normal(0, 0.01, 20)
            for shift in np.linspace(0.0, 0.03, n_models)]
    matrix = pd.DataFrame(rows, index=[f"m{i}" for i in range(n_models)])
    return compare_models(matrix, 90, 10, settings=ComparisonSettings(rope=0.01,
                                                                      correction="bonferroni"))


def check_sentence(row: dict, m: int) -> str:
    """Read one verdict back against its row; its outcome."""
    verdict = pair_verdict(row, row["model_1"], row["model_2"], 0.01, 0.05, correction="bonferroni",
                           n_pairs=m)
    text = verdict.text
    sign, printed = p_after(text, "two-sided")
    check_p(sign, printed, row["p_value_two_sided"])
    sign, printed = p_after(text, "after Bonferroni correction")
    check_p(sign, printed, row["p_value_two_sided_adjusted"])
    assert verdict.significant == (row["p_value_two_sided_adjusted"] < 0.05)
    level = float(re.search(r"(?:needs|reaches) (\d+(?:\.\d+)?)", text).group(1))
    assert level == pytest.approx(bayes_level(0.05, "bonferroni", m), abs=5e-5)
    values = {"better": row["p_better"], "equivalent": row["p_equivalent"],
              "worse": row["p_worse"]}
    for shown in re.findall(r"probability (> 0\.999|< 0\.001|\d+(?:\.\d+)?)", text):
        if shown.startswith(">"):
            assert max(values.values()) > 0.999
        elif shown.startswith("<"):
            assert 0 < min(values.values()) < 0.001
        else:
            assert any(close_to_printed(shown, v) for v in values.values())
    if verdict.outcome in values:
        assert values[verdict.outcome] >= bayes_level(0.05, "bonferroni", m)
    else:
        assert max(values.values()) < bayes_level(0.05, "bonferroni", m)
    assert not re.search(r"(?<![\d.])0\.0+(?![\d1-9])", text), text
    return verdict.outcome


@pytest.mark.parametrize("seed", range(6))
def test_every_number_of_every_verdict_is_its_rows(seed):
    table = comparison(seed).pairwise
    for row in table.to_dict("records"):
        check_sentence(row, len(table))


def test_each_verdict_template_is_read_back():
    """Better, worse, equivalent and undecided, each read back against its row."""
    rng = np.random.default_rng(7)
    base = rng.uniform(0.7, 0.9, 30)
    matrix = pd.DataFrame([base, base + rng.normal(0, 0.0005, 30),
                           base + 0.08 + rng.normal(0, 0.01, 30),
                           base + 0.012 + rng.normal(0, 0.02, 30)],
                          index=["a", "twin", "strong", "noisy"])
    table = compare_models(matrix, 90, 10, settings=ComparisonSettings(rope=0.01)).pairwise
    outcomes = {check_sentence(row, len(table)) for row in table.to_dict("records")}
    reversed_rows = [{**row, "model_1": row["model_2"], "model_2": row["model_1"],
                      "mean_difference": -row["mean_difference"], "p_better": row["p_worse"],
                      "p_worse": row["p_better"]} for row in table.to_dict("records")]
    outcomes |= {check_sentence(row, len(table)) for row in reversed_rows}
    assert {"better", "worse", "equivalent", "undecided"} <= outcomes


def test_the_naive_p_is_the_tables_one_sided_value_named():
    rng = np.random.default_rng(3)
    base = rng.uniform(0.7, 0.9, 30)
    matrix = pd.DataFrame([base + 0.004 + rng.normal(0, 0.006, 30), base], index=["a", "b"])
    row = compare_models(matrix, 90, 10, settings=ComparisonSettings(rope=0.01)).pairwise.iloc[0]
    text = pair_verdict(row.to_dict(), "a", "b", 0.01, 0.05).text
    assert "A naive t-test would call it significant" in text
    naive = re.search(r"naive t-test would call it significant \(two-sided p " + NUMBER
                      + r"; one-sided p " + NUMBER + ", the p_value_uncorrected", text)
    check_p(naive.group(3), naive.group(4), row["p_value_uncorrected"])
    check_p(naive.group(1), naive.group(2), min(1.0, 2 * row["p_value_uncorrected"]))


def test_one_bayesian_level_for_several_pairs_within_a_data_set():
    row = {"model_1": "forest", "model_2": "nb", "mean_difference": 0.03, "p_value": 0.029,
           "p_value_adjusted": 0.0875, "p_value_two_sided": 0.058,
           "p_value_two_sided_adjusted": 0.175, "p_value_uncorrected": 0.001,
           "p_better": 0.97, "p_equivalent": 0.02, "p_worse": 0.01, "n_folds": 10}
    alone = pair_verdict(row, "forest", "nb", 0.01, 0.05, correction="bonferroni", n_pairs=1)
    assert alone.outcome == "better"
    three = pair_verdict(row, "forest", "nb", 0.01, 0.05, correction="bonferroni", n_pairs=3)
    assert three.outcome == "undecided"
    assert "no outcome reaches 0.9833 (1 − 0.05/3 for 3 pairs)" in three.text
    assert "after Bonferroni correction p = 0.175" in three.text
    unadjusted = pair_verdict(row, "forest", "nb", 0.01, 0.05, correction="none", n_pairs=3)
    assert unadjusted.outcome == "better"
    assert "each of the 3 pairs read on its own (correction: none)" in unadjusted.text


def test_a_tiny_adjusted_p_is_not_printed_as_zero():
    row = {"model_1": "a", "model_2": "b", "mean_difference": 0.2, "p_value": 1e-7,
           "p_value_adjusted": 3e-7, "p_value_two_sided": 2e-7,
           "p_value_two_sided_adjusted": 6e-7, "p_value_uncorrected": 1e-12,
           "p_better": 1.0, "p_equivalent": 0.0, "p_worse": 0.0, "n_folds": 10}
    text = pair_verdict(row, "a", "b", 0.01, 0.05, correction="bonferroni", n_pairs=3).text
    assert "two-sided p < 0.001; after Bonferroni correction p < 0.001" in text
    assert "0.000" not in text
    assert "with probability > 0.999" in text


def test_probability_text_keeps_the_side_of_the_level():
    assert probability_text(0.98334, 0.983333) == "0.98334"
    assert probability_text(0.98332, 0.983333) == "0.983"
    assert probability_text(0.0004, 0.95) == "< 0.001"
    assert probability_text(0.9704, 0.95) == "0.970"
    assert probability_text(0.9995, 0.95) == "> 0.999"
    assert probability_text(0.99951, 0.9995) == "0.9995"
    assert probability_text(0.99949, 0.9995) == "0.999"
