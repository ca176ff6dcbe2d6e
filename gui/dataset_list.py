"""The app's list of data sets: names kept valid and unique as an experiment file's
``"datasets"`` list requires (:mod:`engine.input.dataset_names`), and the blocks written for them.

Pure functions over :class:`engine.input.data.Dataset` values; :class:`gui.state.AppState` keeps
the list and announces its changes.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from engine.input.data import Dataset
from engine.input.dataset_names import check_dataset_name, name_datasets, name_problem


def with_name(dataset: Dataset, name: str, recorded: bool = False) -> Dataset:
    """``dataset`` called ``name``; its source records the name when it already did or
    ``recorded`` (a name the user gave), as :func:`engine.input.readers.load_dataset` records it."""
    if name == dataset.name and not recorded:
        return dataset
    source = dataset.source
    if recorded or "name" in source:
        source = {**source, "name": name}
    return replace(dataset, name=name, source=source)


def unique_names(datasets: list) -> list:
    """``datasets`` each with a name that can name a data set, unique ignoring case: the
    first of equal names keeps its own; the others (and names that cannot name a data set)
    get :func:`engine.input.dataset_names.default_name` made unique ("moons (2)")."""
    blocks, taken = [], set()
    for dataset in datasets:
        key = dataset.name.casefold() if isinstance(dataset.name, str) else None
        if name_problem(dataset.name) is None and key not in taken:
            taken.add(key)
            blocks.append({"name": dataset.name})
        else:
            blocks.append({k: v for k, v in dataset.source.items() if k != "name"})
    named = name_datasets(blocks)
    return [with_name(dataset, block["name"]) for dataset, block in zip(datasets, named)]


def rename_problem(datasets: list, index: int, name: str) -> Optional[str]:
    """Why data set ``index`` cannot be called ``name`` (a sentence), or None."""
    try:
        check_dataset_name(name, "the new name")
    except ValueError as exc:
        return str(exc)
    for other, dataset in enumerate(datasets):
        if other != index and dataset.name.casefold() == name.casefold():
            return (f"the name {name!r} is already the name of another data set (case does "
                    "not count); give every data set a name of its own")
    return None


def dataset_blocks(datasets: list) -> tuple:
    """``(dataset, datasets)`` of an experiment file: one data set's block as it is (a file
    as before), or None and every block with its name."""
    if len(datasets) == 1:
        return dict(datasets[0].source), None
    if not datasets:
        return {}, None
    return {}, [{"name": dataset.name, **{k: v for k, v in dataset.source.items() if k != "name"}}
                for dataset in datasets]
