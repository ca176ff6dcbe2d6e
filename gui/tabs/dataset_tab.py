"""The Dataset tab: pick a built-in data set or open a data file (CSV, ARFF, Excel), choose
the sheet of a workbook, the target, the positive class and the feature columns, look at
the data.

Reading files, deriving the Dataset and preparing the preview all happen on worker
jobs; the GUI thread only swaps finished values into the views. Every choice made here
(target, columns left out, positive class) is recorded in ``Dataset.source``, the
experiment file's ``dataset`` block, so a saved experiment loads the same data.
"""
from __future__ import annotations

import os
from typing import Callable, Optional

import numpy as np
import pandas as pd

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QFileDialog, QFormLayout, QFrame,
                               QGridLayout, QGroupBox, QHBoxLayout, QInputDialog,
                               QPushButton, QScrollArea, QSpinBox, QSplitter,
                               QVBoxLayout, QWidget)

from engine.input.data import BUILTINS, Dataset, load_builtin
from engine.foundation.notes import note_code

from ..dataset_loading import (FILE_FILTERS, DatasetView, FileRead, SheetChoice, data_key,
                               file_dataset, names, prepare_view, read_key, source_for,
                               source_path, target_candidates, target_confirmed,
                               with_changes)
from ..help import help_title
from ..jobs import Job, JobSlot, sentence
from ..plain_text import as_written, plain_label, plain_tip, rich_label, warn
from ..plots.class_counts_plot import ClassCountsPlot
from ..plots.scatter_plot import FeatureScatterPlot
from ..render_queue import NEXT_TURN, draw_now
from ..table_panel import TablePanel
from ..views.column_picker import ColumnPicker, column_rows
from ..views.dataset_list_view import DatasetListView
from ..views.dataset_notes import index_columns, notes_html, summary_html
from ..views.groups_box import GroupsBox
from ..views.heldout_box import HeldoutBox
from ..views.id_choice import ID_TIP, fill_id_combo, id_changes
from ..views.widgets import blocked

POSITIVE_TIP = ("The positive class is the class that precision, recall and F1 are about "
                "(and average precision and the precision-recall curve): e.g. 'sick' when "
                "looking for sick patients. Accuracy, balanced accuracy, ROC AUC and log loss "
                "do not depend on it.")
NOT_BUILTIN = {True: "— (a file is loaded)", False: "— (other data is loaded)"}
NOT_BUILTIN_TEXT = ("The data in use is not a built-in data set. Pick one here and press "
                    "Load built-in to use it instead.")
NO_DATA_TEXT = ("No data loaded yet: open a data file (CSV, ARFF or Excel) or pick a built-in "
                "data set.")
CANDIDATES_TEXT = ("Choose the column to predict: the app does not guess. The columns that "
                   "could be it, most likely first (the data below shows the first "
                   "provisionally; Run waits for your choice):")
MAX_CANDIDATE_BUTTONS = 4
REPLACES = ("replaces the data set in use (the one selected in the list above); to compare "
            "on several data sets, add them with Add built-in… or Add file…")


