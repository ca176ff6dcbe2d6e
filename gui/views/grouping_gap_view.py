"""The Results tab's "Grouped vs ungrouped" view: what keeping rows together changes.

With a data set's ``"groups"`` and "Also run without groups" ticked (``cv.compare_ungrouped``),
a run also cross-validates the models on ordinary folds (``engine.runs.grouping_gap``). This
view shows both means per model side by side (bars and ``grouping_gap.csv``), the gap, and
the verdict in words. The statistics of the other views stay on the grouped folds.
"""
from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget

from engine.foundation.notes import note_code, note_fields
from engine.evaluation.verdict import metric_label

from ..note_words import note_words
from ..plain_text import escape
from ..plots.grouping_gap_plot import GroupingGapPlot
from ..table_panel import TablePanel
from .result_view import ResultView, side_by_side
from .widgets import verdict_label

HINT = ("<p style='font-size:13pt; color:#444'>Grouped vs ungrouped</p>"
        "<p style='color:#666'>When several rows come from one patient or subject, choose that "
        "column under <b>Rows that belong together</b> on the Dataset tab and tick <b>Also run "
        "without groups</b>. The next run then also scores the models on ordinary folds, which "
        "put rows of one subject in both training and test, and shows here how much that "
        "flatters them.</p>")
NO_GROUPS = ("<p style='font-size:13pt; color:#444'>Grouped vs ungrouped</p>"
             "<p style='color:#666'>“Also run without groups” is on, but this data set has no "
             "column of rows that belong together, so there is nothing to compare. Choose one "
             "under <b>Rows that belong together</b> on the Dataset tab, then run again.</p>")
HEADER = ("The same models, the same seed: once with the rows of each group kept together "
          "(the result every other view uses) and once with ordinary folds, which ignore the "
          "groups. A positive gap is how much ordinary folds overstate the score.")


def verdict_html(result) -> str:
    """The ``grouping_gap`` note as a sentence, the gap in bold colour when optimistic."""
    note = next((n for n in result.notes if note_code(n) == "grouping_gap"), None)
    if note is None:
        return ""
    text = note_words(note)
    text = escape(text[:1].upper() + text[1:] + ".")
    kind = note_fields(note).get("kind")
    colour = "#b35900" if kind == "optimistic" else "#333"
    return f"<p style='color:{colour}'>{text}</p>"


class GroupingGapView(ResultView):
    """Bars, table and verdict of the last result's grouping gap (a hint without one)."""

    HINT, HEADER, TOPIC = HINT, HEADER, "grouping_gap"

    def build(self, content: QWidget, layout: QVBoxLayout) -> None:
        self.verdict = verdict_label(content)
        self.plot = GroupingGapPlot(content)
        self.table = TablePanel("Mean per model and metric, with and without groups",
                                "grouping_gap.csv", content, key_column="model")
        self.table.model.show_column_as("metric", metric_label)
        layout.addWidget(self.verdict)
        layout.addWidget(side_by_side(content, self.plot, self.table, [560, 640]), 1)

    def part_of(self, result):
        return getattr(result, "grouping_gap", None) if result is not None else None

    def hint_text(self, result) -> str:
        """What to do to see the gap; that the data has no groups when it was asked for."""
        asked = result is not None and any(note_code(n) == "grouping_gap_no_groups"
                                           for n in result.notes)
        return NO_GROUPS if asked else HINT

    def draw(self, result, gap) -> None:
        """Show ``result``'s grouping gap."""
        metric = result.cv.primary_metric
        self.verdict.setText(verdict_html(result))
        self.plot.set_gap(gap.table, metric, metric_label(metric))
        self.table.set_frame(gap.table)
