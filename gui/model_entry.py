"""A model entry of the app state as a typed value: what one block of the experiment file's
``"models"`` list says, read once at the boundary instead of with ``entry.get(...)`` at every
use.

:class:`ModelEntry` is frozen and converts both ways (:meth:`ModelEntry.from_dict`,
:meth:`ModelEntry.to_dict`) without losing a key: keys it does not know travel in
``extra``, so an experiment file saved by the app says what the opened one said. The
engine still validates the block (:func:`engine.evaluation.catalogue.expand_model`); this only reads.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

#: The keys of a model block the entry reads, in the order it writes them.
KEYS = ("name", "estimator", "params", "grid", "tune", "threshold", "scale", "resample")


@dataclass(frozen=True)
class ModelEntry:
    """One model block of the experiment file.

    Parameters
    ----------
    estimator : str
        The catalogue's class name ("" when the block names none).
    name : str
        The name given ("" when none: the engine names it).
    params : dict
        Fixed parameters.
    grid : dict, list of dict or None
        The grid of plain models it expands to (each setting a model of its own).
    tune : dict or None
        The search inside the folds (``{"grid": ..., "inner_splits": ...}``).
    threshold : dict or None
        The decision threshold chosen inside the folds.
    scale : bool
        Standardize the features first.
    resample : str or None
        The resampling of the training rows.
    extra : dict
        Any other key of the block, kept as it was.
    keys : tuple of str
        The block's keys in their order (``to_dict`` writes these; empty: the keys that
        hold something).
    """

    estimator: str = ""
    name: str = ""
    params: Mapping = field(default_factory=dict)
    grid: Any = None
    tune: Optional[Mapping] = None
    threshold: Optional[Mapping] = None
    scale: bool = False
    resample: Optional[str] = None
    extra: Mapping = field(default_factory=dict)
    keys: tuple = ()

    # ------------------------------------------------------------------ conversion
    @classmethod
    def from_dict(cls, block: Mapping) -> "ModelEntry":
        """The entry of an experiment file's model block (a copy: later changes to
        ``block`` do not reach it)."""
        block = copy.deepcopy(dict(block))
        keys = tuple(block)
        known = {key: block.pop(key) for key in KEYS if key in block}
        return cls(estimator=str(known.get("estimator") or ""),
                   name=str(known.get("name") or ""),
                   params=dict(known.get("params") or {}),
                   grid=known.get("grid"), tune=known.get("tune"),
                   threshold=known.get("threshold"), scale=bool(known.get("scale", False)),
                   resample=known.get("resample"), extra=block, keys=keys)

    @classmethod
    def of(cls, entry) -> "ModelEntry":
        """``entry`` as a ModelEntry (a ModelEntry as it is, a dict converted)."""
        return entry if isinstance(entry, ModelEntry) else cls.from_dict(entry)

    def to_dict(self) -> dict:
        """The experiment file's model block (a fresh copy): the keys the block had, in
        their order, else the keys that hold something."""
        values = {"name": self.name, "estimator": self.estimator, "params": dict(self.params),
                  "grid": self.grid, "tune": self.tune, "threshold": self.threshold,
                  "scale": self.scale, "resample": self.resample}
        keys = self.keys or [key for key in KEYS
                             if values[key] or key in ("estimator", "params")] + list(self.extra)
        block = {key: values[key] if key in values else self.extra[key] for key in keys}
        return copy.deepcopy(block)

    # ------------------------------------------------------------------ reading
    @property
    def label(self) -> str:
        """The name given, else the estimator's ("?" when it names none)."""
        return self.name or self.estimator or "?"

    @property
    def grids(self) -> list:
        """The grid as a list of dicts (``[]`` without one)."""
        if not self.grid:
            return []
        return [self.grid] if isinstance(self.grid, Mapping) else list(self.grid)

    @property
    def grid_params(self) -> set:
        """The parameter names the grid varies."""
        return {name for grid in self.grids if isinstance(grid, Mapping) for name in grid}

    @property
    def is_tuned(self) -> bool:
        return bool(self.tune)
