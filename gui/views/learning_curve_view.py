"""The Results tab's "Learning curve" view: would more data help?

With ``curves.learning`` (fractions of each training fold), a run refits every model on
growing parts of its training folds (``engine.evaluation.curves.learning``). This view draws the
mean primary score against the training rows with the fold band, says per model whether
the curve may have flattened, and shows ``learning_summary.csv``.
"""
from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget

from engine.foundation.notes import note_code, note_fields
from engine.evaluation.verdict import metric_label

from ..jobs import sentence
from ..note_words import note_words
from ..plain_text import escape
from ..plots.learning_curve_plot import LearningCurvePlot
from ..table_panel import TablePanel
from .result_view import ResultView, side_by_side
from .widgets import verdict_label

HINT = ("<p style='font-size:13pt; color:#444'>Learning curve</p>"
        "<p style='color:#666'>Tick <b>Learning curve</b> on the Cross-validation tab (or "
        "give the experiment's <code>\"curves\"</code> block a <code>\"learning\"</code> list "
        "of fractions) and run again. Every model is then refitted on growing parts of each "
        "training fold, which shows whether more rows would still raise its score.</p>")
HEADER = ("Each model refitted on {part} of every training fold (the fractions asked for), "
          "scored on the whole test fold. The line is the mean over the folds, the band ± "
          "one standard deviation. A curve still climbing at the right suggests more data "
          "may help; a flat one, that it may not.")
#: How the parts were taken (LearningResult.shuffled): the fold's first rows, or a shuffle.
PARTS = {False: "the first rows", True: "a random part (the fold shuffled)"}
SHOWN_CODES = ("learning_flattened", "learning_class_missing", "learning_failed",
               "learning_sizes_merged")


def verdict_html(notes) -> str:
    """The learning notes as sentences: the verdicts first, in bold colour when rising."""
    lines = []
    for note in sorted((n for n in notes if note_code(n) in SHOWN_CODES),
                       key=lambda n: note_code(n) != "learning_flattened"):
        text = escape(_sentence_start(note, note_words(note))) + "."
        rising = note_code(note) == "learning_flattened" and not note_fields(note)["flattened"]
        style = "color:#0b4f8a; font-weight:bold" if rising else "color:#444"
        lines.append(f"<p style='{style}'>{text}</p>")
    return "".join(lines)


def _sentence_start(note, text: str) -> str:
    """``text`` with a capital first letter, unless the note is about a model: its words
    begin with the model's name (``naive_bayes``), shown as the user spelled it."""
    return text if note_fields(note).get("model") else sentence(text)


class LearningCurveView(ResultView):
    """Curves, verdicts and table of the last result's learning curves."""

    HINT, HEADER, TOPIC = HINT, HEADER.format(part=PARTS[False]), "learning_curve"

    def build(self, content: QWidget, layout: QVBoxLayout) -> None:
        self.verdict = verdict_label(content)
        self.plot = LearningCurvePlot(content)
        self.table = TablePanel("Mean score per model and training size (over the folds)",
                                "learning_summary.csv", content, key_column="model")
        self.table.model.show_column_as("metric", metric_label)
        layout.addWidget(self.verdict)
        layout.addWidget(side_by_side(content, self.plot, self.table, [700, 500]), 1)

    def part_of(self, result):
        curves = getattr(result, "curves", None) if result is not None else None
        return getattr(curves, "learning", None)

    def draw(self, result, learning) -> None:
        """Show ``result``'s learning curves."""
        self.header.label.setText(HEADER.format(part=PARTS[bool(learning.shuffled)]))
        summary = learning.summary
        metric = result.cv.primary_metric
        self.plot.show_curves(summary, list(dict.fromkeys(summary["model"])),
                              metric_label(metric))
        self.table.set_frame(summary)
        self.verdict.setText(verdict_html(learning.notes))
