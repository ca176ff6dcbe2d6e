"""File → Predict…: apply a saved final model (``model_NAME.skops`` of a result folder,
:mod:`engine.runs.heldout.saved`) to a data file and write the predicted class and the
probability of each class to a CSV file, in a child process (a worker thread waits on it:
loading a model imports skops, which imports Dask, and an import on a worker thread raced
with scipy on the GUI thread).

The dialog is not modal and says, before anything is loaded, what the engine checks in a
model file (only the types and functions the app writes are loaded) and that files should
come from people one trusts. The models the last run kept (:mod:`gui.kept_models`) are
offered in a pick list, the first in "Saved model". "Write to" proposes ``DATA_predictions.csv`` beside the data
file and follows the data field until the user edits it (nothing is proposed for a data
file at the filesystem's root or without a folder); a folder that does not exist is made
only when the user says so."""
from __future__ import annotations

import os

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFileDialog,
                               QFormLayout, QHBoxLayout, QLineEdit, QMessageBox, QPushButton,
                               QVBoxLayout, QWidget)

from engine.runs.heldout.predict_checks import out_folder
from engine.runs.heldout.saved import WARNING, predict_file

from .dataset_loading import FILE_FILTERS
from .help import help_button
from .jobs import Job, JobSlot
from .plain_text import ask, escape, rich_label

MODEL_FILTERS = "Saved models (*.skops);;All files (*)"
INTRO = ("Apply a model saved by a run (with <b>Keep the final models</b>, or "
         "<code>--save-models</code>) to a file of new rows with the same columns. The "
         "predictions file gets the predicted class and the probability of each class for "
         "every row.")


def predictions_path(data_path: str) -> str:
    """The proposed output file: ``DATA_predictions.csv`` beside the data file; "" when
    the data path has no file name, no folder, or is at the filesystem's root."""
    folder, name = os.path.split(data_path.strip())
    stem = os.path.splitext(name)[0]
    if not stem or not folder or os.path.dirname(folder) == folder:
        return ""
    return os.path.join(folder, f"{stem}_predictions.csv")


def ask_make_folder(parent, folder: str) -> bool:
    """Ask whether to create the missing folder of the predictions file."""
    answer = ask(parent, "Create the folder?",
                 f"The folder {folder} does not exist. Create it and write the predictions "
                 "there?", QMessageBox.Yes | QMessageBox.No, QMessageBox.No)
    return answer == QMessageBox.Yes


class PathRow(QWidget):
    """A line edit with a "Choose…" button that asks for a file (``chosen`` then)."""

    chosen = Signal(str)

    def __init__(self, ask, parent=None):
        super().__init__(parent)
        self.edit = QLineEdit(self)
        self.button = button = QPushButton("Choose…", self)
        button.clicked.connect(lambda: self._ask(ask))
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.edit, 1)
        row.addWidget(button)

    def _ask(self, ask) -> None:
        path = ask(self)
        if path:
            self.edit.setText(path)
            self.chosen.emit(path)

    def path(self) -> str:
        return self.edit.text().strip()


