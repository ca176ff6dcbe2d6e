"""The main window: four tabs, File and Help menus, a toolbar, a status bar and QSettings.

Experiment files are read, saved and exported on worker jobs; every failure becomes a
dialog that says what to change, every save a status-bar notice of what was written where
(with a link that opens the folder). File dialogs remember their folders; Save proposes a
name next to the data, never inside the app's shipped examples. Unsaved changes put a
``*`` in the title; closing the window (or Quit) with unsaved changes or while a run goes
on asks first (the changes first, the run last: see :meth:`MainWindow.may_close`), then
cancels and waits for every job (the CV child process is ended).
"""
from __future__ import annotations

import gc
import os
from dataclasses import replace
from typing import Optional

from PySide6.QtCore import QSettings, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import (QApplication, QMainWindow, QMessageBox, QStyle, QTabWidget,
                               QVBoxLayout, QWidget)

from engine.evaluation.experiment import experiment_json_text, load_experiment
from engine.output.result_folder import FolderRefused, free_subfolder
from engine.foundation.schema import show
from engine.foundation.atomic_write import write_atomically

from . import file_dialogs, saving
from .exporting import (unbuilt, write_benchmark, write_report, write_results,
                        written_or_refused)
from .file_dialogs import file_name_part, is_shipped
from .dataset_loading import block_dataset, data_key, source_path
from .help import show_help
from .jobs import Job, JobSlot, sentence
from .kept_models import KeptModelsWriter
from .plain_text import ask, plain_label, plain_tip, warn
from .plots.plot_panel import PlotPanel, panels_in
from .predicting import PredictDialog
from .render_queue import NEXT_TURN
from .state import AppState
from .table_panel import TablePanel
from .tabs.cv_tab import CVTab
from .tabs.dataset_tab import DatasetTab
from .tabs.models_tab import ModelsTab
from .tabs.results_tab import ResultsTab
from .wheel_guard import install_wheel_guard
from .views.aloocv_view import AloocvView, same_data
from .views.auc_view import AucView
from .views.across_view import host_across_view
from .views.calibration_view import CalibrationView
from .views.decision_curve_view import DecisionCurveView
from .views.learning_curve_view import LearningCurveView
from .views.grouping_gap_view import GroupingGapView
from .views.roc_pr_view import RocPrView
from .views.heldout_view import HeldoutView
from .views.start_panel import StartGuide
from .views.subgroups_view import SubgroupsView
from .views.tuning_view import TuningView

APP_TITLE = "Honest Eval"
MAX_RECENT = 8
TAB_NAMES = ("Dataset", "Models", "Cross-validation", "Results")


def settle_memory() -> None:
    """Move the objects of start-up (Qt wrappers, modules) out of the garbage collector's
    way: a full collection over them took ~90 ms, the one stall left while a run goes on."""
    gc.collect()
    gc.freeze()


def lay_out_before_show(window: QMainWindow) -> None:
    """Do before the first show what it would do with the window on screen: the work Qt
    posted while the tabs were built (the plots' scenes polish and lay out their items),
    polishing every widget and the window's first layout (its size hints ask every page,
    also the hidden tabs'). Measured on a loaded 2-core machine: ~140 ms here, and the
    first show and paint fell from 70-98 ms plus a turn of 120-130 ms to ~9 ms plus ~23
    ms. Events posted for a widget deleted later (DeferredDelete) are not sent here."""
    app = QApplication.instance()
    app.sendPostedEvents()
    window.ensurePolished()
    window.minimumSizeHint()
    window.sizeHint()
    window.layout().activate()
    app.sendPostedEvents()


