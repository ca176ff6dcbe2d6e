"""Issue #40, content as structure: the main report is one
:class:`~engine.output.document.Document` (:func:`engine.output.report.build_document`),
rendered to ``report.html`` and ``report.md`` beside it; names from data files are plain
text in both."""
from __future__ import annotations

import html
import json
import re

import numpy as np
import pandas as pd
import pytest

from engine.cli import run as run_cli
from engine.output.document import (Cell, Code, Data, Details, Figure, Name, Paragraph,
                                    Preformatted, Styled, Table, html_block, markdown_text,
                                    to_markdown)
from engine.output.report import build_document, extract_experiment, rendered
from engine.output.report.sections import verdicts

MODEL = '<script>alert("model")</script>'
TARGET = "<script>alert('column')</script>"
LEFT_OUT = "<img src=x onerror=alert(3)>"
ANCHORS = ["verdict", "compared", "results", "tables", "methods", "tripod", "reproduce"]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """A run whose model, target column and a left-out column are HTML: its folder."""
    folder = tmp_path_factory.mktemp("hostile")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(90, 2))
    pd.DataFrame({"a": x[:, 0], "b": x[:, 1], LEFT_OUT: rng.normal(size=90),
                  TARGET: np.where(x[:, 0] + rng.normal(0, 0.5, 90) > 0, "up", "down")}
                 ).to_csv(folder / "d.csv", index=False)
    experiment = {"dataset": {"csv": "d.csv", "target": TARGET, "exclude": [LEFT_OUT]},
                  "models": [{"name": MODEL, "estimator": "GaussianNB"},
                             {"name": "tree", "estimator": "DecisionTreeClassifier",
                              "params": {"max_depth": 2, "random_state": 0}}],
                  "cv": {"n_splits": 3, "n_repeats": 2, "random_state": 0},
                  "metrics": ["accuracy"]}
    (folder / "exp.json").write_text(json.dumps(experiment), encoding="utf-8")
    assert run_cli([str(folder / "exp.json"), "--out", str(folder / "out"), "--quiet"]) == 0
    return folder / "out"


@pytest.fixture(scope="module")
def result():
    from engine.evaluation.experiment import parse_experiment
    from engine.foundation.progress import run_to_end
    from engine.runs.analysis import run_experiment

    return run_to_end(run_experiment(parse_experiment({
        "dataset": {"builtin": "iris"},
        "models": [{"name": "nb", "estimator": "GaussianNB"},
                   {"name": "tree", "estimator": "DecisionTreeClassifier",
                    "params": {"max_depth": 1, "random_state": 0}}],
        "cv": {"n_splits": 3, "n_repeats": 2, "random_state": 0},
        "metrics": ["accuracy"]})))


def _outside_fences(markdown: str) -> str:
    return re.sub(r"^(`{3,})\n.*?^\1$", "", markdown, flags=re.S | re.M)


# --------------------------------------------------------------------------- structure
def test_the_document_has_its_sections_in_reading_order(result):
    document = build_document(result, written="2026-01-01T00:00:00+00:00")
    assert [section.anchor for section in document.sections] == ANCHORS
    assert [section.title for section in document.sections][0] == (
        "Verdict and what it does not say",)
    assert document.title == ("Comparison of 2 models on ", Name("iris"))
    assert document.blocks[0].css == "subtitle"


def test_the_verdict_section_states_each_mean_and_each_pairs_outcome(result):
    verdict = build_document(result).sections[0].blocks
    short, ranking = verdict[0], verdict[1]
    assert short.css == "short" and str(short.spans[0].value).startswith("In short")
    summary = result.summary[result.summary["metric"] == "accuracy"].sort_values("rank")
    shown = "".join(span if isinstance(span, str) else str(span.value)
                    for span in ranking.spans)
    for row in summary.to_dict("records"):
        assert (f"{row['model']}: {row['mean']:.4g} (interval {row['ci_low']:.4g} to "
                f"{row['ci_high']:.4g})") in shown
    pairs = next(block for block in verdict if getattr(block, "css", "") == "verdicts")
    expected = [f"outcome {v.outcome}" for _, _, v in verdicts(result)]
    assert [item[0].css for item in pairs.items] == expected
    assert all(isinstance(item[0], Styled) for item in pairs.items)


def test_every_table_is_folded_under_its_name_with_its_rows(result):
    tables = result.tables()
    blocks = build_document(result, tables=tables).sections[3].blocks
    folded = [block for block in blocks if isinstance(block, Details)]
    assert sorted(block.summary[0] for block in folded) == sorted(tables)
    summary = next(block for block in folded if block.summary[0] == "summary.csv")
    assert summary.opened and summary.summary[1] == f" ({len(tables['summary.csv']):,} rows)"
    table = summary.blocks[0]
    assert table.file == "summary.csv" and len(table.rows) == len(tables["summary.csv"])


