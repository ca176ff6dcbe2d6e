"""The Models tab: model entries of the experiment file, their parameters, the models they make.

Entries are the experiment file's dicts (``state.model_entries``). A field holding a
comma-separated list ("linear, rbf", "0.1, 1, 10") turns the entry into a grid; the
right-hand list shows what the entries expand into, or the engine's error in red.
"""
from __future__ import annotations

import copy
import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import (QAbstractSpinBox, QCheckBox, QComboBox, QFormLayout,
                               QHBoxLayout, QInputDialog, QLineEdit, QListWidget,
                               QMenu, QPushButton, QScrollArea, QSplitter, QToolButton,
                               QVBoxLayout, QWidget)

from engine.evaluation.catalogue import (CATALOGUE, expand_model, expand_models, is_scale_sensitive,
                                         parameter_specs, presets)

from ..help import help_title
from ..model_entry import ModelEntry
from ..note_words import note_words
from ..plain_text import escape, plain_label, rich_label
from .imbalance_options import ImbalanceOptions
from .threshold_options import ThresholdOptions, threshold_words
from .tuning_options import (FoldContext, TuneOptions, editable_entry, fold_context, is_tuned,
                             plain_entry, put_back, setting_count, tuned_entry, tune_words)

NO_ENTRY_HINT = ("No model yet. Press <b>Add</b> to pick a classifier, or choose one of the "
                 "<b>Presets</b> for a ready-made comparison.")


# ---------------------------------------------------------------------- values in fields
def parse_token(token: str):
    """One typed value: true/false, None, a whole number, a number, else text."""
    text = token.strip()
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text.strip("'\"")


#: A number written with a decimal comma (``0,01``, ``-1,5e-3``).
DECIMAL_COMMA = re.compile(r"[+-]?\d*,\d+(?:[eE][+-]?\d+)?")
#: How to type several values, for the fields' tooltips.
LIST_TIP = ("Several values make a grid (one model each): separate them with commas "
            "(0.01, 0.1, 1) or, when you write decimal commas, with semicolons (0,01; 0,1; 1).")


def split_field(text: str) -> list:
    """The pieces of a field: separated by semicolons when it has any (then a comma inside
    a number is a decimal comma: ``0,01; 0,1; 1``), else by commas (``0.01, 0.1, 1``)."""
    if ";" in text:
        return [piece.strip().replace(",", ".") if DECIMAL_COMMA.fullmatch(piece.strip())
                else piece for piece in text.split(";")]
    return text.split(",")


def parse_field(text: str) -> list:
    """The values typed in a field: one, or several (a grid) separated by commas, or by
    semicolons when the numbers have decimal commas (:func:`split_field`)."""
    return [parse_token(t) for t in split_field(text) if t.strip()]


def field_text(values) -> str:
    return ", ".join("None" if v is None else str(v) for v in values)


def grid_dict(entry: dict):
    """The entry's grid as one dict, or None when it is a list of several dicts."""
    grid = ModelEntry.of(entry).grid
    if not grid:
        return {}
    if isinstance(grid, dict):
        return grid
    if isinstance(grid, list) and len(grid) == 1 and isinstance(grid[0], dict):
        return grid[0]
    return None


def grid_params(entry: dict) -> set:
    return ModelEntry.of(entry).grid_params


def set_param(entry: dict, name: str, values: list, default) -> dict:
    """A copy of ``entry`` with parameter ``name`` set to one value or a grid of values."""
    entry = copy.deepcopy(entry)
    params = entry.setdefault("params", {})
    grid = grid_dict(entry)
    if grid is not None:
        grid = dict(grid)
        grid.pop(name, None)
    params.pop(name, None)
    if len(values) > 1 and grid is not None:
        grid[name] = list(values)
    elif len(values) == 1 and values[0] != default:
        params[name] = values[0]
    if grid is not None:
        if grid:
            entry["grid"] = grid
        else:
            entry.pop("grid", None)
    return entry


def entry_label(entry: dict) -> str:
    model = ModelEntry.of(entry)
    name = model.label
    try:
        count = len(expand_model(entry))
    except ValueError:
        return f"{name}  ⚠"
    if is_tuned(entry):
        try:
            tuned = f"tuned over {setting_count(entry['tune']['grid'])} settings"
        except (KeyError, TypeError, ValueError):
            tuned = "tuned"
        return f"{name}  ({count} models, {tuned})" if model.grid else f"{name}  ({tuned})"
    return f"{name}  ({count} models)" if model.grid else name


