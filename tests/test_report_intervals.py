"""The report's "What each interval estimates": one line per interval the run's tables hold,
with its method, estimand and the study's measured coverage (or "not yet measured")."""
import pandas as pd

from engine.evaluation.coverage_record import Coverage
from engine.output.document import html_block
from engine.output.report.intervals import interval_ids, intervals_list


def _tables():
    return {"summary.csv": pd.DataFrame({"model": ["a"], "ci_low": [0.7]}),
            "auc_intervals.csv": pd.DataFrame({"method": ["corrected_t"]}),
            "test_scores.csv": pd.DataFrame({"interval": ["bootstrap", "bootstrap"]}),
            "decision_summary.csv": pd.DataFrame()}


def test_the_intervals_of_the_runs_tables_only():
    assert interval_ids(_tables()) == [
        ("summary.csv", "summary_mean"), ("auc_intervals.csv", "auc_corrected_t"),
        ("auc_intervals.csv", "auc_delong_pooled"), ("auc_intervals.csv", "auc_ledell"),
        ("test_scores.csv", "heldout_bootstrap")]


def test_a_measured_figure_replaces_95_and_the_rest_say_not_measured():
    record = {"auc_delong_pooled": Coverage("auc_delong_pooled", "DeLong", "fold_models_mean",
                                            0.95, 0.828, 0.918, 0.88, 15, 500, "2026-11-27",
                                            "python tests/benchmarks/coverage_study.py")}
    html = html_block(intervals_list(_tables(), 0.95, record=record))
    items = html.removeprefix("<ul>").removesuffix("</ul>").split("</li><li>")
    assert len(items) == 5
    assert "82.8–91.8% measured interval: DeLong&#x27;s interval" in items[2]
    assert "covered 82.8–91.8% in the study (15 cells, 500 repetitions per cell" in items[2]
    assert items[1].startswith("<strong>auc_intervals.csv</strong>: 95% interval: corrected t "
                               "over")
    assert "estimand: the expected score of a model trained on this many rows" in items[1]
    assert "coverage not yet measured" in items[1]
    assert "this fitted model, scored on new rows like the test file" in items[4]
    assert intervals_list({}, 0.95, record=record).items == ()


def test_nested_and_subgroup_tables_are_labelled_with_their_ids():
    from engine.output.report.intervals import coverage_sentence

    tables = {"nested_intervals.csv": pd.DataFrame({"method": ["nested_cv"]}),
              "subgroup_scores.csv": pd.DataFrame({"method": ["corrected_t_folds"]})}
    assert interval_ids(tables) == [("nested_intervals.csv", "nested_cv"),
                                    ("subgroup_scores.csv", "subgroup_score")]
    record = {"nested_cv": Coverage("nested_cv", "nested CV", "model_on_all_rows", 0.95,
                                    0.941, 0.962, 0.95, 9, 500, "2026-11-27", "study")}
    nested, subgroup = html_block(intervals_list(tables, 0.95, record=record)).split("</li><li>")
    assert "95% interval: nested cross-validation (Bates, Hastie and Tibshirani)" in nested
    assert "estimand: the model fitted on all the rows, scored on new data" in nested
    assert "covered 94.1–96.2% in the study (9 cells, 500 repetitions per cell" in nested
    assert "corrected t of a subgroup&#x27;s mean fold score" in subgroup
    assert "coverage not yet measured" in subgroup
    assert coverage_sentence("nested_cv", record=record) == (
        "This interval covered 94.1–96.2% in the study (9 cells, 500 repetitions per cell, "
        "at 95%).")
    assert coverage_sentence("subgroup_score", record=record) == (
        "The coverage study has not yet measured this interval's coverage.")
