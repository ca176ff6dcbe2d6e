"""The Across view's report: the structure of :mod:`engine.runs.across.report` rendered to
HTML (no Markdown read), names from data shown as written, decisions in bold."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from PySide6.QtGui import QFont

from engine.output.document import BulletList
from engine.runs.across.report import across_document
from gui.state import AppState
from gui.views.across_view import LIST_ITEMS_PER_PIECE, AcrossView, report_pieces
from tests.test_report_document import HOSTILE_SET, case


@pytest.fixture
def view(qtbot, qapp):
    state = AppState()
    widget = AcrossView(state)
    qtbot.addWidget(widget)
    yield widget
    state.renderer.flush()
    state.deleteLater()


def show(view, across):
    """Draw ``across`` in the view as the render queue would, to the end."""
    names = sorted(set(across.dataset_scores["dataset"]))
    for _ in view.draw(SimpleNamespace(across=across, names=names)):
        pass


def test_the_view_shows_the_report_with_hostile_names_as_text(view):
    across = case("hostile")
    show(view, across)
    text = view.report_text()
    assert text.startswith("Comparison of 4 models across 9 data sets\n")
    assert f"data set '{HOSTILE_SET}' is left out" in text
    for name in ("better*", "x|y", "n<a>n"):
        assert f"{name} against" in text or f"against {name}" in text
    assert "\\" not in text                                # no Markdown escape shows
    assert "**" not in text and "| ---" not in text         # nor Markdown markup
    html = view.report.toHtml()
    assert "<script" not in html and "&lt;script&gt;" in html
    document = view.report.document()
    decision = document.find("at least some models differ")
    assert not decision.isNull()
    assert decision.charFormat().fontWeight() >= QFont.Bold
    friedman = document.find("Friedman chi²")
    assert friedman.charFormat().fontWeight() < QFont.Bold
    ranks = document.rootFrame().childFrames()[0]           # the ranks table
    assert (ranks.rows(), ranks.columns()) == (5, 4)


def test_long_lists_come_in_pieces_and_every_item_is_shown(view):
    across = case("decisions")
    document = across_document(across)
    pieces = report_pieces(document)
    assert len(pieces) == 1 + len(document.sections)        # 6 pairs: no list is cut
    assert pieces[0].startswith("<h3>Comparison of 4 models across 20 data sets</h3><p>")
    many = SimpleNamespace(title=("t",), blocks=(), sections=(SimpleNamespace(
        title=("s",), blocks=(BulletList(tuple((f"item {i}",) for i in range(30))),)),))
    cut = report_pieces(many)
    assert len(cut) == 1 + 3 and [p.count("<li>") for p in cut[1:]] == [12, 12, 6]
    assert LIST_ITEMS_PER_PIECE == 12
    show(view, across)
    text = view.report_text()
    for pair in across.signed_rank.itertuples(index=False):
        assert f"{pair.model_1} against {pair.model_2}: P(" in text
    found = view.report.document().find("top<1> is better than base by more than the ROPE.")
    assert found.charFormat().fontWeight() >= QFont.Bold
