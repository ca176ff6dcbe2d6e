"""Loading for the Dataset tab, run on worker threads: a file's ``dataset`` block (CSV,
ARFF or Excel) made into a Dataset (the file read once and kept while only the target,
columns or positive class change), and what the tab shows of a Dataset.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Optional

import numpy as np
import pandas as pd

from engine.foundation.errors import EngineError
from engine.foundation.notes import note_code
from engine.input.data import Dataset
from engine.input.data_checks import visible_columns
from engine.input.excel import sheet_names
from engine.input.readers import (CSV_EXTENSIONS, KINDS, Table, dataset_from_table, load_dataset,
                                   read_table)
from engine.input.target_choice import not_chosen_note

from .plots.scatter_axes import informative_pair

SCATTER_SAMPLE = 5000
#: Notes judged against a target, left out while the target is only a candidate.
NOT_YET = ("possible_leak", "after_outcome", "positive_class", "class_imbalance",
           "target_chosen")
READ_OPTIONS = ("sep", "encoding", "decimal", "thousands", "sheet")
#: The file dialog's filters: every kind the app reads, then each kind alone.
FILE_FILTERS = ("Data files (*.csv *.tsv *.txt *.arff *.xlsx *.xlsm);;"
                "CSV files (*.csv *.tsv *.txt);;ARFF files (*.arff);;"
                "Excel workbooks (*.xlsx *.xlsm);;All files (*)")


@dataclass(frozen=True)
class DatasetView:
    """What the tab shows for a Dataset, prepared off the GUI thread."""

    dataset: Dataset
    preview: pd.DataFrame
    sample: Optional[np.ndarray]     # row positions drawn in the scatter (None: all rows)
    scatter_axes: tuple = ()         # the two numeric columns the scatter starts on


def prepare_view(dataset: Dataset) -> DatasetView:
    preview = dataset.X.copy(deep=False)
    labels = np.asarray([str(c) for c in dataset.classes], dtype=object)
    preview[_free_name(dataset.target, preview.columns)] = labels[dataset.y]
    sample = None
    if dataset.n_rows > SCATTER_SAMPLE:
        rng = np.random.default_rng(0)
        sample = np.sort(rng.choice(dataset.n_rows, SCATTER_SAMPLE, replace=False))
    axes = tuple(informative_pair(dataset.X, dataset.y, sample))
    return DatasetView(dataset, preview, sample, axes)


def _free_name(name: str, taken) -> str:
    return name if name not in taken else f"{name} (target)"


def data_key(source: dict) -> Optional[str]:
    """``"file"`` or ``"csv"``: the key of a ``dataset`` block that names its file (None
    for a built-in data set)."""
    return next((key for key in ("file", "csv") if key in source), None)


def source_path(source: dict) -> Optional[str]:
    """The data file a ``dataset`` block reads, or None."""
    key = data_key(source)
    return source[key] if key is not None else None


def source_for(path: str) -> dict:
    """The ``dataset`` block that opens ``path``: ``{"csv": path}`` for a CSV file and any
    name the app does not know (read as CSV, as the app always did), else
    ``{"file": path}`` (ARFF, Excel, and ``.xls``, which is refused with advice)."""
    extension = os.path.splitext(path)[1].lower()
    known = extension in KINDS or extension == ".xls"
    return {"file": path} if known and extension not in CSV_EXTENSIONS else {"csv": path}


@dataclass(frozen=True)
class FileRead:
    """A data file as read, kept so that a new target or column choice needs no new read."""

    key: tuple                      # (path, modification time, size, read options)
    table: Table

    @property
    def path(self) -> str:
        return self.key[0]

    @property
    def frame(self) -> pd.DataFrame:
        return self.table.frame

    @property
    def notes(self) -> tuple:
        return self.table.notes

    @property
    def columns(self) -> list:
        return [str(c) for c in visible_columns(self.frame.head(0))[0].columns]



def read_key(source: dict) -> tuple:
    path = source_path(source)
    try:
        stat = os.stat(path)
        stamp = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        stamp = (None, None)
    return (path, *stamp, *(source.get(k) for k in READ_OPTIONS))


def names(value) -> list:
    """Column names from a source key: one name may be given alone."""
    return [value] if isinstance(value, str) else list(value or ())


@dataclass(frozen=True)
class SheetChoice:
    """A workbook whose sheet could not be used: the others to pick from."""

    source: dict                    # the dataset block that failed
    sheet: str                      # the sheet read
    sheets: tuple                   # all the workbook's sheets
    message: str                    # why that sheet is not a data set (no advice on "sheet")


def file_dataset(source: dict, name: Optional[str] = None,
                 cached: Optional[FileRead] = None, untick_leaks: bool = False) -> tuple:
    """(FileRead, Dataset) of a file's ``dataset`` block; runs on a worker thread.

    The file is read again only when it, or how to read it, changed since ``cached``.
    Without a target the file's default (an ARFF file's last attribute) or the column
    that alone qualifies (:mod:`engine.input.target_choice`) is used (with a note) and
    recorded in the source; when several could be it, the best candidate is shown
    provisionally (:func:`provisional_dataset`), not recorded, and no leak is judged
    against it. A positive
    class that is not a class of the target is dropped. ``name`` defaults to the
    file's (an ARFF file's relation). With ``untick_leaks`` the features the notes call
    possible leaks are left out (``"exclude"``; their notes stay, saying so).

    Returns
    -------
    (FileRead, Dataset) or (None, SheetChoice)
        A :class:`SheetChoice` when the block names no sheet of a workbook of several
        and its first sheet cannot be used (a sheet of notes): the others to pick from.
    """
    try:
        raw = _file_read(source, cached)
        dataset = _derived(raw, source, name)
    except ValueError as exc:
        choice = _sheet_choice(source, exc)
        if choice is None:
            raise
        return None, choice
    if untick_leaks and target_confirmed(dataset):
        leaks = leak_features(dataset)
        if leaks:
            unticked = {**source, "target": dataset.target,
                        "exclude": names(source.get("exclude")) + leaks}
            try:
                dataset = _derived(raw, unticked, name)
            except ValueError:
                pass                     # nothing left to learn from: keep them ticked
    return raw, dataset


def block_dataset(block: dict, base_dir: Optional[str]) -> Dataset:
    """The Dataset of an experiment file's ``dataset`` block. A file block without a
    target is derived as when opened on the Dataset tab (:func:`file_dataset`): its
    candidates shown until one is chosen, unless a column is named as the target."""
    key = data_key(block)
    if key is None or block.get("target"):
        return load_dataset(block, base_dir=base_dir)
    source = {k: v for k, v in block.items() if k != "name"}
    source[key] = os.path.normpath(os.path.join(base_dir or "", block[key]))
    _, dataset = file_dataset(source, block.get("name"))
    if not isinstance(dataset, Dataset):
        return load_dataset(block, base_dir=base_dir)      # a workbook's sheet: refused as headless
    return dataset


def leak_features(dataset: Dataset) -> list:
    """The features the notes call possible leaks (or a time to the event or its status
    beside the target)."""
    return list(dict.fromkeys(
        note.fields["column"] for note in dataset.notes
        if note_code(note) in ("possible_leak", "after_outcome")
        and not note.fields.get("left_out") and note.fields["column"] in dataset.X.columns))


def target_confirmed(dataset: Dataset | None) -> bool:
    """Whether the column to predict of ``dataset`` is named (by the user, the experiment,
    the file or the rule of :mod:`engine.input.target_choice`), not only shown as the
    best candidate: built-in data sets name theirs."""
    if dataset is None:
        return False
    source = dataset.source
    return "builtin" in source or source_path(source) is None or bool(source.get("target"))


def target_candidates(dataset: Dataset | None) -> list:
    """(column, reasons) of the candidates for the target while none is named."""
    for note in (dataset.notes if dataset is not None else ()):
        if note_code(note) == "target_not_chosen":
            return list(zip(note.fields["candidates"], note.fields["reasons"]))
    return []


def _file_read(source: dict, cached: Optional[FileRead]) -> FileRead:
    key = read_key(source)
    if cached is not None and cached.key == key:
        return cached
    kind = "csv" if data_key(source) == "csv" else None
    table = read_table(source_path(source), kind=kind,
                       **{k: source.get(k) for k in READ_OPTIONS if source.get(k) is not None})
    return FileRead(key, table)


def _derived(raw: FileRead, source: dict, name: Optional[str]) -> Dataset:
    source = {k: v for k, v in source.items() if v is not None and v != []}

    def derive(pos_label):
        kept = {k: v for k, v in source.items() if k != "pos_label"}
        if pos_label is not None:
            kept["pos_label"] = pos_label
        return dataset_from_table(raw.table, source.get("target"), name=name,
                                  drop=names(source.get("drop")),
                                  exclude=names(source.get("exclude")),
                                  features=names(source.get("features")),
                                  pos_label=pos_label, source=kept,
                                  groups=source.get("groups"),
                                  id_column=source.get("id_column"))

    try:
        try:
            dataset = derive(source.get("pos_label"))
        except ValueError:
            if source.get("pos_label") is None:
                raise
            dataset = derive(None)       # the new target has other classes
    except EngineError as exc:
        if exc.code != "target_not_named" or not exc.fields["candidates"]:
            raise
        return provisional_dataset(raw, source, name, exc)
    only = _only_candidate(dataset) if not source.get("target") else None
    if only is not None:                  # the one column that could be it: still a choice
        return _unconfirmed(dataset, not_chosen_note(only, dataset.target))
    return replace(dataset, source={**dataset.source, "target": dataset.target})


def _only_candidate(dataset: Dataset) -> Optional[dict]:
    """The candidate fields of a target the engine used as the only column that looks
    like classes (rule ``only``), or None."""
    for note in dataset.notes:
        if note_code(note) == "target_chosen" and note.fields.get("rule") == "only":
            return {"candidates": [note.fields["column"]],
                    "reasons": [list(note.fields.get("reasons") or ())]}
    return None


def _unconfirmed(dataset: Dataset, note) -> Dataset:
    """``dataset`` shown with a target nobody chose: ``note`` first, no note judged
    against the target, no target in the source."""
    kept = [n for n in dataset.notes if note_code(n) not in NOT_YET]
    return replace(dataset, notes=(note, *kept),
                   source={k: v for k, v in dataset.source.items() if k != "target"})


def provisional_dataset(raw: FileRead, source: dict, name: str | None,
                        error: EngineError) -> Dataset:
    """The data set shown while the column to predict is not named: the best candidate
    as its target (not recorded in the source), no leak judged against it, and a
    ``target_not_chosen`` note listing the candidates."""
    best = error.fields["candidates"][0]
    dataset = dataset_from_table(raw.table, best, name=name, drop=names(source.get("drop")),
                                 exclude=names(source.get("exclude")),
                                 features=names(source.get("features")), source=source,
                                 groups=source.get("groups"), id_column=source.get("id_column"))
    return _unconfirmed(dataset, not_chosen_note(error.fields, best))


def _sheet_choice(source: dict, error: ValueError) -> Optional[SheetChoice]:
    """The sheets to pick from when ``source`` reads a workbook of several sheets."""
    path = source_path(source)
    if data_key(source) != "file" or KINDS.get(os.path.splitext(str(path))[1].lower()) != \
            "excel":
        return None
    try:
        sheets = tuple(sheet_names(path))
    except ValueError:
        return None
    if len(sheets) < 2:
        return None
    sheet = source.get("sheet") or sheets[0]
    return SheetChoice(dict(source), str(sheet), sheets, getattr(error, "problem", str(error)))



def with_changes(source: dict, changes: dict) -> dict:
    """``source`` (a file's ``dataset`` block) with ``changes`` made: the columns left out
    under "exclude" (an "exclude" change replaces them, "drop" included), never the
    target; the columns kept under "features", never the target or the groups; empty
    values removed."""
    merged = {**source, **changes}
    drop = names(merged.pop("drop", None))
    kept = names(merged.get("exclude")) if "exclude" in changes else \
        drop + names(merged.get("exclude"))
    merged["exclude"] = [c for c in dict.fromkeys(kept) if c != merged.get("target")]
    merged["features"] = [c for c in dict.fromkeys(names(merged.get("features")))
                          if c != merged.get("target") and c not in names(merged.get("groups"))]
    return {k: v for k, v in merged.items() if v is not None and v != []}
