"""The Cross-validation tab: folds, repeats, seed, metrics and jobs; Run, Cancel, progress, log.

The run goes through the engine's run service (:mod:`engine.run_service`, as the
headless runner's): checked on a worker thread, then run in a child process
(:mod:`gui.tabs.run_job`, :func:`engine.runs.runner.run_in_process`, so the fits never hold
the GUI thread's GIL), driven by a :class:`~gui.jobs.Job`; Cancel ends the child at once.
On success the result goes into the state (``AppState.set_result``, or with several data
sets ``AppState.set_benchmark``). This module keeps the widgets.
"""
from __future__ import annotations

import os
import threading
from dataclasses import replace

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFormLayout, QFrame, QGroupBox,
                               QHBoxLayout, QListWidget, QListWidgetItem, QMessageBox,
                               QPlainTextEdit, QProgressBar, QPushButton, QScrollArea, QSizePolicy,
                               QSpinBox, QSplitter, QTabWidget, QVBoxLayout, QWidget)

from engine.runs import guards, runner
from engine.foundation import schema
from engine.foundation.machine import format_seconds
from engine.evaluation.costs import COST_METRIC, is_threshold_free
from engine.evaluation.experiment import CalibrationSettings
from engine.runs.preflight import blocking
from engine.runs.run_plan import plan_models, plan_run
from engine.run_service import is_several
from engine.evaluation.verdict import metric_label

from ..dataset_loading import target_confirmed
from ..help import help_title
from ..jobs import Job, JobSlot, sentence
from ..metric_choice import (any_imbalanced, class_counts, metrics_for_targets, model_costs,
                             ordered_metrics)
from ..note_words import note_words, plain_ids
from ..plain_text import ask, plain_label, warn
from ..plots.live_scores_plot import LiveScoresPlot
from ..preflight_fixes import apply_to_state
from ..views.preflight_dialog import PreflightDialog
from ..views.subgroups_box import SubgroupsBox
from . import run_job
from .benchmark_run import LivePlotFeed, fit_count_text, progress_text
from .curves_options import CurvesOptions
from .default_size import DefaultSize
from .run_job import check_setup
from .repeats_choice import AUTO, plan_words, show_repeats, with_repeats
from .run_on import RunOn, checked_on
from .store_link import StoreLink, checked_store


# ---------------------------------------------------------------------- the run, in a process
#: Computed in the run's process (the cached values travel with the result): the notes,
#: the primary score matrix, which every view of the results derives, and the confusion
#: counts of the per-class view.
#: The tooltip of "Compare by expected cost".
COST_TIP = ("Ranks and compares the models by the mean cost per row of their predictions, "
            "each at the threshold it chose inside the fold, with the costs typed on the "
            "Models tab. Lower is better. You can switch back with \"Compare on\".")
#: Lines kept for the count of what Run computes (the panel's foot keeps its height: the
#: options above it stay where they are whatever the count says).
SIZE_LINES = 4
#: Run's text while a data set shows a candidate target no one chose (short enough for the
#: button at 1280 px; its tooltip says where).
CHOOSE_TARGET = "Choose the column to predict"
CHOOSE_TARGET_TIP = ("Run waits until you choose the column to predict on the Dataset tab "
                     "(What to predict): the app does not guess it.")
PREPARED_FOR_DISPLAY = runner.Precompute("notes", "cv.score_matrix", "cv.confusion_by_fold")


def run_in_process(checked, cluster=None, store=None, **options):
    """The window's run of a ``checked`` run (:func:`engine.run_service.check_run`), as
    Run starts it (:func:`gui.tabs.run_job.run_in_process`: the run service in a child
    process, its result prepared for display there, the held-out test rows the check
    read passed on); a generator like ``run_experiment``.  ``cluster``: a Dask
    scheduler's address (the child connects to it).  ``store``: the result store's file
    (opened in the child), or None.  ``options`` go to the runner.

    (The bundle's ``--check-bundle`` drives it too, as the window's run path.)
    """
    return run_job.run_in_process(checked.experiment, checked.datasets, checked.n_jobs,
                                  PREPARED_FOR_DISPLAY, cluster, store, test=checked.test,
                                  **options)


def estimate_job(experiment, datasets, n_jobs: int) -> Job:
    """The time estimate of a run that asks first (:func:`engine.runs.guards.
    estimate_seconds`: a few fits on the real data) as a job in a child process, like
    the run itself: the fits never hold the window's process."""
    return Job.in_process(guards.estimate_seconds, (experiment, list(datasets), n_jobs),
                          name="run-estimate")


