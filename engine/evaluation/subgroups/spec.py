"""Which rows belong to which subgroup: the experiment's ``"subgroups"`` read and applied.

An entry is a column name (``"sex"``) or ``{"column": "age", "cuts": [40, 65]}``. The
column is a feature or a column left out of the model (``"exclude"`` / ``"drop"``); a
numeric column without cuts is cut at its quartiles (one subgroup per value when it has
at most :data:`FEW_VALUES` values, such as a 0/1 code); a missing value is a subgroup of its
own (``missing``). Every problem is an :class:`engine.foundation.errors.EngineError` that
says what to change.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np
import pandas as pd

from engine.foundation.errors import EngineError

#: The most subgroups one column may have (more is an identifier, not a group).
MAX_LEVELS = 20
#: A numeric column without cuts and with at most this many values (a 0/1 code) gives one
#: subgroup per value, not quartiles.
FEW_VALUES = 4
#: The label of the rows without a value.
MISSING = "missing"


@dataclass(frozen=True)
class SubgroupSpec:
    """One entry of ``"subgroups"``: a column and, for a numeric one, optional cut
    points (ascending; a value equal to a cut belongs to the lower subgroup)."""

    column: str
    cuts: Optional[tuple] = None

    def to_json(self):
        if self.cuts is None:
            return self.column
        return {"column": self.column, "cuts": list(self.cuts)}


@dataclass(frozen=True)
class Grouping:
    """A column's subgroups on the data's rows.

    Attributes
    ----------
    column : str
    labels : tuple of str
        The subgroups, in order (bins by value, categories sorted, ``missing`` last).
    codes : ndarray of int
        Every data row's subgroup (an index into ``labels``).
    is_feature : bool
        Whether the models learn from the column.
    cut : str
        ``"given"`` (the entry's cuts), ``"quartiles"`` or ``"categories"``.
    """

    column: str
    labels: tuple
    codes: np.ndarray
    is_feature: bool
    cut: str


def parse_subgroups(value) -> tuple:
    """The entries of ``"subgroups"`` (the schema checked their types) as specs.

    Raises
    ------
    ValueError
        Cuts not ascending, or a column named twice.
    """
    if value is None:
        return ()
    specs = []
    for index, entry in enumerate(value):
        if isinstance(entry, str):
            specs.append(SubgroupSpec(entry))
            continue
        cuts = tuple(float(c) for c in entry["cuts"]) if entry.get("cuts") is not None else None
        if cuts is not None and any(b <= a for a, b in zip(cuts, cuts[1:])):
            raise EngineError("subgroup_cuts_order", {"index": index,
                                                      "cuts": list(entry["cuts"])})
        specs.append(SubgroupSpec(str(entry["column"]), cuts))
    names = [spec.column for spec in specs]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise EngineError("subgroup_column_twice", {"column": twice[0]})
    return tuple(specs)


def subgroup_columns(dataset) -> dict:
    """Column name -> (values, is a feature) of every column a subgroup can be made of."""
    columns = {str(c): (dataset.X[c], True) for c in dataset.X.columns}
    left_out = dataset.left_out
    if left_out is not None:
        for name in left_out.columns:
            columns.setdefault(str(name), (left_out[name], False))
    return columns


def candidate_columns(dataset) -> list:
    """``[(name, is a feature, is numeric)]`` of every column a subgroup can be made of
    (features first, then the columns left out), for a picker."""
    return [(name, is_feature, pd.api.types.is_numeric_dtype(values)
             and not pd.api.types.is_bool_dtype(values))
            for name, (values, is_feature) in subgroup_columns(dataset).items()]


def groupings(specs, dataset) -> tuple:
    """Every spec applied to ``dataset``'s rows (:class:`Grouping`), checked.

    Raises
    ------
    EngineError
        ``subgroup_column_unknown``, ``subgroup_cuts_not_numeric``,
        ``subgroup_one_value`` or ``subgroup_too_many_levels``.
    """
    columns = subgroup_columns(dataset)
    return tuple(_grouping(spec, columns) for spec in specs)


def _grouping(spec: SubgroupSpec, columns: dict) -> Grouping:
    if spec.column not in columns:
        raise EngineError("subgroup_column_unknown",
                          {"column": spec.column, "columns": sorted(columns)})
    values, is_feature = columns[spec.column]
    numeric = pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)
    if spec.cuts is not None and not numeric:
        raise EngineError("subgroup_cuts_not_numeric", {"column": spec.column})
    present = values.dropna()
    if present.nunique() < 2:
        only = str(present.iloc[0]) if len(present) else "nothing"
        raise EngineError("subgroup_one_value",
                          {"column": spec.column, "value": only, "by": "values"})
    few = spec.cuts is None and present.nunique() <= FEW_VALUES
    grouping = (_cut_grouping(spec, values.to_numpy(dtype=float), is_feature)
                if numeric and not few else _category_grouping(spec, values, is_feature))
    if len(grouping.labels) < 2:
        raise EngineError("subgroup_one_value",
                          {"column": spec.column, "value": grouping.labels[0], "by": "cuts"})
    return grouping


def _cut_grouping(spec: SubgroupSpec, values: np.ndarray, is_feature: bool) -> Grouping:
    """Bins ``(-inf, c1], (c1, c2], ..., (ck, inf)`` of the given cuts or the quartiles."""
    cut = "given" if spec.cuts is not None else "quartiles"
    if spec.cuts is not None:
        cuts = np.asarray(spec.cuts, dtype=float)
    else:
        cuts = np.unique(np.nanquantile(values, [0.25, 0.5, 0.75]))
        cuts = cuts[cuts < np.nanmax(values)]
    _check_levels(spec.column, len(cuts) + 1)
    bins = np.searchsorted(cuts, values, side="left")
    labels = [_bin_label(cuts, i) for i in range(len(cuts) + 1)]
    if cut == "quartiles" and len(cuts) == 3:
        labels = [f"Q{i + 1}: {label}" for i, label in enumerate(labels)]
    missing = np.isnan(values)
    return _finish(spec.column, labels, bins, missing, is_feature, cut)


def _bin_label(cuts: np.ndarray, i: int) -> str:
    if i == 0:
        return f"<= {cuts[0]:g}"
    if i == len(cuts):
        return f"> {cuts[-1]:g}"
    return f"({cuts[i - 1]:g}, {cuts[i]:g}]"


def _category_grouping(spec: SubgroupSpec, values: pd.Series, is_feature: bool) -> Grouping:
    missing = values.isna().to_numpy()
    text = values.astype(object).where(~missing, None).map(_category_label)
    labels = sorted({v for v in text if v is not None}, key=_sort_key)
    _check_levels(spec.column, len(labels))
    index = {label: i for i, label in enumerate(labels)}
    codes = np.array([index.get(v, 0) if v is not None else 0 for v in text], dtype=np.int64)
    return _finish(spec.column, labels, codes, missing, is_feature, "categories")


def _category_label(value) -> Optional[str]:
    """A category's label: numbers as ``1`` or ``2.5`` (not ``1.0``), text as it is."""
    if value is None:
        return None
    if isinstance(value, (float, np.floating)):
        return f"{float(value):g}"
    return str(value)


def _sort_key(label: str) -> tuple:
    """Numbers by value before text by its letters."""
    try:
        return (0, float(label), label)
    except ValueError:
        return (1, 0.0, label)


def _check_levels(column: str, n_levels: int) -> None:
    if n_levels > MAX_LEVELS:
        raise EngineError("subgroup_too_many_levels",
                          {"column": column, "n_levels": n_levels, "cap": MAX_LEVELS})


def _finish(column, labels, codes, missing, is_feature, cut) -> Grouping:
    """The grouping with a ``missing`` subgroup last when any value is missing, and
    without bins no row falls in."""
    codes = np.asarray(codes, dtype=np.int64)
    labels = list(labels)
    if missing.any():
        codes = np.where(missing, len(labels), codes)
        labels.append(MISSING)
    used = np.unique(codes)
    renumber = np.full(len(labels), -1, dtype=np.int64)
    renumber[used] = np.arange(len(used))
    return Grouping(column, tuple(labels[i] for i in used), renumber[codes], is_feature, cut)
