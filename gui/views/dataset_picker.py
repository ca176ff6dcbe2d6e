"""The data set picker at the top of the Results tab: after a run over several data sets,
it chooses whose results every per-data-set view shows (``AppState.pick_dataset``).
Hidden when the last run had one data set."""
from __future__ import annotations


from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QWidget

from ..plain_text import escape, plain_tip, rich_label
from ..state import AppState
from .widgets import blocked


class DatasetPicker(QWidget):
    """"Data set: [combo] (2 of 6)", following ``state.benchmark`` and ``state.result``."""

    def __init__(self, state: AppState, parent=None):
        super().__init__(parent)
        self.state = state
        self._wanted = True
        self.combo = QComboBox(self)
        self.combo.setMinimumContentsLength(18)
        self.combo.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.combo.view().setTextElideMode(Qt.ElideNone)
        self.combo.setToolTip("Whose results the views below show; the “Across data sets” "
                              "view compares the models over all of them")
        self.combo.currentIndexChanged.connect(self._on_picked)
        self.position = rich_label("", self)
        self.position.setStyleSheet("color: #555;")
        label = rich_label("<b>Data set</b>", self)
        label.setBuddy(self.combo)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 4)
        row.addWidget(label)
        row.addWidget(self.combo)
        row.addWidget(self.position, 1)
        state.benchmark_changed.connect(self._on_benchmark_changed)
        state.result_changed.connect(self._on_result_changed)
        self._on_benchmark_changed(state.benchmark)
        self._on_result_changed(state.result)

    def names(self) -> list:
        """The data sets listed, in order."""
        return [self.combo.itemText(i) for i in range(self.combo.count())]

    def current(self) -> str:
        """The data set shown ("" without a run over several data sets)."""
        return self.combo.currentText() if self.state.benchmark is not None else ""

    def pick(self, name: str) -> None:
        """Show the data set ``name`` (as choosing it in the list does)."""
        self.combo.setCurrentIndex(self.names().index(name))

    def _on_benchmark_changed(self, benchmark) -> None:
        names = list(benchmark.names) if benchmark is not None else []
        if names != self.names():
            with blocked(self.combo):
                self.combo.clear()
                self.combo.addItems(names)
        self._update_visibility()

    def set_wanted(self, wanted: bool) -> None:
        """Whether the view on screen is about one data set (then the picker shows, if
        the run had several)."""
        self._wanted = wanted
        self._update_visibility()

    def _update_visibility(self) -> None:
        self.setVisible(self._wanted and self.combo.count() > 1)

    def _on_result_changed(self, result) -> None:
        benchmark = self.state.benchmark
        if benchmark is None or result is None:
            return
        names = self.names()
        name = str(result.dataset.name)
        if name in names:
            with blocked(self.combo):
                self.combo.setCurrentIndex(names.index(name))
            self.position.setText(
                f"{names.index(name) + 1} of {len(names)} — the views below show "
                f"<b>{escape(name)}</b>; “Across data sets” compares all of them")
            self.combo.setToolTip(plain_tip(f"Showing {name}. Choose whose results the views "
                                            "below show."))

    def _on_picked(self, index: int) -> None:
        if index >= 0 and self.state.benchmark is not None:
            self.state.pick_dataset(self.combo.itemText(index))
