"""The "Across data sets" view of the Results tab: the models compared over every data set
of a run with several (``AppState.benchmark``, an ``engine.runs.benchmark.BenchmarkResult``).

It shows the critical-difference diagram (:mod:`gui.plots.cd_diagram`), the Friedman
test in words, the tables of ``AcrossComparison.tables()`` (ranks, scores per data set,
Nemenyi, Wilcoxon adjusted by the correction, Bayesian signed-rank, Friedman) with their headers in words,
and the plain-language report (``report.md``) with its caveats. Everything is drawn in
slices through the render queue; every table and the diagram export.
"""
from __future__ import annotations


from PySide6.QtCore import Qt
from PySide6.QtGui import QTextBlockFormat, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QTabWidget, QTextBrowser, QVBoxLayout, QWidget

from engine.foundation.columns import MODEL
from engine.output.document import BulletList, html_block, html_spans
from engine.evaluation.verdict import metric_label
from engine.runs.across.report import across_document

from ..plain_text import escape, rich_label
from ..plots.cd_diagram import CDDiagram
from ..render_queue import NEXT_TURN
from ..state import AppState
from ..table_panel import TablePanel
from .result_view import ResultView, side_by_side
from .across_tables import (HEADERS, WIDE_NAME, best_per_dataset, friedman_words,
                            pairwise_style, ranks_style, signed_rank_style, wide_scores,
                            wide_style)

TITLE = "Across data sets"
HINT = ("<p style='font-size:14pt; color:#444'>Compare models across several data sets</p>"
        "<p style='color:#666'>Run an experiment with several data sets (for example "
        "resources/examples/five_models_six_datasets.json) to see here which models do well "
        "consistently, across all of them.</p>")
INTRO = ("Each data set is one piece of evidence: on each, the models are ranked (1 = best). "
         "The diagram puts every model at its mean rank; models joined by a thick bar cannot "
         "be told apart with these data sets (their mean ranks differ by less than the "
         "critical difference; one bar joins them all when the Friedman test does not "
         "reject or there are too few data sets to decide).")


