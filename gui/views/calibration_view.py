"""The Calibration view: does a predicted 30% really mean 30%?

It measures the calibration of the last cross-validation run on its out-of-fold
predictions (through the run service: ``engine.run_service.check_calibration``, the
budget's answer, then ``run_job`` in a child process; the result is kept in the run's
result store, so the same settings again fit nothing) and shows, for
the chosen model, the reliability diagram before and after each calibration method over
a histogram of the predictions, the Brier / log-loss / ECE table, the deployable
calibration map and the run's notes in plain words.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QFrame, QHBoxLayout, QPushButton,
                               QSplitter, QTabWidget, QTextBrowser, QVBoxLayout,
                               QWidget)

from engine import run_service
from engine.evaluation.calibration import fold_test
from engine.foundation.columns import METHOD, MODEL
from engine.evaluation.experiment import CalibrationSettings
from engine.foundation.notes import note_code, note_fields

from ..interval_words import label_intervals
from ..jobs import Job, JobSlot
from ..jobs_budget import budget_allows, estimate_job, needs_estimate, show_failure
from ..note_words import note_words
from ..plain_text import escape, plain_label, rich_label
from ..plots.calibration_map_plot import CalibrationMapPlot
from ..plots.reliability_plot import ReliabilityPlot
from ..state import AppState
from ..table_panel import TablePanel
from .calibration_bar import CalibrationBar
from .result_view import READY, ResultView
from .widgets import blocked, text_label

ALL_MODELS = "All models"
PICKED = "#dbe8fb"
INTRO = ("<h3>Are the predicted probabilities honest?</h3>"
         "<p>A model that says “30% chance” should be right about 30% of the time. Most models "
         "are not: naive Bayes pushes everything towards 0% or 100%, others hedge towards 50%. "
         "Calibration measures this on the cross-validation's out-of-fold predictions and tries "
         "two repairs, <b>isotonic</b> (a free-form staircase, needs plenty of data) and "
         "<b>sigmoid</b> (Platt's S-curve, fine for small data). Each repair is fitted inside "
         "every training fold and tested on rows it never saw, so the before/after scores are "
         "fair.</p><p>Choose the settings above and press <b>Run calibration</b>. It refits "
         "every model several times per fold, so it takes a while on big data; you can cancel "
         "it.</p>")
NO_RESULT = "Run a cross-validation first: calibration is measured on its out-of-fold predictions."


# ---------------------------------------------------------------------- plain words
#: Note codes that say something went wrong (shown in the warning colour).
FAILURES = ("calibration_no_predictions", "calibration_folds_failed", "calibration_map_failed")


def plain_note(note) -> tuple:
    """``(is_warning, text)``: an engine note (:class:`engine.foundation.notes.Note`) said for a
    non-programmer, decided on its code and fields."""
    code, fields = note_code(note), note_fields(note)
    if code == "calibration_method":
        return False, ("How this was measured: each calibrated variant was fitted on the training "
                       "part of every fold only (with its own inner "
                       f"{fields['inner_splits']}-fold split"
                       + (", which keeps the rows of a group together" if fields.get("grouped")
                          else "")
                       + ") and scored on the test "
                       "part it never saw, so its scores are as honest as the uncalibrated ones. "
                       "The calibration map is fitted on all out-of-fold predictions together, "
                       "for use on new data; the map itself is not tested here.")
    if code == "crowded_buckets":
        return True, (f"{fields['model']}: {fields['share']:.0%} of its predicted probabilities "
                      "sit in the first or last of the equal-width map buckets: they are very "
                      "close to 0 or 1, as naive Bayes' often are. There the map cannot tell them "
                      "apart. Choose “equal count (quantile)” buckets, which follow the data, and "
                      "run again.")
    if code == "calibration_warning":
        return False, (f"{fields['model']} {fields['method']}: scikit-learn warned: "
                       f"{fields['text']}")
    return code in FAILURES, note_words(note)


def crowded_models(notes) -> list:
    """``[(model, share as a fraction)]`` of the engine's notes on crowded end buckets."""
    return [(note_fields(note)["model"], note_fields(note)["share"]) for note in notes
            if note_code(note) == "crowded_buckets"]


