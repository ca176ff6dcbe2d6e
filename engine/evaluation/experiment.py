"""Experiment files (described in docs/experiment-format.md): parse, validate, save.

Every problem is a ``ValueError`` whose text says what is wrong and what to change.
"""
from __future__ import annotations

import codecs
import json
import math
import os
from dataclasses import dataclass, field
from typing import Any, Optional

from engine.evaluation.auto_repeats import cv_fields
from engine.evaluation.catalogue import expand_models, is_scale_sensitive, seed_entry
from engine.evaluation.costs import as_costs, check_cost_metric, cost_notes, metric_costs
from engine.evaluation.cv import CVConfig
from engine.input.dataset_names import check_dataset_name, name_datasets
from engine.input.file_checks import check_experiment_file
from engine.input.imbalance import with_imbalance_metric
from engine.evaluation.metrics import check_metric_names, default_metric
from engine.foundation.errors import EngineError, error_code, error_fields, is_caller_error
from engine.foundation.notes import Note
from engine.foundation.param_caps import setting_problem
from engine.input.readers import check_file_options, check_test_block
from engine.foundation.schema import check_experiment_schema, printable, show
from engine.evaluation.stats import ComparisonSettings
from engine.evaluation.subgroups.spec import parse_subgroups
from engine.evaluation.tuning import check_cost, with_scoring

#: The sections of an experiment file (besides ``$schema``, a note for editors).
TOP_LEVEL_KEYS = ("dataset", "datasets", "models", "cv", "metrics", "costs", "comparison",
                  "aloocv", "calibration", "curves", "test", "save_models", "subgroups")


@dataclass(frozen=True)
class AloocvSettings:
    """Range and resolution of the ALO curve over C, and whether to add exact LOO."""

    C_min: float = 0.001
    C_max: float = 1000.0
    n_C: int = 50
    exact_loo: bool = False

    def __post_init__(self):
        if not (self.C_min > 0 and self.C_max > self.C_min and math.isfinite(self.C_max)):
            raise EngineError("aloocv_c_range", {"C_min": self.C_min, "C_max": self.C_max})
        problem = setting_problem("n_C", self.n_C)
        if problem:
            raise EngineError("section_setting_invalid", {"place": "aloocv.n_C", "problem": problem})

    def to_json(self) -> dict:
        return {"C_min": self.C_min, "C_max": self.C_max, "n_C": self.n_C,
                "exact_loo": self.exact_loo}


@dataclass(frozen=True)
class CalibrationSettings:
    """Calibration methods, reliability-diagram bins and calibration-map buckets."""

    methods: tuple = ("isotonic", "sigmoid")
    n_bins: int = 10
    strategy: str = "uniform"
    map_buckets: int = 1000

    def __post_init__(self):
        unknown = [m for m in self.methods if m not in ("isotonic", "sigmoid")]
        if unknown:
            raise EngineError("calibration_methods", {"unknown": list(map(str, unknown))})
        if self.strategy not in ("uniform", "quantile"):
            raise EngineError("calibration_strategy", {"strategy": self.strategy})
        for name in ("n_bins", "map_buckets"):
            problem = setting_problem(name, getattr(self, name))
            if problem:
                raise EngineError("section_setting_invalid", {"place": f"calibration.{name}",
                                                      "problem": problem})

    def to_json(self) -> dict:
        return {"methods": list(self.methods), "n_bins": self.n_bins, "strategy": self.strategy,
                "map_buckets": self.map_buckets}


#: The learning-curve fractions of ``"learning": true``.
DEFAULT_LEARNING = (0.1, 0.325, 0.55, 0.775, 1.0)


