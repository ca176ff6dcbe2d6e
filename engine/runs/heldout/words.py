"""How a held-out score compares with the cross-validated estimate, in plain words.

The sentence is as strong as the numbers: intervals apart say which side the test set
fell on; intervals that overlap are not a test of the difference (two 95% intervals can
overlap while the difference is clear), so the sentence gives the difference and an
approximate interval of it (the two half-widths combined as independent errors,
``sqrt(h_test^2 + h_cv^2)``: the test rows are not the training rows). One test set is one
draw of rows, so either way the sentence says so.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from engine.evaluation.interval_bounds import metric_range
from engine.evaluation.verdict import fixed, metric_label


def with_cv_estimates(table: pd.DataFrame, *, summary=None, positive=None) -> pd.DataFrame:
    """``table`` with ``cv_mean``, ``cv_ci_low``, ``cv_ci_high`` (``summary.csv``'s mean and
    interval of the same model and metric) and the ``comparison`` sentence (a metric about
    one class names ``positive``, the positive class's label), and the ``estimand`` of the
    held-out interval: the fitted model on new rows like the test file."""
    table = table.copy()
    for column in ("cv_mean", "cv_ci_low", "cv_ci_high"):
        table[column] = np.nan
    if summary is not None and len(summary) and len(table):
        keyed = summary.set_index(["model", "metric"])
        for column, source in (("cv_mean", "mean"), ("cv_ci_low", "ci_low"),
                               ("cv_ci_high", "ci_high")):
            if source in keyed:
                table[column] = [keyed[source].get((m, k), np.nan)
                                 for m, k in zip(table["model"], table["metric"])]
    table["comparison"] = [comparison_sentence(row,
                                               positive=positive) for row in table.itertuples()]
    table["estimand"] = "fixed_model_on_new_data"
    return table


def _number(value) -> str:
    return fixed(value)


def _interval(low, high) -> str:
    if not (math.isfinite(low) and math.isfinite(high)):
        return "no interval"
    return f"{_number(low)} to {_number(high)}"


def _past_bound(row) -> str:
    """Words for a CV interval passing the metric's possible range (its corrected-t
    interval is symmetric and knows no limit: :mod:`engine.evaluation.interval_bounds`)."""
    lowest, highest = metric_range(str(row.metric))
    if highest is not None and row.cv_ci_high > highest:
        end, bound, extreme = "upper", highest, "largest"
    elif lowest is not None and row.cv_ci_low < lowest:
        end, bound, extreme = "lower", lowest, "smallest"
    else:
        return ""
    return f"; its {end} end passes {bound:g}, the {extreme} possible value: read it as {bound:g}"


def comparison_sentence(row, *, positive=None) -> str:
    """The sentence of one row of ``test_scores.csv``."""
    name = metric_label(row.metric, positive=positive)
    if not math.isfinite(row.score):
        return (f"{name} could not be computed on the test file for {row.model} "
                "(see the notes).")
    method = "DeLong" if row.interval == "delong" else "bootstrap"
    held = (f"held-out {name} {_number(row.score)} ({method} {round(100 * row.level)}% "
            f"interval {_interval(row.ci_low, row.ci_high)}, {row.n_test} test rows)")
    if not math.isfinite(row.cv_mean):
        return f"{row.model}: {held}; no cross-validated estimate to compare with."
    cv = (f"cross-validated estimate {_number(row.cv_mean)} "
          f"({_interval(row.cv_ci_low, row.cv_ci_high)}{_past_bound(row)})")
    both = all(math.isfinite(v) for v in (row.ci_low, row.ci_high, row.cv_ci_low,
                                          row.cv_ci_high))
    draw = "one test set is one draw of rows"
    if not both:
        return f"{row.model}: {held}, {cv}; without both intervals no comparison is made."
    if row.ci_high < row.cv_ci_low:
        return (f"{row.model}: {held} is below the {cv}, and the intervals do not overlap: "
                "the test rows may differ from the training rows, or the CV estimate was "
                f"optimistic; a lower held-out score is common and not proof of a bug, and "
                f"{draw}.")
    if row.ci_low > row.cv_ci_high:
        return (f"{row.model}: {held} is above the {cv}, and the intervals do not overlap: "
                f"the test rows may be easier than the training rows; {draw}.")
    return f"{row.model}: {held} and the {cv} have overlapping intervals; " + _overlap_words(row)


def _overlap_words(row) -> str:
    """The difference of two overlapping estimates with its approximate interval."""
    difference = row.score - row.cv_mean
    half = math.hypot((row.ci_high - row.ci_low) / 2, (row.cv_ci_high - row.cv_ci_low) / 2)
    reading = ("so this test set does differ from the estimate" if abs(difference) > half
               else "so this test set shows no clear difference, which does not make them "
                    "equal")
    return ("overlap is not a test of the difference: the difference is "
            f"{fixed(difference, signed=True)}, "
            f"about ±{fixed(half)} with the two half-widths combined as independent errors, "
            f"{reading}; one test set is one draw of rows.")
