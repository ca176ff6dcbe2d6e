"""The ALOOCV view's control bar: model, C range and points; compute, exact LOO, cancel."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QHBoxLayout, QProgressBar,
                               QPushButton, QSpinBox, QWidget)

from engine.evaluation.experiment import AloocvSettings
from engine.foundation.machine import format_seconds
from engine.foundation.param_caps import SETTING_CAPS

from ..help import help_button
from ..plain_text import plain_label, plain_tip, rich_label
from .widgets import gap


class CSpinBox(QDoubleSpinBox):
    """A positive number shown as typed (0.001, 1000, 1e-05); arrows step by ×10."""

    def __init__(self, value: float, tip: str, parent=None):
        super().__init__(parent)
        self.setDecimals(12)
        self.setRange(1e-12, 1e12)
        self.setValue(value)
        self.setToolTip(tip)
        self.setMinimumWidth(90)

    def textFromValue(self, value: float) -> str:
        return f"{value:g}"

    def valueFromText(self, text: str) -> float:
        try:
            return float(text)
        except ValueError:
            return self.value()

    def validate(self, text: str, pos: int):
        stripped = text.strip()
        try:
            ok = float(stripped) > 0
        except ValueError:
            ok = False
        if ok:
            return QValidator.Acceptable, text, pos
        partial = all(c in "0123456789.eE+-" for c in stripped)
        return (QValidator.Intermediate if partial else QValidator.Invalid), text, pos

    def stepBy(self, steps: int) -> None:
        self.setValue(self.value() * 10.0 ** steps)


class AloocvBar(QWidget):
    """Model, C range, number of points; Compute, Add exact LOO, progress and Cancel."""

    compute_clicked = Signal(bool)    # exact LOO too?
    cancel_clicked = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.model_combo = QComboBox(self)
        self.model_combo.setSizeAdjustPolicy(QComboBox.AdjustToContents)
        self.model_combo.setMinimumWidth(160)
        self.C_min = CSpinBox(0.001, "Smallest C tried (strongest regularization)", self)
        self.C_max = CSpinBox(1000.0, "Largest C tried (weakest regularization)", self)
        self.points = QSpinBox(self)
        self.points.setRange(2, SETTING_CAPS["n_C"][0])
        self.points.setToolTip("How many C values, evenly spaced on a log scale")
        self.compute_button = QPushButton("Compute ALO curve", self)
        self.compute_button.setToolTip("ALO at every C and the best C (on a background thread)")
        self.compute_button.clicked.connect(lambda: self.compute_clicked.emit(False))
        self.exact_button = QPushButton("Add exact LOO", self)
        self.exact_button.setToolTip("Also refit the model without each row in turn at every "
                                     "C, to check ALO (slower)")
        self.exact_button.clicked.connect(lambda: self.compute_clicked.emit(True))
        self.progress = QProgressBar(self)
        self.progress.setMinimumWidth(200)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.clicked.connect(self.cancel_clicked)
        self.help_button = help_button(
            "aloocv", self, "What is ALO and how do I read this curve? (opens the guide)")
        self._lay_out()
        self.set_settings(AloocvSettings())
        self.set_running(False)

    def _lay_out(self) -> None:
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(6)
        for widget in (rich_label("<b>Model</b>", self), self.model_combo, gap(self),
                       plain_label("C from", self), self.C_min, plain_label("to", self), self.C_max,
                       plain_label("Points", self), self.points, gap(self), self.compute_button,
                       self.exact_button, self.progress, self.cancel_button):
            row.addWidget(widget)
        row.addStretch(1)
        row.addWidget(self.help_button)

    def settings(self, exact_loo: bool) -> AloocvSettings:
        """The settings on screen; ValueError (plain words) when they do not fit together."""
        return AloocvSettings(C_min=float(self.C_min.value()), C_max=float(self.C_max.value()),
                              n_C=int(self.points.value()), exact_loo=exact_loo)

    def set_settings(self, settings: AloocvSettings) -> None:
        self.C_min.setValue(settings.C_min)
        self.C_max.setValue(settings.C_max)
        self.points.setValue(settings.n_C)

    def set_running(self, running: bool) -> None:
        for widget in (self.model_combo, self.C_min, self.C_max, self.points,
                       self.compute_button, self.exact_button):
            widget.setEnabled(not running)
        self.progress.setVisible(running)
        self.cancel_button.setVisible(running)
        if running:
            self.progress.setRange(0, 0)
            self.progress.setFormat("starting…")

    def show_progress(self, record) -> None:
        self.progress.setRange(0, max(record.total, 1))
        self.progress.setValue(record.done)
        left = record.remaining
        eta = (f", {format_seconds(left, about=True)} left"
               if left is not None and left >= 1 else "")
        self.progress.setFormat(f"{record.done}/{record.total}{eta}")
        self.progress.setToolTip(plain_tip(record.label))
