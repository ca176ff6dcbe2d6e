"""The Models tab's options for imbalanced classes: "Balance classes" (``class_weight =
"balanced"``, for the estimators that take it) and "Resample training folds" (a model
entry's ``"resample"``: none, over, under or SMOTE; :mod:`engine.input.imbalance`)."""
from __future__ import annotations


from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QWidget

from engine.evaluation.catalogue import takes_class_weight
from engine.input.imbalance import has_imblearn

from ..model_entry import ModelEntry
from ..plain_text import escape, plain_label

#: (shown text, ``"resample"`` value, what it does) in the order offered
RESAMPLE_CHOICES = (("none", None, "the training rows as they are"),
                    ("over-sampling", "over", "repeats rows of the smaller classes"),
                    ("under-sampling", "under", "leaves out rows of the larger classes"),
                    ("SMOTE", "smote", "makes new rows of the smaller classes between near "
                                       "neighbours"))

BALANCE_TIP = ("Weights every class by the inverse of its share of the training rows "
               "(class_weight = \"balanced\"), so a rare class counts as much as a common one "
               "when the model is fitted. Offered for the models that have a class_weight "
               "parameter.")
RESAMPLE_TIP = ("Changes the training rows of every fold before the model is fitted (after "
                "imputation, encoding and scaling): over-sampling repeats rows of the smaller "
                "classes, under-sampling leaves rows of the larger classes out, SMOTE makes new "
                "rows between near neighbours of a smaller class. The test fold is never "
                "resampled, so the scores stay honest. Seeded by the model's random_state, else "
                "the cross-validation's seed.")
MISSING_TIP = ("Resampling needs the imbalanced-learn package, which is not installed "
               "(pip install imbalanced-learn).")


def _tip(text: str) -> str:
    return "<qt>" + escape(text) + "</qt>"


class ImbalanceOptions(QObject):
    """The balance check (only for estimators with ``class_weight``) and the resampling
    choice of one model entry, added as rows of the entry's form (``parent``, the form's
    widget). ``edited`` carries ``(key, value)``: ``("class_weight", "balanced" or None)``
    or ``("resample", "over" / "under" / "smote" or None)``."""

    edited = Signal(str, object)

    def __init__(self, entry: dict, locked: set, form: QFormLayout, parent: QWidget):
        super().__init__(parent)
        self.balance_check = None
        model = ModelEntry.of(entry)
        if takes_class_weight(model.estimator):
            self.balance_check = QCheckBox("Balance classes (class_weight = \"balanced\")",
                                           parent)
            self.balance_check.setToolTip(_tip(BALANCE_TIP))
            self.balance_check.setEnabled("class_weight" not in locked)
            self.balance_check.toggled.connect(
                lambda on: self.edited.emit("class_weight", "balanced" if on else None))
            form.addRow(self.balance_check)
        self.resample_box = QComboBox(parent)
        for text, value, tip in RESAMPLE_CHOICES:
            self.resample_box.addItem(text, value)
            self.resample_box.setItemData(self.resample_box.count() - 1, tip, Qt.ToolTipRole)
        available = has_imblearn()
        self.resample_box.setEnabled(available or model.resample is not None)
        self.resample_box.setToolTip(_tip(RESAMPLE_TIP if available else MISSING_TIP))
        self.resample_box.activated.connect(
            lambda index: self.edited.emit("resample", self.resample_box.itemData(index)))
        form.addRow(plain_label("Resample training folds", parent), self.resample_box)
        self.show_entry(entry)

    def show_entry(self, entry: dict) -> None:
        """Show the entry's ``class_weight`` and ``"resample"`` without emitting."""
        model = ModelEntry.of(entry)
        if self.balance_check is not None:
            self.balance_check.blockSignals(True)
            balanced = model.params.get("class_weight") == "balanced"
            self.balance_check.setChecked(balanced)
            self.balance_check.blockSignals(False)
        index = self.resample_box.findData(model.resample)
        self.resample_box.setCurrentIndex(max(index, 0))