@dataclass(frozen=True)
class CurvesSettings:
    """Which curve analyses to compute from the out-of-fold predictions (the ``curves``
    block; with it, ``predictions.csv`` is written).

    ``roc``, ``pr`` and ``decision`` switch ROC, precision-recall and decision curves
    (default on); ``learning`` holds the fractions of each training fold a learning
    curve fits on, ascending (default none: they add fits). ``learning_shuffle`` fits
    each fraction on a seeded shuffle of the training fold instead of its first rows
    (scikit-learn's ``learning_curve(shuffle=True, random_state=cv.random_state)``): for
    data sorted by class, whose first rows hold one class only.
    """

    roc: bool = True
    pr: bool = True
    decision: bool = True
    learning: tuple = ()
    learning_shuffle: bool = False

    def __post_init__(self):
        learning = self.learning
        if learning is True:
            learning = DEFAULT_LEARNING
        elif learning is False or learning is None:
            learning = ()
        fractions = tuple(sorted(float(f) for f in learning))
        bad = [f for f in fractions if not (0 < f <= 1)]
        if bad:
            raise EngineError("learning_fraction", {"value": bad[0]})
        if len(set(fractions)) != len(fractions):
            raise EngineError("learning_fraction_twice")
        object.__setattr__(self, "learning", fractions)

    def to_json(self) -> dict:
        data = {"roc": self.roc, "pr": self.pr, "decision": self.decision,
                "learning": list(self.learning)}
        if self.learning_shuffle:
            data["learning_shuffle"] = True
        return data


@dataclass(frozen=True)
class Experiment:
    """A parsed, validated experiment.

    Every model whose estimator takes a ``random_state`` and was given none gets
    ``cv.random_state`` (in ``model_entries`` too, so a saved file says so). Empty
    ``metrics`` means the default for the target (:func:`engine.evaluation.metrics.default_metric`),
    chosen when the data is known. ``notes`` are :class:`~engine.foundation.notes.Note` values
    (``random_state_given``, ``unscaled_models``, ``default_metric``).

    ``costs`` is the top-level ``"costs"`` matrix (a tuple of tuples, or None);
    :meth:`metric_costs` is what the expected-cost metric uses (:mod:`engine.evaluation.costs`).

    ``dataset`` is the data set block of a file with ``"dataset"``. A file with a
    ``"datasets"`` list has its blocks, each with its ``"name"`` (given or by default,
    :func:`engine.input.dataset_names.name_datasets`), in ``datasets``, and ``dataset`` is the
    first of them; such an experiment is run by :func:`engine.runs.benchmark.run_benchmark`,
    or one data set at a time through :meth:`for_dataset`.
    """

    dataset: dict
    model_entries: tuple
    models: tuple
    cv: CVConfig = CVConfig()
    metrics: tuple = ()
    comparison: ComparisonSettings = ComparisonSettings()
    aloocv: Optional[AloocvSettings] = None
    calibration: Optional[CalibrationSettings] = None
    base_dir: str = field(default=".", compare=False)
    notes: tuple = field(default=(), compare=False)
    datasets: tuple = ()
    costs: Optional[tuple] = None
    curves: Optional[CurvesSettings] = None
    test: Optional[dict] = None
    save_models: bool = False
    subgroups: tuple = ()

    def metric_costs(self) -> Optional[tuple]:
        """The costs the expected-cost metric scores by: the top-level ``costs``, else the
        models' threshold costs when they all give one matrix
        (:func:`engine.evaluation.costs.metric_costs`)."""
        return metric_costs(self.costs, self.models)

    @property
    def n_datasets(self) -> int:
        """How many data sets the experiment runs on (1 for a ``"dataset"`` file)."""
        return len(self.datasets) or 1

    @property
    def dataset_blocks(self) -> tuple:
        """Every data set block: ``datasets``, or ``(dataset,)`` for one data set."""
        return self.datasets or (self.dataset,)

    def for_dataset(self, index: int) -> "Experiment":
        """The single-data-set experiment of ``datasets[index]`` (its block keeps its
        ``"name"``; the experiment's notes stay with the several-data-set run)."""
        from dataclasses import replace

        if not self.datasets:
            return self
        return replace(self, dataset=dict(self.datasets[index]), datasets=(), notes=())

    def with_metrics_for(self, n_classes: int, dataset=None) -> "Experiment":
        """The experiment with its default metric filled in (:meth:`_metrics_for`), with
        the notes on its costs (:func:`engine.evaluation.costs.cost_notes`).

        Raises
        ------
        ValueError
            The expected-cost metric on a target without two classes
            (:func:`engine.evaluation.costs.cost_metric_problem`).
        """
        from dataclasses import replace

        check_cost_metric(self.metrics, self.metric_costs(), n_classes=n_classes)
        done = self._metrics_for(n_classes, dataset)
        codes = {note.code for note in done.notes}
        new = tuple(note for note in cost_notes(done.metrics, self.costs, self.models)
                    if note.code not in codes)
        return replace(done, notes=done.notes + new)

    def _metrics_for(self, n_classes: int, dataset=None) -> "Experiment":
        """The experiment with its default metric filled in for ``n_classes`` classes (and
        a note saying so); unchanged when it names its metrics. When ``dataset`` (the
        :class:`~engine.input.data.Dataset` it runs on) has imbalanced classes
        (:func:`engine.input.imbalance.is_imbalanced`), ``balanced_accuracy`` is added after the
        default, with a note."""
        if self.metrics:
            return self
        if dataset is not None:
            import numpy as np

            counts = np.bincount(dataset.y, minlength=len(dataset.classes))
            return with_imbalance_metric(self.with_metrics_for(n_classes), counts,
                                         dataset.classes)
        from dataclasses import replace

        metric = default_metric(n_classes)
        return replace(self, metrics=(metric,),
                       models=_tune_scoring(self.models, metric, self.metric_costs()),
                       notes=self.notes + (
            Note("default_metric", fields={"metric": metric, "n_classes": n_classes}),))

    def to_json(self) -> dict:
        return experiment_dict(self.dataset, self.model_entries, self.cv, self.metrics,
                               self.comparison, aloocv=self.aloocv, calibration=self.calibration,
                               datasets=self.datasets or None, costs=self.costs,
                               curves=self.curves, test=self.test,
                               save_models=self.save_models, subgroups=self.subgroups)


