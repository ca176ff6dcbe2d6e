"""The ALOOCV view: which C (regularization) should a logistic regression use?

Approximate leave-one-out (ALO) estimates, from a single fit per C, how well the model
predicts each row it did not see. The view traces it over a log-spaced range of C
through the run service (``engine.run_service.check_aloocv``, the budget's answer, then
``run_job`` in a child process), optionally beside exact leave-one-out, marks the best C,
explains the engine's notes in plain words, exports the tables and can put the best C
into the model's settings.
"""
from __future__ import annotations

import copy
import math
from dataclasses import replace
from typing import Optional

import numpy as np
import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QFrame, QPushButton, QSizePolicy, QSplitter, QVBoxLayout, QWidget)

from engine import run_service
from engine.evaluation.aloocv import AloocvResult, aloocv_eligibility
from engine.evaluation.catalogue import expand_model
from engine.foundation.columns import MODEL
from engine.evaluation.experiment import AloocvSettings
from engine.foundation.notes import note_code, note_fields

from ..jobs import Job, JobSlot
from ..jobs_budget import budget_allows, estimate_job, needs_estimate, show_failure
from ..model_entry import ModelEntry
from ..plain_text import escape
from ..plots.aloocv_plot import AloocvPlot
from ..state import AppState
from ..table_panel import TablePanel
from .aloocv_bar import AloocvBar
from .result_view import ResultView
from .widgets import blocked, text_label

NO_DATA = "Load a data set in the Data tab first: ALO is computed on its rows."
NO_MODEL = ("<p><b>No model here can use ALO.</b></p><p>Approximate leave-one-out works for "
            "logistic regression with the ridge (L2) penalty. Add a <b>LogisticRegression</b> "
            "model in the Models tab (ticking “scale” is recommended), then come back.</p>")
INTRO = ("<b>Which C should the logistic regression use?</b> C sets how strongly the model is "
         "held back: small C = strong regularization (a simpler model), large C = weak. "
         "Approximate leave-one-out (ALO) scores each C by how well the model would predict "
         "every row if that row had been left out of training, from one fit per C. "
         "Higher is better.<br><br>Press <b>Compute ALO curve</b>. "
         "<b>Add exact LOO</b> also refits the model without each row in turn, to check ALO "
         "(slower).")
WARN_STYLE = "background: #fff4d6; border: 1px solid #e6c66e; color: #5a4300;"
INFO_STYLE = "background: #eef3fa; border: 1px solid #c5d5ea; color: #223;"


# ---------------------------------------------------------------------- plain words
def optimum_notes(aloocv: Optional[AloocvResult], model: str) -> tuple:
    """The notes of ``model``'s ALO optimum (:class:`engine.evaluation.aloocv.AloOptimum` ``notes``,
    carried by the result's ``alo_optimum`` note); empty when there is nothing to say."""
    for note in getattr(aloocv, "notes", ()):
        fields = note_fields(note)
        if note_code(note) == "alo_optimum" and fields.get("model") == model:
            return tuple(fields.get("notes", ()))
    return ()


def grouped_rows_message(aloocv: Optional[AloocvResult], model: str) -> list:
    """The engine's ``alo_grouped_rows`` sentence for ``model`` (the data set has groups,
    and ALO leaves out single rows), as a list of at most one sentence."""
    return [str(note) for note in getattr(aloocv, "notes", ())
            if note_code(note) == "alo_grouped_rows" and note_fields(note).get("model") == model]


def plain_message(notes, C_min: float, C_max: float) -> list:
    """The notes on one optimum (:func:`optimum_notes`), sentence by sentence, in plain
    words; ``C_min`` and ``C_max`` are the search range when a note does not say."""
    said = []
    codes = {note_code(note): note_fields(note) for note in notes}
    if "alo_best_at_max_c" in codes:
        C_max = codes["alo_best_at_max_c"].get("C_max", C_max)
        said.append(f"The best C is at the edge of the search range (C max = {C_max:g}): the "
                    "data may be separable, and ALO keeps improving as regularization weakens "
                    "(where it is also over-optimistic). Widen the range (raise C max) or "
                    "accept the bound.")
    if "alo_best_at_min_c" in codes:
        C_min = codes["alo_best_at_min_c"].get("C_min", C_min)
        said.append(f"The best C is at the edge of the search range (C min = {C_min:g}): the "
                    "strongest regularization tried is best, so the features add little beyond "
                    "the class frequencies. Widen the range (lower C min) or accept the bound.")
    if "alo_single_row_class" in codes:
        said.append("One class has a single row: its leave-one-out score is unreliable and "
                    "exact LOO is undefined. Gather more rows of that class.")
    if "alo_constant_columns" in codes:
        said.append("Some columns hold the same value in every row: they carry no information "
                    "and get a coefficient of 0.")
    return said


