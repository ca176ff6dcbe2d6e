"""The Dataset tab's text: the summary table, the loading notes in the words of the screen,
and what the notes say about single columns (left out, possible leak, many categories).

The engine's notes (:class:`engine.foundation.notes.Note`) give their advice for experiment files
("exclude": [...], set "pos_label"); :func:`screen_note` says the same with the tab's
controls. Everything here decides on a note's ``code`` and ``fields``, never on its text.
"""
from __future__ import annotations

from engine.input.csv_values import NOT_UTF8_NAMES
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
#: ``positive_class`` reasons whose note says 'set "pos_label" to change', and why.
_POSITIVE_WHY = {"zero_one": "of 0 and 1", "smaller_class": "the smaller class",
                 "same_size": "the classes are the same size"}
#: The screen's words for the experiment file's advice.
UNTICK = "untick it under Features"
PICK_POSITIVE = "pick another under Positive class"


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
    """An engine note with its experiment-file advice said with the tab's controls
    (decided on the note's code and fields; other notes as the engine says them)."""
    code, fields = note_code(note), note_fields(note)
    if code == "possible_leak":
        judged = fields.get("rows_judged", 0)
        rows = ("rows" if judged in (0, fields.get("n_rows")) else
                f"a random sample of {judged:,} of its {fields['n_rows']:,} rows")
        said = (f"possible leak: column {fields['column']!r} alone predicts {fields['target']!r} "
                f"for {fields['share']:.1f}% of {rows} ({fields['rule']})")
        if fields.get("left_out"):
            return f"{said}; it is left out (tick it under Features to use it anyway)"
        return (f"{said}; if it is recorded after the outcome or computed from it, leave it "
                f"out ({UNTICK})")
    if code == "after_outcome":
        what = "a time to the event" if fields["kind"] == "time" else "the status of an event"
        said = (f"column {fields['column']!r} looks like {what} beside the target "
                f"{fields['target']!r}: known only with or after the outcome, it would give the "
                "answer away")
        if fields.get("left_out"):
            return f"{said}; it is left out (tick it under Features if it is known before)"
        return f"{said}; unless it is known before, leave it out ({UNTICK})"
    if code == "index_columns_left_out":
        listed = ", ".join(repr(str(c)) for c in fields["columns"])
        return (f"left out index-like column(s): {listed}: a row number or identifier says "
                "where a row sits in the file, not anything about it, and in a file sorted by "
                "class it gives the answer away (tick it under Features to use it anyway)")
    if code == "identifier_feature":
        return (f"column {fields['column']!r} looks like an identifier (whole numbers, "
                f"{fields['n_values']} values, named like one) but is used as a feature: a "
                "model reads its numbers as amounts; if rows with the same value belong "
                "together, choose it under Rows that belong together, else "
                f"{UNTICK}")
    if code == "many_categories":
        return (f"column {fields['column']!r} has {fields['n_categories']} categories: one-hot "
                f"encoding makes many columns; consider leaving it out ({UNTICK})")
    if code == "positive_class" and fields.get("reason") in _POSITIVE_WHY:
        return (f"positive class: {fields['label']!r} ({_POSITIVE_WHY[fields['reason']]}; "
                f"{PICK_POSITIVE})")
    if code == "target_chosen" and fields.get("problem"):
        return (f"target column not given; the last column, {fields['last_column']!r}, does not "
                f"look like classes ({fields['problem']}); using {fields['column']!r}, the "
                "nearest column from the right that does (pick another one above)")
    if code == "target_chosen" and fields.get("weka"):
        return (f"target column not given; using the last attribute, {fields['column']!r}, as "
                "Weka does (pick another one above)")
    if code == "groups_suggested":
        return (f"column {fields['column']!r} looks like an identifier with repeated values "
                f"({fields['n_values']} values, {fields['rows_per_value']:.1f} rows each on "
                "average): if rows with the same value belong together (one patient, one "
                "subject), choose it under Rows that belong together, so that they are never "
                "split between training and test folds")
    if code == "class_imbalance":
        guess = "the other class" if fields["n_classes"] == 2 else "the largest class"
        return (f"the classes are imbalanced: class {fields['class']!r} has {fields['count']} of "
                f"{fields['n_rows']} rows ({100 * fields['share']:.1f}%); always guessing "
                f"{guess} is {100 * fields['majority_share']:.1f}% accurate. Balanced accuracy "
                "is reported too, and each class's recall under Results, Per class; the Models "
                "tab offers \"Balance classes\" and \"Resample training folds\"")
    if code == "encoding" and fields.get("how") == "not_utf8":
        other = fields.get("alternative")
        also = f"; its bytes also fit {NOT_UTF8_NAMES.get(other, other)}" if other else ""
        return (f"the file is not UTF-8: read it as {fields.get('name', fields['encoding'])}"
                f"{also}. If letters look wrong, save the file as UTF-8 (in Excel: Save as, "
                "CSV UTF-8) and open it again")
    if code == "sheet_read":
        return (f"read the sheet {fields['sheet']!r} of the {len(fields['sheets'])} in the "
                "workbook (pick another one under Sheet)")
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
