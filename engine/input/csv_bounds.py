"""A CSV file's bytes bounded while pandas reads them: rows times columns against memory,
and the length of one row.

A file's first 64 KB say little of the rest: a dense part further on (short rows under a
wide header, which pandas pads to the header's width) or a cell of a gigabyte was read
whole before any check.  :class:`BoundedFile` hands pandas the file's bytes and, in the
same pass, counts its rows (a newline outside quotes ends one) and the bytes of the
current row; it stops the read (:class:`ReadStopped`) as soon as the rows read times
the header's width would not fit in memory, or a row grows longer than
:data:`MAX_ROW_BYTES`.  No second pass over the file: the counting is a few numpy
operations on each block pandas reads anyway.

Rows end at line feeds (at carriage returns in a file without line feeds) outside
quotes, quotes counted by parity: a stray quote inside an unquoted cell (``5'11"``), which
pandas reads as a character, is taken for an opening one, so the rows after it count as
one until the next quote; only a file whose next quote is more than
:data:`MAX_ROW_BYTES` further on is refused for it (its message names the quote).
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Optional

import numpy as np

from engine.foundation.machine import BYTES_PER_VALUE
from engine.foundation.messages_notes import read_stopped_detail
from engine.input.csv_pieces import read_csv_pieces

#: Longest row of a data file (bytes): far more than any real row (a cell has at most
#: 32,767 characters), far less than memory.
MAX_ROW_BYTES = 64_000_000
_QUOTE = 34


class ReadStopped(Exception):
    """A bound was passed while the file was read. ``fields`` say which and by how much
    (``reason`` "row_too_long" or "rows_too_many": the fields of the ``read_stopped``
    error the reader raises with the path); ``str()`` is the sentence, without the
    path."""

    def __init__(self, fields: dict):
        super().__init__(read_stopped_detail(fields))
        self.fields = dict(fields)


@dataclass(frozen=True)
class Bound:
    """What a read may hold.

    Attributes
    ----------
    width : int or None
        The header's columns (every row is padded to them); None: rows are not counted.
    available : int or None
        Bytes of memory available; None: not bounded.
    copies : int
        Times the table is held while it is read.
    max_row_bytes : int, optional
        Longest row (bytes); by default :data:`MAX_ROW_BYTES`.
    """

    width: Optional[int]
    available: Optional[int]
    copies: int
    max_row_bytes: Optional[int] = None

    def can_pass(self, size: int) -> bool:
        """Whether a file of ``size`` bytes could pass the bound: a row longer than the
        longest allowed, or more rows (at most one a byte) than fit."""
        most = self.max_rows
        return size > self.row_bytes or (most is not None and size + 1 > most)

    @property
    def row_bytes(self) -> int:
        """Longest row (bytes)."""
        return MAX_ROW_BYTES if self.max_row_bytes is None else self.max_row_bytes

    @property
    def max_rows(self) -> Optional[int]:
        """Rows whose values fit (None: any)."""
        if self.width is None or self.available is None:
            return None
        return self.available // (max(1, self.width) * BYTES_PER_VALUE * self.copies)


class BoundedFile(io.RawIOBase):
    """A CSV file opened for pandas, stopping the read at a :class:`Bound`.

    Parameters
    ----------
    path : str
    bound : Bound
    """

    def __init__(self, path: str, bound: Bound):
        super().__init__()
        self._raw = open(path, "rb")
        self.bound, self.rows, self.lines = bound, 0, 0
        self._row_bytes, self._row_line, self._quotes = 0, 1, 0
        self._newline = b"\n"                  # b"\r" in a file without line feeds

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = self._raw.readinto(buffer)
        if n:
            self._count(bytes(memoryview(buffer)[:n]))
        return n

    def close(self) -> None:
        self._raw.close()
        super().close()

    def _count(self, block: bytes) -> None:
        """Rows ended in ``block`` (newlines after an even number of quotes) and the
        bytes of the row under way, then the bounds.  A block without quotes whose rows
        cannot pass the bound is counted with two byte searches."""
        if self.lines == 0 and b"\n" not in block and b"\r" in block:
            self._newline = b"\r"                # lines ended by carriage returns alone
        n_quotes = block.count(b'"')
        if n_quotes or self._row_bytes + len(block) > self.bound.row_bytes:
            self._count_rows(np.frombuffer(block, dtype=np.uint8))
        elif self._quotes % 2:                         # inside a quoted cell: no row ends
            self._row_bytes += len(block)
            self.lines += block.count(self._newline)
        else:
            last = block.rfind(self._newline)
            if last >= 0:
                n_newlines = block.count(self._newline)
                self.rows += n_newlines
                self.lines += n_newlines
                self._row_line, self._row_bytes = self.lines + 1, len(block) - last - 1
            else:
                self._row_bytes += len(block)
        self._quotes += n_quotes
        self._check_rows()

    def _count_rows(self, block: np.ndarray) -> None:
        """:meth:`_count` of a block with quotes (or a long row): every row's length."""
        newlines = np.flatnonzero(block == self._newline[0])
        quotes = np.flatnonzero(block == _QUOTE)
        odd = (self._quotes + np.searchsorted(quotes, newlines)) % 2 == 1
        ends = newlines[~odd]
        if len(ends):
            lengths = np.diff(ends, prepend=-1)
            lengths[0] += self._row_bytes
            longest = int(np.argmax(lengths))
            self._check_row(int(lengths[longest]), self._line_of(newlines, ends, longest))
            self._row_line = self.lines + int(np.searchsorted(newlines, ends[-1])) + 2
            self._row_bytes = len(block) - int(ends[-1]) - 1
        else:
            self._row_bytes += len(block)
        self._check_row(self._row_bytes, self._row_line)
        self.lines += len(newlines)
        self.rows += len(ends)

    def _line_of(self, newlines: np.ndarray, ends: np.ndarray, index: int) -> int:
        """The line (from 1) on which the ``index``-th row ending in this block began."""
        if index == 0:
            return self._row_line
        return self.lines + int(np.searchsorted(newlines, ends[index - 1])) + 2

    def _check_row(self, n_bytes: int, line: int) -> None:
        if n_bytes > self.bound.row_bytes:
            raise ReadStopped({"reason": "row_too_long", "line": line,
                               "row_bytes": self.bound.row_bytes})

    def _check_rows(self) -> None:
        most = self.bound.max_rows
        width, available = self.bound.width, self.bound.available
        if most is None or width is None or available is None or self.rows <= most:
            return
        need = self.rows * width * BYTES_PER_VALUE * self.bound.copies
        raise ReadStopped({"reason": "rows_too_many", "lines": self.lines, "rows": self.rows,
                           "width": width, "need": need, "copies": self.bound.copies,
                           "available": available})


def header_width(path: str, sep: str, encoding: str, *, head: str = "") -> Optional[int]:
    """The columns of a CSV file's header as pandas reads it (the header alone, its row
    bounded by :data:`MAX_ROW_BYTES`), or None when pandas cannot read it (the full
    read then says why).  A header line without quotes in ``head`` (the file's start,
    decoded) is counted without reading.

    Raises
    ------
    ReadStopped
        The header row is longer than :data:`MAX_ROW_BYTES`.
    """
    first, newline, _ = head.lstrip("\ufeff").partition("\n")
    if newline and first.strip() and '"' not in first and len(sep) == 1:
        return first.count(sep) + 1
    try:                                    # the one CSV read path, bounded to one row
        return read_csv_pieces(path, opener=lambda: BoundedFile(path, Bound(None, None, 1)),
                               sep=sep,
                               encoding=encoding, nrows=0, index_col=False,
                               skipinitialspace=True).shape[1]
    except ReadStopped:
        raise
    except Exception:                       # noqa: BLE001 -- the full read explains it
        return None
