"""Counting the store: coverage per cell, the record file and the docs' table.

A cell of the table is a population, a sample size, an interval id and a model (or
pair). Its coverage is the share of repetitions whose interval holds the interval's
estimand; the Monte Carlo standard error is ``sqrt(p (1 − p) / reps)`` and the Wilson
interval is the 95% score interval of that share. The calibration band's repetition
counts the share of its diagram's bins that hold their truth (its "coverage" is the mean
of those shares; the Wilson interval treats each repetition as one check, roughly).
"""
from __future__ import annotations

import math
from collections import defaultdict

import numpy as np
import pandas as pd

__all__ = [
    "RECORD_COLUMNS",
    "cell_truths",
    "coverage_table",
    "markdown_table",
    "merged_record",
    "outside",
    "record_table",
    "wilson",
]

RECORD_COLUMNS = ["interval", "method", "estimand", "level", "coverage_min", "coverage_max",
                  "coverage_mean", "n_cells", "repetitions_per_cell", "study_date", "command"]
LOW, HIGH = 0.93, 0.97
#: The interval id whose "coverage" is an error rate under the null.
ERROR_RATE = "across_tests_null"
#: The store's kinds of repetition lines and of truth lines.
REPETITIONS = ("rep", "subgroup", "nested", "auto")
TRUTHS = ("truth", "subgroup_truth")


def wilson(hits: float, n: int, z: float = 1.959964) -> tuple:
    """The Wilson score interval of a share ``hits / n``."""
    if n == 0:
        return (math.nan, math.nan)
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def _truth(row: dict, estimand: str, cell_truth: dict) -> float:
    if estimand == "expected_score_at_training_size":
        return cell_truth.get(row["model"], (math.nan,))[0]
    return row["truths"].get(estimand, math.nan)


def _check(row: dict, estimand: str, cell_truth: dict):
    """(covered 0..1 or None, width) of one interval against one estimand."""
    if "covered" in row:
        value = row["covered"]
        return (None if value is None or np.isnan(value) else value), math.nan
    truth = _truth(row, estimand, cell_truth)
    if any(np.isnan(v) for v in (row["low"], row["high"], truth)):
        return None, math.nan
    return float(row["low"] <= truth <= row["high"]), row["high"] - row["low"]


def _estimands(row: dict) -> list:
    """The row's estimand first, then the others it carries truths for."""
    others = [k for k in row["truths"] if k != row["estimand"]]
    return [row["estimand"], *others]


def cell_truths(lines: list) -> dict:
    """Per cell, the values of its truth lines (each kind's of the most draws) merged:
    ``truth``'s by model and ``subgroup_truth``'s by ``"model | column=value"``."""
    best = {}
    for line in lines:
        if line["kind"] in TRUTHS:
            key = (line["cell"], line["kind"])
            if line["draws"] > best.get(key, {"draws": -1})["draws"]:
                best[key] = line
    truths = defaultdict(dict)
    for (cell, _), line in sorted(best.items()):
        truths[cell].update(line["values"])
    return truths


def coverage_table(lines: list) -> pd.DataFrame:
    """One row per population, n, interval, model and estimand: coverage, MC se, Wilson
    interval, mean width, repetitions, and ``main`` (the interval's own estimand)."""
    truths = cell_truths(lines)
    checks = defaultdict(list)
    meta = {}
    for line in lines:
        if line["kind"] not in REPETITIONS:
            continue
        for row in line["rows"]:
            for estimand in _estimands(row):
                covered, width = _check(row, estimand, truths.get(line["cell"], {}))
                if covered is None:
                    continue
                key = (line["population"], line["n"], row["interval"], row["model"], estimand)
                checks[key].append((covered, width))
                meta[key] = (row["method"], estimand == row["estimand"])
    records = []
    for key, values in sorted(checks.items()):
        covered = np.array([c for c, _ in values])
        widths = np.array([w for _, w in values])
        reps, p = len(covered), float(covered.mean())
        low, high = wilson(p * reps, reps)
        records.append(dict(zip(["population", "n", "interval", "model", "estimand"], key),
                            method=meta[key][0], main=meta[key][1], reps=reps, coverage=p,
                            mc_se=math.sqrt(p * (1 - p) / reps), wilson_low=low,
                            wilson_high=high,
                            mean_width=float(np.nanmean(widths)) if np.isfinite(widths).any()
                            else math.nan))
    return pd.DataFrame(records)


def outside(coverage: float, interval: str = "") -> bool:
    """Whether a coverage lies outside the 93-97% the issue asks for (an error rate under
    the null, ``across_tests_null``: whether it is above 5%)."""
    if interval == ERROR_RATE:
        return coverage > 0.05
    return not LOW <= coverage <= HIGH


def record_table(table: pd.DataFrame, date: str, command: str,
                 min_reps: int = 0) -> pd.DataFrame:
    """``measured_coverage.csv``: one row per interval id, over its cells of at least
    ``min_reps`` repetitions (own estimand only); an interval with no such cell has no
    row ("not measured"), and neither has an id the app does not print (the ``auto``
    piece's ``summary_mean_auto`` and kin: the app refuses a record holding one)."""
    from engine.evaluation.estimands import INTERVALS

    main = table[table["main"] & (table["reps"] >= min_reps)
                 & table["interval"].isin(list(INTERVALS))]
    rows = []
    for interval, part in main.groupby("interval", sort=True):
        rows.append({"interval": interval, "method": "+".join(pd.unique(part["method"])),
                     "estimand": part["estimand"].iloc[0], "level": 0.95,
                     "coverage_min": round(part["coverage"].min(), 4),
                     "coverage_max": round(part["coverage"].max(), 4),
                     "coverage_mean": round(part["coverage"].mean(), 4),
                     "n_cells": len(part), "repetitions_per_cell": int(part["reps"].min()),
                     "study_date": date, "command": command})
    return pd.DataFrame(rows, columns=RECORD_COLUMNS)


def merged_record(new: pd.DataFrame, old) -> pd.DataFrame:
    """``new`` with the rows of ``old`` (the record as it was) for the intervals ``new``
    does not measure, so a study of some intervals keeps the others' rows; by interval."""
    if old is None or not len(old):
        return new
    kept = old[~old["interval"].isin(set(new["interval"]))][RECORD_COLUMNS]
    both = pd.concat([kept.astype(object), new.astype(object)], ignore_index=True)
    return both.sort_values("interval", kind="stable").reset_index(drop=True)


def _percent(value: float) -> str:
    return "" if np.isnan(value) else f"{100 * value:.1f}"


def markdown_table(table: pd.DataFrame) -> str:
    """The docs' table: every cell, cells outside 93-97% marked with **bold** and ⚠."""
    header = ("| population | n | interval | model | estimand | reps | coverage % | MC se | "
              "Wilson 95% | mean width |")
    lines = [header, "|---|---|---|---|---|---|---|---|---|---|"]
    for _, r in table.iterrows():
        cov = _percent(r["coverage"])
        if outside(r["coverage"], r["interval"]):
            cov = f"**{cov}** ⚠"
        name = r["estimand"] if r["main"] else f"({r['estimand']})"
        model = str(r["model"]).replace("|", "\\|")      # a subgroup's "model | column=value"
        width = "" if np.isnan(r["mean_width"]) else f"{r['mean_width']:.3f}"
        lines.append(f"| {r['population']} | {r['n']} | {r['interval']} | {model} | "
                     f"{name} | {r['reps']} | {cov} | {_percent(r['mc_se'])} | "
                     f"{_percent(r['wilson_low'])}–{_percent(r['wilson_high'])} | {width} |")
    return "\n".join(lines)
