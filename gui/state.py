"""The application's state: one QObject holding the data, the models, the settings and the
last results, emitting a signal whenever one of them changes.

Tabs read and write the state; they never talk to each other directly. Everything in
it is a plain engine value (Dataset, model entries as typed ModelEntry values that convert
to and from the experiment file's blocks, engine
settings dataclasses, ExperimentResult), so saving it is writing an experiment file.
"""
from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Optional

from PySide6.QtCore import QObject, Signal

from engine.evaluation.catalogue import expand_models
from engine.evaluation.auto_repeats import DEFAULT_PRECISION
from engine.evaluation.cv import CVConfig
from engine.input.data import Dataset
from engine.evaluation.experiment import (AloocvSettings, CalibrationSettings, Experiment,
                                          experiment_dict, parse_experiment)
from engine.evaluation.stats import ComparisonSettings

from .dataset_list import dataset_blocks, rename_problem, unique_names, with_name
from .model_entry import ModelEntry
from .render_queue import NEXT_TURN, RenderQueue, draw_now
from .subgroup_blocks import subgroup_blocks, with_subgroups


class AppState(QObject):
    dataset_changed = Signal(object)        # Dataset or None: the one selected (or new data)
    datasets_changed = Signal(list)         # every loaded Dataset, in order
    models_changed = Signal(list)           # model entries (experiment-file dicts)
    settings_changed = Signal()             # cv / metrics / comparison / extras / jobs
    result_changed = Signal(object)         # engine.runs.analysis.ExperimentResult or None
    benchmark_changed = Signal(object)      # engine.runs.benchmark.BenchmarkResult or None
    selection_changed = Signal(list)        # model names picked by the user (0, 1 or 2+)
    status_message = Signal(str)            # a line for the status bar
    kept_models_changed = Signal(object)    # gui.kept_models.KeptRecord or None

    def __init__(self, parent=None):
        super().__init__(parent)
        self.dataset: Optional[Dataset] = None   # the selected one of ``datasets``
        self.datasets: list = []                 # every data set of the experiment, in order
        #: The model entries (:class:`~gui.model_entry.ModelEntry`), in order.
        self.models: tuple = ()
        self._specs_cache = None         # (models, their ModelSpecs): see model_specs
        self.cv = CVConfig(auto_precision=DEFAULT_PRECISION)
        self.metrics: tuple = ()   # () = the default for the target (engine.evaluation.metrics)
        #: True once the metrics were chosen (on the CV tab, or named by an experiment
        #: file): new data then keeps them as they are; False while they are the default
        #: for the data, to which imbalanced classes add balanced accuracy.
        self.metrics_named = False
        self.comparison = ComparisonSettings()
        self.aloocv: Optional[AloocvSettings] = None
        self.calibration: Optional[CalibrationSettings] = None
        #: The experiment file's "curves" block (engine.evaluation.experiment.CurvesSettings) or None.
        self.curves = None
        #: The experiment file's top-level "costs" (engine.evaluation.costs), kept as opened and saved.
        self.costs: Optional[tuple] = None
        #: The held-out test block (``{"file": absolute path, ...}``) and whether to keep the
        #: final models (engine.runs.heldout), or None / False.
        self.test: Optional[dict] = None
        self.save_models: bool = False
        #: The experiment file's ``"subgroups"`` entries (gui.subgroup_blocks), () for none.
        self.subgroups: tuple = ()
        self.n_jobs: int = 1
        self.result = None
        self.benchmark = None      # a BenchmarkResult when the last run had several data sets
        #: Where the last run's kept models went (gui.kept_models.KeptRecord) or None.
        self.kept_models = None
        self.selection: list = []
        self.experiment_path: Optional[str] = None
        #: The result store of the result shown (a path, or None for none): where the
        #: Calibration and ALOOCV views keep their jobs' results (set by the
        #: Cross-validation tab's store, gui.tabs.store_link).
        self.result_store = lambda: None
        #: What the loaded data is (:func:`data_identity`): a change is new data.
        self.data_identity: tuple = ()
        self.renderer = RenderQueue(self)   # views draw new results through it, in slices

    # -- setters that announce the change
    def set_dataset(self, dataset: Optional[Dataset]) -> None:
        """New data in place of the selected data set (the only one when none is loaded;
        None: no data at all)."""
        index = self.selected_index()
        if dataset is None or index is None:
            self._set_datasets([] if dataset is None else [dataset], 0)
        else:
            self._set_datasets(self.datasets[:index] + [dataset] + self.datasets[index + 1:],
                               index, keep=index)

    def set_datasets(self, datasets: list, selected: int = 0) -> None:
        """Every data set at once (as an experiment file lists them); ``selected`` shown."""
        self._set_datasets(list(datasets), selected)

    def add_dataset(self, dataset: Dataset) -> None:
        """One more data set, after the others, and selected (its name made unique)."""
        self._set_datasets(self.datasets + [dataset], len(self.datasets),
                           keep=len(self.datasets))

    def remove_dataset(self, index: int) -> None:
        """Leave out data set ``index``; its neighbour is selected."""
        rest = self.datasets[:index] + self.datasets[index + 1:]
        self._set_datasets(rest, min(index, len(rest) - 1))

    def move_dataset(self, index: int, to: int) -> None:
        """Move data set ``index`` to place ``to`` (the order of the tables and reports)."""
        datasets = list(self.datasets)
        datasets.insert(to, datasets.pop(index))
        self.datasets = datasets
        self.set_result(None)
        self.datasets_changed.emit(list(datasets))

    def rename_dataset(self, index: int, name: str) -> None:
        """Call data set ``index`` ``name``; a ValueError says why a name cannot be used."""
        problem = rename_problem(self.datasets, index, name)
        if problem:
            raise ValueError(problem)
        renamed = with_name(self.datasets[index], name, recorded=True)
        was_selected = self.datasets[index] is self.dataset
        self.datasets = self.datasets[:index] + [renamed] + self.datasets[index + 1:]
        self.datasets_changed.emit(list(self.datasets))
        if was_selected:
            self.dataset = renamed
            self.dataset_changed.emit(renamed)

    def select_dataset(self, index: int) -> None:
        """Show (and edit) data set ``index`` on the Dataset tab; the results stay."""
        if 0 <= index < len(self.datasets) and self.datasets[index] is not self.dataset:
            self.dataset = self.datasets[index]
            self.dataset_changed.emit(self.dataset)

    def selected_index(self) -> Optional[int]:
        """The place of the selected data set in ``datasets`` (None without data)."""
        return next((i for i, d in enumerate(self.datasets) if d is self.dataset), None)

    def _set_datasets(self, datasets: list, selected: int, keep: Optional[int] = None) -> None:
        """The new list, names made unique (the one at ``keep`` renamed first when needed,
        a single data set keeps its own name), ``selected`` shown; the results dropped."""
        if len(datasets) > 1:
            order = [i for i in range(len(datasets)) if i != keep] + \
                ([keep] if keep is not None else [])
            named = dict(zip(order, unique_names([datasets[i] for i in order])))
            datasets = [named[i] for i in range(len(datasets))]
        self.datasets = datasets
        self.dataset = datasets[selected] if datasets else None
        fresh = self._start_clean(datasets)
        self.set_result(None)
        self.dataset_changed.emit(self.dataset)
        self.datasets_changed.emit(list(datasets))
        if fresh:
            self.settings_changed.emit()

    def _start_clean(self, datasets: list) -> bool:
        """New data keeps nothing that belonged to the old: with no data set in common
        with the old ones (another file or built-in data set, not the same one read again
        with another target or columns), no models picked, the ROPE the default of the
        metric, no held-out test file and no subgroups; without groups, no "also run
        without groups". True when a setting changed."""
        identity = data_identity(datasets)
        old, self.data_identity = self.data_identity, identity
        before = (self.cv, self.comparison, self.test, self.subgroups)
        if not set(identity) & set(old):
            self.set_selection([])
            self.comparison = replace(self.comparison, rope=None)
            self.test, self.save_models = None, False
            self.subgroups = ()
        if not any(d.groups is not None for d in datasets):
            self.cv = replace(self.cv, compare_ungrouped=False)
        return before != (self.cv, self.comparison, self.test, self.subgroups)

    def set_model_entries(self, entries: list) -> None:
        """Take ``entries`` (experiment-file dicts or ModelEntry values) as the models."""
        self.models = tuple(ModelEntry.of(entry) for entry in entries)
        self.models_changed.emit(self.model_entries)

    @property
    def model_entries(self) -> list:
        """The models as the experiment file's dicts (fresh copies: changing one changes
        nothing here; :meth:`set_model_entries` does)."""
        return [entry.to_dict() for entry in self.models]

    def set_cv(self, cv: CVConfig, metrics: tuple, n_jobs: int = 1) -> None:
        self.cv, self.metrics, self.n_jobs = cv, tuple(metrics), n_jobs
        self.settings_changed.emit()

    def set_comparison(self, settings: ComparisonSettings) -> None:
        """New ROPE / alpha / correction: the last result is compared again (no new CV)."""
        self.comparison = settings
        self.settings_changed.emit()
        if self.result is not None:
            self.set_result(self.result.with_comparison(settings))

    def set_extras(self, aloocv: Optional[AloocvSettings],
                   calibration: Optional[CalibrationSettings]) -> None:
        self.aloocv, self.calibration = aloocv, calibration
        self.settings_changed.emit()

    def set_curves(self, curves) -> None:
        """The ``curves`` block (a CurvesSettings, or None: no curves)."""
        self.curves = curves
        self.settings_changed.emit()

    def set_test(self, block: Optional[dict], save_models: Optional[bool] = None) -> None:
        """A held-out test file (``{"file": PATH, ...}``; None: none), and whether to keep
        the final models (unchanged when None)."""
        self.test = dict(block) if block else None
        if save_models is not None:
            self.save_models = bool(save_models)
        if self.test is None:
            self.save_models = False
        self.settings_changed.emit()

    def set_subgroups(self, blocks) -> None:
        """The ``"subgroups"`` entries (column names or ``{"column", "cuts"}`` blocks; empty:
        no subgroups)."""
        self.subgroups = subgroup_blocks(blocks)
        self.settings_changed.emit()

    def set_result(self, result) -> None:
        """Show ``result``. One of the benchmark's data sets (the same data, e.g. after a
        calibration or a new ROPE) replaces that data set's result in the benchmark; any
        other result (a run on one data set, or None) clears the benchmark."""
        if self.benchmark is not None:
            index = benchmark_index(self.benchmark, result)
            if index is None:
                self.benchmark = None
                self.benchmark_changed.emit(None)
            elif self.benchmark.results[index] is not result:
                results = list(self.benchmark.results)
                results[index] = result
                self.benchmark = replace(self.benchmark, results=tuple(results))
        self.result = result
        self.result_changed.emit(result)

    def set_kept_models(self, record) -> None:
        """Where the last run's kept models were written (or why not)."""
        self.kept_models = record
        self.kept_models_changed.emit(record)

    def set_benchmark(self, benchmark) -> None:
        """Keep a run over several data sets (``engine.runs.benchmark.BenchmarkResult``) and
        show its first data set's result (None clears both)."""
        self.benchmark = benchmark
        self.benchmark_changed.emit(benchmark)
        self.set_result(benchmark.results[0] if benchmark is not None else None)

    def pick_dataset(self, name: str) -> None:
        """Show the result of the benchmark's data set ``name``."""
        if self.benchmark is None:
            raise ValueError("there is no run over several data sets to pick a data set from")
        names = list(self.benchmark.names)
        if name not in names:
            raise ValueError(f"no data set named {name!r} in the last run (it has "
                             f"{', '.join(names)})")
        result = self.benchmark.results[names.index(name)]
        if result is not self.result:
            self.set_result(result)

    def set_selection(self, names: list) -> None:
        names = [str(n) for n in names]
        if names != self.selection:
            self.selection = names
            self.selection_changed.emit(names)

    # -- experiment files
    def model_specs(self) -> list:
        """The models as engine ModelSpecs (grids expanded); raises ValueError if invalid.

        Expanded once per set of models: applying an experiment asks for them from every
        view (ten times), each expansion re-validating every grid point with scikit-learn."""
        cached = self._specs_cache
        if cached is None or cached[0] is not self.models:
            cached = (self.models, tuple(expand_models(self.model_entries)))
            self._specs_cache = cached
        return list(cached[1])

    def to_experiment(self) -> Experiment:
        """The current setup as an engine Experiment (validated)."""
        return parse_experiment(self.experiment_setup())

    def experiment_setup(self) -> dict:
        """The current setup as the JSON object of an experiment file, not yet validated:
        a copy of its own, so a worker thread may parse it while the user edits."""
        if self.dataset is None:
            raise ValueError("no data set is loaded: open a CSV file or pick a built-in one")
        first, several = self.dataset_blocks()
        data = experiment_dict(first, self.model_entries, self.cv, self.metrics,
                               self.comparison, aloocv=self.aloocv, calibration=self.calibration,
                               datasets=several, costs=self.costs, curves=self.curves,
                               test=self.test, save_models=self.save_models)
        return copy.deepcopy(with_subgroups(data, self.subgroups))

    def dataset_blocks(self) -> tuple:
        """``(dataset, datasets)`` of the experiment file: the one data set's block (as
        before) and None, or {} and the list of blocks, each with its name."""
        return dataset_blocks(self.datasets)

    def reset(self) -> None:
        """A new experiment (File → New): no data, no models, the default settings, no
        results, not saved anywhere."""
        draw_now(self.reset_in_turns())

    def finish_reset(self) -> None:
        """End a File → New still under way (:meth:`reset_in_turns`, submitted to the
        render queue with the state as its owner) at once: before other data is loaded,
        so that it is not cleared after it came."""
        self.renderer.finish(self)

    def reset_in_turns(self):
        """:meth:`reset` as a drawing for the render queue: the settings at once, then the
        results, the data, the models each announced in a turn of the event loop of its
        own (announced in one turn, the views' clearing held the window for 45-90 ms of
        CPU after a run of 20 models)."""
        self.experiment_path = None
        self.cv, self.metrics, self.metrics_named = CVConfig(auto_precision=DEFAULT_PRECISION), (), False
        self.comparison = ComparisonSettings()
        self.aloocv = self.calibration = self.curves = self.costs = None
        self.test, self.save_models = None, False
        self.subgroups = ()
        self.n_jobs = 1
        self.set_benchmark(None)
        yield NEXT_TURN
        self.set_datasets([])
        yield NEXT_TURN
        self.set_model_entries([])
        self.set_selection([])
        yield NEXT_TURN
        self.settings_changed.emit()

    def apply_experiment(self, experiment: Experiment, dataset) -> None:
        """Take over everything from an experiment file (its data already loaded: a
        Dataset, or all of them in order)."""
        self.experiment_path = None
        self.cv, self.metrics = experiment.cv, tuple(experiment.metrics)
        self.metrics_named = bool(experiment.metrics)
        self.comparison = experiment.comparison
        self.aloocv, self.calibration = experiment.aloocv, experiment.calibration
        self.costs = experiment.costs
        self.curves = experiment.curves
        self.test = test_with_full_path(experiment.test, experiment.base_dir)
        self.save_models = bool(experiment.save_models)
        self.subgroups = subgroup_blocks(experiment.subgroups)
        datasets = list(dataset) if isinstance(dataset, (list, tuple)) else [dataset]
        self.data_identity = data_identity(datasets)     # the file's settings are for it
        self.set_selection([])
        self.set_datasets(datasets)
        self.set_model_entries(list(experiment.model_entries))
        self.settings_changed.emit()


def data_identity(datasets) -> tuple:
    """What the data sets are, for telling new data from the same data read again (with
    another target, groups or columns): each one's file, or built-in name and options."""
    ignored = ("target", "pos_label", "groups", "exclude", "features", "name")
    return tuple(json.dumps({k: v for k, v in dict(d.source).items() if k not in ignored},
                            sort_keys=True, default=str) for d in datasets)


def test_with_full_path(block: Optional[dict], base_dir: str) -> Optional[dict]:
    """An experiment's ``"test"`` block with its file's path made absolute (relative to
    the experiment file's folder, as the runner reads it), or None."""
    import os

    if not block:
        return None
    path = block["file"]
    return {**block, "file": path if os.path.isabs(path) else
            os.path.normpath(os.path.join(base_dir, path))}


def benchmark_index(benchmark, result):
    """The position of ``result``'s data set in ``benchmark`` (the very same data object,
    as results derived from it keep), or None."""
    if result is None:
        return None
    for index, own in enumerate(benchmark.results):
        if own.dataset is result.dataset:
            return index
    return None
