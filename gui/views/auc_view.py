"""The Results tab's "AUC intervals" view: how sure each AUC is, and DeLong's test of two.

From a run with a ``curves`` block whose ``roc`` is on (``engine.evaluation.curves.auc_tables``): the
AUC of every model with, first, the corrected t over the fold AUCs (it takes in how the fold
models vary), then DeLong's interval (pooled out-of-fold predictions) and LeDell's interval
(the fold-averaged AUC), which cover the fold models' mean only, ``auc_intervals.csv``; each
labelled with its method, estimand and the coverage the study measured
(``engine.evaluation.coverage_record``); and DeLong's paired test of every pair,
``auc_tests.csv``, with the caveat that pooled folds make the test approximate. By default
the tables show the summary over repeats; a box shows every repeat.
"""
from __future__ import annotations

import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QVBoxLayout, QWidget

from engine.evaluation.coverage_record import interval_label, level_words
from engine.foundation.notes import note_code

from ..interval_words import label_intervals
from ..plain_text import escape
from ..table_panel import TablePanel
from .result_view import ResultView, side_by_side
from .widgets import verdict_label

HINT = ("<p style='font-size:13pt; color:#444'>AUC intervals</p>"
        "<p style='color:#666'>This run computed no ROC analysis. Switch on the ROC curves in "
        "the <b>Curves</b> box of the Cross-validation tab (the experiment file's "
        "<tt>\"curves\": {\"roc\": true}</tt>) and run again; it adds no fits. This view then "
        "shows how sure each model's AUC is (the corrected t over the folds, DeLong's and "
        "LeDell's intervals) and DeLong's test of two models' AUCs.</p>")
HEADER = ("How sure is each model's AUC? The corrected t over the fold AUCs (first row) is "
          "about the AUC to expect from a model trained on this many rows; DeLong's interval "
          "(all out-of-fold predictions pooled) and LeDell's (the mean of the fold AUCs) are "
          "about the fold models at hand only. DeLong's test asks whether two models' AUCs "
          "differ on the same rows; pooling folds makes it approximate (see ?).")
CAVEAT = ("The pooled predictions of one repeat come from different fold models, so DeLong's "
          "interval and test are approximate; decide between models with the corrected t-test "
          "(the other views) and quote DeLong's test where a reviewer asks for it.")
#: The interval ids of auc_intervals.csv's methods (engine.evaluation.estimands.INTERVALS).
METHOD_IDS = {"corrected_t": "auc_corrected_t", "delong": "auc_delong_pooled",
              "ledell": "auc_ledell"}
METHOD_WORDS = {"corrected_t": "corrected t (fold models vary)",
                "delong": "DeLong (these fold models)", "ledell": "LeDell (these fold models)"}
#: The summary rows leave ``repeat`` empty (the table shows "—"), as the file does.
REPEAT_HEADER = "repeat (— = over all)"
INTERVAL_HEADERS = {"repeat": REPEAT_HEADER, "positive_class": "class", "estimate": "AUC of",
                    "ci_low": "interval, low", "ci_high": "interval, high",
                    "n_positive": "positives", "n_negative": "negatives", "n_groups": "groups",
                    "n_repeats": "repeats", "n_folds": "folds"}
TEST_HEADERS = {"repeat": REPEAT_HEADER, "model_1": "model A", "model_2": "model B",
                "positive_class": "class",
                "auc_1": "AUC of A", "auc_2": "AUC of B", "difference": "A − B",
                "p_value": "p", "share_below_alpha": "share of repeats p < α",
                "n_repeats": "repeats"}
GROUPED = ("The rows come in groups (rows that belong together): DeLong's interval and test "
           "treat every row as independent and are too sure; the corrected t runs over the "
           "grouped folds and LeDell's interval counts each group once.")
ESTIMATE_WORDS = {"pooled": "pooled predictions", "fold_average": "mean of the folds"}


def shown_rows(table: pd.DataFrame, every_repeat: bool) -> pd.DataFrame:
    """The summary rows (empty ``repeat``), or every row, summaries first per group."""
    if every_repeat or table.empty:
        return table
    return table[table["repeat"].isna()].reset_index(drop=True)


def labels_html(level: float, record=None) -> str:
    """Each AUC interval's method, estimand and measured coverage, one line each."""
    return "<br>".join(escape(interval_label(i, level, record=record)) for i in METHOD_IDS.values())


