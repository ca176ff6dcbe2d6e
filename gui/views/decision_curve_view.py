"""The Results tab's "Decision curve" view: is acting on a model worth it, and at which
threshold?

With the experiment's ``curves`` block (decision curves on), a run computes the net
benefit of every model from its out-of-fold probabilities (``engine.evaluation.curves.decision``).
This view draws the curves with their band over repeats, lets the user narrow the
thresholds to the range a decision maker would use, and shows for a chosen pair the
probability that the first gives more net benefit; the table is ``decision_summary.csv``.
"""
from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QHBoxLayout, QVBoxLayout, QWidget

from engine.foundation.notes import note_code

from ..interval_words import label_intervals
from ..plain_text import escape, plain_label
from ..plots.decision_curve_plot import DecisionCurvePlot
from ..table_panel import TablePanel
from .result_view import ResultView, side_by_side
from .widgets import blocked, verdict_label

HINT = ("<p style='font-size:13pt; color:#444'>Decision curve</p>"
        "<p style='color:#666'>Tick <b>Decision curves</b> on the Cross-validation tab (or "
        "give the experiment a <code>\"curves\"</code> block) and run again. A decision curve "
        "shows, for each threshold at which one would act on a model's predicted probability, "
        "whether acting on it does more good than treating everybody or nobody.</p>")
NONE_DRAWN = ("<p style='font-size:13pt; color:#444'>Decision curve</p>"
              "<p style='color:#666'>{reason}</p>")
HEADER = ("Net benefit of acting when a model's probability of the positive class reaches "
          "the threshold: true positives minus false positives weighted by the threshold's "
          "odds, per row. The line is the mean over repeats, the shaded band runs from the "
          "lowest to the highest repeat. A model helps only where it lies above both "
          "“treat all” and “treat none”.")


def notes_html(notes) -> str:
    """The decision notes (models left out) as grey lines."""
    lines = [escape(str(note)) for note in notes]
    return "".join(f"<p style='color:#666'>{line}.</p>" for line in lines)


def pair_sentence(pair, low: float, high: float) -> str:
    """What the paired bootstrap says about the pair within thresholds [low, high]."""
    rows = pair[(pair["threshold"] >= low - 1e-9) & (pair["threshold"] <= high + 1e-9)]
    if rows.empty:
        return ""
    a, b = (escape(str(rows[name].iloc[0])) for name in ("model_1", "model_2"))
    more, less = rows["p_more_benefit"], rows["p_less_benefit"]
    span = f"Between thresholds {low:.2f} and {high:.2f}"
    caveat = (" (a bootstrap of these rows with the fitted models held fixed: how much the "
              "rows at hand could move the difference, not a promise for new data)")
    if more.min() >= 0.95:
        return f"{span}, {a} gives more net benefit than {b} in at least 95% of resamples{caveat}."
    if less.min() >= 0.95:
        return f"{span}, {b} gives more net benefit than {a} in at least 95% of resamples{caveat}."
    return (f"{span}, the share of resamples in which {a} gives more net benefit than {b} "
            f"ranges from {more.min():.2f} to {more.max():.2f}, and {b} more than {a} from "
            f"{less.min():.2f} to {less.max():.2f}: neither is clearly ahead throughout"
            f"{caveat}.")


