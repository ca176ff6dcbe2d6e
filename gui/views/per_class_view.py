"""Per-class results of the two models being compared: confusion matrices and per-class
precision / recall / F1, pooled over every fold of every repeat or for one fold."""
from __future__ import annotations


import numpy as np
import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QSplitter, QVBoxLayout,
                               QWidget)

from engine.evaluation.per_class import per_class_frame

from ..file_dialogs import with_parts
from ..plain_text import escape, plain_label, plain_tip
from ..table_panel import TablePanel

INTRO = ("Which classes does each model confuse? Rows: the true class; columns: the class "
         "predicted on the test folds, summed over every fold of every repeat (each row of "
         "the data counts once per repeat), or on the one fold picked. Below: precision, "
         "recall and F1 of every class.")
ALL_FOLDS = "All folds (summed)"
MATRIX_NAME, SCORES_NAME = "confusion_matrix.csv", "per_class.csv"
SCORES_TITLE = "Precision, recall and F1 per class"


def fold_label(repeat, fold) -> str:
    """``"repeat 3, fold 7"``: the numbers exactly as in the predictions table (and so as
    in the CSV files), whatever base they use."""
    return f"repeat {repeat}, fold {fold}"


def matrix_frame(matrix: np.ndarray, classes) -> pd.DataFrame:
    """Counts ``matrix[t, p]`` as a table: a ``true class`` column, then one column per
    predicted class."""
    frame = pd.DataFrame(np.asarray(matrix), columns=[f"predicted {c}" for c in classes])
    frame.insert(0, "true class", list(classes))
    return frame


def _name_export(panel: TablePanel, name: str) -> None:
    panel.export_name = name
    panel.export_button.setToolTip(plain_tip(f"Save this table as a CSV file ({name})"))


class PerClassView(QWidget):
    """Confusion matrices of models A and B side by side, per-class scores below; a picker
    shows them summed over all folds or for one fold."""

    def __init__(self, parent=None):
        super().__init__(parent)
        intro = plain_label(INTRO, self)
        intro.setWordWrap(True)
        intro.setStyleSheet("color: #444;")
        self.fold_combo = QComboBox(self)
        self.fold_combo.setToolTip("Show the counts summed over every fold, or of one fold")
        self.fold_combo.currentIndexChanged.connect(self._show)
        picker = QHBoxLayout()
        picker.addWidget(plain_label("Folds:", self))
        picker.addWidget(self.fold_combo)
        picker.addStretch(1)
        self.matrix_a = TablePanel("Confusion matrix", MATRIX_NAME, self, sortable=False)
        self.matrix_b = TablePanel("Confusion matrix", MATRIX_NAME, self, sortable=False)
        self.scores = TablePanel(SCORES_TITLE, SCORES_NAME, self)
        matrices = QWidget(self)
        row = QHBoxLayout(matrices)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.matrix_a)
        row.addWidget(self.matrix_b)
        split = QSplitter(Qt.Vertical, self)
        split.addWidget(matrices)
        split.addWidget(self.scores)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(picker)
        layout.addWidget(split, 1)
        self._models, self._classes, self._folds = [], (), []
        self._counts = None      # counts[model, fold, true, predicted]
        self._pooled = None      # counts[model, true, predicted]
        self._pair = None
        self._fill_folds([])

    # ------------------------------------------------------------------ data
    def set_result(self, result) -> None:
        """Take a new result (None clears the view); the picker goes back to all folds."""
        self._pair = None
        if result is None or "predicted" not in result.cv.predictions:
            self._counts = self._pooled = None
            self._fill_folds([])
            for panel in (self.matrix_a, self.matrix_b, self.scores):
                panel.set_frame(pd.DataFrame())
            return
        cv = result.cv
        self._models, self._classes = list(cv.models), tuple(cv.classes)
        self._folds, self._counts = cv.confusion_by_fold()
        self._pooled = self._counts.sum(axis=1)
        self._fill_folds(self._folds)

    def _fill_folds(self, folds) -> None:
        blocked = self.fold_combo.blockSignals(True)
        self.fold_combo.clear()
        self.fold_combo.addItems([ALL_FOLDS, *(fold_label(*f).capitalize() for f in folds)])
        self.fold_combo.setCurrentIndex(0)
        self.fold_combo.setEnabled(bool(folds))
        self.fold_combo.blockSignals(blocked)

    def _fold_index(self):
        index = self.fold_combo.currentIndex() - 1
        return index if 0 <= index < len(self._folds) else None

    def fold(self):
        """The ``(repeat, fold)`` picked, or None for all folds summed."""
        index = self._fold_index()
        return None if index is None else self._folds[index]

    # ------------------------------------------------------------------ showing
    def show_pair(self, model_a: str, model_b: str) -> None:
        """Show the two models' matrices and their per-class scores (for the fold picked)."""
        self._pair = (model_a, model_b)
        self._show()

    def _matrix(self, model: str) -> np.ndarray:
        """The model's counts summed over all folds or on the fold picked (zeros for a
        model the result does not have)."""
        if model not in self._models:
            return np.zeros((len(self._classes),) * 2, dtype=np.int64)
        index, fold = self._models.index(model), self._fold_index()
        return self._pooled[index] if fold is None else self._counts[index, fold]

    def _show(self, *_) -> None:
        if self._counts is None or self._pair is None:
            return
        fold = self.fold()
        where = "" if fold is None else f" — {fold_label(*fold)}"
        for panel, model in zip((self.matrix_a, self.matrix_b), self._pair):
            matrix = self._matrix(model)
            failed = " (failed on this fold)" if fold is not None and matrix.sum() == 0 else ""
            panel.title.setText(f"<b>Confusion matrix: {escape(model)}{where}{failed}</b>")
            _name_export(panel, with_parts(MATRIX_NAME, [model, *self._fold_parts(fold)]))
            panel.set_frame(matrix_frame(matrix, self._classes))
        shown = [m for m in self._models if m in self._pair]
        counts = np.stack([self._matrix(m) for m in shown]) if shown else \
            np.zeros((0, len(self._classes), len(self._classes)), dtype=np.int64)
        self.scores.title.setText(f"<b>{SCORES_TITLE}{where}</b>")
        _name_export(self.scores, with_parts(SCORES_NAME, self._fold_parts(fold)))
        self.scores.set_frame(per_class_frame(counts, shown, self._classes))

    @staticmethod
    def _fold_parts(fold) -> list:
        return [] if fold is None else [fold_label(*fold)]
