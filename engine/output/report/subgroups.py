"""The report's "Subgroups" section: each subgroup's score with its interval, the largest
gap and its test, the parity differences, in careful words.

No sentence calls a model fair: the section says what was measured, on which rows, and
how uncertain it is; subgroups without a verdict (too few rows or events) are named as
such. Built from :class:`engine.evaluation.subgroups.SubgroupResult` alone.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from engine.evaluation.subgroups import MIN_EVENTS, MIN_ROWS
from engine.evaluation.verdict import metric_label
from engine.output.document import BulletList, Name, Paragraph
from engine.output.document import Figure as FigureBlock
from engine.output.report.intervals import coverage_sentence
from engine.output.report.plots import Figure, category_margin
from engine.output.report.svg import CLIP, Axes, colour, padded

_CUT_WORDS = {"given": "cut at the given points", "quartiles": "cut at its quartiles",
              "categories": "one subgroup per value"}


def forest_figure(scores, metric: str, column: str) -> Optional[Figure]:
    """Every model's score in every subgroup of ``column`` with its interval (a forest
    plot); subgroups without a verdict drawn grey."""
    rows = scores[(scores["metric"] == metric) & (scores["column"] == column)]
    rows = rows[np.isfinite(rows["score"].to_numpy(dtype=float))]
    if rows.empty:
        return None
    names = [f"{r.model} · {r.subgroup}" for r in rows.itertuples()]
    ends = rows[["score", "ci_low", "ci_high"]].to_numpy(dtype=float)
    label, n = metric_label(metric), len(rows)
    axes = Axes(padded(np.nanmin(ends), np.nanmax(ends)), (-0.5, n - 0.5),
                title=f"{label} by {column}", x_label=label, height=max(140, 60 + 26 * n),
                y_categories=names[::-1], left=category_margin(names))
    models = list(dict.fromkeys(rows["model"]))
    for index, row in enumerate(rows.itertuples()):
        shade = colour(models.index(row.model)) if row.verdict_allowed else "#9a9a9a"
        axes.error_bar(row.ci_low, row.ci_high, n - 1 - index, shade, width=2.5)
        axes.points([row.score], [n - 1 - index], "#000000", radius=4, opacity=1)
    caption = (f"Each model's {label} in each subgroup of {column} (dot: the mean over "
               "repeats of the score on the subgroup's out-of-fold rows) with its "
               "corrected-t interval, cut at the metric's possible range. Grey: fewer than "
               f"{MIN_ROWS} rows or {MIN_EVENTS} of a class, no verdict.")
    return Figure(f"{label} by {column}", axes.svg(caption), caption)


def _columns_paragraph(result) -> Paragraph:
    parts = []
    for row in result.columns.itertuples():
        use = ("a feature the models learn from" if row.is_feature
               else "not a feature: left out of the models")
        parts.append(f"{row.column} ({use}; {row.n_subgroups} subgroups, "
                     f"{_CUT_WORDS.get(row.cut, row.cut)})")
    return Paragraph(("Subgroups by ", Name("; ".join(parts)), ". Every number comes from the "
            "same out-of-fold predictions as the rest of the run: no model was fitted "
            "again. A subgroup's score is its metric on its out-of-fold rows in each repeat, "
            "averaged over the repeats; its interval is the corrected t of its per-fold "
            "scores, for the expected score of a model trained on this many rows, cut at "
            "the metric's possible range (a gap's interval at minus to plus the range's width). "
            + coverage_sentence("subgroup_score")))


def gap_sentence(row, alpha: float) -> str:
    """One gap of ``subgroup_gaps.csv`` in words (never a verdict of fairness)."""
    label = metric_label(row.metric)
    where = (f"{row.model}: the largest difference in {label} by {row.column}, between "
             f"subgroups with a verdict, is {row.subgroup_high} minus {row.subgroup_low} = "
             f"{row.gap:.3g} (interval {row.ci_low:.3g} to {row.ci_high:.3g}; p = "
             f"{row.p_value:.3g}: the corrected paired t over the shared folds, both "
             f"adjusted for the number of pairs it was picked from, so the interval excludes 0 "
             f"exactly when p is below {alpha:g}).")
    if np.isfinite(row.p_value) and row.p_value < alpha:
        return where + " A difference this large would be unlikely if both subgroups had " \
            "the same expected score."
    return where + " This test does not show a difference; that is not evidence that the " \
        "subgroups are served alike: the interval says how large a difference remains " \
        "possible."


def _parity_sentences(fairness) -> list:
    return [f"{row.model}, by {row.column}: demographic-parity difference "
            f"{row.demographic_parity_difference:.3g}, equalized-odds difference "
            f"{row.equalized_odds_difference:.3g} (fairlearn's definitions on the predicted "
            f"classes, mean over {row.n_repeats} repeats)."
            for row in fairness.itertuples()]


def subgroup_section(run) -> list:
    """The "Subgroups" section of one run, as blocks (none without subgroups)."""
    result = run.subgroups
    if result is None:
        return []
    metric, alpha = run.cv.primary_metric, run.experiment.comparison.alpha
    figures = [f for f in (forest_figure(result.scores, metric, column)
                           for column in result.columns["column"]) if f is not None]
    blocks: list = [_columns_paragraph(result)]
    blocks.extend(FigureBlock(f.svg.replace(CLIP, f"clip-subgroups-{i}"), (Name(f.caption),))
                  for i, f in enumerate(figures, 1))
    gaps = result.gaps[result.gaps["metric"] == metric]
    if len(gaps):
        blocks.append(BulletList(tuple((Name(gap_sentence(row, alpha)),)
                                       for row in gaps.itertuples())))
    else:
        blocks.append(Paragraph((f"No gap is tested on {metric_label(metric)}: fewer than "
                                 "two subgroups of a column have a verdict.",)))
    parity = _parity_sentences(result.fairness)
    if parity:
        blocks.append(Paragraph((Name(" ".join(parity)), " These differences describe the "
                                 "predicted classes at the model's threshold; they do not by "
                                 "themselves say whether a model is suitable for any "
                                 "group.")))
    blocks.extend(Paragraph((Name(note),), "note") for note in result.notes)
    blocks.append(Paragraph((
        "The tables: subgroup_scores.csv, subgroup_gaps.csv"
        + (", subgroup_calibration.csv (calibration in the large and slope per subgroup)"
           if len(result.calibration) else "")
        + (", subgroup_fairness.csv" if len(result.fairness) else "") + ".",)))
    return blocks


def tripod_subgroup_rows(run) -> list:
    """The TRIPOD+AI rows on subgroups: performance in key subgroups and fairness."""
    result = run.subgroups
    if result is None:
        return [("Performance in key subgroups", "not assessed"),
                ("Fairness across subgroups", "not assessed")]
    columns = ", ".join(f"{c} ({'feature' if f else 'not a feature'})"
                        for c, f in zip(result.columns["column"], result.columns["is_feature"]))
    performance = (f"subgroup_scores.csv and subgroup_gaps.csv by {columns}: each subgroup's "
                   "cross-validated score with its corrected-t interval, the largest gap "
                   "tested over the shared folds")
    if not len(result.fairness):
        return [("Performance in key subgroups", performance),
                ("Fairness across subgroups", "not assessed (parity differences need two "
                 "classes and predicted classes)")]
    return [("Performance in key subgroups", performance),
            ("Fairness across subgroups", "subgroup_fairness.csv: demographic-parity and "
             "equalized-odds differences of the predicted classes (fairlearn's "
             f"definitions) by {columns}; measured differences, not a judgement")]
