"""A read-only Qt table model over a pandas DataFrame, fast on millions of rows.

Cells are formatted only when the view asks for them (the visible ones), straight
from the DataFrame's numpy columns: nothing is copied cell by cell. Their text and
alignment are formatted a block of rows at a time and kept (see :data:`BLOCK`): a view
asks each visible cell's text at every repaint, and a window just given new data repaints
several times in a row.
"""
from __future__ import annotations

import math
from typing import Callable, Optional

import numpy as np
import pandas as pd
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from .plain_text import as_written

# Roles as module constants: PySide6's shortcut lookups such as ``Qt.DisplayRole`` cost
# ~8 us each, which made data() (called thousands of times per repaint) 4x slower.
DISPLAY, TOOLTIP, ALIGNMENT = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole,
                               Qt.ItemDataRole.TextAlignmentRole)
BACKGROUND, USER = Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.UserRole
HORIZONTAL = Qt.Orientation.Horizontal
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)

#: Rows formatted at once per column (a power of two); the blocks kept are bounded by
#: what the user scrolls past (a 100,000-row column's text is ~4 MB had all been shown).
BLOCK_BITS = 5
BLOCK = 1 << BLOCK_BITS

#: (row position, column name, value) -> background colour name or None
CellStyle = Callable[[int, str, object], Optional[str]]


def format_value(value, digits: Optional[int] = 4) -> str:
    """Short display text for a cell (the files keep full precision); ``digits=None``
    shows numbers as they were written (``39.1``, ``3750``)."""
    if value is None:
        return ""
    if value is pd.NA:
        return "—"
    if isinstance(value, (float, np.floating)):
        if math.isnan(value):
            return "—"
        if math.isinf(value):
            return "∞" if value > 0 else "−∞"
        if digits is None:                   # data as read: shortest exact form
            return f"{value:.7g}"
        if value != 0 and (abs(value) < 10 ** -(digits - 1) or abs(value) >= 1e6):
            return f"{value:.{digits - 1}e}"
        return f"{value:.{digits}f}"
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    return str(value)


def _display_values(column: pd.Series) -> np.ndarray:
    """A column's values for display: whole numbers stored as floats (counts next to a
    missing value, fold sizes) become Python ints, so they read as ``90``, not ``90.0000``;
    nullable integers keep their missing values as ``pd.NA``."""
    if pd.api.types.is_extension_array_dtype(column.dtype) and \
            pd.api.types.is_integer_dtype(column.dtype):
        return np.array([pd.NA if pd.isna(v) else int(v) for v in column], dtype=object)
    values = column.to_numpy()
    if values.dtype.kind == "f" and len(values) and _counts_column(str(column.name)):
        finite = values[np.isfinite(values)]    # only counts by name: a data file is not scanned
        if len(finite) and np.all(finite == np.round(finite)) and np.abs(finite).max() < 1e15:
            return np.array([int(v) if math.isfinite(v) else v for v in values], dtype=object)
    return values


def _counts_column(name: str) -> bool:
    """Columns that hold counts or positions by meaning (scores stay decimals even when
    they happen to be whole)."""
    return name.startswith("n_") or name in ("rank", "repeat", "fold", "row", "count", "bin")