def log_text(result) -> str:
    """A run's notes in plain words (what to change; the data's own notes are on the
    Dataset tab), then every failed fold's and warning's message."""
    failures = result.cv.failures
    dataset_notes = set(result.dataset.notes)
    summary = [f"• {note_words(note)}" for note in result.notes if note not in dataset_notes]
    if failures.empty:
        return "\n".join(["No fold failed and no warnings were raised.", *summary])
    lines = [f"{row.kind}: {row.model}, repeat {row.repeat}, fold {row.fold}: "
             f"{plain_ids(row.message)}" for row in failures.itertuples(index=False)]
    errors = int((failures["kind"] == "error").sum())
    header = f"{errors} failed fold(s), {len(failures) - errors} warning(s):"
    return "\n".join([*summary, "", header, *lines])


def learning_seconds(state):
    """The mean time of one learning-curve fit, from the shown result's fit times scaled
    by the mean fraction; None without a result or fractions."""
    curves, result = state.curves, state.result
    if curves is None or not curves.learning or result is None:
        return None
    seconds = result.cv.scores.drop_duplicates(["model", "repeat", "fold"])["fit_seconds"]
    mean = float(seconds.mean()) if len(seconds) else float("nan")
    if not mean == mean:
        return None
    return mean * sum(curves.learning) / len(curves.learning)


def scheme_combo(parent) -> QComboBox:
    """The fold assignment (``CVConfig.scheme``): scikit-learn's or Weka 3's."""
    combo = QComboBox(parent)
    combo.addItem("scikit-learn", "sklearn")
    combo.addItem("Weka 3", "weka")
    combo.setToolTip("Whose folds: scikit-learn's RepeatedStratifiedKFold, or exactly the folds "
                     "Weka 3's Explorer and Experimenter make (repeat i is Weka's run seed + i), "
                     "to compare with Weka's results")
    return combo


def interval_combo(parent) -> QComboBox:
    """Each model's interval (``CVConfig.interval``): the corrected t, or also nested CV."""
    combo = QComboBox(parent)
    combo.addItem("Corrected t", "corrected_t")
    combo.addItem("Also nested CV (Bates et al.)", "nested")
    combo.setToolTip("Nested CV adds an interval for the model fitted on all rows "
                     "(accuracy, Brier score or log loss first); it fits every model "
                     "repeats x k x k more times (10 repeats unless the experiment file says)")
    return combo


def spin_box(low: int, high: int, tip: str, parent) -> QSpinBox:
    box = QSpinBox(parent)
    box.setRange(low, high)
    box.setToolTip(tip)
    box.setKeyboardTracking(False)
    return box


def scrolled(panel: QWidget, parent) -> QScrollArea:
    """``panel`` in a scroll area of its own width (and the scroll bar's): the options keep
    their height and the window can still be smaller than they are (the wheel scrolls
    them)."""
    area = QScrollArea(parent)
    area.setWidget(panel)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
    bar = area.verticalScrollBar().sizeHint().width()
    area.setMinimumWidth(panel.minimumWidth() + bar)
    area.setMaximumWidth(panel.maximumWidth() + bar)
    return area


