"""Datasets: the built-in examples and CSV files, with a note of what was done to them
(ARFF files and Excel workbooks, and an experiment's ``dataset`` block:
:mod:`engine.input.readers`).

A :class:`Dataset` holds the feature table exactly as read (categorical columns stay
text, missing values stay missing) and the target as class codes. Encoding and
imputation happen later, inside each model's pipeline, fitted on the training fold
only (see :func:`engine.evaluation.catalogue.make_pipeline`).
"""
from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

import numpy as np
import pandas as pd

from engine.foundation.machine import available_memory
from engine.input.csv_bounds import Bound, ReadStopped, header_width
from engine.input.csv_values import (PANDAS_EXTRA_NA, check_read_options, check_text,
                                     choose_encoding, parse_text_columns, read_or_explain, visible)
from engine.input.data_checks import (find_column, find_columns, is_numeric_column,
                                      leak_notes, positive_class, visible_columns)
from engine.foundation.errors import EngineError, error_fields
from engine.input.groups import group_codes, group_suggestions, identifier_feature_notes
from engine.input.file_checks import (check_builtin_request, check_file_fits, check_regular_file,
                                      check_values_fit)
from engine.input.index_columns import index_columns, index_note
from engine.input.row_ids import check_id_column, dataset_ids, row_name_column
from engine.input.text_values import distinct_texts, per_row, stripped
from engine.input.imbalance import imbalance_note
from engine.input.target_choice import choose_target, outcome_companions
from engine.foundation.notes import Note
from engine.input.text_lengths import check_label_lengths, check_text_lengths

#: Built-in data sets: name -> (description, generator options with their defaults).
BUILTINS: dict[str, tuple[str, dict[str, Any]]] = {
    "moons": ("Two interleaving half circles (scikit-learn make_moons)",
              {"n_samples": 100, "noise": 0.352, "random_state": 1}),
    "circles": ("A large circle containing a smaller one (make_circles)",
                {"n_samples": 200, "noise": 0.1, "factor": 0.5, "random_state": 0}),
    "classification": ("A random n-class problem (make_classification)",
                       {"n_samples": 500, "n_features": 10, "n_informative": 4,
                        "n_classes": 2, "random_state": 0}),
    "breast_cancer": ("Wisconsin breast cancer, 569 x 30, two classes", {}),
    "iris": ("Iris flowers, 150 x 4, three classes", {}),
    "wine": ("Wine cultivars, 178 x 13, three classes", {}),
    "digits": ("Hand-written digits, 1797 x 64, ten classes", {}),
}

CATEGORICAL_LEVEL_WARNING = 50


@dataclass(frozen=True)
class Dataset:
    """A table of features and a classification target.

    Attributes
    ----------
    name : str
        Short name shown to the user.
    X : pandas.DataFrame
        Feature columns as read (numeric and categorical; may hold missing values).
    y : numpy.ndarray
        Class codes 0..K-1, one per row.
    classes : tuple
        The class labels, in code order (``classes[y[i]]`` is row i's label).
    target : str
        Name of the target column.
    notes : tuple of Note
        Plain-language notes of what was done while loading (:mod:`engine.foundation.notes`:
        ``str(note)`` is the sentence, ``note.code`` and ``note.fields`` what it is about).
    source : dict
        How to load it again: the ``dataset`` entry of an experiment file.
    pos_label : int or None
        With exactly two classes, the code (index into ``classes``) of the positive
        class, the one that precision, recall, F1 and the ROC curve are about; None
        otherwise.
    groups : ndarray of int or None
        With a ``"groups"`` column (rows that belong together, such as the visits of one
        patient; :mod:`engine.input.groups`): the group code of every row, 0..G-1; its column,
        not a feature, is ``source["groups"]``. None otherwise.
    ids : pandas.Series or None
        What names each row (indexed 0..n-1 like ``y``): the ``"id_column"``, else the
        row-name column left out, else the 1-based row of the file
        (:mod:`engine.input.row_ids`); None for a built-in data set (its 1-based rows).
    left_out : pandas.DataFrame or None
        The columns the block's ``"exclude"`` / ``"drop"`` left out of the model (not the
        target, groups or id column), indexed 0..n-1 like ``y``: subgroups may be made
        of them (:mod:`engine.evaluation.subgroups`). None when there are none.
    """

    name: str
    X: pd.DataFrame
    y: np.ndarray
    classes: tuple
    target: str = "target"
    notes: tuple = ()
    source: dict = field(default_factory=dict)
    pos_label: Optional[int] = None
    groups: Optional[np.ndarray] = None
    ids: Optional[pd.Series] = None
    left_out: Optional[pd.DataFrame] = field(default=None, compare=False, repr=False)

    @property
    def n_rows(self) -> int:
        return len(self.y)

    @property
    def categorical_columns(self) -> list:
        return [c for c in self.X.columns if not is_numeric_column(self.X[c])]

    @property
    def numeric_columns(self) -> list:
        return [c for c in self.X.columns if is_numeric_column(self.X[c])]

    @property
    def n_missing(self) -> int:
        return int(self.X.isna().sum().sum())

    def class_counts(self) -> pd.Series:
        """Rows per class, indexed by class label."""
        counts = np.bincount(self.y, minlength=len(self.classes))
        return pd.Series(counts, index=[str(c) for c in self.classes], name="rows")

    def is_plain_numeric(self) -> bool:
        """True when every feature is numeric and nothing is missing."""
        return not self.categorical_columns and self.n_missing == 0


