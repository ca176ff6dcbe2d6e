"""The offline guide: short HTML pages shipped in resources/help (found through
:func:`resources.help_dir`, wherever the app is installed), shown in a QTextBrowser dialog.

``show_help(topic, parent)`` opens (or raises) the guide at one topic: ``"index"``,
``"dataset"``, ``"models"``, ``"cv"``, ``"results"`` or a section such as
``"results#rope"``.
"""
from __future__ import annotations

import os
from typing import Optional

from PySide6.QtCore import QUrl
from shiboken6 import isValid
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QTextBrowser,
                               QToolButton, QVBoxLayout, QWidget)

import resources

from .plain_text import rich_label


#: The folder of the guide's pages (a real folder: the browser's search path).
HELP_DIR = resources.help_dir()
TOPICS = ("index", "dataset", "models", "cv", "results")
#: Topic names the views use -> page#section of the guide.
ALIASES = {"aloocv": "results#alo", "calibration": "results#calibration",
           "corrected_ttest": "results#ttest", "bayesian": "results#rope",
           "rope": "results#rope", "credible_intervals": "results#intervals",
           "across": "results#across", "grouping_gap": "results#grouping_gap",
           "tuning": "results#tuning", "roc_pr": "results#roc_pr", "auc": "results#auc",
           "decision_curve": "results#decision_curve", "learning_curve": "results#learning_curve",
           "heldout": "results#heldout", "predict": "results#predict",
           "groups": "dataset#groups", "subgroups": "results#subgroups"}

_dialog: Optional["HelpDialog"] = None


class HelpDialog(QDialog):
    """A small, non-modal browser over the guide's pages."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Guide")
        self.resize(720, 640)
        self.browser = QTextBrowser(self)
        self.browser.setSearchPaths([HELP_DIR])
        self.browser.setOpenExternalLinks(True)
        buttons = QDialogButtonBox(QDialogButtonBox.Close, self)
        buttons.rejected.connect(self.close)
        contents = buttons.addButton("Contents", QDialogButtonBox.ResetRole)
        contents.clicked.connect(lambda: self.open_topic("index"))
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)

    def open_topic(self, topic: str) -> None:
        page, _, anchor = ALIASES.get(topic, topic).partition("#")
        if page not in TOPICS:
            page = "index"
        url = QUrl.fromLocalFile(os.path.join(HELP_DIR, page + ".html"))
        if anchor:
            url.setFragment(anchor)
        self.browser.setSource(url)


def show_help(topic: str = "index", parent: Optional[QWidget] = None) -> HelpDialog:
    """Open the guide at ``topic`` (one dialog for the whole app) and return it."""
    global _dialog
    if _dialog is None or not isValid(_dialog) or _dialog.parent() is not parent:
        if _dialog is not None and isValid(_dialog):
            _dialog.close()
        _dialog = HelpDialog(parent)
    _dialog.open_topic(topic)
    _dialog.show()
    _dialog.raise_()
    return _dialog


def help_button(topic: str, parent: QWidget, tooltip: Optional[str] = None) -> QToolButton:
    """A round "?" button named ``help_<topic>`` that opens the guide at ``topic`` (a page,
    ``page#section`` or an alias from :data:`ALIASES`)."""
    button = QToolButton(parent)
    button.setText("?")
    button.setObjectName(f"help_{topic}")
    button.setToolTip(tooltip or "What does this show and how do I read it? (opens the guide)")
    button.setFixedSize(24, 24)
    button.setStyleSheet("QToolButton { border: 1px solid #0b4f8a; border-radius: 12px; "
                         "color: #0b4f8a; font-weight: bold; }")
    button.clicked.connect(lambda: _open_from(button, topic))
    return button


def _open_from(button: QToolButton, topic: str) -> None:
    show_help(topic, button.window())      # looked up when clicked: tests may replace it


def help_title(text: str, topic: str, parent: QWidget) -> QHBoxLayout:
    """A bold title on the left and the "?" button for ``topic`` on the right."""
    row = QHBoxLayout()
    row.addWidget(rich_label(f"<b>{text}</b>"))
    row.addStretch(1)
    row.addWidget(help_button(topic, parent))
    return row
