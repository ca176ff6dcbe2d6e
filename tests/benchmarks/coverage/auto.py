"""The study's ``auto`` piece: ``"n_repeats": "auto"`` against the fixed 10 x 10.

One repetition draws its sample as the main piece does (:func:`.repetition.repetition_sample`,
the same seed), cross-validates it with the app's :func:`engine.evaluation.cv.run_cv` at
``folds`` x :data:`MAX_REPEATS` (the app's defaults otherwise) and, from those same fold
scores, computes two sets of intervals:

- ``summary_mean_10x10`` and ``pairwise_difference_10x10``: each model's summary mean
  (:func:`engine.evaluation.stats.summary_table`) and the pair's corrected paired t
  (:func:`engine.evaluation.stats.corrected_interval`) over all ten repeats;
- ``summary_mean_auto`` and ``pairwise_difference_auto``: the same over the first ``k``
  repeats, ``k`` where ``"n_repeats": "auto"`` stops: the engine's own loop
  (:func:`engine.evaluation.auto_repeats.in_rounds`) and rule
  (:func:`~engine.evaluation.auto_repeats.assess`, :func:`~engine.evaluation.auto_repeats.decide`)
  applied round by round to the first ``r`` repeats, as :func:`engine.evaluation.cv.run_cv`
  does, with the comparison's default α and credible levels.

Repeat ``r`` of an ``"auto"`` run has the folds of repeat ``r`` of the fixed run (same
seed), and the tables at its stop equal a fixed run with that many repeats, so the first
``k`` repeats of the 10 x 10 run are the auto run (``tests/benchmarks/test_coverage_auto.py``
checks it against a real ``"auto"`` run). Both intervals of a repetition are on the same
sample, so the two coverages are compared pairwise (:func:`paired_table`). Their estimand is
the main piece's ``expected_score_at_training_size`` (the cell's truth, joined when counting:
the piece's lines carry the main piece's cell).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.stats import binomtest

from engine.evaluation.auto_repeats import DEFAULT_PRECISION, assess, in_rounds
from engine.evaluation.cv import make_splits, run_cv
from engine.evaluation.stats import (ComparisonSettings, corrected_interval, mean_fold_sizes,
                                     summary_table)

from .repetition import drain, repetition_sample, row
from .tables import wilson

__all__ = ["MAX_REPEATS", "TAGS", "auto_rows", "auto_stop", "paired_table"]

#: The fixed design compared with ``"auto"`` and ``"auto"``'s cap (``max_repeats``' default).
MAX_REPEATS = 10
#: The two designs' interval id suffixes.
TAGS = ("10x10", "auto")
ESTIMAND = "expected_score_at_training_size"


def auto_stop(matrix: np.ndarray, splits: list, n_splits: int, settings=None,
              max_repeats: int = MAX_REPEATS, precision: float = DEFAULT_PRECISION):
    """Where ``"n_repeats": "auto"`` stops on these fold scores (an ``AutoStop``).

    Parameters
    ----------
    matrix : ndarray of shape (n_models, n_splits * max_repeats)
        The primary metric per model and split, in split order (NaN: a failed fold).
    splits : list of (train, test)
        The run's splits (their mean sizes give the correction ``n_test / n_train``).
    n_splits : int
    settings : ComparisonSettings, optional
        The comparison's α and credible levels (the app's defaults when None).
    """
    settings = settings or ComparisonSettings()
    tasks = [(0, s) for s in range(matrix.shape[1])]

    def ratio_after(r):                       # as engine.evaluation.cv._ratio_after
        n_folds = r * n_splits
        n_train = np.mean([len(train) for train, _ in splits[:n_folds]])
        n_test = np.mean([len(test) for _, test in splits[:n_folds]])
        return assess(matrix[:, :n_folds], n_splits, n_test / n_train, settings.alpha,
                      credible_levels=settings.credible_levels, max_repeats=max_repeats)

    def compute(indices):
        return ((index, None) for index in indices)

    return drain(in_rounds(tasks, n_splits, max_repeats, precision, {}, compute,
                           ratio_after))


def _design_rows(scores: pd.DataFrame, models: tuple, metric: str, tag: str,
                 repeats: int, alpha: float) -> list:
    """The summary means and the pair's difference over the first ``repeats`` repeats."""
    scores = scores[scores["repeat"] <= repeats]
    summary = summary_table(scores, models, (metric,), alpha=alpha)
    rows = [row(f"summary_mean_{tag}", line["model"], "corrected_t", ESTIMAND,
                line["ci_low"], line["ci_high"], {}, line["mean"])
            for _, line in summary.iterrows()]
    part = scores[scores["metric"] == metric]
    matrix = part.pivot(index="model", columns=["repeat", "fold"], values="score")
    a, b = models[0], models[1]
    differences = matrix.loc[a].to_numpy(float) - matrix.loc[b].to_numpy(float)
    n_train, n_test = mean_fold_sizes(scores)
    low, high = corrected_interval(differences, n_train, n_test, alpha=alpha)
    rows.append(row(f"pairwise_difference_{tag}", f"{a} - {b}", "corrected_paired_t",
                    ESTIMAND, low, high, {}, np.nanmean(differences)))
    for entry in rows:
        entry["repeats"] = repeats
    return rows