def load_builtin(name: str, **options) -> Dataset:
    """Load or generate one of the built-in data sets (no network needed).

    Parameters
    ----------
    name : str
        One of :data:`BUILTINS`.
    **options
        Generator options (``n_samples``, ``noise``, ``random_state``, ...) for the
        generated data sets; the shipped ones take none.

    Returns
    -------
    Dataset
        With two classes the positive class is the second one (code 1), as scikit-learn
        takes it: 1 for the generated data sets, 'benign' for breast_cancer, so that
        published figures stay the same.
    """
    if name not in BUILTINS:
        raise EngineError("builtin_unknown", {"name": name, "builtins": list(BUILTINS)})
    defaults = BUILTINS[name][1]
    unknown = sorted(set(options) - set(defaults))
    if unknown:
        raise EngineError("builtin_options", {"name": name, "options": unknown,
                                              "allowed": list(defaults)})
    opts = {**defaults, **options}
    check_builtin_request(name, opts)             # before generating: no MemoryError
    X, y, columns, labels = _make_builtin(name, opts)
    frame = pd.DataFrame(X, columns=columns)
    source = {"builtin": name, **opts}
    notes: tuple[Note, ...] = (Note("builtin_data", fields={
        "name": name, "description": BUILTINS[name][0]}),)
    pos_label = None
    if len(labels) == 2:
        pos_label = 1
        notes += (Note("positive_class", fields={"label": labels[1], "reason": "second_class"}),)
    imbalance = imbalance_note(np.bincount(y, minlength=len(labels)), labels)
    notes += (imbalance,) if imbalance else ()
    return Dataset(name=name, X=frame, y=np.asarray(y, dtype=np.intp), classes=tuple(labels),
                   target="target", notes=notes, source=source, pos_label=pos_label)


def _make_builtin(name: str, opts: dict):
    from sklearn import datasets as skd

    if name in ("moons", "circles", "classification"):
        maker = {"moons": skd.make_moons, "circles": skd.make_circles,
                 "classification": skd.make_classification}[name]
        try:
            X, y = maker(**opts)
        except (TypeError, ValueError) as exc:
            raise EngineError("builtin_generator", {"name": name, "detail": str(exc)}) from None
        columns = [f"x{i + 1}" for i in range(X.shape[1])]
        return X, y, columns, list(range(int(y.max()) + 1))
    loader = {"breast_cancer": skd.load_breast_cancer, "iris": skd.load_iris,
              "wine": skd.load_wine, "digits": skd.load_digits}[name]
    bunch = loader()
    columns = [str(c) for c in bunch.feature_names]
    return bunch.data, bunch.target, columns, [str(c) for c in bunch.target_names]


