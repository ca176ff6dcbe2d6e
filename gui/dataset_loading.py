"""Loading for the Dataset tab, run on worker threads: a CSV ``dataset`` block made into a
Dataset (the file read once and kept while only the target, columns or positive class
change), and what the tab shows of a Dataset.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Optional

import numpy as np
import pandas as pd

from engine.data import Dataset, dataset_from_frame, read_csv_table
from engine.data_checks import visible_columns

SCATTER_SAMPLE = 5000
READ_OPTIONS = ("sep", "encoding", "decimal", "thousands")


@dataclass(frozen=True)
class DatasetView:
    """What the tab shows for a Dataset, prepared off the GUI thread."""

    dataset: Dataset
    preview: pd.DataFrame
    sample: Optional[np.ndarray]     # row positions drawn in the scatter (None: all rows)


def prepare_view(dataset: Dataset) -> DatasetView:
    preview = dataset.X.copy(deep=False)
    labels = np.asarray([str(c) for c in dataset.classes], dtype=object)
    preview[_free_name(dataset.target, preview.columns)] = labels[dataset.y]
    sample = None
    if dataset.n_rows > SCATTER_SAMPLE:
        rng = np.random.default_rng(0)
        sample = np.sort(rng.choice(dataset.n_rows, SCATTER_SAMPLE, replace=False))
    return DatasetView(dataset, preview, sample)


def _free_name(name: str, taken) -> str:
    return name if name not in taken else f"{name} (target)"


@dataclass(frozen=True)
class CsvRead:
    """A CSV file as read, kept so that a new target or column choice needs no new read."""

    key: tuple                      # (path, modification time, size, read options)
    frame: pd.DataFrame
    notes: tuple

    @property
    def path(self) -> str:
        return self.key[0]

    @property
    def columns(self) -> list:
        return [str(c) for c in visible_columns(self.frame.head(0))[0].columns]


def read_key(source: dict) -> tuple:
    path = source["csv"]
    try:
        stat = os.stat(path)
        stamp = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        stamp = (None, None)
    return (path, *stamp, *(source.get(k) for k in READ_OPTIONS))


def names(value) -> list:
    """Column names from a source key: one name may be given alone."""
    return [value] if isinstance(value, str) else list(value or ())


def csv_dataset(source: dict, name: str, cached: Optional[CsvRead] = None) -> tuple:
    """(CsvRead, Dataset) of a CSV ``dataset`` block; runs on a worker thread.

    The file is read again only when it, or how to read it, changed since ``cached``.
    Without a target the engine picks one (with a note); the one used is recorded in the
    source. A positive class that is not a class of the target is dropped.
    """
    key = read_key(source)
    raw = cached if cached is not None and cached.key == key else None
    if raw is None:
        frame, notes = read_csv_table(source["csv"], **{k: source.get(k) for k in READ_OPTIONS})
        raw = CsvRead(key, frame, tuple(notes))
    source = {k: v for k, v in source.items() if v is not None and v != []}

    def derive(pos_label):
        kept = {k: v for k, v in source.items() if k != "pos_label"}
        if pos_label is not None:
            kept["pos_label"] = pos_label
        return dataset_from_frame(raw.frame, source.get("target"), name=name,
                                  drop=names(source.get("drop")),
                                  exclude=names(source.get("exclude")),
                                  pos_label=pos_label, notes=raw.notes, source=kept)

    try:
        dataset = derive(source.get("pos_label"))
    except ValueError:
        if source.get("pos_label") is None:
            raise
        dataset = derive(None)       # the new target has other classes
    dataset = replace(dataset, source={**dataset.source, "target": dataset.target})
    return raw, dataset


def with_changes(source: dict, changes: dict) -> dict:
    """``source`` (a CSV ``dataset`` block) with ``changes`` made: the columns left out
    under "exclude" (an "exclude" change replaces them, "drop" included), never the
    target; empty values removed."""
    merged = {**source, **changes}
    drop = names(merged.pop("drop", None))
    kept = names(merged.get("exclude")) if "exclude" in changes else \
        drop + names(merged.get("exclude"))
    merged["exclude"] = [c for c in dict.fromkeys(kept) if c != merged.get("target")]
    return {k: v for k, v in merged.items() if v is not None and v != []}