def banner_text(notes) -> str:
    """The warnings worth a banner, short (the Notes tab has the full text)."""
    lines = []
    crowded = crowded_models(notes)
    if crowded:
        who = ", ".join(f"{name} ({share:.0%})" for name, share in crowded[:3])
        if len(crowded) > 3:                      # the banner stays short: Notes has all
            who += f" and {len(crowded) - 3} more models"
        lines.append(f"Predictions crowd near 0 or 1 for {who}: the equal-width map buckets "
                     "cannot tell them apart. Equal-count (quantile) buckets follow the data.")
    others = [text for note in notes if note_code(note) != "crowded_buckets"
              for warn, text in [plain_note(note)] if warn]
    lines += others[:2]
    if len(others) > 2:
        lines.append(f"… and {len(others) - 2} more: see Notes.")
    return "<br>".join("⚠ " + escape(line) for line in lines)


def verdict_text(scores: pd.DataFrame, model: str) -> str:
    """One sentence: does calibration help this model (lower Brier score is better)?"""
    rows = scores[scores[MODEL].astype(str) == model].set_index(METHOD)
    if rows.empty or "uncalibrated" not in rows.index:
        return ""
    before = rows.loc["uncalibrated"]
    best = rows["brier"].idxmin()
    start = (f"<b>{escape(model)}</b> before calibration: Brier {before['brier']:.4f}, "
             f"ECE {before['ece']:.4f}. ")
    if best == "uncalibrated":
        return start + "Neither repair improves the Brier score: its own probabilities are best."
    after = rows.loc[best]
    return (start + f"Best repair: <b>{best}</b> (Brier {after['brier']:.4f}, "
            f"ECE {after['ece']:.4f}; lower is better).")


def fold_evidence(calibration, cv, model: str, method: str, alpha: float = 0.05) -> str:
    """Whether ``method`` beats ``uncalibrated`` fold by fold, in words: the engine's
    corrected paired t-test (:func:`engine.evaluation.calibration.fold_test`) judged at ``alpha``."""
    try:
        test = fold_test(calibration, cv, model, method, alpha=alpha)
    except (ValueError, KeyError):
        return ""
    if test is None or not test.mean_difference > 0:
        return ""
    if test.improves:
        return (" Fold by fold the improvement holds up (corrected t-test, two-sided "
                f"p = {test.p_value:.3f} < α = {alpha:g}).")
    return (f" Fold by fold it could be chance (corrected t-test, two-sided p = "
            f"{test.p_value:.3f}, α = {alpha:g}); more folds or data would tell.")


def calibration_specs(state: AppState, result) -> list:
    """The models the CV ran, as ModelSpecs: the run's own, else the current setup's."""
    names = list(result.cv.models)
    own = {spec.name: spec for spec in result.experiment.models}
    if not all(name in own for name in names):
        own.update({spec.name: spec for spec in state.model_specs() if spec.name not in own})
    missing = [name for name in names if name not in own]
    if missing:
        raise ValueError("the models " + ", ".join(missing) + " of the last run are no longer "
                         "set up: run the cross-validation again")
    return [own[name] for name in names]


