"""Nothing lost by accident: unsaved changes, the questions asked before closing, and the
status-bar notice of what was saved where (with a link that opens the folder).
"""
from __future__ import annotations

import json
import os
from html import escape
from typing import Callable

from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import QLabel, QMessageBox

from engine.evaluation.experiment import experiment_dict

from .file_dialogs import open_folder
from .plain_text import message_box, plain_tip
from .subgroup_blocks import with_subgroups

RUNNING_QUESTION = ("{what} is still running. Stop it and quit? What it has computed so far "
                    "is lost.")
UNSAVED_QUESTION = ("The experiment has changes that are not saved (data, models or "
                    "settings). Save them before closing?")


def setup_snapshot(state) -> str:
    """What an experiment file would hold now (data sources, models, settings), as text:
    two snapshots differ exactly when saving would write something else."""
    source, blocks = state.dataset_blocks()
    try:
        data = experiment_dict(source, state.model_entries, state.cv, state.metrics,
                               state.comparison, aloocv=state.aloocv, calibration=state.calibration,
                               datasets=blocks, costs=state.costs, test=state.test,
                               save_models=state.save_models)
        data = with_subgroups(data, state.subgroups)
    except (TypeError, ValueError, AttributeError):
        data = [repr(source), repr(blocks), repr(state.model_entries), repr(state.cv),
                repr(state.metrics), repr(state.comparison), repr(state.aloocv),
                repr(state.calibration)]
    return json.dumps(data, sort_keys=True, default=repr)


def ask_choice(parent, title: str, text: str, choices: list, default: str) -> str:
    """Ask with one button per ``(key, label, role)`` of ``choices``; the key of the button
    pressed (Esc or closing the box: the choice with the reject role, else ``default``)."""
    box = message_box(QMessageBox.Question, title, text, QMessageBox.NoButton, parent)
    keys, escape_key = {}, default
    for key, label, role in choices:
        button = box.addButton(label, role)
        keys[button] = key
        if key == default:
            box.setDefaultButton(button)
        if role == QMessageBox.RejectRole:
            box.setEscapeButton(button)
            escape_key = key
    box.exec()
    return keys.get(box.clickedButton(), escape_key)


#: The question when the run keeps its fits in a result store.
RUNNING_KEPT_QUESTION = ("{what} is still running. Stop it and quit? The fits it has finished "
                         "are kept in the result store ({store}): {again}. The fit in "
                         "progress and what comes after the fits (the comparison, "
                         "calibration, ALOOCV) are computed again.")
#: How to resume (``{again}`` above): a saved experiment's store, or unsaved work's.
AGAIN_SAVED = "running this experiment again resumes from them"
AGAIN_UNSAVED = ("running the same data again with the same models, folds and metrics "
                 "resumes from them, however the data is opened")


def ask_stop_running(parent, what: str, store: str = None, saved: bool = True) -> bool:
    """True when the user chooses "Stop and quit" over "Cancel"; ``store``: the result
    store the running job keeps its fits in (None: it keeps nothing); ``saved``: that
    store is a saved experiment's (else unsaved work's, found by the data)."""
    again = AGAIN_SAVED if saved else AGAIN_UNSAVED
    text = (RUNNING_KEPT_QUESTION.format(what=what, store=short_path(store), again=again)
            if store else RUNNING_QUESTION.format(what=what))
    choice = ask_choice(parent, "Quit while running?", text,
                        [("stop", "Stop and quit", QMessageBox.DestructiveRole),
                         ("cancel", "Cancel", QMessageBox.RejectRole)], "cancel")
    return choice == "stop"


def ask_unsaved(parent) -> str:
    """``"save"``, ``"discard"`` or ``"cancel"``."""
    return ask_choice(parent, "Save the changes?", UNSAVED_QUESTION,
                      [("save", "Save…", QMessageBox.AcceptRole),
                       ("discard", "Discard changes", QMessageBox.DestructiveRole),
                       ("cancel", "Cancel", QMessageBox.RejectRole)], "save")


def short_path(path: str, width: int = 70) -> str:
    """``path``, its middle elided when longer than ``width`` characters."""
    if len(path) <= width:
        return path
    keep = (width - 1) // 2
    return path[:keep] + "…" + path[-keep:]


class SavedNotice(QLabel):
    """"Saved <what> in <folder> — Open folder": the last save, kept in the status bar.

    ``opener(folder)`` shows the folder (the system file manager by default; tests
    replace it).
    """

    def __init__(self, parent=None, opener: Callable = open_folder):
        super().__init__(parent)
        self.opener = opener
        self.folder = ""
        self.message = ""
        self.setTextFormat(Qt.RichText)
        self.setOpenExternalLinks(False)
        self.setTextInteractionFlags(Qt.LinksAccessibleByMouse | Qt.LinksAccessibleByKeyboard)
        self.linkActivated.connect(lambda _link: self.open())
        self.setVisible(False)

    def show_saved(self, what: str, folder: str) -> None:
        self.folder = os.path.abspath(folder)
        self.message = f"{what} in {self.folder}"
        url = QUrl.fromLocalFile(self.folder).toString()
        self.setText(f"{escape(what)} in <a href=\"{escape(url)}\">"
                     f"{escape(short_path(self.folder))}</a> — "
                     f"<a href=\"{escape(url)}\">Open folder</a>")
        self.setToolTip(plain_tip(f"{self.message}\nClick to open the folder."))
        self.setVisible(True)

    def clear(self) -> None:
        """Say nothing (a new experiment or new data: the last save was of the old)."""
        self.folder = self.message = ""
        self.setText("")
        self.setToolTip("")
        self.setVisible(False)

    def open(self) -> None:
        if self.folder:
            self.opener(self.folder)