class SideScroll(QScrollArea):
    """A vertical scroll area never narrower than its contents plus the scroll bar (the
    side column scrolls down when the notes are long; nothing is cut on the right)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)

    def minimumSizeHint(self) -> QSize:
        inner = self.widget().minimumSizeHint() if self.widget() is not None else QSize(300, 0)
        return QSize(inner.width() + self.verticalScrollBar().sizeHint().width() + 2, 120)


def option_editor(value, parent) -> QWidget:
    """A spin box for one generator option (int or float)."""
    if isinstance(value, float):
        editor = QDoubleSpinBox(parent)
        editor.setDecimals(3)
        editor.setRange(0.0, 1e6)
        editor.setSingleStep(0.05)
    else:
        editor = QSpinBox(parent)
        editor.setRange(0, 10_000_000)
        editor.setGroupSeparatorShown(True)
    editor.setValue(value)
    return editor


class DatasetTab(QWidget):
    """Data source, target, positive class, feature columns and a first look at the data."""

    view_ready = Signal()        # the views show the state's current dataset
    load_failed = Signal(str)

    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        self._load_job, self._view_job = JobSlot(), JobSlot()
        self._pending_view: Optional[Dataset] = None
        self._queued: Optional[tuple] = None    # (work, base, message, add): new data waiting
        self._adding = False                    # the data loading goes after the others
        self._changes: dict = {}                # source changes waiting, with their file
        self._loading_base: Optional[Dataset] = None
        self._raw: Optional[FileRead] = None    # the last data file read
        self._view: Optional[DatasetView] = None
        self._option_editors: dict = {}
        self._index_like: tuple = (None, set())  # (file and sheet, index-like columns)
        self.setAcceptDrops(True)
        self._build()
        state.dataset_changed.connect(self._on_dataset_changed)
        state.settings_changed.connect(self._sync_groups)

    # ------------------------------------------------------------------ layout
    def _build(self) -> None:
        splitter = QSplitter(Qt.Horizontal, self)
        splitter.addWidget(self._build_side())
        splitter.addWidget(self._build_views())
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([360, 920])
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)

    def _build_side(self) -> QWidget:
        side = QWidget(self)
        column = QVBoxLayout(side)
        column.setContentsMargins(0, 0, 6, 0)
        column.addLayout(help_title("Data source", "dataset", self))
        self.dataset_list = DatasetListView(self.state, side)
        self.dataset_list.add_builtin_requested.connect(self.add_builtin)
        self.dataset_list.add_file_requested.connect(self.ask_add_path)
        column.addWidget(self.dataset_list)
        column.addWidget(self._build_builtin_box())
        self.open_button = QPushButton("Open data…", side)
        self.open_button.setToolTip("Read a CSV file (comma, semicolon or tab separated), a "
                                    f"Weka ARFF file or an Excel workbook (.xlsx); it {REPLACES}. "
                                    "You can also drag such a file onto this window.")
        self.open_button.clicked.connect(self.ask_data_path)
        drop = plain_label("…or drag a data file here.", side)
        drop.setStyleSheet("color: #666;")
        open_row = QHBoxLayout()
        open_row.addWidget(self.open_button)
        open_row.addWidget(drop, 1)
        column.addLayout(open_row)
        column.addWidget(self._build_target_box())
        self.columns = ColumnPicker(side)
        self.columns.exclusion_changed.connect(self._on_exclusion_changed)
        column.addWidget(self.columns)
        self.groups_box = GroupsBox(side)
        self.groups_box.groups_chosen.connect(self._on_groups_picked)
        self.groups_box.compare_toggled.connect(self._on_compare_toggled)
        column.addWidget(self.groups_box)
        self.heldout_box = HeldoutBox(self.state, side)
        column.addWidget(self.heldout_box)
        self.summary = rich_label(NO_DATA_TEXT)
        self.notes_label = rich_label("")
        for label in (self.summary, self.notes_label):
            label.setWordWrap(True)
            label.setTextFormat(Qt.RichText)
            label.setAlignment(Qt.AlignTop | Qt.AlignLeft)
            label.setTextInteractionFlags(Qt.TextSelectableByMouse)
            column.addWidget(label)
        column.addStretch(1)
        scroll = SideScroll(self)
        scroll.setWidget(side)
        scroll.setMaximumWidth(480)
        return scroll

    def _build_target_box(self) -> QGroupBox:
        box = QGroupBox("What to predict", self)
        self.sheet_combo = QComboBox(box)
        self.sheet_combo.setToolTip("The sheet of the workbook to read (its first row holds "
                                    "the column names)")
        self.sheet_combo.activated.connect(self._on_sheet_picked)
        self.target_combo = QComboBox(box)
        self.target_combo.setToolTip("The class column; the ticked columns below are the "
                                     "features.")
        self.target_combo.setPlaceholderText("— choose the column to predict —")
        self.target_combo.activated.connect(self._on_target_picked)
        self.pos_combo = QComboBox(box)
        self.pos_combo.setToolTip(POSITIVE_TIP)
        self.pos_combo.activated.connect(self._on_positive_picked)
        self.id_combo = QComboBox(box)
        self.id_combo.setToolTip(ID_TIP)
        self.id_combo.activated.connect(self._on_id_picked)
        self.target_form = QFormLayout(box)
        self.target_form.addRow("Sheet", self.sheet_combo)
        self.target_form.setRowVisible(self.sheet_combo, False)
        self.target_form.addRow("Target column", self.target_combo)
        self.candidates_box = self._build_candidates(box)
        self.target_form.addRow(self.candidates_box)
        self.target_form.addRow("Positive class", self.pos_combo)
        self.target_form.labelForField(self.pos_combo).setToolTip(POSITIVE_TIP)
        self.target_form.setRowVisible(self.pos_combo, False)
        self.target_form.addRow("Row id", self.id_combo)
        self.target_form.labelForField(self.id_combo).setToolTip(ID_TIP)
        self.target_form.setRowVisible(self.id_combo, False)
        return box

    def _build_candidates(self, parent) -> QWidget:
        """The candidates for the target, one click each, shown while none is named."""
        widget = QWidget(parent)
        layout = QVBoxLayout(widget)
        layout.setContentsMargins(0, 0, 0, 0)
        self.candidates_label = plain_label(CANDIDATES_TEXT, widget)
        self.candidates_label.setWordWrap(True)
        self.candidates_label.setStyleSheet("color: #8a4b00;")
        layout.addWidget(self.candidates_label)
        self.candidate_buttons = []
        for _ in range(MAX_CANDIDATE_BUTTONS):
            button = QPushButton(widget)
            button.setStyleSheet("text-align: left; padding: 3px 6px;")
            button.clicked.connect(lambda _=False, b=button: self._accept_candidate(b))
            layout.addWidget(button)
            self.candidate_buttons.append(button)
        widget.hide()
        return widget

    def _show_candidates(self, dataset: Dataset) -> None:
        """The candidate buttons while the target is not named (else hidden)."""
        candidates = [] if target_confirmed(dataset) else target_candidates(dataset)
        self.candidates_box.setVisible(bool(candidates))
        for i, button in enumerate(self.candidate_buttons):
            button.setVisible(i < len(candidates))
            if i < len(candidates):
                column, reasons = candidates[i]
                button.setProperty("column", column)
                button.setText(f"{column}  —  {', '.join(reasons)}")
                button.setToolTip(plain_tip(f"Predict {column!r}"))

    def _accept_candidate(self, button: QPushButton) -> None:
        column = button.property("column")
        if column is not None:
            self._use_target(str(column))

    def _build_builtin_box(self) -> QGroupBox:
        box = QGroupBox("Built-in data set", self)
        self.builtin_combo = QComboBox(box)
        for name, (description, _) in BUILTINS.items():
            self.builtin_combo.addItem(name, name)
            self.builtin_combo.setItemData(self.builtin_combo.count() - 1, description,
                                           Qt.ToolTipRole)
        self.builtin_combo.currentIndexChanged.connect(lambda _: self._rebuild_options())
        self.builtin_description = plain_label("", box)
        self.builtin_description.setWordWrap(True)
        self.builtin_description.setStyleSheet("color: #555;")
        self.options_grid = QGridLayout()
        self.options_grid.setColumnStretch(1, 1)
        self.options_grid.setColumnStretch(3, 1)
        self._option_widgets: list = []
        self.load_builtin_button = QPushButton("Load built-in", box)
        self.load_builtin_button.clicked.connect(self.load_selected_builtin)
        self.load_builtin_button.setToolTip(f"Make the built-in data set picked here (with "
                                            f"these options) the data: it {REPLACES}")
        pick = QHBoxLayout()
        pick.addWidget(self.builtin_combo, 1)
        pick.addWidget(self.load_builtin_button)
        layout = QVBoxLayout(box)
        layout.addLayout(pick)
        layout.addWidget(self.builtin_description)
        layout.addLayout(self.options_grid)
        self._rebuild_options()
        return box

    def _build_views(self) -> QWidget:
        self.counts_plot = ClassCountsPlot(self)
        self.scatter_plot = FeatureScatterPlot(self)
        self.x_combo, self.y_combo = QComboBox(self), QComboBox(self)
        for combo, axis in ((self.x_combo, "horizontal"), (self.y_combo, "vertical")):
            combo.setToolTip(plain_tip(f"Feature on the {axis} axis"))
            combo.setMinimumContentsLength(12)
            combo.activated.connect(lambda _: self._draw_scatter())
        self.sample_note = plain_label("", self)
        self.sample_note.setStyleSheet("color: #555;")
        picker = QHBoxLayout()
        picker.addWidget(plain_label("x:"))
        picker.addWidget(self.x_combo)
        picker.addWidget(plain_label("y:"))
        picker.addWidget(self.y_combo)
        picker.addWidget(self.sample_note, 1)
        scatter = QWidget(self)
        scatter_layout = QVBoxLayout(scatter)
        scatter_layout.setContentsMargins(0, 0, 0, 0)
        scatter_layout.addWidget(self.scatter_plot, 1)
        scatter_layout.addLayout(picker)
        plots = QSplitter(Qt.Horizontal, self)
        plots.addWidget(self.counts_plot)
        plots.addWidget(scatter)
        plots.setSizes([380, 570])
        self.preview = TablePanel("Preview (the features used, then the target)", "data.csv", self,
                                  digits=None)
        views = QSplitter(Qt.Vertical, self)
        views.addWidget(plots)
        views.addWidget(self.preview)
        views.setSizes([400, 330])
        return views

    def _rebuild_options(self) -> None:
        """The generator options of the picked built-in, two to a row (none when no
        built-in is picked: the data in use came from elsewhere)."""
        for widget in self._option_widgets:
            self.options_grid.removeWidget(widget)
            widget.deleteLater()
        self._option_editors, self._option_widgets = {}, []
        name = self.builtin_combo.currentData()
        self.load_builtin_button.setEnabled(name is not None)
        if name is None:
            self.builtin_description.setText(NOT_BUILTIN_TEXT)
            return
        description, options = BUILTINS[name]
        self.builtin_description.setText(description)
        for i, (option, default) in enumerate(options.items()):
            label = plain_label(option.replace("_", " "), self)
            editor = option_editor(default, self)
            editor.setToolTip(plain_tip(f"{option.replace('_', ' ')} of the generated data"))
            self._option_editors[option] = editor
            self._option_widgets += [label, editor]
            self.options_grid.addWidget(label, i // 2, 2 * (i % 2))
            self.options_grid.addWidget(editor, i // 2, 2 * (i % 2) + 1)

    # ------------------------------------------------------------------ loading
    def builtin_options(self) -> dict:
        """The options of the picked built-in as set in the box (``{}`` when none is picked)."""
        return {option: editor.value() for option, editor in self._option_editors.items()}

    def load_selected_builtin(self) -> None:
        name = self.builtin_combo.currentData()
        if name is None:
            return
        options = self.builtin_options()
        self._run_load(lambda: (None, load_builtin(name, **options)), None,
                       f"Loading {name}…")

    def load_builtin(self, name: str, **options) -> None:
        """Pick ``name`` in the built-in list (options as given) and load it."""
        self.builtin_combo.setCurrentIndex(self.builtin_combo.findData(name))
        for option, value in options.items():
            self._option_editors[option].setValue(value)
        self.load_selected_builtin()

    def add_builtin(self, name: str) -> None:
        """Add the built-in ``name`` (default options) after the data sets loaded."""
        self._run_load(lambda: (None, load_builtin(name)), None, f"Adding {name}…", add=True)

    def ask_data_path(self, add: bool = False) -> None:
        title = "Add a data file as another data set" if add else "Open a data file"
        path, _ = QFileDialog.getOpenFileName(self, title, "", FILE_FILTERS)
        if path:
            self.open_file(path, add=add)

    ask_csv_path = ask_data_path

    def ask_add_path(self) -> None:
        self.ask_data_path(add=True)

    def open_file(self, path: str, add: bool = False) -> None:
        """Read ``path`` (CSV, ARFF or Excel by its extension; other names as CSV); unless
        the file names its target (a column named so, an ARFF file's last attribute), the
        candidates wait for the user's click. It replaces the selected data set, or with
        ``add`` comes after the others."""
        source = {key: os.path.abspath(value) for key, value in source_for(path).items()}
        self.open_source(source, add)

    def open_source(self, source: dict, add: bool = False) -> None:
        """Read a new file's ``dataset`` block; possible leaks start unticked."""
        cached = self._raw
        self._run_load(lambda: file_dataset(source, None, cached, untick_leaks=True), None,
                       f"Reading {os.path.basename(source_path(source))}…", add=add)

    def _reload(self, changes: dict, message: str) -> None:
        """Derive the shown file's data set again with ``changes`` to its source.

        Changes asked for while data is still loading or being drawn wait, merged, and
        apply to the data set shown next (if it comes from the same file).
        """
        shown = self._view.dataset if self._view is not None else None
        key = data_key(shown.source) if shown is not None else None
        if key is None:
            return
        if source_path(self._changes) != shown.source[key]:
            self._changes = {key: shown.source[key]}
        self._changes.update(changes)
        self.state.status_message.emit(message)
        self._apply_changes()

    def _apply_changes(self) -> None:
        shown = self._view.dataset if self._view is not None else None
        if (len(self._changes) < 2 or self._load_job.running or shown is None
                or shown is not self.state.dataset):
            return                                # later: when the data on the way is shown
        changes, self._changes = self._changes, {}
        if source_path(shown.source) != source_path(changes):
            return                                # another file was opened meanwhile
        source, cached = with_changes(shown.source, changes), self._raw
        untick = "target" in changes or "sheet" in changes     # a new question: leaks unticked
        self._run_load(lambda: file_dataset(source, shown.name, cached, untick_leaks=untick),
                       shown, "Updating the data…")

    def _on_sheet_picked(self, index: int) -> None:
        if self._view is None:
            return
        sheet, current = self.sheet_combo.itemText(index), sheets_of(self._view.dataset)[1]
        if sheet and sheet != current:              # a new table: its own target and columns
            self._reload({"sheet": sheet, "target": None, "exclude": [], "drop": None,
                          "features": None, "pos_label": None, "groups": None,
                          "id_column": None},
                         f"Reading the sheet {sheet!r}…")

    def _on_target_picked(self, _index: int) -> None:
        self._use_target(self.target_combo.currentText())

    def _use_target(self, target: str) -> None:
        """Predict ``target``: named in the source (a new question: leaks unticked)."""
        shown = self._view.dataset if self._view is not None else None
        if shown is not None and target and (target != shown.target
                                             or not target_confirmed(shown)):
            changes = {"target": target}
            if target in names(shown.source.get("groups")):
                changes["groups"] = None          # the target cannot say the groups too
            if target == shown.source.get("id_column"):
                changes["id_column"] = None       # nor name the rows
            self._reload(changes, f"Using {target!r} as the target…")

    def _on_groups_picked(self, column) -> None:
        if self._view is None or column == self._view.dataset.source.get("groups"):
            return
        shown = " + ".join(names(column)) if isinstance(column, list) else repr(column)
        message = (f"Keeping the rows of each {shown} together…" if column
                   else "Every row stands alone (no groups)…")
        self._reload({"groups": column}, message)

    def _on_id_picked(self, index: int) -> None:
        """Name the rows by the picked column (None: the automatic rule)."""
        if self._view is None:
            return
        column, source = self.id_combo.itemData(index), self._view.dataset.source
        if column != source.get("id_column"):
            what = f"by {column!r}" if column is not None else "automatically"
            self._reload(id_changes(column, source), f"Naming the rows {what}…")

    def _on_compare_toggled(self, on: bool) -> None:
        from dataclasses import replace

        if bool(on) != self.state.cv.compare_ungrouped:
            self.state.set_cv(replace(self.state.cv, compare_ungrouped=bool(on)),
                              self.state.metrics, self.state.n_jobs)

    def _on_exclusion_changed(self, excluded: list) -> None:
        self._reload({"exclude": list(excluded), "features": self.columns.kept()},
                     "Updating the features…")

    def _on_positive_picked(self, index: int) -> None:
        code = self.pos_combo.itemData(index)
        if self._view is None or code is None or code == self._view.dataset.pos_label:
            return
        label = self._view.dataset.classes[code]
        self._reload({"pos_label": label}, f"Using {label!r} as the positive class…")

    def _run_load(self, work: Callable, base: Optional[Dataset], message: str,
                  add: bool = False) -> None:
        """Run ``work`` (-> (FileRead or None, Dataset)) on a worker. ``base`` is the data
        set it changes (None: new data, in place of the selected one or, with ``add``,
        after the others). New data asked for while another load runs starts at once,
        and the one loading is dropped (:meth:`JobSlot.abandon`: a read that hangs, on a
        slow network folder, never blocks the next file); a change of the data shown
        waits for the load under way."""
        self.state.finish_reset()                 # a File → New under way ends first
        if self._load_job.running:
            if base is not None:
                self._queued = (work, base, message, add)
                self._changes = {}
                self.state.status_message.emit(message)
                return
            self._load_job.abandon()
            self._queued, self._changes = None, {}
        job = Job(work, name="load-data")
        job.succeeded.connect(self._on_loaded)
        job.failed.connect(self._on_load_failed)
        self._loading_base, self._adding = base, add
        self.state.status_message.emit(message)
        self.dataset_list.set_adding_enabled(False)
        self._load_job.start(job)

    def _start_queued(self) -> bool:
        self._load_job.job.wait(5000)             # it has emitted its last signal
        if self._queued is None:
            return False
        request, self._queued = self._queued, None
        self._run_load(*request)
        return True

    def _on_loaded(self, loaded) -> None:
        raw, dataset = loaded
        if raw is not None:
            self._raw = raw
        if self._start_queued():
            return
        self.dataset_list.set_adding_enabled(True)
        if isinstance(dataset, SheetChoice):
            self._offer_sheets(dataset)
            return
        base = self._loading_base
        if base is not None and base is not self.state.dataset:
            self._changes = {}
            self._sync_controls()                 # other data came meanwhile
            return
        if self._adding and self.state.datasets:
            self.state.add_dataset(dataset)
        else:
            self.state.set_dataset(dataset)

    def _on_load_failed(self, message: str) -> None:
        if self._start_queued():
            return
        self.dataset_list.set_adding_enabled(True)
        self._changes = {}
        self._sync_controls()                     # back to the data still in use
        self.state.status_message.emit("Could not load the data.")
        self.load_failed.emit(message)
        warn(self, "Cannot use this data",
             f"{sentence(message)}\n\nPick another file or column, or fix the file and "
             "open it again.")

    def _offer_sheets(self, choice: SheetChoice) -> None:
        """A workbook's sheet is not a table (a sheet of notes): say why and offer the
        others; the data in use stays when none is picked."""
        others = [sheet for sheet in choice.sheets if sheet != choice.sheet]
        self._changes = {}
        self._sync_controls()
        self.state.status_message.emit(f"The sheet {choice.sheet!r} is not a table: pick "
                                       "another sheet.")
        sheet, ok = QInputDialog.getItem(
            self, "Pick the sheet that holds the table",
            as_written(f"{sheet_problem(choice)}\n\nThe workbook has {len(choice.sheets)} "
                       "sheets. Pick the one whose first row holds the column names:"),
            others, 0, False)
        if ok and sheet:
            source = {**choice.source, "sheet": sheet}
            for key in ("target", "exclude", "drop", "features", "pos_label", "groups",
                        "id_column"):
                source.pop(key, None)
            self.open_source(source, self._adding)
        else:
            self.state.status_message.emit("No sheet picked: the data in use is unchanged.")

    # ------------------------------------------------------------------ drag and drop
    def dragEnterEvent(self, event) -> None:
        if data_path_of(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        path = data_path_of(event.mimeData())
        if path:
            event.acceptProposedAction()
            self.open_file(path)

    # ------------------------------------------------------------------ showing the data
    @property
    def shown_dataset(self) -> Optional[Dataset]:
        """The data set the views show (the state's once ``view_ready`` fired; None before
        the first)."""
        return self._view.dataset if self._view is not None else None

    def _on_dataset_changed(self, dataset) -> None:
        if dataset is None:
            self._show_nothing()
            return
        if self._view_job.running:
            self._pending_view = dataset
            return
        job = Job(lambda: prepare_view(dataset), name="prepare-view")
        job.succeeded.connect(self.show_view)
        job.failed.connect(self._on_view_failed)
        self._view_job.start(job)

    def show_view(self, view: DatasetView) -> None:
        if self._pending_view is not None:
            pending, self._pending_view = self._pending_view, None
            self._view_job.job.wait(5000)        # it has emitted its last signal
            self._on_dataset_changed(pending)
            return
        self._view = view
        self.state.renderer.submit(self, self._draw_view(view))

    def _draw_view(self, view: DatasetView):
        """The controls, the counts, the preview and the scatter plot of ``view``, each in
        its own turn of the event loop (see gui/render_queue.py): all in one turn held the
        window for 60-110 ms when a 100,000-row file or a workbook was opened."""
        dataset = view.dataset
        self._sync_controls()
        yield NEXT_TURN
        counts = dataset.class_counts()
        self.counts_plot.set_counts(list(counts.index), counts.to_numpy())
        yield NEXT_TURN
        self.preview.set_frame(view.preview)
        yield NEXT_TURN
        self._fill_feature_combos(dataset, view.scatter_axes)
        yield from self._draw_scatter(in_turns=True)
        yield NEXT_TURN
        self.state.status_message.emit(f"Loaded {dataset.name}: {dataset.n_rows:,} rows, "
                                       f"{dataset.X.shape[1]} features")
        self.view_ready.emit()
        self._apply_changes()

    def _show_nothing(self) -> None:
        """No data (File → New): every control and view empty, the first hint back."""
        if self._view_job.running:
            self._pending_view = None
        self.state.renderer.cancel(self)          # an unfinished view of the old data
        self._view, self._changes = None, {}
        for combo in (self.target_combo, self.pos_combo, self.sheet_combo, self.x_combo,
                      self.y_combo, self.id_combo):
            with blocked(combo):
                combo.clear()
        self.target_form.setRowVisible(self.id_combo, False)
        self.columns.show_columns([], False, "")
        self.groups_box.show_dataset(None, [], False, self.state.cv.n_splits, False)
        self.counts_plot.set_counts([], np.zeros(0))
        self.scatter_plot.clear_points("No data yet: open a data file.")
        self.sample_note.setText("")
        self.preview.set_frame(pd.DataFrame())
        self.summary.setText(NO_DATA_TEXT)
        self.notes_label.setText("")

    def _on_view_failed(self, message: str) -> None:
        warn(self, "Cannot show this data", sentence(message))

    def _raw_of(self, dataset: Dataset) -> Optional[FileRead]:
        """The file as read for ``dataset``, if it is the last one read."""
        source, raw = dataset.source, self._raw
        if raw is None or source_path(source) is None:
            return None
        same = raw.path == source_path(source) and raw.key[3:] == read_key(source)[3:]
        return raw if same else None

    def _sync_controls(self) -> None:
        """Target, positive class, columns, summary and notes as for the shown data set."""
        if self._view is None:
            return
        dataset = self._view.dataset
        source, raw = dataset.source, self._raw_of(dataset)
        editable = source_path(source) is not None
        excluded = names(source.get("drop")) + names(source.get("exclude"))
        rows = column_rows(raw.columns if raw is not None else None, dataset, excluded,
                           self._remember_index_like(dataset))
        with blocked(self.target_combo):
            self.target_combo.clear()
            if raw is not None:
                self.target_combo.addItems(raw.columns)
            elif editable:
                self.target_combo.addItems([r.name for r in rows] + [dataset.target])
            else:
                self.target_combo.addItem(dataset.target)   # built-ins: a fixed target
            self.target_combo.setCurrentText(dataset.target)
            if not target_confirmed(dataset):
                self.target_combo.setCurrentIndex(-1)     # shown, not chosen: none
        self.target_combo.setEnabled(editable)
        self._show_candidates(dataset)
        fixed = ("" if editable else "Built-in data sets use all their columns."
                 if "builtin" in source else "This data set's columns are fixed.")
        self.columns.show_columns(rows, editable, fixed)
        self._sync_positive(dataset, editable, "builtin" in source)
        self.target_form.setRowVisible(self.id_combo, editable)
        if editable:
            fill_id_combo(self.id_combo, dataset, raw.columns if raw is not None else
                          [*(r.name for r in rows), dataset.target])
        self._sync_sheets(dataset)
        if "builtin" in source:
            self._show_builtin_options(source)
        else:
            self._show_no_builtin(editable)
        self.summary.setText(summary_html(dataset))
        self.notes_label.setText(notes_html(dataset.notes))
        self._sync_groups()

    def _remember_index_like(self, dataset: Dataset) -> set:
        """The columns of the shown file the loader found index-like at some point (one
        ticked back, then left out by the user, can be ticked back again)."""
        path = (source_path(dataset.source), dataset.source.get("sheet"))
        if path != self._index_like[0]:
            self._index_like = (path, set())
        self._index_like[1].update(index_columns(dataset.notes))
        self._index_like[1].update(names(dataset.source.get("features")))
        return self._index_like[1]

    def _sync_groups(self) -> None:
        """The "Rows that belong together" box as for the shown data set."""
        if self._view is None:
            return
        dataset, raw = self._view.dataset, self._raw_of(self._view.dataset)
        editable = source_path(dataset.source) is not None
        columns = (raw.columns if raw is not None else
                   [r.name for r in column_rows(None, dataset)] if editable else [])
        missing = [c for c in names(dataset.source.get("groups")) if c not in columns]
        if editable and missing:
            columns = [*columns, *missing]
        self.groups_box.show_dataset(dataset, [c for c in columns if c != dataset.target],
                                     editable, self.state.cv.n_splits,
                                     self.state.cv.compare_ungrouped)

    def _sync_sheets(self, dataset: Dataset) -> None:
        """The sheet choice, shown for a workbook of several sheets."""
        sheets, current = sheets_of(dataset)
        self.target_form.setRowVisible(self.sheet_combo, len(sheets) > 1)
        with blocked(self.sheet_combo):
            self.sheet_combo.clear()
            self.sheet_combo.addItems(sheets)
            self.sheet_combo.setCurrentText(current)

    def _sync_positive(self, dataset: Dataset, editable: bool, builtin: bool) -> None:
        two = len(dataset.classes) == 2 and target_confirmed(dataset)   # not of a candidate
        self.target_form.setRowVisible(self.pos_combo, two)
        with blocked(self.pos_combo):
            self.pos_combo.clear()
            if two:
                for code, label in enumerate(dataset.classes):
                    self.pos_combo.addItem(str(label), code)
                self.pos_combo.setCurrentIndex(-1 if dataset.pos_label is None
                                               else dataset.pos_label)
        self.pos_combo.setEnabled(two and editable)
        fixed = (" Built-in data sets keep scikit-learn's positive class (the second class)."
                 if builtin else " It is fixed for this data set.")
        self.pos_combo.setToolTip(plain_tip(POSITIVE_TIP + ("" if editable else fixed)))

    def _show_builtin_options(self, source: dict) -> None:
        index = self.builtin_combo.findData(source.get("builtin"))
        if index < 0:
            return
        self.builtin_combo.setCurrentIndex(index)
        for option, editor in self._option_editors.items():
            if option in source:
                editor.setValue(source[option])

    def _show_no_builtin(self, from_file: bool) -> None:
        """No built-in picked, no options shown: the built-in box does not claim the data."""
        self.builtin_combo.setPlaceholderText(NOT_BUILTIN[from_file])
        self.builtin_combo.setCurrentIndex(-1)    # rebuilds the (empty) options

    def _fill_feature_combos(self, dataset: Dataset, first: tuple = ()) -> None:
        """Every numeric column in both boxes; the plot starts on ``first`` (the two most
        informative, see :mod:`gui.plots.scatter_axes`), else the first two columns."""
        numeric = [str(c) for c in dataset.numeric_columns]
        first = [str(c) for c in first if str(c) in numeric]
        starts = first if len(first) == 2 else numeric[:2]
        for combo, default in ((self.x_combo, 0), (self.y_combo, 1)):
            combo.clear()
            combo.addItems(numeric)
            if len(starts) > default:
                combo.setCurrentIndex(numeric.index(starts[default]))
        if len(numeric) < 2:                      # no pair to plot (not a column against itself)
            self.y_combo.clear()

    def _draw_scatter(self, in_turns: bool = False):
        """The scatter plot of the features picked; ``in_turns``: a drawing for the render
        queue (its points styled a few thousand a turn), else drawn at once."""
        drawing = self._scatter_drawing()
        if in_turns:
            return drawing
        draw_now(drawing)
        return None

    def _scatter_drawing(self):
        view = self._view
        if view is None:
            return
        x_name, y_name = self.x_combo.currentText(), self.y_combo.currentText()
        if not x_name or not y_name:
            self.scatter_plot.clear_points("This data set has fewer than two numeric columns: "
                                           "there is nothing to plot against each other.")
            self.sample_note.setText("")
            return
        dataset, rows = view.dataset, view.sample
        x, y = dataset.X[x_name].to_numpy(), dataset.X[y_name].to_numpy()
        codes = dataset.y
        if rows is not None:
            x, y, codes = x[rows], y[rows], codes[rows]
            self.sample_note.setText(f"a random sample of {len(rows):,} of "
                                     f"{dataset.n_rows:,} rows")
        else:
            self.sample_note.setText(f"all {dataset.n_rows:,} rows")
        yield from self.scatter_plot.drawing_points(x, y, codes, dataset.classes, x_name, y_name)

    # ------------------------------------------------------------------ shutting down
    def shutdown(self, msecs: int = 30000) -> bool:
        """Wait for the loading jobs (they cannot be interrupted mid-file)."""
        ok = self._load_job.wait(msecs) and self._view_job.wait(msecs)
        return self.preview.wait_for_export(msecs) and ok


def sheets_of(dataset: Dataset) -> tuple:
    """(the sheets of the workbook ``dataset`` was read from, the sheet read), as the
    engine's ``sheet_read`` note says them; ``([], "")`` for other data and for a workbook
    of one sheet."""
    note = next((n for n in dataset.notes if note_code(n) == "sheet_read"), None)
    if note is None:
        return [], ""
    return list(note.fields["sheets"]), note.fields["sheet"]


def sheet_problem(choice: SheetChoice) -> str:
    """Why the sheet cannot be used, in the words of the screen."""
    return f"This sheet cannot be used: {choice.message}."


DROPPED = (".csv", ".tsv", ".txt", ".arff", ".xlsx", ".xlsm", ".xls")


def data_path_of(mime) -> str:
    """The local data file (.csv, .tsv, .txt, .arff, .xlsx, .xlsm; .xls to say what to do
    with it) dragged in, or ''."""
    if not mime.hasUrls():
        return ""
    for url in mime.urls():
        path = url.toLocalFile()
        if path.lower().endswith(DROPPED):
            return path
    return ""


csv_path_of = data_path_of
