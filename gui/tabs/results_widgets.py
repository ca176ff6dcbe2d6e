"""Small pieces of the Results tab: the hint shown before a run and the ROPE / alpha /
correction controls (page headers with their "?" button: :mod:`gui.views.widgets`)."""
from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QHBoxLayout, QLabel, QWidget

from engine.evaluation.stats import CORRECTIONS, ComparisonSettings, default_rope

from ..plain_text import plain_label, plain_tip, rich_label
from ..views.widgets import topic_button


class HintPage(QLabel):
    """What the tab shows before there is a result."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setAlignment(Qt.AlignCenter)
        self.setWordWrap(True)
        self.setTextFormat(Qt.RichText)
        self.setText("<p style='font-size:16pt; color:#444'>Run a cross-validation to see "
                     "results here</p><p style='color:#666'>Choose a data set and some models, "
                     "then start the cross-validation. This tab will then show how the models "
                     "scored on every fold and whether their differences are real or luck "
                     "of the folds.</p>")


class ComparisonControls(QWidget):
    """ROPE half-width, alpha and correction; ``changed`` carries new ComparisonSettings."""

    changed = Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._settings = ComparisonSettings()
        self._given_rope = None
        self.context = rich_label("", self)
        self.rope_spin = _spin(0.0, 1000.0, 4, 0.005, "Half-width of the region of practical "
                               "equivalence: differences smaller than this do not matter to you "
                               "(in the metric's units, shown beside it; by default 0.01 on "
                               "shares of rows, 0.005 on ROC AUC)")
        self.alpha_spin = _spin(0.001, 0.5, 3, 0.01, "Significance level of the tests; an "
                                "outcome is also called decided when its probability reaches "
                                "1 − alpha (1 − alpha/m for m pairs under a correction)")
        self.rope_unit = plain_label("", self)      # the metric's unit, beside the ROPE
        self.rope_unit.setStyleSheet("color: #555;")
        self.correction_combo = QComboBox(self)
        for name in CORRECTIONS:
            self.correction_combo.addItem(name if name == "none" else name.capitalize(), name)
        self.correction_combo.setToolTip("Correction of the p-values for testing many pairs")
        self.rope_spin.valueChanged.connect(self._set_rope)
        self.alpha_spin.valueChanged.connect(self._emit)
        self.correction_combo.currentIndexChanged.connect(self._emit)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.context, 1)
        for text, widget, topic in (("ROPE ±", self.rope_spin, "rope"),
                                    ("α", self.alpha_spin, None),
                                    ("correction", self.correction_combo, None)):
            row.addSpacing(8)
            row.addWidget(plain_label(text, self))
            row.addWidget(widget)
            if widget is self.rope_spin:
                row.addWidget(self.rope_unit)
            if topic:
                row.addWidget(topic_button(topic, self))

    def set_settings(self, settings: ComparisonSettings, metric: str = "") -> None:
        """Show settings without emitting ``changed``; the ROPE (given, or ``metric``'s
        default) with its unit beside it and, in the tooltip, the default's reason."""
        self._given_rope = settings.rope           # None: the metric's default
        settings = settings.resolved(metric)
        default = default_rope(metric)
        self.rope_unit.setText(default.unit)
        self.rope_unit.setToolTip(plain_tip(f"The default for {metric or 'this metric'} is "
                                            f"±{default.rope:g}: {default.reason}."))
        self._settings = settings
        widgets = (self.rope_spin, self.alpha_spin, self.correction_combo)
        for widget in widgets:
            widget.blockSignals(True)
        self.rope_spin.setValue(settings.rope)
        self.alpha_spin.setValue(settings.alpha)
        self.correction_combo.setCurrentIndex(self.correction_combo.findData(settings.correction))
        for widget in widgets:
            widget.blockSignals(False)

    def set_context(self, text: str) -> None:
        self.context.setText(text)

    def _set_rope(self, value: float) -> None:
        """The user set the ROPE: it is theirs from now on (until new data)."""
        self._given_rope = value
        self._emit()

    def _emit(self, *_):
        """New settings; the ROPE stays "the metric's default" (None) unless the user set
        it here, so a new alpha does not pin the default ROPE to one metric's value."""
        self._settings = replace(self._settings, rope=self._given_rope,
                                 alpha=self.alpha_spin.value(),
                                 correction=self.correction_combo.currentData())
        self.changed.emit(self._settings)


def _spin(low: float, high: float, decimals: int, step: float, tip: str) -> QDoubleSpinBox:
    spin = QDoubleSpinBox()
    spin.setRange(low, high)
    spin.setDecimals(decimals)
    spin.setSingleStep(step)
    spin.setKeyboardTracking(False)
    spin.setToolTip(tip)
    return spin