# ----------------------------------------------------------------------------- CSV

def read_csv_table(path: str, sep: Optional[str] = None, encoding: Optional[str] = None,
                   nrows: Optional[int] = None, *, decimal: Optional[str] = None,
                   thousands: Optional[str] = None) -> tuple:
    """Read a CSV file, detecting its encoding, separator and way of writing numbers.

    Parameters
    ----------
    path : str
        The file.
    sep, encoding : str, optional
        Override the detection.
    nrows : int, optional
        Read only this many data rows.
    decimal : {'.', ','}, optional
        The decimal mark; detected when not given (a decimal comma only when the
        separator is not a comma).
    thousands : str, optional
        The thousands separator (``''`` for none; ``'.'`` implies a decimal comma and
        ``','`` a decimal point); when not given, digits grouped in threes by a comma,
        dot (in decimal-comma files), space or apostrophe are read.

    Raises
    ------
    ValueError
        One line that says what is wrong and what to change: not a regular file (a FIFO,
        device or folder is never opened), larger than the memory available, binary
        (named when its signature is known), comment lines before the header, rows with
        more cells than the header, a quote that never closes, bytes not in the given
        encoding (:mod:`engine.input.csv_values`, :mod:`engine.input.file_checks`).

    Returns
    -------
    (frame, notes) : (pandas.DataFrame, list of Note)
        Number columns as numbers, missing markers (empty and blank cells, ``?``,
        ``NA``, ``N/A``, ``null``, ``-`` ...) as missing values, the surrounding spaces
        of text cells removed; the notes say what was detected and changed. The rules
        are those of :mod:`engine.input.csv_values` (a column with a few stray text cells
        becomes numbers, its stray cells missing and listed by line of the file).
    """
    _check_number_format(decimal, thousands)
    check_read_options(sep, encoding)
    if decimal is None and thousands in (",", "."):
        decimal = "," if thousands == "." else "."
    size = check_regular_file(path, what="a CSV file")
    check_file_fits(path, size)
    with open(path, "rb") as handle:
        head = handle.read(64 * 1024)
    encoding, notes = choose_encoding(path, head, encoding=encoding)
    text = head.decode(encoding, errors="replace")
    if not text.strip("\ufeff \t\r\n"):
        raise EngineError("file_empty", {"path": str(path)})
    check_text(path, text)
    if sep is None:
        sep = _detect_separator(text)
        shown = _SEP_NAMES.get(sep, repr(sep))
        notes.append(Note("separator", fields={"separator": sep, "name": shown}))
    check_values_fit(path, _values_estimate(text, sep, len(head), size), CSV_COPIES,
                     "use a sample of its rows or a computer with more memory",
                     how="estimated from its first lines")
    bound = _read_bound(path, sep, encoding, text, size)
    options = dict(sep=sep, encoding=encoding, nrows=nrows, skipinitialspace=True)
    frame = read_or_explain(path, options, notes=notes, bound=bound, na_values=PANDAS_EXTRA_NA)
    frame.columns = unique_names([str(c).strip().lstrip("\ufeff").strip()
                                  for c in frame.columns])
    if frame.shape[1] < 2:
        raise EngineError("one_column", {"path": str(path)})
    if len(frame) == 0:
        raise EngineError("data_no_rows", {"path": str(path), "kind": "csv"})
    check_text_lengths(frame)
    frame, more = parse_text_columns(
        frame, sep, decimal=decimal, thousands=thousands,
        raw_text=lambda: read_or_explain(path, options, bound=bound, dtype=str,
                                         keep_default_na=False))
    return frame, notes + more


def _read_bound(path: str, sep: str, encoding: str, head: str, size: int) -> Optional[Bound]:
    """The bound of reading the file: its header's width against the memory available
    (:mod:`engine.input.csv_bounds`: counted while pandas reads, not from its start), or
    None when the file is too small to pass it (a row a byte would still fit)."""
    try:
        width = header_width(path, sep, encoding, head=head)
    except ReadStopped as exc:
        raise EngineError("read_stopped", {"path": str(path), **exc.fields}) from None
    bound = Bound(width, available_memory(), CSV_COPIES)
    return bound if bound.can_pass(size) else None


