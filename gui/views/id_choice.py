"""The Dataset tab's "Row id" choice: which column names the rows in ``predictions.csv``
and in Predict's output (the ``dataset`` block's ``id_column``; without one, the rule of
:mod:`engine.input.row_ids`: the row-name column left out, else the 1-based row).
"""
from __future__ import annotations

from engine.input.data import Dataset
from engine.input.row_ids import ROW

from .widgets import blocked

ID_TIP = ("The column that names each row (an ID, R's row names): written as the id column "
          "of predictions.csv and of Predict's output, so predictions join back to their "
          "rows. It is not a feature. Automatic: the row-name column the loader left out "
          "(Unnamed: 0, rownames, an id), else the row number in the file (1, 2, …).")


def automatic_text(dataset: Dataset) -> str:
    """The first item: what the automatic rule gives for ``dataset`` (just "automatic"
    while a column is chosen: the rule is not applied then)."""
    ids = dataset.ids
    if "id_column" in dataset.source:
        return "automatic"
    if ids is None or ids.name == ROW:
        return "automatic: the row number"
    return f"automatic: {ids.name}"


def id_choices(dataset: Dataset, columns) -> list:
    """``(text, column or None)`` items: the automatic rule, then every column of the file
    but the target, in file order."""
    return [(automatic_text(dataset), None)] + [(str(c), str(c)) for c in columns
                                                if str(c) != str(dataset.target)]


def fill_id_combo(combo, dataset: Dataset, columns) -> None:
    """``combo`` holding :func:`id_choices`, the data set's ``id_column`` current."""
    chosen = dataset.source.get("id_column")
    with blocked(combo):
        combo.clear()
        for text, column in id_choices(dataset, columns):
            combo.addItem(text, column)
        index = combo.findData(chosen) if chosen is not None else 0
        combo.setCurrentIndex(max(index, 0))


def id_changes(column, source: dict) -> dict:
    """The source changes of picking ``column`` (None: automatic) as the row id: a column
    kept under ``features`` is no longer kept."""
    changes = {"id_column": column}
    kept = source.get("features")
    kept = [kept] if isinstance(kept, str) else list(kept or ())
    if column is not None and column in kept:
        changes["features"] = [c for c in kept if c != column] or None
    return changes
