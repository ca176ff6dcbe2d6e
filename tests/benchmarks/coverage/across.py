"""The across-data-set tests under the null: how often do they call a difference that is
not there?

One repetition draws ``n`` rows from every population, cross-validates the same learner
with two seeds (a small random forest, seeds 1 and 2: over the draws neither is better),
and compares their mean scores across the populations with the app's
:func:`engine.runs.across.compare.compare_across`. Each test's repetition counts as an
error when it declares a difference: Friedman's p (and Iman and Davenport's) below α,
Wilcoxon's Holm-adjusted p below α, the Bayesian signed-rank test deciding for one model.
The share of such repetitions is the test's error rate under the null (nominal: α = 5%
for the frequentist tests; the Bayesian decision has no nominal rate).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from engine.evaluation.catalogue import expand_models
from engine.evaluation.cv import CVConfig, run_cv
from engine.runs.across.compare import compare_across

from .repetition import drain, metric_for
from .sample import draw_rows

__all__ = ["ALPHA", "NULL_LEARNERS", "across_null_rows"]

NULL_LEARNERS = [{"name": f"forest_seed_{seed}", "estimator": "RandomForestClassifier",
                  "params": {"n_estimators": 10, "max_depth": 4, "random_state": seed}}
                 for seed in (1, 2)]
ALPHA = 0.05


def _error_row(test: str, rejected: bool) -> dict:
    return {"interval": "across_tests_null", "model": test, "method": test,
            "estimand": "error_rate_under_null", "low": np.nan, "high": np.nan,
            "estimate": np.nan, "truths": {}, "covered": float(rejected), "n_checks": 1}


def across_null_rows(populations: dict, n: int, seed: int, folds: int = 10) -> list:
    """One repetition: every test's error (1) or not (0) as study rows."""
    rng = np.random.default_rng(seed)
    specs = expand_models([dict(e) for e in NULL_LEARNERS])
    means = []
    for name, (frame, target) in populations.items():
        draw = draw_rows(frame, target, n, 0, 0, rng)
        metric = metric_for(len(draw.dataset.classes))
        config = CVConfig(n_splits=folds, n_repeats=1, random_state=seed % (2 ** 31))
        cv = drain(run_cv(draw.dataset, specs, config, [metric]))
        for model, mean in cv.score_matrix(metric).mean(axis=1).items():
            means.append({"dataset": name, "model": model, "mean": float(mean)})
    result = compare_across(pd.DataFrame(means), metric="mixed", alpha=ALPHA)
    friedman = result.friedman.iloc[0]
    return [_error_row("friedman", bool(friedman["p_value"] < ALPHA)),
            _error_row("iman_davenport", bool(friedman["iman_davenport_p_value"] < ALPHA)),
            _error_row("wilcoxon_holm", bool(result.wilcoxon["p_value_adjusted"].lt(ALPHA)
                                             .any())),
            _error_row("bayes_signed_rank", bool(result.signed_rank["decision"]
                                                 .isin(["model_1", "model_2"]).any()))]
