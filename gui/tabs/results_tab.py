"""The Results tab: how the models scored, and whether the differences are real.

It reproduces the scikit-learn example "Statistical comparison of models using grid
search" on screen: the scores per fold and their correlation, the corrected t-test of
every pair, and the Bayesian posterior of the chosen pair with its ROPE, credible
intervals and a plain-language verdict.

One selection is shared by every view through ``AppState.set_selection``: picking a
model highlights it everywhere; picking two opens their Bayesian comparison.
"""
from __future__ import annotations


from typing import Optional

import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QSplitter,
                               QTabWidget, QVBoxLayout, QWidget)

from engine.evaluation.coverage_record import level_words
from engine.foundation.columns import MODEL_1, MODEL_2, PAIR, P_BETTER, P_EQUIVALENT, P_WORSE
from engine.evaluation.stats import BAYESIAN_COLUMNS, FREQUENTIST_COLUMNS
from engine.evaluation.verdict import (bayes_level, learning_states, metric_label,
                                       model_health as health_of, oriented_pair, pair_posterior,
                                       pair_verdict)

from ..plain_text import escape, plain_label, plain_tip, rich_label
from ..plots.correlation_heatmap import CorrelationHeatmap
from ..plots.fold_scores_plot import FoldScoresPlot
from ..plots.plot_panel import colour, panels_in
from ..plots.posterior_plot import PosteriorPlot
from ..interval_words import label_intervals
from ..render_queue import NEXT_TURN, draw_now, paint_in_turns
from ..state import AppState
from ..table_panel import TablePanel
from ..views_menu import ViewsMenuButton
from ..views.dataset_picker import DatasetPicker
from ..views.per_class_view import PerClassView
from ..views.widgets import PageHeader, ViewTabs, fill_with_pages
from .results_widgets import ComparisonControls, HintPage


SIGNIFICANT, NAIVE_ONLY, PICKED = "#c7ead0", "#fde3b5", "#dbe8fb"
DECIDED = {P_BETTER: "#cfe3f5", P_WORSE: "#fde3b5", P_EQUIVALENT: "#e2e2e2"}
VERDICT_COLOURS = {"better": "#0072B2", "worse": "#E69F00", "equivalent": "#777",
                   "undecided": "#bbb", "insufficient": "#c00"}
BAYESIAN_PAGE = 2


# ---------------------------------------------------------------------- small pieces
def show_only_columns(panel: TablePanel, columns: list) -> None:
    """Show ``columns`` in this order and hide the others (on screen only: the export
    still writes the whole table in the file's column order)."""
    names = list(panel.frame().columns)
    for i, name in enumerate(names):
        panel.view.setColumnHidden(i, name not in columns)
    header = panel.view.horizontalHeader()
    for place, name in enumerate(c for c in columns if c in names):
        header.moveSection(header.visualIndex(names.index(name)), place)


def ranked_summary(summary: pd.DataFrame, metrics) -> pd.DataFrame:
    """The summary table metric by metric (primary first), best model first."""
    order = {metric: i for i, metric in enumerate(metrics)}
    keys = summary["metric"].map(order).fillna(len(order))
    return (summary.assign(_order=keys).sort_values(["_order", "rank"], kind="mergesort")
            .drop(columns="_order").reset_index(drop=True))


def interval_headers(alpha: float, record=None) -> dict:
    """Headers in words of ``summary.csv``'s interval columns at level ``1 − alpha``: the
    coverage the study measured in place of the level when it fell outside 93–97%
    (:func:`engine.evaluation.coverage_record.level_words`)."""
    level = f"{100 * (1 - alpha):g}%"
    words = level_words("summary_mean", 1 - alpha, record=record)
    level = words if words.endswith("measured") else level
    return {"ci_low": f"{level} interval, low", "ci_high": f"{level} interval, high"}


def positive_of(result):
    """The positive class's label of a two-class result (None otherwise)."""
    code = getattr(result.dataset, "pos_label", None)
    return None if code is None else result.dataset.classes[code]


def model_health(result) -> dict:
    """``{model: ModelHealth}`` on the primary metric, for the verdict (engine.evaluation.verdict)."""
    config = result.cv.config
    return health_of(result.summary, result.cv.primary_metric, config.n_splits * config.n_repeats)


def pair_in_row(panel: TablePanel) -> Optional[tuple]:
    """``(model_1, model_2)`` of the first selected row of a pairwise table, if any."""
    rows = panel.view.selectionModel().selectedRows()
    frame = panel.frame()
    if not rows or rows[0].row() >= len(frame) or MODEL_2 not in frame.columns:
        return None
    record = frame.iloc[rows[0].row()]
    return str(record[MODEL_1]), str(record[MODEL_2])


