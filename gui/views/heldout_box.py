"""The Dataset tab's "Held-out test file" box: a file with the same columns, kept apart
from the cross-validation and scored once by every model fitted on all training rows
(the experiment's ``"test"`` block), and whether to keep those final models
(``"save_models"``). The file is read and checked when Run is pressed (on a worker
thread), not here."""
from __future__ import annotations

import os

from PySide6.QtWidgets import (QCheckBox, QFileDialog, QGroupBox, QHBoxLayout,
                               QPushButton, QVBoxLayout)

from ..dataset_loading import FILE_FILTERS
from ..help import help_button
from ..plain_text import escape, plain_tip, rich_label
from ..state import AppState

NONE_TEXT = "None: the models are judged by cross-validation only."
TIP = ("A file with the same columns as your data, never used to choose anything. After the "
       "cross-validation every model is fitted once on all your rows and scored once on it. "
       "One test set is one draw: a score a little below the cross-validated one is common.")
SAVE_TIP = ("Keep each final model (model_NAME.skops) to predict new rows later (File → "
            "Predict… proposes them): written when the run ends into NAME.models beside the "
            "result store (the Held-out test view says where), and into the result folder "
            "on Export. Only the types the app writes are loaded from a model file; use "
            "files only from people you trust.")


class HeldoutBox(QGroupBox):
    """Choose, show or clear the held-out test file of the experiment."""

    def __init__(self, state: AppState, parent=None):
        super().__init__("Held-out test file", parent)
        self.state = state
        self.setToolTip(TIP)
        self.file_label = rich_label(NONE_TEXT, self)
        self.file_label.setWordWrap(True)
        self.choose_button = QPushButton("Choose…", self)
        self.choose_button.setToolTip(TIP)
        self.choose_button.clicked.connect(self.ask_path)
        self.clear_button = QPushButton("Clear", self)
        self.clear_button.setToolTip("Use no held-out test file")
        self.clear_button.clicked.connect(lambda: self.state.set_test(None))
        self.save_check = QCheckBox("Keep the final models (to predict new rows)", self)
        self.save_check.setToolTip(SAVE_TIP)
        self.save_check.toggled.connect(self._on_save_toggled)
        buttons = QHBoxLayout()
        buttons.addWidget(self.choose_button)
        buttons.addWidget(self.clear_button)
        buttons.addStretch(1)
        buttons.addWidget(help_button("heldout", self))
        layout = QVBoxLayout(self)
        layout.addWidget(self.file_label)
        layout.addLayout(buttons)
        layout.addWidget(self.save_check)
        state.settings_changed.connect(self.sync)
        self.sync()

    def ask_path(self) -> None:
        """Ask for the test file (a modal file dialog) and choose it."""
        path, _ = QFileDialog.getOpenFileName(self, "Choose the held-out test file", "",
                                              FILE_FILTERS)
        if path:
            self.choose(path)

    def choose(self, path: str) -> None:
        """Make ``path`` the experiment's held-out test file."""
        self.state.set_test({"file": os.path.abspath(path)})

    def _on_save_toggled(self, on: bool) -> None:
        if self.state.test and on != self.state.save_models:
            self.state.set_test(self.state.test, save_models=on)

    def sync(self) -> None:
        """Show the state's test file."""
        test = self.state.test
        self.file_label.setText(NONE_TEXT if not test else
                                f"<b>{escape(os.path.basename(test['file']))}</b> — scored once "
                                "after the cross-validation")
        self.file_label.setToolTip(plain_tip(test["file"]) if test else "")
        self.clear_button.setEnabled(bool(test))
        self.save_check.setEnabled(bool(test))
        self.save_check.blockSignals(True)
        self.save_check.setChecked(bool(test) and self.state.save_models)
        self.save_check.blockSignals(False)
