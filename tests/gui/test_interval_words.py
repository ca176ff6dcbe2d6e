"""Interval columns carry their label: the header tooltip names the method, the estimand and
the measured coverage; the estimand column reads as a sentence on screen, the code in the
file."""
import pandas as pd
from PySide6.QtCore import Qt

from engine.evaluation.coverage_record import Coverage
from gui.interval_words import label_intervals
from gui.table_panel import TablePanel


def test_headers_and_estimand_words(qtbot):
    panel = TablePanel("Summary", "summary.csv")
    qtbot.addWidget(panel)
    panel.set_frame(pd.DataFrame({"model": ["a"], "ci_low": [0.71], "ci_high": [0.83],
                                  "estimand": ["expected_score_at_training_size"]}))
    record = {"summary_mean": Coverage("summary_mean", "corrected t",
                                       "expected_score_at_training_size", 0.95, 0.90, 0.92,
                                       0.91, 12, 500, "2026-11-27", "study")}
    label_intervals(panel, ["summary_mean"], 0.95, record=record)
    model = panel.model
    tip = model.headerData(1, Qt.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("90.0–92.0% measured interval: corrected t of the mean fold score")
    assert "covered 90.0–92.0% in the study (12 cells, 500 repetitions per cell" in tip
    assert tip.endswith("(column ci_low in the CSV file)")
    assert model.headerData(0, Qt.Horizontal, Qt.ItemDataRole.ToolTipRole) is None
    assert model.data(model.index(0, 3)) == ("the expected score of a model trained on this "
                                             "many rows by this procedure")
    assert panel.frame()["estimand"].iloc[0] == "expected_score_at_training_size"


def test_summary_headers_give_the_measured_range_outside_93_to_97():
    from gui.tabs.results_tab import interval_headers

    low = {"summary_mean": Coverage("summary_mean", "corrected t",
                                    "expected_score_at_training_size", 0.95, 0.90, 0.92, 0.91,
                                    12, 500, "2026-11-27", "study")}
    assert interval_headers(0.05, low)["ci_low"] == "90.0–92.0% measured interval, low"
    assert interval_headers(0.2, low)["ci_high"] == "80% interval, high"   # measured at 95%
    assert interval_headers(0.05, {})["ci_low"] == "95% interval, low"
