"""The report's plots, drawn from the run's tables (:mod:`engine.output.report.svg`).

Each function takes the tables of one data set (``{file name: DataFrame}``, as the runner
writes them) and returns ``(title, svg, caption)`` figures, none when its table is absent:
so a table another part of the app adds (ROC, precision-recall, decision and learning
curves) gets its plot as soon as the run writes it, found by its column names.
"""
from __future__ import annotations

import math
from typing import NamedTuple, Optional

import numpy as np
import pandas as pd

from engine.evaluation.verdict import metric_label
from engine.output.report.svg import Axes, colour, padded


class Figure(NamedTuple):
    """One plot of the report: its title, the ``<svg>`` text and a caption in words."""

    title: str
    svg: str
    caption: str


def class_counts_figure(counts: dict, *, positive=None) -> Optional[Figure]:
    """The rows of every class as horizontal bars (``counts``: label -> rows)."""
    if not counts:
        return None
    labels = list(counts)
    n, most = len(labels), max(counts.values())
    axes = Axes((0, most * 1.12), (-0.5, n - 0.5), title="Rows per class", x_label="rows",
                height=max(140, 70 + 28 * n), y_categories=labels[::-1],
                left=category_margin(labels), width=560)
    for index, label in enumerate(labels):
        i = n - 1 - index
        axes.rect(0, i - 0.35, counts[label], i + 0.35, colour(index), opacity=0.8)
        axes.label(counts[label], i - 0.1, f" {counts[label]:,}")
    what = f"; the positive class is {positive}" if positive is not None else ""
    caption = f"How many rows of the data set belong to each class{what}."
    return Figure("Rows per class", axes.svg(caption), caption)


def ranked_models(tables: dict, metric: str) -> list:
    """The models in the summary's rank order on ``metric`` (best first), or [] without a
    summary."""
    summary = tables.get("summary.csv")
    if summary is None or summary.empty or "rank" not in summary:
        return []
    rows = summary[summary["metric"] == metric].sort_values("rank", kind="stable")
    return list(rows["model"])


def means_figure(tables: dict, metric: str) -> Optional[Figure]:
    """Every model's mean on ``metric`` with its corrected-t interval (``summary.csv``'s
    ``ci_low``, ``ci_high``), best first."""
    summary = tables.get("summary.csv")
    if summary is None or summary.empty or not {"ci_low", "ci_high"} <= set(summary.columns):
        return None
    rows = summary[summary["metric"] == metric].sort_values("rank", kind="stable")
    rows = rows[np.isfinite(rows["mean"].to_numpy(dtype=float))]
    if rows.empty:
        return None
    models, n = list(rows["model"]), len(rows)
    ends = np.concatenate([rows[c].to_numpy(dtype=float) for c in ("mean", "ci_low", "ci_high")])
    label = metric_label(metric)
    axes = Axes(padded(np.nanmin(ends), np.nanmax(ends)), (-0.5, n - 0.5),
                title=f"Mean {label} with its interval", x_label=label,
                height=max(140, 60 + 34 * n), y_categories=models[::-1],
                left=category_margin(models))
    for index, row in enumerate(rows.itertuples(index=False)):
        i = n - 1 - index
        axes.error_bar(row.ci_low, row.ci_high, i, colour(index), width=2.5)
        axes.points([row.mean], [i], "#000000", radius=4, opacity=1)
    caption = (f"Each model's mean {label} over the folds (dot) and its corrected-t interval "
               "(the summary table's ci_low to ci_high), best first. Overlapping intervals "
               "do not by themselves mean two models are equivalent: the pairwise verdicts "
               "compare them fold by fold.")
    if not metric.startswith("neg_") and (rows["ci_high"] > 1).any():
        caption += (" An interval reaching above 1 is a t interval passing the metric's "
                    "largest possible value: read its upper end as 1.")
    return Figure(f"Mean {label} with its interval", axes.svg(caption), caption)


