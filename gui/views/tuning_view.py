"""The Results tab's "Tuning" view: what was chosen inside each outer training fold.

For models tuned inside the folds (a model entry's ``"tune"``): the setting each fold
chose (``tuning.csv``), how often each value was chosen, and the optimism of picking the
best setting on the folds that score it (``tuning_optimism.csv``) with its verdict in
words. For models with a decision threshold chosen inside the folds (``"threshold"``):
the threshold of every fold, as a plot and ``thresholds.csv``. A hint when the run has
neither. Drawn through the application's render queue, a table per turn.
"""
from __future__ import annotations

import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QVBoxLayout, QWidget

from engine.foundation.notes import note_code, note_fields
from engine.evaluation.verdict import metric_label

from ..note_words import note_words
from ..plain_text import escape, plain_label
from ..plots.threshold_plot import ThresholdPlot
from ..table_panel import TablePanel
from .result_view import ResultView, side_by_side
from .widgets import verdict_label

HINT = ("<p style='font-size:13pt; color:#444'>Tuning</p>"
        "<p style='color:#666'>No model in this run was tuned inside the folds: tick "
        "<b>Tune inside each fold</b> on the Models tab (for a parameter with several values) "
        "or <b>Choose a decision threshold inside each fold</b> (two classes), then run "
        "again. This view then shows what each training fold chose, and how much choosing "
        "on the scoring folds would have flattered the result.</p>")
HEADER = ("What each outer training fold chose on its own inner folds, never looking at the "
          "test fold that scores it. Settings or thresholds that change from fold to fold "
          "are normal; a value chosen almost always is a stable choice.")
THRESHOLD_NOTE = ("A threshold is on the predicted probability of the positive class (named "
                  "in the table's positive_class column): at or above it the model says "
                  "positive; 0.5 is the usual one. Models without probabilities (such as "
                  "SVC) are thresholded on the positive class's decision score, whose usual "
                  "threshold is 0.")
#: Headers of ``tuning_optimism.csv`` in words (the file keeps its column names).
OPTIMISM_HEADERS = {"n_members": "settings", "best_member": "best setting",
                    "best_plain_score": "its plain score", "nested_score": "tuned score",
                    "ci_low": "interval, low", "ci_high": "interval, high",
                    "p_value_two_sided": "p (two-sided)", "n_folds": "folds",
                    "tuning_metric": "tuned by"}
#: The notes said above the tables.
OPTIMISM_CODES = ("tuning_optimism", "tuning_metric_differs")
CHOICE_COLUMNS = ["model", "parameter", "value", "times_chosen", "share_of_folds"]


