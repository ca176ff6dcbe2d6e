"""The application's state: one QObject holding the data, the models, the settings and the
last results, emitting a signal whenever one of them changes.

Tabs read and write the state; they never talk to each other directly. Everything in
it is a plain engine value (Dataset, model entries as in the experiment file, engine
settings dataclasses, ExperimentResult), so saving it is writing an experiment file.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from PySide6.QtCore import QObject, Signal

from engine.catalogue import expand_models
from engine.cv import CVConfig
from engine.data import Dataset
from engine.experiment import (AloocvSettings, CalibrationSettings, Experiment, experiment_dict,
                               parse_experiment)
from engine.stats import ComparisonSettings

from .render_queue import RenderQueue


class AppState(QObject):
    dataset_changed = Signal(object)        # Dataset or None
    models_changed = Signal(list)           # model entries (experiment-file dicts)
    settings_changed = Signal()             # cv / metrics / comparison / extras / jobs
    result_changed = Signal(object)         # engine.analysis.ExperimentResult or None
    benchmark_changed = Signal(object)      # engine.benchmark.BenchmarkResult or None
    selection_changed = Signal(list)        # model names picked by the user (0, 1 or 2+)
    status_message = Signal(str)            # a line for the status bar

    def __init__(self, parent=None):
        super().__init__(parent)
        self.dataset: Optional[Dataset] = None
        self.model_entries: list = []
        self.cv = CVConfig()
        self.metrics: tuple = ()   # () = the default for the target (engine.metrics)
        self.comparison = ComparisonSettings()
        self.aloocv: Optional[AloocvSettings] = None
        self.calibration: Optional[CalibrationSettings] = None
        self.n_jobs: int = 1
        self.result = None
        self.benchmark = None      # a BenchmarkResult when the last run had several data sets
        self.selection: list = []
        self.experiment_path: Optional[str] = None
        self.renderer = RenderQueue(self)   # views draw new results through it, in slices

    # -- setters that announce the change
    def set_dataset(self, dataset: Optional[Dataset]) -> None:
        self.dataset = dataset
        self.set_result(None)
        self.dataset_changed.emit(dataset)

    def set_model_entries(self, entries: list) -> None:
        self.model_entries = [dict(e) for e in entries]
        self.models_changed.emit(self.model_entries)

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

    def set_benchmark(self, benchmark) -> None:
        """Keep a run over several data sets (``engine.benchmark.BenchmarkResult``) and
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
        """The models as engine ModelSpecs (grids expanded); raises ValueError if invalid."""
        return expand_models(self.model_entries)

    def to_experiment(self) -> Experiment:
        """The current setup as an engine Experiment (validated)."""
        if self.dataset is None:
            raise ValueError("no data set is loaded: open a CSV file or pick a built-in one")
        return parse_experiment(experiment_dict(self.dataset.source, self.model_entries, self.cv,
                                                self.metrics, self.comparison, self.aloocv,
                                                self.calibration))

    def apply_experiment(self, experiment: Experiment, dataset: Dataset) -> None:
        """Take over everything from an experiment file (its data already loaded)."""
        self.experiment_path = None
        self.cv, self.metrics = experiment.cv, tuple(experiment.metrics)
        self.comparison = experiment.comparison
        self.aloocv, self.calibration = experiment.aloocv, experiment.calibration
        self.set_dataset(dataset)
        self.set_model_entries(list(experiment.model_entries))
        self.settings_changed.emit()


def benchmark_index(benchmark, result):
    """The position of ``result``'s data set in ``benchmark`` (the very same data object,
    as results derived from it keep), or None."""
    if result is None:
        return None
    for index, own in enumerate(benchmark.results):
        if own.dataset is result.dataset:
            return index
    return None