#: A CSV file's table is held about this many times while it is read (pandas' columns,
#: then the typed ones; text columns once more as read).
CSV_COPIES = 2


def _values_estimate(text: str, sep: str, head_bytes: int, size: int) -> float:
    """The values of a whole CSV file, estimated from its first ``head_bytes`` bytes
    (decoded: ``text``): cells per byte there times the file's size."""
    if sep == "\\s+":
        cells = len(re.findall(r"\S+", text))
    else:
        cells = text.count(sep) + text.count("\n") + 1
    return cells * size / max(1, head_bytes)


def unique_names(names: list) -> list:
    """Column names made unique as pandas does when it reads a file (``a``, ``a.1``, ...):
    names that differ only by surrounding spaces or invisible characters become equal
    once stripped, and a table cannot have two columns of one name."""
    seen, unique = set(names), []
    for name in names:
        if name in unique:
            number = 1
            while f"{name}.{number}" in seen:
                number += 1
            name = f"{name}.{number}"
            seen.add(name)
        unique.append(name)
    return unique


def _check_number_format(decimal, thousands) -> None:
    if decimal not in (None, ".", ","):
        raise EngineError("decimal_option", {"decimal": decimal})
    if thousands is not None and thousands not in ("", ",", ".", " ", "'", "\u00a0"):
        raise EngineError("thousands_option", {"thousands": thousands})
    if thousands and thousands == decimal:
        raise EngineError("thousands_is_decimal", {"thousands": thousands})


_SEP_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "vertical bar"}


def _detect_separator(text: str) -> str:
    lines = [line for line in text.splitlines()[:50] if line.strip()]
    plain = _only_separator(lines)
    if plain is not None:
        return plain
    sample = "\n".join(lines)
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        counts = {sep: sum(line.count(sep) for line in lines) for sep in ",;\t|"}
        return max(counts, key=counts.__getitem__)


def _only_separator(lines: list) -> Optional[str]:
    """The one separator of lines without quotes in which exactly one of comma, semicolon,
    tab and vertical bar occurs, the same number of times on every line (what the sniffer
    would find, without its cost); None otherwise."""
    if len(lines) < 2 or any('"' in line or "'" in line for line in lines):
        return None
    found = [sep for sep in ",;\t|" if sep in lines[0]]
    if len(found) != 1:
        return None
    sep = found[0]
    count = lines[0].count(sep)
    others = ",;\t|".replace(sep, "")
    if all(line.count(sep) == count and not any(o in line for o in others) for line in lines):
        return sep
    return None


def source_record(source: dict, given: dict, *, drop=(), exclude=(), features=()) -> dict:
    """A data set's record of how it was read: ``source`` (the file), then the options
    ``given`` that are not None, then the column lists that are not empty.

    Parameters
    ----------
    source : dict
        ``{"csv": path}`` or ``{"file": path}``.
    given : dict
        Option name -> value (None: not given, left out).
    drop, exclude, features : sequence of str

    Returns
    -------
    dict
    """
    record = {**source, **{key: value for key, value in given.items() if value is not None}}
    for key, columns in (("drop", drop), ("exclude", exclude), ("features", features)):
        if columns:
            record[key] = list(columns)
    return record


