"""The report's page: the HTML5 document, its style sheet, its sections, and the
across-data-set ``report.md`` shown as HTML."""
from __future__ import annotations

import re

from engine.foundation.html_text import html_text
from engine.input.csv_values import visible
from engine.output.report.svg import text

STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:60rem;
margin:0 auto;padding:1rem 1.5rem 4rem;color:#1a1a1a;line-height:1.45}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{border-bottom:2px solid #0072B2;
padding-bottom:.2rem;margin-top:2.2rem}h3{margin-top:1.4rem}
.subtitle{color:#444;margin-top:0}nav ol{columns:2;padding-left:1.2rem}
table{border-collapse:collapse;font-size:.85rem;margin:.4rem 0}
th,td{border:1px solid #ccc;padding:.15rem .45rem;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}thead th{background:#f0f4f8}
caption{text-align:left;font-size:.8rem;color:#444;padding:.2rem 0}
.table-wrap{overflow-x:auto}details{margin:.3rem 0}summary{cursor:pointer;font-weight:600}
figure{margin:1rem 0}figcaption{font-size:.85rem;color:#333;max-width:40rem}
figure.narrow{display:inline-block;vertical-align:top;width:420px;margin-right:1.5rem}
svg{max-width:100%;height:auto}dl{display:grid;grid-template-columns:max-content auto;
gap:.2rem 1rem}dt{font-weight:600}dd{margin:0}
.verdicts li{margin-bottom:.5rem}.outcome{font-weight:700}.outcome.better,
.outcome.worse{color:#0b6e4f}.outcome.equivalent{color:#0072B2}
.outcome.undecided,.outcome.insufficient{color:#9a5b00}
.code{color:#777;font-size:.8rem}td.na{color:#9a5b00}
pre{background:#f6f6f6;padding:.6rem;overflow-x:auto;font-size:.8rem}
.note{font-size:.9rem;color:#444}
.short{font-size:1.05rem;font-weight:600;background:#f0f4f8;padding:.5rem .7rem;
border-left:4px solid #0072B2}
@media print{details{display:block}summary{display:none}}
"""


def section(anchor: str, title: str, body: str) -> str:
    """One numbered section of the page."""
    return f'<section id="{anchor}"><h2>{text(title)}</h2>{body}</section>'


def document(title: str, subtitle_html: str, sections: list) -> str:
    """The whole HTML5 page: no script, no external file (the favicon is an empty data
    URL so that a browser asks for none)."""
    toc = "".join(f'<li><a href="#{_anchor(part)}">{_heading(part)}</a></li>'
                  for part in sections)
    return ("<!DOCTYPE html>\n"
            '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<meta name="generator" content="honest-eval">\n'
            '<link rel="icon" href="data:,">\n'
            f"<title>{text(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f"<header><h1>{text(title)}</h1><p class=\"subtitle\">{subtitle_html}</p>"
            f"<nav><ol>{toc}</ol></nav></header>\n<main>\n"
            + "\n".join(sections) + "\n</main>\n</body>\n</html>\n")


def _anchor(part: str) -> str:
    found = re.match(r'<section id="([^"]+)"', part)
    return found.group(1) if found else ""


def _heading(part: str) -> str:
    found = re.search(r"<h2>(.*?)</h2>", part)
    return found.group(1) if found else ""


_INLINE = re.compile(r"\\([\\`*_\[\]<>!|~&$])|`([^`]*)`|(\*\*)")


def inline_markdown(line: str) -> str:
    """One line of the app's Markdown as HTML: backslash escapes undone, code spans and
    bold kept; everything else escaped text."""
    out, bold, last = [], False, 0
    for match in _INLINE.finditer(line):
        out.append(html_text(line[last:match.start()]))
        if match.group(1) is not None:
            out.append(html_text(match.group(1)))
        elif match.group(2) is not None:
            out.append(f"<code>{html_text(match.group(2))}</code>")
        else:
            out.append("</strong>" if bold else "<strong>")
            bold = not bold
        last = match.end()
    out.append(html_text(line[last:]))
    return "".join(out) + ("</strong>" if bold else "")


def markdown_html(markdown: str) -> str:
    """The across-data-set report's Markdown (:mod:`engine.runs.across.report`: headings,
    paragraphs, lists, pipe tables) as HTML; its title is left out (the page has one)."""
    lines = [visible(line) for line in markdown.replace("\r\n", "\n").split("\n")]
    blocks, out = re.split(r"\n\s*\n", "\n".join(lines).strip()), []
    for block in blocks:
        lines = [line for line in block.split("\n") if line.strip()]
        if not lines:
            continue
        if lines[0].startswith("# "):
            continue
        if lines[0].startswith("#"):
            out.append(f"<h4>{inline_markdown(lines[0].lstrip('#').strip())}</h4>")
            lines = lines[1:]
        if lines and all(line.lstrip().startswith("|") for line in lines):
            out.append(_pipe_table(lines))
        elif lines and all(line.startswith("- ") for line in lines):
            out.append("<ul>" + "".join(f"<li>{inline_markdown(line[2:])}</li>"
                                        for line in lines) + "</ul>")
        elif lines:
            out.append(f"<p>{inline_markdown(' '.join(lines))}</p>")
    return "".join(out)


def _pipe_table(lines: list) -> str:
    rows = [_cells(line) for line in lines if not re.fullmatch(r"[\s|:-]+", line)]
    head = "".join(f'<th scope="col">{inline_markdown(c)}</th>' for c in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{inline_markdown(c)}</td>" for c in row) + "</tr>"
                   for row in rows[1:])
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _cells(line: str) -> list:
    """The cells of a pipe-table row (a ``\\|`` inside a cell is not a separator)."""
    inner = line.strip()[1:-1] if line.strip().endswith("|") else line.strip()[1:]
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", inner)]
