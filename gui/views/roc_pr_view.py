"""The Results tab's "ROC and PR curves" view (issue #29).

With the experiment's ``curves`` block (the Cross-validation tab's *Curves* box), the run
computes ROC and precision-recall curves from the out-of-fold predictions
(:mod:`engine.evaluation.curves`). This view draws both for every model, one class at a time (the
positive class for two classes; a picker for more): the fold-averaged curve with its band,
the first repeat's pooled curve, the operating point, and a table of AUC, average precision
and the operating point, with a sentence on when the curves mislead.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QVBoxLayout, QWidget

from engine.evaluation.curves.roc_pr import curve_summary

from ..plain_text import escape, plain_label
from ..plots.roc_pr_plot import CurvePlot
from ..table_panel import TablePanel
from .result_view import ResultView, side_by_side
from .widgets import blocked, verdict_label

HINT = ("<p style='font-size:13pt; color:#444'>ROC and precision-recall curves</p>"
        "<p style='color:#666'>Tick <b>Curves from the out-of-fold predictions</b> on the "
        "Cross-validation tab (ROC, Precision-recall) and run again. The curves are computed "
        "from the predictions every model made for rows it never saw, with no extra fit.</p>")
HEADER = ("Each model's curve averaged over the folds (solid) with a band of ± one standard "
          "deviation of the folds; dotted: the curve of the first repeat's predictions "
          "pooled; the dot: where the model's threshold puts it in that repeat. Dashed grey: "
          "a model that guesses. The table averages over every repeat.")
SOURCES = {"tuned": "the threshold each fold chose inside its training part",
           "costs": "the threshold of least expected cost for the typed costs, if the "
                    "probabilities are right,",
           "default": "the default threshold"}
#: The summary table's columns, in the order shown.
SUMMARY_ORDER = ["model", "class", "auc_folds", "auc_pooled", "ap_folds", "ap_pooled",
                 "threshold_source", "threshold", "fpr", "tpr", "precision"]
#: A class rarer than this gets the warning that ROC flatters.
RARE = 0.2
#: A pooled AUC or AP this far from the folds' mean is pointed out.
POOLED_GAP = 0.02


def pooled_gap_text(summary, label) -> str:
    """A sentence naming the models whose pooled AP (or AUC) is far from the folds' mean:
    their folds' scores are on different scales."""
    if summary is None or summary.empty:
        return ""
    rows = summary[summary["class"].astype(str) == str(label)]
    for folds, pooled, name in (("ap_folds", "ap_pooled", "average precision"),
                                ("auc_folds", "auc_pooled", "AUC")):
        if folds not in rows or pooled not in rows:
            continue
        far = rows[(rows[folds] - rows[pooled]).abs() > POOLED_GAP]
        if len(far):
            models = ", ".join(f"{r.model} ({getattr(r, pooled):.3f} pooled, "
                               f"{getattr(r, folds):.3f} over the folds)"
                               for r in far.itertuples(index=False))
            return (f" The pooled {name} differs from the folds' mean for {models}: "
                    "pooling mixes the scores of models fitted on different folds, and a "
                    "fold's few rows make its own value rough. Neither number is wrong; "
                    "they answer different questions (see ?).")
    return ""


def caveat_html(pr_table, label, n_folds: int, summary=None) -> str:
    """What to keep in mind for class ``label``: the band's meaning, ROC on a rare class,
    and a pooled curve far from the folds'."""
    text = (f"The band is the spread of {n_folds} folds' curves, not a confidence interval "
            "of the mean curve. ")
    rows = pr_table[pr_table["class"].astype(str) == str(label)] if pr_table is not None \
        else None
    share = rows["prevalence"].dropna() if rows is not None and len(rows) else []
    if len(share) and float(share.iloc[0]) < RARE:
        text += (f"“{label}” is {float(share.iloc[0]):.1%} of the rows: with a rare class "
                 "the ROC curve and its AUC can look excellent while most rows flagged are "
                 "false alarms; read the precision-recall curve, whose guessing line is at "
                 "the class's share.")
    text += pooled_gap_text(summary, label)
    return f"<p style='color:#444'>{escape(text)}</p>"