def value_text(value) -> str:
    """A chosen value as text: ``0.1``, ``rbf``, ``None``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else f"{value:g}"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def choice_counts(tuning: pd.DataFrame) -> pd.DataFrame:
    """How often each value of each tuned parameter was chosen, per model.

    Parameters
    ----------
    tuning : DataFrame
        ``tuning.csv``: model, repeat, fold, a column per parameter, inner_score.

    Returns
    -------
    DataFrame
        model, parameter, value (as text), times_chosen, share_of_folds; the most chosen
        value of a parameter first.
    """
    records = []
    parameters = [c for c in tuning.columns if c not in ("model", "repeat", "fold", "inner_score")]
    for model, rows in tuning.groupby("model", sort=False):
        for parameter in parameters:
            values = rows[parameter].dropna()
            if values.empty:
                continue
            counts = values.map(value_text).value_counts(sort=True)
            records += [(model, parameter, value, int(times), times / len(rows))
                        for value, times in counts.items()]
    return pd.DataFrame(records, columns=CHOICE_COLUMNS)


def optimism_html(result) -> str:
    """The ``tuning_optimism`` notes as paragraphs, in colour only where the interval shows
    optimism (excludes 0), and the ``tuning_metric_differs`` notes."""
    paragraphs = []
    for note in result.notes:
        if note_code(note) not in OPTIMISM_CODES:
            continue
        text = escape(note_words(note) + ".")    # starts with the model's name: kept as it is
        flattering = bool(note_fields(note).get("shown", False))
        style = "color:#b35900" if flattering else "color:#333"
        paragraphs.append(f"<p style='{style}; margin:2px'>{text}</p>")
    return "".join(paragraphs)


def _table(result, name: str) -> pd.DataFrame:
    table = getattr(result.cv, {"tuning.csv": "tuning", "thresholds.csv": "thresholds",
                                "tuning_optimism.csv": "tuning_optimism"}[name], None)
    return table if table is not None else pd.DataFrame()


class TuningView(ResultView):
    """Tables, plot and verdict of what the last run chose inside its folds."""

    HINT, HEADER, TOPIC = HINT, HEADER, "tuning"

    def build(self, content: QWidget, layout: QVBoxLayout) -> None:
        self.verdict = verdict_label(content)
        self.sections = side_by_side(content, self._build_settings(content),
                                     self._build_thresholds(content), orientation=Qt.Vertical)
        self.sections.setChildrenCollapsible(False)
        layout.addWidget(self.verdict)
        layout.addWidget(self.sections, 1)
        self.sections.setSizes([1000, 900])      # the plot gets room of its own

    def _build_settings(self, parent) -> QWidget:
        self.settings_part = QSplitter(Qt.Horizontal, parent)
        self.chosen_table = TablePanel("Setting chosen on each training fold", "tuning.csv",
                                       self.settings_part, key_column="model")
        right = QWidget(self.settings_part)
        self.counts_table = TablePanel("How often each value was chosen", "tuning_choices.csv",
                                       right, key_column="model")
        self.counts_table.model.show_headers_as({"times_chosen": "times chosen",
                                                 "share_of_folds": "share of folds"})
        self.optimism_table = TablePanel("Optimism of picking the best on the same folds",
                                         "tuning_optimism.csv", right, key_column="model")
        self.optimism_table.model.show_column_as("metric", metric_label)
        self.optimism_table.model.show_column_as("tuning_metric", metric_label)
        self.optimism_table.model.show_headers_as(OPTIMISM_HEADERS)
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.counts_table, 3)
        column.addWidget(self.optimism_table, 2)
        self.settings_part.addWidget(self.chosen_table)
        self.settings_part.addWidget(right)
        self.settings_part.setSizes([520, 680])
        return self.settings_part

    def _build_thresholds(self, parent) -> QWidget:
        self.threshold_part = QWidget(parent)
        note = plain_label(THRESHOLD_NOTE, self.threshold_part)
        note.setWordWrap(True)
        note.setStyleSheet("color: #555;")
        body = QSplitter(Qt.Horizontal, self.threshold_part)
        self.threshold_plot = ThresholdPlot(body)
        self.thresholds_table = TablePanel("Threshold chosen on each training fold",
                                           "thresholds.csv", body, key_column="model")
        self.thresholds_table.model.show_headers_as({"positive_class": "positive class"})
        body.addWidget(self.threshold_plot)
        body.addWidget(self.thresholds_table)
        body.setSizes([640, 560])
        layout = QVBoxLayout(self.threshold_part)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(note)
        layout.addWidget(body, 1)
        return self.threshold_part

    def part_of(self, result):
        """The run's tables of what it chose inside its folds (None when nothing was)."""
        tables = {name: _table(result, name) for name in
                  ("tuning.csv", "thresholds.csv", "tuning_optimism.csv")} if result else {}
        return tables if any(len(t) for t in tables.values()) else None

    def draw(self, result, tables: dict):
        """What ``result`` chose inside its folds, a piece per turn of the event loop."""
        tuning, thresholds = tables["tuning.csv"], tables["thresholds.csv"]
        optimism = tables["tuning_optimism.csv"]
        self.verdict.setText(optimism_html(result))
        self.verdict.setVisible(bool(len(optimism)))
        self.settings_part.setVisible(bool(len(tuning)))
        self.threshold_part.setVisible(bool(len(thresholds)))
        self.chosen_table.set_frame(tuning)
        yield
        self.counts_table.set_frame(choice_counts(tuning) if len(tuning) else
                                    pd.DataFrame(columns=CHOICE_COLUMNS))
        self.optimism_table.set_frame(optimism)
        self.optimism_table.setVisible(bool(len(optimism)))
        yield
        self.thresholds_table.set_frame(thresholds)
        self.threshold_plot.set_thresholds(thresholds, result.cv.config.n_splits,
                                           result.cv.prediction_kind)
