"""The Cross-validation tab's "Subgroups" page (beside the run's log, where it has room
for the columns without pushing Run out of sight): the experiment's ``"subgroups"`` list.

Ticked columns define groups of rows (sex, age group, hospital) whose scores the run
reports separately, computed from the same out-of-fold predictions as everything else:
no extra fit. A column may be a feature or a column left out of the features
(``"exclude"``), as the engine offers them (``candidate_columns``). A numeric column is cut
at its quartiles by the engine (:mod:`engine.evaluation.subgroups.spec`), or at the points
typed here ("40, 65": up to 40, above 40 up to 65, above 65), checked as they are typed.
Subgroups need an experiment of one data set (the engine refuses them with a
``"datasets"`` list), so with several the page says so. The box writes the list into the
state (:meth:`gui.state.AppState.set_subgroups`) and shows the state's; new data starts
without subgroups (``AppState._start_clean``).
"""
from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Optional

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QHBoxLayout, QLineEdit, QListWidget, QListWidgetItem,
                               QSizePolicy, QTabWidget, QVBoxLayout, QWidget)

from engine.evaluation.subgroups import (MIN_EVENTS, MIN_ROWS, candidate_columns,
                                         check_subgroups, parse_subgroups)
from engine.foundation.errors import error_code, error_fields

from ..plain_text import plain_label, plain_tip, rich_label
from ..state import AppState
from ..subgroup_blocks import (block_column, block_cuts, cuts_text, make_block,
                               parse_cuts)
from .widgets import blocked

INTRO = ("<b>How it does for whom.</b> Tick the columns whose groups (sex, age group, "
         "hospital) should be scored separately, each with its interval, from the same "
         "out-of-fold predictions: no extra fit. Results → Subgroups shows them.")
TIP = ("Scores per subgroup (women and men, age groups, hospitals), each with its interval, "
       "from the same out-of-fold predictions as the rest of the run: no extra fit. Tick the "
       "columns that define the groups; they may be features or columns left out of the "
       f"features. Subgroups under {MIN_ROWS} rows or {MIN_EVENTS} rows of a class get no "
       "verdict. Saved in the experiment file as \"subgroups\".")
CUTS_TIP = ("Where to cut a numeric column, smallest first, separated by commas: \"40, 65\" "
            "makes three subgroups: up to 40, above 40 up to 65, and above 65 (a value equal "
            "to a cut belongs to the lower subgroup). Empty: cut at its quartiles.")
CUTS_HINT = "empty: cut at quartiles"
#: Up to this many rows the page checks each ticked column as the run will (engine's
#: ``check_subgroups``, on the GUI thread: a column of text took 0.68 s at 200,000 rows,
#: so about 0.17 s here, once per column and cut points); larger data is checked when
#: Run is pressed.
CHECK_ROWS = 50_000
#: The engine's subgroup errors (engine.foundation.errors) in the words of this page.
PROBLEMS = {
    "subgroup_column_unknown": "{column} is not a column of this data set: untick it.",
    "subgroup_cuts_not_numeric": "{column} holds text: clear its cut points to use its "
                                 "categories.",
    "subgroup_one_value": "{column} makes one subgroup only ({value}): type cut points "
                          "inside its range, or untick it.",
    "subgroup_too_many_levels": "{column} makes {n_levels} subgroups, more than {cap}: type "
                                "fewer cut points, or untick it.",
}
#: The most columns an experiment's ``"subgroups"`` may name (its schema's ``maxItems``).
MAX_COLUMNS = 20
SEVERAL = ("Subgroups are scored for one data set at a time: a column belongs to one data "
           "set. Keep one data set on the Dataset tab to use them.")
NO_COLUMNS = "Open a data set to choose the columns that define subgroups."
#: How a column's kind is shown after its name.
KINDS = {"numeric": "numbers", "text": "categories",
         "left out numeric": "numbers, left out of the features",
         "left out text": "categories, left out of the features", "missing": "not in this data"}
#: The kinds that take cut points.
NUMERIC = ("numeric", "left out numeric")
WARNING = "#b35900"


def column_kinds(dataset) -> dict:
    """``{column: kind}`` of the columns that can define subgroups, by the engine's rule
    (:func:`engine.evaluation.subgroups.candidate_columns`): the features (``"numeric"``
    or ``"text"``), then the columns left out (``"left out numeric"`` / ``"left out
    text"``)."""
    if dataset is None:
        return {}
    return {str(name): ("" if feature else "left out ") + ("numeric" if numeric else "text")
            for name, feature, numeric in candidate_columns(dataset)}


