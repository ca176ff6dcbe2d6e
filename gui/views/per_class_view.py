"""Per-class results of the two models being compared: confusion matrices and per-class
precision / recall / F1, pooled over every fold of every repeat."""
from __future__ import annotations

import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSplitter, QVBoxLayout, QWidget

from engine.per_class import confusion_table, per_class_table

from ..table_panel import TablePanel

INTRO = ("Which classes does each model confuse? Rows: the true class; columns: the class "
         "predicted on the test folds, summed over every fold of every repeat (each row of "
         "the data counts once per repeat). Below: precision, recall and F1 of every class.")


def confusion_matrix_frame(confusion: pd.DataFrame, model: str) -> pd.DataFrame:
    """One model's confusion counts as a matrix: a ``true class`` column, then one
    column per predicted class."""
    part = confusion[confusion["model"] == model]
    matrix = part.pivot(index="true_class", columns="predicted_class", values="count")
    order = list(dict.fromkeys(part["true_class"]))
    matrix = matrix.reindex(index=order, columns=order)
    matrix.columns = [f"predicted {c}" for c in matrix.columns]
    return matrix.rename_axis("true class").reset_index()


class PerClassView(QWidget):
    """Confusion matrices of models A and B side by side, per-class scores below."""

    def __init__(self, parent=None):
        super().__init__(parent)
        intro = QLabel(INTRO, self)
        intro.setWordWrap(True)
        intro.setStyleSheet("color: #444;")
        self.matrix_a = TablePanel("Confusion matrix", "confusion_matrix_a.csv", self,
                                   sortable=False)
        self.matrix_b = TablePanel("Confusion matrix", "confusion_matrix_b.csv", self,
                                   sortable=False)
        self.scores = TablePanel("Precision, recall and F1 per class", "per_class.csv", self)
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
        layout.addWidget(split, 1)
        self._confusion = None
        self._classes = ()

    def set_result(self, result) -> None:
        """Take a new result (None clears the view)."""
        if result is None or "predicted" not in result.cv.predictions:
            self._confusion = None
            for panel in (self.matrix_a, self.matrix_b, self.scores):
                panel.set_frame(pd.DataFrame())
            return
        cv = result.cv
        self._classes = cv.classes
        self._confusion = confusion_table(cv.predictions, cv.models, cv.classes)
        self._per_class = per_class_table(self._confusion, cv.classes)

    def show_pair(self, model_a: str, model_b: str) -> None:
        """Show the two models' matrices and their per-class scores."""
        if self._confusion is None:
            return
        for panel, model in ((self.matrix_a, model_a), (self.matrix_b, model_b)):
            panel.title.setText(f"<b>Confusion matrix: {model}</b>")
            panel.set_frame(confusion_matrix_frame(self._confusion, model))
        both = self._per_class[self._per_class["model"].isin([model_a, model_b])]
        self.scores.set_frame(both.reset_index(drop=True))
