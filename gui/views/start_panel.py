"""A real starting point: the first-screen panel above the tabs (open data → choose the
column to predict → Run, each step ticked off as it is done) and the bar that proposes a fair
starter set of models when one's own data is opened while the models are still the example's.
"""
from __future__ import annotations

import copy
from contextlib import contextmanager
from typing import Optional

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QToolButton

from engine.evaluation.catalogue import starter_models
from ..dataset_loading import source_path
from ..file_dialogs import is_shipped

from ..model_entry import ModelEntry
from ..plain_text import plain_label, rich_label

PANEL_STYLE = ("QFrame#startPanel { background: #f3f7fc; border: 1px solid #b9cfe8; "
               "border-radius: 4px; }")
BAR_STYLE = ("QFrame#starterBar { background: #e8f1fb; border: 1px solid #9cc2e8; "
             "border-radius: 4px; }")
#: The steps of the panel: (what to do, where).
STEPS = (("Open your data", "CSV, ARFF, Excel"),
         ("Choose the column to predict", "Dataset tab"),
         ("Run", "Cross-validation tab"))
#: What the starter set holds, in words.
STARTER_WORDS = ("logistic regression (scaled), random forest, gradient boosting, "
                 "k nearest neighbours (scaled) and naive Bayes")


def step_text(number: int, done: bool) -> str:
    """One step of the panel as rich text (a tick once done)."""
    what, where = STEPS[number]
    mark = "✓" if done else f"{number + 1}."
    colour = "#2e7d32" if done else "#1a1a1a"
    return (f"<span style='color:{colour}'><b>{mark} {what}</b></span> "
            f"<span style='color:#555'>({where})</span>")


class StartPanel(QFrame):
    """What to do first, in three steps, with a button for the first and the last."""

    open_data_requested = Signal()
    run_requested = Signal()
    hidden_by_user = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("startPanel")
        self.setStyleSheet(PANEL_STYLE)
        self.steps_label = rich_label("", self)          # one label: it wraps in a narrow window
        self.steps_label.setTextFormat(Qt.RichText)
        self.steps_label.setWordWrap(True)
        self._done = [False] * len(STEPS)
        self.open_button = QPushButton("Open data…", self)
        self.open_button.setToolTip("Open a data file of your own (CSV, ARFF or Excel)")
        self.open_button.clicked.connect(self.open_data_requested)
        self.run_button = QPushButton("Go to Run", self)
        self.run_button.setToolTip("Show the Cross-validation tab, where Run starts the "
                                   "evaluation")
        self.run_button.clicked.connect(self.run_requested)
        self.close_button = close = QToolButton(self)
        close.setText("✕")
        close.setAutoRaise(True)
        close.setToolTip("Hide these steps (File → New shows them again)")
        close.clicked.connect(self._hide_by_user)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 3, 4, 3)
        layout.addWidget(self.steps_label, 1)
        layout.addWidget(self.open_button)
        layout.addWidget(self.run_button)
        layout.addWidget(close)
        self.show_progress(False, False, False)

    def show_progress(self, has_own_data: bool, has_target: bool, has_result: bool) -> None:
        """Tick off the steps done."""
        self._done = [has_own_data, has_target, has_result]
        steps = " &nbsp;→&nbsp; ".join(step_text(number, done)
                                       for number, done in enumerate(self._done))
        self.steps_label.setText(f"<b>Start here:</b> &nbsp;{steps}")

    def done(self) -> list:
        """Which steps are ticked off."""
        return list(self._done)

    def _hide_by_user(self) -> None:
        self.hide()
        self.hidden_by_user.emit()