def auto_rows(frame, target, specs, n: int, seed: int, design: dict) -> tuple:
    """``(rows, stop)`` of one repetition: the 10 x 10 and the auto intervals (each row
    with its ``repeats``) and where ``"auto"`` stopped."""
    draw, metric, config = repetition_sample(frame, target, n, seed,
                                             {**design, "repeats": MAX_REPEATS})
    settings = ComparisonSettings()
    cv = drain(run_cv(draw.dataset, specs, config, [metric], alpha=settings.alpha))
    matrix = cv.score_matrix(metric).to_numpy(float)
    stop = auto_stop(matrix, make_splits(draw.dataset.y, config), config.n_splits, settings)
    rows = []
    for tag, repeats in zip(TAGS, (MAX_REPEATS, stop.n_repeats)):
        rows += _design_rows(cv.scores, cv.models, metric, tag, repeats, settings.alpha)
    return rows, stop


def _covered(row: dict, truth: float):
    if any(map(math.isnan, (row["low"], row["high"], truth))):
        return None
    return row["low"] <= truth <= row["high"]


def _pairs(lines: list, truths: dict) -> dict:
    """``{(population, n, interval, model): [(fixed covered, auto covered, auto repeats,
    fixed width, auto width), ...]}``, one entry per repetition with both intervals."""
    pairs = {}
    for line in lines:
        if line["kind"] != "auto":
            continue
        by = {(r["interval"], r["model"]): r for r in line["rows"]}
        for (interval, model), fixed in by.items():
            if not interval.endswith(TAGS[0]):
                continue
            base = interval[:-len(TAGS[0]) - 1]
            auto = by.get((f"{base}_{TAGS[1]}", model))
            truth = truths.get(line["cell"], {}).get(model, (math.nan,))[0]
            if auto is None:
                continue
            hits = (_covered(fixed, truth), _covered(auto, truth))
            if None in hits:
                continue
            key = (line["population"], line["n"], base, model)
            pairs.setdefault(key, []).append((*hits, auto["repeats"],
                                              fixed["high"] - fixed["low"],
                                              auto["high"] - auto["low"]))
    return pairs


def paired_table(lines: list, truths: dict) -> pd.DataFrame:
    """Per population, n, interval and model: the repetitions, the coverage of the fixed
    10 x 10 and of ``"auto"`` with their Wilson intervals, the mean repeats ``"auto"``
    used, the mean width ratio, the discordant repetitions (covered by one design only),
    the exact McNemar p-value (a two-sided binomial test of the discordant counts;
    1.0 when there are none) and ``most_apart``, the Wilson upper bound on the share of
    discordant repetitions: the most the two coverages can differ (at 95%). ``truths``: per cell, ``{model: (mean, se)}``."""
    records = []
    for key, values in sorted(_pairs(lines, truths).items()):
        fixed, auto, repeats, w_fixed, w_auto = (np.array(v, float) for v in zip(*values))
        reps = len(values)
        only_fixed = int(np.sum((fixed == 1) & (auto == 0)))
        only_auto = int(np.sum((fixed == 0) & (auto == 1)))
        discordant = only_fixed + only_auto
        p = binomtest(only_auto, discordant).pvalue if discordant else 1.0
        records.append(dict(zip(["population", "n", "interval", "model"], key),
                            reps=reps, coverage_fixed=fixed.mean(),
                            fixed_wilson=wilson(fixed.sum(), reps),
                            coverage_auto=auto.mean(), auto_wilson=wilson(auto.sum(), reps),
                            mean_repeats=repeats.mean(), width_ratio=np.mean(w_auto / w_fixed),
                            only_fixed=only_fixed, only_auto=only_auto, mcnemar_p=p,
                            most_apart=wilson(discordant, reps)[1]))
    return pd.DataFrame(records)


def markdown_paired(table: pd.DataFrame) -> str:
    """The docs' table of :func:`paired_table` (equal within Monte Carlo error: the exact
    McNemar test does not reject at 5%)."""
    lines = ["| cell | interval | model | reps | coverage fixed 10x10 % (Wilson 95%) | "
             "coverage auto % (Wilson 95%) | mean repeats auto | auto width / 10x10 | "
             "discordant: only 10x10 / only auto | McNemar p | equal within MC error | "
             "coverages apart by at most (95%) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for _, r in table.iterrows():
        fixed = _with_interval(r["coverage_fixed"], r["fixed_wilson"])
        auto = _with_interval(r["coverage_auto"], r["auto_wilson"])
        lines.append(f"| {r['population']} n={r['n']} | {r['interval']} | {r['model']} | "
                     f"{r['reps']} | {fixed} | {auto} | {r['mean_repeats']:.2f} | "
                     f"{r['width_ratio']:.3f} | {r['only_fixed']} / {r['only_auto']} | "
                     f"{r['mcnemar_p']:.3f} | {'yes' if r['mcnemar_p'] >= 0.05 else 'no'} | "
                     f"{100 * r['most_apart']:.1f} points |")
    return "\n".join(lines)


def _with_interval(share: float, interval: tuple) -> str:
    return f"{100 * share:.1f} ({100 * interval[0]:.1f}–{100 * interval[1]:.1f})"