# ---------------------------------------------------------------------- cell colours
def summary_style(picked: list):
    """Picked models' names in blue, every metric's rank 1 in green."""
    def style(_row, column, value):
        if column == "model" and value in picked:
            return PICKED
        if column == "rank" and value == 1:
            return SIGNIFICANT
        return None
    return style


def _is_pair_row(frame: pd.DataFrame, row: int, pair: Optional[tuple]) -> bool:
    if pair is None or row >= len(frame):
        return False
    return {frame[MODEL_1].iat[row], frame[MODEL_2].iat[row]} == set(pair)


def frequentist_style(frame, row, column, value, alpha, pair):
    """Significant p-values green; naive-only significance amber; the chosen pair blue."""
    if column in PAIR:
        return PICKED if _is_pair_row(frame, row, pair) else None
    if column in ("p_value_two_sided", "p_value_two_sided_adjusted") and value < alpha:
        return SIGNIFICANT
    if column == "p_value_uncorrected" and min(1.0, 2 * value) < alpha:
        two_sided = frame["p_value_two_sided"].iat[row]
        return SIGNIFICANT if two_sided < alpha else NAIVE_ONLY
    return None


def bayesian_style(frame, row, column, value, alpha, pair, correction="none", n_pairs=1):
    """Probabilities reaching the decision level coloured by outcome (``bayes_level``:
    1 - alpha, or 1 - alpha / m for m pairs under a correction, as the verdict reads
    them); the chosen pair blue."""
    if column in PAIR:
        return PICKED if _is_pair_row(frame, row, pair) else None
    if column in DECIDED and value >= bayes_level(alpha, correction, n_pairs):
        return DECIDED[column]
    return None