class DecisionCurveView(ResultView):
    """Curves, pair probability and table of the last result's decision analysis."""

    HINT, HEADER, TOPIC = HINT, HEADER, "decision_curve"
    _decision = None

    def build(self, content: QWidget, layout: QVBoxLayout) -> None:
        self.notes = verdict_label(content)
        self.pair_text = verdict_label(content)
        self.plot = DecisionCurvePlot(content)
        self.table = TablePanel("Net benefit per model and threshold (mean, min–max over "
                                "repeats)", "decision_summary.csv", content, key_column="model")
        layout.addLayout(self._build_bar(content))
        layout.addWidget(self.pair_text)
        layout.addWidget(self.notes)
        layout.addWidget(side_by_side(content, self.plot, self.table, [760, 440]), 1)

    def _build_bar(self, parent) -> QHBoxLayout:
        bar = QHBoxLayout()
        self.low = self._spin(parent, 0.01)
        self.high = self._spin(parent, 0.99)
        self.pair_combo = QComboBox(parent)
        self.pair_combo.setObjectName("decision_pair")
        self.pair_combo.setToolTip("The pair whose probability of more net benefit is drawn "
                                   "under the curves")
        self.pair_combo.currentIndexChanged.connect(lambda _: self._show_pair())
        for widget in (plain_label("Thresholds from", parent), self.low, plain_label("to", parent),
                       self.high, plain_label("   Pair", parent), self.pair_combo):
            bar.addWidget(widget)
        bar.addStretch(1)
        return bar

    def _spin(self, parent, value: float) -> QDoubleSpinBox:
        spin = QDoubleSpinBox(parent)
        spin.setRange(0.01, 0.99)
        spin.setSingleStep(0.01)
        spin.setDecimals(2)
        spin.setValue(value)
        spin.setToolTip("The range of thresholds a decision maker would really use: outside "
                        "it the curve says nothing useful")
        spin.valueChanged.connect(lambda _: self._on_range())
        return spin

    def part_of(self, result):
        curves = getattr(result, "curves", None) if result is not None else None
        self._decision = getattr(curves, "decision", None)
        if self._decision is None or self._decision.summary.empty:
            return None
        return self._decision

    def hint_text(self, result) -> str:
        """Why no curve was drawn (two classes only, no probabilities), else the hint."""
        decision = self._decision
        reason = ([str(n) for n in decision.notes
                   if note_code(n) in ("decision_two_class_only", "decision_no_probabilities")]
                  if decision is not None else [])
        return NONE_DRAWN.format(reason=escape("; ".join(reason)) + ".") if reason else HINT

    def draw(self, result, decision) -> None:
        """Show ``result``'s decision curves."""
        summary = decision.summary
        models = [m for m in dict.fromkeys(summary["model"])
                  if m not in ("treat all", "treat none")]
        self.plot.show_curves(summary, decision.positive_class, models)
        self.table.set_frame(summary)
        label_intervals(self.table, ["decision_curve_band"], 0.95,
                        columns=("band_low", "band_high"))
        self.notes.setText(notes_html(decision.notes))
        self.notes.setVisible(bool(decision.notes))
        with blocked(self.pair_combo):
            self.pair_combo.clear()
            pairs = decision.pairs.drop_duplicates(["model_1", "model_2"])
            for a, b in zip(pairs["model_1"], pairs["model_2"]):
                self.pair_combo.addItem(f"{a} vs {b}", (a, b))
        self.pair_combo.setEnabled(self.pair_combo.count() > 0)
        self._show_pair()
        self._on_range()

    def _on_range(self) -> None:
        low, high = sorted((self.low.value(), self.high.value()))
        self.plot.set_threshold_range(low, high)
        self._update_pair_text()

    def _show_pair(self) -> None:
        chosen = self.pair_combo.currentData()
        if self._decision is None or chosen is None:
            self.plot.clear_pair()
            self._update_pair_text()
            return
        pairs = self._decision.pairs
        rows = pairs[(pairs["model_1"] == chosen[0]) & (pairs["model_2"] == chosen[1])]
        self.plot.show_pair(rows, *chosen)
        self._update_pair_text()

    def _update_pair_text(self) -> None:
        chosen = self.pair_combo.currentData()
        if self._decision is None or chosen is None:
            self.pair_text.setText("")
            return
        pairs = self._decision.pairs
        rows = pairs[(pairs["model_1"] == chosen[0]) & (pairs["model_2"] == chosen[1])]
        low, high = sorted((self.low.value(), self.high.value()))
        self.pair_text.setText(f"<p>{pair_sentence(rows, low, high)}</p>")
