"""The Calibration view's control bar: methods, bins, buckets; run, progress, cancel."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QHBoxLayout, QProgressBar,
                               QPushButton, QSpinBox, QWidget)

from engine.evaluation.calibration import STRATEGIES
from engine.evaluation.experiment import CalibrationSettings
from engine.foundation.machine import format_seconds
from engine.foundation.param_caps import SETTING_CAPS

from ..help import help_button
from ..plain_text import plain_label, plain_tip, rich_label
from .widgets import gap

STRATEGY_LABELS = {"uniform": "equal width (uniform)", "quantile": "equal count (quantile)"}


class CalibrationBar(QWidget):
    """Methods, bins, bucket strategy and map buckets; Run, progress and Cancel."""

    run_clicked = Signal()
    cancel_clicked = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.isotonic = QCheckBox("isotonic", self)
        self.sigmoid = QCheckBox("sigmoid", self)
        for box, tip in ((self.isotonic, "Free-form staircase fit; needs plenty of data"),
                         (self.sigmoid, "Platt's S-curve on the model's scores; fine for "
                                        "small data")):
            box.setToolTip(tip)
            box.toggled.connect(self._update_run_button)
        self.bins = _spin(2, SETTING_CAPS["n_bins"][0],
                          "Bins of the reliability diagram and the ECE")
        self.strategy = QComboBox(self)
        for key in STRATEGIES:
            self.strategy.addItem(STRATEGY_LABELS.get(key, key), key)
        self.strategy.setToolTip("Equal width: bins 0–0.1, 0.1–0.2, …; equal count: each bin "
                                 "holds about as many predictions (use it when they crowd "
                                 "near 0 or 1)")
        self.buckets = _spin(2, SETTING_CAPS["map_buckets"][0],
                             "Buckets of the calibration map (lookup table)")
        self.run_button = QPushButton("Run calibration", self)
        self.run_button.setToolTip("Refit every model with each method inside every CV fold "
                                   "(on a background thread)")
        self.run_button.clicked.connect(self.run_clicked)
        self.progress = QProgressBar(self)
        self.progress.setMinimumWidth(220)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.clicked.connect(self.cancel_clicked)
        self.help_button = help_button(
            "calibration", self,
            "What is calibration and how do I read these plots? (opens the guide)")
        self._lay_out()
        self.set_settings(CalibrationSettings())
        self.set_running(False)

    def _lay_out(self) -> None:
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(6)
        for widget in (rich_label("<b>Methods</b>", self), self.isotonic, self.sigmoid, gap(self),
                       plain_label("Diagram bins", self), self.bins, plain_label("Buckets", self),
                       self.strategy, plain_label("Map buckets", self), self.buckets, gap(self),
                       self.run_button, self.progress, self.cancel_button):
            row.addWidget(widget)
        row.addStretch(1)
        row.addWidget(self.help_button)

    def settings(self) -> CalibrationSettings:
        methods = tuple(m for m, box in (("isotonic", self.isotonic), ("sigmoid", self.sigmoid))
                        if box.isChecked())
        return CalibrationSettings(methods=methods, n_bins=self.bins.value(),
                                   strategy=self.strategy.currentData(),
                                   map_buckets=self.buckets.value())

    def set_settings(self, settings: CalibrationSettings) -> None:
        self.isotonic.setChecked("isotonic" in settings.methods)
        self.sigmoid.setChecked("sigmoid" in settings.methods)
        self.bins.setValue(settings.n_bins)
        self.strategy.setCurrentIndex(max(self.strategy.findData(settings.strategy), 0))
        self.buckets.setValue(settings.map_buckets)

    def set_running(self, running: bool) -> None:
        for widget in (self.isotonic, self.sigmoid, self.bins, self.strategy, self.buckets):
            widget.setEnabled(not running)
        self.progress.setVisible(running)
        self.cancel_button.setVisible(running)
        self.cancel_button.setEnabled(running)
        self.run_button.setVisible(not running)
        if running:
            self.progress.setRange(0, 0)
            self.progress.setFormat("starting…")
        self._update_run_button()

    def show_progress(self, record) -> None:
        self.progress.setRange(0, max(record.total, 1))
        self.progress.setValue(record.done)
        left = record.remaining
        eta = f", {format_seconds(left, about=True)} left" if left is not None else ""
        self.progress.setFormat(f"{record.done}/{record.total} fits{eta}")
        self.progress.setToolTip(plain_tip(record.label))

    def _update_run_button(self, *_):
        self.run_button.setEnabled(self.isotonic.isChecked() or self.sigmoid.isChecked())


def _spin(low: int, high: int, tip: str) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setToolTip(tip)
    spin.setGroupSeparatorShown(True)
    return spin
