"""The Results tab's "Subgroups" view: how each model does for whom.

With ``"subgroups"`` in the experiment (the Cross-validation tab's Subgroups page), a run
scores every subgroup from the same out-of-fold predictions (the engine's
``ExperimentResult.subgroups``: ``scores``, ``gaps``, ``fairness``, ``notes``). This view
draws one model's subgroups as a forest plot (:mod:`gui.plots.subgroup_forest_plot`), picked
by model, column and metric, says the largest gap of the pick in words, and lists the
tables (``subgroup_scores.csv``, ``subgroup_gaps.csv`` and the parity table) for export.
Subgroups too small to judge are grey and named. No sentence here calls a model fair: the
numbers say how far apart the subgroups are, not whether that is acceptable.
"""
from __future__ import annotations

import pandas as pd
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QTabWidget, QVBoxLayout, QWidget

from engine.evaluation.coverage_record import coverage_words, level_words
from engine.evaluation.estimands import estimand_words
from engine.evaluation.subgroups.tables import GAP_METHOD, INTERVAL_ID, SCORE_METHOD
from engine.evaluation.verdict import metric_label

from engine.foundation.notes import note_code

from ..interval_words import label_intervals
from ..note_words import note_words
from ..plain_text import escape, plain_label
from ..plots.subgroup_forest_plot import NO_VERDICT, SubgroupForestPlot, row_label
from ..table_panel import TablePanel
from .result_view import ResultView, side_by_side
from .widgets import blocked, verdict_label

HINT = ("<p style='font-size:13pt; color:#444'>Subgroups</p>"
        "<p style='color:#666'>How does each model do for whom? Tick the columns that define "
        "subgroups (sex, age group, hospital) on the Cross-validation tab's <b>Subgroups</b> "
        "page and run again. Each subgroup is then scored from the same out-of-fold "
        "predictions, with its interval, and drawn here.</p>")
HEADER = ("Each subgroup's score over its own out-of-fold predictions (the mean over "
          "repeats), with its interval; the dashed line is the model's score on all rows. "
          "Grey, hollow rows have too few rows or events for a verdict.")
ALL_COLUMNS = "All columns"
NO_GREY = "#ececec"
TABLES = (("subgroup_scores.csv", "Scores", "Score per subgroup"),
          ("subgroup_gaps.csv", "Gaps", "Largest gap between subgroups"),
          ("subgroup_calibration.csv", "Calibration",
           "Calibration in the large and slope per subgroup"),
          ("subgroup_fairness.csv", "Parity",
           "Demographic parity and equalized odds differences"))
#: The tables whose rows of subgroups without a verdict are greyed.
GREYED = ("subgroup_scores.csv", "subgroup_calibration.csv")
#: The engine's method ids (engine.evaluation.subgroups.tables) in words; the estimand's
#: words are engine.evaluation.estimands'.
WORDS = {SCORE_METHOD: "Nadeau and Bengio's corrected t over the subgroup's fold scores",
         GAP_METHOD: "corrected paired t over the shared folds; as the largest gap was picked "
                     "after looking, its p is multiplied by the number of pairs and its "
                     "interval widened to match"}
#: Notes the view says otherwise (the grey rows and the line under the plot).
SHOWN_OTHERWISE = ("subgroup_small",)


def grey_label(parent, colour: str):
    """A wrapping plain-text label in grey ``colour``, empty until there is a result."""
    label = plain_label("", parent)
    label.setWordWrap(True)
    label.setStyleSheet(f"color: {colour};")
    return label


def subgroups_of(result):
    """The result's ``SubgroupResult`` (None without one, or before the engine has it)."""
    return getattr(result, "subgroups", None) if result is not None else None