def experiment_dict(dataset: dict, model_entries, cv: CVConfig, metrics,
                    comparison: ComparisonSettings, *, aloocv: Optional[AloocvSettings] = None,
                    calibration: Optional[CalibrationSettings] = None,
                    datasets=None, costs=None,
                    curves: Optional[CurvesSettings] = None, test=None,
                    save_models=False, subgroups=()) -> dict:
    """The JSON object of an experiment file (optional sections only when set); with
    ``datasets`` (a list of data set blocks) a ``"datasets"`` file, ``dataset`` unused;
    ``costs`` the top-level cost matrix; ``curves`` the curves block; ``subgroups``
    :class:`engine.evaluation.subgroups.spec.SubgroupSpec` values."""
    data: dict[str, Any] = {"dataset": dict(dataset)} if not datasets else \
        {"datasets": [dict(block) for block in datasets]}
    data.update({"models": [dict(e) for e in model_entries], "cv": cv.to_json(),
                 "metrics": list(metrics), "comparison": comparison.to_json()})
    if not data["metrics"]:
        del data["metrics"]
    if costs is not None:
        data["costs"] = [list(row) for row in costs]
    if aloocv is not None:
        data["aloocv"] = aloocv.to_json()
    if calibration is not None:
        data["calibration"] = calibration.to_json()
    if curves is not None:
        data["curves"] = curves.to_json()
    if test:
        data["test"] = dict(test)
    if save_models:
        data["save_models"] = True
    if subgroups:
        data["subgroups"] = [spec.to_json() for spec in subgroups]
    return data


def _section(data: dict, key: str, cls, convert=None):
    """The settings object of an optional section (None when absent or null); the
    schema has checked its keys and types, the class checks what ties them together."""
    value = data.get(key)
    if value is None:
        return None
    value = dict(value)
    if convert:
        value = convert(value)
    try:
        return cls(**value)
    except TypeError as exc:
        raise EngineError("section_invalid", {"section": key, "detail": str(exc)}) from None


def _as_tuple(name):
    def convert(value):
        if name in value:
            value[name] = tuple(value[name])
        return value
    return convert


def parse_experiment(data: dict, *, base_dir: str = ".") -> Experiment:
    """Validate the JSON object of an experiment file.

    The declared schema (:mod:`engine.foundation.schema`, ``engine/experiment.schema.json``) is
    checked first; then what a schema cannot say: the encoding is one Python knows, the
    metrics are classification scorers, the models' parameters pass scikit-learn's own
    checks. No data is read.

    Parameters
    ----------
    data : dict
        The parsed JSON.
    base_dir : str
        The experiment file's folder (relative CSV paths are relative to it).

    Returns
    -------
    Experiment

    Raises
    ------
    ValueError
        One line that names the place in the file and what is wrong there.
    """
    try:
        return _parse(data, base_dir)
    except ValueError as exc:
        if is_caller_error(exc):         # the engine's own bug: reported as it is
            raise
        if error_code(exc):              # the catalogue's sentence, made one line
            raise EngineError(error_code(exc), error_fields(exc), printable(str(exc))) \
                from None
        # a library's own check (not worded by the app), made one line
        raise EngineError("experiment_value", {"detail": printable(str(exc))},
                          printable(str(exc))) from None