def points_html(summary, label) -> str:
    """Which threshold each model's dot is at, naming the class it is about."""
    if summary is None or "threshold_source" not in summary:
        return ""
    rows = summary[summary["class"].astype(str) == str(label)]
    groups = {}
    for row in rows.itertuples(index=False):
        key = (row.threshold_source, None if row.threshold_source == "tuned"
               else f"{row.threshold:.3g}")
        groups.setdefault(key, []).append(str(row.model))
    parts = []
    for (source, value), models in groups.items():
        words = SOURCES.get(source, source)
        at = f" {value}" if value is not None else ""
        parts.append(f"{words}{at} ({', '.join(models)})")
    if not parts:
        return ""
    return ("<p style='color:#444'>" + escape(f"Dots, on the probability (or decision value) "
                                              f"of “{label}”: " + "; ".join(parts) + ".")
            + "</p>")


class RocPrView(ResultView):
    """ROC and PR plots, a class picker and the summary table (a hint without curves)."""

    HINT, HEADER, TOPIC = HINT, HEADER, "roc_pr"
    _curves = _summary = None
    _n_folds = 0

    def build(self, content: QWidget, layout: QVBoxLayout) -> None:
        self.class_label = plain_label("Class", content)
        self.class_combo = QComboBox(content)
        self.class_combo.setToolTip("The class the curves are about, one-vs-rest")
        self.class_combo.currentIndexChanged.connect(lambda _: self._draw_class())
        picker = QHBoxLayout()
        picker.addWidget(self.class_label)
        picker.addWidget(self.class_combo)
        picker.addStretch(1)
        self.roc_plot = CurvePlot("roc", content)
        self.pr_plot = CurvePlot("pr", content)
        self.caveat = verdict_label(content)
        self.points = verdict_label(content)
        self.table = TablePanel("AUC, average precision and operating point per model",
                                "roc_pr_summary.csv", content, key_column="model")
        plots = side_by_side(content, self.roc_plot, self.pr_plot)
        body = side_by_side(content, plots, self.table, [520, 180], Qt.Vertical)
        layout.addLayout(picker)
        layout.addWidget(self.caveat)
        layout.addWidget(self.points)
        layout.addWidget(body, 1)

    def part_of(self, result):
        curves = getattr(result, "curves", None) if result is not None else None
        if curves is None or (curves.roc is None and curves.pr is None):
            return None
        return curves

    def forget(self) -> None:
        self._curves = None

    def draw(self, result, curves) -> None:
        """Show ``result``'s curves."""
        self._curves, self._models = curves, list(result.cv.models)
        config = result.cv.config
        self._n_folds = config.n_splits * config.n_repeats
        summary = curve_summary(curves.roc, curves.pr)
        self._summary = summary[[c for c in SUMMARY_ORDER if c in summary]]
        labels = list(dict.fromkeys((curves.roc if curves.roc is not None
                                     else curves.pr)["class"]))
        with blocked(self.class_combo):
            self.class_combo.clear()
            for label in labels:
                self.class_combo.addItem(str(label), label)
        several = len(result.cv.classes) > 2
        self.class_label.setVisible(several)
        self.class_combo.setVisible(several)
        self.table.set_frame(self._summary)
        self._draw_class()

    def _draw_class(self) -> None:
        if self._curves is None or self.class_combo.count() == 0:
            return
        label = self.class_combo.currentData()
        for plot, table in ((self.roc_plot, self._curves.roc), (self.pr_plot, self._curves.pr)):
            plot.setVisible(table is not None)
            if table is not None:
                plot.show_curves(table, self._models, label)
        self.caveat.setText(caveat_html(self._curves.pr, label, self._n_folds, self._summary))
        self.points.setText(points_html(self._summary, label))
