"""A report as a structure, rendered twice: sections of paragraphs, lists and tables, whose
text is a run of spans (the project's own words, names from data, code, strong), written
once and rendered to Markdown (:func:`to_markdown`) and to HTML (:func:`to_html`). Nothing
is parsed: a name from data is a :class:`Name` to the end, escaped for each output.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Union

from engine.foundation.html_text import html_text
from engine.input.csv_values import visible


@dataclass(frozen=True)
class Name:
    """A value from data or a file (a model, a data set, a note), or a sentence that holds
    one: shown as written, escaped whole by each renderer."""

    value: object


@dataclass(frozen=True)
class Code:
    """A short literal (a metric's id), shown as code."""

    text: str


@dataclass(frozen=True)
class Strong:
    """A decision: the only emphasis a report has."""

    spans: tuple


@dataclass(frozen=True)
class Styled:
    """A run of spans with a look of its own in HTML (``css``: class names such as
    ``outcome better``, the verdict's colour); Markdown shows the spans alone."""

    css: str
    spans: tuple


#: one piece of a run of text: the project's own words (``str``) or a marked span
Span = Union[str, Name, Code, Strong, Styled]


@dataclass(frozen=True)
class Paragraph:
    """A paragraph: a run of spans (``css``: its class in HTML, such as ``note``)."""

    spans: tuple
    css: str = ""


@dataclass(frozen=True)
class BulletList:
    """A list, an item a run of spans; ``ordered`` numbers it, ``ids`` anchors its items
    in HTML (one id per item, or none), ``css`` its class in HTML."""

    items: tuple
    ordered: bool = False
    ids: tuple = ()
    css: str = ""


@dataclass(frozen=True)
class Cell:
    """A table cell with a class in HTML (``na``: a "not assessed" cell)."""

    spans: tuple
    css: str = ""


@dataclass(frozen=True)
class Table:
    """A table: ``header`` a run of spans per column, ``rows`` a tuple of rows of runs (or
    :class:`Cell`); ``right`` True for a column of numbers (aligned right).

    For HTML: ``caption`` a run of spans above it; ``file`` the result table it shows (the
    table wrapped to scroll, marked ``data-file``, its numbers' cells of class ``num``);
    ``css`` its class; ``row_headers`` makes each row's first cell its header; without
    ``show_header`` the header row is left out (Markdown needs it and keeps it)."""

    header: tuple
    right: tuple
    rows: tuple
    caption: tuple = ()
    file: str = ""
    css: str = ""
    row_headers: bool = False
    show_header: bool = True


@dataclass(frozen=True)
class Heading:
    """A heading inside a section: ``level`` 3 or deeper, its title a run of spans."""

    level: int
    spans: tuple


@dataclass(frozen=True)
class DefinitionList:
    """Terms and what they are: ``rows`` a tuple of ``(term run, description run)``."""

    rows: tuple


@dataclass(frozen=True)
class Figure:
    """A plot: ``svg`` the ``<svg>`` text the project drew (its own text escaped where it
    was drawn, :mod:`engine.output.report.svg`), ``caption`` a run of spans, ``css`` its
    class in HTML (``wide`` or ``narrow``). Markdown names it by its caption."""

    svg: str
    caption: tuple
    css: str = "wide"


@dataclass(frozen=True)
class Details:
    """A block folded in HTML under a ``summary`` (a run of spans), ``opened`` or not;
    in Markdown its summary in bold, then its blocks."""

    summary: tuple
    blocks: tuple
    opened: bool = False


@dataclass(frozen=True)
class Preformatted:
    """Text shown as written, line by line (the experiment file), ``css`` its class."""

    text: str
    css: str = ""


@dataclass(frozen=True)
class Data:
    """A value embedded for tools (HTML only): JSON in a ``<script
    type="application/json">`` with the id ``ident``, never run; ``<``, ``>`` and ``&``
    written as ``\\u`` escapes so that it cannot end its block."""

    ident: str
    value: object


Block = Union[Paragraph, BulletList, Table, Heading, DefinitionList, Figure, Details,
              Preformatted, Data]


@dataclass(frozen=True)
class Section:
    """A titled section (its title a run of spans) of blocks; ``anchor`` its id in HTML."""

    title: tuple
    blocks: tuple
    anchor: str = ""


@dataclass(frozen=True)
class Document:
    """A title, the blocks under it, and the sections."""

    title: tuple
    blocks: tuple
    sections: tuple


def spans(*parts) -> tuple:
    """A run of spans from ``parts``: each a span, or a run (tuple or list) spliced in;
    empty words are dropped."""
    out: list = []
    for part in parts:
        if isinstance(part, (tuple, list)):
            out.extend(spans(*part))
        elif part != "":
            out.append(part)
    return tuple(out)


# --------------------------------------------------------------------------- Markdown
#: Characters that can start Markdown or HTML markup inside a line (links and images
#: need ``[``, raw HTML and autolinks ``<``, entities ``&``; emphasis, code, tables,
#: strikethrough, maths); a name's are escaped with a backslash.
_MARKUP = re.compile(r"([\\`*_\[\]<>!|~&$])")


def markdown_text(value) -> str:
    """A name (model, class, data set) or a note as plain text in Markdown: invisible
    characters written out (:func:`engine.input.csv_values.visible`) and every character that
    could start markup escaped, so ``<img src=x onerror=...>`` or ``[x](javascript:...)``
    is shown as written, never rendered."""
    return _MARKUP.sub(r"\\\1", visible(str(value)))


def markdown_spans(run) -> str:
    """A run of spans as Markdown."""
    return "".join(_markdown_span(span) for span in run)


def _markdown_span(span) -> str:
    if isinstance(span, Name):
        return markdown_text(span.value)
    if isinstance(span, Code):
        return markdown_code(span.text)
    if isinstance(span, Strong):
        return f"**{markdown_spans(span.spans)}**"
    if isinstance(span, Styled):
        return markdown_spans(span.spans)
    return span


def markdown_code(text: str) -> str:
    """``text`` as a Markdown code span, shown as written: invisible characters written out
    and fenced by one backtick more than its longest run of them (padded by a space where
    it starts or ends with one), so a backtick in it cannot end the span."""
    text = visible(text)
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _cell_spans(cell) -> tuple:
    return cell.spans if isinstance(cell, Cell) else cell


def _markdown_list(block: BulletList) -> str:
    marks = [f"{i}." if block.ordered else "-" for i in range(1, len(block.items) + 1)]
    return "\n".join(f"{mark} {markdown_spans(item)}" for mark, item in zip(marks, block.items))


def _markdown_table(block: Table) -> str:
    rows = [block.header, *block.rows]
    lines = ["| " + " | ".join(markdown_spans(_cell_spans(cell)) for cell in row) + " |"
             for row in rows]
    lines.insert(1, "| " + " | ".join("---:" if r else "---" for r in block.right) + " |")
    caption = markdown_spans(block.caption)
    return "\n".join(lines) if not caption else caption + "\n\n" + "\n".join(lines)


def _markdown_fenced(text: str) -> str:
    """``text`` in a fenced code block whose fence is longer than any run of backticks in
    it, each line made visible: shown as written, never rendered."""
    lines = [visible(line) for line in text.split("\n")]
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return "\n".join([fence, *lines, fence])


def _markdown_block(block) -> str:
    if isinstance(block, Paragraph):
        return markdown_spans(block.spans)
    if isinstance(block, BulletList):
        return _markdown_list(block)
    if isinstance(block, Heading):
        return f"{'#' * block.level} {markdown_spans(block.spans)}"
    if isinstance(block, DefinitionList):
        return "\n".join(f"- **{markdown_spans(term)}**: {markdown_spans(value)}"
                         for term, value in block.rows)
    if isinstance(block, Figure):
        return f"*Figure:* {markdown_spans(block.caption)}"
    if isinstance(block, Details):
        return _markdown_blocks([Paragraph((Strong(block.summary),)), *block.blocks])
    if isinstance(block, Preformatted):
        return _markdown_fenced(block.text)
    if isinstance(block, Data):
        return ""
    return _markdown_table(block)


def _markdown_blocks(blocks) -> str:
    """Blocks apart by a blank line; a block with nothing to show left out."""
    return "\n\n".join(text for text in map(_markdown_block, blocks) if text)


def to_markdown(document: Document) -> str:
    """The document as Markdown: ``#`` title, ``##`` sections, blocks apart by a blank line,
    pipe tables; names escaped (:func:`markdown_text`)."""
    parts = ["\n\n".join(filter(None, [f"# {markdown_spans(document.title)}",
                                        _markdown_blocks(document.blocks)]))]
    parts += ["\n\n".join(filter(None, [f"## {markdown_spans(section.title)}",
                                         _markdown_blocks(section.blocks)]))
              for section in document.sections]
    return "\n\n".join(parts) + "\n"


# --------------------------------------------------------------------------- HTML
def html_spans(run) -> str:
    """A run of spans as HTML text: every word and name escaped by
    :func:`~engine.foundation.html_text.html_text`, names made visible first."""
    return "".join(_html_span(span) for span in run)


def _html_span(span) -> str:
    if isinstance(span, Name):
        return html_text(visible(str(span.value)))
    if isinstance(span, Code):
        return f"<code>{html_text(visible(span.text))}</code>"
    if isinstance(span, Strong):
        return f"<strong>{html_spans(span.spans)}</strong>"
    if isinstance(span, Styled):
        return f'<span class="{html_text(span.css)}">{html_spans(span.spans)}</span>'
    return html_text(span)


def _css(css: str) -> str:
    return f' class="{html_text(css)}"' if css else ""


def _anchor(ident: str) -> str:
    return f' id="{html_text(ident)}"' if ident else ""


def _html_list(block: BulletList) -> str:
    if not block.items:
        return ""
    tag = "ol" if block.ordered else "ul"
    ids = block.ids or ("",) * len(block.items)
    items = "".join(f"<li{_anchor(ident)}>{html_spans(item)}</li>"
                    for ident, item in zip(ids, block.items))
    return f"<{tag}{_css(block.css)}>{items}</{tag}>"


def _html_cell(block: Table, column: int, cell) -> str:
    if block.row_headers and column == 0:
        return f'<th scope="row">{html_spans(_cell_spans(cell))}</th>'
    css = cell.css if isinstance(cell, Cell) else ""
    if not css and block.file and block.right[column]:
        css = "num"
    return f"<td{_css(css)}>{html_spans(_cell_spans(cell))}</td>"


def _html_table(block: Table) -> str:
    head = "".join(f'<th scope="col">{html_spans(cell)}</th>' for cell in block.header)
    head = f"<thead><tr>{head}</tr></thead>" if block.show_header else ""
    body = "".join("<tr>" + "".join(_html_cell(block, i, cell) for i, cell in enumerate(row))
                   + "</tr>" for row in block.rows)
    caption = f"<caption>{html_spans(block.caption)}</caption>" if block.caption else ""
    data = f' data-file="{html_text(block.file)}"' if block.file else ""
    table = f"<table{_css(block.css)}{data}>{caption}{head}<tbody>{body}</tbody></table>"
    return f'<div class="table-wrap">{table}</div>' if block.file else table


def _html_data(block: Data) -> str:
    machine = json.dumps(block.value, indent=2, ensure_ascii=True)
    for character, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        machine = machine.replace(character, escape)
    return f'<script type="application/json" id="{html_text(block.ident)}">{machine}</script>'


def _html_other(block) -> str:
    if isinstance(block, Heading):
        return f"<h{block.level}>{html_spans(block.spans)}</h{block.level}>"
    if isinstance(block, DefinitionList):
        return "<dl>" + "".join(f"<dt>{html_spans(term)}</dt><dd>{html_spans(value)}</dd>"
                                for term, value in block.rows) + "</dl>"
    if isinstance(block, Figure):
        return (f"<figure{_css(block.css)}>{block.svg}<figcaption>"
                f"{html_spans(block.caption)}</figcaption></figure>")
    if isinstance(block, Details):
        return (f"<details{' open' if block.opened else ''}><summary>"
                f"{html_spans(block.summary)}</summary>"
                + "".join(map(html_block, block.blocks)) + "</details>")
    if isinstance(block, Preformatted):
        lines = "\n".join(html_text(visible(line)) for line in block.text.split("\n"))
        return f"<pre{_css(block.css)}>{lines}</pre>"
    if isinstance(block, Data):
        return _html_data(block)
    return _html_table(block)


def html_block(block) -> str:
    """One block as HTML (a table with a header row, aligned only as a result table)."""
    if isinstance(block, Paragraph):
        return f"<p{_css(block.css)}>{html_spans(block.spans)}</p>" if block.spans else ""
    if isinstance(block, BulletList):
        return _html_list(block)
    return _html_other(block)


def html_section(section: Section, *, level: int = 4) -> str:
    """A section as HTML: its title an ``<h{level}>``, then its blocks."""
    return (f"<h{level}>{html_spans(section.title)}</h{level}>"
            + "".join(map(html_block, section.blocks)))


def to_html(document: Document, *, level: int = 4) -> str:
    """The document as an HTML fragment without its title (the page around it has one):
    the blocks under the title, then each section with an ``<h{level}>`` heading."""
    return ("".join(map(html_block, document.blocks))
            + "".join(html_section(section, level=level) for section in document.sections))