# --------------------------------------------------------------------------- renderings
def test_one_run_writes_report_md_beside_report_html_from_one_structure(hostile):
    page = (hostile / "report.html").read_text(encoding="utf-8")
    markdown = (hostile / "report.md").read_text(encoding="utf-8")
    manifest = json.loads((hostile / "run.json").read_text(encoding="utf-8"))
    assert {"report.html", "report.md"} <= set(manifest["tables"])
    h2 = [html.unescape(t) for t in re.findall(r'<section id="[^"]+"><h2>(.*?)</h2>', page)]
    assert h2 == re.findall(r"^## (.*)$", markdown, flags=re.M)
    assert re.findall(r'<section id="([^"]+)">', page) == ANCHORS
    assert page.count("<figure") == markdown.count("*Figure:* ") > 0
    summary = pd.read_csv(hostile / "summary.csv")
    for row in summary.to_dict("records"):       # a row of summary.csv as a Markdown row
        assert f"| {row['mean']:.4g} |" in markdown
    assert extract_experiment(page)["models"][0]["name"] == MODEL


def test_names_from_files_are_plain_text_in_both_reports(hostile):
    page = (hostile / "report.html").read_text(encoding="utf-8")
    markdown = (hostile / "report.md").read_text(encoding="utf-8")
    assert page.count("<script") == 1                 # the experiment, as data
    assert '<script type="application/json" id="experiment">' in page
    assert "<img" not in page and "alert(3)>" not in page
    for name in (MODEL, TARGET, LEFT_OUT):
        assert html.escape(name) in page, name
        assert markdown_text(name) in markdown, name
    prose = _outside_fences(markdown)
    assert re.findall(r"(?<!\\)<", prose) == []      # every < of a name escaped
    assert f'"name": "{MODEL.replace(chr(34), chr(92) + chr(34))}"' in markdown   # fenced


def test_the_same_structure_renders_both_files(result):
    document = build_document(result, written="2026-01-01T00:00:00+00:00")
    files = rendered(document)
    assert files["report.md"] == to_markdown(document)
    assert files["report.html"].startswith("<!DOCTYPE html>")
    assert "written 2026-01-01T00:00:00+00:00 by honest-eval." in files["report.md"]


# --------------------------------------------------------------------------- the blocks
def test_the_report_blocks_in_html_and_markdown():
    table = Table((("model",), ("mean",)), (False, True),
                  (((Name("a|b"),), (Name("0.5"),)), ((Name("c"),), Cell(("-",), "na"))),
                  caption=(Code("summary.csv"),), file="summary.csv")
    assert html_block(table) == (
        '<div class="table-wrap"><table data-file="summary.csv"><caption><code>summary.csv'
        '</code></caption><thead><tr><th scope="col">model</th><th scope="col">mean</th>'
        '</tr></thead><tbody><tr><td>a|b</td><td class="num">0.5</td></tr><tr><td>c</td>'
        '<td class="na">-</td></tr></tbody></table></div>')
    assert to_markdown_blocks(table) == ("`summary.csv`\n\n| model | mean |\n| --- | ---: |\n"
                                         "| a\\|b | 0.5 |\n| c | - |")
    figure = Figure("<svg/>", (Name("x<y"),), "narrow")
    assert html_block(figure) == ('<figure class="narrow"><svg/><figcaption>x&lt;y'
                                  "</figcaption></figure>")
    assert to_markdown_blocks(figure) == "*Figure:* x\\<y"
    folded = Details(("t.csv",), (Paragraph(("p",)),), opened=True)
    assert html_block(folded) == "<details open><summary>t.csv</summary><p>p</p></details>"
    assert to_markdown_blocks(folded) == "**t.csv**\n\np"


def test_text_shown_as_written_cannot_leave_its_block():
    fenced = to_markdown_blocks(Preformatted('{"a": "```</pre>\u202e"}', "experiment"))
    assert fenced.split("\n")[0] == "````" and fenced.split("\n")[-1] == "````"
    assert "\\u202e" in fenced
    assert html_block(Preformatted("</pre><b>", "x")) == '<pre class="x">&lt;/pre&gt;&lt;b&gt;</pre>'
    data = html_block(Data("experiment", {"name": "</script><b>&"}))
    assert data.count("</script>") == 1 and "\\u003c/script\\u003e\\u003cb\\u003e\\u0026" in data
    assert to_markdown_blocks(Data("experiment", {})) == ""
    assert to_markdown_blocks(Paragraph((Code("a`b"),))) == "``a`b``"


def to_markdown_blocks(block) -> str:
    """One block as Markdown (a document of it alone, its title line taken off)."""
    from engine.output.document import Document

    text = to_markdown(Document(("t",), (block,), ()))
    return text.removeprefix("# t").strip("\n")
