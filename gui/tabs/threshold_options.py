"""The Models tab's "Choose a decision threshold inside each fold" (two classes): a model
entry's ``"threshold"`` block (:mod:`engine.evaluation.tuning`), chosen by balanced accuracy, F1 or a
cost per outcome that the user types.

Costs map onto the engine's matrix ``[[c_tn, c_fp], [c_fn, c_tp]]`` (rows: the actual
class, negative then positive; columns: the predicted class) by :func:`cost_matrix`.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import (QDoubleSpinBox, QFormLayout, QGroupBox, QSpinBox,
                               QVBoxLayout, QWidget)

from engine.evaluation.tuning import INNER_SPLITS
from engine.evaluation.verdict import metric_label

from ..plain_text import plain_label
from .tuning_options import (INNER_RANGE, FoldContext, narrow_combo, rich, with_help,
                             wrapping_check)

#: (shown text, block value) of the ways to choose, in the order offered.
CHOICES = (("balanced accuracy", "balanced_accuracy"), ("F1 of the positive class", "f1"),
           ("costs I type", "cost"))
#: The cost fields: (key, label, default, what it means).
COST_FIELDS = (("fp", "A false positive costs", 1.0,
                "The model says positive, the row is negative (a false alarm)."),
               ("fn", "A false negative costs", 1.0,
                "The model says negative, the row is positive (a miss)."),
               ("tp", "A true positive costs", 0.0,
                "A positive row found. Zero, or negative for a gain."),
               ("tn", "A true negative costs", 0.0,
                "A negative row cleared. Zero, or negative for a gain."))

THRESHOLD_TEXT = ("A two-class model says “{positive}” when its predicted probability of that "
                  "class is at or above the threshold; 0.5 by default. Another threshold trades false alarms "
                  "for misses. It is chosen on each training fold by inner folds, never on "
                  "the test fold that scores it, so the score stays honest.")
THRESHOLD_TIP = ("The decision threshold turns the positive class's probability into a yes "
                 "or no: at or above it, the model predicts the positive class (whichever "
                 "class comes first in the data). 0.5 is right only when both kinds "
                 "of error matter alike and the classes are balanced.\n\n"
                 "Ticked, scikit-learn's TunedThresholdClassifierCV tries thresholds on "
                 "inner folds of each training part and keeps the one that scores best "
                 "(or costs least); the outer test fold then scores the model with that "
                 "threshold. Choosing the threshold by looking at the test folds would make "
                 "the result look better than it will be on new data, for the same reason as "
                 "picking the best of several models on them.\n\n"
                 "The Results tab's Tuning view shows the threshold each fold chose. Scores "
                 "of probabilities (ROC AUC, log loss) do not change with the threshold.")
COSTS_TIP = ("What each outcome costs you, in any unit (money, hours, harm). Only the "
             "differences matter: the threshold that makes the mean cost per row smallest "
             "is chosen. Give the errors higher costs than the correct answers.\n\n"
             "The Cross-validation tab can then compare the models by the same costs: "
             "“Compare on: expected cost” (lower is better).")
NO_DATA = "Load a data set first: a threshold is for two classes, and no classes are known yet."


def cost_matrix(costs: dict) -> list:
    """The engine's cost matrix from the costs of the four outcomes.

    Parameters
    ----------
    costs : dict
        ``fp``, ``fn``, ``tp``, ``tn``: what a false positive, false negative, true
        positive and true negative cost.

    Returns
    -------
    list
        ``[[c_tn, c_fp], [c_fn, c_tp]]``: rows the actual class (negative, positive),
        columns the predicted one.
    """
    return [[costs["tn"], costs["fp"]], [costs["fn"], costs["tp"]]]


def outcome_costs(matrix: list) -> dict:
    """The four outcome costs of an engine cost matrix (the inverse of :func:`cost_matrix`)."""
    (tn, fp), (fn, tp) = matrix
    return {"tn": tn, "fp": fp, "fn": fn, "tp": tp}


def unavailable_reason(context: FoldContext) -> str:
    """Why a threshold cannot be chosen for the data ("" when it can)."""
    if not context.class_counts:
        return NO_DATA
    most = max(context.class_counts)
    if most > 2:
        several = len(context.class_counts) > 1
        which = "One of the data sets has" if several else "This data set has"
        return (f"{which} {most} classes: a decision threshold is for two classes only "
                "(positive or not).")
    return ""


def threshold_words(block: dict) -> str:
    """A model's threshold in words, for the list of models."""
    inner = block.get("inner_splits", INNER_SPLITS)
    if "cost" in block:
        costs = outcome_costs(block["cost"])
        how = (f"costs: false positive {costs['fp']:g}, false negative {costs['fn']:g}, "
               f"true positive {costs['tp']:g}, true negative {costs['tn']:g}")
    else:
        how = f"by {metric_label(block['scoring'])}"
    return f"threshold chosen inside each fold ({how}; {inner} inner folds)"


def _number(value: float):
    """A whole number as an int (``4``, not ``4.0``, in the saved file)."""
    return int(value) if float(value).is_integer() else value


