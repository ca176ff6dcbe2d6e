"""Text in the cells of a grid plot (a heatmap's values), drawn by one graphics item.

One ``pg.TextItem`` per cell cost ~1 ms each to create and place: a 20-model heatmap
(400 cells) froze the window for ~400 ms when results arrived. :class:`CellText` paints
every cell's text in one ``paint`` call at a fixed pixel size, and leaves the text out
when the cells are too small on screen to hold it (the hover read-out still gives it).
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF


class CellText(pg.GraphicsObject):
    """Texts centred in the unit cells of an n x m grid (cell (i, j) spans x in [j, j+1],
    y in [i, i+1]), each in its own colour."""

    def __init__(self, point_size: int = 9):
        super().__init__()
        self._texts: list = []          # row-major, one string per cell
        self._colours: list = []
        self._shape = (0, 0)
        self.font = QFont()
        self.font.setPointSize(point_size)

    def set_cells(self, texts, colours) -> None:
        """Texts and colours (2-D sequences of the same shape)."""
        texts = np.asarray(texts, dtype=object)
        self.prepareGeometryChange()
        self._shape = texts.shape if texts.ndim == 2 else (0, 0)
        self._texts = [str(t) for t in texts.ravel()]
        self._colours = [QColor(c) for c in np.asarray(colours, dtype=object).ravel()]
        self.update()

    def set_point_size(self, size: int) -> None:
        self.font.setPointSize(size)
        self.update()

    def shown_texts(self) -> list:
        """Every cell's text, row by row (what the item writes when the cells are large
        enough)."""
        return list(self._texts)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        rows, columns = self._shape
        return QRectF(0, 0, columns, rows)

    def fits(self, cell_width_px: float, cell_height_px: float) -> bool:
        """Whether the widest text fits in a cell of that size on screen."""
        if not self._texts:
            return False
        metrics = QFontMetricsF(self.font)
        widest = max(metrics.horizontalAdvance(t) for t in self._texts)
        return widest + 2 <= cell_width_px and metrics.height() <= cell_height_px

    def paint(self, painter, *_args) -> None:
        rows, columns = self._shape
        if not rows or not columns:
            return
        transform = painter.transform()
        origin, corner = transform.map(QPointF(0, 0)), transform.map(QPointF(1, 1))
        width, height = abs(corner.x() - origin.x()), abs(corner.y() - origin.y())
        if not self.fits(width, height):
            return
        painter.save()
        painter.resetTransform()
        painter.setFont(self.font)
        for k, text in enumerate(self._texts):
            i, j = divmod(k, columns)
            centre = transform.map(QPointF(j + 0.5, i + 0.5))
            painter.setPen(self._colours[k])
            painter.drawText(QRectF(centre.x() - width / 2, centre.y() - height / 2,
                                    width, height), Qt.AlignCenter, text)
        painter.restore()