class ResultsTab(QWidget):
    """Summary, fold scores, correlation, corrected t-tests and the Bayesian comparison."""

    def __init__(self, state: AppState, parent=None):
        super().__init__(parent)
        self.state = state
        self._result = None
        self._matrix = pd.DataFrame()
        self._shown_cv = None
        self._shown_summary = None
        self._pair: Optional[tuple] = None
        #: The pair the user picked and the data it was picked on (AppState.data_identity).
        self._users_pair: Optional[tuple] = None
        self._users_data: Optional[tuple] = None
        self._build()
        state.result_changed.connect(self._on_result_changed)
        state.selection_changed.connect(self._on_selection_changed)
        state.datasets_changed.connect(self._forget_users_pair)
        self._on_result_changed(state.result)

    # ------------------------------------------------------------------ building
    def _build(self) -> None:
        self.hint = HintPage(self)
        self.content = QWidget(self)
        self.picker = DatasetPicker(self.state, self.content)   # several data sets only
        self.controls = ComparisonControls(self.content)
        self.controls.changed.connect(self.state.set_comparison)
        self.views = ViewTabs(self.content)
        self.views.setDocumentMode(True)
        self.all_views = ViewsMenuButton(self.views)
        self.views.setCornerWidget(self.all_views, Qt.TopRightCorner)
        self.views.addTab(self._build_scores_page(), "Scores and correlation")
        self.views.addTab(self._build_frequentist_page(), "Corrected t-test (all pairs)")
        self.views.addTab(self._build_bayesian_page(), "Bayesian comparison")
        self.per_class = PerClassView(self)
        self.views.addTab(self.per_class, "Per class")
        layout = QVBoxLayout(self.content)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.picker)
        layout.addWidget(self.controls)
        self.pair_bar = self._build_pair_bar()
        layout.addWidget(self.pair_bar)
        layout.addWidget(self.views, 1)
        self.views.currentChanged.connect(self._on_view_changed)
        self.stack = fill_with_pages(self, self.hint, self.content)

    def _build_pair_bar(self) -> QWidget:
        bar = QWidget(self.content)
        self.model_a_combo, self.model_b_combo = QComboBox(bar), QComboBox(bar)
        for combo in (self.model_a_combo, self.model_b_combo):
            # long model names are elided (full name in the tooltip and the drop-down)
            # instead of widening the window past the screen
            combo.setMinimumContentsLength(14)
            combo.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
            combo.view().setTextElideMode(Qt.ElideNone)
            combo.currentTextChanged.connect(self._on_combo_changed)
        self.model_a_combo.setToolTip("Model A: differences are A minus B")
        self.model_b_combo.setToolTip("Model B")
        self.verdict_label = plain_label("", bar)
        self.verdict_label.setWordWrap(True)
        self.verdict_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        pickers = QHBoxLayout()
        pickers.setSpacing(4)
        pickers.addWidget(rich_label("<b>Compare</b>", bar))
        pickers.addWidget(self.model_a_combo)
        pickers.addWidget(plain_label("with", bar))
        pickers.addWidget(self.model_b_combo)
        row = QHBoxLayout(bar)
        row.setContentsMargins(0, 4, 0, 4)
        row.addLayout(pickers)
        row.addSpacing(10)
        row.addWidget(self.verdict_label, 1)
        return bar

    def _build_scores_page(self) -> QWidget:
        self.summary_panel = TablePanel("Mean, std, interval and rank per model and metric",
                                        "summary.csv",
                                        key_column="model")
        self.correlation_panel = TablePanel("Correlation of fold scores", "correlation.csv",
                                            key_column="model", sortable=False, digits=3)
        self.fold_panel = TablePanel("Every fold's score", "fold_scores.csv", key_column="model")
        self.summary_panel.model.set_cell_style(summary_style([]))
        for panel in (self.summary_panel, self.fold_panel):
            panel.model.show_column_as("metric", metric_label)
        self.nested_panel = TablePanel("Nested-CV interval of the model fitted on all rows "
                                       "(Bates et al.)", "nested_intervals.csv",
                                       key_column="model")
        self.nested_panel.model.show_column_as("metric", metric_label)
        tables = self.score_tables = QTabWidget()
        tables.addTab(self.summary_panel, "Summary")
        tables.addTab(self.nested_panel, "Nested CV")
        tables.setTabVisible(1, False)          # shown by a run with "interval": "nested"
        tables.addTab(self.correlation_panel, "Correlation")
        tables.addTab(self.fold_panel, "Fold scores")
        for panel in (self.summary_panel, self.nested_panel, self.correlation_panel,
                      self.fold_panel):
            panel.rows_selected.connect(self._pick_models)
        self.heatmap = CorrelationHeatmap()
        self.heatmap.models_clicked.connect(self._pick_models)
        self.fold_plot = FoldScoresPlot()
        self.fold_plot.model_clicked.connect(lambda name: self.state.set_selection([name]))
        top = QSplitter(Qt.Horizontal)
        top.addWidget(tables)
        top.addWidget(self.heatmap)
        top.setSizes([620, 480])
        body = QSplitter(Qt.Vertical)
        body.addWidget(top)
        body.addWidget(self.fold_plot)
        body.setSizes([300, 330])
        return _page(PageHeader(
            "How every model scored on every test fold. Lines that rise and fall together, "
            "and high correlations, show that the folds share data: the scores are not "
            "independent, so the comparison below corrects for it.", "results"), body)

    def _build_frequentist_page(self) -> QWidget:
        self.pairwise_panel = TablePanel("Nadeau and Bengio's corrected paired t-test",
                                         "pairwise.csv")
        self.pairwise_panel.model.set_cell_style(self._frequentist_style)
        self.pairwise_panel.view.selectionModel().selectionChanged.connect(
            lambda *_: self._pick_pair_from(self.pairwise_panel))
        self.frequentist_note = rich_label("", self)
        self.frequentist_note.setWordWrap(True)
        return _page(PageHeader(
            "Do model_1 (the better-ranked) and model_2 really differ? t_stat and the p-values "
            "use the corrected variance; p_value_two_sided_adjusted (two-sided, corrected for "
            "testing many pairs) decides significance. p_value and p_value_adjusted are the "
            "scikit-learn example's one-sided values; the _uncorrected pair is the naive test, "
            "shown for contrast. Select a row to see that pair's Bayesian comparison.",
            "corrected_ttest"),
            self.pairwise_panel, self.frequentist_note)

    def _build_bayesian_page(self) -> QWidget:
        self.posterior = PosteriorPlot()
        self.bayes_panel = TablePanel("Probabilities for all pairs", "pairwise.csv")
        self.bayes_panel.model.set_cell_style(self._bayesian_style)
        self.intervals_panel = TablePanel("Credible intervals of the mean difference",
                                          "credible_intervals.csv")
        self.intervals_panel.model.set_cell_style(self._interval_style)
        for panel in (self.bayes_panel, self.intervals_panel):
            panel.view.selectionModel().selectionChanged.connect(
                lambda *_, p=panel: self._pick_pair_from(p, open_bayesian=False))
        intervals_box = _page(PageHeader("There is a 95% probability that the true mean "
                                         "difference lies in the 95% interval.",
                                         "credible_intervals"), self.intervals_panel)
        tables = QSplitter(Qt.Vertical)
        tables.addWidget(self.bayes_panel)
        tables.addWidget(intervals_box)
        body = QSplitter(Qt.Horizontal)
        body.addWidget(self.posterior)
        body.addWidget(tables)
        body.setSizes([640, 560])
        return _page(PageHeader(
            "How likely is each outcome? The grey band is the region of practical equivalence "
            "(ROPE): differences inside it are too small to matter. The areas under the curve "
            "give the probabilities.", "bayesian"), body)

    def add_view(self, title: str, widget: QWidget) -> None:
        """Host another results view (ALOOCV, calibration, ...) as a sub-tab. A view about
        every data set at once (``shows_all_datasets = True``) hides the data set picker,
        the comparison settings and the chosen pair, which are about one data set."""
        self.views.addTab(widget, title)

    def _on_view_changed(self, _index: int) -> None:
        one_dataset = not getattr(self.views.currentWidget(), "shows_all_datasets", False)
        self.picker.set_wanted(one_dataset)
        self.controls.setVisible(one_dataset)
        self.pair_bar.setVisible(one_dataset)
        paint_in_turns(self.state.renderer, (self, "shown view"),
                       panels_in(self.views.currentWidget()))

    # ------------------------------------------------------------------ results
    def _on_result_changed(self, result) -> None:
        self._result = result
        if result is None:
            self.state.renderer.cancel(self)
            self.stack.setCurrentWidget(self.hint)
            self.posterior.clear()
            self._shown_cv = None
            return
        self.state.renderer.submit(self, self._draw(result))

    def _draw(self, result):
        """Everything a new result changes, in slices (see gui/render_queue.py), the page
        on screen first. The tab is painted when complete, its plots one per turn
        (painting the half-drawn tab after every slice cost more than the slices).
        Settings alone (ROPE, alpha) leave the scores as they are."""
        plots = (self.fold_plot, self.heatmap, self.posterior)
        self.setUpdatesEnabled(False)
        try:
            yield from self._draw_pages(result)
            for plot in plots:
                plot.setUpdatesEnabled(False)
            yield NEXT_TURN
            self.setUpdatesEnabled(True)        # the tables and text
            for plot in plots:
                yield NEXT_TURN
                plot.setUpdatesEnabled(True)
        finally:
            for widget in (self, *plots):
                widget.setUpdatesEnabled(True)

    def _draw_pages(self, result):
        new_scores = result.cv is not self._shown_cv
        if new_scores:
            self._shown_cv = None    # until every score view is drawn
            self._matrix = result.cv.score_matrix()
            self.per_class.set_result(result)
            yield
        elif result.summary is not getattr(self, "_shown_summary", None):
            self._show_summary(result)          # alpha changed: the intervals did
        self._show_context(result)
        yield NEXT_TURN
        self.stack.setCurrentWidget(self.content)   # the first time: ~20 ms of Qt layout
        yield NEXT_TURN
        pages = {0: self._draw_scores(result) if new_scores else iter(()),
                 1: self._draw_frequentist(result), 2: self._draw_bayesian(result)}
        first = self.views.currentIndex()
        for index in [first] + [i for i in pages if i != first]:
            yield from pages.get(index, iter(()))
        if new_scores:
            self._shown_cv = result.cv

    def _show_summary(self, result) -> None:
        """The summary table, its interval's level in the headers (the comparison's α)."""
        self.summary_panel.set_frame(ranked_summary(result.summary, result.cv.metrics))
        self.summary_panel.model.show_headers_as(interval_headers(
            result.comparison.settings.alpha))
        label_intervals(self.summary_panel, ["summary_mean"],
                        1.0 - result.comparison.settings.alpha)
        self._show_nested(result)
        self._shown_summary = result.summary

    def _show_nested(self, result) -> None:
        """``nested_intervals.csv`` in its tab, labelled with the ``nested_cv`` interval's
        method, estimand and measured coverage; the tab hidden without it."""
        nested = getattr(result, "nested", None)
        table = nested.table if nested is not None else None
        shown = table is not None and len(table) > 0
        self.score_tables.setTabVisible(self.score_tables.indexOf(self.nested_panel), shown)
        if shown:
            self.nested_panel.set_frame(table)
            label_intervals(self.nested_panel, ["nested_cv"], float(table["level"].iloc[0]))

    def _draw_scores(self, result):
        self._show_summary(result)
        yield
        self.heatmap.set_correlation(result.comparison.correlation)
        yield
        yield from self.fold_plot.draw_scores(self._matrix, result.cv.primary_metric,
                                              result.cv.config.n_splits)
        self._highlight(self.state.selection)
        yield
        self.correlation_panel.set_frame(result.comparison.correlation.reset_index())
        yield
        self.fold_panel.set_frame(result.cv.scores)
        yield

    def _draw_frequentist(self, result):
        self.pairwise_panel.set_frame(result.comparison.pairwise)
        show_only_columns(self.pairwise_panel, FREQUENTIST_COLUMNS)
        label_intervals(self.pairwise_panel, ["pairwise_difference"],
                        1.0 - result.comparison.settings.alpha, columns=("mean_difference",))
        yield

    def _draw_bayesian(self, result):
        yield from self._keep_or_default_pair(result)
        yield
        self.bayes_panel.set_frame(result.comparison.pairwise)
        show_only_columns(self.bayes_panel, BAYESIAN_COLUMNS)
        yield
        self.intervals_panel.set_frame(result.comparison.intervals)
        # several levels in one table: the label is the study's (95%) one
        label_intervals(self.intervals_panel, ["credible_difference"], 0.95,
                        columns=("lower", "upper"))
        yield

    def _show_context(self, result) -> None:
        comparison = result.comparison
        self.controls.set_settings(comparison.settings, comparison.metric)
        cv, positive = result.cv.config, positive_of(result)
        self.controls.set_context(
            f"Comparing on <b>{escape(metric_label(comparison.metric, positive=positive))}"
            "</b> over "
            f"{self._matrix.shape[1]} test folds ({cv.n_repeats} × {cv.n_splits}-fold)"
            + (f" of <b>{escape(str(result.dataset.name))}</b>"
               if self.state.benchmark is not None else ""))
        settings = comparison.settings
        correction = ("no correction" if settings.correction == "none"
                      else f"{settings.correction.capitalize()} correction")
        self.frequentist_note.setText(
            f"<span style='background:#c7ead0'>&nbsp;green&nbsp;</span>: two-sided p below "
            f"α = {settings.alpha:g} (p_value_two_sided_adjusted uses {correction}). "
            "<span style='background:#fde3b5'>&nbsp;amber&nbsp;</span>: only the naive test "
            "says significant — it ignores that the folds overlap and is too optimistic.")

    def _keep_or_default_pair(self, result):
        """The pair the user picked on this data if the result has both models, else the
        first two models picked, else the best two (a drawing: it yields between the
        posterior and the rest). A pair picked automatically is not kept: on the next
        result it is that result's best two."""
        models = [str(m) for m in result.comparison.correlation.index]   # best first
        self._fill_combos(models)
        pair = self._users_pair if self._users_data == self.state.data_identity else None
        if not pair or pair[0] not in models or pair[1] not in models:
            selected = [m for m in self.state.selection if m in models]
            pair = tuple(selected[:2]) if len(selected) >= 2 else tuple(models[:2])
        if len(pair) == 2:
            self._select_pair(*pair)
            yield from self._draw_pair()
        self._highlight(self.state.selection)

    def _fill_combos(self, models: list) -> None:
        for combo in (self.model_a_combo, self.model_b_combo):
            if [combo.itemText(i) for i in range(combo.count())] != models:
                combo.blockSignals(True)
                combo.clear()
                combo.addItems(models)
                combo.blockSignals(False)

    # ------------------------------------------------------------------ the chosen pair
    def _set_pair(self, model_a: str, model_b: str) -> None:
        self._select_pair(model_a, model_b)
        draw_now(self._draw_pair())

    def _forget_users_pair(self, *_) -> None:
        """Other data (also File → New before the same data again): the pair the user
        picked was for the old."""
        if self.state.data_identity != self._users_data:
            self._users_pair = self._users_data = None

    def _take_users_pair(self, model_a: str, model_b: str) -> None:
        """The user picked this pair, on the data loaded now."""
        self._users_pair = (model_a, model_b)
        self._users_data = self.state.data_identity

    def _select_pair(self, model_a: str, model_b: str) -> None:
        self._pair = (model_a, model_b)
        self.model_a_combo.setToolTip(plain_tip(f"Model A: {model_a} (differences are A minus B)"))
        self.model_b_combo.setToolTip(plain_tip(f"Model B: {model_b}"))
        for combo, name in ((self.model_a_combo, model_a), (self.model_b_combo, model_b)):
            combo.blockSignals(True)
            combo.setCurrentText(name)
            combo.blockSignals(False)

    def _draw_pair(self):
        """The chosen pair's posterior, then its verdict and per-class tables."""
        result, (a, b) = self._result, self._pair
        comparison = result.comparison
        settings = comparison.settings
        row = comparison.pair(a, b)
        values = oriented_pair(row, a, b)
        post = pair_posterior(self._matrix, a, b, comparison.n_train, comparison.n_test)
        self.posterior.set_posterior(post, a, b, settings.rope, settings.credible_levels,
                                     values, comparison.metric,
                                     colours=(self._colour_of(a), self._colour_of(b)))
        yield
        verdict = pair_verdict(row, a, b, settings.rope, settings.alpha,
                               correction=settings.correction,
                               health=model_health(result),
                               learning=learning_states(getattr(result, "curves", None)),
                               n_pairs=len(comparison.pairwise))
        self.verdict = verdict
        self.verdict_label.setText(verdict.text)
        self.verdict_label.setStyleSheet(
            "QLabel { background: #f5f7fa; padding: 4px 8px; "
            f"border-left: 5px solid {VERDICT_COLOURS[verdict.outcome]}; }}")
        self.per_class.show_pair(a, b)
        self._restyle()

    def _restyle(self) -> None:
        self.pairwise_panel.model.set_cell_style(self._frequentist_style)
        self.bayes_panel.model.set_cell_style(self._bayesian_style)
        self.intervals_panel.model.set_cell_style(self._interval_style)

    def _colour_of(self, model: str) -> str:
        models = [str(m) for m in self._matrix.index]
        return colour(models.index(model)) if model in models else colour(0)

    def _on_combo_changed(self, _text: str) -> None:
        a, b = self.model_a_combo.currentText(), self.model_b_combo.currentText()
        if not a or not b or self._result is None:
            return
        if a == b and self._pair:
            # picking the other side's model swaps the two
            old_a, old_b = self._pair
            a, b = (a, old_a) if self.sender() is self.model_a_combo else (old_b, b)
        self._take_users_pair(a, b)
        self._set_pair(a, b)
        self.state.set_selection([a, b])

    # ------------------------------------------------------------------ selection
    def _pick_models(self, names: list) -> None:
        unique = list(dict.fromkeys(str(n) for n in names))
        if unique:
            self.state.set_selection(unique)
        if len(unique) >= 2:
            self.views.setCurrentIndex(BAYESIAN_PAGE)

    def _pick_pair_from(self, panel: TablePanel, open_bayesian: bool = True) -> None:
        pair = pair_in_row(panel)
        if pair is None:
            return
        self.state.set_selection(list(pair))
        if open_bayesian:
            self.views.setCurrentIndex(BAYESIAN_PAGE)

    def _on_selection_changed(self, names: list) -> None:
        if self._result is None:
            return
        models = [str(m) for m in self._matrix.index]
        picked = [n for n in names if n in models]
        if len(picked) >= 2:
            self._take_users_pair(*picked[:2])
        if len(picked) >= 2 and tuple(picked[:2]) != self._pair:
            self._set_pair(*picked[:2])
        self._highlight(picked)

    def _highlight(self, names: list) -> None:
        self.fold_plot.set_selection(names)
        self.heatmap.set_selection(names)
        self.summary_panel.model.set_cell_style(summary_style(names))

    # ------------------------------------------------------------------ cell styles
    def _settings(self):
        return self._result.comparison.settings if self._result is not None else \
            self.state.comparison

    def _frequentist_style(self, row, column, value):
        return frequentist_style(self.pairwise_panel.frame(), row, column, value,
                                 self._settings().alpha, self._pair)

    def _bayesian_style(self, row, column, value):
        frame, settings = self.bayes_panel.frame(), self._settings()
        return bayesian_style(frame, row, column, value, settings.alpha, self._pair,
                              settings.correction, len(frame))

    def _interval_style(self, row, column, value):
        return bayesian_style(self.intervals_panel.frame(), row, column, value,
                              self._settings().alpha, self._pair)


def _page(header: QWidget, *widgets: QWidget) -> QWidget:
    page = QWidget()
    layout = QVBoxLayout(page)
    layout.setContentsMargins(4, 4, 4, 4)
    layout.addWidget(header)
    for widget in widgets:
        layout.addWidget(widget, 1 if not isinstance(widget, QLabel) else 0)
    return page