def fold_scores_figure(tables: dict, metric: str) -> Optional[Figure]:
    """Every model's fold scores on ``metric``: one row per model, a box (quartiles and
    median) and the folds as points."""
    scores = tables.get("fold_scores.csv")
    if scores is None or scores.empty:
        return None
    scores = scores[scores["metric"] == metric]
    models = ranked_models(tables, metric) or list(dict.fromkeys(scores["model"]))
    values = scores["score"].to_numpy(dtype=float)
    if not models or not np.isfinite(values).any():
        return None
    label = metric_label(metric)
    axes = Axes(padded(np.nanmin(values), np.nanmax(values)), (-0.5, len(models) - 0.5),
                title=f"Fold scores: {label}", x_label=label,
                height=max(160, 60 + 40 * len(models)), y_categories=models[::-1],
                left=category_margin(models))
    for index, model in enumerate(models):
        i = len(models) - 1 - index                   # the first model on top
        own = scores[scores["model"] == model]["score"].to_numpy(dtype=float)
        own = own[np.isfinite(own)]
        if not own.size:
            continue
        q1, median, q3 = np.percentile(own, [25, 50, 75])
        axes.rect(q1, i - 0.3, q3, i + 0.3, colour(index), opacity=0.25, stroke=colour(index))
        axes.segment(median, i - 0.3, median, i + 0.3, colour(index), width=2.5)
        jitter = ((np.arange(own.size) % 7) - 3) / 3 * 0.22        # deterministic spread
        axes.points(own, i + jitter, colour(index), radius=2.5)
    caption = (f"Each point is one fold's {label} (all repeats); the box spans the middle "
               "half of the folds and the thick line is the median. The folds share "
               "training rows, so they are not independent samples: read the spread as how "
               "much a score moves from fold to fold, not as a standard error.")
    return Figure(f"Fold scores ({label})", axes.svg(caption), caption)


def category_margin(names) -> int:
    """The left margin that fits the longest category label (at most 34 characters)."""
    longest = max((min(len(str(name)), 34) for name in names), default=8)
    return int(min(250, max(80, 16 + 6.4 * longest)))


def differences_figure(tables: dict, rope: float, metric: str) -> Optional[Figure]:
    """Every pair's mean difference with the Bayesian credible intervals, and the ROPE."""
    pairwise, intervals = tables.get("pairwise.csv"), tables.get("credible_intervals.csv")
    if pairwise is None or pairwise.empty:
        return None
    names = [f"{a} − {b}" for a, b in zip(pairwise["model_1"], pairwise["model_2"])]
    lows = [pairwise["mean_difference"].min()]
    highs = [pairwise["mean_difference"].max()]
    if intervals is not None and not intervals.empty:
        lows.append(intervals["lower"].min())
        highs.append(intervals["upper"].max())
    low, high = float(np.nanmin(lows + [-rope])), float(np.nanmax(highs + [rope]))
    label = metric_label(metric)
    axes = Axes(padded(low, high), (-0.5, len(names) - 0.5),
                title="Differences between models (posterior)", x_label=f"difference in {label}",
                height=max(160, 70 + 40 * len(names)), y_categories=names[::-1],
                left=category_margin(names))
    axes.rect(-rope, -0.5, rope, len(names) - 0.5, "#999999", opacity=0.2)
    axes.segment(0, -0.5, 0, len(names) - 0.5, "#555555", width=1, dash="4 3")
    levels = sorted(set(intervals["level"])) if intervals is not None and len(intervals) else []
    for index, row in enumerate(pairwise.itertuples(index=False)):
        i = len(names) - 1 - index                    # the first pair on top
        for rank, level in enumerate(reversed(levels)):            # widest first, thinnest
            if intervals is None:
                break
            match = intervals[(intervals["model_1"] == row.model_1)
                              & (intervals["model_2"] == row.model_2)
                              & (intervals["level"] == level)]
            if len(match):
                axes.error_bar(match["lower"].iloc[0], match["upper"].iloc[0], i, colour(0),
                               width=1.5 + 2 * rank)
        axes.points([row.mean_difference], [i], "#000000", radius=3.5, opacity=1)
    axes.legend(f"ROPE ±{rope:g}", "#999999", kind="box")
    if levels:
        axes.legend("credible intervals " + ", ".join(f"{level:g}" for level in levels),
                    colour(0))
    caption = (f"Mean difference of each pair (first model minus second) with the central "
               f"credible intervals of the Bayesian correlated t-test (thicker = narrower "
               f"level). The grey band is the region of practical equivalence (±{rope:g}): "
               "an interval inside it means practically equivalent, one beside it practically "
               "different.")
    return Figure("Differences between models", axes.svg(caption), caption)


