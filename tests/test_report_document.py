"""The across-data-set report as a structure (:mod:`engine.output.document`): rendered to
``report.md`` byte for byte as the Markdown writer wrote it before, to HTML equal to what
the Markdown parser made of it, and names from data shown as written in both."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engine.output.document import (BulletList, Code, Document, Name, Paragraph, Section,
                                    Strong, Table, to_html, to_markdown)
from engine.runs.across import compare_across
from engine.runs.across.report import across_document

GOLDEN = Path(__file__).parent / "data" / "across_report"
HOSTILE_SET = "<script>alert(1)</script>"


def _tidy(matrix, datasets, models) -> pd.DataFrame:
    return pd.DataFrame([(d, m, matrix[i, j]) for i, d in enumerate(datasets)
                         for j, m in enumerate(models)], columns=["dataset", "model", "mean"])


def case(name: str):
    """A comparison across data sets for each golden file (the same numbers every time)."""
    rng = np.random.default_rng({"decisions": 3, "record": 4, "hostile": 5}[name])
    if name == "decisions":          # winners, an equivalence, Holm, names with * < > |
        matrix = rng.uniform(0.6, 0.7, (20, 4)) + [0, 0.05, 0.1, 0.101]
        models, kwargs = ["base", "mid*", "top<1>", "top|2"], {}
    elif name == "record":           # 3 data sets: no decision, pairs "for the record"
        matrix = rng.uniform(0.0, 0.01, (3, 5)) + np.linspace(0, 0.5, 5)
        models, kwargs = [f"m{j}" for j in range(5)], {"correction": "bonferroni"}
    else:                            # a data set named <script>, one with * and |; a note
        matrix = rng.uniform(0.6, 0.9, (10, 4))
        matrix[:, 1] += 0.1
        matrix[2, 3] = np.nan
        models, kwargs = ["good", "better*", "x|y", "n<a>n"], {"rope": 0.0}
    datasets = [f"data{i}" for i in range(len(matrix))]
    if name == "hostile":
        datasets[2], datasets[3] = HOSTILE_SET, "a*b|c_d"
    return compare_across(_tidy(matrix, datasets, models), metric="roc_auc", n_samples=2000,
                          **kwargs)


@pytest.fixture(scope="module", params=["decisions", "record", "hostile"])
def golden(request):
    name = request.param
    return (case(name), (GOLDEN / f"{name}.md").read_bytes().decode("utf-8"),
            (GOLDEN / f"{name}.html").read_bytes().decode("utf-8"))


def test_report_md_is_byte_identical_to_the_markdown_writer(golden):
    """The golden files were written by the Markdown writer and parser this structure
    replaced (commit 7db01bd), on these same comparisons."""
    result, markdown, _html = golden
    assert result.report() == markdown
    assert to_markdown(across_document(result)) == markdown


def test_the_html_equals_what_the_markdown_parser_made(golden):
    result, _markdown, html = golden
    assert to_html(across_document(result)) == html


def test_golden_files_hold_what_they_are_meant_to():
    decisions = (GOLDEN / "decisions.md").read_text("utf-8")
    assert "**top\\<1\\> is better than base by more than the ROPE.**" in decisions
    assert "| mid\\* |" in decisions and "| top\\|2 |" in decisions
    assert "for the record" in (GOLDEN / "record.md").read_text("utf-8")
    assert "data set '\\<script\\>alert(1)\\</script\\>'" in \
        (GOLDEN / "hostile.md").read_text("utf-8")


def test_hostile_names_are_text_in_the_html():
    result = case("hostile")
    html = to_html(across_document(result))
    assert "<script" not in html and "<a>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "n&lt;a&gt;n" in html and "x|y" in html and "better*" in html
    assert "\\" not in html                       # no Markdown escape shows through
    ranks = html.split("<table>")[1].split("</table>")[0]
    assert ranks.count("<tr>") == 1 + 4            # header and one row per model
    assert all(row.count("<td>") == 4 for row in ranks.split("<tr>")[2:])


def test_the_renderers_on_a_small_document():
    """Every block and span, both renderers, by hand."""
    document = Document(
        ("Title ", Name("a*b")), (Paragraph(("Metric (", Code("roc_auc"), ") p < 0.05")),),
        (Section(("One",), (Paragraph(("x ", Strong((Name("<b>"), " wins")), "."),),
                            BulletList((("i",), (Name("|"),))))),
         Section(("Two",), (Table((("n",), ("v",)), (False, True),
                                  (((Name("a|b"),), ("1",)),)),))))
    assert to_markdown(document) == (
        "# Title a\\*b\n\nMetric (`roc_auc`) p < 0.05\n\n## One\n\nx **\\<b\\> wins**.\n\n"
        "- i\n- \\|\n\n## Two\n\n| n | v |\n| --- | ---: |\n| a\\|b | 1 |\n")
    assert to_html(document) == (
        "<p>Metric (<code>roc_auc</code>) p &lt; 0.05</p><h4>One</h4>"
        "<p>x <strong>&lt;b&gt; wins</strong>.</p><ul><li>i</li><li>|</li></ul>"
        '<h4>Two</h4><table><thead><tr><th scope="col">n</th><th scope="col">v</th></tr>'
        "</thead><tbody><tr><td>a|b</td><td>1</td></tr></tbody></table>")


def test_invisible_characters_in_a_name_are_written_out_in_both():
    document = Document((Name("a\u202eb\nc"),), (), ())
    # written out, then the backslash escaped: Markdown shows a\u202eb\nc on one line
    assert to_markdown(document) == "# a\\\\u202eb\\\\nc\n"
    assert to_html(Document(("t",), (Paragraph((Name("a\u202eb"),)),), ())) == \
        "<p>a\\u202eb</p>"