def load_csv(path: str, target: Optional[str] = None, sep: Optional[str] = None,
             encoding: Optional[str] = None, drop: Sequence[str] = (), *,
             exclude: Sequence[str] = (), decimal: Optional[str] = None,
             thousands: Optional[str] = None, pos_label=None,
             groups: Optional[str] = None, features: Sequence[str] = (),
             id_column: Optional[str] = None) -> Dataset:
    """Load a CSV file as a classification data set.

    Parameters
    ----------
    path : str
        The file. Encoding (UTF-8, latin-1, UTF-16 with or without a byte order mark,
        UTF-32 with one), separator (comma, semicolon, tab, vertical bar) and decimal
        mark are detected unless given.
    target : str, optional
        The column to predict; without it, only a column that alone qualifies by the
        rule of :mod:`engine.input.target_choice` (see :func:`dataset_from_frame`).
    sep, encoding : str, optional
        Override the detection.
    drop, exclude : sequence of str
        Columns to leave out (identifiers, leaks); the two mean the same.
    decimal, thousands : str, optional
        How numbers are written (see :func:`read_csv_table`).
    pos_label : optional
        The positive class of a two-class target (see :func:`dataset_from_frame`).
    groups : str, optional
        The column saying which rows belong together (see :func:`dataset_from_frame`).
    features : sequence of str
        Columns kept as features although they look like an index (see
        :func:`dataset_from_frame`).
    id_column : str, optional
        The column naming each row (see :func:`dataset_from_frame`).

    Returns
    -------
    Dataset
    """
    frame, notes = read_csv_table(path, sep=sep, encoding=encoding, decimal=decimal,
                                  thousands=thousands)
    given = {"target": target, "sep": sep, "encoding": encoding, "decimal": decimal,
             "thousands": thousands, "pos_label": pos_label, "groups": groups,
             "id_column": id_column}
    source = source_record({"csv": path}, given, drop=drop, exclude=exclude, features=features)
    name = os.path.splitext(os.path.basename(path))[0]
    return _checked_dataset(frame, target, name=name, drop=drop, exclude=exclude,
                            pos_label=pos_label, notes=notes, source=source, groups=groups,
                            features=features, class_order=None, id_column=id_column)


def dataset_from_frame(frame: pd.DataFrame, target: Optional[str] = None, *, name: str = "data",
                       drop: Sequence[str] = (), notes: Sequence[str] = (),
                       source: Optional[dict] = None, exclude: Sequence[str] = (),
                       pos_label=None, class_order: Optional[dict] = None,
                       groups=None, features: Sequence[str] = (),
                       id_column: Optional[str] = None) -> Dataset:
    """Make a :class:`Dataset` from a table and the name of its target column.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table (for a CSV file, as :func:`read_csv_table` returns it).
    target : str, optional
        The column to predict. When not given, a column is used only when it alone
        qualifies (:func:`engine.input.target_choice.choose_target`: the one candidate
        named ``target``, ``class``, ``label``, ``y`` or ``outcome``, or the only column
        that looks like classes), with a note; otherwise an ``EngineError``
        (``target_not_named``) lists the candidates, best first.
    name : str
        Short name of the data set.
    drop, exclude : sequence of str
        Columns to leave out; the two mean the same.
    notes : sequence of Note
        Notes so far (from reading the file); plain strings are kept as they are.
    source : dict, optional
        How to load it again, stored in :attr:`Dataset.source`.
    pos_label : optional
        The positive class of a two-class target, matched against the labels as text or,
        for number labels, as a number. By default 1 when the classes are 0 and 1, else
        the smaller class (the second on a tie). A ValueError if it is not one of the
        classes, or if there are more than two classes.
    class_order : dict, optional
        Column name -> its declared values (an ARFF file's nominal attributes): when the
        target is one of them, its classes keep that order (values without a row are
        left out, with a note) instead of being sorted.
    groups : str, optional
        The column saying which rows belong together (several rows of one patient or
        subject): not a feature, never missing, kept as :attr:`Dataset.groups`, and the
        folds never split a group (:mod:`engine.input.groups`). A list of columns names a
        group by their combination (``["centre", "id"]``: ids that restart in each
        centre). Without it, columns that look like identifiers with repeated values get
        a ``groups_suggested`` note (``groups_pair_suggested`` for such a pair).
    features : sequence of str
        Columns that stay features whatever the loader's own checks say: an index-like
        column (row numbers, ``Unnamed: 0``, ``rownames``, unique ``id`` numbers;
        :mod:`engine.input.index_columns`) or an identifier-like text column is otherwise left
        out, with a note (unless no other column could be a feature). The other columns
        are features as usual.
    id_column : str, optional
        The column naming each row (an ID, R's row names): not a feature, kept as
        :attr:`Dataset.ids`; it may not be the target nor in ``features``. Without it the
        ids are the row-name column left out, else the 1-based rows of the file
        (:mod:`engine.input.row_ids`).

    Returns
    -------
    Dataset

    Notes
    -----
    Rows with a missing target are dropped, index-like columns (row numbers and
    identifiers written as a column), identifier-like text columns (a different
    value in every row) and empty columns are left out, infinite numbers (``inf``,
    ``-inf``) in features count as missing values (imputed like them inside each
    model), control characters in column names and class labels are written out
    (``\\t``), and columns that alone predict the target almost perfectly are reported
    as possible leaks (:func:`engine.input.data_checks.leak_notes`); each step is noted.
    """
    check_text_lengths(frame)
    return _checked_dataset(frame, target, name=name, drop=drop, notes=notes, source=source,
                            exclude=exclude, pos_label=pos_label, class_order=class_order,
                            groups=groups, features=features, id_column=id_column)