def make_results_tab(state: AppState, parent):
    """The Results tab with its ALOOCV, Calibration, Grouped vs ungrouped, Subgroups and
    Across data sets views."""
    tab = ResultsTab(state, parent)
    tab.add_view("ALOOCV", AloocvView(state, tab))
    tab.add_view("Calibration", CalibrationView(state, tab))
    tab.add_view("Grouped vs ungrouped", GroupingGapView(state, tab))
    tab.add_view("Subgroups", SubgroupsView(state, tab))
    tab.add_view("Tuning", TuningView(state, tab))
    tab.add_view("ROC and PR curves", RocPrView(state, tab))
    tab.add_view("AUC intervals", AucView(state, tab))
    tab.add_view("Decision curve", DecisionCurveView(state, tab))
    tab.add_view("Learning curve", LearningCurveView(state, tab))
    tab.add_view("Held-out test", HeldoutView(state, tab))
    host_across_view(tab, state)
    return tab


def load_experiment_and_data(path: str) -> tuple:
    """(Experiment, data sets) of an experiment file: every data set it lists, in order
    (one for a ``"dataset"`` file), data file paths made absolute. A data set that cannot be read
    fails the whole file, its name and place in the message."""
    experiment = load_experiment(path)
    datasets = []
    for index, block in enumerate(experiment.dataset_blocks):
        try:
            datasets.append(absolute_data_path(block_dataset(block, experiment.base_dir),
                                         experiment.base_dir))
        except ValueError as exc:
            if not experiment.datasets:
                raise
            raise ValueError(f"data set {show(block['name'])} (datasets[{index}]): "
                             f"{exc}") from None
    return experiment, tuple(datasets)


def absolute_data_path(dataset, base_dir: str):
    """``dataset`` with its data file's path (if any) absolute, relative ones to
    ``base_dir``."""
    key = data_key(dataset.source)
    if key is not None and not os.path.isabs(dataset.source[key]):
        full = os.path.normpath(os.path.join(base_dir, dataset.source[key]))
        dataset = replace(dataset, source={**dataset.source, key: full})
    return dataset


def write_text_file(path: str, text: str) -> str:
    """Write ``text`` whole or not at all (the engine's one atomic write: a temporary
    file flushed to disk, renamed, removed on any failure)."""
    return write_atomically(path, lambda stream: stream.write(text))


