"""A report as a structure, rendered twice: sections of paragraphs, lists and tables, whose
text is a run of spans (the project's own words, names from data, code, strong), written
once and rendered to Markdown (:func:`to_markdown`) and to HTML (:func:`to_html`). Nothing
is parsed: a name from data is a :class:`Name` to the end, escaped for each output.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from engine.foundation.html_text import html_text
from engine.input.csv_values import visible


@dataclass(frozen=True)
class Name:
    """A value from data or a file (a model, a data set, a note): shown as written."""

    value: object


@dataclass(frozen=True)
class Code:
    """A short literal (a metric's id), shown as code."""

    text: str


@dataclass(frozen=True)
class Strong:
    """A decision: the only emphasis a report has."""

    spans: tuple


#: one piece of a run of text: the project's own words (``str``) or a marked span
Span = Union[str, Name, Code, Strong]


@dataclass(frozen=True)
class Paragraph:
    """A paragraph: a run of spans."""

    spans: tuple


@dataclass(frozen=True)
class BulletList:
    """A list, an item a run of spans."""

    items: tuple


@dataclass(frozen=True)
class Table:
    """A table: ``header`` a run of spans per column, ``rows`` a tuple of rows of runs;
    ``right`` True for a column of numbers (aligned right)."""

    header: tuple
    right: tuple
    rows: tuple


Block = Union[Paragraph, BulletList, Table]


@dataclass(frozen=True)
class Section:
    """A titled section (its title a run of spans) of blocks."""

    title: tuple
    blocks: tuple


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
        return f"`{span.text}`"
    if isinstance(span, Strong):
        return f"**{markdown_spans(span.spans)}**"
    return span


def _markdown_block(block) -> str:
    if isinstance(block, Paragraph):
        return markdown_spans(block.spans)
    if isinstance(block, BulletList):
        return "\n".join(f"- {markdown_spans(item)}" for item in block.items)
    rows = [block.header, *block.rows]
    lines = ["| " + " | ".join(markdown_spans(cell) for cell in row) + " |" for row in rows]
    lines.insert(1, "| " + " | ".join("---:" if r else "---" for r in block.right) + " |")
    return "\n".join(lines)


def to_markdown(document: Document) -> str:
    """The document as Markdown: ``#`` title, ``##`` sections, blocks apart by a blank line,
    pipe tables; names escaped (:func:`markdown_text`)."""
    parts = ["\n\n".join([f"# {markdown_spans(document.title)}",
                          *map(_markdown_block, document.blocks)])]
    parts += ["\n\n".join([f"## {markdown_spans(section.title)}",
                           *map(_markdown_block, section.blocks)])
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
        return f"<code>{html_text(span.text)}</code>"
    if isinstance(span, Strong):
        return f"<strong>{html_spans(span.spans)}</strong>"
    return html_text(span)


def html_block(block) -> str:
    """One block as HTML (a table with a header row, no alignment)."""
    if isinstance(block, Paragraph):
        return f"<p>{html_spans(block.spans)}</p>" if block.spans else ""
    if isinstance(block, BulletList):
        if not block.items:
            return ""
        return "<ul>" + "".join(f"<li>{html_spans(item)}</li>" for item in block.items) + "</ul>"
    head = "".join(f'<th scope="col">{html_spans(cell)}</th>' for cell in block.header)
    body = "".join("<tr>" + "".join(f"<td>{html_spans(cell)}</td>" for cell in row) + "</tr>"
                   for row in block.rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def html_section(section: Section, *, level: int = 4) -> str:
    """A section as HTML: its title an ``<h{level}>``, then its blocks."""
    return (f"<h{level}>{html_spans(section.title)}</h{level}>"
            + "".join(map(html_block, section.blocks)))


def to_html(document: Document, *, level: int = 4) -> str:
    """The document as an HTML fragment without its title (the page around it has one):
    the blocks under the title, then each section with an ``<h{level}>`` heading."""
    return ("".join(map(html_block, document.blocks))
            + "".join(html_section(section, level=level) for section in document.sections))
