"""The Dataset tab's text: the summary table, the loading notes in the words of the screen,
and what the notes say about single columns (left out, possible leak, many categories).

The engine writes its notes for experiment files ("exclude": [...], set "pos_label");
:func:`screen_note` says the same with the tab's controls.
"""
from __future__ import annotations

import ast
import re

from engine.data import Dataset

from .widgets import escape

_LEAK = re.compile(r"^possible leak: column (?P<name>.+?) alone predicts ")
_MANY = re.compile(r"^column (?P<name>.+?) has (?P<n>\d+) categories: ")
_LEFT_OUT = {"left out empty column(s): ": "it is empty (no value in any row)",
             "left out identifier-like column(s) (a different text in every row): ":
             "it looks like an identifier (a different text in every row), which cannot "
             "help a model generalise"}

#: (pattern, replacement): file-format advice in the engine's notes -> the tab's controls.
_SCREEN_WORDS = (
    (re.compile(r'exclude it \("exclude": \[.*\]\)$'),
     "leave it out (untick it under Features)"),
    (re.compile(r'consider dropping it$'), "consider leaving it out (untick it under Features)"),
    (re.compile(r'set "pos_label" to change'), "pick another under Positive class"),
    (re.compile(r"\(name the target to choose another\)"), "(pick another one above)"),
)


def _name(text: str) -> str:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
    return str(value)


def leak_columns(notes) -> dict:
    """Column name -> its "possible leak" note."""
    found = {}
    for note in notes:
        match = _LEAK.match(note)
        if match:
            found[_name(match.group("name"))] = screen_note(note)
    return found


def many_category_columns(notes) -> dict:
    """Column name -> its number of categories, for the columns noted as having many."""
    found = {}
    for note in notes:
        match = _MANY.match(note)
        if match:
            found[_name(match.group("name"))] = int(match.group("n"))
    return found


def left_out_reasons(notes) -> dict:
    """Column name -> why the loader left it out (empty, identifier-like)."""
    found = {}
    for note in notes:
        for start, why in _LEFT_OUT.items():
            if note.startswith(start):
                for name in note[len(start):].split(", "):
                    found[name] = why
    return found


def screen_note(note: str) -> str:
    """An engine note with its experiment-file advice said with the tab's controls."""
    for pattern, words in _SCREEN_WORDS:
        note = pattern.sub(words, note)
    return note


def notes_html(notes) -> str:
    """The loading notes as a list; possible leaks stand out."""
    items = []
    for note in notes:
        text = escape(screen_note(note))
        if _LEAK.match(note):
            text = f"<span style='color:#b35900'>⚠ {text}</span>"
        items.append(f"<li>{text}</li>")
    return (f"<p style='margin-top:4px'><b>What was done</b></p>"
            f"<ul style='margin-left:-20px'>{''.join(items) or '<li>nothing: used as is</li>'}"
            "</ul>")


def summary_html(dataset: Dataset) -> str:
    """Rows, features, missing values, classes, positive class and categorical columns."""
    categorical = dataset.categorical_columns
    n_classes = len(dataset.classes)
    rows = [("Data set", dataset.name), ("Rows", f"{dataset.n_rows:,}"),
            ("Features", f"{dataset.X.shape[1]} ({len(dataset.numeric_columns)} numeric, "
                         f"{len(categorical)} categorical)"),
            ("Missing values", f"{dataset.n_missing:,}"),
            ("Target", f"{dataset.target} — {n_classes} classes")]
    if dataset.pos_label is not None:
        rows.append(("Positive class", str(dataset.classes[dataset.pos_label])))
    if categorical:
        rows.append(("Categorical", ", ".join(map(str, categorical[:8]))
                     + (" …" if len(categorical) > 8 else "")))
    return "<table>" + "".join(
        f"<tr><td style='color:#555; padding-right:8px'>{k}</td><td>{escape(str(v))}</td></tr>"
        for k, v in rows) + "</table>"