class AcrossView(ResultView):
    """The comparison of the models across the data sets of ``state.benchmark``."""

    HINT, HEADER, TOPIC = HINT, INTRO, "across"
    shows_all_datasets = True      # the Results tab hides what is about one data set
    benchmark = None

    def followed(self, state: AppState) -> tuple:
        """The run over several data sets (``AppState.benchmark``), not one result."""
        return state.benchmark_changed, state.benchmark

    # ------------------------------------------------------------------ building
    def build(self, content: QWidget, layout: QVBoxLayout) -> None:
        self.context = rich_label("", content)
        self.context.setTextFormat(Qt.RichText)
        self.context.setWordWrap(True)
        self.friedman_label = rich_label("", content)
        self.friedman_label.setTextFormat(Qt.RichText)
        self.friedman_label.setWordWrap(True)
        self.friedman_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.friedman_label.setStyleSheet("QLabel { background: #f5f7fa; padding: 4px 8px; "
                                          "border-left: 5px solid #0072B2; }")
        self.diagram = CDDiagram(content)
        self.report = QTextBrowser(content)
        self.report.setOpenLinks(False)
        # a scroll bar appearing would narrow the text and lay the whole report out again
        self.report.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOn)
        self.report.setMinimumWidth(260)
        left = side_by_side(content, self.diagram, self._build_tables(), [330, 300],
                            Qt.Vertical)
        body = side_by_side(content, left, self._report_box(), [800, 440])
        body.setStretchFactor(0, 3)
        body.setStretchFactor(1, 2)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.context)
        layout.addWidget(self.friedman_label)
        layout.addWidget(body, 1)
        self.state.selection_changed.connect(lambda _names: self._restyle())

    def _report_box(self) -> QWidget:
        box = QWidget(self.content)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(rich_label("<b>In plain words</b> (report.md)", box))
        layout.addWidget(self.report, 1)
        return box

    def _build_tables(self) -> QTabWidget:
        panels = {
            "ranks.csv": ("Mean rank of every model", "Mean ranks"),
            WIDE_NAME: ("Mean score per data set (best in green)", "Scores per data set"),
            "nemenyi.csv": ("Nemenyi test of every pair (critical difference)", "Nemenyi"),
            "wilcoxon.csv": ("Wilcoxon signed-rank test of every pair (p adjusted over the "
                             "pairs by the comparison's correction)", "Wilcoxon"),
            "signed_rank.csv": ("Bayesian signed-rank test: the posterior probability of "
                                "each outcome", "Bayesian signed-rank"),
            "friedman.csv": ("Friedman and Iman-Davenport tests", "Friedman"),
        }
        self.panels = {}
        tables = QTabWidget(self.content)
        tables.setDocumentMode(True)
        for name, (title, tab) in panels.items():
            panel = TablePanel(title, name, key_column="model" if name == "ranks.csv" else None)
            panel.model.show_headers_as(HEADERS[name])
            self.panels[name] = panel
            tables.addTab(panel, tab)
        self.panels["ranks.csv"].rows_selected.connect(self._pick)
        self.tables = tables
        return tables

    # ------------------------------------------------------------------ results
    def part_of(self, benchmark):
        self.benchmark = benchmark
        return benchmark

    def draw(self, benchmark, _part=None):
        """Everything about ``benchmark``, in slices (a generator for the render queue).
        The view is painted when complete: the tables and text in one turn, the diagram
        in the next. (``_part`` is ``benchmark`` again, as :class:`ResultView` passes it.)"""
        across, self.benchmark = benchmark.across, benchmark
        self.setUpdatesEnabled(False)
        try:
            self._show_context(benchmark)
            self.stack.setCurrentWidget(self.content)
            yield NEXT_TURN
            nemenyi = across.nemenyi
            cd = float(nemenyi["critical_difference"].iloc[0]) if len(nemenyi) else None
            yield from self.diagram.draw_comparison(across.ranks, cd, across.diagram_cliques())
            self.diagram.plot_widget.setMinimumHeight(
                min(self.diagram.minimum_rows_height(), 420))
            for name, frame in self._frames(across):
                self.panels[name].set_frame(frame)
                yield
            self._restyle()
            yield from self._show_report(across)
            self.diagram.setUpdatesEnabled(False)
            yield NEXT_TURN
            self.setUpdatesEnabled(True)
            yield NEXT_TURN
            self.diagram.setUpdatesEnabled(True)
        finally:
            self.setUpdatesEnabled(True)
            self.diagram.setUpdatesEnabled(True)

    def _show_report(self, across):
        """The report, a piece per slice: its structure rendered to HTML
        (:func:`report_pieces`) and inserted into the browser's document one piece at a
        time (the whole report at once took ~100 ms for 12 models; the longest piece, the
        Wilcoxon table, takes ~20 ms)."""
        yield                                   # the tables' slice ends before the text
        pieces = report_pieces(across_document(across))
        yield
        self.report.clear()
        cursor = QTextCursor(self.report.document())
        for number, piece in enumerate(pieces):
            cursor.movePosition(QTextCursor.End)
            if number:
                cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())   # a piece's own
            cursor.insertHtml(piece)
            yield
        self.report.moveCursor(QTextCursor.Start)

    def report_text(self) -> str:
        """The report as shown, in plain text."""
        return self.report.toPlainText()

    @staticmethod
    def _frames(across) -> list:
        models = [str(m) for m in across.ranks[MODEL]]
        tables = across.tables()
        return [("ranks.csv", tables["ranks.csv"]),
                (WIDE_NAME, wide_scores(across.dataset_scores, models)),
                *[(name, tables[name]) for name in ("nemenyi.csv", "wilcoxon.csv",
                                                    "signed_rank.csv", "friedman.csv")]]

    def _show_context(self, benchmark) -> None:
        across, names = benchmark.across, list(benchmark.names)
        shown = "; ".join(escape(n) for n in names[:8]) + ("; …" if len(names) > 8 else "")
        self.context.setText(
            f"All <b>{len(names)} data sets</b> ({shown}) · "
            f"<b>{escape(metric_label(across.metric))}</b>, each model's mean over the "
            f"folds every model completed · α = {across.alpha:g} · correction: "
            f"{escape(across.correction)} · ROPE ±{across.rope:g}")
        self.friedman_label.setText(friedman_words(across.friedman, across.alpha,
                                                   across.min_datasets))
        self.friedman_label.setVisible(bool(self.friedman_label.text()))

    def _restyle(self) -> None:
        if self.benchmark is None:
            return
        across = self.benchmark.across
        alpha = across.alpha
        picked = lambda: set(self.state.selection)  # noqa: E731 - read when painted
        panels = self.panels
        panels["ranks.csv"].model.set_cell_style(ranks_style(picked))
        panels["nemenyi.csv"].model.set_cell_style(
            pairwise_style("p_value", alpha, picked, across.posthoc_interpretable))
        panels["wilcoxon.csv"].model.set_cell_style(
            pairwise_style("p_value_adjusted", alpha, picked, across.decides))
        panels["signed_rank.csv"].model.set_cell_style(signed_rank_style(picked))
        wide = panels[WIDE_NAME]
        wide.model.set_cell_style(wide_style(wide.frame,
                                             best_per_dataset(self.benchmark.across
                                                              .dataset_scores)))

    def _pick(self, names: list) -> None:
        if names:
            self.state.set_selection(list(dict.fromkeys(names)))


#: list items per piece of the report (a long list, one line per pair, in several slices)
LIST_ITEMS_PER_PIECE = 12


def report_pieces(document) -> list:
    """The report (an :class:`engine.output.document.Document`) as pieces of HTML, its title
    an ``<h3>`` and its sections' ``<h4>`` (Qt draws a first-level heading in a size meant
    for a page, not for a panel beside a diagram): the title with the blocks under it, then
    a piece per section, long lists (the Bayesian section's line per pair) cut every
    :data:`LIST_ITEMS_PER_PIECE` items."""
    pieces = [f"<h3>{html_spans(document.title)}</h3>"
              + "".join(map(html_block, document.blocks))]
    for section in document.sections:
        current = f"<h4>{html_spans(section.title)}</h4>"
        for block in section.blocks:
            if not isinstance(block, BulletList):
                current += html_block(block)
                continue
            for start in range(0, len(block.items), LIST_ITEMS_PER_PIECE):
                if start:
                    pieces.append(current)
                    current = ""
                current += html_block(BulletList(
                    block.items[start:start + LIST_ITEMS_PER_PIECE]))
        pieces.append(current)
    return pieces


def host_across_view(tab, state: AppState) -> AcrossView:
    """Add the view to the Results tab ``tab``: its sub-tab is shown only while there is a
    run over several data sets, and a new such run opens it."""
    view = AcrossView(state, tab)
    tab.add_view(TITLE, view)
    views = tab.views

    def follow(benchmark) -> None:
        index = views.indexOf(view)
        if benchmark is None and views.currentWidget() is view:
            views.setCurrentIndex(0)
        views.setTabVisible(index, benchmark is not None)
        if benchmark is not None:
            views.setCurrentWidget(view)

    state.benchmark_changed.connect(follow)
    views.setTabVisible(views.indexOf(view), state.benchmark is not None)
    return view