def entries_problem(entries: list) -> str:
    """What is wrong with the model entries, naming the model rather than its place in the
    experiment file (``model 'rbf_0': the 'C' parameter of SVC must be … got 0``, not
    ``models[0].grid.C: …``); "" when nothing is."""
    for entry in entries:
        problem = _entry_problem(entry)
        if problem:
            return problem
    try:
        expand_models(entries)
    except ValueError as exc:
        return note_words(exc)             # too_many_models: worded without "models: "
    return ""


def _entry_problem(entry: dict) -> str:
    """What is wrong with one model entry, naming the model; "" when nothing is."""
    try:
        expand_model(entry)
    except ValueError as exc:
        text = str(exc)
        name = ModelEntry.of(entry).label
        return text if text.startswith("model ") else f"model {name!r}: {text}"
    return ""


def unique_name(base: str, entries: list) -> str:
    taken = {e.get("name") or e.get("estimator") for e in entries}
    if base not in taken:
        return base
    n = 2
    while f"{base}_{n}" in taken:
        n += 1
    return f"{base}_{n}"


def rich_tip(text: str) -> str:
    """A tooltip Qt wraps at a readable width (rich text), line breaks kept."""
    return "<qt>" + escape(text).replace("\n", "<br>") + "</qt>"


def model_line(spec) -> str:
    """One model in words: ``knn: KNeighborsClassifier; features scaled; n_neighbors = 7``
    (the parameters changed from scikit-learn's defaults, or "default settings")."""
    changed = ", ".join(f"{k} = {v}" for k, v in spec.params.items()) or "default settings"
    parts = [spec.estimator] if spec.estimator != spec.name else []
    parts += ["features scaled"] if spec.scale else []
    parts += [f"training folds resampled ({spec.resample})"] if spec.resample else []
    inside = [tune_words(spec.tune)] if spec.tune else []
    inside += [threshold_words(spec.threshold)] if spec.threshold else []
    return f"{spec.name}:  " + "; ".join(parts + [changed] + inside)


# ---------------------------------------------------------------------- editors
class NumberListBox(QAbstractSpinBox):
    """A spin box for a number that also accepts a comma-separated list (a grid)."""

    committed = Signal()

    def __init__(self, kind: str, parent=None):
        super().__init__(parent)
        self.kind = kind
        self.setCorrectionMode(QAbstractSpinBox.CorrectToNearestValue)
        self.setKeyboardTracking(False)
        self.editingFinished.connect(self.committed)
        self._parsed = (None, [])        # (text, its values): Qt asks stepEnabled often


    def validate(self, text: str, pos: int):
        tokens = [t.strip() for t in split_field(text)]
        if all(t and isinstance(parse_token(t), (int, float, type(None))) for t in tokens):
            return QValidator.Acceptable
        return QValidator.Intermediate

    def fixup(self, text: str) -> str:
        joiner = "; " if ";" in text else ", "
        return joiner.join(t.strip() for t in text.split(joiner.strip()) if t.strip())

    def values(self) -> list:
        """The box's values, parsed once per text (a fresh list)."""
        text = self.text()
        if self._parsed[0] != text:
            self._parsed = (text, parse_field(text))
        return list(self._parsed[1])

    def setText(self, text: str) -> None:
        self.lineEdit().setText(text)

    def stepEnabled(self):
        values = self.values()
        one_number = len(values) == 1 and isinstance(values[0], (int, float))
        return (QAbstractSpinBox.StepUpEnabled | QAbstractSpinBox.StepDownEnabled) if one_number \
            else QAbstractSpinBox.StepNone

    def stepBy(self, steps: int) -> None:
        value = self.values()[0]
        if self.kind == "int" or isinstance(value, int) and not isinstance(value, bool):
            self.setText(str(int(value) + steps))
        else:
            step = 10 ** _magnitude(value) if value else 0.1
            self.setText(f"{value + steps * step:.6g}")
        self.committed.emit()


def _magnitude(value: float) -> int:
    import math

    return int(math.floor(math.log10(abs(value))))


