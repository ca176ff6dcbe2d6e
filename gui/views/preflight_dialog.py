"""The pre-run check's list (:mod:`engine.runs.preflight`), shown when Run is pressed.

Every problem in words, with a button per fix (turn on probabilities, switch the metric,
add scaling, use the usual threshold, fewer folds …). A fix is applied to the window's
setup at once (``apply`` of the caller, on the state) and its row says so; nothing starts
until the user chooses: "Run" (enabled once no problem that stops the run is left
unfixed) checks the setup again and starts it, "Cancel" starts nothing.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFrame, QHBoxLayout,
                               QPushButton, QScrollArea, QVBoxLayout, QWidget)

from ..jobs import sentence
from ..plain_text import plain_label


TITLE = "Before the run"
INTRO = ("The run would fail or mislead as it is set up. Choose a fix for each problem "
         "(it changes the setup at once), then press Run; Cancel starts nothing.")
INTRO_WARNINGS = ("The run can start, but read this first. A fix changes the setup at once; "
                  "Run starts the run, Cancel starts nothing.")


#: The marks of a problem that stops the run and of a warning: glyphs the common fonts
#: have (DejaVu Sans has no "⛔", which showed as an empty box).
BLOCKING_MARK = "✖"
WARNING_MARK = "⚠"


class ProblemRow(QFrame):
    """One problem: its words, and a button per fix."""

    def __init__(self, problem, on_fix: Callable, parent=None):
        super().__init__(parent)
        self.problem, self.fixed = problem, False
        self.setFrameShape(QFrame.StyledPanel)
        layout = QVBoxLayout(self)
        mark = BLOCKING_MARK if problem.blocking else WARNING_MARK
        self.label = plain_label(f"{mark} {sentence(problem.words())}.", self)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        layout.addWidget(self.label)
        buttons = QHBoxLayout()
        self.buttons = []
        for fix in problem.fixes:
            button = QPushButton(fix.words, self)
            button.setToolTip("Changes the setup now; the list is checked again before "
                              "the run starts")
            button.clicked.connect(lambda _=False, f=fix: on_fix(self, f))
            buttons.addWidget(button)
            self.buttons.append(button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.done_label = plain_label("", self)
        self.done_label.setStyleSheet("color: #2a7a2a;")
        self.done_label.hide()
        layout.addWidget(self.done_label)

    def mark_fixed(self, words: str) -> None:
        self.fixed = True
        for button in self.buttons:
            button.setEnabled(False)
        self.done_label.setText(f"✓ Done: {words}.")
        self.done_label.show()


class PreflightDialog(QDialog):
    """The list of :class:`engine.runs.preflight.Problem` values with their fixes.

    Parameters
    ----------
    problems : list of Problem
    apply : callable
        ``apply(fix)`` changes the window's setup (the state); called when a fix button is
        pressed.
    """

    def __init__(self, problems, apply: Callable, parent=None):
        super().__init__(parent)
        self.setWindowTitle(TITLE)
        self.apply, self.applied = apply, []
        layout = QVBoxLayout(self)
        stops = any(problem.blocking for problem in problems)
        intro = plain_label(INTRO if stops else INTRO_WARNINGS, self)
        intro.setWordWrap(True)
        layout.addWidget(intro)
        holder = QWidget(self)
        rows = QVBoxLayout(holder)
        self.rows = [ProblemRow(problem, self._fix, holder) for problem in problems]
        for row in self.rows:
            rows.addWidget(row)
        rows.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(holder)
        layout.addWidget(scroll, 1)
        self.button_box = QDialogButtonBox(self)
        self.run_button = self.button_box.addButton("Run", QDialogButtonBox.AcceptRole)
        self.cancel_button = self.button_box.addButton("Cancel", QDialogButtonBox.RejectRole)
        self.button_box.accepted.connect(self.accept)
        self.button_box.rejected.connect(self.reject)
        layout.addWidget(self.button_box)
        self.resize(620, min(560, 160 + 90 * len(problems)))
        self._update()

    def _fix(self, row: ProblemRow, fix) -> None:
        self.apply(fix)
        self.applied.append(fix)
        row.mark_fixed(fix.words)
        for other in self.rows:          # the same fix (one model, several problems)
            if other is not row and not other.fixed and fix in other.problem.fixes:
                other.mark_fixed(fix.words)
        self._update()

    def _update(self) -> None:
        left = [row for row in self.rows if row.problem.blocking and not row.fixed]
        self.run_button.setEnabled(not left)
        self.run_button.setToolTip(f"Fix every problem marked {BLOCKING_MARK} first"
                                   if left else
                                   "Check the setup again and start the run")

