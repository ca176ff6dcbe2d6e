"""The Dataset tab's feature list: one check box per column of the file, ticked when the
column is used as a feature.

Columns the loader left out itself (empty, identifier-like) are shown unticked and greyed,
saying why; an index-like column (row numbers, a written-out row index) is shown unticked
but can be ticked (``"features"`` then keeps it). Columns the notes call possible leaks
(unticked when the file is opened), identifiers used as features, or that have many
categories carry a warning mark with the note as tooltip.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QGroupBox, QListWidget, QListWidgetItem, QVBoxLayout

from engine.input.data import Dataset

from ..plain_text import plain_label, plain_tip
from .dataset_notes import (identifier_columns, index_columns, leak_columns, left_out_reasons,
                            many_category_columns)
from .widgets import blocked

USED, EXCLUDED, LEFT_OUT = "used", "excluded", "left out"
KEEPABLE = Qt.UserRole + 1          # the item's column is kept only when listed in "features"
WARNING_COLOUR = QColor("#b35900")
MIN_ROWS, MAX_ROWS = 3, 10


@dataclass(frozen=True)
class ColumnRow:
    name: str
    status: str                     # USED, EXCLUDED (by the user) or LEFT_OUT (by the loader)
    why: str                        # the tooltip
    warning: Optional[str] = None   # a short mark shown after the name
    keepable: bool = False          # index-like: ticked, it is listed under "features"



def group_names(groups) -> set:
    """The groups column(s) of a ``dataset`` block, as text (a name or a list of names)."""
    if groups is None:
        return set()
    return {str(c) for c in ([groups] if isinstance(groups, str) else groups)}

def column_rows(columns, dataset: Dataset, excluded=(), index_like=()) -> list:
    """One row per column of the file but the target, in the file's order.

    ``columns`` are the file's columns (None: the dataset's features, then the excluded
    columns, then those the notes say were left out); ``excluded`` are the columns the
    user left out; ``index_like`` columns the loader found index-like before (a column the
    user left out after ticking it back).
    """
    excluded = [str(c) for c in excluded]
    reasons = left_out_reasons(dataset.notes)
    indexes = index_columns(dataset.notes)
    kept = {str(c) for c in _names(dataset.source.get("features"))}
    keepable = {*kept, *map(str, index_like)}        # used or left out by the user
    if columns is None:
        columns = [*map(str, dataset.X.columns), *excluded, *reasons, *indexes]
    features = {str(c) for c in dataset.X.columns}
    leaks, many = leak_columns(dataset.notes), many_category_columns(dataset.notes)
    identifiers = identifier_columns(dataset.notes)
    rows = []
    for name in dict.fromkeys(map(str, columns)):
        if name == str(dataset.target):
            continue
        if name in group_names(dataset.source.get("groups")):
            status, why = LEFT_OUT, ("Left out: it says which rows belong together (chosen "
                                     "under Rows that belong together), so it is not a feature.")
        elif name == dataset.source.get("id_column"):
            status, why = LEFT_OUT, ("Left out: it names the rows (the experiment's "
                                     "id_column), so it is not a feature.")
        elif name in features:
            status, why = USED, "Used as a feature. Untick to leave it out."
        elif name in excluded:
            status, why = EXCLUDED, "Left out by you. Tick to use it as a feature."
        elif name in indexes:
            status, why = LEFT_OUT, (f"Left out: {indexes[name]}. Tick to use it as a feature "
                                     "anyway.")
        else:
            status = LEFT_OUT
            why = "Left out: " + reasons.get(name, "it cannot be used as a feature (see the notes)")
        warning = None
        if name in leaks:
            warning, why = "possible leak", f"{why}\n\n{leaks[name]}"
        elif name in identifiers:
            warning, why = "identifier", f"{why}\n\n{identifiers[name]}"
        elif name in many:
            warning = f"{many[name]} categories"
            why = (f"{why}\n\nIt has {many[name]} categories: one-hot encoding makes a column "
                   "for each, which slows the models and may overfit.")
        can_keep = name in indexes if status == LEFT_OUT else name in keepable
        rows.append(ColumnRow(name, status, why, warning, can_keep))
    return rows


def _names(value) -> list:
    return [value] if isinstance(value, str) else list(value or ())


class ColumnPicker(QGroupBox):
    """Check boxes "use as feature"; ``exclusion_changed`` gives the columns left out."""

    exclusion_changed = Signal(list)

    def __init__(self, parent=None):
        super().__init__("Features (columns used to predict)", parent)
        self.count_label = plain_label("No data loaded yet.", self)
        self.count_label.setWordWrap(True)
        self.count_label.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        # two lines always: the list does not move when the ⚠ sentence comes or goes
        self.count_label.setMinimumHeight(2 * self.fontMetrics().lineSpacing())
        self.count_label.setStyleSheet("color: #555;")
        self.list = QListWidget(self)
        self.list.setToolTip("Tick the columns the models may use; untick identifiers and "
                             "columns recorded after the outcome.")
        self.list.itemChanged.connect(self._on_item_changed)
        layout = QVBoxLayout(self)
        layout.addWidget(self.count_label)
        layout.addWidget(self.list)
        self._auto_out: set = set()
        self._fit_height(MIN_ROWS)

    def show_columns(self, rows: list, editable: bool, fixed_reason: str = "") -> None:
        """Show ``rows``; when not ``editable`` every box is greyed with ``fixed_reason``.

        The same columns shown again (after a tick or an untick) keep their place on the
        screen: the list keeps its scroll position and the text above it its height, so
        the row under the cursor stays under it."""
        same = [row.name for row in rows] == [self.list.item(i).data(Qt.UserRole)
                                              for i in range(self.list.count())]
        scrolled = self.list.verticalScrollBar().value()
        with blocked(self.list):
            self.list.clear()
            for row in rows:
                item = QListWidgetItem(row.name if row.warning is None
                                       else f"{row.name}   ⚠ {row.warning}")
                item.setData(Qt.UserRole, row.name)
                item.setData(KEEPABLE, row.keepable)
                item.setCheckState(Qt.Checked if row.status == USED else Qt.Unchecked)
                can_tick = editable and (row.status != LEFT_OUT or row.keepable)
                item.setFlags(Qt.ItemIsUserCheckable | Qt.ItemIsEnabled if can_tick
                              else Qt.ItemIsUserCheckable)       # greyed when not
                tip = row.why if editable else "\n\n".join(
                    filter(None, [fixed_reason, row.why if row.warning else ""]))
                item.setToolTip(plain_tip(tip))
                if row.warning:
                    item.setForeground(QBrush(WARNING_COLOUR))
                self.list.addItem(item)
        self._remember(rows)
        self._fit_height(len(rows))
        if same:
            self.list.doItemsLayout()           # the scroll range of the new rows
            self.list.verticalScrollBar().setValue(scrolled)
        used = sum(row.status == USED for row in rows)
        text = f"{used} of {len(rows)} columns used as features."
        if any(row.warning for row in rows):
            text += " ⚠ marks a column to check (hover over it for why)."
        if not editable and fixed_reason:
            text += " " + fixed_reason
        self.count_label.setText(text)

    def _fit_height(self, n_rows: int) -> None:
        """As tall as its rows, between MIN_ROWS and MAX_ROWS (then it scrolls)."""
        row = self.list.sizeHintForRow(0) if self.list.count() else self.fontMetrics().height()
        shown = min(max(n_rows, MIN_ROWS), MAX_ROWS)
        self.list.setFixedHeight(row * shown + 2 * self.list.frameWidth() + 4)

    def excluded(self) -> list:
        """The columns the user unticked (not those the loader left out itself)."""
        names = []
        for index in range(self.list.count()):
            item = self.list.item(index)
            if item.flags() & Qt.ItemIsEnabled and item.checkState() != Qt.Checked and \
                    not self._left_out_by_loader(item):
                names.append(item.data(Qt.UserRole))
        return names

    def kept(self) -> list:
        """The ticked index-like columns: kept as features only when listed (``"features"``)."""
        return [self.list.item(i).data(Qt.UserRole) for i in range(self.list.count())
                if self.list.item(i).data(KEEPABLE)
                and self.list.item(i).checkState() == Qt.Checked]

    def _left_out_by_loader(self, item) -> bool:
        return bool(item.data(KEEPABLE)) and item.data(Qt.UserRole) in self._auto_out

    def _remember(self, rows: list) -> None:
        self._auto_out = {row.name for row in rows if row.status == LEFT_OUT}

    def item(self, name: str) -> Optional[QListWidgetItem]:
        for index in range(self.list.count()):
            if self.list.item(index).data(Qt.UserRole) == name:
                return self.list.item(index)
        return None

    def _on_item_changed(self, _item) -> None:
        self.exclusion_changed.emit(self.excluded())