def make_editor(spec, parent) -> QWidget:
    """A typed editor for one ParamSpec; each has ``committed`` and reads back via ``values``."""
    if spec.kind == "bool":
        editor = QCheckBox(parent)
        editor.committed = editor.toggled
        editor.values = lambda: [editor.isChecked()]
        editor.show_values = lambda values: editor.setChecked(bool(values[0]))
        return editor
    if spec.kind in ("int", "float"):
        editor = NumberListBox(spec.kind, parent)
        editor.show_values = lambda values: editor.setText(field_text(values))
        return editor
    if spec.kind == "str":
        editor = QComboBox(parent)
        editor.setEditable(True)
        editor.addItems(list(spec.choices) or [str(spec.default)])
        editor.setInsertPolicy(QComboBox.NoInsert)
        editor.committed = editor.lineEdit().editingFinished
        editor.activated.connect(lambda _: editor.lineEdit().editingFinished.emit())
        editor.values = lambda: parse_field(editor.currentText())
        editor.show_values = lambda values: editor.setCurrentText(field_text(values))
        return editor
    editor = QLineEdit(parent)
    editor.setPlaceholderText(f"{spec.default!r} (default)")
    editor.committed = editor.editingFinished
    editor.values = lambda: parse_field(editor.text())
    editor.show_values = lambda values: editor.setText(
        "" if values == [spec.default] else field_text(values))
    return editor


def locked_values(entry: dict, name: str) -> list:
    """Every value a parameter takes across a grid of several parameter sets."""
    values = []
    for grid in ModelEntry.of(entry).grids:
        for value in grid.get(name, []):
            if value not in values:
                values.append(value)
    return values


def current_values(entry: dict, spec) -> list:
    grid = grid_dict(entry) or {}
    if spec.name in grid:
        return list(grid[spec.name])
    return [entry.get("params", {}).get(spec.name, spec.default)]


def _grown_form(column: QVBoxLayout) -> QFormLayout:
    """A form whose fields take the width there is, added to ``column``."""
    form = QFormLayout()
    form.setFieldGrowthPolicy(QFormLayout.AllNonFixedFieldsGrow)
    column.addLayout(form)
    return form


