"""Rows that belong together: the ``"groups"`` column of a data set and its folds.

Several visits of one patient or several images of one subject must never be split
between a training and a test fold, or the test fold scores a model on people it has
already seen. A data set block may name such a column (``"groups": COLUMN``); it is not
a feature, and every repeat of the cross-validation then uses scikit-learn's
``StratifiedGroupKFold`` (repeat *i* seeded ``random_state + i``), so that a group is
always wholly in the training part or wholly in the test fold. The folds themselves are
made in :mod:`engine.evaluation.splitters` (``RepeatedStratifiedGroupKFold``); this
module reads the column and checks that the groups can make them.
"""
from __future__ import annotations

import re
from typing import Optional, Sequence

import numpy as np
import pandas as pd

from engine.foundation.caller_errors import CallerError
from engine.foundation.errors import EngineError
from engine.foundation.notes import Note

#: Average rows per value for which a repeated column looks like it names groups.
SUGGEST_ROWS_PER_VALUE = (2.0, 50.0)
#: Fewest distinct values of a text column, not named like an identifier, to suggest it.
SUGGEST_MIN_TEXT_VALUES = 20
#: Fewest distinct values of any column to suggest it (fewer groups hardly make folds).
SUGGEST_MIN_VALUES = 5
_ID_WORDS = re.compile(r"(^|[^a-z])(id|ids|subject|subj|patient|participant|person|user|"
                       r"customer|client|animal|individual|household|family|session|site|"
                       r"hospital|school|donor|mouse|speaker|image|identifier|"
                       # matched designs and shared origins: a case-control study's matched
                       # sets (R's infert: "stratum"), twins, batches, litters, centres
                       r"stratum|strata|pair|cluster|batch|litter|herd|clinic|"
                       r"center|centre)([^a-z]|$)", re.IGNORECASE)
_CAMEL_ID = re.compile(r"[a-z](Id|ID)$")
_ID_ONLY = re.compile(r"(^|[^a-z])(id|ids|identifier)([^a-z]|$)", re.IGNORECASE)
#: Fewest rows repeating a value of a column named like an identifier, to suggest it.
SUGGEST_MIN_REPEATS = 5
#: How many different values :func:`looks_like_dates` reads.
DATE_SAMPLE = 50
_DATE_WORDS = re.compile(r"(^|[^a-z])(date|dates|time|datetime|timestamp|day|month|year|week)"
                         r"([^a-z]|$)", re.IGNORECASE)
_CAMEL_DATE = re.compile(r"[a-z](Date|Time|Day|Month|Year)")
_DATE_TEXT = re.compile(
    r"^\s*(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}"
    r"|\d{1,2}[- ][A-Za-z]{3,9}\.?[- ]\d{2,4}|[A-Za-z]{3,9}\.? \d{1,2},? \d{4})?"
    r"([ T]?\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?\s*$")


def group_codes(frame: pd.DataFrame, column, target: str) -> np.ndarray:
    """The group of every row of ``frame``, as codes 0..G-1 in the sorted order of the
    column's values as read (``numpy.unique``'s order).

    scikit-learn's ``StratifiedGroupKFold`` numbers the groups by ``numpy.unique``, and its
    shuffled folds depend on that numbering; codes in the same order make the folds equal
    to ``StratifiedGroupKFold(...).split(X, y, groups=frame[column])`` on the column as
    read (codes in order of first appearance, as ``pandas.factorize`` gives, made other
    folds).

    Parameters
    ----------
    frame : pandas.DataFrame
        The table (the rows without a target already dropped).
    column
        The name of the groups column, as found in ``frame``, or a list of names: the
        pair (centre, id) of an identifier that restarts in each centre (a group per
        different combination).
    target : str
        The target column (it cannot be the groups column).

    Returns
    -------
    ndarray of int

    Raises
    ------
    ValueError
        When the column is the target, or has missing values (naming the first rows).
    """
    if isinstance(column, (list, tuple)):
        parts = [_group_text(frame, c, target) for c in column]
        raw = parts[0].astype(str)
        for part in parts[1:]:
            raw = np.char.add(np.char.add(raw, "\x1f"), part.astype(str))
        _, codes = np.unique(raw, return_inverse=True)
        return codes.reshape(-1).astype(np.intp)
    raw = _group_text(frame, column, target)
    _, codes = np.unique(raw, return_inverse=True)
    return codes.reshape(-1).astype(np.intp)