def _parse(data: dict, base_dir: str) -> Experiment:
    check_experiment_schema(data)
    datasets = _datasets(data)
    cv = _section(data, "cv", CVConfig, cv_fields) or CVConfig()
    entries = list(data["models"])
    seeded = [seed_entry(e, cv.random_state) for e in entries]
    notes = _seed_notes(entries, seeded, cv.random_state)
    entries = seeded
    models = expand_models(entries, random_state=cv.random_state)
    notes += _scaling_notes(models)
    metrics = data.get("metrics", [])
    single = isinstance(metrics, str)              # one name may be given alone
    metrics = [metrics] if single else list(metrics)
    check_metric_names(metrics, indexed=not single)
    costs = _costs(data.get("costs"))
    check_cost_metric(metrics, metric_costs(costs, models))
    if metrics:
        models = list(_tune_scoring(models, str(metrics[0]), metric_costs(costs, models)))
    comparison = _section(data, "comparison", ComparisonSettings,
                          _as_tuple("credible_levels")) or ComparisonSettings()
    aloocv = _section(data, "aloocv", AloocvSettings)
    calibration = _section(data, "calibration", CalibrationSettings, _as_tuple("methods"))
    curves = _section(data, "curves", CurvesSettings)
    test = _test_block(data)
    subgroups = _subgroups(data)
    return Experiment(dataset=dict(datasets[0] if datasets else data["dataset"]),
                      model_entries=tuple(entries),
                      models=tuple(models), cv=cv, metrics=tuple(str(m) for m in metrics),
                      comparison=comparison, aloocv=aloocv, calibration=calibration,
                      base_dir=base_dir, notes=tuple(notes), datasets=datasets, costs=costs,
                      curves=curves, test=test,
                      save_models=bool(data.get("save_models", False)),
                      subgroups=subgroups)


def _subgroups(data: dict) -> tuple:
    """The ``"subgroups"`` entries (:func:`engine.evaluation.subgroups.spec.parse_subgroups`);
    refused with ``"datasets"`` (a column belongs to one data set)."""
    if data.get("subgroups") and "datasets" in data:
        raise EngineError("subgroups_with_datasets")
    return parse_subgroups(data.get("subgroups"))


def _test_block(data: dict) -> Optional[dict]:
    """The ``"test"`` block checked (its file's kind and reading options), or None.

    A held-out test file belongs to one data set: with ``"datasets"`` it is refused."""
    block = data.get("test")
    if data.get("save_models") and not block:
        raise EngineError("save_models_without_test")
    if block is None:
        return None
    if "datasets" in data:
        raise EngineError("test_with_datasets")
    check_test_block(block)
    check_dataset_options({"encoding": block["encoding"]} if block.get("encoding") else {},
                          where="test")
    return dict(block)


def _costs(value) -> Optional[tuple]:
    """The top-level ``"costs"`` checked (:func:`engine.evaluation.tuning.check_cost`), or None."""
    if value is None:
        return None
    return as_costs(check_cost(value, where="costs"))


def _tune_scoring(models, metric: str, costs=None) -> tuple:
    """The models with ``tune.scoring`` defaulting to the primary metric ``metric`` (and
    the costs of a grid search by the expected cost)."""
    return tuple(with_scoring(spec, metric, costs=costs) for spec in models)


def _datasets(data: dict) -> tuple:
    """The named blocks of a ``"datasets"`` list (() for a ``"dataset"`` file), each
    block's options checked."""
    if "datasets" not in data:
        check_dataset_options(data["dataset"])
        if "name" in data["dataset"]:
            check_dataset_name(data["dataset"]["name"], "dataset.name")
        return ()
    for index, block in enumerate(data["datasets"]):
        check_dataset_options(block, where=f"datasets[{index}]")
    return name_datasets(data["datasets"])