def grouping_gap_figure(tables: dict, metric: str) -> Optional[Figure]:
    """With groups: each model's mean with the groups kept whole and on ordinary folds
    that ignore them (``grouping_gap.csv``), joined by a line."""
    gap = tables.get("grouping_gap.csv")
    if gap is None or gap.empty or not {"grouped_mean", "ungrouped_mean"} <= set(gap.columns):
        return None
    rows = gap[gap["metric"] == metric] if "metric" in gap else gap
    if rows.empty:
        return None
    models, n = list(rows["model"]), len(rows)
    ends = rows[["grouped_mean", "ungrouped_mean"]].to_numpy(dtype=float)
    label = metric_label(metric)
    axes = Axes(padded(np.nanmin(ends), np.nanmax(ends)), (-0.5, n - 0.5),
                title="Grouped against ungrouped folds", x_label=f"mean {label}",
                height=max(140, 60 + 34 * n), y_categories=models[::-1],
                left=category_margin(models))
    for index, row in enumerate(rows.itertuples(index=False)):
        i = n - 1 - index
        axes.segment(row.grouped_mean, i, row.ungrouped_mean, i, "#999999", width=2)
        axes.points([row.grouped_mean], [i], colour(0), radius=4.5, opacity=1)
        axes.points([row.ungrouped_mean], [i], colour(5), radius=4.5, opacity=1)
    axes.legend("groups kept whole (the run's folds)", colour(0))
    axes.legend("ordinary folds, groups ignored", colour(5))
    caption = (f"Each model's mean {label} on the run's folds, which keep every group in one "
               "fold, and on ordinary stratified folds with the same seed. A higher score on "
               "ordinary folds suggests that rows of one group on both sides of a split "
               "flatter the model there; the grouped score is the one that applies to new "
               "groups.")
    return Figure("Grouped against ungrouped folds", axes.svg(caption), caption)


def reliability_figures(tables: dict) -> list:
    """One reliability diagram per model: mean predicted probability against the observed
    fraction, for every calibration method, with the diagonal of perfect calibration."""
    curve = tables.get("calibration_curve.csv")
    if curve is None or curve.empty:
        return []
    classes = list(dict.fromkeys(curve["class"])) if "class" in curve else [None]
    about = classes[-1]                    # the positive class of a binary target
    figures = []
    for model in dict.fromkeys(curve["model"]):
        rows = curve[curve["model"] == model]
        if about is not None:
            rows = rows[rows["class"] == about]
        what = f" of class {about}" if about is not None else ""
        axes = Axes((0, 1), (0, 1), title=f"Reliability: {model}",
                    x_label=f"mean predicted probability{what}",
                    y_label="observed fraction", width=420, height=380)
        axes.segment(0, 0, 1, 1, "#888888", width=1, dash="4 3")
        for i, method in enumerate(dict.fromkeys(rows["method"])):
            own = rows[rows["method"] == method].sort_values("mean_predicted")
            axes.line(own["mean_predicted"], own["fraction_positive"], colour(i))
            axes.points(own["mean_predicted"], own["fraction_positive"], colour(i), radius=3)
            axes.legend(str(method), colour(i))
        caption = (f"Out-of-fold predictions of {model} grouped into bins{what}: a point on "
                   "the dashed diagonal means the predicted probability matches how often "
                   "the class occurred. Bins with few rows are noisy (see the count column).")
        figures.append(Figure(f"Reliability diagram: {model}", axes.svg(caption), caption))
    return figures