def subgroups_problem(blocks, dataset, known: Optional[dict] = None) -> str:
    """What the run's check would refuse in ``blocks`` on ``dataset``, in the words of
    this page ("" when nothing, or when the data is too large to check here); ``known``
    keeps each entry's answer, so a change checks only the entry changed."""
    if dataset is None or len(dataset.y) > CHECK_ROWS:
        return ""
    known = {} if known is None else known
    for block in blocks:
        key = (id(dataset), json.dumps(block, sort_keys=True))
        if key not in known:
            known[key] = block_problem(block, dataset)
        if known[key]:
            return known[key]
    return ""


def block_problem(block, dataset) -> str:
    """What the run's check would refuse in one entry, in the words of this page."""
    try:
        check_subgroups(SimpleNamespace(subgroups=parse_subgroups([block])), dataset)
    except ValueError as exc:
        words = PROBLEMS.get(error_code(exc))
        try:
            return words.format(**error_fields(exc)) if words else sentence_of(exc)
        except (KeyError, IndexError):
            return sentence_of(exc)
    return ""


def sentence_of(exc) -> str:
    """An error's message as a sentence."""
    message = str(exc)
    return message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")


class SubgroupsBox(QWidget):
    """Tick the columns of subgroups; the cut points of the numeric one picked."""

    def __init__(self, state: AppState, parent=None):
        super().__init__(parent)
        self.state = state
        self.setToolTip(TIP)
        self._syncing = False
        self._kinds: dict = {}
        self._checked: dict = {}      # (data set, entry) -> problem ("" when none) ...
        self._checked_for = None      # ... of this data set (kept: its id stays its own)
        self.column_list = QListWidget(self)
        self.column_list.setToolTip(TIP)
        self.column_list.setMinimumHeight(3 * self.column_list.fontMetrics().lineSpacing() + 8)
        self.column_list.setMinimumWidth(220)
        self.column_list.itemChanged.connect(self._on_ticked)
        self.column_list.currentItemChanged.connect(lambda *_: self._show_cuts())
        self.cuts_label = plain_label("Cut points", self)
        self.cuts_edit = QLineEdit(self)
        self.cuts_edit.setPlaceholderText(CUTS_HINT)
        self.cuts_edit.setToolTip(CUTS_TIP)
        self.cuts_edit.editingFinished.connect(self._on_cuts_typed)
        self.problem = plain_label("", self)
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet(f"color: {WARNING};")
        self.problem.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Fixed)
        self.intro = rich_label(INTRO, self)
        self.intro.setWordWrap(True)
        self.intro.setStyleSheet("color: #444;")
        self.intro.setToolTip(TIP)
        cuts = QHBoxLayout()
        cuts.addWidget(self.cuts_label)
        cuts.addWidget(self.cuts_edit, 1)
        side = QVBoxLayout()
        side.addWidget(self.intro)
        side.addLayout(cuts)
        side.addWidget(self.problem)
        side.addStretch(1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(self.column_list, 1)
        layout.addLayout(side, 1)
        for signal in (state.settings_changed, state.datasets_changed, state.dataset_changed):
            signal.connect(lambda *_: self.sync())
        self.sync()

    # ------------------------------------------------------------------ showing
    def sync(self) -> None:
        """Show the state's data set's columns, the state's subgroups ticked."""
        if self._syncing:
            return
        chosen = {block_column(b): block_cuts(b) for b in self.state.subgroups}
        self._kinds = column_kinds(self.state.dataset)
        for column in chosen:
            self._kinds.setdefault(column, "missing")
        current = self.current_column()
        with blocked(self.column_list):
            self.column_list.clear()
            for column, kind in self._kinds.items():
                self.column_list.addItem(self._item(column, kind, column in chosen,
                                                    chosen.get(column, ())))
            if not self._kinds:
                self.column_list.addItem(QListWidgetItem(NO_COLUMNS))
            self._select(current)
        self._name_tab(len(chosen))
        several = len(self.state.datasets) > 1
        self.column_list.setEnabled(bool(self._kinds) and (not several or bool(chosen)))
        self._show_cuts()

    def _name_tab(self, count: int) -> None:
        """On a tab page, the tab says how many columns are ticked ("Subgroups (2)"), so
        they are seen while the log is in front."""
        stack = self.parentWidget()
        tabs = stack.parentWidget() if stack is not None else None
        if isinstance(tabs, QTabWidget) and tabs.indexOf(self) >= 0:
            tabs.setTabText(tabs.indexOf(self), f"Subgroups ({count})" if count else "Subgroups")

    def _item(self, column: str, kind: str, ticked: bool, cuts) -> QListWidgetItem:
        words = KINDS[kind] + (f"; cut at {cuts_text(cuts)}" if cuts else "")
        item = QListWidgetItem(f"{column}  ({words})")
        item.setData(Qt.UserRole, column)
        item.setData(Qt.UserRole + 1, tuple(cuts))
        item.setToolTip(plain_tip(f"{column}: {words}"))
        item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
        item.setCheckState(Qt.Checked if ticked else Qt.Unchecked)
        return item

    def _select(self, column: Optional[str]) -> None:
        for i in range(self.column_list.count()):
            if self.column_list.item(i).data(Qt.UserRole) == column:
                self.column_list.setCurrentRow(i)
                return

    def current_column(self) -> Optional[str]:
        """The column picked in the list (None: none)."""
        item = self.column_list.currentItem()
        return None if item is None else item.data(Qt.UserRole)

    def _cuttable(self, item) -> bool:
        """Whether ``item``'s column may take cut points: ticked, and numbers (or given
        cut points already, as a file may, so they can be cleared)."""
        return (item is not None and item.checkState() == Qt.Checked
                and (self._kinds.get(item.data(Qt.UserRole)) in NUMERIC
                     or bool(item.data(Qt.UserRole + 1))))

    def _show_cuts(self) -> None:
        item = self.column_list.currentItem()
        usable = self._cuttable(item)
        column = item.data(Qt.UserRole) if item is not None else None
        self.cuts_label.setText(f"Cut {column} at" if usable else "Cut points")
        self.cuts_edit.setEnabled(usable)
        self.cuts_edit.setText(cuts_text(item.data(Qt.UserRole + 1)) if usable else "")
        self._say(self.standing_problem())

    def standing_problem(self) -> str:
        """What stops the state's subgroups from running ("" when nothing found)."""
        if len(self.state.datasets) > 1:
            return SEVERAL
        if not self.state.subgroups:
            return ""
        if self._checked_for is not self.state.dataset or len(self._checked) > 200:
            self._checked, self._checked_for = {}, self.state.dataset
        return subgroups_problem(self.state.subgroups, self.state.dataset, self._checked)

    def _say(self, problem: str) -> None:
        """Show ``problem`` (a sentence) under the cut points; "" hides it."""
        self.problem.setText(problem)
        self.problem.setVisible(bool(problem))

    # ------------------------------------------------------------------ choosing
    def chosen(self) -> tuple:
        """The ``"subgroups"`` entries the list says, in its order."""
        blocks = []
        for i in range(self.column_list.count()):
            item = self.column_list.item(i)
            if item.data(Qt.UserRole) is not None and item.checkState() == Qt.Checked:
                blocks.append(make_block(item.data(Qt.UserRole), item.data(Qt.UserRole + 1)))
        return tuple(blocks)

    def tick(self, column: str, on: bool = True) -> None:
        """Tick (or untick) ``column`` as the user would, and pick it."""
        for i in range(self.column_list.count()):
            item = self.column_list.item(i)
            if item.data(Qt.UserRole) == column:
                self.column_list.setCurrentItem(item)
                item.setCheckState(Qt.Checked if on else Qt.Unchecked)
                return
        raise ValueError(f"no column {column!r} to tick")

    def _on_ticked(self, item) -> None:
        if len(self.chosen()) > MAX_COLUMNS:
            with blocked(self.column_list):
                item.setCheckState(Qt.Unchecked)
            self._say(f"At most {MAX_COLUMNS} columns define subgroups; untick one first.")
            return
        with blocked(self.column_list):
            if item.checkState() != Qt.Checked:
                item.setData(Qt.UserRole + 1, ())      # unticked: its cut points go too
            self.column_list.setCurrentItem(item)
        self._store()                                  # rebuilds the list: item is gone

    def _on_cuts_typed(self) -> None:
        item = self.column_list.currentItem()
        if not self._cuttable(item):
            return
        try:
            cuts = parse_cuts(self.cuts_edit.text())
        except ValueError as exc:
            message = str(exc)
            self._say(message[:1].upper() + message[1:] + ".")
            return
        self._say(self.standing_problem())
        if tuple(item.data(Qt.UserRole + 1)) != cuts:
            with blocked(self.column_list):
                item.setData(Qt.UserRole + 1, cuts)
            self._store()

    def _store(self) -> None:
        self._syncing = True
        try:
            self.state.set_subgroups(self.chosen())
        finally:
            self._syncing = False
        self.sync()