def gap_html(gaps: pd.DataFrame, model: str, column: str, metric: str) -> str:
    """The largest gap of one model, column and metric in words ("" when none)."""
    if gaps is None or gaps.empty:
        return ""
    rows = gaps[(gaps["model"] == model) & (gaps["metric"] == metric)]
    if column is not None:
        rows = rows[rows["column"] == column]
    parts = []
    for _, row in rows.iterrows():
        text = (f"{row['column']}: {row['subgroup_high']} scores {row['gap']:.3f} above "
                f"{row['subgroup_low']}")
        if pd.notna(row.get("ci_low")) and pd.notna(row.get("ci_high")):
            text += f" (interval {row['ci_low']:.3f} to {row['ci_high']:.3f}"
            text += f", p = {row['p_value']:.3g})" if pd.notna(row.get("p_value")) else ")"
        parts.append(escape(text))
    if not parts:
        return ""
    test = words(rows["method"].iloc[0]) if "method" in rows else ""
    return ("<p style='color:#333'>Largest gap — " + "; ".join(parts) + "."
            + (f" <span style='color:#666'>Test: {escape(test)}.</span>" if test else "")
            + "</p>")


def words(identifier) -> str:
    """An engine method or estimand id in words (unknown ones as they are)."""
    return WORDS.get(str(identifier), str(identifier))


def unjudged_text(rows: pd.DataFrame) -> str:
    """The subgroups of ``rows`` without a verdict, named ("" when every one has one)."""
    names = [row_label(row) for _, row in rows.iterrows() if not bool(row["verdict_allowed"])]
    if not names:
        return ""
    return f"{NO_VERDICT[:1].upper()}{NO_VERDICT[1:]}: " + "; ".join(names) + "."


def method_text(rows: pd.DataFrame, record=None) -> str:
    """The intervals' method, level, estimand and the coverage the study measured
    (:mod:`engine.evaluation.coverage_record`; ``record`` None: the shipped one)."""
    if rows.empty or "method" not in rows:
        return ""
    first = rows.iloc[0]
    text = f"Intervals: {words(first['method'])}"
    if "level" in rows and pd.notna(first["level"]):
        text += f", {level_words(INTERVAL_ID, float(first['level']), record=record)}"
    if "estimand" in rows and pd.notna(first["estimand"]):
        text += f"; they are about {estimand_words(first['estimand'])}, on the subgroup's rows"
    return (f"{text}; cut at the metric's possible range; "
            f"{coverage_words(INTERVAL_ID, record=record)}.")


