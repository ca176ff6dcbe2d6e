"""The coverage study's ``auto`` piece (issue #41): ``"n_repeats": "auto"`` against the
fixed 10 x 10 on the same fold scores, checked against a real ``"auto"`` run."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from engine.evaluation.catalogue import expand_models
from engine.evaluation.experiment import parse_experiment
from engine.evaluation.stats import corrected_interval
from engine.foundation.progress import run_to_end
from engine.runs.analysis import run_experiment
from tests.benchmarks.coverage.auto import MAX_REPEATS, auto_rows, paired_table
from tests.benchmarks.coverage.populations import synthetic
from tests.benchmarks.coverage.repetition import repetition_sample
from tests.benchmarks.coverage.runner import LEARNERS, Study, pending, run_study
from tests.benchmarks.coverage.store import read_lines
from tests.benchmarks.coverage.tables import coverage_table, record_table, wilson

N, SEED = 80, 7
DESIGN = {"folds": 5, "repeats": 2, "rest_cap": 2000, "threshold": 0.2}


@pytest.fixture(scope="module")
def piece():
    frame = synthetic(1500, seed=3)
    specs = expand_models([dict(e) for e in LEARNERS])
    rows, stop = auto_rows(frame, "target", specs, N, SEED, DESIGN)
    return frame, rows, stop


def _by(rows, interval):
    return {r["model"]: r for r in rows if r["interval"] == interval}


def test_auto_intervals_equal_a_real_auto_run_on_the_same_sample(piece):
    frame, rows, stop = piece
    draw, metric, config = repetition_sample(frame, "target", N, SEED, DESIGN)
    experiment = parse_experiment({
        "dataset": {"builtin": "iris"}, "models": [dict(e) for e in LEARNERS],
        "metrics": [metric],
        "cv": {"n_splits": 5, "n_repeats": "auto", "random_state": config.random_state}})
    real = run_to_end(run_experiment(experiment, dataset=draw.dataset))
    assert real.cv.auto_stop == stop                  # the repeats, reason, ratio and bound
    assert (stop.n_repeats, stop.reason) == (9, "precision")
    auto, fixed = _by(rows, "summary_mean_auto"), _by(rows, "summary_mean_10x10")
    summary = real.summary[real.summary["metric"] == metric].set_index("model")
    for model, line in auto.items():
        assert line["repeats"] == 9 and fixed[model]["repeats"] == MAX_REPEATS
        assert line["low"] == pytest.approx(summary.loc[model, "ci_low"], abs=1e-12)
        assert line["high"] == pytest.approx(summary.loc[model, "ci_high"], abs=1e-12)
        assert abs(line["low"] - fixed[model]["low"]) > 1e-4      # 9 repeats are not 10
    matrix = real.cv.score_matrix(metric).to_numpy(float)
    (pair,) = _by(rows, "pairwise_difference_auto").values()
    low, high = corrected_interval(matrix[0] - matrix[1], *real.cv.train_test_sizes(), alpha=0.05)
    assert (pair["low"], pair["high"]) == pytest.approx((low, high), abs=1e-12)


def test_auto_pieces_share_the_main_cell_and_its_truth(tmp_path):
    study = Study({"toy": (synthetic(1500, seed=3), "target")}, sizes=(N,), reps=1,
                  truth_draws=3, folds=5, repeats=2, rest_cap=2000, version="test",
                  intervals=("auto",))
    assert [p[0] for p in pending(study, set())] == ["truth", "auto"]
    store = tmp_path / "auto.jsonl"
    assert run_study(study, store, say=lambda _: None) == 2
    truth, line = read_lines(store)
    assert line["cell"] == truth["cell"] == study.cell("toy", N)
    assert 1 <= line["auto_repeats"] <= MAX_REPEATS and line["auto_reason"] == "precision"
    table = coverage_table([truth, line])
    assert set(table["interval"]) == {"summary_mean_10x10", "summary_mean_auto",
                                      "pairwise_difference_10x10",
                                      "pairwise_difference_auto"}
    assert set(table["reps"]) == {1}
    main = dataclasses.replace(study, intervals=("main",))
    assert [p[0] for p in pending(main, set())] == ["truth", "rep"]


def _line(rep, fixed, auto, repeats=6):
    def one(tag, low, high, used):
        return {"interval": f"summary_mean_{tag}", "model": "m", "low": low, "high": high,
                "repeats": used, "method": "corrected_t",
                "estimand": "expected_score_at_training_size", "truths": {}}
    return {"cell": "c", "kind": "auto", "population": "p", "n": 100, "rep": rep,
            "auto_repeats": repeats,
            "rows": [one("10x10", *fixed, MAX_REPEATS), one("auto", *auto, repeats)]}


def test_paired_table_counts_discordant_repetitions():
    truths = {"c": {"m": (0.5, 0.0)}}
    lines = ([_line(i, (0.4, 0.6), (0.4, 0.6)) for i in range(6)]     # both cover
             + [_line(6, (0.4, 0.6), (0.55, 0.7), 4)]                 # only the fixed
             + [_line(7, (0.55, 0.7), (0.45, 0.7), 8)]                # only the auto
             + [_line(8, (0.6, 0.7), (0.6, 0.8))])                    # neither
    (row,) = paired_table(lines, truths).to_dict("records")
    assert row["reps"] == 9 and row["coverage_fixed"] == pytest.approx(7 / 9)
    assert row["coverage_auto"] == pytest.approx(7 / 9)
    assert (row["only_fixed"], row["only_auto"]) == (1, 1) and row["mcnemar_p"] == 1.0
    assert row["mean_repeats"] == pytest.approx((6 * 7 + 4 + 8) / 9)
    assert row["width_ratio"] == pytest.approx(np.mean([1] * 6 + [0.75, 0.25 / 0.15, 2.0]))
    lines += [_line(9 + i, (0.4, 0.6), (0.55, 0.7)) for i in range(7)]   # 8 v 1 discordant
    (row,) = paired_table(lines, truths).to_dict("records")
    assert (row["only_fixed"], row["only_auto"]) == (8, 1)
    assert row["mcnemar_p"] == pytest.approx(0.0390625)              # 2 P(X <= 1), X~B(9,.5)
    assert row["most_apart"] == pytest.approx(wilson(9, 16)[1])


def test_the_record_and_the_docs_keep_the_auto_rows_apart():
    from tests.benchmarks import coverage_study

    truths = {"c": {"m": (0.5, 0.0)}}
    lines = [_line(i, (0.4, 0.6), (0.45, 0.62 if i else 0.49)) for i in range(100)]
    lines.append({"cell": "c", "kind": "truth", "draws": 5, "values": truths["c"],
                  "population": "p", "n": 100, "rep": None})
    table = coverage_table(lines)
    assert set(table["interval"]) == {"summary_mean_10x10", "summary_mean_auto"}
    assert table.set_index("interval")["coverage"].to_dict() == {
        "summary_mean_10x10": 1.0, "summary_mean_auto": 0.99}
    assert record_table(table, "d", "c").empty       # ids the app's record would refuse
    section = coverage_study.auto_section(lines, "cmd", "2026-11-28")
    assert section.startswith(coverage_study.AUTO_START)
    assert section.endswith(coverage_study.AUTO_END)
    assert "(repeats: repetitions): 6: 100." in section
    assert ("| p n=100 | summary_mean | m | 100 | 100.0 (96.3–100.0) | 99.0 (94.6–99.8) | "
            "6.00 | ") in section
    assert "| 1 / 0 | 1.000 | yes | 5.4 points |" in section        # Wilson of 1 in 100
