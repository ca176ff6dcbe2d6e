"""Parameter help read from an estimator's docstring with numpydoc's parser.

The Models tab shows, for each constructor parameter of a catalogue estimator, its type
line and the first sentence of its description (``"(float, default=1.0) Inverse of
regularization strength; must be a positive float."``), and offers the words of a type
such as ``{'linear', 'poly', 'rbf'}`` as choices. Both come from the ``Parameters``
section as :class:`numpydoc.docscrape.NumpyDocString` reads it, not from patterns over
the text; the help is plain text of at most :data:`MAX_HELP_CHARS` characters.
"""
from __future__ import annotations

import ast
import inspect
import warnings
from typing import Any

from numpydoc.docscrape import NumpyDocString, ParseError

#: The longest help text of one parameter (characters; longer is cut with "…").
MAX_HELP_CHARS = 300
#: A sentence ends at a full stop after at least this many characters (so that "e.g."
#: or "i.e." at the start does not end it).
MIN_SENTENCE_CHARS = 20


def parameter_help(cls) -> dict:
    """Each documented constructor parameter of ``cls`` -> ``(type line, help text)``.

    Parameters
    ----------
    cls : type
        A scikit-learn estimator class (its docstring in numpydoc's format).

    Returns
    -------
    dict
        ``{name: (type, help)}``: ``type`` as the docstring writes it (``"bool,
        default=False"``), ``help`` ``"(type) first sentence"``, plain text of at most
        :data:`MAX_HELP_CHARS` characters. Empty when the class has no Parameters section,
        or a docstring numpydoc cannot read (the help is missing, the setup still checks).
    """
    try:
        with warnings.catch_warnings():          # "Unknown section ...": nothing to tell
            warnings.simplefilter("ignore")
            parsed = NumpyDocString(inspect.getdoc(cls) or "")
    except (ValueError, ParseError):
        return {}
    found = {}
    for parameter in parsed["Parameters"]:
        kind = " ".join(parameter.type.split())
        help_text = f"({kind}) {first_sentence(parameter.desc)}".strip()
        for name in parameter.name.split(","):        # "a, b : int" documents two
            found[name.strip()] = (kind, bounded(help_text))
    return found


def first_sentence(lines: list) -> str:
    """The first sentence of a description, on one line: up to the first full stop that
    ends a sentence, or the text before the first directive (``.. versionadded::``) when
    none does (a list after "values:" reads on to its first item's full stop)."""
    kept = []
    for line in lines:
        if line.strip().startswith(".."):
            break
        kept.append(line)
    text = " ".join(" ".join(kept).split())
    for i, char in enumerate(text):
        if char == "." and i >= MIN_SENTENCE_CHARS and (i + 1 == len(text) or text[i + 1] == " "):
            return text[: i + 1]
    return text


def bounded(text: str) -> str:
    """``text`` cut to :data:`MAX_HELP_CHARS` characters, ending in "…" when cut."""
    return text if len(text) <= MAX_HELP_CHARS else text[: MAX_HELP_CHARS - 1] + "…"


def documented_default(kind: str, fallback):
    """The default a type line states (``"bool, default=False"`` -> False), for a parameter
    whose signature shows a placeholder such as ``'deprecated'``; ``fallback`` if the line
    gives none or one that is not a Python literal."""
    _, marker, rest = kind.partition("default=")
    if not marker:
        return fallback
    try:
        return ast.literal_eval(rest.split(")")[0].strip())
    except (ValueError, SyntaxError):
        return fallback


def word_choices(kind: str) -> tuple:
    """The words a type line offers in braces (``"{'linear', 'rbf'} or callable"`` ->
    ``("linear", "rbf")``), in the docstring's order; () when it offers none. ``None`` and
    numbers in the braces are left out: they are not words to pick."""
    start, end = kind.find("{"), kind.find("}")
    if start < 0 or end < start:
        return ()
    try:
        values: Any = ast.literal_eval("[" + kind[start + 1:end] + "]")
    except (ValueError, SyntaxError):
        return ()
    return tuple(v for v in values if isinstance(v, str))