class StarterBar(QFrame):
    """The offer of the starter set: one click to use it, one to keep the models as they are."""

    accepted = Signal(list)     # the starter models' entries
    declined = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("starterBar")
        self.setStyleSheet(BAR_STYLE)
        self.label = plain_label("", self)
        self.label.setWordWrap(True)
        self.use_button = QPushButton("Use the starter set", self)
        self.use_button.setStyleSheet("font-weight: bold; padding: 3px 12px;")
        self.use_button.clicked.connect(self._accept)
        self.keep_button = QPushButton("Keep the current models", self)
        self.keep_button.clicked.connect(self._decline)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.use_button)
        layout.addWidget(self.keep_button)
        self._seed = 0
        self.hide()

    def offer(self, current: str, random_state: Optional[int], has_models: bool = True) -> None:
        """Show the offer; ``current`` says in words what the models are now."""
        self._seed = 0 if random_state is None else int(random_state)
        self.keep_button.setText("Keep the current models" if has_models else "Not now")
        self.label.setText(f"Your own data is open, and the models are {current}. A fair "
                           f"first comparison: {STARTER_WORDS}.")
        self.show()

    def _accept(self) -> None:
        self.hide()
        self.accepted.emit(starter_models(self._seed))

    def _decline(self) -> None:
        self.hide()
        self.declined.emit()


def own_data_path(dataset) -> Optional[str]:
    """The data file of ``dataset`` when it is the user's own (not built in, not one of the
    app's examples), else None."""
    path = source_path(dataset.source) if dataset is not None else None
    return str(path) if path and not is_shipped(str(path)) else None


def models_in_words(entries: list) -> str:
    """What the current models are, for the starter offer."""
    if not entries:
        return "not chosen yet"
    names = [ModelEntry.of(entry).label for entry in entries]
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    return f"still the example's ({shown})"


class StartGuide(QObject):
    """The first-screen panel and the starter offer of a main window.

    The offer is made when the user's own data is opened while the models are those a
    shipped example or File → New brought (untouched by the user); it is made once, until
    the next example or New.
    """

    SETTING = "start/hidden"

    def __init__(self, window):
        super().__init__(window)
        self.window, self.state = window, window.state
        self.panel = StartPanel(window)
        self.bar = StarterBar(window)
        self._not_chosen: Optional[list] = None   # models the user did not choose, or None
        self._opening = False
        if str(window.settings.value(self.SETTING, "false")).lower() == "true":
            self.panel.hide()
        self.panel.open_data_requested.connect(window._ask_open_data)
        self.panel.run_requested.connect(lambda: window.tabs.setCurrentWidget(window.cv_tab))
        self.panel.hidden_by_user.connect(lambda: window.settings.setValue(self.SETTING, True))
        self.bar.accepted.connect(self._use_starter_set)
        self.bar.declined.connect(self._forget)
        self.state.dataset_changed.connect(self._on_dataset_changed)
        self.state.models_changed.connect(self._on_models_changed)
        self.state.result_changed.connect(lambda _: self._show_progress())

    @contextmanager
    def experiment_opening(self, shipped: bool):
        """Around taking over an experiment file: its data and models come together (no
        offer); a shipped example's models are not the user's choice."""
        self._opening = True
        self.bar.hide()
        try:
            yield
        finally:
            self._opening = False
            self._not_chosen = copy.deepcopy(self.state.model_entries) if shipped else None
            self._show_progress()

    def restart(self) -> None:
        """After File → New: the steps shown again, the next own data gets the offer."""
        self.window.settings.setValue(self.SETTING, False)
        self.panel.show()
        self.bar.hide()
        self._not_chosen = copy.deepcopy(self.state.model_entries)
        self._show_progress()

    def _show_progress(self) -> None:
        dataset = self.state.dataset
        own = own_data_path(dataset) is not None
        steps = (own, own and bool(dataset.source.get("target")),
                 own and self.state.result is not None)
        self.panel.show_progress(*steps)
        if all(steps):
            self.panel.hide()                   # done: the room goes to the results

    def _on_dataset_changed(self, dataset) -> None:
        self._show_progress()
        if self._opening or dataset is None or self._not_chosen is None:
            return
        if own_data_path(dataset) is None or self.bar.isVisible():
            return
        entries = self.state.model_entries
        self.bar.offer(models_in_words(entries), self.state.cv.random_state, bool(entries))

    def _on_models_changed(self, entries: list) -> None:
        if not self._opening and self._not_chosen is not None and entries != self._not_chosen:
            self._forget()                       # the user chose models: no offer

    def _use_starter_set(self, entries: list) -> None:
        self._not_chosen = None
        self.state.set_model_entries(entries)
        self.state.status_message.emit("Models: the starter set of five (see the Models tab).")

    def _forget(self) -> None:
        self._not_chosen = None
        self.bar.hide()