def _group_text(frame: pd.DataFrame, column, target: str) -> np.ndarray:
    """One groups column's values (text columns as text), checked: not the target, no
    missing value."""
    if column == target:
        raise EngineError("groups_is_target", {"column": column})
    values = frame[column]
    if not pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
        values = values.where(values.isna() | values.astype(str).str.strip().ne(""), np.nan)
    missing = values.isna().to_numpy()
    if missing.any():
        raise EngineError("groups_missing", {
            "column": column, "n_missing": int(missing.sum()),
            "rows": [int(i) + 1 for i in np.flatnonzero(missing)[:5]]})
    return (values.astype(str) if values.dtype == object else values).to_numpy()


def group_suggestions(frame: pd.DataFrame, target, *, skip: Sequence = ()) -> list:
    """Notes suggesting ``"groups"`` for columns that look like identifiers with repeats.

    A column is suggested when it holds text or whole numbers, no missing value, at least
    :data:`SUGGEST_MIN_VALUES` values, at most 50 rows per value on average, and is not a
    date (:func:`looks_like_dates`), and either its name looks like an identifier (id,
    subject, patient, PatientID, or a stratum, pair, batch, ...; :func:`id_like_name`)
    and at least :data:`SUGGEST_MIN_REPEATS` rows repeat a value (the biopsy data's patient ``ID``:
    645 ids for 699 rows), or it is text with at least :data:`SUGGEST_MIN_TEXT_VALUES`
    values and 2 or more rows per value on average. Nothing is changed: the user decides
    whether the rows belong together.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table, with the target column.
    target
        The target column (never suggested).
    skip : sequence
        Columns not to suggest.

    Returns
    -------
    list of Note
        One ``groups_suggested`` note per column; a ``groups_pair_suggested`` note instead
        for an identifier whose values restart within another identifier-like column
        (:func:`restarting_within`).
    """
    notes = []
    for column, dtype in frame.dtypes.items():
        if column == target or column in skip or not _identifier_dtype(dtype):
            continue
        found = _repeated_identifier(frame[column], str(column))
        outer = None if found is None else restarting_within(frame, column, skip=[target, *skip])
        if outer is not None:
            notes.append(_pair_note(frame, outer, column))
        elif found is not None:
            n_values, per_value = found
            notes.append(Note("groups_suggested", fields={
                "column": column, "n_values": n_values,
                "rows_per_value": round(per_value, 2), "n_rows": len(frame)}))
    return notes


def restarting_within(frame: pd.DataFrame, column, *, skip: Sequence = ()):
    """The identifier-like column (a centre, site, hospital: :func:`id_like_name`, whole
    numbers or text, no missing value, 2 or more values, fewer than ``column``) within
    which the values of ``column`` restart: at least half of ``column``'s values occur
    under two or more of its values (patients numbered 1-56 in one centre and 1-55 in
    the other). The one with the fewest values, or None."""
    values = frame[column]
    n_values = int(values.nunique())
    found = []
    for other, dtype in frame.dtypes.items():
        if other == column or other in skip or not _identifier_dtype(dtype) or \
                not id_like_name(str(other)) or frame[other].isna().any():
            continue
        n_outer = int(frame[other].nunique())
        if not 2 <= n_outer < n_values:
            continue
        spread = pd.DataFrame({"o": frame[other].to_numpy(), "v": values.to_numpy()}) \
            .drop_duplicates().groupby("v", sort=False)["o"].size()
        if int((spread >= 2).sum()) >= 0.5 * n_values:
            found.append((n_outer, other))
    return min(found, key=lambda item: item[0])[1] if found else None


def _pair_note(frame: pd.DataFrame, outer, inner) -> Note:
    n_inner = int(frame[inner].nunique())
    n_pairs = len(frame[[outer, inner]].drop_duplicates())
    per_pair = len(frame) / n_pairs
    return Note("groups_pair_suggested",
                fields={"columns": [outer, inner], "n_values": n_inner, "n_pairs": n_pairs,
                 "rows_per_pair": round(per_pair, 2), "n_rows": len(frame)})


