"""The held-out view's sentence: overlapping or separate intervals, and a CV interval that
passes the metric's possible range said in words (the numbers stay as computed)."""
import pandas as pd
import pytest

from engine.runs.heldout.words import with_cv_estimates


def sentence(metric, score, low, high, cv_mean, cv_low, cv_high):
    table = pd.DataFrame([{"model": "svc", "metric": metric, "score": score, "ci_low": low,
                           "ci_high": high, "interval": "bootstrap", "level": 0.95,
                           "n_test": 169}])
    summary = pd.DataFrame([{"model": "svc", "metric": metric, "mean": cv_mean,
                             "ci_low": cv_low, "ci_high": cv_high}])
    return with_cv_estimates(table, summary=summary)["comparison"].iloc[0]


def test_an_upper_end_past_one_is_read_as_one():
    text = sentence("roc_auc", 0.991, 0.980, 0.999, 0.994, 0.982, 1.006)
    assert "(0.982 to 1.006; its upper end passes 1, the largest possible value: read it as 1)" \
        in text
    assert "overlapping intervals" in text


def test_a_lower_end_past_minus_one_for_mcc():
    text = sentence("matthews_corrcoef", -0.9, -0.95, -0.8, -0.97, -1.02, -0.92)
    assert "its lower end passes -1, the smallest possible value: read it as -1" in text


@pytest.mark.parametrize("metric, cv", [("roc_auc", (0.90, 0.85, 0.95)),
                                        ("neg_log_loss", (-0.3, -0.45, -0.15))])
def test_intervals_inside_the_range_get_no_words(metric, cv):
    assert "passes" not in sentence(metric, cv[0], cv[1], cv[2], *cv)


def test_separate_intervals_say_which_side():
    text = sentence("accuracy", 0.80, 0.75, 0.85, 0.93, 0.90, 0.96)
    assert "is below the cross-validated estimate 0.930 (0.900 to 0.960)" in text
    assert "not proof of a bug" in text


@pytest.mark.parametrize("cv, clear", [((0.85, 0.80, 0.90), False), ((0.86, 0.84, 0.88), True)])
def test_overlap_is_not_read_as_a_test(cv, clear):
    """Issue #38: overlapping intervals are not a test; the sentence gives the difference
    and its approximate interval, read back against the row."""
    import math
    import re

    text = sentence("accuracy", 0.80, 0.75, 0.85, *cv)
    assert "overlapping intervals" in text and "shows no difference" not in text
    found = re.search(r"the difference is ([+-][\d.]+), about ±([\d.]+)", text)
    assert float(found.group(1)) == pytest.approx(0.80 - cv[0], abs=5e-4)
    half = math.hypot(0.05, (cv[2] - cv[1]) / 2)
    assert float(found.group(2)) == pytest.approx(half, abs=5e-4)
    assert ("does differ" in text) == clear == (abs(0.80 - cv[0]) > half)