# ---------------------------------------------------------------------- the view
class CalibrationView(ResultView):
    """Calibration of the last CV run: run it, then read diagrams, scores, map and notes.

    Its bar sits above the pages; a result without calibration shows the ready page
    (the introduction and its Run button)."""

    HINT = NO_RESULT
    MARGINS = (6, 6, 6, 6)

    def __init__(self, state: AppState, parent=None):
        super().__init__(state, parent)
        state.selection_changed.connect(self._on_selection_changed)

    # ------------------------------------------------------------------ building
    def make_bar(self) -> CalibrationBar:
        bar = CalibrationBar(self)
        bar.run_clicked.connect(self.start_calibration)
        bar.cancel_clicked.connect(self._job.cancel)
        return bar

    def make_ready(self) -> QWidget:
        page = QWidget(self)
        card = QFrame(page)
        card.setObjectName("intro_card")
        card.setStyleSheet("#intro_card { background: white; border: 1px solid #ccc; "
                           "border-radius: 6px; }")
        card.setFixedWidth(720)
        text = text_label(INTRO, card, rich=True)
        text.setMinimumHeight(text.heightForWidth(720 - 48) + 8)
        self.intro_run_button = QPushButton("Run calibration", card)
        self.intro_run_button.setStyleSheet("padding: 6px 18px; font-weight: bold;")
        self.intro_run_button.clicked.connect(self.start_calibration)
        inner = QVBoxLayout(card)
        inner.setContentsMargins(24, 12, 24, 18)
        inner.addWidget(text)
        inner.addWidget(self.intro_run_button, 0, Qt.AlignLeft)
        outer = QVBoxLayout(page)
        outer.addStretch(1)
        outer.addWidget(card, 0, Qt.AlignHCenter)
        outer.addStretch(2)
        self.intro = page
        return page

    def build(self, content: QWidget, layout: QVBoxLayout) -> None:
        self._job = JobSlot()
        self._pending: Optional[tuple] = None    # (result being calibrated, settings)
        self.model_combo = QComboBox(self.content)
        self.model_combo.setSizeAdjustPolicy(QComboBox.AdjustToContents)
        self.model_combo.currentIndexChanged.connect(self._on_model_picked)
        self.class_combo = QComboBox(self.content)
        self.class_combo.currentIndexChanged.connect(self._refresh_plots)
        self.class_label = plain_label("class", self.content)
        self.verdict = text_label("", self.content, rich=True)
        self.banner = text_label("", self.content, rich=True)
        self.banner.setStyleSheet("background: #fff4d6; border: 1px solid #e6c66e; "
                                  "padding: 4px; color: #5a4300;")
        self.quantile_button = QPushButton("Use equal-count buckets and run again", self.content)
        self.quantile_button.clicked.connect(self._rerun_quantile)
        pickers = QHBoxLayout()
        for widget in (rich_label("<b>Model</b>", self.content), self.model_combo, self.class_label,
                       self.class_combo):
            pickers.addWidget(widget)
        pickers.addSpacing(10)
        pickers.addWidget(self.verdict, 1)
        warning = QHBoxLayout()
        warning.addWidget(self.banner, 1)
        warning.addWidget(self.quantile_button)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(pickers)
        layout.addLayout(warning)
        layout.addWidget(self._build_body(), 1)

    def _build_body(self) -> QSplitter:
        self.reliability = ReliabilityPlot()
        self.scores_panel = TablePanel("Scores of the out-of-fold probabilities (lower is better)",
                                       "calibration_scores.csv", key_column="model")
        self.scores_panel.model.set_cell_style(self._score_style)
        self.scores_panel.rows_selected.connect(self._pick_from_table)
        self.map_plot = CalibrationMapPlot()
        self.map_panel = TablePanel("Calibration map (every model, method and bucket)",
                                    "calibration_map.csv", digits=4)
        self.curve_panel = TablePanel("Reliability diagram points", "calibration_curve.csv")
        for panel in (self.scores_panel, self.map_panel, self.curve_panel):
            # size columns from the first rows only: maps can hold millions of buckets
            panel.view.horizontalHeader().setResizeContentsPrecision(40)
        self.notes = QTextBrowser()
        self.notes.setOpenLinks(False)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.map_plot, "Calibration map")
        self.tabs.addTab(self.map_panel, "Map table")
        self.tabs.addTab(self.curve_panel, "Diagram table")
        self.tabs.addTab(self.notes, "Notes")
        self.right_split = right = QSplitter(Qt.Vertical)
        right.addWidget(self.scores_panel)
        right.addWidget(self.tabs)
        right.setSizes([190, 400])
        body = QSplitter(Qt.Horizontal)
        body.addWidget(self.reliability)
        body.addWidget(right)
        body.setSizes([660, 600])
        return body

    # ------------------------------------------------------------------ running
    def start_calibration(self) -> None:
        """Calibrate the models of ``state.result`` through the run service: checked on a
        worker thread (nothing fitted, but the run's folds are made again: about 1.5 s for
        200,000 rows x 30 folds), then the budget's answer (a refusal or a coded error is a
        warning, a large job asks first), then run in a child process
        (:func:`engine.run_service.run_job`)."""
        result = self.state.result
        if result is None or self._job.running or not self.bar.run_button.isEnabled():
            return
        try:
            settings = self.bar.settings()
            specs = calibration_specs(self.state, result)
        except ValueError as exc:
            show_failure(self, "Cannot run the calibration", str(exc), exc)
            return
        n_jobs, store = self.state.n_jobs, self.state.result_store()
        job = Job(lambda: run_service.check_calibration(result.dataset, result.cv, specs,
                                                        settings, n_jobs=n_jobs, store=store),
                  name="calibration-check")
        job.succeeded.connect(self._on_checked)
        job.failed_with.connect(self._on_check_failed)
        self._pending = (result, settings)
        self.bar.set_running(True)
        self.intro_run_button.setEnabled(False)
        self.state.status_message.emit("Checking the calibration…")
        self._job.start(job)

    def _on_checked(self, checked) -> None:
        """The check is over: refuse, ask or start the job (unless cancelled meanwhile)."""
        check = self._job.job
        check.wait()                               # its thread ends after this signal
        if check.cancel_requested or self._pending is None:
            self._on_cancelled()
            return
        if needs_estimate(checked.assessment):
            job = estimate_job(checked)
            job.succeeded.connect(lambda seconds: self._on_estimated(checked, seconds))
            job.failed.connect(lambda _message: self._on_estimated(checked, None))
            job.cancelled.connect(self._on_cancelled)
            self.state.status_message.emit("A large calibration: timing a few fits to "
                                           "estimate how long it would take…")
            self._job.start(job)
            return
        self._start_checked(checked, None)

    def _on_estimated(self, checked, seconds) -> None:
        """The time estimate is over (``seconds``, None when it failed): ask."""
        estimate = self._job.job
        estimate.wait()
        if estimate.cancel_requested or self._pending is None:
            self._on_cancelled()
            return
        self._start_checked(checked, seconds)

    def _start_checked(self, checked, seconds) -> None:
        """The budget's answer (asking with the estimated ``seconds``), then the job in a
        child process."""
        if not budget_allows(self, checked.assessment, "calibration", seconds):
            self._finish()
            self.state.status_message.emit("Calibration not started")
            return
        job = Job.in_process(run_service.run_job, (checked,), name="calibration")
        job.progressed.connect(self.bar.show_progress)
        job.succeeded.connect(self._on_succeeded)
        job.failed_with.connect(self._on_failed)
        job.cancelled.connect(self._on_cancelled)
        self.state.status_message.emit("Calibrating the models…")
        self._job.start(job)

    def _on_check_failed(self, message: str, error=None) -> None:
        self._job.job.wait()
        self._finish()
        show_failure(self, "Cannot run the calibration", message, error)

    @property
    def running(self) -> bool:
        return self._job.running

    def wait_for_job(self, msecs: int = 30000) -> bool:
        """Cancel any run and wait for its thread (before the view goes away)."""
        return self._job.wait(msecs)

    def _finish(self) -> tuple:
        pending, self._pending = self._pending, None
        self.bar.set_running(False)
        self.intro_run_button.setEnabled(True)
        return pending or (None, None)

    def _on_succeeded(self, calibration) -> None:
        base, settings = self._finish()
        if base is None or self.state.result is not base:
            self.state.status_message.emit("Calibration finished for an older run: discarded")
            return
        # calibrates this result only: later runs calibrate when the CV tab says so, and
        # then with the settings chosen here
        if self.state.calibration is not None:
            self.state.set_extras(self.state.aloocv, settings)
        self.state.set_result(replace(base, calibration=calibration,
                                      experiment=replace(base.experiment, calibration=settings)))
        self.state.status_message.emit("Calibration finished")

    def _on_failed(self, message: str, error=None) -> None:
        self._finish()
        show_failure(self, "Calibration failed", message, error)

    def _on_cancelled(self) -> None:
        self._finish()
        self.state.status_message.emit("Calibration cancelled")

    def _rerun_quantile(self) -> None:
        self.bar.strategy.setCurrentIndex(self.bar.strategy.findData("quantile"))
        self.start_calibration()


    # ------------------------------------------------------------------ showing
    def set_result(self, result) -> None:
        """Cancel a run calibrating another result, show the settings ``result`` used,
        then its page: the hint, the introduction, or its calibration."""
        if self._pending is not None and result is not self._pending[0]:
            self._job.cancel()                       # the run it calibrates is gone
        if not self.running:
            used = getattr(getattr(result, "experiment", None), "calibration", None)
            self.bar.set_settings(used or self.state.calibration or CalibrationSettings())
        self.bar.setVisible(result is not None)
        super().set_result(result)

    def part_of(self, result):
        if result is None:
            return None
        calibration = getattr(result, "calibration", None)
        return READY if calibration is None else calibration

    def draw(self, result, _calibration) -> None:
        self._show(result)

    def _show(self, result) -> None:
        calibration = result.calibration
        models = list(dict.fromkeys(calibration.scores[MODEL].astype(str)))
        current = self.current_models()
        with blocked(self.model_combo):
            self.model_combo.clear()
            self.model_combo.addItems(models + ([ALL_MODELS] if len(models) > 1 else []))
            picked = [n for n in self.state.selection if n in models] or current[:1]
            index = self.model_combo.findText(picked[0]) if picked else 0
            self.model_combo.setCurrentIndex(max(index, 0))
        classes = list(result.dataset.classes)
        with blocked(self.class_combo):
            self.class_combo.clear()
            for k, name in enumerate(classes):
                self.class_combo.addItem(str(name), k)
            self.class_combo.setCurrentIndex(1 if len(classes) == 2 else 0)
        for widget in (self.class_combo, self.class_label):
            widget.setVisible(len(classes) > 2)
        self.scores_panel.set_frame(calibration.scores)
        self.map_panel.set_frame(calibration.map)
        self.curve_panel.set_frame(calibration.curve)
        label_intervals(self.curve_panel, ["calibration_band"], 0.95)   # Jeffreys, 95%
        self._show_notes(calibration.notes, result)
        self._refresh_plots()

    def _show_notes(self, notes, result) -> None:
        said = [plain_note(note) for note in notes]
        items = "".join(f"<li style='margin-bottom:6px;{' color:#8a5a00;' if warn else ''}'>"
                        f"{escape(text)}</li>" for warn, text in said)
        self.notes.setHtml(f"<ul>{items}</ul>" if items else "<p>No notes.</p>")
        banner = banner_text(notes)
        self.banner.setText(banner)
        self.banner.setVisible(bool(banner))
        strategy = getattr(result.experiment.calibration, "strategy", "uniform")
        self.quantile_button.setVisible(bool(crowded_models(notes)) and strategy == "uniform")
        rows = len(result.calibration.scores)
        top = min(75 + 22 * rows, 280)
        total = max(sum(self.right_split.sizes()), self.right_split.height(), 2 * top)
        self.right_split.setSizes([top, total - top])

    def current_models(self) -> list:
        """The models the plots show (one, or every one for "All models")."""
        text = self.model_combo.currentText()
        if text == ALL_MODELS:
            return [self.model_combo.itemText(i) for i in range(self.model_combo.count() - 1)]
        return [text] if text else []

    def _refresh_plots(self, *_):
        result = self.state.result
        calibration = getattr(result, "calibration", None)
        models = self.current_models()
        if calibration is None or not models:
            return
        k = self.class_combo.currentData()
        k = 0 if k is None else int(k)
        class_name = result.dataset.classes[k]
        curve = calibration.curve[calibration.curve["class"] == class_name]
        self.reliability.show_series(curve, calibration.probabilities, models, f"prob_{k}",
                                     str(class_name))
        self.map_plot.show_maps(calibration.map[calibration.map["class"] == class_name], models)
        self.verdict.setText(self._verdict(calibration, result, models))
        self.scores_panel.model.set_cell_style(self._score_style)

    def _verdict(self, calibration, result, models) -> str:
        if len(models) != 1:
            return "Every model at once: colour = model, line style = method."
        text = verdict_text(calibration.scores, models[0])
        rows = calibration.scores[calibration.scores[MODEL].astype(str) == models[0]]
        if text and not rows.empty:
            best = str(rows.loc[rows["brier"].idxmin(), "method"])
            if best != "uncalibrated":
                text += fold_evidence(calibration, result.cv, models[0], best,
                                      result.experiment.comparison.alpha)
        return text

    def _score_style(self, row: int, _column: str, _value) -> Optional[str]:
        frame = self.scores_panel.frame()
        if row >= len(frame) or "model" not in frame.columns:
            return None
        return PICKED if str(frame[MODEL].iloc[row]) in self.current_models() else None

    # ------------------------------------------------------------------ selection
    def _on_model_picked(self, *_):
        self._refresh_plots()
        models = self.current_models()
        if len(models) == 1:
            self.state.set_selection(models)

    def _pick_from_table(self, names: list) -> None:
        if names:
            self.state.set_selection(names[:1])

    def _on_selection_changed(self, names: list) -> None:
        if self.stack.currentWidget() is not self.content or not names:
            return
        if len(names) == 1 and names[0] == self.model_combo.currentText():
            return
        index = self.model_combo.findText(names[0])
        if index >= 0:
            with blocked(self.model_combo):
                self.model_combo.setCurrentIndex(index)
            self._refresh_plots()