class MainWindow(QMainWindow):
    experiment_loaded = Signal(str)
    experiment_saved = Signal(str)
    results_exported = Signal(list)
    #: File → Export report… wrote the HTML report (its path).
    report_exported = Signal(str)

    def __init__(self, state: Optional[AppState] = None, settings: Optional[QSettings] = None,
                 parent=None):
        super().__init__(parent)
        install_wheel_guard()                # every drop-down and number box, also later ones
        self.state = state or AppState(self)
        self.settings = settings or QSettings()
        self._file_job = JobSlot()
        self._file_job_reading = False                # the file job reads (may be dropped)
        self._saved_setup = saving.setup_snapshot(self.state)   # as last opened or saved
        self._saved_source: Optional[list] = None     # the data sources of that file
        self._close_after_save = False
        self._saved_identity: tuple = ()             # the data of that file (AppState)
        self.setWindowTitle(APP_TITLE)
        self.setAcceptDrops(True)
        self._build_tabs()
        self.cv_tab.store.experiment_of = self.store_experiment_path
        store = self.cv_tab.store
        self.kept_models = KeptModelsWriter(
            self.state, lambda: store.launched_path() or store.path(), self)
        self.cv_tab.run_succeeded.connect(self.kept_models.write)
        self._build_actions()
        self._build_menus()
        self._build_toolbar()
        self.saved_notice = saving.SavedNotice(self)
        self.statusBar().addWidget(self.saved_notice, 1)
        self._progress_label = plain_label("", self)
        self.statusBar().addPermanentWidget(self._progress_label)
        self.state.status_message.connect(lambda text: self.statusBar().showMessage(text, 10000))
        self.state.result_changed.connect(self._update_actions)
        self.state.dataset_changed.connect(self._update_actions)
        self.state.datasets_changed.connect(self._forget_old_data)
        for signal in (self.state.result_changed, self.state.dataset_changed):
            signal.connect(self._clear_readouts)
        self._shown_identity: tuple = ()
        for signal in (self.state.dataset_changed, self.state.datasets_changed,
                       self.state.models_changed, self.state.settings_changed):
            signal.connect(self._update_title)
        self._restore_settings()
        self._update_actions()
        self.statusBar().showMessage("Ready. Press F1 for a short guide.")
        lay_out_before_show(self)
        settle_memory()

    # ------------------------------------------------------------------ building
    def _build_tabs(self) -> None:
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.dataset_tab = DatasetTab(self.state, self)
        self.models_tab = ModelsTab(self.state, self)
        self.cv_tab = CVTab(self.state, self)
        self.results_tab = make_results_tab(self.state, self)
        for widget, name in zip((self.dataset_tab, self.models_tab, self.cv_tab,
                                 self.results_tab), TAB_NAMES):
            self.tabs.addTab(widget, name)
        self.cv_tab.run_succeeded.connect(lambda _: self.tabs.setCurrentWidget(self.results_tab))
        self.start = StartGuide(self)
        central = QWidget(self)
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addWidget(self.start.panel)
        column.addWidget(self.start.bar)
        column.addWidget(self.tabs, 1)
        self.setCentralWidget(central)

    def _action(self, text: str, shortcut, slot, tip: str, icon=None) -> QAction:
        action = QAction(text, self)
        action.setShortcut(QKeySequence(shortcut))
        action.setStatusTip(tip)
        action.setToolTip(plain_tip(
            f"{tip} ({QKeySequence(shortcut).toString(QKeySequence.NativeText)})"))
        if icon is not None:
            action.setIcon(self.style().standardIcon(icon))
        action.triggered.connect(slot)
        return action

    def _build_actions(self) -> None:
        self.new_action = self._action(
            "New", "Ctrl+N", self.ask_new_experiment,
            "Start a new experiment: no data, no models, the default settings",
            QStyle.SP_FileIcon)
        self.open_data_action = self._action(
            "Open data…", "Ctrl+O", self._ask_open_data,
            "Open a data file (CSV, ARFF or Excel) as the data set (in place of the selected "
            "one; Add file… on the Dataset tab adds another)",
            QStyle.SP_DirOpenIcon)
        self.open_experiment_action = self._action(
            "Open experiment…", "Ctrl+Shift+O", self._ask_open_experiment,
            "Open an experiment file (data, models and settings)", QStyle.SP_FileDialogStart)
        self.save_action = self._action(
            "Save experiment…", "Ctrl+S", self._ask_save_experiment,
            "Save the data, models and settings as an experiment file", QStyle.SP_DialogSaveButton)
        self.export_action = self._action(
            "Export results…", "Ctrl+E", self._ask_export_results,
            "Write every result table as CSV into a folder", QStyle.SP_DriveHDIcon)
        self.predict_action = QAction("Predict…", self)
        self.predict_action.setStatusTip("Apply a saved model to a file of new rows and write "
                                         "its predictions as CSV")
        self.predict_action.triggered.connect(self.open_predict_dialog)
        self.export_report_action = self._action(
            "Export report…", "Ctrl+Shift+E", self._ask_export_report,
            "Write one self-contained HTML report of the run (verdicts, data, models, every "
            "table and plot, methods) to hand over", QStyle.SP_FileDialogDetailedView)
        self.csv_style_action = QAction("Tables for spreadsheets with decimal commas", self)
        self.csv_style_action.setCheckable(True)
        self.csv_style_action.setStatusTip(
            "Export tables with semicolons between columns and decimal commas (0,5), as "
            "spreadsheets set up for such a language open them; off: commas and decimal "
            "points, as every program reads them")
        self.csv_style_action.toggled.connect(
            lambda on: file_dialogs.set_csv_style(self, "semicolon" if on else "standard"))
        self.help_action = self._action("Guide", "F1", lambda: self.show_help_for_current_tab(),
                                        "A short guide to every view", QStyle.SP_MessageBoxQuestion)
        self.quit_action = self._action("Quit", "Ctrl+Q", self.close, "Close the application")

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        file_menu.addAction(self.new_action)
        for action in (self.open_data_action, self.open_experiment_action):
            file_menu.addAction(action)
        self.recent_menu = file_menu.addMenu("Open recent")
        file_menu.addSeparator()
        file_menu.addAction(self.save_action)
        file_menu.addAction(self.export_action)
        file_menu.addAction(self.export_report_action)
        file_menu.addAction(self.csv_style_action)
        file_menu.addAction(self.predict_action)
        file_menu.aboutToShow.connect(
            lambda: self.csv_style_action.setChecked(file_dialogs.csv_style(self) == "semicolon"))
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        help_menu = self.menuBar().addMenu("&Help")
        help_menu.addAction(self.help_action)
        about = help_menu.addAction("About")
        about.triggered.connect(self._show_about)

    def _build_toolbar(self) -> None:
        toolbar = self.addToolBar("Main")
        toolbar.setObjectName("main_toolbar")
        toolbar.setMovable(False)
        toolbar.setToolButtonStyle(Qt.ToolButtonTextBesideIcon)
        for action in (self.open_data_action, self.open_experiment_action, self.save_action,
                       self.export_action, self.help_action):
            toolbar.addAction(action)

    def _forget_old_data(self, *_) -> None:
        """New data: the status bar's notices were about the old."""
        if self.state.data_identity != self._shown_identity:
            self._shown_identity = self.state.data_identity
            self.saved_notice.clear()

    def _clear_readouts(self, *_) -> None:
        """New results or data (a run, Open results, another data set): no plot's hover
        read-out still describes the old."""
        for panel in panels_in(self):
            panel.clear_readout()

    def _update_actions(self, *_) -> None:
        self.export_action.setEnabled(self.state.result is not None)
        self.export_report_action.setEnabled(self.state.result is not None)
        self.save_action.setEnabled(self.state.dataset is not None)

    # ------------------------------------------------------------------ settings
    def _restore_settings(self) -> None:
        geometry = self.settings.value("window/geometry")
        if geometry is None or not self.restoreGeometry(geometry):
            self.resize(1280, 800)
        self._rebuild_recent_menu()

    def recent_files(self) -> list:
        value = self.settings.value("recent_experiments", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def _remember(self, path: str) -> None:
        path = os.path.abspath(path)
        recent = [path] + [p for p in self.recent_files() if p != path]
        self.settings.setValue("recent_experiments", recent[:MAX_RECENT])
        self._rebuild_recent_menu()

    def _rebuild_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.recent_files()
        for path in recent:
            action = self.recent_menu.addAction(os.path.basename(path))
            action.setToolTip(plain_tip(path))
            action.triggered.connect(lambda _=False, p=path: self.open_experiment(p))
        self.recent_menu.setEnabled(bool(recent))

    # ------------------------------------------------------------------ unsaved changes
    def is_dirty(self) -> bool:
        """True when the data, models or settings differ from the file last opened or saved
        (nothing to save without data)."""
        return (self.state.dataset is not None
                and saving.setup_snapshot(self.state) != self._saved_setup)

    def data_sources(self) -> list:
        """The source (experiment-file block) of every loaded data set, in order."""
        return [dict(dataset.source) for dataset in self.state.datasets]

    def _mark_saved(self, snapshot: str, source: Optional[list]) -> None:
        self._saved_setup, self._saved_source = snapshot, source
        self._saved_identity = self.state.data_identity
        self._update_title()

    def store_experiment_path(self) -> Optional[str]:
        """The experiment file whose result store the runs use: the one opened or saved
        while it holds that file's data (its target or columns may change); None (the
        store of unsaved work) once other data replaced it, so the same data opened
        directly after a restart finds the same store, and its Resume."""
        path = self.state.experiment_path
        return path if path and self.state.data_identity == self._saved_identity else None


    def _update_title(self, *_) -> None:
        """The experiment file's name while it holds that file's data, else the data's."""
        path, dataset = self.store_experiment_path(), self.state.dataset
        name = os.path.basename(path) if path else (dataset.name if dataset is not None else "")
        if not path and len(self.state.datasets) > 1:
            name = f"{len(self.state.datasets)} data sets"
        mark = "*" if self.is_dirty() else ""
        self.setWindowTitle(f"{name}{mark} — {APP_TITLE}" if name else APP_TITLE)

    # ------------------------------------------------------------------ folders and names
    def _data_path(self) -> str:
        dataset = self.state.dataset
        path = source_path(dataset.source) if dataset is not None else None
        return str(path) if path and os.path.isabs(str(path)) else ""

    def suggested_folder(self) -> str:
        """Where dialogs open when no folder is remembered: beside the data or the
        experiment file, never inside the app's shipped examples ("" if neither)."""
        for path in (self._data_path(), self.state.experiment_path):
            if path and not is_shipped(path) and os.path.isdir(os.path.dirname(path)):
                return os.path.dirname(path)
        return ""

    def proposed_experiment_path(self) -> str:
        """The experiment's own file when it is the user's and holds this data, else
        ``<data name>_experiment.json`` beside the data (or in the last folder used)."""
        path, dataset = self.state.experiment_path, self.state.dataset
        if path and not is_shipped(path) and self.data_sources() == self._saved_source:
            return path
        csv = self._data_path()
        if dataset is None:
            name = "experiment"
        elif len(self.state.datasets) > 1:
            name = "datasets_experiment"
        else:
            stem = (os.path.splitext(os.path.basename(csv))[0] if csv
                    else dataset.source.get("builtin") or dataset.name)
            name = f"{file_name_part(stem) or 'data'}_experiment"
        folder = (os.path.dirname(csv) if csv and not is_shipped(csv)
                  else file_dialogs.last_folder(self, "experiment"))
        return os.path.join(folder, f"{name}.json")

    # ------------------------------------------------------------------ new / open / save / export
    def ask_new_experiment(self) -> bool:
        """File → New, after asking about a run going on or unsaved changes; True if done."""
        busy = self.busy_with()
        if busy:
            self._error("Cannot start a new experiment yet", f"{busy} is still going on.",
                        "Wait for it to finish, or stop it (Cancel on the Cross-validation "
                        "tab), then choose File → New again.")
            return False
        if self.is_dirty():
            choice = saving.ask_unsaved(self)
            if choice == "save":
                self._ask_save_experiment()
                return False
            if choice != "discard":
                return False
        self.new_experiment()
        return True

    def new_experiment(self) -> None:
        """A clean experiment: no data, no models, default settings, not saved anywhere
        (its result store is the one of unsaved work), the first-screen steps shown.

        The views are cleared through the render queue, a few turns of the event loop
        (:meth:`AppState.reset_in_turns`); new data or an experiment asked for meanwhile
        waits for the end (:meth:`AppState.finish_reset`)."""
        self.state.renderer.submit(self.state, self._new_in_turns())

    def _new_in_turns(self):
        """File → New: the state reset, then (the Dataset tab empty: little to lay out
        and paint) that tab shown in a turn of its own."""
        yield from self.state.reset_in_turns()
        yield NEXT_TURN
        self.saved_notice.clear()
        self._mark_saved(saving.setup_snapshot(self.state), None)
        self.start.restart()
        self.tabs.setCurrentWidget(self.dataset_tab)
        self.statusBar().showMessage("New experiment: open a data file to begin.", 10000)

    def _ask_open_data(self) -> None:
        self.tabs.setCurrentWidget(self.dataset_tab)
        self.dataset_tab.ask_data_path()

    def _ask_open_experiment(self) -> None:
        path = file_dialogs.ask_open_path(self, "Open an experiment", "experiment",
                                          "Experiment files (*.json);;All files (*)")
        if path:
            self.open_experiment(path)

    def open_experiment(self, path: str) -> None:
        """Read an experiment and its data on a worker, then take them over."""
        self.state.finish_reset()
        self._start_file_job(lambda: load_experiment_and_data(path),
                             lambda loaded: self._on_experiment_loaded(path, loaded),
                             "Cannot open the experiment",
                             "Check the file (it must be an experiment JSON file as saved by "
                             "this app) or pick another one.",
                             f"Opening {os.path.basename(path)}…", reading=True)

    def _on_experiment_loaded(self, path: str, loaded) -> None:
        experiment, datasets = loaded
        with self.start.experiment_opening(is_shipped(path)):
            self.state.apply_experiment(experiment, datasets)
        self.state.experiment_path = path
        self._remember(path)
        self._mark_saved(saving.setup_snapshot(self.state), self.data_sources())
        self.statusBar().showMessage(f"Opened {path}", 10000)
        self.experiment_loaded.emit(path)

    def _ask_save_experiment(self) -> bool:
        """Ask where (see :meth:`proposed_experiment_path`) and save; True if started."""
        if self.state.dataset is None:
            return self.save_experiment("")          # explains what to do first
        path = file_dialogs.ask_save_path(self, "Save the experiment", "experiment",
                                          self.proposed_experiment_path(),
                                          "Experiment files (*.json)")
        return bool(path) and self.save_experiment(path)

    def save_experiment(self, path: str) -> bool:
        """Validate the setup here, write the file on a worker; True if the write started."""
        if not path.lower().endswith(".json"):
            path += ".json"
        try:
            experiment = self.state.to_experiment()
        except ValueError as exc:
            self._error("Cannot save the experiment", str(exc),
                        "Fix this on the Dataset, Models or Cross-validation tab, then save "
                        "again.")
            return False
        if is_shipped(path):
            self._error("Cannot save the experiment", f"{path} is one of the app's own "
                        "example files.", "Save it under another name in a folder of your "
                        "own (for example your documents folder).")
            return False
        snapshot, source = saving.setup_snapshot(self.state), self.data_sources()
        if self._file_job.running:
            self.statusBar().showMessage("Still busy with the previous file; please wait.", 5000)
            return False
        self._start_file_job(lambda: write_text_file(path, experiment_json_text(experiment,
                                                                                path=path)),
                             lambda _: self._on_experiment_saved(path, snapshot, source),
                             "Cannot save the experiment",
                             "Choose another folder or file name.", f"Saving {path}…")
        return True

    def _on_experiment_saved(self, path: str, snapshot: str, source: list) -> None:
        self.cv_tab.store.follow_save(path)                 # the fits follow
        self.state.experiment_path = path
        self._remember(path)
        self._mark_saved(snapshot, source)
        self.show_saved(f"Saved the experiment {os.path.basename(path)}", os.path.dirname(path))
        self.experiment_saved.emit(path)
        if self._close_after_save:
            self._close_after_save = False
            QTimer.singleShot(0, self.close)

    def _ask_export_results(self) -> None:
        folder = file_dialogs.ask_folder(self, "Export the result tables into…", "export")
        if folder:
            self.export_results(folder)

    def result_for_export(self):
        """The result with every table on screen: an ALOOCV curve computed in its view
        (on this data) is included even when the run did not compute one."""
        result = self.state.result
        if result is None:
            return None
        for view in self.findChildren(AloocvView):
            if (view.aloocv is not None and result.aloocv is not view.aloocv
                    and same_data(result.dataset, self.state.dataset)):
                result = replace(result, aloocv=view.aloocv)
        return result

    def export_results(self, folder: str) -> None:
        """Write every result table as CSV into ``folder`` on a worker (after a run over
        several data sets: what the headless runner writes, see :mod:`gui.exporting`)."""
        style = file_dialogs.csv_style(self)
        if self.state.benchmark is not None:
            benchmark = self.state.benchmark
            self._start_file_job(lambda: written_or_refused(
                                     lambda: write_benchmark(benchmark, folder, style)),
                                 lambda written: self._after_export(
                                     written, folder, self._on_benchmark_exported),
                                 "Cannot export the results",
                                 "Choose another folder (one you can write to).",
                                 f"Writing the tables into {folder}…")
            return
        result = self.result_for_export()
        if result is None:
            self._error("Nothing to export yet", "There are no results.",
                        "Run the cross-validation first (Cross-validation tab, Run).")
            return
        self._start_file_job(lambda: written_or_refused(
                                 lambda: write_results(result, folder, style)),
                             lambda paths: self._after_export(paths, folder,
                                                              self._on_results_exported),
                             "Cannot export the results",
                             "Choose another folder (one you can write to).",
                             f"Writing the tables into {folder}…")

    def _ask_export_report(self) -> None:
        path = file_dialogs.ask_save_path(self, "Export the report as…", "export",
                                          "report.html", "HTML report (*.html *.htm)")
        if path:
            self.export_report(path)

    def export_report(self, path: str) -> None:
        """Write the run's HTML report to ``path`` on a worker (:func:`gui.exporting.
        write_report`; after a run over several data sets, of all of them), then offer to
        open it in the default browser."""
        result = self.state.benchmark or self.result_for_export()
        if result is None:
            self._error("Nothing to report yet", "There are no results.",
                        "Run the cross-validation first (Cross-validation tab, Run).")
            return
        self._start_file_job(lambda: write_report(result, path), self._on_report_exported,
                             "Cannot write the report",
                             "Choose another file (in a folder you can write to).",
                             f"Writing the report {path}…")

    def _on_report_exported(self, path: str) -> None:
        self.show_saved(f"Wrote the report {os.path.basename(path)}", os.path.dirname(path))
        self.report_exported.emit(path)
        answer = ask(
            self, "Report written", f"The report is in {path}.\n\nOpen it in your web "
            "browser?", QMessageBox.Yes | QMessageBox.No, QMessageBox.Yes)
        if answer == QMessageBox.Yes:
            QDesktopServices.openUrl(QUrl.fromLocalFile(path))

    def _after_export(self, written, folder: str, done) -> None:
        """``done(written, folder)``, or, when the folder holds files this app did not
        write (nothing was written), ask the user: a new folder inside it, or another."""
        if not isinstance(written, FolderRefused):
            done(written, folder)
            return
        self.statusBar().clearMessage()
        choice = file_dialogs.ask_about_refused_folder(self, written)
        if choice == "subfolder":
            self._when_file_job_ends(lambda: self.export_results(free_subfolder(written.folder)))
        elif choice == "choose":
            self._when_file_job_ends(self._ask_export_results)

    def _when_file_job_ends(self, then) -> None:
        """``then()`` once the file job's thread has ended (it ends right after the signal
        that brought us here): polled on the event loop, so the window never waits on it."""
        job = self._file_job.job
        if job is not None and job.isRunning():
            QTimer.singleShot(20, lambda: self._when_file_job_ends(then))
            return
        then()

    def _on_results_exported(self, written, folder: str) -> None:
        self.show_saved(f"Wrote {len(written.tables)} tables{unbuilt(written)}", folder)
        self.results_exported.emit(list(written.tables))

    def _on_benchmark_exported(self, written, folder: str) -> None:
        self.show_saved(f"Wrote {written.summary}{unbuilt(written)}", folder)
        self.results_exported.emit(list(written.paths))

    def show_saved(self, what: str, folder: str) -> None:
        """Say in the status bar what was written where, with a link to the folder."""
        self.statusBar().clearMessage()
        self.saved_notice.show_saved(what, folder)

    def _start_file_job(self, work, on_success, title: str, advice: str, message: str,
                        reading: bool = False) -> None:
        """Run ``work`` (a file read or write) on a worker. A file still being read (a
        slow disk, a network folder) never blocks the next: opening another file stops
        waiting for it (:meth:`JobSlot.abandon`); a file being written is waited for."""
        if self._file_job.running:
            if not (reading and self._file_job_reading):
                self.statusBar().showMessage("Still busy with the previous file; please wait.",
                                             5000)
                return
            self._file_job.abandon()
        self._file_job_reading = reading
        job = Job(work, name="file")
        job.succeeded.connect(on_success)
        job.failed.connect(lambda text: self._error(title, text, advice))
        self.statusBar().showMessage(message)
        self._file_job.start(job)

    def open_predict_dialog(self):
        """File → Predict…: the (non-modal) dialog that applies a saved model."""
        dialog = getattr(self, "predict_dialog", None)
        if dialog is None:
            dialog = self.predict_dialog = PredictDialog(self)
            dialog.predicted.connect(lambda out, n: self.show_saved(
                f"Wrote {n} predictions", os.path.dirname(os.path.abspath(out))))
            self.state.kept_models_changed.connect(dialog.propose_kept)
            dialog.propose_kept(self.state.kept_models)
        dialog.show()
        dialog.raise_()
        return dialog

    def _error(self, title: str, message: str, advice: str) -> None:
        self._close_after_save = False
        self.statusBar().showMessage(title, 10000)
        warn(self, title, f"{sentence(message)}\n\n{advice}")

    # ------------------------------------------------------------------ help, drops, closing
    def show_help_for_current_tab(self):
        topics = {self.dataset_tab: "dataset", self.models_tab: "models", self.cv_tab: "cv",
                  self.results_tab: "results"}
        return show_help(topics.get(self.tabs.currentWidget(), "index"), self)

    def _show_about(self) -> None:
        QMessageBox.about(self, f"About {APP_TITLE}",
                          "A workbench for comparing classifiers honestly: repeated stratified "
                          "cross-validation and the corrected statistical comparison of models."
                          "\n\nBuilt on scikit-learn, Qt and pyqtgraph.")

    def dragEnterEvent(self, event) -> None:
        self.dataset_tab.dragEnterEvent(event)

    def dropEvent(self, event) -> None:
        """A data file dropped anywhere on the window opens in the Dataset tab."""
        self.dataset_tab.dropEvent(event)
        if event.isAccepted():
            self.tabs.setCurrentWidget(self.dataset_tab)

    def shutdown(self, msecs: int = 30000) -> bool:
        """Cancel every job and wait for it; True when no thread is left running."""
        ok = self.cv_tab.shutdown(msecs)
        for view in (*self.findChildren(AloocvView), *self.findChildren(CalibrationView)):
            ok = view.wait_for_job(msecs) is not False and ok
        ok = self.dataset_tab.shutdown(msecs) and ok
        ok = self._file_job.wait(msecs) and ok
        ok = self.kept_models.wait(msecs) and ok
        for panel in self.findChildren(TablePanel):
            ok = panel.wait_for_export(msecs) and ok
        for panel in self.findChildren(PlotPanel):
            ok = panel.wait_for_save(msecs) and ok
        if getattr(self, "predict_dialog", None) is not None:
            ok = self.predict_dialog.wait(msecs) and ok
        return ok

    def busy_with(self) -> str:
        """What is still computing, in words ("" when nothing is)."""
        if self.cv_tab.running:
            return "A cross-validation run"
        if any(view.running for view in self.findChildren(AloocvView)):
            return "An ALO curve computation"
        if any(view.running for view in self.findChildren(CalibrationView)):
            return "A calibration"
        return ""

    def may_close(self) -> bool:
        """Ask before losing unsaved changes or a running computation; True to close now.

        Unsaved changes are asked about first (Save starts the save and the window closes
        once it is written, after the question below), a running computation last: "Stop
        and quit" is always the last answer, so it stops the run and quits. Cancel at
        either question changes nothing: the window stays open and a run goes on."""
        if self.is_dirty():
            choice = saving.ask_unsaved(self)
            if choice == "save":
                self._close_after_save = self._ask_save_experiment()
            if choice != "discard":
                return False
        busy = self.busy_with()
        store = self.cv_tab.store.launched_path() if self.cv_tab.running else None
        return not busy or saving.ask_stop_running(self, busy, store,
                                                   self.store_experiment_path() is not None)

    def closeEvent(self, event) -> None:
        if self._file_job.running and self._close_after_save:
            event.ignore()                              # closes when the save is written
            return
        if not self.may_close():
            event.ignore()
            return
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.sync()
        self.shutdown()
        super().closeEvent(event)
