"""A titled table with Copy and Export CSV buttons; the file is written off the GUI thread."""
from __future__ import annotations

import os
from typing import Optional

import pandas as pd
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QHBoxLayout, QHeaderView,
                               QPushButton, QTableView, QVBoxLayout,
                               QWidget)

from engine.output.tables import csv_text, write_csv

from .file_dialogs import announce_saved, ask_save_csv, csv_style
from .frame_model import DataFrameModel
from .jobs import Job, JobSlot
from .plain_text import escape, plain_tip, warn
from .views.widgets import ElidingLabel


#: rows measured when fitting column widths to their contents
RESIZE_ROWS = 30
#: of a column's texts, only the longest (in characters) are measured in the font: a
#: shorter text is seldom wider, and the window's thread measures 4 texts a column, not 31
MEASURED = 4


class TablePanel(QWidget):
    """Shows one DataFrame; the user can sort, copy it and export it as CSV.

    ``export_name`` is the default file name (the name in docs/experiment-format.md, e.g. ``summary.csv``).
    ``rows_selected`` carries the values of ``key_column`` in the selected rows.
    """

    rows_selected = Signal(list)
    exported = Signal(str)

    def __init__(self, title: str, export_name: str, parent=None, key_column: Optional[str] = None,
                 sortable: bool = True, digits: Optional[int] = 4, show_index: bool = False):
        super().__init__(parent)
        self.export_name = export_name
        self.key_column = key_column
        self._export_job = JobSlot()
        self._pending_path = ""
        self._fit_pending = False
        self.model = DataFrameModel(parent=self, digits=digits, show_index=show_index)
        self.view = QTableView(self)
        self.view.setModel(self.model)
        self.view.setSortingEnabled(sortable)
        self.clear_sort_indicator()
        self.view.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.view.setAlternatingRowColors(True)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.Interactive)
        self.view.horizontalHeader().setStretchLastSection(True)
        # size columns from the first rows only, and rows all alike: a million-row table must
        # not freeze the screen (Qt reads the column precision from the vertical header)
        for header in (self.view.horizontalHeader(), self.view.verticalHeader()):
            header.setResizeContentsPrecision(100)
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        self.view.verticalHeader().setDefaultSectionSize(22)
        self.view.selectionModel().selectionChanged.connect(self._emit_selection)
        self.title = ElidingLabel(f"<b>{escape(title)}</b>", self, rich=True)
        self.copy_button = QPushButton("Copy", self)
        self.copy_button.setToolTip("Copy the whole table to the clipboard (as CSV text)")
        self.copy_button.clicked.connect(self.copy_to_clipboard)
        self.export_button = QPushButton("Export CSV…", self)
        self.export_button.setToolTip(plain_tip(f"Save this table as a CSV file ({export_name})"))
        self.export_button.clicked.connect(self._ask_export_path)
        header = QHBoxLayout()
        header.addWidget(self.title)
        header.addStretch(1)
        header.addWidget(self.copy_button)
        header.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.view)
        self._set_enabled(False)

    def set_frame(self, frame: pd.DataFrame) -> None:
        """Show a new table in its own row order: no sort arrow until the user sorts."""
        self.model.set_frame(frame)
        self.clear_sort_indicator()
        if self.isVisible():
            self.fit_columns()
        else:                       # a hidden table is measured when it is first shown
            self._fit_pending = True
        self._set_enabled(len(frame.columns) > 0)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if self._fit_pending:
            self.fit_columns()
        super().showEvent(event)

    def frame(self) -> pd.DataFrame:
        return self.model.frame()

    def fit_columns(self) -> None:
        """Column widths from the header and the first :data:`RESIZE_ROWS` rows
        (``resizeColumnsToContents`` measures every row: ~80 ms of frozen window when a
        run's tables arrived)."""
        self._fit_pending = False
        metrics = self.view.fontMetrics()
        header = self.view.horizontalHeader()
        for column in range(self.model.columnCount()):
            texts = [str(self.model.headerData(column, Qt.Horizontal) or "")] + [
                str(self.model.data(self.model.index(row, column)) or "")
                for row in range(min(RESIZE_ROWS, self.model.rowCount()))]
            longest = sorted(texts, key=len)[-MEASURED:]     # the widest is among them
            widest = max(metrics.horizontalAdvance(text) for text in longest)
            self.view.setColumnWidth(column, max(header.minimumSectionSize(), widest + 24))

    def clear_sort_indicator(self) -> None:
        """No arrow in the header: the rows are in the table's own order. The header's
        signals are blocked so the view does not ask the model to sort by column -1."""
        header = self.view.horizontalHeader()
        blocked = header.blockSignals(True)
        header.setSortIndicator(-1, Qt.AscendingOrder)
        header.blockSignals(blocked)

    def _set_enabled(self, enabled: bool) -> None:
        self.copy_button.setEnabled(enabled)
        self.export_button.setEnabled(enabled)

    def copy_to_clipboard(self) -> None:
        QApplication.clipboard().setText(csv_text(self.frame()))

    def _ask_export_path(self) -> None:
        path, style = ask_save_csv(self, "Export table", "tables", self.export_name)
        if path:
            self.export_to(path, style)

    def export_to(self, path: str, style: Optional[str] = None) -> None:
        """Write the table to ``path`` on a worker thread in CSV ``style`` (None: the one
        chosen last, see :func:`gui.file_dialogs.csv_style`); ``exported`` fires when done."""
        if not path.lower().endswith(".csv"):
            path += ".csv"
        frame = self.frame()
        style = style or csv_style(self)
        self._pending_path = path
        job = Job(lambda: write_csv(frame, path, style=style), name="export-table")
        job.succeeded.connect(self._on_exported)
        job.failed.connect(self._on_export_failed)
        self._export_job.start(job)

    def _on_exported(self, path) -> None:
        announce_saved(self, f"Saved the table {os.path.basename(str(path))}", str(path))
        self.exported.emit(str(path))

    def _on_export_failed(self, message: str) -> None:
        warn(self, "Export failed",
             f"Could not write {os.path.basename(self._pending_path)}:\n{message}\n\n"
             "Choose another folder or file name.")

    def wait_for_export(self, msecs: int = 10000) -> bool:
        return self._export_job.wait(msecs)

    def _emit_selection(self, *_):
        if not self.key_column or self.key_column not in self.frame().columns:
            return
        rows = sorted({index.row() for index in self.view.selectionModel().selectedRows()})
        column = list(self.frame().columns).index(self.key_column)
        keys = [self.model.data(self.model.index(r, column), Qt.UserRole) for r in rows]
        self.rows_selected.emit([str(k) for k in keys])
