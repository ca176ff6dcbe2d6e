"""The coverage study's bookkeeping, on a tiny synthetic population (no packages needed)."""
from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from engine.evaluation.stats import corrected_interval
from tests.benchmarks.coverage.across import across_null_rows
from tests.benchmarks.coverage.populations import synthetic
from tests.benchmarks.coverage.repetition import row
from tests.benchmarks.coverage.runner import Study, pending, run_study
from tests.benchmarks.coverage.store import done_keys, read_lines, unique_lines
from tests.benchmarks.coverage.tables import coverage_table, record_table, wilson

EXPECTED_IDS = {"summary_mean", "pairwise_difference", "credible_difference",
                "auc_delong_pooled", "auc_ledell", "decision_curve_band", "calibration_band",
                "heldout_bootstrap", "heldout_delong", "auc_corrected_t"}


@pytest.fixture(scope="module")
def study():
    return Study({"toy": (synthetic(1500, seed=1), "target")}, sizes=(60,), reps=2,
                 truth_draws=3, folds=3, repeats=2, version="test")


def test_study_runs_resumes_and_counts(study, tmp_path):
    store = tmp_path / "study.jsonl"
    assert run_study(study, store, say=lambda _: None) == 3      # truth + 2 repetitions
    lines = read_lines(store)
    assert [(x["kind"], x["rep"]) for x in lines] == [("truth", None), ("rep", 0), ("rep", 1)]
    assert run_study(study, store, say=lambda _: None) == 0      # all done: nothing rerun
    other = tmp_path / "other.jsonl"                             # a second shard's store
    assert run_study(dataclasses.replace(study, reps=4), other, say=lambda _: None,
                     also=[store], shard=(1, 2), limit=0) == 0
    assert [p[3] for p in pending(dataclasses.replace(study, reps=4), done_keys(lines))
            if p[3] % 2 == 1] == [3]
    # a killed run: the last line torn in half; the rerun redoes that repetition only
    text = store.read_text().splitlines()
    store.write_text("\n".join(text[:-1] + [text[-1][:40]]) + "\n")
    assert [p[3] for p in pending(study, done_keys(read_lines(store)))] == [1]
    assert run_study(study, store, say=lambda _: None) == 1
    again = read_lines(store)
    assert again[-1]["rows"] == lines[-1]["rows"]                # fixed seed per repetition
    assert unique_lines(again + again[1:]) == again              # a second store's copies
    more = dataclasses.replace(study, truth_draws=4)             # a better truth is new work
    assert pending(more, done_keys(again)) == [("truth", "toy", 60, 4)]
    table = coverage_table(again)
    main = table[table["main"]]
    assert set(main["interval"]) == EXPECTED_IDS
    assert set(main["reps"]) == {2}
    assert main["coverage"].between(0, 1).all()
    record = record_table(table, "2026-01-01", "cmd")
    assert set(record["interval"]) == EXPECTED_IDS
    assert (record["repetitions_per_cell"] == 2).all()
    assert record_table(table, "2026-01-01", "cmd", min_reps=3).empty   # too few: none


def test_truth_is_the_mean_of_fresh_fits(study, tmp_path):
    store = tmp_path / "study.jsonl"
    run_study(study, store, say=lambda _: None, limit=1)
    truth = read_lines(store)[0]
    mean, se = truth["values"]["logistic_regression"]
    assert 0.6 < mean < 0.8 and 0 < se < 0.1                  # AUC of a 0.5 shift in 5 dims
    diff_mean, _ = truth["values"]["logistic_regression - naive_bayes"]
    assert diff_mean == pytest.approx(mean - truth["values"]["naive_bayes"][0])
    json.dumps(truth)                                          # the store is plain JSON


def test_known_interval_covers_about_95_percent():
    """200 repetitions of the plain t interval of a normal mean (the corrected t with no
    training overlap): its true coverage is exactly 95%, so the study's counting must
    find it within Monte Carlo error (se 1.5 points; bounds 3.3 se)."""
    rng = np.random.default_rng(7)
    lines = [{"cell": "c", "kind": "truth", "values": {"m": [0.5, 0.0]}, "draws": 1}]
    for rep in range(200):
        low, high = corrected_interval(rng.normal(0.5, 1.0, 10), 1e12, 1.0)
        lines.append({"cell": "c", "kind": "rep", "rep": rep, "population": "p", "n": 10,
                      "rows": [row("summary_mean", "m", "t", "expected_score_at_training_size",
                                   low, high, {})]})
    table = coverage_table(lines)
    assert table["reps"].item() == 200
    assert 0.90 <= table["coverage"].item() <= 0.99
    assert table["mc_se"].item() == pytest.approx(
        np.sqrt(table["coverage"].item() * (1 - table["coverage"].item()) / 200))


def test_wilson_interval():
    low, high = wilson(95, 100)
    assert low == pytest.approx(0.8883, abs=1e-4) and high == pytest.approx(0.9785, abs=1e-4)


def test_across_null_rows_count_each_test():
    toy = {name: (synthetic(800, seed=i), "target") for i, name in enumerate(("a", "b", "c"))}
    rows = across_null_rows(toy, 90, seed=3, folds=3)
    assert [r["model"] for r in rows] == ["friedman", "iman_davenport", "wilcoxon_holm",
                                          "bayes_signed_rank"]
    assert all(r["interval"] == "across_tests_null" and r["covered"] in (0.0, 1.0)
               for r in rows)
    # three data sets are fewer than the six a decision needs: nothing is declared
    assert rows[2]["covered"] == 0.0 and rows[3]["covered"] == 0.0