def names_an_identifier(name: str) -> bool:
    """Whether a column's name says outright that it holds identifiers: ``ID``, ``ids``,
    ``patient_id``, ``PatientID``, ``identifier`` (narrower than :func:`id_like_name`,
    whose ``family`` or ``site`` can also name classes)."""
    return bool(_ID_ONLY.search(name) or _CAMEL_ID.search(name))


def id_like_name(name: str) -> bool:
    """Whether a column's name says it identifies something (``id``, ``subject``,
    ``patient_id``, ``PatientID``, ``Individual ID``, ...)."""
    return bool(_ID_WORDS.search(name) or _CAMEL_ID.search(name))


def looks_like_dates(values: pd.Series, *, name: str = "") -> bool:
    """Whether a column holds dates or times (never rows that belong together): its name
    says so (date, time, day, month, year, week), or at least 90% of up to
    :data:`DATE_SAMPLE` of its different text values are written as dates or times
    (``2007-11-11``, ``11/11/2007``, ``11-Nov-2007``, ``Nov 11, 2007``, ``12:30``)."""
    if _DATE_WORDS.search(name) or _CAMEL_DATE.search(name):
        return True
    if pd.api.types.is_datetime64_any_dtype(values):
        return True
    if values.dtype != object and not isinstance(values.dtype, pd.StringDtype):
        return False
    distinct = pd.unique(values.dropna().to_numpy())[:DATE_SAMPLE]
    if len(distinct) == 0:
        return False
    dated = sum(_is_date_text(str(v)) for v in distinct)
    return dated >= 0.9 * len(distinct)


def _is_date_text(text: str) -> bool:
    found = _DATE_TEXT.match(text)
    return bool(found and (found.group(1) or found.group(2)))


def _identifier_dtype(dtype) -> bool:
    """Whole numbers or text: the kinds of column an identifier is written in."""
    integer = pd.api.types.is_integer_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)
    return integer or dtype == object or isinstance(dtype, pd.StringDtype)


def _repeated_identifier(values: pd.Series, name: str) -> Optional[tuple]:
    integer = pd.api.types.is_integer_dtype(values) and not pd.api.types.is_bool_dtype(values)
    text = values.dtype == object or isinstance(values.dtype, pd.StringDtype)
    if not (integer or text) or len(values) == 0 or not (text or id_like_name(name)):
        return None                 # a number column is suggested only when named so
    if values.isna().any():
        return None
    n_values = int(values.nunique())
    per_value = len(values) / max(n_values, 1)
    if n_values < SUGGEST_MIN_VALUES or per_value > SUGGEST_ROWS_PER_VALUE[1]:
        return None
    named = id_like_name(name)
    repeated = named and len(values) - n_values >= SUGGEST_MIN_REPEATS
    wordy = text and n_values >= SUGGEST_MIN_TEXT_VALUES and per_value >= SUGGEST_ROWS_PER_VALUE[0]
    if not (repeated or wordy) or looks_like_dates(values, name=name):
        return None
    return n_values, per_value


def identifier_feature_notes(features: pd.DataFrame, *, skip: Sequence = ()) -> list:
    """``identifier_feature`` notes for whole-number columns named like identifiers
    (:func:`id_like_name`) that stay features: a model reads an identifier's numbers as
    amounts (larger, smaller), which they are not.

    Parameters
    ----------
    features : pandas.DataFrame
        The feature columns.
    skip : sequence
        Columns the user chose to keep (``"features"``): no note.
    """
    notes = []
    for column, dtype in features.dtypes.items():
        if column in skip or pd.api.types.is_bool_dtype(dtype) or \
                not pd.api.types.is_integer_dtype(dtype) or not id_like_name(str(column)):
            continue
        values = features[column]
        n_values = int(values.nunique())
        notes.append(Note("identifier_feature",
                          fields={"column": column, "n_values": n_values}))
    return notes


# ----------------------------------------------------------------------------- folds

