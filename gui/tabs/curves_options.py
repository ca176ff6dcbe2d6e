"""The Cross-validation tab's "Curves" box: the experiment's ``curves`` block.

Four switches — ROC, precision-recall, decision curves (computed from the out-of-fold
predictions, no extra fit) and learning curves (at fractions of each training fold, which
add fits) — and the cost of the learning curves in fits, counted by
:mod:`engine.runs.run_plan` (the one count of a run's fits).

The box keeps its height: its switches are always shown (greyed while it is off) and the
cost takes two lines whatever it says, so ticking the box, the learning curve or anything
else here never moves the controls below it (a click meant for one lands on it).
"""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QGridLayout, QGroupBox, QHBoxLayout,
                               QLineEdit, QVBoxLayout)

from engine.evaluation.experiment import DEFAULT_LEARNING, CurvesSettings
from engine.foundation.machine import format_seconds

from ..plain_text import plain_label, plain_tip


BOX_TIP = ("Curves computed from every model's out-of-fold predictions: each row is "
           "predicted by a model that never saw it. Ticked, the results also hold a "
           "table of those predictions (predictions.csv), so anyone can recompute every "
           "curve. Saved in the experiment file as its \"curves\" section.")
FRACTIONS_TIP = ("Fractions of each training fold to fit on, between 0 and 1, separated "
                 "by commas (1 = the whole training fold). Each fraction fits every model "
                 "once more per fold.")


def fractions_text(fractions) -> str:
    """``0.1, 0.325, 1`` for the fractions (as few digits as they need)."""
    return ", ".join(f"{f:g}" for f in fractions)


def parse_fractions(text: str) -> tuple:
    """The fractions typed (commas or spaces between them), checked as the experiment file
    checks them.

    Raises
    ------
    ValueError
        A sentence saying what is wrong.
    """
    words = [w for w in text.replace(";", ",").replace(" ", ",").split(",") if w]
    try:
        values = tuple(float(w) for w in words)
    except ValueError:
        raise ValueError("type numbers between 0 and 1, such as 0.1, 0.55, 1") from None
    if not values:
        raise ValueError("type at least one fraction, such as 0.5, 1")
    return CurvesSettings(learning=values).learning


class CurvesOptions(QGroupBox):
    """The ``curves`` block's switches; ``changed`` carries the new block (None: off)."""

    changed = Signal(object)

    def __init__(self, parent=None):
        super().__init__("Curves from the out-of-fold predictions", parent)
        self.setCheckable(True)
        self.setChecked(False)
        self.setToolTip(BOX_TIP)
        self._syncing = False
        self.roc_check = QCheckBox("ROC", self)
        self.pr_check = QCheckBox("Precision-recall", self)
        self.decision_check = QCheckBox("Decision", self)
        self.roc_check.setToolTip("True-positive rate against false-positive rate, with the "
                                  "folds' band and the operating point")
        self.pr_check.setToolTip("Precision against recall: better than ROC when the class "
                                 "of interest is rare")
        self.decision_check.setToolTip("Net benefit over the probability thresholds at "
                                       "which one would act")
        self.learning_check = QCheckBox("Learning curve at", self)
        self.learning_check.setToolTip("Would more data help? The score against the "
                                       "training-set size. Adds fits.")
        self.fractions_edit = QLineEdit(fractions_text(DEFAULT_LEARNING), self)
        self.fractions_edit.setToolTip(FRACTIONS_TIP)
        self.shuffle_check = QCheckBox("shuffled", self)
        self.shuffle_check.setToolTip("Take each fraction from a seeded shuffle of the "
                                      "training fold instead of its first rows: needed when "
                                      "the file is sorted by class (its first rows then hold "
                                      "one class only)")
        self.cost_label = plain_label("", self)
        self.cost_label.setWordWrap(True)
        self.cost_label.setStyleSheet("color: #555;")
        self._build_layout()
        for check in (self.roc_check, self.pr_check, self.decision_check, self.learning_check):
            check.setChecked(check is not self.learning_check)
            check.toggled.connect(self._emit)
        self.toggled.connect(self._emit)
        self.fractions_edit.editingFinished.connect(self._emit)
        self.shuffle_check.toggled.connect(self._emit)

    def _build_layout(self) -> None:
        """Three switches on a row; the learning curve and its fractions on the next (the
        fractions have the rest of the row, so the default ones are read whole), then
        "shuffled" under them and two lines of cost."""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        grid = QGridLayout()
        grid.addWidget(self.roc_check, 0, 0)
        grid.addWidget(self.pr_check, 0, 1)
        grid.addWidget(self.decision_check, 0, 2)
        layout.addLayout(grid)
        learning = QHBoxLayout()
        learning.addWidget(self.learning_check)
        learning.addWidget(self.fractions_edit, 1)
        layout.addLayout(learning)
        layout.addWidget(self.shuffle_check, 0, Qt.AlignRight)
        self.cost_label.setFixedHeight(2 * self.cost_label.fontMetrics().lineSpacing() + 2)
        self.cost_label.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        layout.addWidget(self.cost_label)

    def settings(self) -> Optional[CurvesSettings]:
        """The block the switches say (None when the box is off); fractions that cannot
        be read leave the learning curve off and say why."""
        if not self.isChecked():
            return None
        learning = ()
        if self.learning_check.isChecked():
            try:
                learning = parse_fractions(self.fractions_edit.text())
            except ValueError as exc:
                self.fractions_edit.setToolTip(plain_tip(f"Not used: {exc}.\n\n{FRACTIONS_TIP}"))
                self.fractions_edit.setStyleSheet("color: #b00;")
                return CurvesSettings(self.roc_check.isChecked(), self.pr_check.isChecked(),
                                      self.decision_check.isChecked(), ())
        self.fractions_edit.setToolTip(FRACTIONS_TIP)
        self.fractions_edit.setStyleSheet("")
        return CurvesSettings(self.roc_check.isChecked(), self.pr_check.isChecked(),
                              self.decision_check.isChecked(), learning,
                              bool(learning) and self.shuffle_check.isChecked())

    def show_settings(self, curves: Optional[CurvesSettings]) -> None:
        """Show ``curves`` (None: the box off) without announcing a change."""
        self._syncing = True
        try:
            self.setChecked(curves is not None)
            if curves is not None:
                self.roc_check.setChecked(curves.roc)
                self.pr_check.setChecked(curves.pr)
                self.decision_check.setChecked(curves.decision)
                self.learning_check.setChecked(bool(curves.learning))
                if curves.learning:
                    self.fractions_edit.setText(fractions_text(curves.learning))
                self.shuffle_check.setChecked(curves.learning_shuffle)
        finally:
            self._syncing = False
        self.fractions_edit.setEnabled(self.learning_check.isChecked())
        self.shuffle_check.setEnabled(self.learning_check.isChecked())

    def show_cost(self, learning_fits: int, seconds_per_fit: Optional[float] = None) -> None:
        """Say what the curves cost: nothing but the predictions, and the learning
        curves' fits (with a time when the mean fit time is known)."""
        text = "They reuse the run's predictions: no extra fits."
        if learning_fits:
            text = f"Learning curves add {learning_fits:,} fits"
            if seconds_per_fit:
                text += f" ({format_seconds(learning_fits * seconds_per_fit, about=True)})"
            text += "; the others reuse the run's predictions."
        self.cost_label.setText(text)

    def _emit(self, *_) -> None:
        self.fractions_edit.setEnabled(self.learning_check.isChecked())
        self.shuffle_check.setEnabled(self.learning_check.isChecked())
        if not self._syncing:
            self.changed.emit(self.settings())
