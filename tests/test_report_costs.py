"""A threshold/cost comparison's report says the cost result first (issue #38, item 5),
each number read back against summary.csv and the fold scores."""
from __future__ import annotations

import json
import os
import re

import numpy as np
import pandas as pd
import pytest

from engine.cli import run as run_cli
from engine.evaluation.stats import corrected_interval
from tests.helpers import report_prose, rounded_zeros

COSTS = [[0, 10], [1, 0]]
EXPERIMENT = {
    "dataset": {"builtin": "breast_cancer"},
    "models": [{"name": "default", "estimator": "LogisticRegression", "scale": True,
                "params": {"max_iter": 1000}},
               {"name": "cost-tuned", "estimator": "LogisticRegression", "scale": True,
                "params": {"max_iter": 1000},
                "threshold": {"cost": COSTS, "inner_splits": 2}}],
    "costs": COSTS,
    "metrics": ["roc_auc", "neg_expected_cost"],
    "cv": {"n_splits": 3, "n_repeats": 2, "random_state": 0},
}
NUMBER = r"(-?\d+\.\d+)"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("costs")
    path = folder / "experiment.json"
    path.write_text(json.dumps(EXPERIMENT), encoding="utf-8")
    assert run_cli([str(path), "--out", str(folder / "out"), "--quiet"]) == 0
    out = folder / "out"
    page = (out / "report.html").read_text(encoding="utf-8")
    return (report_prose(page), pd.read_csv(out / "summary.csv"),
            pd.read_csv(out / "fold_scores.csv"))


def test_the_cost_result_comes_first_with_the_tables_numbers(run):
    prose, summary, _ = run
    verdict = prose.split("Verdict and what it does not say", 1)[1]
    assert verdict.index("At the run's costs") < verdict.index("In short")
    costs = summary[summary["metric"] == "neg_expected_cost"].set_index("model")
    for model in ("default", "cost-tuned"):
        # the level: "95%", or the coverage the study measured (the shipped record)
        level = r"(?:95%|[\d.]+(?:–[\d.]+)?% measured)"
        found = re.search(re.escape(model) + " " + NUMBER + r" \(" + level + " interval " + NUMBER
                          + " to " + NUMBER + r"\)", verdict)
        assert found, verdict[:600]
        cost, low, high = (float(g) for g in found.groups())
        assert cost == pytest.approx(-costs.loc[model, "mean"], abs=5e-4)
        assert low == pytest.approx(-costs.loc[model, "ci_high"], abs=5e-4)
        assert high == pytest.approx(-costs.loc[model, "ci_low"], abs=5e-4)
    first = verdict.index("At the run's costs")
    order = sorted(("default", "cost-tuned"), key=lambda m: -costs.loc[m, "mean"])
    assert verdict.index(order[0] + " ", first) < verdict.index(order[1] + " ", first)


def test_the_cost_difference_is_the_fold_differences(run):
    prose, summary, folds = run
    n_train, n_test = 569 * 2 / 3, 569 / 3
    found = re.search(r"Fold by fold, (.+?) costs " + NUMBER + r" less per row than (.+?) \("
                      r"95% corrected-t interval of the difference " + NUMBER + " to " + NUMBER
                      + r", (\d+) folds", prose)
    assert found, prose[:2000]
    best, other = found.group(1), found.group(3)
    costs = folds[folds["metric"] == "neg_expected_cost"].pivot(
        index="model", columns=["repeat", "fold"], values="score")
    saved = (costs.loc[best] - costs.loc[other]).to_numpy(dtype=float)
    assert float(found.group(2)) == pytest.approx(saved.mean(), abs=5e-4)
    sizes = folds.drop_duplicates(["repeat", "fold"])
    low, high = corrected_interval(saved, sizes["n_train"].mean(), sizes["n_test"].mean())
    assert float(found.group(4)) == pytest.approx(low, abs=5e-4)
    assert float(found.group(5)) == pytest.approx(high, abs=5e-4)
    assert int(found.group(6)) == len(saved) == 6
    assert n_train > n_test                                 # (sizes as the folds hold them)


def test_a_threshold_that_cannot_change_roc_auc_is_said(run):
    prose, summary, folds = run
    auc = folds[folds["metric"] == "roc_auc"].pivot(index="model", columns=["repeat", "fold"],
                                                    values="score")
    assert np.array_equal(auc.loc["default"].to_numpy(), auc.loc["cost-tuned"].to_numpy())
    assert "Every fold difference on ROC AUC is exactly 0" in prose
    assert "a decision threshold cannot change ROC AUC" in prose
    assert "The verdicts below compare the models on ROC AUC, not on these costs" in prose


def test_the_cost_report_prints_no_rounded_zero(run):
    assert rounded_zeros(run[0]) == []


def test_without_the_cost_metric_the_report_says_it_was_not_computed(tmp_path):
    experiment = {**EXPERIMENT, "metrics": ["roc_auc"],
                  "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0}}
    path = tmp_path / "experiment.json"
    path.write_text(json.dumps(experiment), encoding="utf-8")
    assert run_cli([str(path), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    prose = report_prose((tmp_path / "out" / "report.html").read_text(encoding="utf-8"))
    assert ('Costs were given, but the expected cost was not computed: add '
            '"neg_expected_cost" to the metrics') in prose
    assert os.path.exists(tmp_path / "out" / "summary.csv")


def test_the_shipped_cost_example_says_the_costs_first():
    """docs/examples/threshold_cost: its verdict opens with the expected costs of
    summary.csv, and its report names no folder."""
    from pathlib import Path

    here = Path(__file__).resolve().parent.parent / "docs" / "examples" / "threshold_cost"
    lines = [x for x in (here / "verdict.txt").read_text(encoding="utf-8").splitlines() if x]
    assert lines[1].startswith("At the run's costs, the expected cost per row")
    costs = pd.read_csv(here / "summary.csv").query("metric == 'neg_expected_cost'")
    for row in costs.itertuples(index=False):
        found = re.search(re.escape(row.model) + " " + NUMBER, lines[1])
        assert float(found.group(1)) == pytest.approx(-row.mean, abs=5e-4)
    page = (here / "report.html").read_text(encoding="utf-8")
    assert "HMDA.csv (SHA-256 of the file " in page and "/tmp/" not in page
    assert rounded_zeros(report_prose(page)) == []
