"""Checks on a table before it becomes a :class:`engine.input.data.Dataset`: column names
made visible and looked up, whether a column could be the class to predict (which one,
when none is named: :mod:`engine.input.target_choice`), which class is the positive one,
and columns that may leak the answer.

Rules
-----
* A sensible target (:func:`target_problem`) has between 2 and
  ``max(20, 5% of rows)`` different values; is not free text (a text column whose
  values are mostly different, or long: a median over 30 characters or 5 words); is not
  a measurement (a number column with fractional values); and has a value in at least
  half of the rows.
* The positive class of two (:func:`positive_class`): the one named; else ``1`` when
  the classes are the numbers 0 and 1; else the smaller class (the second on a tie).
* A possible leak (:func:`leak_notes`), judged only with at least 20 rows, for any
  number of classes: a column that alone predicts the target for at least 99% of the
  rows judged, making at most a tenth of the errors of always guessing the largest
  class. Columns of categories (and number columns with few values), missing counting
  as a value of its own, predict the commonest class of each value; this counts only
  when each value has on average at least 10 rows, so identifiers are not flagged.
  Number columns with many values (judged on their non-missing values, when at least
  90% of the rows have one) predict, with two classes, by the best single cut; else
  (any number of classes) by their order: each row gets the class of the row before it
  in the column's order, the changes of class one per class aside in the 99% (the
  order of a row index in a file sorted by class). At most :data:`LEAK_SAMPLE_ROWS`
  rows are judged (a seeded random sample of larger tables, stated in the note); all
  columns of numbers are sorted at once.
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np
import pandas as pd

from engine.input.csv_values import visible
from engine.foundation.errors import EngineError
from engine.foundation.notes import Note
from engine.input.text_values import distinct_texts, per_row, stripped

MIN_TARGET_CLASSES = 2
MAX_TARGET_CLASSES = 20
MAX_TARGET_CLASS_FRACTION = 0.05
FREE_TEXT_CHARS = 30
FREE_TEXT_WORDS = 5
LEAK_MIN_ROWS = 20
LEAK_ACCURACY = 0.99
LEAK_ERROR_RATIO = 0.1
LEAK_ROWS_PER_VALUE = 10
#: Rows a leak is judged on at most (a seeded random sample of larger tables).
LEAK_SAMPLE_ROWS = 10_000
LEAK_SEED = 0
ORDER_RULE = "sorted by its values, the rows fall into"


def is_numeric_column(column: pd.Series) -> bool:
    """True for a column of numbers (booleans are not numbers here)."""
    return pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)


def max_target_classes(n_rows: int) -> int:
    """The most different values a sensible target may have: ``max(20, 5% of rows)``."""
    return max(MAX_TARGET_CLASSES, int(MAX_TARGET_CLASS_FRACTION * n_rows))


def target_problem(column: pd.Series) -> Optional[str]:
    """Why ``column`` is not a sensible class to predict, in plain words; None if it is.

    Parameters
    ----------
    column : pandas.Series

    Returns
    -------
    str or None
    """
    n_rows = len(column)
    if is_numeric_column(column):
        values = column.dropna()
        values = values[np.isfinite(values.to_numpy(dtype=float))]
        n_present, n_values = len(values), values.nunique()
    else:
        rows, texts = distinct_texts(column)
        texts = stripped(texts)
        present = per_row(rows, texts != "", False)
        rows = rows[present]                 # every distinct value has a row
        n_present, n_values = len(rows), len(set(texts[texts != ""]))
    if n_present < 0.5 * n_rows:
        return f"{n_rows - n_present} of its {n_rows} rows are empty"
    if n_values < MIN_TARGET_CLASSES:
        return "it holds a single value"
    if is_numeric_column(column) and not np.all(np.mod(values.to_numpy(dtype=float), 1) == 0):
        return "it holds measurements (numbers with decimals), not classes"
    if is_numeric_column(column) and float(np.abs(values.to_numpy(dtype=float)).min()) >= 100:
        return "it holds large whole numbers (years, counts or codes), not class labels"
    if not is_numeric_column(column) and not pd.api.types.is_bool_dtype(column):
        if n_present >= 10 and n_values > 0.5 * n_present:
            return "it looks like free text (most of its values are different)"
        if _median_of(rows, [len(t) for t in texts]) > FREE_TEXT_CHARS or \
                _median_of(rows, [len(t.split()) for t in texts]) >= FREE_TEXT_WORDS:
            return "it looks like free text (long sentences)"
    if n_values > max_target_classes(n_rows):
        return f"it has {n_values} different values, too many for classes"
    return None


def _median_of(rows: np.ndarray, per_value: list) -> float:
    """The median over ``rows`` of a number given per distinct value (NaN for no row)."""
    if not len(rows):
        return float("nan")
    return float(np.median(np.asarray(per_value, dtype=float)[rows]))


def positive_class(classes: Sequence, counts: Sequence[int] | np.ndarray,
                   *, pos_label=None) -> tuple:
    """The code of the positive class of a two-class target, and a note saying which.

    Parameters
    ----------
    classes : sequence
        The class labels in code order.
    counts : sequence of int
        Rows per class, in the same order.
    pos_label : optional
        The label asked for, matched as text (``'yes'``) or, for number labels, as a
        number (``1``, ``'1'``, ``1.0``).

    Returns
    -------
    (code, note) : (int or None, Note or None)
        ``(None, None)`` unless there are exactly two classes.

    Raises
    ------
    ValueError
        If ``pos_label`` is not one of the classes, or is given for more than two.
    """
    classes = list(classes)
    if len(classes) != 2:
        if pos_label is not None:
            raise EngineError("pos_label_not_binary", {"classes": classes})
        return None, None
    if pos_label is not None:
        code = _match_label(classes, pos_label)
        if code is None:
            raise EngineError("pos_label_unknown", {"pos_label": pos_label,
                                                    "classes": classes})
        return code, Note("positive_class", fields={"label": classes[code], "reason": "asked"})
    if all(_is_real(c) for c in classes) and sorted(float(c) for c in classes) == [0.0, 1.0]:
        code = [float(c) for c in classes].index(1.0)
        return code, Note("positive_class",
                          fields={"label": classes[code], "reason": "zero_one"})
    code = 1 if counts[1] <= counts[0] else 0
    smaller = counts[0] != counts[1]
    return code, Note("positive_class",
                      fields={"label": classes[code], "reason": "smaller_class" if smaller
                              else "same_size"})


def _is_real(value) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def _match_label(classes: list, wanted) -> Optional[int]:
    text = str(wanted).strip()
    for code, label in enumerate(classes):
        if str(label) == text:
            return code
    try:
        number = float(text)
    except ValueError:
        return None
    for code, label in enumerate(classes):
        if _is_real(label) and float(label) == number:
            return code
    return None


def visible_columns(frame: pd.DataFrame) -> tuple:
    """The table with control characters in its column names written out (``\\t``).

    Parameters
    ----------
    frame : pandas.DataFrame

    Returns
    -------
    (frame, notes) : (pandas.DataFrame, list of Note)
        The same frame and no note when no name holds a control character.
    """
    names, changed = [], []
    for column in frame.columns:
        shown = visible(column) if isinstance(column, str) else column
        if shown != column:
            while shown in names or shown in frame.columns:
                shown += "_"
            changed.append(shown)
        names.append(shown)
    if not changed:
        return frame, []
    frame = frame.copy(deep=False)
    frame.columns = names
    return frame, [Note("control_characters",
                        fields={"what": "column_names", "names": changed})]


def find_column(frame: pd.DataFrame, wanted):
    """The column ``wanted`` names, as written or with its control characters written out.

    Parameters
    ----------
    frame : pandas.DataFrame
    wanted : str
        A column name, as in the file or as shown.

    Returns
    -------
    The column's name in ``frame``.

    Raises
    ------
    ValueError
        Naming the columns, when there is no such column.
    """
    for candidate in (wanted, visible(wanted) if isinstance(wanted, str) else wanted,
                      str(wanted).strip()):
        if candidate in frame.columns:
            return candidate
    raise EngineError("column_unknown", {"column": wanted,
                                         "columns": [str(c) for c in frame.columns]})


def find_columns(frame: pd.DataFrame, wanted: Sequence) -> list:
    """The columns to leave out, found as by :func:`find_column` (a ValueError names any
    that are missing)."""
    found, missing = [], []
    for column in wanted:
        try:
            found.append(find_column(frame, column))
        except ValueError:
            missing.append(column)
    if missing:
        raise EngineError("columns_missing", {"wanted": list(missing), "role": "leave_out",
                                              "columns": [str(c) for c in frame.columns]})
    return list(dict.fromkeys(found))


def leak_notes(features: pd.DataFrame, codes: np.ndarray, target: str, *,
               left_out: Optional[pd.DataFrame] = None) -> list:
    """Warnings about columns that alone predict the target (almost) perfectly.

    Any number of classes; columns of numbers or text (see the module's rules). With more
    than :data:`LEAK_SAMPLE_ROWS` rows the columns are judged on a random sample of that
    many rows (seeded, the same on every load), and the note says so.

    Parameters
    ----------
    features : pandas.DataFrame
        The feature columns, one row per entry of ``codes``.
    codes : numpy.ndarray
        Class codes 0..K-1.
    target : str
        The target's name, for the notes.
    left_out : pandas.DataFrame, optional
        Columns the user left out, one row per entry of ``codes``: judged too, their
        notes say they are left out (so that a screen can still mark them).

    Returns
    -------
    list of Note
        Code ``possible_leak``, fields ``column``, ``target``, ``share`` (percent of the
        rows judged predicted right), ``rule`` (how the column predicts), ``rows_judged``,
        ``n_rows`` and ``left_out``.
    """
    codes = np.asarray(codes)
    n_rows = len(codes)
    if n_rows < LEAK_MIN_ROWS:
        return []
    rows = judged_rows(n_rows)
    y = codes[rows]
    n_classes = int(codes.max()) + 1
    notes = []
    for frame, out in ((features, False), (left_out, True)):
        if frame is None or frame.shape[1] == 0:
            continue
        sample = frame.iloc[rows]
        for name, (errors, judged, present, how) in _rule_errors(sample, y, n_classes).items():
            counts = np.bincount(y[present], minlength=n_classes)
            baseline = judged - int(counts.max())
            slack = int(np.count_nonzero(counts)) - 1 if how.startswith(ORDER_RULE) else 0
            if errors - slack <= (1 - LEAK_ACCURACY) * judged and \
                    errors <= LEAK_ERROR_RATIO * baseline:
                notes.append(_leak_note(name, target, 100.0 * (judged - errors) / judged, how,
                                        len(rows), n_rows, out))
    return notes


def judged_rows(n_rows: int) -> np.ndarray:
    """The rows a leak is judged on: all of them in a seeded random order, or a seeded
    random sample of :data:`LEAK_SAMPLE_ROWS` (random order, so that rows of equal value
    keep no order of the file, which may be sorted by class)."""
    rng = np.random.default_rng(LEAK_SEED)
    if n_rows <= LEAK_SAMPLE_ROWS:
        return rng.permutation(n_rows)
    return rng.choice(n_rows, LEAK_SAMPLE_ROWS, replace=False)


def _leak_note(name, target: str, share: float, how: str, judged: int, n_rows: int,
               left_out: bool) -> Note:
    return Note("possible_leak",
                fields={"column": name, "target": target, "share": share, "rule": how,
                 "rows_judged": judged, "n_rows": n_rows, "left_out": left_out})


def _rule_errors(sample: pd.DataFrame, y: np.ndarray, n_classes: int) -> dict:
    """Column -> (errors, rows judged, rows judged as a mask, description) of the best
    simple rule on each column of ``sample`` (columns without a rule left out)."""
    n_rows = len(y)
    numeric = [c for c, dtype in sample.dtypes.items()
               if pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)]
    found = {}
    if numeric:
        block = np.ascontiguousarray(
            (sample if len(numeric) == sample.shape[1] else sample[numeric])
            .to_numpy(dtype=float).T)                    # a row per column
        order = np.argsort(block, axis=1)                # NaN last; ties in random row order
        values = np.take_along_axis(block, order, axis=1)
        many = _distinct_counts(values) > max_target_classes(n_rows)
        for j in np.flatnonzero(~many):
            found[numeric[j]] = _category_rule(sample[numeric[j]], y, n_classes)
        if many.any():
            rules = _order_rules(values[many], order[many], y, n_classes)
            found.update(zip((numeric[j] for j in np.flatnonzero(many)), rules))
    for column in sample.columns:
        if column not in found and column not in numeric:
            found[column] = _category_rule(sample[column], y, n_classes)
    return {c: rule for c, rule in found.items() if rule is not None}


def _distinct_counts(values: np.ndarray) -> np.ndarray:
    """Different values of each row of ``values`` (sorted, NaN last), missing counting as
    one."""
    present = ~np.isnan(values)
    changes = (np.diff(values, axis=1) != 0) & present[:, 1:]
    return changes.sum(axis=1) + present[:, 0].astype(int) + (~present).any(axis=1)


def _category_rule(column: pd.Series, y: np.ndarray, n_classes: int):
    """Each value (missing one of its own) predicts its commonest class; only with at least
    :data:`LEAK_ROWS_PER_VALUE` rows per value on average."""
    n_rows = len(y)
    keys, uniques = pd.factorize(column.to_numpy(dtype=object) if column.dtype == object
                                 else column.to_numpy(), use_na_sentinel=False)
    n_values = len(uniques)
    if n_values > n_rows / LEAK_ROWS_PER_VALUE:
        return None
    table = np.bincount(keys * n_classes + y, minlength=n_values * n_classes)
    errors = n_rows - int(table.reshape(-1, n_classes).max(axis=1).sum())
    return errors, n_rows, np.ones(n_rows, dtype=bool), \
        f"each of its {n_values} values goes with one class in nearly every row"


def _order_rules(values: np.ndarray, order: np.ndarray, y: np.ndarray,
                 n_classes: int) -> list:
    """The rules of number columns with many values, all columns at once (``values``: one
    sorted column per row, NaN last; ``order``: the rows in that order): with two
    classes the best single cut; else (or when no cut is good), each row predicted by the
    class of the row before it in the column's order. Judged on the non-missing values,
    when at least 90% of the rows have one."""
    n_columns, n_rows = values.shape
    classes = y[order]
    n_present = (~np.isnan(values)).sum(axis=1)
    cuts = _best_cuts(values, classes, n_present) if n_classes == 2 else None
    pairs = np.arange(n_rows - 1)[None, :] < (n_present - 1)[:, None]
    changes = ((classes[:, 1:] != classes[:, :-1]) & pairs).sum(axis=1)
    rules: list[Optional[tuple]] = []
    for j in range(n_columns):
        m = int(n_present[j])
        if m < 0.9 * n_rows or m < 2:
            rules.append(None)
            continue
        present = np.zeros(n_rows, dtype=bool)
        present[order[j, :m]] = True
        if cuts is not None and cuts[0][j] <= (1 - LEAK_ACCURACY) * m:
            rules.append((int(cuts[0][j]), m, present,
                          f"a single cut near {cuts[1][j]:.4g} separates the two classes"))
            continue
        runs = int(changes[j]) + 1
        rules.append((int(changes[j]), m, present,
                      f"{ORDER_RULE} {runs} runs of one class ({n_classes} classes): each row "
                      f"but {int(changes[j])} has the class of the row before it"))
    return rules


def _best_cuts(values: np.ndarray, classes: np.ndarray, n_present: np.ndarray) -> tuple:
    """(errors, cut value) of the best single cut of each sorted column (two classes; one
    column per row)."""
    n_columns, n_rows = values.shape
    position = np.arange(n_rows + 1)[None, :]
    inside = position[:, :-1] < n_present[:, None]
    ones = np.zeros((n_columns, n_rows + 1))
    np.cumsum((classes == 1) & inside, axis=1, out=ones[:, 1:])
    zeros = np.minimum(position, n_present[:, None]) - ones
    total1, total0 = ones[:, -1:], zeros[:, -1:]
    errors = np.minimum(ones + (total0 - zeros),        # class 0 below the cut, class 1 above
                        zeros + (total1 - ones))
    between = np.zeros((n_columns, n_rows + 1), dtype=bool)
    between[:, 1:n_rows] = values[:, 1:] != values[:, :-1]
    valid = (position == 0) | (position == n_present[:, None]) | \
        (between & (position < n_present[:, None]))
    errors = np.where(valid, errors, np.inf)
    cut = np.argmin(errors, axis=1)
    columns = np.arange(n_columns)
    low = values[columns, np.maximum(cut - 1, 0)]
    high = values[columns, np.minimum(cut, n_rows - 1)]
    at = np.where(cut == 0, values[:, 0], np.where(cut >= n_present, low, (low + high) / 2))
    return errors[columns, cut], at