class SubgroupsView(ResultView):
    """Pickers, forest plot and tables of the last result's subgroups (a hint without)."""

    HINT, HEADER, TOPIC = HINT, HEADER, "subgroups"
    _sub = _result = None

    def build(self, content: QWidget, layout: QVBoxLayout) -> None:
        self.model_combo, self.column_combo, self.metric_combo = (QComboBox(content)
                                                                   for _ in range(3))
        pickers = QHBoxLayout()
        for label, combo in (("Model", self.model_combo), ("Column", self.column_combo),
                             ("Metric", self.metric_combo)):
            combo.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(10)
            combo.currentIndexChanged.connect(self._draw)
            pickers.addWidget(plain_label(label, content))
            pickers.addWidget(combo, 1)
        self.plot = SubgroupForestPlot(content)
        self.gap = verdict_label(content)
        self.unjudged, self.method, self.notes = (grey_label(content, colour) for colour in
                                                  ("#666", "#555", "#555"))
        left = QWidget(content)
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.plot, 1)
        for label in (self.gap, self.unjudged, self.method):
            column.addWidget(label)
        layout.addLayout(pickers)
        layout.addWidget(side_by_side(content, left, self._build_tables(content), [640, 560]), 1)
        layout.addWidget(self.notes)

    def _build_tables(self, content: QWidget) -> QTabWidget:
        self.tables = QTabWidget(content)
        self.tables.setDocumentMode(True)
        self.panels = {}
        for name, tab, title in TABLES:
            self.panels[name] = TablePanel(title, name, self.tables, key_column="model")
            self.panels[name].model.show_column_as("metric", metric_label)
            self.tables.addTab(self.panels[name], tab)
        for name in GREYED:
            self.panels[name].model.set_cell_style(self._grey_unjudged(name))
        return self.tables

    # ------------------------------------------------------------------ data
    def part_of(self, result):
        self._sub, self._result = subgroups_of(result), result
        sub = self._sub
        return None if sub is None or sub.scores is None or sub.scores.empty else sub

    def draw(self, result, sub) -> None:
        """Show ``result``'s subgroups; the model, column and metric picked stay when the
        new result has them (another α or ROPE)."""
        scores = sub.scores
        primary = result.cv.primary_metric
        metrics = list(dict.fromkeys(scores["metric"]))
        picked = [combo.currentData() for combo in
                  (self.model_combo, self.column_combo, self.metric_combo)]
        self._fill(self.model_combo, [(str(m), m) for m in dict.fromkeys(scores["model"])])
        self._fill(self.column_combo, [(ALL_COLUMNS, None)] +
                   [(str(c), c) for c in dict.fromkeys(scores["column"])])
        self._fill(self.metric_combo, [(metric_label(m), m) for m in metrics],
                   metrics.index(primary) if primary in metrics else 0)
        for combo, value in zip((self.model_combo, self.column_combo, self.metric_combo),
                                picked):
            if value is not None and combo.findData(value) >= 0:   # the same run again
                with blocked(combo):
                    combo.setCurrentIndex(combo.findData(value))
        self._show_tables(sub)
        notes = [note_words(n) for n in (sub.notes or ())
                 if note_code(n) not in SHOWN_OTHERWISE]
        self.notes.setText("\n".join(n[:1].upper() + n[1:] + "." for n in notes))
        self.notes.setVisible(bool(notes))
        self._draw()

    def _show_tables(self, sub) -> None:
        frames = {"subgroup_scores.csv": sub.scores, "subgroup_gaps.csv": sub.gaps,
                  "subgroup_calibration.csv": getattr(sub, "calibration", None),
                  "subgroup_fairness.csv": sub.fairness}
        for index, (name, _, _) in enumerate(TABLES):
            frame = frames[name]
            self.panels[name].set_frame(frame if frame is not None else pd.DataFrame())
            self.tables.setTabVisible(index, frame is not None and not frame.empty)
        label_intervals(self.panels["subgroup_scores.csv"], [INTERVAL_ID],
                        float(sub.scores["level"].iloc[0]))

    @staticmethod
    def _fill(combo: QComboBox, items: list, index: int = 0) -> None:
        with blocked(combo):
            combo.clear()
            for text, data in items:
                combo.addItem(text, data)
            combo.setCurrentIndex(index)

    def pick(self, model=None, column=None, metric=None) -> None:
        """Show ``model``, ``column`` (None: all columns) and ``metric`` as if picked."""
        for combo, value in ((self.model_combo, model), (self.column_combo, column),
                             (self.metric_combo, metric)):
            index = combo.findData(value)
            if value is not None and index < 0:
                raise ValueError(f"nothing called {value!r} to pick")
            with blocked(combo):
                combo.setCurrentIndex(max(index, 0))
        self._draw()

    # ------------------------------------------------------------------ drawing
    def shown_rows(self) -> pd.DataFrame:
        """The scores rows of the model, column and metric picked, in the table's order."""
        if self._sub is None:
            return pd.DataFrame()
        scores = self._sub.scores
        keep = (scores["model"] == self.model_combo.currentData()) & \
            (scores["metric"] == self.metric_combo.currentData())
        column = self.column_combo.currentData()
        if column is not None:
            keep &= scores["column"] == column
        return scores[keep]

    def _overall(self, model, metric):
        summary = getattr(self._result, "summary", None)
        if summary is None or not {"model", "metric", "mean"} <= set(summary.columns):
            return None
        row = summary[(summary["model"] == model) & (summary["metric"] == metric)]
        return float(row["mean"].iloc[0]) if len(row) else None

    def _draw(self, *_) -> None:
        if self._sub is None:
            return
        model, metric = self.model_combo.currentData(), self.metric_combo.currentData()
        rows = self.shown_rows()
        self.plot.set_rows(rows, str(model), metric_label(metric),
                           self._overall(model, metric))
        self.gap.setText(gap_html(self._sub.gaps, model, self.column_combo.currentData(),
                                  metric))
        text = unjudged_text(rows)
        self.unjudged.setText(text)
        self.unjudged.setVisible(bool(text))
        self.method.setText(method_text(rows))

    def _grey_unjudged(self, name: str):
        """The cell style of table ``name``: rows of subgroups without a verdict grey."""
        model = self.panels[name].model

        def style(row: int, column: str, value):
            frame = model.frame()
            if "verdict_allowed" not in frame or row >= len(frame):
                return None
            return None if bool(frame["verdict_allowed"].iloc[row]) else NO_GREY
        return style
