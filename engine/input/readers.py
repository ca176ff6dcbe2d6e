"""Data files of every kind the app reads, chosen by the file's extension.

``{"file": PATH, ...}`` in an experiment's ``dataset`` block reads a CSV file
(``.csv``, ``.tsv``, ``.txt``: :func:`engine.input.data.read_csv_table`, with its detection),
an ARFF file (``.arff``: :mod:`engine.input.arff`) or an Excel workbook (``.xlsx``, ``.xlsm``:
:mod:`engine.input.excel`); ``{"csv": PATH, ...}`` always reads CSV. Each reader gives a
:class:`Table`, and :func:`dataset_from_table` makes the :class:`engine.input.data.Dataset`
the same way for all (:func:`engine.input.data.dataset_from_frame`). The file checks of
:mod:`engine.input.file_checks` (regular file, size) come first for every kind.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Optional, Sequence

import numpy as np
import pandas as pd

from engine.input.arff import read_arff
from engine.input.data import (Dataset, dataset_from_frame, load_builtin, load_csv,
                               read_csv_table, source_record)
from engine.input.excel import (EXTENSIONS as EXCEL_EXTENSIONS, OLD_EXTENSIONS, read_excel_table,
                                refuse_old_format)
from engine.foundation.errors import EngineError
from engine.foundation.messages import FILE_KIND_NAMES
from engine.foundation.notes import Note

CSV_EXTENSIONS = (".csv", ".tsv", ".txt")
ARFF_EXTENSIONS = (".arff",)
#: Extension -> kind of file.
KINDS = {**{e: "csv" for e in CSV_EXTENSIONS}, **{e: "arff" for e in ARFF_EXTENSIONS},
         **{e: "excel" for e in EXCEL_EXTENSIONS}}
#: Reading options of each kind (besides target, exclude/drop and pos_label).
READ_OPTIONS = {"csv": ("sep", "encoding", "decimal", "thousands"),
                "arff": ("encoding",), "excel": ("sheet",)}
KIND_NAMES = FILE_KIND_NAMES
COMMON_KEYS = ("target", "exclude", "drop", "pos_label", "groups", "features", "id_column")


@dataclass(frozen=True)
class Table:
    """A data file as read, before a target is chosen.

    Attributes
    ----------
    frame : pandas.DataFrame
        The columns as read (numbers, text, missing values).
    notes : tuple of Note
        What was detected and converted.
    name : str
        The data set's default name: an ARFF file's relation, else the file's name.
    kind : str
        ``"csv"``, ``"arff"`` or ``"excel"``.
    target : str or None
        The default target when the file names one: an ARFF file's last attribute when
        it is nominal (as in Weka); None: chosen from the data.
    class_order : dict
        Declared values of nominal (ARFF) columns, in declared order: a target's classes
        keep it.
    sheets : tuple of str
        A workbook's sheets (empty for other kinds).
    """

    frame: pd.DataFrame
    notes: tuple
    name: str
    kind: str
    target: Optional[str] = None
    class_order: dict = field(default_factory=dict)
    sheets: tuple = ()


def file_kind(path: str) -> str:
    """``"csv"``, ``"arff"`` or ``"excel"`` by the extension of ``path``.

    Raises
    ------
    ValueError
        For ``.xls`` (save it as ``.xlsx`` or CSV) and unknown extensions (naming the
        supported ones).
    """
    extension = os.path.splitext(str(path))[1].lower()
    if extension in OLD_EXTENSIONS:
        refuse_old_format(path)
    if extension not in KINDS:
        raise EngineError("file_kind_unknown", {"path": str(path), "extension": extension,
                                                "extensions": list(KINDS)})
    return KINDS[extension]


def check_file_options(spec: dict) -> str:
    """Check that a ``dataset`` block's reading options fit its file's kind.

    Parameters
    ----------
    spec : dict
        ``{"file": PATH, ...}`` or ``{"csv": PATH, ...}``.

    Returns
    -------
    str
        The kind of file (``"csv"`` for a ``csv`` block).

    Raises
    ------
    ValueError
        Both ``file`` and ``csv`` given, an extension the app does not read, or an
        option of another kind (``"sheet"`` for a CSV file).
    """
    if "file" in spec and "csv" in spec:
        raise EngineError("dataset_file_and_csv")
    kind = "csv" if "csv" in spec else file_kind(spec["file"])
    allowed = set(COMMON_KEYS) | set(READ_OPTIONS[kind]) | {"file" if "file" in spec else "csv"}
    unknown = sorted(key for key in spec if key not in allowed)
    if unknown:
        owners = [k for k, options in READ_OPTIONS.items() if unknown[0] in options]
        if owners and "file" in spec:
            raise EngineError("dataset_option_of_kind", {
                "key": unknown[0], "kinds": owners, "path": spec["file"], "kind": kind})
        with_what = "file" if "file" in spec else "csv"
        raise EngineError("dataset_unknown_keys", {
            "keys": unknown, "with": with_what, "allowed": sorted(allowed - {with_what})})
    return kind


def read_table(path: str, *, kind: Optional[str] = None, **options) -> Table:
    """Read a data file with the reader its extension (or ``kind``) asks for.

    Parameters
    ----------
    path : str
    kind : {"csv", "arff", "excel"}, optional
        By default from the extension (:func:`file_kind`).
    **options
        The kind's reading options (:data:`READ_OPTIONS`); None means "not given".

    Returns
    -------
    Table
    """
    kind = kind or file_kind(path)
    given = {k: v for k, v in options.items() if v is not None}
    stray = sorted(set(given) - set(READ_OPTIONS[kind]))
    if stray:
        raise EngineError("read_option_unknown", {"options": stray, "kind": kind})
    stem = os.path.splitext(os.path.basename(path))[0]
    if kind == "csv":
        frame, notes = read_csv_table(path, **given)
        return Table(frame, tuple(notes), stem, kind)
    if kind == "excel":
        frame, notes, sheets = read_excel_table(path, sheet=given.get("sheet"))
        return Table(frame, tuple(notes), stem, kind, sheets=tuple(sheets))
    table = read_arff(path, encoding=given.get("encoding"))
    last = table.attributes[-1]
    return Table(table.frame, table.notes, table.relation, kind,
                 target=last.name if last.kind == "nominal" else None,
                 class_order=table.nominal_values)


def dataset_from_table(table: Table, target: Optional[str] = None, *,
                       name: Optional[str] = None, drop: Sequence[str] = (),
                       exclude: Sequence[str] = (), pos_label=None,
                       source: Optional[dict] = None, groups: Optional[str] = None,
                       features: Sequence[str] = (), id_column: Optional[str] = None):
    """Make the Dataset of a :class:`Table` (see :func:`engine.input.data.dataset_from_frame`).

    Without ``target`` the table's default target is used (an ARFF file's last
    attribute, with a note) unless it is left out; else one is chosen from the data.
    ``name`` defaults to the table's name; ``groups`` names the column of rows that
    belong together; ``features`` the columns kept as features although they look like an
    index; ``id_column`` the column naming each row.
    """
    notes = list(table.notes)
    left_out = {*drop, *exclude}
    if target is None and table.target is not None and table.target not in left_out:
        target = table.target
        notes.append(Note("target_chosen", fields={"column": target, "last_column": target,
                                                   "problem": None, "weka": True}))
    return dataset_from_frame(table.frame, target, name=name or table.name, drop=drop,
                              exclude=exclude, pos_label=pos_label, notes=notes,
                              source=source, class_order=table.class_order, groups=groups,
                              features=features, id_column=id_column)


def load_file(path: str, target: Optional[str] = None, drop: Sequence[str] = (), *,
              exclude: Sequence[str] = (), pos_label=None, kind: Optional[str] = None,
              groups: Optional[str] = None, features: Sequence[str] = (),
              id_column: Optional[str] = None, **options):
    """Load any supported data file as a classification data set.

    Parameters
    ----------
    path : str
        The file; its extension chooses the reader (:func:`file_kind`) unless ``kind``
        is given.
    target, drop, exclude, pos_label, groups, features, id_column
        As for :func:`engine.input.data.load_csv`.
    kind : {"csv", "arff", "excel"}, optional
    **options
        The reader's options: ``sep``, ``encoding``, ``decimal``, ``thousands`` (CSV),
        ``encoding`` (ARFF), ``sheet`` (Excel).

    Returns
    -------
    Dataset
        Its ``source`` is ``{"file": path, ...the options given}``.
    """
    table = read_table(path, kind=kind, **options)
    given = {"target": target, **options, "pos_label": pos_label, "groups": groups,
             "id_column": id_column}
    source = source_record({"file": path}, given, drop=drop, exclude=exclude, features=features)
    return dataset_from_table(table, target, drop=drop, exclude=exclude,
                              pos_label=pos_label, source=source, groups=groups,
                              features=features, id_column=id_column)


def data_record(dataset, *, base_dir: str = ".") -> dict:
    """What ``run.json`` records of the data a run used.

    Parameters
    ----------
    dataset : Dataset
    base_dir : str
        The folder a relative file path is relative to (the experiment file's).

    Returns
    -------
    dict
        ``reader`` (``"builtin"``, ``"csv"``, ``"arff"`` or ``"excel"``), ``path`` (the
        file, absolute; None for a built-in), ``sheet`` (a workbook's, else None),
        ``name``, ``target``, ``classes``, ``n_rows``, ``n_features``, ``groups`` (the
        column of rows that belong together, else None) and ``n_groups`` (else None).
    """
    source = dataset.source
    path = source.get("file", source.get("csv"))
    if path is None:
        reader = "builtin"
    else:
        reader = "csv" if "csv" in source else KINDS.get(os.path.splitext(path)[1].lower(), "csv")
        path = os.path.abspath(os.path.join(base_dir, path))
    return {"reader": reader, "path": path, "sheet": source.get("sheet"), "name": dataset.name,
            "target": dataset.target, "classes": [str(c) for c in dataset.classes],
            "n_rows": int(dataset.n_rows), "n_features": int(dataset.X.shape[1]),
            "groups": source.get("groups"), "n_groups": _n_groups(dataset)}


def _n_groups(dataset):
    groups = dataset.groups
    return None if groups is None else int(len(np.unique(groups)))


def load_dataset(spec: dict, *, base_dir: str = ".") -> Dataset:
    """Load the ``dataset`` entry of an experiment file.

    Parameters
    ----------
    spec : dict
        ``{"builtin": NAME, **options}``, ``{"csv": PATH, "target": COLUMN, "sep": ...,
        "encoding": ..., "decimal": ..., "thousands": ..., "exclude": [...],
        "features": [...], "pos_label": ..., "id_column": ...}`` (``"drop"`` is the older
        name of ``"exclude"``) or
        ``{"file": PATH, ...}``: a CSV, ARFF or Excel file by its extension, with the
        same keys (those of its kind) and ``"sheet"`` for a workbook
        (:mod:`engine.input.readers`).
    base_dir : str
        Folder a relative file path is relative to (the experiment file's folder).
        A ``"name"`` (a data set's name, :mod:`engine.input.dataset_names`) names the Dataset
        and stays in its ``source``.
    """
    spec = dict(spec)
    if "name" in spec:
        return _named(load_dataset({k: v for k, v in spec.items() if k != "name"},
                                   base_dir=base_dir),
                      spec["name"])
    if "builtin" in spec:
        name = spec.pop("builtin")
        if "groups" in spec:
            raise EngineError("builtin_no_groups", {"name": name})
        return load_builtin(name, **spec)
    if "file" in spec:
        check_file_options(spec)
        path = spec.pop("file")
        full = path if os.path.isabs(path) else os.path.join(base_dir, path)
        drop, exclude, features = (_names(spec.pop(key, ()))
                                   for key in ("drop", "exclude", "features"))
        ds = load_file(full, drop=drop, exclude=exclude, features=features, **spec)
        return Dataset(**{**ds.__dict__, "source": {**ds.source, "file": path}})
    if "csv" in spec:
        path = spec.pop("csv")
        full = path if os.path.isabs(path) else os.path.join(base_dir, path)
        allowed = {"target", "sep", "encoding", "drop", "exclude", "decimal", "thousands",
                   "pos_label", "groups", "features", "id_column"}
        unknown = sorted(set(spec) - allowed)
        if unknown:
            raise EngineError("dataset_unknown_keys", {"keys": unknown, "with": "csv",
                                                       "allowed": sorted(allowed)})
        drop, exclude = (_names(spec.get(key, ())) for key in ("drop", "exclude"))
        ds = load_csv(full, target=spec.get("target"), sep=spec.get("sep"),
                      encoding=spec.get("encoding"), drop=drop, exclude=exclude,
                      decimal=spec.get("decimal"),
                      thousands=spec.get("thousands"), pos_label=spec.get("pos_label"),
                      groups=spec.get("groups"), features=_names(spec.get("features", ())),
                      id_column=spec.get("id_column"))
        return Dataset(**{**ds.__dict__, "source": {**ds.source, "csv": path}})
    raise EngineError("dataset_no_source")


def _named(dataset: Dataset, name: str) -> Dataset:
    return Dataset(**{**dataset.__dict__, "name": name, "source": {**dataset.source,
                                                                   "name": name}})


def _names(value) -> list:
    """A list of column names from an experiment file: one name may be given alone."""
    return [value] if isinstance(value, str) else list(value)


#: The keys of an experiment's ``"test"`` block besides the reading options of its
#: file's kind (the held-out test, :mod:`engine.runs.heldout`).
TEST_KEYS = ("file",)


def check_test_block(block: dict, *, where: str = "test") -> str:
    """Check a ``"test"`` block's keys against its file's kind; return the kind.

    Raises
    ------
    ValueError
        An extension the app does not read, or an option of another kind.
    """
    kind = file_kind(block["file"])
    allowed = set(TEST_KEYS) | set(READ_OPTIONS[kind])
    unknown = sorted(set(block) - allowed)
    if unknown:
        raise EngineError("test_unknown_keys", {"where": where, "keys": unknown,
                                                "path": block["file"],
                                                "allowed": sorted(allowed)})
    return kind