class DataFrameModel(QAbstractTableModel):
    """Table model for a DataFrame; ``set_frame`` swaps the whole table at once."""

    def __init__(self, frame: Optional[pd.DataFrame] = None, parent=None, digits: int = 4,
                 show_index: bool = False):
        super().__init__(parent)
        self._digits = digits
        self._show_index = show_index
        self._style: Optional[CellStyle] = None
        self._shown_as: dict = {}
        self._headers: dict = {}
        self._tips: dict = {}
        self._frame = pd.DataFrame()
        self._columns: list = []
        self._blocks: dict = {}       # (column, block) -> (texts, alignments)
        if frame is not None:
            self.set_frame(frame)

    # -- data
    def set_frame(self, frame: pd.DataFrame) -> None:
        self.beginResetModel()
        self._frame = frame
        self._columns = [_display_values(frame[c]) for c in frame.columns]
        self._blocks = {}
        self.endResetModel()

    def frame(self) -> pd.DataFrame:
        return self._frame

    def show_column_as(self, column: str, words: Callable[[object], str]) -> None:
        """Show a column's values in words on screen (e.g. scorer names as "ROC AUC");
        the frame, its exports and its sorting keep the values themselves."""
        self._shown_as[column] = words
        self._blocks = {}
        self.layoutChanged.emit()

    def show_headers_as(self, headers: dict) -> None:
        """Column headers in words (``{column: words}``, e.g. ``mean_rank`` as "Mean rank");
        the column's own name becomes the header's tooltip, and the frame and its exports
        keep it."""
        self._headers = dict(headers)
        if self.columnCount():
            self.headerDataChanged.emit(HORIZONTAL, 0, self.columnCount() - 1)

    def set_header_tips(self, tips: dict) -> None:
        """Tooltips of column headers in words (``{column: text}``, e.g. what an interval
        estimates), above the line naming the column in the CSV file."""
        self._tips = dict(tips)
        if self.columnCount():
            self.headerDataChanged.emit(HORIZONTAL, 0, self.columnCount() - 1)

    def set_cell_style(self, style: Optional[CellStyle]) -> None:
        """Colour cells (for example significant p-values); ``None`` clears it."""
        self._style = style
        if self.rowCount() and self.columnCount():
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(self.rowCount() - 1, self.columnCount() - 1))

    # -- Qt interface
    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._frame)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._columns)

    def _block(self, column: int, block: int) -> tuple:
        """(texts, alignments) of rows ``block * BLOCK`` onwards in ``column``, formatted
        once and kept."""
        values = self._columns[column][block << BLOCK_BITS:(block + 1) << BLOCK_BITS]
        words = self._shown_as.get(str(self._frame.columns[column]))
        texts = [words(value) if words is not None and isinstance(value, str)
                 else format_value(value, self._digits) for value in values]
        aligned = [RIGHT if isinstance(value, (int, float, np.number))
                   and not isinstance(value, bool) else LEFT for value in values]
        self._blocks[column, block] = texts, aligned
        return texts, aligned

    def data(self, index, role=DISPLAY):
        # asked for 7 roles of every visible cell at every repaint: the roles served
        # nothing (font, colour, check box, icon) return before any call into Qt
        if role == DISPLAY or role == ALIGNMENT:
            if not index.isValid():
                return None
            row, column = index.row(), index.column()
            key = column, row >> BLOCK_BITS
            block = self._blocks.get(key) or self._block(*key)
            return block[role == ALIGNMENT][row & (BLOCK - 1)]
        if role == TOOLTIP or role == USER or (role == BACKGROUND and self._style is not None):
            return self._cell_data(index, role) if index.isValid() else None
        return None

    def _cell_data(self, index, role):
        """A cell's tooltip (its value as written), colour or value."""
        value = self._columns[index.column()][index.row()]
        if role == TOOLTIP:
            return as_written(repr(value.item() if hasattr(value, "item") else value))
        if role == BACKGROUND:
            colour = self._style(index.row(), str(self._frame.columns[index.column()]), value)
            return QBrush(QColor(colour)) if colour else None
        return value

    def headerData(self, section, orientation, role=DISPLAY):
        if role == TOOLTIP and orientation == HORIZONTAL and section < len(self._columns):
            name = str(self._frame.columns[section])
            tip = self._tips.get(name)
            if tip is None and not self._headers:
                return None
            line = as_written(f"column {name} in the CSV file")
            return line if tip is None else f"{tip}\n({line})"
        if role != DISPLAY:
            return None
        if orientation == HORIZONTAL:
            if section >= len(self._columns):
                return None
            name = str(self._frame.columns[section])
            return self._headers.get(name, name)
        if self._show_index:
            return str(self._frame.index[section])
        return str(section + 1)

    def sort(self, column: int, order=Qt.AscendingOrder) -> None:
        if not len(self._frame) or not 0 <= column < len(self._columns):
            return  # Qt passes -1 for "no sort column"
        self.layoutAboutToBeChanged.emit()
        name = self._frame.columns[column]
        self._frame = self._frame.sort_values(name, ascending=order == Qt.AscendingOrder,
                                              kind="mergesort", na_position="last")
        self._columns = [_display_values(self._frame[c]) for c in self._frame.columns]
        self._blocks = {}
        self.layoutChanged.emit()