class PredictDialog(QDialog):
    """Choose a saved model, a data file and where to write; Predict runs on a worker."""

    predicted = Signal(str, int)          # the file written, its number of rows

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Predict with a saved model")
        self.resize(640, 300)
        self._job = JobSlot()
        intro = rich_label(INTRO, self)
        intro.setWordWrap(True)
        self.warning = warning = rich_label(f"<b>Warning:</b> {WARNING}", self)
        warning.setWordWrap(True)
        warning.setStyleSheet("color: #a04000;")
        self.kept_folder = ""              # the last run's kept models (propose_kept)
        self.model_row = PathRow(lambda w: QFileDialog.getOpenFileName(
            w, "Choose a saved model", self.kept_folder, MODEL_FILTERS)[0], self)
        self.kept_combo = QComboBox(self)
        self.kept_combo.setToolTip("The models the last run kept: choose one to use it")
        self.kept_combo.activated.connect(
            lambda index: self.model_row.edit.setText(self.kept_combo.itemData(index)))
        self.data_row = PathRow(lambda w: QFileDialog.getOpenFileName(
            w, "Choose the data file", "", FILE_FILTERS)[0], self)
        self.out_row = PathRow(lambda w: QFileDialog.getSaveFileName(
            w, "Write the predictions to", self.out_row.path() or
            predictions_path(self.data_row.path()), "CSV files (*.csv)")[0], self)
        self.out_edited = False            # the user typed in "Write to": stop following
        self.ask_folder = lambda folder: ask_make_folder(self, folder)
        self.out_row.edit.textEdited.connect(self._out_typed)
        self.out_row.chosen.connect(self._out_typed)
        self.data_row.edit.textChanged.connect(self._propose_out)
        form = QFormLayout()
        form.addRow("Last run's models:", self.kept_combo)
        form.addRow("Saved model:", self.model_row)
        form.setRowVisible(self.kept_combo, False)
        self._form = form
        form.addRow("Data file:", self.data_row)
        form.addRow("Write to:", self.out_row)
        self.message = rich_label("", self)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.Close, self)
        self.predict_button = buttons.addButton("Predict", QDialogButtonBox.AcceptRole)
        buttons.accepted.connect(self.start)
        buttons.rejected.connect(self.close)
        bottom = QHBoxLayout()
        bottom.addWidget(help_button("predict", self))
        bottom.addWidget(buttons, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(warning)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addLayout(bottom)

    def propose_kept(self, record) -> None:
        """Offer the models the last run kept (a ``gui.kept_models.KeptRecord`` or None)
        in a pick list, the first in "Saved model" unless the user chose another."""
        models = record.kept.models if record is not None and record.kept else ()
        proposed = self.kept_combo.currentData() or ""
        self.kept_combo.clear()
        for path in models:
            self.kept_combo.addItem(os.path.basename(path), path)
        self._form.setRowVisible(self.kept_combo, bool(models))
        self.kept_folder = record.kept.folder if models else ""
        if models and self.model_row.path() in ("", proposed):
            self.model_row.edit.setText(models[0])

    def _out_typed(self, text: str) -> None:
        self.out_edited = bool(text.strip())

    def _propose_out(self, data_path: str) -> None:
        """Follow the data field until the user edits "Write to" (or chooses a file)."""
        if not self.out_edited:
            self.out_row.edit.setText(predictions_path(data_path))

    def set_paths(self, model: str, data: str, out: str = "") -> None:
        """Fill in the three files (the out file proposed from the data file if empty)."""
        self.model_row.edit.setText(model)
        self.out_edited = bool(out)
        self.data_row.edit.setText(data)
        self.out_row.edit.setText(out or predictions_path(data))

    def _folder_ready(self, out: str) -> bool:
        """The folder of ``out`` exists, or the user agreed and it was made."""
        folder = out_folder(out)
        if os.path.isdir(folder):
            return True
        if not self.ask_folder(folder):
            self.message.setText("Not predicted: the folder of “Write to” does not exist.")
            return False
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            self.message.setText(f"Could not create {folder}: {exc.strerror or exc}"
                                 .replace("<", "&lt;"))
            return False
        return True

    def start(self) -> None:
        """Predict in a child process (nothing happens while a prediction runs)."""
        model, data, out = self.model_row.path(), self.data_row.path(), self.out_row.path()
        if not (model and data and out):
            self.message.setText("Choose the saved model, the data file and where to write.")
            return
        if self._job.running or not self._folder_ready(out):
            return
        job = Job.in_process(predict_file, (model, data, out), name="predict")
        job.succeeded.connect(lambda table: self._done(out, len(table)))
        job.failed.connect(self._failed)
        self.predict_button.setEnabled(False)
        self.message.setText("Predicting…")
        self._job.start(job)

    def _done(self, out: str, n_rows: int) -> None:
        self.predict_button.setEnabled(True)
        self.message.setText(f"Wrote {n_rows} predictions to {escape(out)}.")
        self.predicted.emit(out, n_rows)

    def _failed(self, message: str) -> None:
        self.predict_button.setEnabled(True)
        self.message.setText(f"<span style='color:#c00'>Could not predict: "
                             f"{escape(message)}</span>")

    def running(self) -> bool:
        """Whether a prediction is being computed."""
        return self._job.running

    def wait(self, msecs: int = 30000) -> bool:
        """Wait for a prediction under way (on close)."""
        return self._job.wait(msecs)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        self._job.wait()
        super().closeEvent(event)
