"""The Dataset tab's text: the summary table, the loading notes in the words of the screen,
and what the notes say about single columns (left out, possible leak, many categories).

The engine's notes (:class:`engine.foundation.notes.Note`) give their advice for experiment files
("exclude": [...], set "pos_label"); :func:`screen_note` says the same with the tab's
controls, in the words of the engine's catalogue (its short forms). Everything here decides
on a note's ``code`` and ``fields``, never on its text.
"""
from __future__ import annotations

from engine.input.data import Dataset
from engine.foundation.notes import note_code, note_fields

from ..note_words import note_words
from ..plain_text import escape

#: Note code of a left-out column -> why, in the words of the column list's tooltip.
_LEFT_OUT = {"empty_columns_left_out": "it is empty (no value in any row)",
             "identifier_columns_left_out":
             "it looks like an identifier (a different text in every row), which cannot "
             "help a model generalise"}
#: Why an index-like column was left out, by the note's reason.
_INDEX_WHY = {"row_numbers": "it holds the row numbers in file order",
              "index_name": "it is the row names column, a row index as R or pandas write it "
                             "(often named 'Unnamed: 0')",
              "id_name": "it holds a different identifier number in every row"}


def leak_columns(notes) -> dict:
    """Column name -> its "possible leak" note (in the screen's words)."""
    return {str(note_fields(note)["column"]): screen_note(note) for note in notes
            if note_code(note) in ("possible_leak", "after_outcome")}


def index_columns(notes) -> dict:
    """Column name -> why the loader left it out as index-like (it can be ticked back)."""
    found = {}
    for note in notes:
        if note_code(note) == "index_columns_left_out":
            fields = note_fields(note)
            for name, reason in zip(fields["columns"], fields["reasons"]):
                found[str(name)] = (f"{_INDEX_WHY.get(reason, 'it looks like a row index')}: "
                                    "it says where a row sits in the file, not anything about "
                                    "it, and in a file sorted by class it gives the answer "
                                    "away")
    return found


def identifier_columns(notes) -> dict:
    """Column name -> its ``identifier_feature`` note (in the screen's words)."""
    return {str(note_fields(note)["column"]): screen_note(note) for note in notes
            if note_code(note) == "identifier_feature"}


def many_category_columns(notes) -> dict:
    """Column name -> its number of categories, for the columns noted as having many."""
    return {str(note_fields(note)["column"]): int(note_fields(note)["n_categories"])
            for note in notes if note_code(note) == "many_categories"}


def left_out_reasons(notes) -> dict:
    """Column name -> why the loader left it out (empty, identifier-like)."""
    found = {}
    for note in notes:
        why = _LEFT_OUT.get(note_code(note))
        if why is not None:
            for name in note_fields(note)["columns"]:
                found[str(name)] = why
    return found


def screen_note(note) -> str:
    """An engine note with its experiment-file advice said with the tab's controls: the
    catalogue's short form (:mod:`engine.evaluation.messages_app`)."""
    return note_words(note)


def notes_html(notes) -> str:
    """The loading notes as a list; possible leaks, index-like and identifier columns and
    imbalanced classes stand out."""
    items = []
    for note in notes:
        text = escape(screen_note(note))
        if note_code(note) in ("possible_leak", "class_imbalance", "index_columns_left_out",
                               "identifier_feature"):
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
    if any(note_code(note) == "target_not_chosen" for note in dataset.notes):
        rows[-1] = ("Target", f"not chosen yet (shown: {dataset.target}, {n_classes} classes)")
    if dataset.pos_label is not None:
        rows.append(("Positive class", str(dataset.classes[dataset.pos_label])))
    if categorical:
        rows.append(("Categorical", ", ".join(map(str, categorical[:8]))
                     + (" …" if len(categorical) > 8 else "")))
    return "<table>" + "".join(
        f"<tr><td style='color:#555; padding-right:8px'>{k}</td><td>{escape(str(v))}</td></tr>"
        for k, v in rows) + "</table>"