def _checked_dataset(frame: pd.DataFrame, target, *, name, drop, notes, source, exclude,
                     pos_label, class_order, groups, features, id_column=None) -> Dataset:
    """:func:`dataset_from_frame` of a table whose text lengths are checked (a CSV file's,
    by :func:`read_csv_table`: its cells are only stripped after the check)."""
    notes = list(notes)
    frame, more = visible_columns(frame)
    notes.extend(more)
    left_out = find_columns(frame, [*drop, *exclude])
    kept = _kept_columns(frame, features, left_out)
    group_columns = ([] if groups is None else [find_column(frame, c) for c in
                                                 ([groups] if isinstance(groups, str) else groups)])
    if target is None:
        target, note = choose_target(frame, excluded=[*left_out, *group_columns])
        notes.append(note)
    else:
        target = find_column(frame, target)
    for group_column in group_columns or [None]:
        _check_kept(kept, target, group_column)
    if id_column is not None:
        id_column = find_column(frame, id_column)
        check_id_column(id_column, target, kept)
        left_out = [*left_out, id_column]
    candidates = [c for c in frame.columns if c not in {target, *group_columns, *left_out, *kept}]
    indexes = index_columns(frame, candidates)
    if len(indexes) == len(candidates):
        indexes = {}                  # nothing else to learn from: kept (the leak check speaks)
    labels = frame[target]
    check_label_lengths(labels, str(target))
    if not is_numeric_column(labels) and not pd.api.types.is_bool_dtype(labels):
        labels = labels.where(~_blank_texts(labels), np.nan)
    keep = labels.notna().to_numpy()
    file_rows = np.flatnonzero(keep) + 1
    if not keep.all():
        n_dropped = int((~keep).sum())
        notes.append(Note("rows_dropped", fields={"n_rows": n_dropped, "target": target,
                                                  "test_file": False}))
        frame = frame.loc[keep]
        labels = labels.loc[keep]
    codes_of_groups = (None if not group_columns else group_codes(
        frame, group_columns[0] if isinstance(groups, str) else group_columns, str(target)))
    if not group_columns:
        notes.extend(group_suggestions(frame, target, skip=list(indexes)))
    note = index_note(indexes)
    if note is not None:
        notes.append(note)
    features = frame.drop(columns=list(dict.fromkeys(
        [target, *left_out, *indexes, *group_columns])))
    features, more = _tidy_features(features, kept)
    notes.extend(more)
    ids = dataset_ids(frame, id_column if id_column is not None else row_name_column(
        list(frame.columns), [*indexes, *_identifier_columns(more)]), file_rows)
    if features.shape[1] == 0:
        raise EngineError("no_features")
    order = (class_order or {}).get(target)
    classes, codes, more = _encode_labels(labels, order, str(target))
    notes.extend(more)
    if len(classes) < 2:
        raise EngineError("target_one_class", {"target": target,
                                               "classes": list(classes)})
    if len(classes) > 0.5 * len(codes) and len(codes) > 20:
        raise EngineError("target_not_classes", {"target": target, "n_classes": len(classes),
                                                 "n_rows": len(codes)})
    positive, note = positive_class(classes, np.bincount(codes, minlength=len(classes)),
                                    pos_label=pos_label)
    if note:
        notes.append(note)
    note = imbalance_note(np.bincount(codes, minlength=len(classes)), classes)
    if note:
        notes.append(note)
    features = one_block(_numbered_from_zero(features))
    excluded = [c for c in left_out if c not in (target, id_column) and c not in group_columns]
    notes.extend(leak_notes(features, codes, str(target),
                            left_out=frame[excluded].reset_index(drop=True) if excluded else None))
    notes.extend(outcome_companions(list(features.columns), target))
    notes.extend(outcome_companions(excluded, target, left_out=True))
    notes.extend(identifier_feature_notes(features, skip=kept))
    cats = [c for c, dtype in features.dtypes.items() if not _is_number_dtype(dtype)]
    if cats:
        notes.append(Note("one_hot_encoded", fields={"columns": cats}))
    n_missing = int(features.isna().sum().sum())
    if n_missing:
        notes.append(Note("missing_imputed", fields={"n_missing": n_missing}))
    return Dataset(name=name, X=features, y=codes, classes=tuple(classes),
                   target=str(target), notes=tuple(notes), source=dict(source or {}),
                   pos_label=positive, groups=codes_of_groups, ids=ids,
                   left_out=frame[excluded].reset_index(drop=True) if excluded else None)