def aloocv_figure(tables: dict) -> Optional[Figure]:
    """The ALOOCV curves: approximate leave-one-out log-likelihood against C, log scale."""
    curve = tables.get("aloocv_curve.csv")
    if curve is None or curve.empty:
        return None
    c_values = curve["C"].to_numpy(dtype=float)
    values = curve["alo_log_likelihood"].to_numpy(dtype=float)
    if "loo_log_likelihood" in curve:
        values = np.concatenate([values, pd.to_numeric(curve["loo_log_likelihood"],
                                                       errors="coerce").to_numpy(float)])
    if not np.isfinite(values).any() or not (c_values > 0).all():
        return None
    axes = Axes((c_values.min(), c_values.max()), padded(np.nanmin(values), np.nanmax(values)),
                title="ALOOCV: leave-one-out log-likelihood against C", x_label="C (log scale)",
                y_label="log-likelihood", log_x=True)
    optimum = tables.get("aloocv_optimum.csv")
    for i, model in enumerate(dict.fromkeys(curve["model"])):
        own = curve[curve["model"] == model].sort_values("C")
        axes.line(own["C"], own["alo_log_likelihood"], colour(i))
        axes.legend(f"{model} (ALO)", colour(i))
        if "loo_log_likelihood" in own:
            exact = pd.to_numeric(own["loo_log_likelihood"], errors="coerce")
            if exact.notna().any():
                axes.points(own["C"], exact, colour(i), radius=3)
        if optimum is not None and model in set(optimum["model"]):
            best = optimum[optimum["model"] == model].iloc[0]
            axes.points([best["C"]], [best["alo_log_likelihood"]], "#000000", radius=4.5, opacity=1)
    caption = ("Approximate leave-one-out log-likelihood of each logistic regression over its "
               "regularisation strength C (higher is better); the black dot marks the best C, "
               "points show exact leave-one-out where it was computed.")
    return Figure("ALOOCV curve", axes.svg(caption), caption)


#: Curve tables another part of the app may write: file, title, candidate x and y
#: columns, axis labels, caption, whether the axes are the unit square.
CURVES = (
    ("roc_curve.csv", "ROC curve", ("fpr", "false_positive_rate"),
     ("tpr", "true_positive_rate"), "false positive rate", "true positive rate",
     "Out-of-fold ROC curve of each model; the dashed diagonal is a model that guesses.",
     True),
    ("pr_curve.csv", "Precision-recall curve", ("recall",), ("precision",), "recall",
     "precision", "Out-of-fold precision-recall curve of each model.", True),
    ("decision_curve.csv", "Decision curve", ("threshold",), ("net_benefit",),
     "threshold probability", "net benefit",
     "Net benefit of deciding by each model at each threshold probability, beside treating "
     "everyone (treat all) or no one (treat none); a model is useful only where its curve "
     "lies above both.", False),
    ("learning_curve.csv", "Learning curve", ("fraction", "train_fraction", "n_train"),
     ("mean", "mean_score", "score"), "share of the training rows", "score",
     "Cross-validated score against the share of training rows used; a curve still rising "
     "at the right suggests more data may help.", False),
)


