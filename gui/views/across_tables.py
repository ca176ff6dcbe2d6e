"""The tables of the "Across data sets" view: what each shows, its headers in words, its
cell colours, and the Friedman test in one sentence.

Every table is one of ``AcrossComparison.tables()`` as written to the result folder
(the same columns, so a table exported from the view equals the file), except the
scores per data set, shown wide (a row per data set, a column per model, best model
first) for reading.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from engine.foundation.html_text import html_text
from engine.runs.across.report import number, p_text
from engine.foundation.columns import DATASET, MODEL, PAIR, P_BETTER, P_EQUIVALENT, P_WORSE, RANK

GOOD, PICKED = "#c7ead0", "#dbe8fb"
#: the colour each Bayesian outcome blends towards as its probability goes to 1
OUTCOME_COLOURS = {P_BETTER: (0x00, 0x72, 0xB2), P_EQUIVALENT: (0x8c, 0x8c, 0x8c),
                   P_WORSE: (0xE6, 0x9F, 0x00)}
WIDE_NAME = "dataset_scores_wide.csv"

#: headers in words, per table (the CSV keeps the column names)
HEADERS = {
    "ranks.csv": {"model": "Model", "mean_rank": "Mean rank (1 = best)",
                  "n_datasets": "Data sets"},
    "friedman.csv": {"n_datasets": "Data sets", "n_models": "Models", "chi2": "Friedman χ²",
                     "p_value": "p (Friedman)", "iman_davenport_f": "Iman-Davenport F",
                     "iman_davenport_p_value": "p (Iman-Davenport)"},
    "nemenyi.csv": {"model_1": "Model 1 (better rank)", "model_2": "Model 2",
                    "mean_rank_difference": "Mean-rank difference",
                    "critical_difference": "Critical difference", "p_value": "p",
                    "significant": "Significant (after Friedman)",
                    "beyond_critical_difference": "Beyond the critical difference"},
    "wilcoxon.csv": {"model_1": "Model 1 (better rank)", "model_2": "Model 2",
                     "statistic": "W", "p_value": "p", "p_value_adjusted": "p (adjusted)",
                     "method": "How p was computed", "significant": "Significant"},
    "signed_rank.csv": {"model_1": "Model 1 (better rank)", "model_2": "Model 2",
                        "p_better": "P(model 1 better)",
                        "p_equivalent": "P(practically equivalent)",
                        "p_worse": "P(model 2 better)",
                        "share_most_probable_better": "Share of draws: model 1 likeliest",
                        "share_most_probable_equivalent": "Share of draws: equivalent "
                                                          "likeliest",
                        "share_most_probable_worse": "Share of draws: model 2 likeliest",
                        "decision": "Decision"},
    WIDE_NAME: {"dataset": "Data set"},
}


def wide_scores(dataset_scores: pd.DataFrame, models: list) -> pd.DataFrame:
    """The mean scores with a row per data set (in their order) and a column per model
    (in ``models``' order, best mean rank first); models missing on a data set are NaN."""
    if dataset_scores.empty:
        return pd.DataFrame({"dataset": []})
    table = dataset_scores.pivot(index="dataset", columns="model", values="mean")
    datasets = list(dict.fromkeys(dataset_scores[DATASET]))
    order = [m for m in models if m in table.columns]
    order += [m for m in table.columns if m not in order]
    table = table.reindex(index=datasets, columns=order)
    table.columns = [str(c) for c in table.columns]
    return table.reset_index().rename(columns={"index": "dataset"})


def best_per_dataset(dataset_scores: pd.DataFrame) -> dict:
    """``{data set: {models ranked 1 there}}`` (ties share the first rank)."""
    ranked = dataset_scores.dropna(subset=[RANK])
    best = ranked[ranked[RANK] == ranked.groupby(DATASET)[RANK].transform("min")]
    found: dict = {}
    for dataset, model in zip(best[DATASET], best[MODEL]):
        found.setdefault(dataset, set()).add(str(model))
    return found


def blend(rgb: tuple, fraction: float) -> str:
    """White blended towards ``rgb`` by ``fraction`` (0..1), as ``#rrggbb``."""
    if not math.isfinite(fraction):
        return ""
    f = min(max(fraction, 0.0), 1.0) * 0.75            # keep the text readable
    return "#" + "".join(f"{round(255 + (c - 255) * f):02x}" for c in rgb)


def friedman_words(friedman: pd.DataFrame, alpha: float, min_datasets: int = 0) -> str:
    """The Friedman and Iman-Davenport tests in one or two plain sentences (rich text);
    with fewer than ``min_datasets`` data sets, the numbers and why they decide nothing."""
    if friedman.empty:
        return ""
    row = friedman.iloc[0]
    n, k = int(row["n_datasets"]), int(row["n_models"])
    if n < min_datasets:
        numbers = ("" if not np.isfinite(row["chi2"]) else
                   f" Friedman χ² = {number(row['chi2'])} "
                   f"({html_text(p_text(row['p_value']))}); Iman-Davenport F = "
                   f"{number(row['iman_davenport_f'])} "
                   f"({html_text(p_text(row['iman_davenport_p_value']))}).")
        return (f"<b>No decision with {n} data sets</b>: at least {min_datasets} are needed "
                f"before any model is called better (at α = {alpha:g}, fewer data sets cannot "
                "make a Wilcoxon test significant, and the Bayesian probabilities come close "
                "to 1 whenever the few differences lie on one side). The numbers are shown, "
                f"not read as decisions.{numbers}")
    if not np.isfinite(row["chi2"]):
        why = ("two models: the Wilcoxon and Bayesian tables compare the pair directly"
               if k == 2 else "it needs two or more models on two or more data sets, "
               "and scores that differ somewhere")
        return f"Friedman test ({k} models, {n} data sets): not computed — {why}."
    differ = row["iman_davenport_p_value"] < alpha
    verdict = ("<b>at least some models differ</b> (more than chance would explain)" if differ
               else "no difference shown: the mean ranks could differ this much by "
               "chance, so the Nemenyi pairs are not read as differences")
    return (f"Do the {k} models differ at all over {n} data sets? Friedman χ² = "
            f"{number(row['chi2'])} ({html_text(p_text(row['p_value']))}); Iman-Davenport F = "
            f"{number(row['iman_davenport_f'])} "
            f"({html_text(p_text(row['iman_davenport_p_value']))}). "
            f"{'Below' if differ else 'Not below'} α = {alpha:g}: {verdict}.")


# ---------------------------------------------------------------------- cell colours
def pairwise_style(decisive: str, alpha: float, picked, deciding: bool = True):
    """Nemenyi / Wilcoxon: the deciding p-value (``decisive``) green below alpha (only
    when the table may decide: ``deciding``), a significant pair's "yes" green, the
    picked models blue."""
    def style(_row, column, value):
        if column in PAIR:
            return PICKED if str(value) in picked() else None
        if column == "significant":
            return GOOD if isinstance(value, (bool, np.bool_)) and bool(value) else None
        if (deciding and column == decisive and isinstance(value, (float, np.floating))
                and value < alpha):
            return GOOD
        return None
    return style


def signed_rank_style(picked):
    """Each probability's cell tinted by its size, in its outcome's colour."""
    def style(_row, column, value):
        if column in PAIR:
            return PICKED if str(value) in picked() else None
        if column in OUTCOME_COLOURS and isinstance(value, (float, np.floating)):
            return blend(OUTCOME_COLOURS[column], float(value)) or None
        return None
    return style


def wide_style(frame_of, best: dict):
    """The best model of every data set green."""
    def style(row, column, _value):
        frame = frame_of()
        if column == "dataset" or row >= len(frame):
            return None
        return GOOD if column in best.get(frame[DATASET].iat[row], ()) else None
    return style


def ranks_style(picked):
    """The picked models blue."""
    def style(_row, column, value):
        if column == "model":
            return PICKED if str(value) in picked() else None
        return None
    return style
