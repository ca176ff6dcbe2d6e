"""The report's page: its :class:`~engine.output.document.Document` rendered as one HTML5
page with its style sheet, a table of contents and its sections."""
from __future__ import annotations

from engine.foundation.html_text import html_text
from engine.output.document import Document, Section, html_block, html_spans

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


def page(document: Document) -> str:
    """The whole HTML5 page of ``document``: its title, the blocks under it (the subtitle),
    a table of contents linking each section by its anchor, then the sections. No script
    (a :class:`~engine.output.document.Data` block is data), no external file (the favicon
    is an empty data URL so that a browser asks for none)."""
    title = html_spans(document.title)
    toc = "".join(f'<li><a href="#{html_text(part.anchor)}">{html_spans(part.title)}</a></li>'
                  for part in document.sections)
    return ("<!DOCTYPE html>\n"
            '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<meta name="generator" content="honest-eval">\n'
            '<link rel="icon" href="data:,">\n'
            f"<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f"<header><h1>{title}</h1>{''.join(map(html_block, document.blocks))}"
            f"<nav><ol>{toc}</ol></nav></header>\n<main>\n"
            + "\n".join(map(_section, document.sections)) + "\n</main>\n</body>\n</html>\n")


def _section(part: Section) -> str:
    return (f'<section id="{html_text(part.anchor)}"><h2>{html_spans(part.title)}</h2>'
            + "".join(map(html_block, part.blocks)) + "</section>")