def curve_figures(tables: dict) -> list:
    """The plots of the curve tables present (:data:`CURVES`), one line per model; when
    the table has a ``repeat`` column, the rows with an empty repeat (over repeats) are
    drawn, else the first repeat's."""
    figures = []
    for name, title, xs, ys, x_label, y_label, caption, unit in CURVES:
        table = tables.get(name)
        x, y = _column(table, xs), _column(table, ys)
        if table is None or x is None or y is None:
            continue
        table = _one_curve_per_model(table)
        x_values = pd.to_numeric(table[x], errors="coerce")
        y_values = pd.to_numeric(table[y], errors="coerce")
        if not (x_values.notna().any() and y_values.notna().any()):
            continue
        x_range = (0, 1) if unit else padded(x_values.min(), x_values.max(), share=0.02)
        y_range = (0, 1) if unit else padded(y_values.min(), y_values.max())
        if name == "decision_curve.csv":
            y_range = (max(y_range[0], -0.05), y_range[1])
        axes = Axes(x_range, y_range, title=title, x_label=x_label, y_label=y_label)
        if name == "roc_curve.csv":
            axes.segment(0, 0, 1, 1, "#888888", width=1, dash="4 3")
        for i, model in enumerate(dict.fromkeys(table["model"])):
            own = thinned(table[table["model"] == model])
            dash = "5 3" if str(model) in ("treat all", "treat none") else ""
            axes.line(pd.to_numeric(own[x], errors="coerce"),
                      pd.to_numeric(own[y], errors="coerce"), colour(i), dash=dash)
            axes.legend(str(model), colour(i), kind="dashed" if dash else "line")
        figures.append(Figure(title, axes.svg(caption), caption))
    return figures


#: The most points drawn of one curve (a long curve is thinned evenly, its ends kept).
MAX_POINTS = 1000


def thinned(rows: pd.DataFrame, *, most: int = MAX_POINTS) -> pd.DataFrame:
    """At most ``most`` rows, evenly spaced, the first and the last kept."""
    if len(rows) <= most:
        return rows
    return rows.iloc[np.unique(np.linspace(0, len(rows) - 1, most).round().astype(int))]


def _column(table, candidates) -> Optional[str]:
    if table is None or table.empty or "model" not in table:
        return None
    return next((c for c in candidates if c in table.columns), None)


def _one_curve_per_model(table: pd.DataFrame) -> pd.DataFrame:
    if "repeat" not in table:
        return table
    repeat = pd.to_numeric(table["repeat"], errors="coerce")
    if repeat.isna().any():
        return table[repeat.isna()]
    return table[repeat == repeat.min()]


def ranks_figure(tables: dict) -> Optional[Figure]:
    """Across data sets: every model's mean rank (1 = best on every data set), best on
    top, and its rank on each data set as points."""
    ranks, scores = tables.get("ranks.csv"), tables.get("dataset_scores.csv")
    if ranks is None or ranks.empty or "mean_rank" not in ranks:
        return None
    ranks = ranks.sort_values("mean_rank", kind="stable")
    models = list(ranks["model"])
    n = len(models)
    axes = Axes((0.5, n + 0.5), (-0.5, n - 0.5), title="Mean rank across the data sets",
                x_label="rank (1 = best)", height=max(160, 70 + 40 * n),
                y_categories=models[::-1], left=category_margin(models))
    for index, row in enumerate(ranks.itertuples(index=False)):
        i = n - 1 - index
        axes.segment(1, i, row.mean_rank, i, colour(index), width=6)
        axes.points([row.mean_rank], [i], "#000000", radius=3.5, opacity=1)
        if scores is not None and "rank" in scores:
            own = pd.to_numeric(scores[scores["model"] == row.model]["rank"], errors="coerce")
            jitter = ((np.arange(len(own)) % 5) - 2) / 2 * 0.18
            axes.points(own, i + 0.25 + jitter * 0.3, colour(index), radius=2.5)
    caption = ("Each model's mean rank over the data sets (the black dot; the bar starts at "
               "1, best on every data set) and its rank on each data set (small points). "
               "Whether the ranks differ more than chance allows is the Friedman test's "
               "question, in the tables.")
    return Figure("Mean rank across the data sets", axes.svg(caption), caption)


def figures_for(tables: dict, metric: str, rope: float) -> list:
    """Every plot the tables of one data set allow, in reading order."""
    found = [means_figure(tables, metric), fold_scores_figure(tables, metric),
             differences_figure(tables, rope, metric), grouping_gap_figure(tables, metric),
             *reliability_figures(tables), aloocv_figure(tables), *curve_figures(tables)]
    return [figure for figure in found if figure is not None]


def finite(value) -> bool:
    """Whether ``value`` is a finite number."""
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError):
        return False