def _identifier_columns(notes: list) -> list:
    """The identifier-like text columns :func:`_tidy_features` left out (from its note)."""
    return [c for note in notes if note.code == "identifier_columns_left_out"
            for c in note.fields["columns"]]


def one_block(features: pd.DataFrame) -> pd.DataFrame:
    """The same table with its columns in one float64 array, when every column is float64.

    Parameters
    ----------
    features : pandas.DataFrame

    Returns
    -------
    pandas.DataFrame
        Equal to ``features`` (columns, index, dtypes, values). When all columns are
        float64 they share one 2-D array, so ``to_numpy(dtype=float)`` (the matrix every
        fit takes its rows from, :func:`engine.evaluation.cv.feature_matrix`) is a view of it, not a
        second copy of the data; other tables are returned as they are.
    """
    if features.shape[1] < 2 or not all(dtype == np.float64 for dtype in features.dtypes):
        return features
    return pd.DataFrame(features.to_numpy(dtype=np.float64), index=features.index,
                        columns=features.columns, copy=False)


def _kept_columns(frame: pd.DataFrame, features: Sequence, left_out: list) -> list:
    """The ``features`` named to keep, found in ``frame``; none may also be left out."""
    if isinstance(features, str):
        features = [features]
    try:
        kept = find_columns(frame, list(features))
    except ValueError as exc:
        raise EngineError("columns_missing", {**error_fields(exc), "role": "keep"}) from None
    both = [c for c in kept if c in left_out]
    if both:
        raise EngineError("kept_and_left_out", {"columns": [str(c) for c in both]})
    return kept


def _check_kept(kept: list, target, group_column) -> None:
    for column, what in ((target, "the target"), (group_column, 'the "groups" column')):
        if column is not None and column in kept:
            raise EngineError("kept_not_feature", {"column": column, "what": what})


def _tidy_features(features: pd.DataFrame, kept: Sequence = ()) -> tuple:
    notes = []
    dtypes = features.dtypes
    floats = [c for c in features.columns if pd.api.types.is_float_dtype(dtypes[c])]
    infinite = _infinite_counts(features, floats)
    for column, n_values in infinite.items():
        features[column] = features[column].where(~np.isinf(features[column].to_numpy()),
                                                  np.nan)
        notes.append(Note("infinite_values", fields={"column": column, "n_values": n_values}))
    present = features.count()
    dropped_id, dropped_empty = [], []
    for column in features.columns:
        if present[column] == 0:
            dropped_empty.append(column)
        elif not _is_number_dtype(dtypes[column]):
            values = features[column]
            n_levels = values.nunique(dropna=True)
            if n_levels == len(values) and len(values) > 20 and column not in kept:
                dropped_id.append(column)
            elif n_levels > CATEGORICAL_LEVEL_WARNING:
                notes.append(Note("many_categories", fields={"column": column,
                                                             "n_categories": int(n_levels)}))
    if dropped_empty:
        notes.append(Note("empty_columns_left_out", fields={"columns": dropped_empty}))
    if dropped_id:
        notes.append(Note("identifier_columns_left_out", fields={"columns": dropped_id}))
    if dropped_empty or dropped_id:
        features = features.drop(columns=dropped_empty + dropped_id)
    for column, dtype in features.dtypes.items():
        if pd.api.types.is_bool_dtype(dtype):
            features[column] = features[column].astype("int64")
        elif not _is_number_dtype(dtype) and dtype != object:
            features[column] = features[column].astype("object")
    return features, notes