class CVTab(QWidget):
    """Settings on the left; progress, the live plot and the log on the right."""

    run_started = Signal()
    run_succeeded = Signal(object)
    run_cancelled = Signal()
    run_failed = Signal(str)

    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        self._run_job = JobSlot()
        self._check_job = JobSlot()     # checking the setup, estimating its time
        self._feed = None         # the live plot's feed during a run of several data sets
        self._warnings = []       # the pre-run check's warnings of the run being started
        self.preflight_dialog = None   # the pre-run check's list while it is open
        self._cluster = None      # the Dask scheduler of the run, or None (this computer)
        self._checked_test = None  # the held-out test rows the last check read, or None
        self._syncing = False
        self.store = StoreLink(self, PREPARED_FOR_DISPLAY)
        self.runs_view = self.store.runs_view
        splitter = QSplitter(Qt.Horizontal, self)
        splitter.addWidget(scrolled(self._build_settings(), self))
        splitter.addWidget(self._build_run_view())
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([360, 920])
        QVBoxLayout(self).addWidget(splitter)
        state.settings_changed.connect(self._show_settings)
        state.dataset_changed.connect(self._on_dataset_changed)
        state.models_changed.connect(lambda _: self._on_models_changed())
        for signal in (state.dataset_changed, state.models_changed, state.settings_changed):
            signal.connect(lambda *_: self.store.refresh())
        self._show_settings()
        self._update_buttons()
        self.default_size = DefaultSize(state, lambda: self.running, self._say_sized, self)
        self.store.refresh()      # the earlier runs, and a run to resume, of unsaved work
        runner.warm_up()   # the run's process server imports the engine in the background
        # and so does a thread here: the first Run would import jsonschema (0.2 s) at once
        threading.Thread(target=schema.prepare_validator, name="schema-warm-up",
                         daemon=True).start()

    # ------------------------------------------------------------------ layout
    def _build_settings(self) -> QWidget:
        panel = QWidget(self)
        panel.setMinimumWidth(320)
        panel.setMaximumWidth(440)
        layout = QVBoxLayout(panel)
        layout.setContentsMargins(0, 0, 6, 0)
        layout.addLayout(help_title("Repeated stratified k-fold", "cv", self))
        form = QFormLayout()
        self.folds_box = spin_box(2, 100, "k: the rows are split into this many folds; each is "
                                  "the test set once", panel)
        self.repeats_box = spin_box(AUTO, 1000, "r: how many times the k-fold split is "
                                    "repeated with a new shuffle; auto: until one more repeat "
                                    "would narrow no interval by the precision", panel)
        self.seed_box = spin_box(0, 2**31 - 1, "Fixes the shuffles so the run can be repeated "
                                 "exactly", panel)
        self.jobs_box = spin_box(1, max(os.cpu_count() or 1, 1), "Processor cores fitting folds "
                                 "at the same time (same numbers for any value)", panel)
        self.primary_combo = QComboBox(panel)
        self.primary_combo.setToolTip("Ranks the models and is used in every comparison; "
                                      "only scores valid for the target are offered")
        form.addRow("Folds (k)", self.folds_box)
        form.addRow("Repeats (r)", self.repeats_box)
        form.addRow("Random seed", self.seed_box)
        self.scheme_combo = scheme_combo(panel)
        form.addRow("Fold assignment", self.scheme_combo)
        self.interval_combo = interval_combo(panel)
        form.addRow("Interval", self.interval_combo)
        form.addRow("Compare on", self.primary_combo)
        layout.addLayout(form)
        layout.addWidget(self._build_cost_offer(panel))
        extra = QGroupBox("Also report", panel)
        self.extra_list = QListWidget(extra)
        self.extra_list.setToolTip("Extra metrics computed from the same fits (not compared)")
        # the list takes the panel's spare height (at least four rows), not its full length:
        # the panel's height for its width is then what the window has, without scrolling
        self.extra_list.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Ignored)
        self.extra_list.setMinimumHeight(4 * self.extra_list.fontMetrics().lineSpacing() + 12)
        self._offered_for = None
        self._offer_metrics((2,))
        QVBoxLayout(extra).addWidget(self.extra_list)
        layout.addWidget(extra, 1)
        self.calibrate_check = QCheckBox("Then calibrate the probabilities", panel)
        self.calibrate_check.setToolTip(
            "Isotonic and Platt calibration, fitted inside every fold. Adds reliability diagrams and calibrated scores to the results. It refits every "
            "model twice per fold, so the run takes about three times as long. Saved in the "
            "experiment file as its \"calibration\" section.")
        self.calibrate_check.toggled.connect(self._store_calibration)
        layout.addWidget(self.calibrate_check)
        self.curves_box = CurvesOptions(panel)
        self.curves_box.changed.connect(self._store_curves)
        layout.addWidget(self.curves_box)
        jobs = QFormLayout()
        jobs.addRow("Parallel jobs", self.jobs_box)
        layout.addLayout(jobs)
        self.run_on = RunOn(self.jobs_box, panel)
        layout.addWidget(self.run_on)
        for box in (self.folds_box, self.repeats_box, self.seed_box, self.jobs_box):
            box.valueChanged.connect(self._store_settings)
        for box in (self.folds_box, self.repeats_box):
            box.valueChanged.connect(self._user_sized)
        for signal in (self.primary_combo.currentIndexChanged, self.extra_list.itemChanged):
            signal.connect(self._mark_metrics_chosen)        # before they are stored
            signal.connect(self._store_settings)
        self.scheme_combo.currentIndexChanged.connect(self._store_settings)
        self.interval_combo.currentIndexChanged.connect(self._store_settings)
        self.run_button = QPushButton("Run", panel)
        self.run_button.setStyleSheet("font-weight: bold; padding: 6px;")
        self.run_button.clicked.connect(self.start_run)
        self.cancel_button = QPushButton("Cancel", panel)
        self.cancel_button.clicked.connect(self.cancel_run)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button, 2)
        buttons.addWidget(self.cancel_button, 1)
        layout.addLayout(buttons)
        self.size_label = plain_label("", panel)
        self.size_label.setWordWrap(True)
        self.size_label.setStyleSheet("color: #555;")
        self.size_label.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        lines = SIZE_LINES * self.size_label.fontMetrics().lineSpacing()
        self.size_label.setFixedHeight(lines + 2)   # a longer count moves nothing above it
        layout.addWidget(self.size_label)
        return panel

    def _build_cost_offer(self, panel) -> QWidget:
        """The offer to compare by the expected cost when the models' thresholds have
        costs (hidden otherwise)."""
        self.cost_offer = QWidget(panel)
        row = QVBoxLayout(self.cost_offer)
        row.setContentsMargins(0, 0, 0, 0)
        self.cost_offer_label = plain_label("", self.cost_offer)
        self.cost_offer_label.setWordWrap(True)
        self.cost_offer_label.setStyleSheet("color: #555;")
        self.cost_button = QPushButton("Compare by expected cost", self.cost_offer)
        self.cost_button.setToolTip(COST_TIP)
        self.cost_button.clicked.connect(self.compare_by_cost)
        row.addWidget(self.cost_offer_label)
        row.addWidget(self.cost_button, 0, Qt.AlignLeft)
        self.cost_offer.setVisible(False)
        return self.cost_offer

    def _model_costs(self):
        """:func:`model_costs` of the state's models, worked out once per set of models
        and costs (one change of data asks ~20 times; each copied every model entry)."""
        models, given = self.state.models, self.state.costs
        cached = getattr(self, "_costs_cache", None)
        if cached is None or cached[0] is not models or cached[1] is not given:
            cached = (models, given, model_costs(self.state.model_entries, given))
            self._costs_cache = cached
        return cached[2]

    def _costs_offered(self) -> bool:
        """True when the models' thresholds give the costs the expected cost needs and
        every data set has two classes."""
        return (self._model_costs() is not None
                and class_counts(self.state.datasets) == (2,))

    def _show_cost_offer(self) -> None:
        costs = self._model_costs()
        shown = self._costs_offered() and self.primary_combo.currentData() != COST_METRIC
        if costs is not None:
            (tn, fp), (fn, tp) = costs
            primary = self.primary_combo.currentData() or ""
            why = ("does not depend on the threshold" if is_threshold_free(primary)
                   else "does not weigh the errors by them")
            self.cost_offer_label.setText(
                f"Your models choose their thresholds by costs (false positive {fp:g}, false "
                f"negative {fn:g}, true positive {tp:g}, true negative {tn:g}). "
                f"{metric_label(primary)} {why}; the expected cost per row does "
                "(lower is better).")
        self.cost_offer.setVisible(shown)

    def compare_by_cost(self) -> None:
        """Make the expected cost the metric the models are compared on."""
        index = self.primary_combo.findData(COST_METRIC)
        if index >= 0:
            self.primary_combo.setCurrentIndex(index)

    def _on_models_changed(self) -> None:
        """Models with (or without) threshold costs: offer the expected cost (or drop it)."""
        self._forget_last_run()
        costs = self._costs_offered()
        metrics = metrics_for_targets(list(self.state.metrics), class_counts(self.state.datasets),
                                      costs=costs)
        self._offer_metrics(class_counts(self.state.datasets))
        if self.state.metrics and tuple(metrics) != tuple(self.state.metrics):
            self.state.set_cv(self.state.cv, tuple(metrics), self.state.n_jobs)
        else:
            self._show_settings()

    def _build_run_view(self) -> QWidget:
        panel = QWidget(self)
        layout = QVBoxLayout(panel)
        layout.setContentsMargins(6, 0, 0, 0)
        layout.addWidget(self.store.bar)
        self.progress_bar = QProgressBar(panel)
        self._show_no_run()
        self.time_label = plain_label("Not run yet.", panel)
        self.time_label.setStyleSheet("color: #333;")
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.time_label)
        self.live_plot = LiveScoresPlot(panel)
        self.log = QPlainTextEdit(panel)
        self.log.setReadOnly(True)
        self.log.setPlaceholderText("Fold errors and warnings of the last run appear here.")
        log_box = QWidget(panel)
        log_layout = QVBoxLayout(log_box)
        log_layout.setContentsMargins(0, 0, 0, 0)
        log_layout.addWidget(plain_label("Fold errors and warnings of the last run"))
        log_layout.addWidget(self.log)
        self.lower_tabs = QTabWidget(panel)
        self.lower_tabs.setDocumentMode(True)
        self.lower_tabs.addTab(log_box, "Log")
        self.lower_tabs.addTab(self.runs_view, "Earlier runs")
        self.subgroups_box = SubgroupsBox(self.state, panel)
        self.lower_tabs.addTab(self.subgroups_box, "Subgroups")
        split = QSplitter(Qt.Vertical, panel)
        split.addWidget(self.live_plot)
        split.addWidget(self.lower_tabs)
        split.setSizes([480, 200])
        layout.addWidget(split, 1)
        return panel

    # ------------------------------------------------------------------ settings <-> state
    def metrics(self) -> list:
        primary = self.primary_combo.currentData()
        extras = [self.extra_list.item(i).data(Qt.UserRole) for i in range(self.extra_list.count())
                  if self.extra_list.item(i).checkState() == Qt.Checked]
        return [primary] + [m for m in extras if m != primary]

    def _offer_metrics(self, n_classes: tuple) -> None:
        """Fill the score lists with the metrics valid for the target (the expected cost
        when the models' thresholds give costs)."""
        costs = self._costs_offered()
        if self._offered_for == (n_classes, costs):
            return
        self._offered_for = (n_classes, costs)
        self.primary_combo.blockSignals(True)
        self.extra_list.blockSignals(True)
        self.primary_combo.clear()
        self.extra_list.clear()
        for name in ordered_metrics(n_classes, costs):
            self.primary_combo.addItem(metric_label(name), name)
            self.primary_combo.setItemData(self.primary_combo.count() - 1, name, Qt.ToolTipRole)
            item = QListWidgetItem(metric_label(name), self.extra_list)
            item.setData(Qt.UserRole, name)
            item.setToolTip(name)
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(Qt.Unchecked)
        self.primary_combo.blockSignals(False)
        self.extra_list.blockSignals(False)

    def _forget_last_run(self) -> None:
        """New data or models: the plot, log and timing of the last run no longer apply."""
        if not self._run_job.running and self.progress_bar.value() > 0:
            self.live_plot.reset("The data or the models changed since the last run. "
                                 "Press Run to cross-validate them.")
            self.log.clear()
            self._show_no_run()
            self.time_label.setText("Not run with the current data and models yet.")
        self._update_buttons()

    def _show_no_run(self) -> None:
        """An empty bar that says so: not Qt's default "0 of 100", nor the last run's
        count, which the current data and models need not have."""
        self.progress_bar.setFormat("no run yet")
        self.progress_bar.setRange(0, 1)
        self.progress_bar.setValue(0)

    def _on_dataset_changed(self, _dataset) -> None:
        self._forget_last_run()
        self._update_buttons()
        n_classes = class_counts(self.state.datasets)
        add_balanced = not self.state.metrics_named and any_imbalanced(self.state.datasets)
        metrics = metrics_for_targets(list(self.state.metrics), n_classes, add_balanced,
                                      costs=self._costs_offered())
        self._offer_metrics(n_classes)
        if tuple(metrics) != tuple(self.state.metrics):
            self.state.set_cv(self.state.cv, tuple(metrics), self.state.n_jobs)
        else:
            self._show_settings()

    def _user_sized(self, *_) -> None:
        """The user set the folds or repeats: the default run's sizing leaves them."""
        if not self._syncing:
            self.default_size.user_set()

    def _say_sized(self, words: str) -> None:
        """The default run's sizing, where the run's time is said (not during a run)."""
        if not self.running:
            self.time_label.setText(words)

    def _store_calibration(self, checked: bool) -> None:
        if self._syncing:
            return
        settings = (self.state.calibration or CalibrationSettings()) if checked else None
        self.state.set_extras(self.state.aloocv, settings)

    def _store_curves(self, curves) -> None:
        if not self._syncing:
            self.state.set_curves(curves)

    def _mark_metrics_chosen(self, *_) -> None:
        """The user chose the metrics: new data keep them (no balanced accuracy added)."""
        if not self._syncing:
            self.state.metrics_named = True

    def _store_settings(self, *_) -> None:
        if self._syncing:
            return
        config = with_repeats(replace(self.state.cv, n_splits=self.folds_box.value(),
                                      random_state=self.seed_box.value(),
                                      scheme=self.scheme_combo.currentData(),
                                      interval=self.interval_combo.currentData()),
                              self.repeats_box.value())
        self._syncing = True
        try:
            self.state.set_cv(config, tuple(self.metrics()), self.jobs_box.value())
        finally:
            self._syncing = False
        self._show_cost_offer()
        self._update_buttons()

    def _show_settings(self) -> None:
        if self._syncing:
            return
        self._syncing = True
        try:
            cv, metrics = self.state.cv, list(self.state.metrics)
            self.folds_box.setValue(cv.n_splits)
            show_repeats(self.repeats_box, cv)
            self.seed_box.setValue(cv.random_state or 0)
            self.scheme_combo.setCurrentIndex(max(self.scheme_combo.findData(cv.scheme), 0))
            self.interval_combo.setCurrentIndex(max(self.interval_combo.findData(cv.interval), 0))
            self.jobs_box.setValue(max(1, min(self.state.n_jobs, self.jobs_box.maximum())))
            n_classes = class_counts(self.state.datasets)
            self._offer_metrics(n_classes)
            self._show_metrics(metrics or metrics_for_targets(
                [], n_classes, any_imbalanced(self.state.datasets)))
            self.calibrate_check.setChecked(self.state.calibration is not None)
            self.curves_box.show_settings(self.state.curves)
        finally:
            self._syncing = False
        self._update_buttons()

    def _show_metrics(self, metrics: list) -> None:
        index = self.primary_combo.findData(metrics[0]) if metrics else -1
        if index < 0 and metrics:
            self.primary_combo.addItem(metric_label(metrics[0]), metrics[0])
            index = self.primary_combo.count() - 1
        self.primary_combo.setCurrentIndex(max(index, 0))
        for i in range(self.extra_list.count()):
            item = self.extra_list.item(i)
            checked = item.data(Qt.UserRole) in metrics[1:]
            item.setCheckState(Qt.Checked if checked else Qt.Unchecked)
        self._show_cost_offer()

    def _update_buttons(self) -> None:
        running = self.running
        for widget in (self.folds_box, self.repeats_box, self.seed_box, self.jobs_box,
                       self.primary_combo, self.extra_list, self.calibrate_check,
                       self.scheme_combo, self.interval_combo, self.curves_box,
                       self.subgroups_box):
            widget.setEnabled(not running)
        self.run_on.setEnabled(not running)          # and the jobs when on this computer
        waiting = self.target_missing()
        self.run_button.setEnabled(not running and not waiting)
        self.run_button.setText(CHOOSE_TARGET if waiting else "Run")
        self.run_button.setToolTip(CHOOSE_TARGET_TIP if waiting else "")
        self.cancel_button.setEnabled(running)
        self.show_size()

    def target_missing(self) -> bool:
        """Whether a data set in use shows a candidate target no one has chosen yet."""
        return self.state.dataset is not None and not all(
            target_confirmed(dataset) for dataset in self.state.datasets)

    def show_size(self) -> None:
        """Say what Run computes (and what the result store already holds); the whole
        sentence is the tooltip too, should it need more than :data:`SIZE_LINES` lines."""
        text = self._size_text()
        self.size_label.setText(text)
        self.size_label.setToolTip(text)

    def _size_text(self) -> str:
        """What Run computes, counted by :func:`engine.runs.run_plan.plan_models` (the count
        the progress bar, the status bar, Cancel and the Earlier runs list use)."""
        try:
            specs = self.state.model_specs()
        except ValueError:
            return "Fix the models on the Models tab before running."
        if self.state.dataset is None:
            return "Load a data set on the Dataset tab before running."
        if self.target_missing():
            return "Choose the column to predict on the Dataset tab before running."
        datasets, state = self.state.datasets, self.state
        plan = plan_models(specs, state.cv, datasets, calibration=state.calibration,
                           aloocv=state.aloocv,
                           curves=state.curves, heldout=bool(state.test))
        self.curves_box.show_cost(plan.learning_fits, learning_seconds(state))
        text = fit_count_text(plan, self.folds_box.value(), state.cv.n_repeats, datasets)
        text += plan_words(state.cv)
        calibration = self.state.calibration
        if calibration is not None:
            methods = " and ".join("Platt" if m == "sigmoid" else m for m in calibration.methods)
            steps = sum(each.calibration_steps for each in plan.datasets)
            text += f"; then calibration ({methods}): {steps:,} more fits"
        if self.state.aloocv is not None:
            text += "; then ALOOCV curves for the logistic regressions"
        if plan.learning_fits:
            text += f"; then {plan.learning_fits:,} learning-curve fits"
        if plan.nested_fits:
            text += f"; then {plan.nested_fits:,} nested-CV fits for the intervals"
        if plan.steps != plan.fits:
            text += f" — {plan.steps:,} fits in all"
        return text + self._stored_text(plan) + "."

    def _stored_text(self, plan) -> str:
        """`` (300 of the 1,200 fits are in the result store: 900 to compute)`` when the
        store holds fits of the setup as it is now."""
        if self.store.without_store:
            return ""
        try:
            counts = self.store.stored_for(self.state.experiment_setup())
        except ValueError:
            return ""
        if not counts or len(counts) != len(plan.datasets):
            return ""
        plan = plan.with_reused(counts)
        if not plan.reused:
            return ""
        if not plan.left:
            return f" (all {plan.fits:,} fits are in the result store: none to compute)"
        return (f" ({plan.reused:,} of the {plan.fits:,} fits are in the result store: "
                f"{plan.left:,} to compute)")

    # ------------------------------------------------------------------ running
    @property
    def running(self) -> bool:
        """A run is being checked, estimated or computed."""
        return self._run_job.running or self._check_job.running

    def start_run(self) -> None:
        """Run the experiment. The setup is checked on a worker thread (parsing and
        validating 20 models takes tens of milliseconds): a run that cannot fit in memory
        is refused, and one above :data:`engine.runs.guards.ASK_FITS` fits asks first, saying
        how long it would take (timed on a worker thread too)."""
        if self.running or self.target_missing():
            return
        try:
            setup = self.state.experiment_setup()
        except ValueError as exc:
            self._show_error(str(exc))
            return
        n_jobs, cluster = self.state.n_jobs, self.run_on.cluster()
        self._cluster = cluster               # the scheduler the run goes to, or None
        store = self.store.path_for_run()
        datasets = list(self.state.datasets)  # one data set is a list of one
        job = Job(lambda: (checked_on(cluster, lambda: check_setup(setup, datasets, n_jobs)),
                           checked_store(store)),
                  name="run-check")
        job.succeeded.connect(self._on_checked)
        job.failed.connect(self._on_check_failed)
        self.time_label.setText("Checking the setup…")
        self._check_job.start(job)
        self._update_buttons()

    def _on_checked(self, checked) -> None:
        checked_run, store = checked
        experiment, datasets, n_jobs, assessment, problems = checked_run.as_tuple()
        self._checked_test = checked_run.test    # read once by the check, handed to the run
        cancelled = self._end_check()
        self._warnings = [problem for problem in problems if not problem.blocking]
        if cancelled:
            self.time_label.setText("Not started.")
        elif blocking(problems):
            self._offer_fixes(problems)
        elif not assessment.refuse and not self.store.accept(store):
            return
        elif assessment.refuse:
            self.time_label.setText("Not started.")
            self._show_error(sentence(assessment.refuse))
        elif not assessment.ask:
            self._launch(experiment, datasets, n_jobs)
        else:
            job = estimate_job(experiment, datasets, n_jobs)
            job.succeeded.connect(lambda seconds: self._ask_then_launch(
                assessment, seconds, experiment, datasets, n_jobs))
            job.failed.connect(lambda _message: self._ask_then_launch(
                assessment, None, experiment, datasets, n_jobs))
            self.time_label.setText("A large run: timing a few fits to estimate how long "
                                    "it would take…")
            self._check_job.start(job)
            self._update_buttons()

    def _offer_fixes(self, problems) -> None:
        """The pre-run check found problems that stop the run: the list with a fix for
        each (:class:`~gui.views.preflight_dialog.PreflightDialog`); Run there checks the
        setup again and starts it, Cancel starts nothing."""
        self.time_label.setText("Not started: the setup needs a change first (see the list).")
        dialog = PreflightDialog(problems, lambda fix: apply_to_state(self.state, fix), self)
        self.preflight_dialog = dialog
        try:
            answer = dialog.exec()
        finally:
            self.preflight_dialog = None
            dialog.deleteLater()
        if answer == PreflightDialog.Accepted:
            self.start_run()
        else:
            self.time_label.setText("Not started: fix the setup, then press Run."
                                    if blocking(problems) else "Not started.")

    def _on_check_failed(self, message: str) -> None:
        self._end_check()
        self.time_label.setText("Not started.")
        self._show_error(sentence(message))

    def _end_check(self) -> bool:
        """The check (or estimate) job is over; True if the user cancelled it."""
        job = self._check_job.job
        if job is not None:
            job.wait()
        self._update_buttons()
        return job is not None and job.cancel_requested

    def _ask_then_launch(self, assessment, seconds, experiment, datasets, n_jobs) -> None:
        if self._end_check():
            self.time_label.setText("Not started.")
            return
        answer = ask(
            self, "Start a large run?",
            f"{sentence(guards.question(assessment, seconds=seconds))}.\n\nStart it anyway? "
            "(Cancel stops it at any time; fewer repeats or models make it shorter.)",
            QMessageBox.Yes | QMessageBox.No, QMessageBox.No)
        if answer == QMessageBox.Yes:
            self._launch(experiment, datasets, n_jobs)
        else:
            self.time_label.setText("Not started: change the models, folds or repeats, "
                                    "then press Run.")

    def _launch(self, experiment, datasets, n_jobs) -> None:
        """Run on ``datasets`` (:mod:`engine.run_service`: one experiment, or one across
        several data sets); the progress bar's total is the run plan's."""
        plan = plan_run(experiment, datasets=datasets)
        total = plan.steps                               # the progress records to come
        self.store.planned_fits = plan.fits              # what Cancel's words count
        cluster, store = self._cluster, self.store.launched_path()
        test = self._checked_test
        job = Job(lambda: run_job.run_in_process(experiment, datasets, n_jobs,
                                                 PREPARED_FOR_DISPLAY, cluster, store, test),
                  name="cross-validation", min_interval=0.1)   # in a child process
        if is_several(experiment):
            self._feed = LivePlotFeed(self.live_plot, experiment, self.state.renderer)
            job.details.connect(self._feed.add)
            job.succeeded.connect(self._on_benchmark_succeeded)
        else:
            job.details.connect(self.live_plot.add_fold_scores)
            job.succeeded.connect(self._on_succeeded)
        job.progressed.connect(self._on_progress)
        job.failed_with.connect(self._on_failed)
        job.cancelled.connect(self._on_cancelled)
        self.progress_bar.setFormat("fit %v of %m")
        self.progress_bar.setRange(0, total)
        self.progress_bar.setValue(0)
        self.time_label.setText("Starting…")
        self.log.clear()
        if self._warnings:
            self.log.setPlainText("Before the run, the check warned:\n" + "\n".join(
                f"• {problem.words()}" for problem in self._warnings))
        self.live_plot.start([m.name for m in experiment.models], experiment.metrics[0],
                             experiment.cv.n_splits, experiment.cv.n_repeats,
                             renderer=self.state.renderer)
        self.store.bar.dismiss()
        self._run_job.start(job)
        self._update_buttons()
        warned = (f" ({len(self._warnings)} warning(s) before the run: see the Log)"
                  if self._warnings else "")
        self.state.status_message.emit(f"Cross-validating: {total:,} fits…{warned}")
        self.run_started.emit()

    def cancel_run(self) -> None:
        if self._check_job.running:
            self._check_job.cancel()
            self.cancel_button.setEnabled(False)
            return
        if self._run_job.running:
            self._run_job.cancel()
            self.cancel_button.setEnabled(False)
            self.time_label.setText("Cancelling…")

    def _on_progress(self, progress) -> None:
        self.progress_bar.setRange(0, progress.total)
        self.progress_bar.setValue(progress.done)
        self.time_label.setText(progress_text(progress, format_seconds(progress.elapsed),
                                              format_seconds(progress.remaining)))

    def _on_benchmark_succeeded(self, result) -> None:
        self._finish_job()
        self.live_plot.reset("Done. Each data set's fold scores, and the models compared "
                             "across the data sets, are on the Results tab.")
        self.log.setPlainText("\n\n".join(f"{name}:\n{log_text(each)}"
                                           for name, each in zip(result.names, result.results)))
        seconds = sum(each.cv.seconds for each in result.results)
        self.time_label.setText(f"Done: {len(result.experiment.models)} models on "
                                f"{len(result.results)} data sets in {format_seconds(seconds)}.")
        self.store.ended("done", self.time_label.text())
        self.state.set_benchmark(result)
        self.state.status_message.emit("Cross-validation finished; see the Results tab.")
        self.run_succeeded.emit(result)

    def _on_succeeded(self, result) -> None:
        self._finish_job()
        self.live_plot.show_fold_scores(result.cv)
        self.log.setPlainText(log_text(result))
        self.time_label.setText(f"Done: {len(result.cv.scores['model'].unique())} models in "
                                f"{format_seconds(result.cv.seconds)}.")
        self.store.ended("done", self.time_label.text())
        self.state.set_result(result)
        self.state.status_message.emit("Cross-validation finished; see the Results tab.")
        self.run_succeeded.emit(result)

    def _on_cancelled(self) -> None:
        self._finish_job()
        self.live_plot.reset("The run was cancelled. Press Run to go on: the fits that "
                             "finished are kept." if self.store.launched_path() else
                             "The run was cancelled. Press Run to start again.")
        done, total = self.progress_bar.value(), self.progress_bar.maximum()
        self.time_label.setText("Cancelled." if self.store.launched_path() else
                                f"Cancelled after {done:,} of {total:,} fits.")
        self.store.ended("cancelled", self.time_label.text())
        self.state.status_message.emit("Cross-validation cancelled.")
        self.run_cancelled.emit()

    def _on_failed(self, message: str, error=None) -> None:
        """The run failed: ``message`` for the user; ``error``'s code decides whether it
        is the result store's problem (:meth:`StoreLink.took_problem`)."""
        self._finish_job()
        self.live_plot.reset("The run failed; see the message. Fix the setting and press Run.")
        self.time_label.setText("The run failed.")
        self.store.ended("failed", self.time_label.text())
        self.log.appendPlainText(f"error: {message}")
        self.run_failed.emit(message)
        if not self.store.took_problem(error):
            self._show_error(message)

    def _finish_job(self) -> None:
        job = self._run_job.job
        if job is not None:
            job.wait()
        self._update_buttons()

    def _show_error(self, message: str) -> None:
        warn(self, "Cannot run the cross-validation",
             f"{sentence(message)}\n\nChange this on the Dataset, Models or "
             "Cross-validation tab, then press Run again.")

    def shutdown(self, msecs: int = 30000) -> bool:
        """Cancel a run and wait for it (on quit)."""
        ok = self._run_job.wait(msecs) and self._check_job.wait(msecs)
        ok = self.default_size.shutdown(msecs) and ok
        ok = self.store.shutdown(msecs) and ok
        return self.live_plot.wait_for_save(msecs) and ok