def verdict_html(auc, record=None) -> str:
    """One sentence per model (its corrected-t AUC interval over the folds) and per tested
    pair (how often p fell below α), as strong as the numbers."""
    intervals, tests = auc.intervals, auc.tests
    lines = []
    summary = intervals[intervals["repeat"].isna() & (intervals["method"] == "corrected_t")]
    for _, row in summary.iterrows():
        level = level_words("auc_corrected_t", row["level"], record=record)
        lines.append(f"<b>{escape(str(row['model']))}</b>: AUC {row['auc']:.3f} for class "
                     f"{escape(str(row['positive_class']))}, {level} interval "
                     f"{row['ci_low']:.3f} to {row['ci_high']:.3f} (corrected t over "
                     f"{int(row['n_folds'])} folds"
                     f"{'; cut at 1' if row['ci_high'] >= 1 else ''}).")
    for _, row in tests[tests["repeat"].isna()].iterrows():
        share, n = row["share_below_alpha"], int(row["n_repeats"])
        below = round(share * n)
        found = ("finds a difference" if below else "finds no difference")
        where = ("in the one repeat" if n == 1 else f"in all {n} repeats" if below == n
                 else f"in any of the {n} repeats" if below == 0
                 else f"in only {below} of {n} repeats")
        lines.append(f"{escape(str(row['model_1']))} vs {escape(str(row['model_2']))} "
                     f"(class {escape(str(row['positive_class']))}): AUCs differ by "
                     f"{row['difference']:+.3f}; DeLong's test {found} at α = "
                     f"{row['alpha']:g} {where} (median p {row['p_value']:.3g}; "
                     "approximate).")
    return "<br>".join(lines[:12]) + ("<br>…" if len(lines) > 12 else "")


class AucView(ResultView):
    """Intervals and tests of the last result's AUCs (a hint when it has none)."""

    HINT, HEADER, TOPIC = HINT, HEADER, "auc"
    _auc = None

    def build(self, content: QWidget, layout: QVBoxLayout) -> None:
        self.verdict = verdict_label(content)
        self.caveat = verdict_label(content)
        self.labels = verdict_label(content)
        self.every_repeat = QCheckBox("Show every repeat (not only the summary over repeats)",
                                      content)
        self.every_repeat.toggled.connect(lambda _: self._show_tables())
        self.intervals = TablePanel("AUC and its interval, per model", "auc_intervals.csv",
                                    content, key_column="model")
        self.tests = TablePanel("DeLong's paired test of two AUCs (approximate)",
                                "auc_tests.csv", content, key_column="model_1")
        for panel, headers in ((self.intervals, INTERVAL_HEADERS), (self.tests, TEST_HEADERS)):
            panel.model.show_headers_as(headers)
        self.intervals.model.show_column_as("estimate",
                                            lambda value: ESTIMATE_WORDS.get(value, value))
        self.intervals.model.show_column_as("method",
                                            lambda value: METHOD_WORDS.get(value, value))
        body = side_by_side(content, self.intervals, self.tests, orientation=Qt.Vertical)
        body.setChildrenCollapsible(False)
        layout.addWidget(self.verdict)
        layout.addWidget(self.caveat)
        layout.addWidget(self.every_repeat)
        layout.addWidget(body, 1)
        layout.addWidget(self.labels)

    def part_of(self, result):
        return getattr(result, "auc", None) if result is not None else None

    def forget(self) -> None:
        self._auc = None

    def draw(self, result, auc) -> None:
        """Show ``result``'s AUC tables."""
        self._auc = auc
        self.verdict.setText(verdict_html(auc))
        has_tests = bool(len(auc.tests))
        codes = {note_code(n) for n in auc.notes}
        caveats = [CAVEAT] + ([GROUPED] if "auc_grouped_rows" in codes else [])
        self.caveat.setText(f"<span style='color:#b35900'>{escape(' '.join(caveats))}</span>")
        levels = auc.intervals["level"]
        level = float(levels.iloc[0]) if len(levels) else 0.95
        self.labels.setText(labels_html(level) if len(levels) else "")
        label_intervals(self.intervals, list(METHOD_IDS.values()), level)
        self.tests.setVisible(has_tests)
        self._show_tables()

    def _show_tables(self) -> None:
        if self._auc is None:
            return
        every = self.every_repeat.isChecked()
        self.intervals.set_frame(shown_rows(self._auc.intervals, every))
        self.tests.set_frame(shown_rows(self._auc.tests, every))
