"""The Dataset tab: pick a built-in data set or open a CSV file, choose the target, look at it.

Reading files, deriving the Dataset and preparing the preview all happen on worker
jobs; the GUI thread only swaps finished values into the views.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional

import numpy as np
import pandas as pd
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QFileDialog, QFormLayout, QGroupBox,
                               QHBoxLayout, QLabel, QMessageBox, QPushButton, QSpinBox,
                               QSplitter, QVBoxLayout, QWidget)

from engine.data import BUILTINS, Dataset, dataset_from_frame, load_builtin, load_csv, \
    read_csv_table

from ..help import help_title
from ..jobs import Job, JobSlot
from ..plots.class_counts_plot import ClassCountsPlot
from ..plots.scatter_plot import FeatureScatterPlot
from ..table_panel import TablePanel

SCATTER_SAMPLE = 5000


@dataclass(frozen=True)
class DatasetView:
    """What the tab shows for a Dataset, prepared off the GUI thread."""

    dataset: Dataset
    preview: pd.DataFrame
    sample: Optional[np.ndarray]     # row positions drawn in the scatter (None: all rows)


def prepare_view(dataset: Dataset) -> DatasetView:
    preview = dataset.X.copy(deep=False)
    labels = np.asarray([str(c) for c in dataset.classes], dtype=object)
    preview[_free_name(dataset.target, preview.columns)] = labels[dataset.y]
    sample = None
    if dataset.n_rows > SCATTER_SAMPLE:
        rng = np.random.default_rng(0)
        sample = np.sort(rng.choice(dataset.n_rows, SCATTER_SAMPLE, replace=False))
    return DatasetView(dataset, preview, sample)


def _free_name(name: str, taken) -> str:
    return name if name not in taken else f"{name} (target)"


def read_csv_dataset(path: str) -> tuple:
    """(raw frame, notes, Dataset) of a CSV file, the target being its last column."""
    frame, notes = read_csv_table(path)
    target = str(frame.columns[-1])
    notes = notes + [f"target: the last column, {target!r} (pick another one above)"]
    name = os.path.splitext(os.path.basename(path))[0]
    dataset = dataset_from_frame(frame, target, name=name, notes=notes,
                                 source={"csv": os.path.abspath(path), "target": target})
    return frame, notes, dataset


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
    """Data source, target and a first look at the data (summary, classes, two features)."""

    view_ready = Signal()        # the views show the state's current dataset
    load_failed = Signal(str)

    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        self._load_job, self._view_job = JobSlot(), JobSlot()
        self._pending_view: Optional[Dataset] = None
        self._raw: Optional[tuple] = None      # (path, frame, notes) of the last CSV read
        self._view: Optional[DatasetView] = None
        self._option_editors: dict = {}
        self.setAcceptDrops(True)
        self._build()
        state.dataset_changed.connect(self._on_dataset_changed)

    # ------------------------------------------------------------------ layout
    def _build(self) -> None:
        splitter = QSplitter(Qt.Horizontal, self)
        splitter.addWidget(self._build_side())
        splitter.addWidget(self._build_views())
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([330, 950])
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)

    def _build_side(self) -> QWidget:
        side = QWidget(self)
        side.setMinimumWidth(300)
        side.setMaximumWidth(420)
        column = QVBoxLayout(side)
        column.setContentsMargins(0, 0, 6, 0)
        column.addLayout(help_title("Data source", "dataset", self))
        column.addWidget(self._build_builtin_box())
        self.open_button = QPushButton("Open CSV…", side)
        self.open_button.setToolTip("Read a CSV file (comma, semicolon or tab separated). "
                                    "You can also drag a .csv file onto this window.")
        self.open_button.clicked.connect(self.ask_csv_path)
        column.addWidget(self.open_button)
        drop = QLabel("…or drag a .csv file here.", side)
        drop.setStyleSheet("color: #666;")
        column.addWidget(drop)
        target_box = QGroupBox("Column to predict (target)", side)
        self.target_combo = QComboBox(target_box)
        self.target_combo.setToolTip("The class column; every other column is a feature.")
        self.target_combo.activated.connect(self._on_target_picked)
        QVBoxLayout(target_box).addWidget(self.target_combo)
        column.addWidget(target_box)
        self.summary = QLabel("No data loaded yet: pick a built-in data set or open a CSV file.")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.RichText)
        self.summary.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        self.summary.setTextInteractionFlags(Qt.TextSelectableByMouse)
        column.addWidget(self.summary, 1)
        return side

    def _build_builtin_box(self) -> QGroupBox:
        box = QGroupBox("Built-in data set", self)
        self.builtin_combo = QComboBox(box)
        for name, (description, _) in BUILTINS.items():
            self.builtin_combo.addItem(name, name)
            self.builtin_combo.setItemData(self.builtin_combo.count() - 1, description,
                                           Qt.ToolTipRole)
        self.builtin_combo.currentIndexChanged.connect(lambda _: self._rebuild_options())
        self.builtin_description = QLabel(box)
        self.builtin_description.setWordWrap(True)
        self.builtin_description.setStyleSheet("color: #555;")
        self.options_form = QFormLayout()
        self.load_builtin_button = QPushButton("Load built-in", box)
        self.load_builtin_button.clicked.connect(self.load_selected_builtin)
        layout = QVBoxLayout(box)
        layout.addWidget(self.builtin_combo)
        layout.addWidget(self.builtin_description)
        layout.addLayout(self.options_form)
        layout.addWidget(self.load_builtin_button)
        self._rebuild_options()
        return box

    def _build_views(self) -> QWidget:
        self.counts_plot = ClassCountsPlot(self)
        self.scatter_plot = FeatureScatterPlot(self)
        self.x_combo, self.y_combo = QComboBox(self), QComboBox(self)
        for combo, axis in ((self.x_combo, "horizontal"), (self.y_combo, "vertical")):
            combo.setToolTip(f"Feature on the {axis} axis")
            combo.setMinimumContentsLength(12)
            combo.activated.connect(lambda _: self._draw_scatter())
        self.sample_note = QLabel(self)
        self.sample_note.setStyleSheet("color: #555;")
        picker = QHBoxLayout()
        picker.addWidget(QLabel("x:"))
        picker.addWidget(self.x_combo)
        picker.addWidget(QLabel("y:"))
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
        self.preview = TablePanel("Preview (the table as read; target last)", "data.csv", self)
        views = QSplitter(Qt.Vertical, self)
        views.addWidget(plots)
        views.addWidget(self.preview)
        views.setSizes([400, 330])
        return views

    def _rebuild_options(self) -> None:
        while self.options_form.rowCount():
            self.options_form.removeRow(0)
        name = self.builtin_combo.currentData()
        description, options = BUILTINS[name]
        self.builtin_description.setText(description)
        self._option_editors = {}
        for option, default in options.items():
            editor = option_editor(default, self)
            self._option_editors[option] = editor
            self.options_form.addRow(option.replace("_", " "), editor)

    # ------------------------------------------------------------------ loading
    def load_selected_builtin(self) -> None:
        name = self.builtin_combo.currentData()
        options = {k: e.value() for k, e in self._option_editors.items()}
        self._run_load(lambda: load_builtin(name, **options), self._on_dataset_loaded,
                       f"Loading {name}…")

    def load_builtin(self, name: str, **options) -> None:
        """Pick ``name`` in the built-in list (options as given) and load it."""
        self.builtin_combo.setCurrentIndex(self.builtin_combo.findData(name))
        for option, value in options.items():
            self._option_editors[option].setValue(value)
        self.load_selected_builtin()

    def ask_csv_path(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a CSV file", "",
                                              "CSV files (*.csv *.txt *.tsv);;All files (*)")
        if path:
            self.open_csv(path)

    def open_csv(self, path: str) -> None:
        self._run_load(lambda: read_csv_dataset(path), self._on_csv_loaded,
                       f"Reading {os.path.basename(path)}…")

    def _on_target_picked(self, _index: int) -> None:
        dataset = self.state.dataset
        target = self.target_combo.currentText()
        if dataset is None or "csv" not in dataset.source or target == dataset.target:
            return
        source = {**dataset.source, "target": target}
        raw = self._raw if self._raw and self._raw[0] == source["csv"] else None
        if raw is not None:
            _, frame, notes = raw
            work = lambda: dataset_from_frame(frame, target, name=dataset.name,  # noqa: E731
                                              notes=notes, source=source)
        else:
            work = lambda: load_csv(source["csv"], target=target)  # noqa: E731
        self._run_load(work, self._on_dataset_loaded, f"Using {target!r} as the target…")

    def _run_load(self, work, on_success, message: str) -> None:
        if self._load_job.running:
            self.state.status_message.emit("Still loading the previous data; please wait.")
            return
        job = Job(work, name="load-data")
        job.succeeded.connect(on_success)
        job.failed.connect(self._on_load_failed)
        self.state.status_message.emit(message)
        self._load_job.start(job)

    def _on_csv_loaded(self, loaded) -> None:
        frame, notes, dataset = loaded
        self._raw = (dataset.source["csv"], frame, notes)
        self._on_dataset_loaded(dataset)

    def _on_dataset_loaded(self, dataset) -> None:
        self.state.set_dataset(dataset)

    def _on_load_failed(self, message: str) -> None:
        self.state.status_message.emit("Could not load the data.")
        self.load_failed.emit(message)
        QMessageBox.warning(self, "Cannot use this data",
                            f"{message}\n\nPick another file or column, or fix the file and "
                            "open it again.")

    # ------------------------------------------------------------------ drag and drop
    def dragEnterEvent(self, event) -> None:
        if csv_path_of(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        path = csv_path_of(event.mimeData())
        if path:
            event.acceptProposedAction()
            self.open_csv(path)

    # ------------------------------------------------------------------ showing the data
    def _on_dataset_changed(self, dataset) -> None:
        if dataset is None:
            return
        if self._view_job.running:
            self._pending_view = dataset
            return
        job = Job(lambda: prepare_view(dataset), name="prepare-view")
        job.succeeded.connect(self._show_view)
        job.failed.connect(self._on_load_failed)
        self._view_job.start(job)

    def _show_view(self, view: DatasetView) -> None:
        if self._pending_view is not None:
            pending, self._pending_view = self._pending_view, None
            self._on_dataset_changed(pending)
            return
        self._view = view
        dataset = view.dataset
        self._sync_source(dataset)
        self.summary.setText(summary_html(dataset))
        counts = dataset.class_counts()
        self.counts_plot.set_counts(list(counts.index), counts.to_numpy())
        self.preview.set_frame(view.preview)
        self._fill_feature_combos(dataset)
        self._draw_scatter()
        self.state.status_message.emit(f"Loaded {dataset.name}: {dataset.n_rows:,} rows, "
                                       f"{dataset.X.shape[1]} features")
        self.view_ready.emit()

    def _sync_source(self, dataset: Dataset) -> None:
        self.target_combo.clear()
        if "csv" in dataset.source and self._raw and self._raw[0] == dataset.source["csv"]:
            self.target_combo.addItems([str(c) for c in self._raw[1].columns])
        elif "csv" in dataset.source:
            self.target_combo.addItems([*map(str, dataset.X.columns), dataset.target])
        else:
            self.target_combo.addItem(dataset.target)
            self._show_builtin_options(dataset.source)
        self.target_combo.setCurrentText(dataset.target)
        self.target_combo.setEnabled("csv" in dataset.source)

    def _show_builtin_options(self, source: dict) -> None:
        index = self.builtin_combo.findData(source.get("builtin"))
        if index < 0:
            return
        self.builtin_combo.setCurrentIndex(index)
        for option, editor in self._option_editors.items():
            if option in source:
                editor.setValue(source[option])

    def _fill_feature_combos(self, dataset: Dataset) -> None:
        numeric = [str(c) for c in dataset.numeric_columns]
        for combo, default in ((self.x_combo, 0), (self.y_combo, 1)):
            combo.clear()
            combo.addItems(numeric)
            if len(numeric) > default:
                combo.setCurrentIndex(default)

    def _draw_scatter(self) -> None:
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
        self.scatter_plot.set_points(x, y, codes, dataset.classes, x_name, y_name)

    # ------------------------------------------------------------------ shutting down
    def shutdown(self, msecs: int = 30000) -> bool:
        """Wait for the loading jobs (they cannot be interrupted mid-file)."""
        ok = self._load_job.wait(msecs) and self._view_job.wait(msecs)
        return self.preview.wait_for_export(msecs) and ok


def csv_path_of(mime) -> str:
    """The local .csv/.tsv/.txt file dragged in, or ''."""
    if not mime.hasUrls():
        return ""
    for url in mime.urls():
        path = url.toLocalFile()
        if path.lower().endswith((".csv", ".tsv", ".txt")):
            return path
    return ""


def summary_html(dataset: Dataset) -> str:
    """Rows, features, missing values, categorical columns and the loading notes."""
    categorical = dataset.categorical_columns
    n_classes = len(dataset.classes)
    rows = [("Data set", dataset.name), ("Rows", f"{dataset.n_rows:,}"),
            ("Features", f"{dataset.X.shape[1]} ({len(dataset.numeric_columns)} numeric, "
                         f"{len(categorical)} categorical)"),
            ("Missing values", f"{dataset.n_missing:,}"),
            ("Target", f"{dataset.target} — {n_classes} classes")]
    if categorical:
        rows.append(("Categorical", ", ".join(map(str, categorical[:8]))
                     + (" …" if len(categorical) > 8 else "")))
    table = "".join(f"<tr><td style='color:#555; padding-right:8px'>{k}</td><td>{_html(v)}</td>"
                    "</tr>" for k, v in rows)
    notes = "".join(f"<li>{_html(n)}</li>" for n in dataset.notes)
    return (f"<table>{table}</table><p style='margin-top:8px'><b>What was done</b></p>"
            f"<ul style='margin-left:-20px'>{notes or '<li>nothing: used as is</li>'}</ul>")


def _html(text) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
