"""Read a held-out test file and check it against the training data, before any fit.

Every problem is one ``ValueError`` line that names the file, what is wrong and what to
change: an unreadable file, a missing feature column or target, a class the training
rows do not have, a column of numbers in training read as text in the test file (another
decimal mark or encoding), missing values where the models have no imputation, no row,
the training file itself, more than half its rows training rows (fewer: a note;
:mod:`engine.runs.heldout.shared_rows`).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Optional

import numpy as np
import pandas as pd

from engine.input.csv_values import visible
from engine.input.data_checks import find_column, is_numeric_column, visible_columns
from engine.foundation.errors import EngineError, error_code
from engine.foundation.notes import Note
from engine.input.readers import TEST_KEYS, check_test_block, read_table
from engine.runs.heldout.shared_rows import (check_not_training_file, shared_rows_note,
                                             training_path)

#: The keys of a ``"test"`` block besides the reading options of the file's kind.
@dataclass(frozen=True)
class TestSet:
    """The test rows, prepared like the training rows.

    Attributes
    ----------
    X : pandas.DataFrame
        The training data's feature columns, in its order, as read from the test file.
    y : numpy.ndarray
        Class codes of the training data (``dataset.classes``).
    path : str
        The test file as the experiment names it.
    notes : tuple of Note
    """

    X: pd.DataFrame
    y: np.ndarray
    path: str
    notes: tuple = field(default=())

    @property
    def n_rows(self) -> int:
        return len(self.y)


def test_block(experiment) -> Optional[dict]:
    """The experiment's ``"test"`` block, or None."""
    block = experiment.test
    return dict(block) if block else None


def load_test_set(block: dict, dataset, *, base_dir: str = ".") -> TestSet:
    """Read the test file of ``block`` and check it against ``dataset``.

    Parameters
    ----------
    block : dict
        ``{"file": PATH, ...reading options}`` (``sep``, ``encoding``, ``decimal``,
        ``thousands`` for CSV, ``encoding`` for ARFF, ``sheet`` for Excel).
    dataset : engine.input.data.Dataset
        The training data.
    base_dir : str
        The folder a relative path is relative to (the experiment file's).

    Returns
    -------
    TestSet

    Raises
    ------
    ValueError
        One line saying what is wrong with the test file and what to change.
    """
    kind = check_test_block(block)
    path = block["file"]
    full = path if os.path.isabs(path) else os.path.join(base_dir, path)
    options = {k: v for k, v in block.items() if k not in TEST_KEYS}
    check_not_training_file(full, path, training_path(dataset, base_dir))
    try:
        table = read_table(full, kind=kind, **options)
    except ValueError as exc:
        raise EngineError("heldout_unreadable", {"path": path, "detail": str(exc),
                                                 "cause": error_code(exc)}) from None
    except OSError as exc:
        raise EngineError("heldout_unreadable", {"path": path,
                                                 "detail": str(exc.strerror or exc),
                                                 "cause": ""}) from None
    return test_set_from_frame(table.frame, dataset, path=path)


def test_set_from_frame(frame: pd.DataFrame, dataset, *, path: str = "the test file") -> TestSet:
    """The :class:`TestSet` of a table read from a test file (see :func:`load_test_set`)."""
    frame, _ = visible_columns(frame)
    X = test_features(frame, dataset, path)
    target = _find(frame, dataset.target)
    if target is None:
        raise EngineError("heldout_no_target", {"path": path, "target": dataset.target})
    keep = _has_label(frame[target])
    notes = []
    if not keep.all():
        n_dropped = int((~keep).sum())
        notes.append(Note("rows_dropped", fields={"n_rows": n_dropped, "target": dataset.target,
                                                  "test_file": True}))
    if not keep.any():
        raise EngineError("heldout_no_rows", {"path": path, "target": dataset.target})
    y = test_codes(frame[target][keep], dataset, path)
    X = X.loc[keep].reset_index(drop=True)
    check_imputation(X, dataset, path)
    shared = shared_rows_note(X, y, np.flatnonzero(keep) + 1, dataset, path)
    notes.extend([shared] if shared is not None else [])
    return TestSet(X=X, y=y, path=path, notes=tuple(notes))


def _find(frame: pd.DataFrame, name):
    try:
        return find_column(frame, name)
    except (ValueError, KeyError):
        return None


def _has_label(labels: pd.Series) -> np.ndarray:
    if not is_numeric_column(labels) and not pd.api.types.is_bool_dtype(labels):
        labels = labels.where(labels.isna() | labels.astype(str).str.strip().ne(""), np.nan)
    return labels.notna().to_numpy()


def test_features(frame: pd.DataFrame, dataset, path: str) -> pd.DataFrame:
    """The training data's feature columns of the test table, typed like training's."""
    columns = list(dataset.X.columns)
    found = {column: _find(frame, column) for column in columns}
    missing = [str(c) for c, f in found.items() if f is None]
    if missing:
        raise EngineError("heldout_missing_columns", {"path": path, "columns": missing})
    X = pd.DataFrame({column: frame[found[column]].to_numpy() for column in columns},
                     columns=dataset.X.columns)
    for column in columns:
        X[column] = _typed(X[column], dataset.X[column], column, path)
    return X


def _typed(values: pd.Series, trained: pd.Series, column, path: str) -> pd.Series:
    """``values`` converted like the training column ``trained`` was."""
    if pd.api.types.is_bool_dtype(values):
        values = values.astype("int64")
    if is_numeric_column(trained):
        if not (is_numeric_column(values) or values.isna().all()):
            raise EngineError("heldout_text_column", {"path": path, "column": column})
        values = values.astype(float if pd.api.types.is_float_dtype(trained) or
                               values.isna().any() else trained.dtype)
        if pd.api.types.is_float_dtype(values):
            values = values.where(~np.isinf(values.to_numpy()), np.nan)
        return values
    return values.astype("object")


def test_codes(labels: pd.Series, dataset, path: str) -> np.ndarray:
    """The class codes of the test labels (the training data's), unseen classes refused."""
    classes = list(dataset.classes)
    if all(isinstance(c, (int, float, np.number)) and not isinstance(c, bool)
           for c in classes) and is_numeric_column(labels):
        keys = labels.to_numpy()
        lookup = {c: i for i, c in enumerate(classes)}
    else:
        keys = labels.astype(str).str.strip().map(visible).to_numpy(dtype=object)
        lookup = {str(c): i for i, c in enumerate(classes)}
    codes = np.array([lookup.get(key, -1) for key in keys], dtype=np.intp)
    unseen = sorted({str(k) for k, c in zip(keys, codes) if c < 0})
    if unseen:
        raise EngineError("heldout_unseen_classes", {"path": path, "target": dataset.target,
                                                     "classes": unseen})
    return codes


def check_imputation(X: pd.DataFrame, dataset, path: str) -> None:
    """Refuse missing test values when the models have no imputation (training data of
    plain numbers without a missing value gets the bare estimator)."""
    if not dataset.is_plain_numeric():
        return
    missing = [str(c) for c in X.columns if X[c].isna().any()]
    if missing:
        raise EngineError("heldout_missing_values", {"path": path, "columns": missing})
