"""The Dataset tab's "Rows that belong together" box: the data set's ``"groups"`` column.

Several visits of one patient, several images of one subject: naming the column that says
so keeps each group's rows together in the folds (``engine.input.groups``), and takes that column
out of the features. The box shows how many groups there are and how many rows each has,
what the folds cannot do with them (fewer groups than folds, a class in one group only),
offers in one click a column the data notes suggest (``groups_suggested``, or the pair of
``groups_pair_suggested``: an id that restarts in each centre), and holds the
"also run without groups" choice (``cv.compare_ungrouped``, ``engine.runs.grouping_gap``).
"""
from __future__ import annotations

from typing import Optional

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QGroupBox, QPushButton, QVBoxLayout

from engine.input.data import Dataset
from engine.foundation.errors import error_code
from engine.input.groups import check_grouped_folds
from engine.foundation.notes import note_code, note_fields

from ..plain_text import escape, plain_tip, rich_label
from .widgets import blocked

NONE = "None: every row stands alone"
TIP = ("Pick the column that says which rows belong together: several visits of one "
       "patient, several images of one subject, several samples of one animal. The folds then "
       "never split such a group between training and test, so a model is always tested on "
       "subjects it has never seen. That column is not used as a feature.")
COMPARE_TIP = ("Runs the same models a second time on ordinary folds (the same seed), which "
               "ignore the groups, and shows both scores side by side under Results → "
               "Grouped vs ungrouped: the difference is how much ordinary folds would flatter "
               "the models. The statistics stay on the grouped folds. Saved in the experiment "
               "file as \"compare_ungrouped\" under \"cv\"; it takes twice as long.")
WARNING = "#b35900"


def suggested_column(dataset: Optional[Dataset]) -> Optional[dict]:
    """The fields of the data notes' first ``groups_suggested`` note (column, n_values,
    rows_per_value), or None."""
    if dataset is None:
        return None
    for note in dataset.notes:
        if note_code(note) == "groups_suggested":
            return dict(note_fields(note))
    return None


def suggested_pair(dataset: Optional[Dataset]) -> Optional[dict]:
    """The fields of the data notes' first ``groups_pair_suggested`` note (columns,
    n_values, n_pairs, rows_per_pair), or None."""
    for note in (dataset.notes if dataset is not None else ()):
        if note_code(note) == "groups_pair_suggested":
            return dict(note_fields(note))
    return None


def pair_label(columns) -> str:
    """How a pair of groups columns is shown: ``centre + id``."""
    return " + ".join(map(str, columns))


def groups_text(dataset: Dataset, n_splits: int) -> tuple:
    """``(text, problem)``: how many groups and rows per group, and what the folds cannot
    do with them (``""`` when nothing), in the words of the screen."""
    groups = getattr(dataset, "groups", None)
    if groups is None:
        return "", ""
    sizes = np.bincount(groups)
    sizes = sizes[sizes > 0]
    low, high = int(sizes.min()), int(sizes.max())
    each = f"{low} rows" if low == high else \
        f"{low} to {high} rows ({sizes.mean():.1f} on average)"
    text = f"{len(sizes):,} groups of {each}."
    try:
        check_grouped_folds(dataset.y, groups, n_splits, classes=dataset.classes)
    except ValueError as exc:
        message = str(exc)
        where = (" (Folds (k) is on the Cross-validation tab.)"
                 if error_code(exc) == "groups_too_few" else "")
        return text, message[:1].upper() + message[1:] + "." + where
    return text, ""


