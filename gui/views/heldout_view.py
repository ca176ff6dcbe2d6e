"""The Results tab's "Held-out test" view: each model fitted on all training rows and
scored once on the experiment's test file (``engine.runs.heldout``), beside its cross-validated
estimate: both with their intervals (plot and ``test_scores.csv``) and a sentence per
model that is no stronger than the intervals. A hint when the run had no test file.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QFrame, QHBoxLayout, QScrollArea, QVBoxLayout,
                               QWidget)

from engine.evaluation.verdict import metric_label

from ..interval_words import label_intervals
from ..kept_models import kept_for
from ..plain_text import escape, plain_label
from ..plots.heldout_plot import HeldoutPlot
from ..table_panel import TablePanel
from .result_view import ResultView, side_by_side
from .widgets import blocked, verdict_label

HINT = ("<p style='font-size:13pt; color:#444'>Held-out test</p>"
        "<p style='color:#666'>Choose a <b>Held-out test file</b> on the Dataset tab: a file "
        "with the same columns as your data, kept apart until now. The next run fits every "
        "model once on all your training rows and scores it on that file, and this view "
        "shows the held-out score beside the cross-validated estimate.</p>")
HEADER = ("Each model fitted once on all training rows (tuning and thresholds chosen on them "
          "only) and scored once on the test file. One test set is one draw of rows: its "
          "interval is wide with few rows, and a held-out score a little below the CV "
          "estimate is common, not proof of a bug. Never go back and tune on it.")
#: Headers of ``test_scores.csv`` in words (the file keeps its column names).
HEADERS = {"ci_low": "interval, low", "ci_high": "interval, high", "n_test": "test rows",
           "n_resamples": "resamples", "cv_mean": "CV mean", "cv_ci_low": "CV interval, low",
           "cv_ci_high": "CV interval, high", "comparison": "in words"}


def sentences_html(scores, metric: str) -> str:
    """The sentences of ``metric``'s bootstrap rows (one per model; DeLong's rows are in the
    table), one paragraph each."""
    rows = scores[(scores["metric"] == metric) & (scores["interval"] == "bootstrap")]
    return "".join(f"<p style='margin:0 0 6px 0; color:#333'>{escape(str(text))}</p>"
                   for text in rows["comparison"])


def kept_text(record) -> str:
    """The line saying where a run's kept models are (plain text)."""
    if record.kept is None:
        return f"The final models were not kept: {record.problem}"
    return (f"Kept {len(record.kept.models)} final model file(s) in {record.kept.folder} "
            "(File → Predict… proposes them; Export also writes them).")


class HeldoutView(ResultView):
    """Plot, sentences and table of the last result's held-out test."""

    HINT, HEADER, TOPIC = HINT, HEADER, "heldout"
    _scores = None

    def build(self, content: QWidget, layout: QVBoxLayout) -> None:
        self.metric_combo = QComboBox(content)
        self.metric_combo.setToolTip("The score the plot and the sentences are about")
        self.metric_combo.currentIndexChanged.connect(self._show_metric)
        self.file_label = plain_label("", content)
        self.file_label.setStyleSheet("color: #555;")
        self.kept_label = plain_label("", content)       # where the kept models are
        self.kept_label.setWordWrap(True)
        self.kept_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.kept_label.setVisible(False)
        self.verdict = verdict_label(content)
        self.plot = HeldoutPlot(content)
        self.table = TablePanel("Held-out score and CV estimate per model and metric",
                                "test_scores.csv", content, key_column="model")
        self.table.model.show_column_as("metric", metric_label)
        self.table.model.show_headers_as(HEADERS)
        words = QScrollArea(content)
        words.setWidgetResizable(True)
        words.setFrameShape(QFrame.NoFrame)
        words.setWidget(self.verdict)
        self.verdict.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        top = side_by_side(content, self.plot, words, [700, 500])
        body = side_by_side(content, top, self.table, orientation=Qt.Vertical)
        body.setChildrenCollapsible(False)
        body.setSizes([440, 260])
        row = QHBoxLayout()
        row.addWidget(plain_label("Score:", content))
        row.addWidget(self.metric_combo)
        row.addWidget(self.file_label, 1)
        layout.addLayout(row)
        layout.addWidget(self.kept_label)
        layout.addWidget(body, 1)
        self.state.kept_models_changed.connect(lambda _record: self._show_kept())

    def part_of(self, result):
        return getattr(result, "heldout", None) if result is not None else None

    def forget(self) -> None:
        self._scores = None

    def draw(self, result, heldout) -> None:
        """Show ``result``'s held-out test."""
        self._scores = heldout.scores
        metrics = list(dict.fromkeys(heldout.scores["metric"]))
        with blocked(self.metric_combo):
            self.metric_combo.clear()
            for metric in metrics:
                self.metric_combo.addItem(metric_label(metric), metric)
        n_test = int(heldout.scores["n_test"].iloc[0]) if len(heldout.scores) else 0
        self.file_label.setText(f"test file: {heldout.path} ({n_test} rows)")
        self.table.set_frame(heldout.scores)
        kinds = set(heldout.scores["interval"]) if len(heldout.scores) else set()
        level = float(heldout.scores["level"].iloc[0]) if len(heldout.scores) else 0.95
        label_intervals(self.table, [f"heldout_{k}" for k in ("bootstrap", "delong")
                                     if k in kinds], level)
        self._show_metric()
        self._show_kept()

    def _show_kept(self) -> None:
        """Say where the shown run's kept models were written (or why not)."""
        record = kept_for(self.state, self.state.result)
        self.kept_label.setText(kept_text(record) if record is not None else "")
        self.kept_label.setVisible(record is not None)

    def _show_metric(self, *_args) -> None:
        if self._scores is None or self.metric_combo.count() == 0:
            return
        metric = self.metric_combo.currentData()
        rows = self._scores[(self._scores["metric"] == metric)
                            & (self._scores["interval"] == "bootstrap")]
        self.plot.set_scores(rows, metric_label(metric))
        self.verdict.setText(sentences_html(self._scores, metric))

    def shown_metric(self) -> str:
        """The metric the plot and the sentences are about (for tests)."""
        return self.metric_combo.currentData()
