"""The one HTML escaper: text from data and files put inside HTML as text, never markup.

There are three escapers in the project, each for its own purpose, and one of each:

* :func:`html_text` (here): ``&``, ``<``, ``>``, ``"`` and ``'`` as entities, for HTML and
  Qt's rich text: the report's pages, tables and SVG figures, and the app's rich labels,
  legends and titles (:func:`gui.plain_text.escape` is this function).
* :func:`engine.output.tables.safe_cell` / :func:`~engine.output.tables.spreadsheet_safe`:
  a CSV cell a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``) gets a
  leading ``'``; for the result tables, exports and the clipboard.
* :func:`engine.foundation.schema.printable` (its helper ``_written_out``): characters
  that are not printable written as Python/JSON escapes (``\\n``, ``\\u2028``), so a
  value quoted in a one-line message (an experiment file's key, a JSON pointer's part)
  shows what it holds.
"""
from __future__ import annotations

import html


def html_text(value, *, quotes: bool = True) -> str:
    """``value`` (any value, as ``str``) made safe as HTML text and inside a quoted
    attribute: ``&``, ``<``, ``>``, ``"`` and ``'`` written as entities, so a browser or Qt
    shows it as it reads.

    Parameters
    ----------
    value : object
        Any value; ``str(value)`` is escaped.
    quotes : bool, default True
        False leaves ``"`` and ``'`` as they are: safe as text between tags, never inside
        an attribute (the app's rich labels, whose text a reader may also copy as it is).

    Returns
    -------
    str
        The escaped text.
    """
    return html.escape(str(value), quote=quotes)