class GroupsBox(QGroupBox):
    """Choose the groups column; ``groups_chosen`` carries it (None: no groups),
    ``compare_toggled`` the "also run without groups" choice."""

    groups_chosen = Signal(object)
    compare_toggled = Signal(bool)

    def __init__(self, parent=None):
        super().__init__("Rows that belong together", parent)
        self.setToolTip(TIP)
        self.combo = QComboBox(self)
        self.combo.setToolTip(TIP)
        self.combo.setMinimumContentsLength(14)
        self.combo.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.combo.activated.connect(self._on_picked)
        self.info = rich_label("", self)
        self.info.setWordWrap(True)
        self.info.setTextFormat(Qt.RichText)
        self.suggest_button = QPushButton(self)
        self.suggest_button.clicked.connect(self._use_suggestion)
        self.suggest_button.setVisible(False)
        self.compare_check = QCheckBox("Also run without groups, to show the difference", self)
        self.compare_check.setToolTip(COMPARE_TIP)
        self.compare_check.toggled.connect(self.compare_toggled)
        layout = QVBoxLayout(self)
        layout.addWidget(self.combo)
        layout.addWidget(self.suggest_button)
        layout.addWidget(self.info)
        layout.addWidget(self.compare_check)
        self._suggested = None        # a column, a list of columns (a pair) or None

    def show_dataset(self, dataset: Optional[Dataset], columns, editable: bool,
                     n_splits: int, compare: bool) -> None:
        """Show ``dataset``'s groups: ``columns`` are those that can hold them (the file's,
        the target left out); ``editable`` False for built-in data sets."""
        chosen = (dataset.source.get("groups") if dataset is not None else None)
        with blocked(self.combo):
            self.combo.clear()
            self.combo.addItem(NONE, None)
            for name in columns:
                self.combo.addItem(str(name), str(name))
            pair = suggested_pair(dataset) if editable else None
            for several in ([chosen] if isinstance(chosen, list) else []) + \
                    ([pair["columns"]] if pair and not isinstance(chosen, list) else []):
                self.combo.addItem(pair_label(several), [str(c) for c in several])
            self.combo.setCurrentIndex(max(self._index_of(chosen), 0))
        self.combo.setEnabled(editable)
        with blocked(self.compare_check):
            self.compare_check.setChecked(bool(compare))
        # off without groups (nothing to compare), unless it is on: then it can be turned off
        self.compare_check.setEnabled(editable and (chosen is not None or bool(compare)))
        suggestion = suggested_column(dataset) if editable and chosen is None else None
        self._suggested = None if suggestion is None else str(suggestion["column"])
        pair = suggested_pair(dataset) if editable and chosen is None else None
        if pair is not None:
            self._suggested = [str(c) for c in pair["columns"]]
            outer, inner = pair["columns"][0], pair["columns"][-1]
            self.suggest_button.setText(f"Use {pair_label(pair['columns'])}: {inner!r} "
                                        f"restarts in each {outer!r}")
            self.suggest_button.setToolTip(plain_tip(
                f"{pair['n_values']} values of {inner!r} but {pair['n_pairs']} different pairs "
                f"({pair['rows_per_pair']:.1f} rows each on average): the same number in two "
                f"places is two cases. {inner!r} alone would join them."))
        elif suggestion is not None:
            self.suggest_button.setText(f"Use {self._suggested!r}: it looks like an identifier "
                                        "with repeated values")
            self.suggest_button.setToolTip(plain_tip(
                f"{suggestion['n_values']} values, {suggestion['rows_per_value']:.1f} rows each "
                "on average. If rows with the same value belong together (one patient, one "
                "subject), keeping them together gives honest scores; otherwise leave None."))
        self.suggest_button.setVisible(self._suggested is not None)
        html = self._info_html(dataset, editable, n_splits)
        self.info.setText(html)
        self.info.setVisible(bool(html))

    def _info_html(self, dataset, editable: bool, n_splits: int) -> str:
        if dataset is None:
            return ""
        if not editable:
            return ("<span style='color:#555'>Built-in data sets have no such column: each "
                    "row is its own case.</span>")
        text, problem = groups_text(dataset, n_splits)
        if not text:
            return ("<span style='color:#555'>Each row is a case of its own. If several rows "
                    "come from one patient or subject, pick that column.</span>"
                    if self._suggested is None else "")
        html = f"{escape(text)} The folds keep each group whole; the column is not a feature."
        if problem:
            html += f"<br><span style='color:{WARNING}'>⚠ {escape(problem)}</span>"
        return html

    def chosen(self) -> Optional[str]:
        """The column chosen (None: no groups)."""
        return self.combo.currentData()

    def _index_of(self, column) -> int:
        """The combo's item for ``column`` (a name or a list of names; None: the first)."""
        if column is None:
            return 0
        wanted = [str(c) for c in column] if isinstance(column, list) else str(column)
        return next((i for i in range(self.combo.count())
                     if self.combo.itemData(i) == wanted), -1)

    def choose(self, column) -> None:
        """Pick ``column`` (a name, a list of names) as if the user had (None: no groups)."""
        index = self._index_of(column)
        if index < 0:
            raise ValueError(f"no column {column!r} to choose")
        self.combo.setCurrentIndex(index)
        self._on_picked(index)

    def _on_picked(self, index: int) -> None:
        self.groups_chosen.emit(self.combo.itemData(index))

    def _use_suggestion(self) -> None:
        if self._suggested is not None:
            self.choose(self._suggested)