def loo_agreement(curve: pd.DataFrame, best_C: float) -> str:
    """How closely exact LOO confirms ALO (empty when exact LOO was not computed)."""
    both = curve.dropna(subset=["loo_log_likelihood"])
    if both.empty:
        return ""
    gap = (both["alo_log_likelihood"] - both["loo_log_likelihood"]).abs() / \
        both["loo_log_likelihood"].abs().clip(lower=1e-12)
    near = int(np.argmin(np.abs(np.log(both["C"].to_numpy()) - math.log(best_C))))
    text = (f"Exact leave-one-out confirms ALO: near the best C they differ by "
            f"{100 * gap.iloc[near]:.2g}%.")
    worst = int(np.argmax(gap.to_numpy()))
    if gap.iloc[worst] > 0.02:
        text += (f" The largest gap is {100 * gap.iloc[worst]:.2g}% at C = "
                 f"{both['C'].iloc[worst]:.3g}: ALO is less exact where regularization is weak.")
    return text


def setting_of_C(spec) -> str:
    """What the model's C is now, in words: the value set, or the grid it is tuned over
    inside each training fold ("" without a model)."""
    if spec is None:
        return ""
    tune = getattr(spec, "tune", None) or {}
    grids = tune.get("grid") or {}
    values = [v for g in ([grids] if isinstance(grids, dict) else grids)
              for v in (g.get("C") or [])]
    if values:
        return ("The model now tunes C inside each training fold, over "
                + ", ".join(f"{float(v):g}" for v in values) + ".")
    return f"The model is set to C = {float(spec.params.get('C', 1.0)):g} now."


def summary_text(optimum: pd.Series, n_rows: Optional[int], now: str) -> str:
    """Rich text: the best C and what it means; ``now``: the model's C in words
    (:func:`setting_of_C`)."""
    value = float(optimum["alo_log_likelihood"])
    per_row = f"; mean log-loss {-value / n_rows:.4f} per row" if n_rows else ""
    now = escape(now)
    return (f"<span style='font-size:13pt'><b>Best C = {optimum['C']:.4g}</b></span> for "
            f"<b>{escape(str(optimum['model']))}</b><br>ALO log-likelihood {value:.2f}"
            f"{per_row} (higher log-likelihood is better). {now}")


def merged(old: Optional[AloocvResult], new: AloocvResult, model: str) -> AloocvResult:
    """``old`` with the rows and notes of ``model`` replaced by those of ``new``."""
    if old is None or old.curve.empty:
        return new
    curve = pd.concat([old.curve[old.curve[MODEL] != model], new.curve], ignore_index=True)
    optimum = pd.concat([old.optimum[old.optimum[MODEL] != model], new.optimum],
                        ignore_index=True)
    notes = tuple(n for n in old.notes if note_fields(n).get("model") != model) \
        + tuple(new.notes)
    return AloocvResult(curve=curve, optimum=optimum, notes=notes, settings=new.settings)


def same_data(a, b) -> bool:
    """True when two Datasets hold the same data: the same object, or a copy of it (a
    result from the CV's child process carries a copy), by source, shape and target."""
    if a is b:
        return True
    if a is None or b is None:
        return False
    return (a.source == b.source and a.name == b.name and a.target == b.target
            and tuple(a.classes) == tuple(b.classes) and a.pos_label == b.pos_label
            and a.X.shape == b.X.shape and list(a.X.columns) == list(b.X.columns)
            and np.array_equal(a.y, b.y))