def check_grouped_folds(y: np.ndarray, groups: np.ndarray, n_splits: int, *, classes=None) -> None:
    """Clear errors for grouped folds the data cannot support.

    Parameters
    ----------
    y, groups : ndarray of int
        Class codes and group codes, one per row.
    n_splits : int
        Folds per repeat.
    classes : sequence, optional
        The class labels by code (for the messages).

    Raises
    ------
    EngineError
        (a ValueError) ``groups_length`` when ``groups`` does not have one value per row,
        ``groups_too_few`` when there are fewer groups than
        folds (every test fold needs a group), ``groups_one_group_class`` when a class
        occurs in only one group
        (whenever that group is tested, the model has never seen the class).
    """
    groups = np.asarray(groups)
    if len(groups) != len(y):
        raise EngineError("groups_length", {"n_values": len(groups), "n_rows": len(y)},
                          f"groups: {len(groups)} values for {len(y)} rows; give one per row")
    n_groups = len(np.unique(groups))
    if n_groups < n_splits:
        raise EngineError("groups_too_few", {"n_groups": n_groups, "n_splits": n_splits,
                                             "possible": max(n_groups, 2)},
                          f"the data has only {n_groups} group(s) of rows that belong "
                          f"together, but {n_splits} folds need at least {n_splits}: lower "
                          f"the number of folds to {max(n_groups, 2)} or fewer, or add data")
    for code, count in enumerate(groups_per_class(y, groups)):
        if count == 1:
            label = repr(str(classes[code])) if classes is not None else f"with code {code}"
            raise EngineError("groups_one_group_class",
                              {"class": str(classes[code]) if classes is not None else code},
                              f"the class {label} occurs in only one group of rows that "
                              "belong together: whenever that group is in the test fold, the "
                              "model has never seen the class; add data of that class from "
                              'other groups, or leave "groups" out')


def groups_per_class(y: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """How many distinct groups hold rows of each class (by class code)."""
    pairs = np.unique(np.column_stack([np.asarray(y), np.asarray(groups)]), axis=0)
    return np.bincount(pairs[:, 0], minlength=int(np.max(y)) + 1)


def grouped_fold_notes(y: np.ndarray, groups: np.ndarray, classes, n_splits: int) -> list:
    """A ``grouped_small_classes`` note when a class occurs in fewer groups than folds
    (some test folds then hold none of it, and scores that need every class in a test
    fold, such as ROC AUC, can be missing there).

    Parameters
    ----------
    y, groups : ndarray of int
    classes : sequence
        The class labels, by code.
    n_splits : int

    Returns
    -------
    list of Note
    """
    fields = small_classes(groups_per_class(y, groups), classes, n_splits)
    return [] if fields is None else [Note("grouped_small_classes", fields=fields)]


#: What a class missing from some test folds does (the end of a small-classes note).
def small_classes(counts, classes, n_splits: int) -> Optional[dict]:
    """The classes whose ``counts`` (by class code: rows, or groups) are below ``n_splits``.

    Returns
    -------
    dict or None
        The note fields ``classes, counts, n_splits``; None when there are none.
    """
    small = [(str(classes[c]), int(n)) for c, n in enumerate(counts) if 0 < n < n_splits]
    if not small:
        return None
    return {"classes": [label for label, _ in small],
            "counts": [n for _, n in small], "n_splits": n_splits}


# ----------------------------------------------------------------------------- inner folds

def fewest_inner_groups(y: np.ndarray, groups: np.ndarray, splits: list) -> tuple:
    """How few groups an outer training part has, for grouped inner folds inside it.

    Parameters
    ----------
    y, groups : ndarray of int
        Class codes and group codes of every row.
    splits : list of (ndarray, ndarray)
        The outer splits.

    Returns
    -------
    (int, int)
        The fewest groups in any outer training part, and the fewest groups holding one
        class in any outer training part (over the classes present in the data).
    """
    y, groups = np.asarray(y), np.asarray(groups)
    classes = np.unique(y)
    fewest_total = fewest_class = None
    for train, _ in splits:
        total = len(np.unique(groups[train]))
        per_class = groups_per_class(y[train], groups[train])
        per_class = np.pad(per_class, (0, max(0, int(classes.max()) + 1 - len(per_class))))
        smallest = int(per_class[classes].min())
        fewest_total = total if fewest_total is None else min(fewest_total, total)
        fewest_class = smallest if fewest_class is None else min(fewest_class, smallest)
    if fewest_total is None or fewest_class is None:
        raise CallerError("argument_missing",
                          "no outer split to count the groups of")  # internal: callers pass splits
    return int(fewest_total), int(fewest_class)