class ParameterEditor(QWidget):
    """The form of one entry's parameters; ``changed`` carries the edited entry.

    ``context`` (:class:`~gui.tabs.tuning_options.FoldContext`) tells the tuning and
    threshold options about the data; the parameter fields show a tuned entry's grid as
    a plain one (:func:`~gui.tabs.tuning_options.editable_entry`).
    """

    changed = Signal(dict)

    def __init__(self, entry: dict, parent=None, context: FoldContext = FoldContext()):
        super().__init__(parent)
        self.entry = copy.deepcopy(entry)
        self.context = context
        shown = editable_entry(entry)
        # a form, the fold options' boxes, the parameters' form: a box as a form row got
        # too little height for its wrapped text (QFormLayout's height for width)
        column = QVBoxLayout(self)
        form = _grown_form(column)
        self.scale_check = QCheckBox("Scale features (standard scaler before the model)", self)
        model = ModelEntry.of(entry)
        self.scale_check.setChecked(model.scale)
        self.scale_check.setToolTip(rich_tip(
            f"{model.estimator} depends on the units of the features (distances, penalties "
            "or gradient steps): without scaling, a column measured in large numbers dominates "
            "and the comparison is unfair to this model. Keep it on unless every column "
            "shares one unit." if is_scale_sensitive(model.estimator) else
            f"{model.estimator} gives the same results whatever the units of the features; "
            "scaling does no harm."))
        self.scale_check.toggled.connect(self._on_scale)
        form.addRow(self.scale_check)
        locked = grid_params(shown) if grid_dict(shown) is None else set()
        self.imbalance = ImbalanceOptions(shown, locked, form, self)
        self.imbalance.edited.connect(self._on_imbalance)
        self.tuning = TuneOptions(entry, context, column, self)
        self.tuning.edited.connect(self._on_tuning)
        self.threshold = ThresholdOptions(entry, context, column, self)
        self.threshold.edited.connect(self._on_threshold)
        form = _grown_form(column)
        column.addStretch(1)
        self.editors = {}
        for spec in parameter_specs(model.estimator):
            editor = make_editor(spec, self)
            editor.show_values(current_values(shown, spec))
            editor.setToolTip(rich_tip(f"{spec.doc or spec.name}\n\n{LIST_TIP}"))
            editor.committed.connect(lambda *_, s=spec: self._on_edited(s))
            label = rich_label(spec.name, self)
            label.setToolTip(rich_tip(f"{spec.doc}\nDefault: {spec.default!r}"))
            if spec.name in model.params or spec.name in grid_params(shown):
                label.setText(f"<b>{escape(spec.name)}</b>")
            if spec.name in locked:
                editor.show_values(locked_values(shown, spec.name))
                editor.setEnabled(False)
                editor.setToolTip("Set by this entry's grid of several parameter sets "
                                  "(see the models on the right).")
            self.editors[spec.name] = editor
            form.addRow(label, editor)

    def _on_scale(self, checked: bool) -> None:
        self.entry = copy.deepcopy(self.entry)
        if checked:
            self.entry["scale"] = True
        else:
            self.entry.pop("scale", None)
        self.changed.emit(self.entry)

    def set_context(self, context: FoldContext) -> None:
        """New data or settings: the tuning and threshold options show what they allow."""
        self.context = context
        self.tuning.show_entry(self.entry, context)
        self.threshold.show_entry(self.entry, context)

    def _set_values(self, name: str, values: list, default) -> None:
        """Set a parameter through the plain view of the entry (kept tuned if it was)."""
        shown = set_param(editable_entry(self.entry), name, values, default)
        self.entry = put_back(shown, self.entry)

    def _on_edited(self, spec) -> None:
        values = self.editors[spec.name].values() or [spec.default]
        if values == current_values(editable_entry(self.entry), spec):
            return
        self._set_values(spec.name, values, spec.default)
        self.imbalance.show_entry(self.entry)
        self.tuning.show_entry(self.entry, self.context)
        self.changed.emit(self.entry)

    def _on_tuning(self, settings) -> None:
        """The tune check and its settings: the grid moves into ``"tune"`` and back."""
        self.entry = tuned_entry(self.entry, settings) if settings else plain_entry(self.entry)
        self.changed.emit(self.entry)

    def _on_threshold(self, block) -> None:
        self.entry = copy.deepcopy(self.entry)
        self.entry.pop("threshold", None)
        if block:
            self.entry["threshold"] = block
        self.changed.emit(self.entry)

    def _on_imbalance(self, key: str, value) -> None:
        """The balance check sets ``class_weight``, the resampling choice ``"resample"``."""
        if key == "class_weight":
            self._set_values(key, [value], None)
            self.editors[key].show_values([value])
        else:
            self.entry = copy.deepcopy(self.entry)
            self.entry.pop("resample", None)
            if value is not None:
                self.entry["resample"] = value
        self.changed.emit(self.entry)


