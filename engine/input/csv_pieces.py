"""Reading a large CSV file in pieces, to the same table as reading it whole.

``pandas.read_csv`` of a whole file holds several copies of its columns at once (the
parser's pieces, their concatenation, the table's blocks): about four times the table
at its peak. :func:`read_csv_pieces` reads a large file in pieces of
:data:`PIECE_ROWS` rows and joins them, which holds the table about twice, and keeps
the result only when it is certainly the table a whole read gives: every column typed
alike in every piece (whole numbers and decimals may mix, as long as the whole numbers
are exact as decimals). Otherwise (a column with text in some pieces only, say) the
file is read again, whole, as before.

This is the one CSV read path: every ``pandas.read_csv`` of the engine and the app is
here (a data file's table, its text cells again as text, the header's width in
:mod:`engine.input.csv_bounds`), each through the caller's bounded opener.
"""
from __future__ import annotations

import contextlib
import os
from typing import Callable, Optional

import numpy as np
import pandas as pd

#: Files of at least this many bytes are read in pieces.
PIECES_FROM_BYTES = 32 * 2**20
#: Rows per piece.
PIECE_ROWS = 100_000
_EXACT_INTEGERS = 2**53          # every whole number up to this is exact as a float64


def read_csv_pieces(path: str, *, opener: Optional[Callable] = None, **options) -> pd.DataFrame:
    """``pandas.read_csv(path, **options)``, a large file read in pieces.

    Parameters
    ----------
    path : str
        The file.
    opener : callable, optional
        Gives what pandas reads, each time it is called (an open file, closed after the
        read: :class:`engine.input.csv_bounds.BoundedFile`); by default ``path``.
    **options
        ``pandas.read_csv`` arguments (not ``chunksize`` or ``iterator``). With
        ``nrows``, or for a file smaller than :data:`PIECES_FROM_BYTES`, the file is
        read whole.

    Returns
    -------
    pandas.DataFrame
        Equal to ``pandas.read_csv(path, **options)``: the same columns, dtypes, values
        and index (pandas' exceptions and warnings pass through as they are).
    """
    opener = opener or (lambda: path)
    if options.get("nrows") is not None or _size(path) < PIECES_FROM_BYTES:
        return _read(opener, **options)
    with contextlib.closing(_Source(opener())) as source, \
            pd.read_csv(source.what, chunksize=PIECE_ROWS, **options) as reader:
        pieces = list(reader)
    frame = joined(pieces)
    del pieces
    return _read(opener, **options) if frame is None else frame


class _Source:
    """What pandas reads, closed after the read when it is a file opened for it."""

    def __init__(self, what):
        self.what = what

    def close(self) -> None:
        if hasattr(self.what, "close"):
            self.what.close()


def _read(opener: Callable, **options) -> pd.DataFrame:
    with contextlib.closing(_Source(opener())) as source:
        return pd.read_csv(source.what, **options)


def joined(pieces: list) -> Optional[pd.DataFrame]:
    """The pieces of a table as one table (a new index from 0), or None when a column is
    not typed alike in all pieces (see the module's description).

    Parameters
    ----------
    pieces : list of pandas.DataFrame
        Consecutive pieces of one file, as ``read_csv(chunksize=...)`` gives them.

    Returns
    -------
    pandas.DataFrame or None
    """
    if not pieces or any(not piece.columns.equals(pieces[0].columns) for piece in pieces):
        return None
    for i, dtypes in enumerate(zip(*(piece.dtypes.tolist() for piece in pieces))):
        if len(set(dtypes)) > 1 and not _exact_mix(pieces, i, set(dtypes)):
            return None
    if len(pieces) == 1:
        return pieces[0]
    return pd.concat(pieces, ignore_index=True)


def _exact_mix(pieces: list, i: int, dtypes: set) -> bool:
    """Whether column ``i``, whole numbers in some pieces and decimals in others, joins
    to the decimals a whole read gives: every whole number exact as a float64."""
    if dtypes != {np.dtype(np.int64), np.dtype(np.float64)}:
        return False
    columns = (piece.iloc[:, i] for piece in pieces)
    return all(-_EXACT_INTEGERS <= column.min() and column.max() <= _EXACT_INTEGERS
               for column in columns if column.dtype == np.int64 and len(column))


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except (OSError, TypeError):
        return 0
