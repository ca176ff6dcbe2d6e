"""The Models tab's "Tune inside each fold": a model entry's parameter lists searched inside
every outer training fold (the entry's ``"tune"`` block, :mod:`engine.evaluation.tuning`) instead of
compared as separate models (its ``"grid"``).

The entry functions here are plain dict work (no Qt): :func:`tuned_entry` moves the grid
into ``tune.grid``, :func:`plain_entry` moves it back, and :func:`editable_entry` /
:func:`put_back` let the parameter fields edit a tuned grid as if it were a plain one.
:class:`TuneOptions` adds the check and its settings to an entry's form.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFormLayout, QGroupBox, QHBoxLayout,
                               QSpinBox, QVBoxLayout, QWidget)

from engine.evaluation.tuning import INNER_SPLITS
from engine.evaluation.verdict import metric_label
from ..help import help_button
from ..metric_choice import class_counts, metrics_for_targets, ordered_metrics

from ..model_entry import ModelEntry
from ..plain_text import escape, plain_label

#: Inner folds the spin boxes offer.
INNER_RANGE = (2, 20)

TUNE_TEXT = ("One model whose settings are chosen inside each training fold, by inner folds "
             "of that fold alone. Choosing the best of several models on the very folds that "
             "score them flatters the winner; chosen this way, the test fold never helps choose.")
TUNE_TIP = ("Without this, every value in a list makes a model of its own and the comparison "
            "shows them all. Picking the best of them afterwards, by the same folds that "
            "scored them, is a hidden choice that those folds reward: the winner's score is "
            "optimistic, more so the more settings were tried.\n\n"
            "Ticked, the lists become ONE model. In every outer fold, a grid search (scikit-"
            "learn's GridSearchCV) splits the training part into inner folds, scores every "
            "setting on them, refits the best on the whole training part, and only then "
            "scores it on the outer test fold. The outer score is therefore the honest score "
            "of 'this model, tuned the way I tune it'. The Results tab's Tuning view shows "
            "which setting each fold chose.")
NO_GRID_TIP = ("Type several values in one of the parameter fields below (such as "
               "0.1, 1, 10) to get a list of settings to tune.")
OPTIMISM_TIP = ("Also scores every setting as a plain model on the same outer folds and "
                "reports how much higher the best of them looks than the tuned model: the "
                "optimism you would report by picking the best on the folds that score it. "
                "Costs one extra fit per setting and fold.")
SCORING_TIP = ("The score the inner folds choose the setting by. The primary metric (the "
               "first score of the Cross-validation tab) unless you pick another.")


def rich(text: str) -> str:
    """A tooltip Qt wraps at a readable width, paragraphs kept."""
    return "<qt>" + escape(text).replace("\n", "<br>") + "</qt>"


def wrapping_check(text: str, tip: str, parent: QWidget) -> tuple:
    """``(check, row)``: a check box whose long text wraps (a QCheckBox never wraps its own
    text), beside its text in ``row`` (add ``row`` as a whole form row); clicking the
    text toggles the check."""
    row = QWidget(parent)
    check = QCheckBox(row)
    label = plain_label(text, row)
    label.setWordWrap(True)
    label.setBuddy(check)
    label.mousePressEvent = lambda _event: check.toggle() if check.isEnabled() else None
    for widget in (check, label):
        widget.setToolTip(rich(tip))
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(check, 0, Qt.AlignVCenter)
    layout.addWidget(label, 1, Qt.AlignVCenter)
    return check, row


def with_help(widget: QWidget, topic: str) -> QWidget:
    """``widget`` in a row with the guide's "?" button for ``topic`` at its right (``widget``
    may be a row already: the button is added to its layout)."""
    row = widget if widget.layout() is not None else QWidget(widget.parentWidget())
    if row is not widget:
        widget.setParent(row)
        QHBoxLayout(row).setContentsMargins(0, 0, 0, 0)
        row.layout().addWidget(widget, 1)
    row.layout().addWidget(help_button(topic, row), 0, Qt.AlignVCenter)
    return row


def narrow_combo(parent: QWidget) -> QComboBox:
    """A combo box as narrow as its row allows: long choices ("ROC AUC, one vs one,
    weighted by class size") must not widen the form beyond its scroll area."""
    combo = QComboBox(parent)
    combo.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(14)
    return combo


@dataclass(frozen=True)
class FoldContext:
    """What the fold options need to know of the data and the settings.

    Attributes
    ----------
    class_counts : tuple
        The distinct class counts of the loaded data sets (``()``: no data).
    primary_metric : str
        The score the run ranks models by (the inner search's default).
    metrics : tuple
        The metric names offered for the inner search.
    positive : str
        The positive class of two-class data ("" when unknown).
    """

    class_counts: tuple = ()
    primary_metric: str = "roc_auc"
    metrics: tuple = ()
    positive: str = ""


def fold_context(state) -> FoldContext:
    """The :class:`FoldContext` of an :class:`~gui.state.AppState`."""
    datasets = list(state.datasets)
    counts = tuple(sorted({len(d.classes) for d in datasets}))
    chosen = metrics_for_targets(state.metrics, class_counts(datasets))
    dataset, positive = state.dataset, ""
    if dataset is not None and dataset.pos_label is not None:
        positive = str(dataset.classes[dataset.pos_label])
    return FoldContext(counts, chosen[0], tuple(ordered_metrics(class_counts(datasets))),
                       positive)


# ---------------------------------------------------------------------- entries (no Qt)
def _merged(outer, inner):
    """Two grids as one: dicts merged; a list of dicts each merged with a dict."""
    if not outer:
        return copy.deepcopy(inner)
    if not inner:
        return copy.deepcopy(outer)
    outers = outer if isinstance(outer, list) else [outer]
    inners = inner if isinstance(inner, list) else [inner]
    merged = [{**o, **i} for o in outers for i in inners]
    return merged[0] if len(merged) == 1 else merged


def is_tuned(entry: dict) -> bool:
    """True when the entry has a ``"tune"`` block."""
    return ModelEntry.of(entry).is_tuned


def tune_settings(entry: dict) -> dict:
    """``inner_splits``, ``scoring`` (None: the primary metric) and ``optimism`` of the
    entry's ``"tune"`` block, defaults filled in (the defaults when it has none)."""
    tune = ModelEntry.of(entry).tune or {}
    return {"inner_splits": tune.get("inner_splits", INNER_SPLITS),
            "scoring": tune.get("scoring"), "optimism": tune.get("optimism", True)}


def tuned_entry(entry: dict, settings: dict) -> dict:
    """A copy of ``entry`` whose grid is searched inside each fold.

    Parameters
    ----------
    entry : dict
        A model entry with a ``"grid"`` (or already tuned: its settings are replaced).
    settings : dict
        ``inner_splits``, ``scoring`` (None: omitted, the primary metric) and ``optimism``
        (True: omitted, the engine's default).

    Returns
    -------
    dict
        The entry with ``"tune": {"grid": ..., "inner_splits": n[, "scoring": m]
        [, "optimism": false]}`` and no ``"grid"`` (an entry that had both keeps its
        ``"grid"`` of separate models).
    """
    entry = copy.deepcopy(entry)
    grid = entry["tune"]["grid"] if is_tuned(entry) else entry.pop("grid")
    tune = {"grid": grid, "inner_splits": int(settings["inner_splits"])}
    if settings.get("scoring"):
        tune["scoring"] = settings["scoring"]
    if not settings.get("optimism", True):
        tune["optimism"] = False
    entry["tune"] = tune
    return entry


def plain_entry(entry: dict) -> dict:
    """A copy of ``entry`` without ``"tune"``: its tuned grid back in ``"grid"`` (one model
    per combination again)."""
    entry = copy.deepcopy(entry)
    tune = entry.pop("tune", None)
    if tune:
        grid = _merged(ModelEntry.of(entry).grid, tune.get("grid"))
        if grid:
            entry["grid"] = grid
    return entry


def editable_entry(entry: dict) -> dict:
    """What the parameter fields show: the entry as a plain grid (:func:`plain_entry`)."""
    return plain_entry(entry)


def _keys(grid) -> set:
    grids = grid if isinstance(grid, list) else [grid] if grid else []
    return {name for g in grids if isinstance(g, dict) for name in g}


def put_back(edited: dict, entry: dict) -> dict:
    """The entry after its :func:`editable_entry` was edited as ``edited``.

    A tuned entry stays tuned: every list goes into ``tune.grid`` except the parameters of
    the entry's own ``"grid"`` (separate models, from a hand-written file). When no list is
    left, the entry is a plain model again (no ``"tune"``).
    """
    if not is_tuned(entry):
        return edited
    grid = edited.get("grid")
    if isinstance(grid, list):                # several parameter sets: fields are locked
        out = copy.deepcopy(edited)
        out.pop("grid")
        for key in ("grid", "tune"):
            if key in entry:
                out[key] = copy.deepcopy(entry[key])
        return out
    outer_keys = _keys(ModelEntry.of(entry).grid)
    grid = grid or {}
    outer = {k: v for k, v in grid.items() if k in outer_keys}
    inner = {k: v for k, v in grid.items() if k not in outer_keys}
    out = copy.deepcopy(edited)
    out.pop("grid", None)
    if outer:
        out["grid"] = outer
    if inner:
        out["tune"] = {**copy.deepcopy(entry["tune"]), "grid": inner}
    return out


def setting_count(grid) -> int:
    """How many settings (combinations) a grid has."""
    from sklearn.model_selection import ParameterGrid

    return len(ParameterGrid(grid))


def tune_words(tune: dict) -> str:
    """A tuned model's search in words, for the list of models: ``tuned inside each fold
    over 6 settings of kernel, C (5 inner folds, by ROC AUC)``."""
    by = metric_label(tune["scoring"]) if tune.get("scoring") else "the primary metric"
    return (f"tuned inside each fold over {setting_count(tune['grid'])} settings of "
            f"{', '.join(sorted(_keys(tune['grid'])))} ({tune.get('inner_splits', INNER_SPLITS)} "
            f"inner folds, by {by})")


# ---------------------------------------------------------------------- the controls
class TuneOptions(QObject):
    """The "Tune inside each fold" box of one entry's form.

    ``edited`` carries the new settings (see :func:`tuned_entry`), or None when the check
    is cleared.
    """

    edited = Signal(object)

    def __init__(self, entry: dict, context: FoldContext, layout: QVBoxLayout,
                 parent: QWidget):
        super().__init__(parent)
        self.box = QGroupBox("Tuning", parent)
        self.check = QCheckBox("Tune inside each fold", self.box)
        self.check.setToolTip(rich(TUNE_TIP))
        self.check.toggled.connect(self._emit)
        explanation = plain_label(TUNE_TEXT, self.box)
        explanation.setWordWrap(True)
        explanation.setStyleSheet("color: #555;")
        self.details = QWidget(self.box)
        self.inner_folds = QSpinBox(self.details)
        self.inner_folds.setRange(*INNER_RANGE)
        self.inner_folds.setKeyboardTracking(False)      # one change per number typed
        self.inner_folds.setToolTip("How many folds each training part is split into to "
                                    "choose the setting (2 to 20; 5 is usual).")
        self.scoring = narrow_combo(self.details)
        self.scoring.setToolTip(rich(SCORING_TIP))
        self.optimism, optimism_words = wrapping_check(
            "Also report how optimistic picking the best on the same folds would be",
            OPTIMISM_TIP, self.details)
        fields = QFormLayout()
        fields.addRow("Inner folds", self.inner_folds)
        fields.addRow("Choose by", self.scoring)
        details = QVBoxLayout(self.details)     # box layouts measure wrapped text right
        details.setContentsMargins(18, 0, 0, 0)
        details.addLayout(fields)
        details.addWidget(optimism_words)
        self.inner_folds.valueChanged.connect(self._emit)
        self.scoring.activated.connect(self._emit)
        self.optimism.toggled.connect(self._emit)
        inside = QVBoxLayout(self.box)
        for widget in (with_help(self.check, "models#tuning"), explanation, self.details):
            inside.addWidget(widget)
        layout.addWidget(self.box)
        self.context = context
        self.show_entry(entry, context)

    def show_entry(self, entry: dict, context: FoldContext) -> None:
        """Show the entry's tuning without emitting."""
        self.context = context
        settings = tune_settings(entry)
        has_lists = bool(_keys(editable_entry(entry).get("grid")))
        widgets = (self.check, self.inner_folds, self.scoring, self.optimism)
        for widget in widgets:
            widget.blockSignals(True)
        self.check.setChecked(is_tuned(entry))
        self.check.setEnabled(has_lists or is_tuned(entry))
        self.check.setToolTip(rich(TUNE_TIP if has_lists else NO_GRID_TIP + "\n\n" + TUNE_TIP))
        self.inner_folds.setValue(settings["inner_splits"])
        self._fill_scoring(settings["scoring"], context)
        self.optimism.setChecked(settings["optimism"])
        for widget in widgets:
            widget.blockSignals(False)
        self.details.setVisible(is_tuned(entry))

    def _fill_scoring(self, scoring, context: FoldContext) -> None:
        self.scoring.clear()
        self.scoring.addItem(f"the primary metric (now {metric_label(context.primary_metric)})",
                             None)
        names = list(context.metrics)
        if scoring and scoring not in names:
            names.append(scoring)
        for name in names:
            self.scoring.addItem(f"{metric_label(name)} ({name})", name)
        self.scoring.setCurrentIndex(max(self.scoring.findData(scoring), 0))

    def settings(self) -> dict:
        """The settings shown: ``inner_splits``, ``scoring`` and ``optimism``."""
        return {"inner_splits": self.inner_folds.value(),
                "scoring": self.scoring.currentData(), "optimism": self.optimism.isChecked()}

    def _emit(self, *_args) -> None:
        self.details.setVisible(self.check.isChecked())
        self.edited.emit(self.settings() if self.check.isChecked() else None)
