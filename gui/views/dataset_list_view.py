"""The Dataset tab's list of data sets: name, rows and classes of each; add a built-in or a
file, remove, rename (in place), move up or down. Selecting one shows it in the tab.

The list is the state's (:attr:`gui.state.AppState.datasets`); the view only shows it and
asks the state for changes. Loading a new data set is the tab's work (on a worker), so
the Add buttons only say what to add.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QGroupBox, QHBoxLayout, QHeaderView, QMenu,
                               QPushButton, QStyle, QTableWidget,
                               QTableWidgetItem, QToolButton, QVBoxLayout)

from engine.input.data import BUILTINS

from ..plain_text import plain_tip, warn
from .widgets import blocked

ADD_TIP = ("Add another data set to the experiment: the same models, folds and scores then "
           "run on every data set, and the Results compare the models across them. (Open and "
           "Load built-in replace the selected data set instead.)")
LIST_TIP = ("The data sets of this experiment. Click one to see it and choose its target and "
            "columns below; double-click a name (or press Rename) to rename it.")
ROW_HEIGHT = 22
ROWS_SHOWN = (2, 6)     # the list's height: as many rows as data sets, within these


class DatasetListView(QGroupBox):
    """The loaded data sets, one row each, with the buttons that change the list."""

    add_builtin_requested = Signal(str)     # a built-in's name
    add_file_requested = Signal()

    def __init__(self, state, parent=None):
        super().__init__("Data sets", parent)
        self.state = state
        self.table = QTableWidget(0, 3, self)
        self.table.setHorizontalHeaderLabels(["Name", "Rows", "Classes"])
        self.table.setToolTip(LIST_TIP)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.DoubleClicked
                                   | QAbstractItemView.EditKeyPressed)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(ROW_HEIGHT)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.Stretch)
        for column in (1, 2):
            header.setSectionResizeMode(column, QHeaderView.ResizeToContents)
        self.table.itemSelectionChanged.connect(self._on_selected)
        self.table.itemChanged.connect(self._on_edited)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addLayout(self._build_buttons())
        state.datasets_changed.connect(self._show)
        state.dataset_changed.connect(lambda _: self._show(state.datasets))
        self._show(state.datasets)

    def _build_buttons(self) -> QHBoxLayout:
        self.add_builtin_button = QPushButton("Add built-in…", self)
        menu = QMenu(self.add_builtin_button)
        for name, (description, _) in BUILTINS.items():
            action = menu.addAction(name)
            action.setToolTip(description)
            action.triggered.connect(lambda _=False, n=name: self.add_builtin_requested.emit(n))
        menu.setToolTipsVisible(True)
        self.add_builtin_button.setMenu(menu)
        self.add_file_button = QPushButton("Add file…", self)
        self.add_file_button.clicked.connect(self.add_file_requested)
        self.remove_button = QPushButton("Remove", self)
        self.remove_button.setToolTip("Leave the selected data set out of the experiment")
        self.remove_button.clicked.connect(self.remove_selected)
        self.rename_button = QPushButton("Rename", self)
        self.rename_button.setToolTip("Rename the selected data set (its name in the result "
                                      "tables); or double-click its name")
        self.rename_button.clicked.connect(self.edit_selected_name)
        for button in (self.add_builtin_button, self.add_file_button):
            button.setToolTip(ADD_TIP)
        self.up_button, self.down_button = (self._arrow(QStyle.SP_ArrowUp, -1, "up"),
                                            self._arrow(QStyle.SP_ArrowDown, 1, "down"))
        row = QHBoxLayout()
        for button in (self.add_builtin_button, self.add_file_button, self.remove_button,
                       self.rename_button):
            row.addWidget(button)
        row.addStretch(1)
        row.addWidget(self.up_button)
        row.addWidget(self.down_button)
        return row

    def _arrow(self, icon, step: int, word: str) -> QToolButton:
        button = QToolButton(self)
        button.setIcon(self.style().standardIcon(icon))
        button.setToolTip(plain_tip(f"Move the selected data set {word} (the order of the "
                                    "result tables)"))
        button.clicked.connect(lambda: self.move_selected(step))
        return button

    # ------------------------------------------------------------------ showing the list
    def names(self) -> list:
        """The names shown, in order."""
        return [self.table.item(row, 0).text() for row in range(self.table.rowCount())]

    def _show(self, datasets: list) -> None:
        with blocked(self.table):
            self.table.setRowCount(len(datasets))
            for row, dataset in enumerate(datasets):
                cells = (dataset.name, f"{dataset.n_rows:,}", str(len(dataset.classes)))
                for column, text in enumerate(cells):
                    item = self._item(row, column)      # kept: one may be in its editor
                    item.setText(text)
                    item.setToolTip(plain_tip(
                        f"{dataset.name}: {dataset.n_rows:,} rows, "
                        f"{len(dataset.classes)} classes of {dataset.target!r}"))
            selected = self.state.selected_index()
            if selected is not None:
                self.table.selectRow(selected)
        rows = min(max(len(datasets), ROWS_SHOWN[0]), ROWS_SHOWN[1])
        header = self.table.horizontalHeader().sizeHint().height()
        self.table.setFixedHeight(header + rows * ROW_HEIGHT + 4)
        self._update_buttons()

    def _item(self, row: int, column: int) -> QTableWidgetItem:
        item = self.table.item(row, column)
        if item is None:
            item = QTableWidgetItem()
            flags = Qt.ItemIsSelectable | Qt.ItemIsEnabled
            item.setFlags(flags | Qt.ItemIsEditable if column == 0 else flags)
            if column:
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
            self.table.setItem(row, column, item)
        return item

    def _update_buttons(self) -> None:
        count, selected = len(self.state.datasets), self.state.selected_index()
        self.remove_button.setEnabled(count > 1)
        self.remove_button.setToolTip(
            "Leave the selected data set out of the experiment" if count > 1 else
            "The only data set cannot be removed: open or pick another one to replace it")
        self.rename_button.setEnabled(selected is not None)
        self.up_button.setEnabled(bool(selected))
        self.down_button.setEnabled(selected is not None and selected < count - 1)

    def set_adding_enabled(self, enabled: bool) -> None:
        """Off while data is loading (one data set is added at a time)."""
        self.add_builtin_button.setEnabled(enabled)
        self.add_file_button.setEnabled(enabled)

    # ------------------------------------------------------------------ changes
    def _on_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.state.select_dataset(rows[0].row())
        self._update_buttons()

    def select(self, row: int) -> None:
        """Select data set ``row`` (as a click on it does)."""
        self.table.selectRow(row)

    def remove_selected(self) -> None:
        selected = self.state.selected_index()
        if selected is not None and len(self.state.datasets) > 1:
            self.state.remove_dataset(selected)

    def move_selected(self, step: int) -> None:
        selected = self.state.selected_index()
        if selected is not None and 0 <= selected + step < len(self.state.datasets):
            self.state.move_dataset(selected, selected + step)

    def edit_selected_name(self) -> None:
        """Start editing the selected data set's name in place."""
        selected = self.state.selected_index()
        if selected is not None:
            self.table.editItem(self.table.item(selected, 0))

    def rename(self, row: int, name: str) -> bool:
        """Rename data set ``row``; a name that cannot be used gives a dialog (False)."""
        try:
            self.state.rename_dataset(row, name.strip())
        except ValueError as exc:
            self._show(self.state.datasets)
            text = str(exc)
            warn(self, "Cannot use this name", f"{text[:1].upper()}{text[1:]}.")
            return False
        return True

    def _on_edited(self, item: QTableWidgetItem) -> None:
        if item.column() == 0 and item.row() < len(self.state.datasets):
            if item.text().strip() != self.state.datasets[item.row()].name:
                self.rename(item.row(), item.text())
