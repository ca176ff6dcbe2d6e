"""A held-out test file that is not held out: the training file itself, or rows of it.

:func:`check_not_training_file` refuses the training file given as the test file (the
same file, or a file of the same bytes: SHA-256).  :func:`shared_rows_note` counts the
test rows that are also training rows (every feature and the class equal), names the
first in a note, and refuses a test file of which more than half are training rows:
scores on rows a model was fitted on say nothing of new data.
"""
from __future__ import annotations

import hashlib
import os
from typing import Optional

import numpy as np
import pandas as pd

from engine.foundation.errors import EngineError
from engine.foundation.notes import Note
from engine.input.data_checks import is_numeric_column

#: Test rows named in the note.
ROWS_NAMED = 10
#: Share of test rows also in training above which the test file is refused.
MOST_SHARED = 0.5
_BLOCK = 2**20


def training_path(dataset, base_dir: str) -> Optional[str]:
    """The training data's file (``source`` ``"file"`` or ``"csv"``), or None (built-in)."""
    source = dataset.source or {}
    path = source.get("file", source.get("csv"))
    if path is None:
        return None
    return path if os.path.isabs(path) else os.path.join(base_dir, path)


def check_not_training_file(test_path: str, shown: str, training: Optional[str]) -> None:
    """Refuse the test file ``test_path`` when it is the file ``training`` (the same file
    by device and inode, or the same bytes by SHA-256); ``shown`` names it as given.

    Raises
    ------
    EngineError
        ``heldout_is_training``.
    """
    if training is None or not os.path.isfile(training) or not os.path.isfile(test_path):
        return
    how = None
    if os.path.samefile(training, test_path):
        how = "same_file"
    elif os.path.getsize(training) == os.path.getsize(test_path) and \
            file_digest(training) == file_digest(test_path):
        how = "same_content"
    if how is None:
        return
    said = "is the training file itself" if how == "same_file" else \
        "has the same content as the training file (SHA-256)"
    raise EngineError("heldout_is_training", {"path": shown, "training": training, "how": how},
                      f"the test file {shown} {said}: a held-out test needs rows the models "
                      "were not fitted on; give a separate file of other rows (or leave out "
                      'the "test" block)')


def file_digest(path: str) -> str:
    """The SHA-256 of a file, read in blocks of 1 MiB."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(_BLOCK), b""):
            digest.update(block)
    return digest.hexdigest()


def row_keys(X: pd.DataFrame, y: np.ndarray) -> np.ndarray:
    """One 64-bit hash per row of features ``X`` and class codes ``y``: numbers compared
    as float64 (1 equals 1.0, -0.0 equals 0.0), text as text, missing equal to missing."""
    columns = {}
    for position, column in enumerate(X.columns):
        values = X[column]
        if is_numeric_column(values):
            columns[position] = values.to_numpy(dtype=np.float64, na_value=np.nan) + 0.0
        else:
            texts = values.astype(str).to_numpy(dtype=object)
            texts[values.isna().to_numpy()] = None
            columns[position] = texts
    columns[len(columns)] = np.asarray(y, dtype=np.int64)
    table = pd.DataFrame(columns)
    return pd.util.hash_pandas_object(table, index=False).to_numpy()


def shared_rows_note(X: pd.DataFrame, y: np.ndarray, rows: np.ndarray, dataset,
                     path: str) -> Optional[Note]:
    """The ``heldout_shared_rows`` note of the test rows (``X``, ``y``; ``rows``: their
    numbers among the file's data rows, from 1) that are also training rows, or None.

    Raises
    ------
    EngineError
        ``heldout_mostly_training``: more than :data:`MOST_SHARED` of the rows are shared.
    """
    if len(y) == 0 or list(X.columns) != list(dataset.X.columns):
        return None
    shared = np.isin(row_keys(X, y), row_keys(dataset.X, dataset.y))
    n_shared, n_rows = int(shared.sum()), len(y)
    if n_shared == 0:
        return None
    if n_shared > MOST_SHARED * n_rows:
        raise EngineError("heldout_mostly_training",
                          {"path": path, "n_shared": n_shared, "n_rows": n_rows},
                          f"the test file {path}: {n_shared:,} of its {n_rows:,} rows "
                          f"({n_shared / n_rows:.0%}) are also rows of the training data, "
                          "so its scores would not be held out; give a file of rows the "
                          "models are not fitted on")
    named = [int(r) for r in np.asarray(rows)[shared][:ROWS_NAMED]]
    return Note("heldout_shared_rows",
                fields={"n_shared": n_shared, "n_rows": n_rows, "rows": named})