# ---------------------------------------------------------------------- the tab
class ModelsTab(QWidget):
    """Entries on the left, the selected entry's parameters in the middle, models on the right."""

    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        self._editor = None
        self._editor_due = False      # the selected entry's editor is built when first needed
        self._editing = False
        splitter = QSplitter(Qt.Horizontal, self)
        splitter.addWidget(self._build_entry_list())
        splitter.addWidget(self._build_editor_area())
        splitter.addWidget(self._build_expansion())
        splitter.setSizes([290, 560, 430])
        QVBoxLayout(self).addWidget(splitter)
        state.models_changed.connect(self._on_models_changed)
        for signal in (state.datasets_changed, state.dataset_changed, state.settings_changed):
            signal.connect(self._on_context_changed)
        self._on_models_changed(state.model_entries)

    def _build_entry_list(self) -> QWidget:
        panel = QWidget(self)
        layout = QVBoxLayout(panel)
        layout.setContentsMargins(0, 0, 6, 0)
        layout.addLayout(help_title("Model entries", "models", self))
        self.entry_list = QListWidget(panel)
        self.entry_list.currentRowChanged.connect(self._on_entry_selected)
        self.entry_list.itemDoubleClicked.connect(lambda _: self.ask_rename())
        layout.addWidget(self.entry_list, 1)
        self.add_button = QToolButton(panel)
        self.add_button.setText("Add")
        self.add_button.setPopupMode(QToolButton.InstantPopup)
        add_menu = QMenu(self.add_button)
        for name, (_, description) in CATALOGUE.items():
            action = add_menu.addAction(f"{name} — {description}")
            action.triggered.connect(lambda _=False, n=name: self.add_model(n))
        self.add_button.setMenu(add_menu)
        self.presets_button = QToolButton(panel)
        self.presets_button.setText("Presets")
        self.presets_button.setPopupMode(QToolButton.InstantPopup)
        presets_menu = QMenu(self.presets_button)
        for name in presets():
            presets_menu.addAction(name).triggered.connect(
                lambda _=False, n=name: self.apply_preset(n))
        self.presets_button.setMenu(presets_menu)
        self.duplicate_button = QPushButton("Duplicate", panel)
        self.duplicate_button.clicked.connect(self.duplicate_selected)
        self.rename_button = QPushButton("Rename…", panel)
        self.rename_button.clicked.connect(self.ask_rename)
        self.remove_button = QPushButton("Remove", panel)
        self.remove_button.clicked.connect(self.remove_selected)
        for row in ((self.add_button, self.presets_button),
                    (self.duplicate_button, self.rename_button, self.remove_button)):
            line = QHBoxLayout()
            for button in row:
                button.setSizePolicy(self.remove_button.sizePolicy())
                line.addWidget(button)
            layout.addLayout(line)
        return panel

    def _build_editor_area(self) -> QWidget:
        panel = QWidget(self)
        layout = QVBoxLayout(panel)
        layout.setContentsMargins(6, 0, 6, 0)
        self.editor_title = rich_label("", panel)
        self.editor_title.setWordWrap(True)
        layout.addWidget(self.editor_title)
        grid_hint = rich_label("Type several values separated by commas (e.g. <i>linear, "
                               "rbf</i> or <i>0.1, 1, 10</i>) to compare one model per value, "
                               "or tick <i>Tune inside each fold</i> to let each training fold "
                               "choose among them. Bold: changed from the default. Hover a "
                               "name for its meaning.", panel)
        grid_hint.setWordWrap(True)
        grid_hint.setStyleSheet("color: #555;")
        layout.addWidget(grid_hint)
        self.scroll = QScrollArea(panel)
        self.scroll.setWidgetResizable(True)
        # always there: a scroll bar that appears after the wrapped texts were measured
        # narrows them, and their last line was cut off
        self.scroll.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOn)
        layout.addWidget(self.scroll, 1)
        return panel

    def _build_expansion(self) -> QWidget:
        panel = QWidget(self)
        layout = QVBoxLayout(panel)
        layout.setContentsMargins(6, 0, 0, 0)
        self.expansion_title = rich_label("<b>Models to compare</b>", panel)
        layout.addWidget(self.expansion_title)
        self.error_label = plain_label("", panel)
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #b00020; font-weight: bold;")
        self.error_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        layout.addWidget(self.error_label)
        self.expanded_list = QListWidget(panel)
        self.expanded_list.setWordWrap(True)
        layout.addWidget(self.expanded_list, 1)
        return panel

    # ------------------------------------------------------------------ actions
    def selected_row(self) -> int:
        return self.entry_list.currentRow()

    def _entries(self) -> list:
        return copy.deepcopy(self.state.model_entries)

    def _commit(self, entries: list, select: int) -> None:
        self.state.set_model_entries(entries)
        self.entry_list.setCurrentRow(min(select, len(entries) - 1))
        self._show_editor()

    def add_model(self, estimator: str) -> None:
        entries = self._entries()
        entry = {"name": unique_name(estimator, entries), "estimator": estimator, "params": {}}
        if is_scale_sensitive(estimator):      # a fair default: see engine.evaluation.catalogue
            entry["scale"] = True
        entries.append(entry)
        self._commit(entries, len(entries) - 1)

    def duplicate_selected(self) -> None:
        row, entries = self.selected_row(), self._entries()
        if row < 0:
            return
        copy_ = copy.deepcopy(entries[row])
        base = copy_.get("name") or copy_["estimator"]
        copy_["name"] = unique_name(f"{base}_copy", entries)
        entries.insert(row + 1, copy_)
        self._commit(entries, row + 1)

    def remove_selected(self) -> None:
        row, entries = self.selected_row(), self._entries()
        if row < 0:
            return
        del entries[row]
        self._commit(entries, max(row - 1, 0))

    def ask_rename(self) -> None:
        row = self.selected_row()
        if row < 0:
            return
        name, ok = QInputDialog.getText(self, "Rename the model", "Name (empty: no name; grid "
                                        "models are then named by their values):",
                                        text=self.state.models[row].name)
        if ok:
            self.rename_selected(name)

    def rename_selected(self, name: str) -> None:
        row, entries = self.selected_row(), self._entries()
        if row < 0:
            return
        if name.strip():
            entries[row]["name"] = name.strip()
        else:
            entries[row].pop("name", None)
        self._commit(entries, row)

    def apply_preset(self, name: str) -> None:
        self._commit(copy.deepcopy(presets()[name]), 0)

    def _on_entry_edited(self, entry: dict) -> None:
        row, entries = self.selected_row(), self._entries()
        entries[row] = entry
        self._editing = True
        try:
            self.state.set_model_entries(entries)
        finally:
            self._editing = False

    # ------------------------------------------------------------------ views
    def _on_models_changed(self, entries: list) -> None:
        row = self.selected_row()
        self.entry_list.blockSignals(True)
        self.entry_list.clear()
        self.entry_list.addItems([entry_label(e) for e in entries])
        self.entry_list.setCurrentRow(min(max(row, 0), len(entries) - 1))
        self.entry_list.blockSignals(False)
        for button in (self.duplicate_button, self.rename_button, self.remove_button):
            button.setEnabled(bool(entries))
        self._show_expansion(entries)
        if not self._editing:
            self._show_editor()

    def _on_context_changed(self, *_args) -> None:
        if self._editor is not None and not self._editor_due:
            self._editor.set_context(fold_context(self.state))

    def _on_entry_selected(self, _row: int) -> None:
        self._show_editor()

    @property
    def editor_built(self) -> bool:
        """True once the selected entry's editor exists (it is built when first shown or
        asked for, not when an experiment is applied)."""
        return self._editor is not None

    @property
    def editor(self) -> ParameterEditor | None:
        """The selected entry's editor (None when no entry is selected), built now if due."""
        if self._editor_due:
            self._build_editor()
        return self._editor

    def showEvent(self, event) -> None:
        if self._editor_due:
            self._build_editor()
        super().showEvent(event)

    def _show_editor(self) -> None:
        """Show the selected entry's title now and its editor when the tab is on screen,
        else when it is first shown or asked for: applying an experiment while another
        tab is on screen builds no form of a dozen fields that nobody sees (~60 ms)."""
        row, models = self.selected_row(), self.state.models
        if 0 <= row < len(models):
            estimator = models[row].estimator
            description = CATALOGUE.get(estimator, ("", "unknown estimator"))[1]
            self.editor_title.setText(f"<b>Parameters of {escape(models[row].name or estimator)}"
                                      f"</b> — {estimator}: {description}")
        else:
            self.editor_title.setText("<b>Parameters</b>")
        self._editor_due = True
        if self.isVisible():
            self._build_editor()

    def _build_editor(self) -> None:
        self._editor_due = False
        row, entries = self.selected_row(), self.state.model_entries
        if not 0 <= row < len(entries):
            self._editor = None
            hint = rich_label(NO_ENTRY_HINT, self)
            hint.setWordWrap(True)
            hint.setAlignment(Qt.AlignCenter)
            hint.setStyleSheet("color: #666; font-size: 11pt;")
            self.scroll.setWidget(hint)
            return
        self._editor = ParameterEditor(entries[row], self, fold_context(self.state))
        self._editor.changed.connect(self._on_entry_edited)
        self.scroll.setWidget(self._editor)

    def _show_expansion(self, entries: list) -> None:
        self.expanded_list.clear()
        try:
            specs = expand_models(entries)
        except ValueError:
            self.error_label.setText(f"⚠ {entries_problem(entries)}")
            self.error_label.setVisible(True)
            self.expansion_title.setText("<b>Models to compare</b>")
            return
        self.error_label.setVisible(False)
        self.expansion_title.setText(f"<b>Models to compare: {len(specs)}</b>")
        self.expanded_list.addItems([model_line(s) for s in specs])