def _is_number_dtype(dtype) -> bool:
    """As :func:`engine.input.data_checks.is_numeric_column`, from a column's dtype."""
    return pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)


def _infinite_counts(features: pd.DataFrame, floats: list) -> dict:
    """Column -> its number of infinite values, for the float columns that have any (one
    array for the whole table when every column is a float64, as most are)."""
    if floats and len(floats) == features.shape[1] and \
            all(dtype == np.float64 for dtype in features.dtypes):
        counts = np.isinf(features.to_numpy()).sum(axis=0)
        return {column: int(n) for column, n in zip(features.columns, counts) if n}
    counts = {column: int(np.isinf(features[column].to_numpy()).sum()) for column in floats}
    return {column: n for column, n in counts.items() if n}


def _encode_labels(labels: pd.Series, order: Optional[Sequence] = None,
                   target: str = "") -> tuple:
    """(classes, codes, notes): text labels stripped, their control characters written out;
    in the declared ``order`` when given, else sorted."""
    values = labels.to_numpy()
    notes = []
    if order is not None and not pd.api.types.is_numeric_dtype(labels):
        return _declared_labels(labels, list(order), target)
    if pd.api.types.is_numeric_dtype(labels):
        distinct, codes = np.unique(values, return_inverse=True)
        classes = [_plain(c) for c in distinct]
    else:
        rows, texts = distinct_texts(labels)
        text = stripped(texts)
        shown = np.array([visible(t) for t in text], dtype=object)
        changed = sorted(set(shown[shown != text]))
        if changed:
            notes.append(Note("control_characters",
                              fields={"what": "class_labels", "names": changed}))
        distinct, of_text = np.unique(shown, return_inverse=True)
        codes = of_text.reshape(-1)[rows]
        classes = [str(c) for c in distinct]
    return classes, codes.astype(np.intp), notes


def _numbered_from_zero(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame.reset_index(drop=True)``, without copying a table already numbered 0..n-1
    (a file's, when no row was dropped)."""
    if isinstance(frame.index, pd.RangeIndex) and frame.index.start == 0 and \
            frame.index.step == 1:
        return frame
    return frame.reset_index(drop=True)


def _blank_texts(labels: pd.Series) -> np.ndarray:
    """True where a label is present but blank (only white space), per distinct value."""
    rows, texts = distinct_texts(labels)
    blank = np.array([not t.strip() for t in texts], dtype=bool)
    return per_row(rows, blank, False)


def _declared_labels(labels: pd.Series, order: list, target: str) -> tuple:
    """(classes, codes, notes) in the declared order, the values without rows left out."""
    text = labels.astype(str).to_numpy(dtype=object)
    present = set(text)
    unknown = sorted(present.difference(order))
    if unknown:
        raise EngineError("target_undeclared", {"target": target, "values": unknown})
    kept = [value for value in order if value in present]
    notes = []
    empty = [value for value in order if value not in present]
    if empty:
        notes.append(Note("empty_classes", fields={"target": target, "classes": empty}))
    codes = pd.Categorical(text, categories=kept).codes.astype(np.intp)
    shown = [visible(value) for value in kept]
    changed = [v for v, k in zip(shown, kept) if v != k]
    if changed:
        notes.append(Note("control_characters",
                          fields={"what": "class_labels", "names": changed}))
    return shown, codes, notes


def _plain(value):
    """numpy scalar -> Python scalar (ints stay ints)."""
    value = value.item() if hasattr(value, "item") else value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