def check_dataset_options(dataset: dict, *, where: str = "dataset") -> None:
    """What the schema cannot check in a ``dataset`` block: ``encoding`` names a text
    encoding Python knows (``codecs.lookup``; not a transform such as ``rot13``); a
    ``file`` has an extension the app reads and only the options of its kind
    (:func:`engine.input.readers.check_file_options`).

    Parameters
    ----------
    dataset : dict
    where : str
        The block's place in the file (``dataset``, ``datasets[2]``).

    Raises
    ------
    ValueError
        ``dataset.encoding: "klingon" is not a text encoding Python knows; ...``
    """
    if "file" in dataset:
        try:
            check_file_options(dataset)
        except ValueError as exc:
            if str(exc).startswith("dataset"):
                raise
            raise EngineError("dataset_file", {"detail": str(exc),
                                               "inner_code": error_code(exc)}) from None
    encoding = dataset.get("encoding")
    if encoding is None:
        return
    try:
        # getattr: codecs' CodecInfo
        known = getattr(codecs.lookup(encoding), "_is_text_encoding", True)
    except LookupError:
        known = False
    if not known:
        raise EngineError("unknown_encoding", {"place": where, "got": show(encoding)})


def _seed_notes(entries, seeded, random_state) -> list:
    names = [str(e.get("name") or e.get("estimator")) for e, s in zip(entries, seeded)
             if s is not e]
    if not names:
        return []
    return [Note("random_state_given",
                 fields={"random_state": random_state, "models": names})]


def _scaling_notes(models) -> list:
    names = [m.name for m in models if is_scale_sensitive(m.estimator) and not m.scale]
    if not names:
        return []
    return [Note("unscaled_models", fields={"models": names})]


def load_experiment(path: str) -> Experiment:
    """Read and validate an experiment file.

    Parameters
    ----------
    path : str

    Returns
    -------
    Experiment

    Raises
    ------
    ValueError
        One line, for a file that cannot be read (a FIFO, device or folder is never
        opened, :func:`engine.input.file_checks.check_experiment_file`), is not JSON (or is nested
        too deeply to read), or is not a valid experiment (see :func:`parse_experiment`).
    """
    data = read_experiment_file(path)
    return parse_experiment(data, base_dir=os.path.dirname(os.path.abspath(path)))


def read_experiment_file(path: str):
    """The JSON value of an experiment file, every problem a one-line ValueError.

    Parameters
    ----------
    path : str

    Returns
    -------
    object
        What the file holds (not yet validated).
    """
    check_experiment_file(path)          # a FIFO would block, /dev/zero never end
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return json.load(handle)
    except FileNotFoundError:
        raise EngineError("experiment_missing", {"path": path}) from None
    except IsADirectoryError:
        raise EngineError("experiment_is_folder", {"path": path}) from None
    except OSError as exc:
        raise EngineError("experiment_unreadable", {"path": path,
                                                    "detail": str(exc.strerror or exc)}) from None
    except ValueError as exc:            # not UTF-8, not JSON, a number too long to read
        if "integer string conversion" in str(exc):
            raise EngineError("experiment_long_number", {"path": path}) from None
        raise EngineError("experiment_not_json", {"path": printable(path),
                                                  "detail": printable(str(exc))}) from None
    except RecursionError:
        raise EngineError("experiment_file_too_deep", {"path": path}) from None


def experiment_json_text(experiment: Experiment, *, path: Optional[str] = None) -> str:
    """The experiment as the text of a JSON file.

    Parameters
    ----------
    experiment : Experiment
    path : str, optional
        Where the text will be saved.  A data file (``csv`` or ``file``) in that file's
        folder (or below) is then written relative to it, so the folder can be moved or
        shared as a whole; a data file elsewhere keeps its absolute path.
    """
    data = experiment.to_json()
    if path is not None:
        folder = os.path.dirname(os.path.abspath(path))
        if "datasets" in data:
            data["datasets"] = [csv_relative_to(block, folder) for block in data["datasets"]]
        else:
            data["dataset"] = csv_relative_to(data["dataset"], folder)
        if "test" in data:
            data["test"] = csv_relative_to(data["test"], folder)
    return json.dumps(data, indent=2) + "\n"


def csv_relative_to(dataset: dict, folder: str) -> dict:
    """``dataset`` with an absolute ``csv`` or ``file`` path inside ``folder`` made
    relative to it (with ``/`` separators, which every platform reads); anything else
    unchanged."""
    key = "csv" if "csv" in dataset else "file"
    path = dataset.get(key)
    if not isinstance(path, str) or not os.path.isabs(path):
        return dataset
    try:
        relative = os.path.relpath(path, folder)
    except ValueError:                                  # another drive (Windows)
        return dataset
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return dataset
    return {**dataset, key: relative.replace(os.sep, "/")}