# ---------------------------------------------------------------------- "Use this C"
def entry_index(entries: list, model: str) -> Optional[tuple]:
    """``(index of the entry that makes model, its ModelSpec)`` or None."""
    for i, entry in enumerate(entries):
        try:
            specs = expand_model(entry)
        except ValueError:
            continue
        for spec in specs:
            if spec.name == model:
                return i, spec
    return None


def with_C(entry: dict, C: float) -> tuple:
    """``(new entry, what changed)``: params["C"] = C, C removed from any grid."""
    model = ModelEntry.of(entry)
    entry = copy.deepcopy(entry)
    params = dict(model.params)
    params["C"] = C
    entry["params"] = params
    grid = model.grid
    if not grid:
        return entry, ""
    grids = [grid] if isinstance(grid, dict) else list(grid)
    values = [v for g in grids for v in (g.get("C") or [])]
    kept = [{k: v for k, v in g.items() if k != "C"} for g in grids]
    kept = [g for g in kept if g]
    if kept:
        entry["grid"] = kept[0] if isinstance(grid, dict) else kept
    else:
        entry.pop("grid")
    if not values:
        return entry, ""
    return entry, ("It replaces the grid over C (" + ", ".join(f"{v:g}" for v in values) + ").")


# ---------------------------------------------------------------------- the view
class AloocvView(ResultView):
    """ALO curve of one logistic regression over C: compute, read, export, use the best C.

    Its bar sits above the pages and a status line below. Its pages follow the models
    and the data being edited as well as the result (:meth:`set_result` is its own): the
    hint card until a logistic regression and data are there, then the curve."""

    MARGINS = (6, 6, 6, 6)

    def __init__(self, state: AppState, parent=None):
        super().__init__(state, parent)
        state.dataset_changed.connect(self._on_dataset_changed)
        state.models_changed.connect(self._refresh_models)
        state.settings_changed.connect(self._on_settings_changed)
        self._on_settings_changed()
        self._refresh_models()

    # ------------------------------------------------------------------ building
    def make_bar(self) -> AloocvBar:
        bar = AloocvBar(self)
        bar.compute_clicked.connect(self.compute)
        bar.cancel_clicked.connect(self._job.cancel)
        bar.model_combo.currentIndexChanged.connect(self._show_model)
        return bar

    def make_footer(self) -> QWidget:
        self.status = text_label("", self)
        self.status.setStyleSheet("color: #333;")
        return self.status

    def make_hint(self) -> QWidget:
        """What to do first (load data, add a logistic regression), on a centred card."""
        self.hint_page = QWidget(self)
        card = QFrame(self.hint_page)
        card.setObjectName("aloocv_hint_card")
        card.setStyleSheet("#aloocv_hint_card { background: white; border: 1px solid #ccc; "
                           "border-radius: 6px; }")
        card.setFixedWidth(700)
        self.hint = text_label(NO_MODEL, card, rich=True)
        self.hint.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Minimum)
        inner = QVBoxLayout(card)
        inner.setContentsMargins(24, 14, 24, 18)
        inner.addWidget(self.hint)
        outer = QVBoxLayout(self.hint_page)
        outer.addStretch(1)
        outer.addWidget(card, 0, Qt.AlignHCenter)
        outer.addStretch(2)
        return self.hint_page

    def build(self, content: QWidget, layout: QVBoxLayout) -> None:
        self._job = JobSlot()
        self._pending: Optional[tuple] = None     # (dataset, model, settings) being computed
        self.aloocv: Optional[AloocvResult] = None
        self._curve_data = None      # the Dataset the curves in self.aloocv are for
        self._prefer: Optional[str] = None         # model to pick after the models change
        self._shown_empty = False    # the view shows no curve and no table (see _show_model)
        self._hint_shown = None      # the hint's text once measured (see _update_page)
        split = QSplitter(Qt.Horizontal, content)
        self.plot = AloocvPlot(split)
        side = QWidget(split)
        self.summary = text_label(INTRO, side, rich=True)
        self.use_button = QPushButton("Use this C", side)
        self.use_button.setToolTip("Put the best C into this model's settings (Models tab)")
        self.use_button.clicked.connect(self.use_best_C)
        self.notes = text_label("", side, rich=True)
        self.notes.setMargin(5)      # not a CSS padding: QLabel's word wrap ignores that
        for label in (self.summary, self.notes):
            label.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Minimum)
        self.optimum_panel = TablePanel("Best C", "aloocv_optimum.csv", side)
        self.curve_panel = TablePanel("Curve", "aloocv_curve.csv", side)
        self.optimum_panel.setMaximumHeight(120)
        column = QVBoxLayout(side)
        column.setContentsMargins(6, 0, 0, 0)
        column.addWidget(self.summary)
        column.addWidget(self.use_button, 0, Qt.AlignLeft)
        column.addWidget(self.notes)
        column.addWidget(self.optimum_panel)
        column.addWidget(self.curve_panel, 1)
        split.addWidget(self.plot)
        split.addWidget(side)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([760, 500])
        layout.addWidget(split, 1)

    # ------------------------------------------------------------------ models
    def eligible_specs(self) -> list:
        """The logistic regressions of the setup that ALO applies to."""
        try:
            specs = self.state.model_specs()
        except ValueError:
            return []
        return [spec for spec in specs if not aloocv_eligibility(spec)]

    def _refresh_models(self, *_):
        names = [spec.name for spec in self.eligible_specs()]
        if not names and self.aloocv is not None:
            names = list(dict.fromkeys(self.aloocv.optimum[MODEL].astype(str)))
        current = self._prefer or self.bar.model_combo.currentText()
        self._prefer = None
        with blocked(self.bar.model_combo):
            self.bar.model_combo.clear()
            self.bar.model_combo.addItems(names)
            self.bar.model_combo.setCurrentIndex(max(self.bar.model_combo.findText(current), 0))
        self._update_page()
        self._show_model()

    def _update_page(self) -> None:
        has_models = self.bar.model_combo.count() > 0
        has_data = self.data() is not None
        hint = self._hint_text(has_models)
        if hint != self._hint_shown:          # measuring the text again costs ~10 ms
            self._hint_shown = hint
            self.hint.setText(hint)
            self.hint.setMinimumHeight(self.hint.heightForWidth(700 - 48))   # the card's width
        shown = has_models and (has_data or self.aloocv)
        self.stack.setCurrentWidget(self.content if shown else self.hint_page)
        can_compute = has_models and has_data and self._pending is None
        self.bar.compute_button.setEnabled(can_compute)
        self.bar.exact_button.setEnabled(can_compute)

    def _hint_text(self, has_models: bool) -> str:
        if has_models:
            return NO_DATA
        try:
            specs = self.state.model_specs()
        except ValueError:
            specs = []
        reasons = [aloocv_eligibility(s) for s in specs if s.estimator == "LogisticRegression"]
        why = "".join(f"<br>• {escape(r)}" for r in reasons if r)
        first = "" if self.data() is not None else f"<p>{NO_DATA}</p>"
        return first + NO_MODEL + (f"<p>Not usable here:{why}</p>" if why else "")

    @property
    def model(self) -> str:
        return self.bar.model_combo.currentText()

    def data(self):
        """The data a curve is computed on: the shown result's (after a run over several
        data sets, the data set picked in the Results tab), else the data being edited."""
        result = self.state.result
        return result.dataset if result is not None else self.state.dataset

    # ------------------------------------------------------------------ computing
    def compute(self, exact_loo: bool = False) -> None:
        """Compute the chosen model's curve (with exact LOO if asked) through the run
        service: checked here (a coded error or the budget's refusal is a warning, a large
        job asks first), then run in a child process (:func:`engine.run_service.run_job`)."""
        if self._pending is not None:
            return
        if self._job.job is not None:          # a finished job's thread may still be winding down
            self._job.job.wait(5000)
        spec = next((s for s in self.eligible_specs() if s.name == self.model), None)
        if spec is None or self.data() is None:
            self._say("Choose a LogisticRegression model and load a data set first.", True)
            return
        try:
            settings = self.bar.settings(exact_loo)
        except ValueError as exc:
            self._say(f"Check the C range: {exc}. C from must be smaller than C to.", True)
            return
        dataset = self.data()
        try:
            checked = run_service.check_aloocv(dataset, [spec], settings)
            checked = replace(checked, store=self._store_of(dataset))
        except ValueError as exc:
            show_failure(self, "Cannot compute the ALO curve", str(exc), exc)
            return
        self._pending = (dataset, spec.name, settings)
        if needs_estimate(checked.assessment):
            job = estimate_job(checked)
            job.succeeded.connect(lambda seconds: self._start_checked(checked, seconds))
            job.failed.connect(lambda _message: self._start_checked(checked, None))
            job.cancelled.connect(self._on_cancelled)
            self.bar.set_running(True)
            self._say("A large ALOOCV: computing its first values of C to estimate how "
                      "long it would take…")
            self._job.start(job)
            return
        self._start_checked(checked, None)

    def _start_checked(self, checked, seconds) -> None:
        """The budget's answer (asking with the estimated ``seconds``), then the job in a
        child process."""
        if self._job.job is not None:
            self._job.job.wait()                   # the estimate's thread winds down
        if not budget_allows(self, checked.assessment, "ALOOCV", seconds):
            self._finish()
            self._say("Not started.")
            return
        spec, settings = checked.models[0], checked.settings
        job = Job.in_process(run_service.run_job, (checked,), name="aloocv")
        job.progressed.connect(self.bar.show_progress)
        job.succeeded.connect(self._on_succeeded)
        job.failed_with.connect(self._on_failed)
        job.cancelled.connect(self._on_cancelled)
        self.bar.set_running(True)
        what = "ALO and exact leave-one-out" if settings.exact_loo else "the ALO curve"
        self._say(f"Computing {what} for {spec.name} at {settings.n_C} values of C…")
        self._job.start(job)

    def _store_of(self, dataset):
        """The result store the curve is kept in: the shown run's (the job looks it up
        and keeps it in its own process), None for data without a run."""
        result = self.state.result
        return self.state.result_store() if result is not None and \
            result.dataset is dataset else None

    @property
    def running(self) -> bool:
        """True from Compute until its result (or cancel / failure) has been handled."""
        return self._pending is not None or self._job.running

    def wait_for_job(self, msecs: int = 30000) -> bool:
        """Cancel any computation and wait for its thread (before the view goes away)."""
        done = self._job.wait(msecs)
        for panel in (self.optimum_panel, self.curve_panel):
            done = panel.wait_for_export(msecs) and done
        return done and self.plot.wait_for_save(msecs)

    def _finish(self) -> Optional[tuple]:
        pending, self._pending = self._pending, None
        self.bar.set_running(False)
        self._update_page()
        return pending

    def _on_succeeded(self, result: AloocvResult) -> None:
        dataset, model, settings = self._finish()
        if not same_data(dataset, self.data()):
            self._say("The data changed while computing: that curve was discarded.")
            return
        self.aloocv, self._curve_data = merged(self.aloocv, result, model), dataset
        if self.state.result is not None and same_data(self.state.result.dataset, dataset):
            self.state.set_result(replace(self.state.result, aloocv=self.aloocv))
        self._show_model()
        best = result.optimum.iloc[0] if len(result.optimum) else None
        done = f"best C = {best['C']:.4g}" if best is not None else "no optimum"
        self._say(f"Done: {model}, {done}.")

    def _on_failed(self, message: str, error=None) -> None:
        self._finish()
        self._say(f"Could not compute the curve: {message}", True)
        show_failure(self, "Could not compute the ALO curve", message, error)

    def _on_cancelled(self) -> None:
        self._finish()
        self._say("Cancelled. The plot still shows the previous result, if any.")

    # ------------------------------------------------------------------ showing
    def set_result(self, result) -> None:
        """Take the curves ``result`` carries (a result without them keeps the curves
        shown, unless they are of other data)."""
        aloocv = getattr(result, "aloocv", None)
        if aloocv is None:
            if (result is not None and self.aloocv is not None and not self.running
                    and not same_data(self._curve_data, result.dataset)):
                self.aloocv = None       # another data set's result (picked after a run
                self._refresh_models()   # over several): the curves shown were not for it
            return
        if aloocv is self.aloocv:
            return
        self.aloocv, self._curve_data = aloocv, result.dataset
        if aloocv.settings is not None and not self.running:
            self.bar.set_settings(aloocv.settings)
        self._refresh_models()

    def _on_dataset_changed(self, *_):
        self._job.cancel()
        self.aloocv = self._curve_data = None
        self._refresh_models()

    def _on_settings_changed(self) -> None:
        if self.state.aloocv is not None and not self.running and self.aloocv is None:
            self.bar.set_settings(self.state.aloocv)

    def _show_model(self, *_):
        """The curve, tables and summary of the model picked. Without curves, a view that
        already shows none is left as it is (applying an experiment asks twice)."""
        aloocv, model = self.aloocv, self.model
        if aloocv is None and self._shown_empty:
            return
        self._shown_empty = False
        rows = (aloocv.curve[aloocv.curve[MODEL].astype(str) == model]
                if aloocv is not None else pd.DataFrame())
        best = (aloocv.optimum[aloocv.optimum[MODEL].astype(str) == model]
                if aloocv is not None else pd.DataFrame())
        self.optimum_panel.set_frame(aloocv.optimum if aloocv is not None else pd.DataFrame())
        self.curve_panel.set_frame(aloocv.curve if aloocv is not None else pd.DataFrame())
        self.plot.set_name_hint(*([model, "ALO log-likelihood"] if not rows.empty else []))
        if rows.empty or best.empty:
            self.plot.clear_curve()
            self.summary.setText(INTRO)
            self.notes.setVisible(False)
            self.use_button.setVisible(False)
            self._shown_empty = aloocv is None
            return
        optimum = best.iloc[0]
        reliable = rows["alo_reliable"] if "alo_reliable" in rows else None
        self.plot.show_curve(rows["C"], rows["alo_log_likelihood"], rows["loo_log_likelihood"],
                             float(optimum["C"]), float(optimum["alo_log_likelihood"]),
                             reliable=reliable)
        self._show_summary(optimum, rows)

    def _show_summary(self, optimum: pd.Series, rows: pd.DataFrame) -> None:
        found = entry_index(self.state.model_entries, self.model)
        data = self.data()
        n_rows = len(data.y) if data is not None else None
        self.summary.setText(summary_text(optimum, n_rows,
                                          setting_of_C(found[1] if found else None)))
        self.use_button.setVisible(True)
        self.use_button.setEnabled(found is not None)
        self.use_button.setText(f"Use C = {optimum['C']:.4g} for {self.model}")
        settings = self.aloocv.settings or AloocvSettings()
        said = grouped_rows_message(self.aloocv, self.model) + plain_message(
            optimum_notes(self.aloocv, self.model), settings.C_min, settings.C_max)
        agreement = loo_agreement(rows, float(optimum["C"]))
        self.notes.setText("<br>".join("⚠ " + escape(s) for s in said)
                           + ("<br>" if said and agreement else "") + escape(agreement))
        self.notes.setStyleSheet(WARN_STYLE if said else INFO_STYLE)
        self.notes.setVisible(bool(said or agreement))

    # ------------------------------------------------------------------ use the best C
    def use_best_C(self) -> None:
        """Set the chosen model's C to the best one (4 significant digits)."""
        if self.aloocv is None:
            return
        best = self.aloocv.optimum[self.aloocv.optimum[MODEL].astype(str) == self.model]
        found = entry_index(self.state.model_entries, self.model)
        if best.empty or found is None:
            self._say(f"{self.model} is no longer among the models: nothing changed.", True)
            return
        C = float(f"{float(best['C'].iloc[0]):.4g}")
        index, spec = found
        entries = list(self.state.model_entries)
        entries[index], grid_note = with_C(entries[index], C)
        new_names = [s.name for s in expand_model(entries[index])]
        new_name = spec.name if spec.name in new_names else new_names[0]
        old = spec.params.get("C", 1.0)
        self._prefer = new_name
        self.state.set_model_entries(entries)
        renamed = "" if new_name == spec.name else f" The model is now called {new_name}."
        self._say(f"{spec.name}: C set to {C:g} (was {old:g}). {grid_note}{renamed} "
                  "Run the cross-validation again to score it.")

    # ------------------------------------------------------------------ misc
    def _say(self, text: str, warn: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet("color: #a33;" if warn else "color: #333;")
        self.state.status_message.emit(text)