class ThresholdOptions(QObject):
    """The "Decision threshold" box of one entry's form. ``edited`` carries the new
    ``"threshold"`` block, or None when the check is cleared."""

    edited = Signal(object)

    def __init__(self, entry: dict, context: FoldContext, layout: QVBoxLayout,
                 parent: QWidget):
        super().__init__(parent)
        self.box = QGroupBox("Decision threshold", parent)
        self.check, check_words = wrapping_check("Choose a decision threshold inside each fold",
                                                 THRESHOLD_TIP, self.box)
        self.reason = plain_label("", self.box)
        self.reason.setWordWrap(True)
        self.reason.setStyleSheet("color: #b35900;")
        self.explanation = plain_label("", self.box)
        self.explanation.setWordWrap(True)
        self.explanation.setStyleSheet("color: #555;")
        self.details = QWidget(self.box)
        self.choice = narrow_combo(self.details)
        self.choice.setToolTip("What the chosen threshold should make best: balanced "
                               "accuracy, F1 of the positive class, or the mean cost per row.")
        self.inner_folds = QSpinBox(self.details)
        self.inner_folds.setRange(*INNER_RANGE)
        self.inner_folds.setKeyboardTracking(False)      # one change per number typed
        self.inner_folds.setToolTip("How many folds each training part is split into to "
                                    "choose the threshold (2 to 20; 5 is usual).")
        self.costs = {key: self._cost_field(default, tip) for key, _, default, tip in COST_FIELDS}
        self.cost_labels = {key: plain_label(label, self.details)
                            for key, label, _, _ in COST_FIELDS}
        details = QFormLayout(self.details)     # no wrapped text in it
        details.setContentsMargins(18, 0, 0, 0)
        details.addRow("Choose by", self.choice)
        for key, _, _, _ in COST_FIELDS:
            details.addRow(self.cost_labels[key], self.costs[key])
        details.addRow("Inner folds", self.inner_folds)
        inside = QVBoxLayout(self.box)          # box layouts measure wrapped text right
        for widget in (with_help(check_words, "models#threshold"), self.reason,
                       self.explanation, self.details):
            inside.addWidget(widget)
        layout.addWidget(self.box)
        self.check.toggled.connect(self._emit)
        self.choice.activated.connect(self._emit)
        self.inner_folds.valueChanged.connect(self._emit)
        self._random_state = None
        self.show_entry(entry, context)

    def _cost_field(self, default: float, tip: str) -> QDoubleSpinBox:
        field = QDoubleSpinBox(self.details)
        field.setRange(-1e9, 1e9)
        field.setDecimals(2)
        field.setValue(default)
        field.setKeyboardTracking(False)
        field.setToolTip(rich(tip + "\n\n" + COSTS_TIP))
        field.valueChanged.connect(self._emit)
        return field

    def _widgets(self) -> list:
        return [self.check, self.choice, self.inner_folds, *self.costs.values()]

    def show_entry(self, entry: dict, context: FoldContext) -> None:
        """Show the entry's threshold, and whether the data allows one, without emitting."""
        block = entry.get("threshold") or {}
        for widget in self._widgets():
            widget.blockSignals(True)
        reason = unavailable_reason(context)
        self.check.setChecked(bool(block))
        self.check.setEnabled(not reason or bool(block))   # a threshold set can be removed
        self.reason.setText(reason)
        self.reason.setVisible(bool(reason))
        self._fill_choice(block.get("scoring") or ("cost" if "cost" in block else None))
        self.inner_folds.setValue(block.get("inner_splits", INNER_SPLITS))
        if "cost" in block:
            for key, value in outcome_costs(block["cost"]).items():
                self.costs[key].setValue(value)
        self._random_state = block.get("random_state")
        self._show_positive(context.positive)
        for widget in self._widgets():
            widget.blockSignals(False)
        self._show_details()

    def _fill_choice(self, chosen) -> None:
        self.choice.clear()
        for text, value in CHOICES:
            self.choice.addItem(text, value)
        if chosen and self.choice.findData(chosen) < 0:
            self.choice.addItem(metric_label(chosen), chosen)
        self.choice.setCurrentIndex(max(self.choice.findData(chosen), 0))

    def _show_positive(self, positive: str) -> None:
        """Name the positive class in the explanation and the F1 choice when it is known."""
        said = f"{positive}” (the positive class)" if positive else "positive”"
        self.explanation.setText(THRESHOLD_TEXT.replace("{positive}”", said))
        if positive:
            self.choice.setItemText(1, f"F1 of the positive class ({positive})")

    def _show_details(self) -> None:
        self.details.setVisible(self.check.isChecked())
        with_costs = self.choice.currentData() == "cost"
        for key in self.costs:
            self.costs[key].setVisible(with_costs)
            self.cost_labels[key].setVisible(with_costs)

    def block(self) -> dict:
        """The ``"threshold"`` block the controls show."""
        choice = self.choice.currentData()
        out = ({"cost": cost_matrix({k: _number(f.value()) for k, f in self.costs.items()})}
               if choice == "cost" else {"scoring": choice})
        out["inner_splits"] = self.inner_folds.value()
        if self._random_state is not None:
            out["random_state"] = self._random_state
        return out

    def _emit(self, *_args) -> None:
        self._show_details()
        self.edited.emit(self.block() if self.check.isChecked() else None)
