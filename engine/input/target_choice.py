"""Which column to predict when the experiment names none: never a guess between several.

Rules
-----
* Candidates (:func:`rank_targets`) are the columns that could be classes
  (:func:`engine.input.data_checks.target_problem` finds nothing wrong) and are not left
  out, not a written-out row index (``Unnamed: 0``, ``rownames``, ...) and not named as
  identifiers (``ID``, ``patient_id``). Each gets points, with a reason for each:

  - +3 named like an outcome (:data:`OUTCOME_WORDS`: ``Survive``, ``Recurrence``,
    ``Species``, ``diagnosis``, ``class``, ...);
  - +1 two classes, +0.5 three to five;
  - +1 the last column, +0.5 the first;
  - -2 named like a time, a status or a trait recorded before the outcome
    (:data:`TIME_WORDS`, :data:`STATUS_WORDS`, :data:`COVARIATE_WORDS`: ``TimeToRecurrence``,
    ``Censor``, ``Age``, ``Sex``, ...); such a name gets no outcome points.

  They are ranked by points, then from the right.
* Without a named target (:func:`choose_target`) a column is used only when it is the one
  candidate named as a target (``target``, ``class``, ``label``, ``y``, ``outcome``,
  :data:`TARGET_NAMES`), or the only candidate at all. Otherwise an
  :class:`~engine.foundation.errors.EngineError` (``target_not_named``) lists the
  candidates, best first, and asks for ``"target"``. (An ARFF file's last attribute is
  named by the file: :mod:`engine.input.readers`.)
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from engine.foundation.errors import EngineError
from engine.foundation.notes import Note
from engine.input.data_checks import target_problem
from engine.input.groups import names_an_identifier
from engine.input.index_columns import INDEX_NAME

#: Names that say a column is the class to predict (the rule of :func:`choose_target`).
TARGET_NAMES = frozenset({"target", "class", "classes", "label", "labels", "y", "outcome"})
#: Words (or word beginnings, ending in ``*``) that name an outcome.
OUTCOME_WORDS = ("target", "class", "classes", "label", "labels", "y", "outcome*", "response",
                 "result", "diagnos*", "surviv*", "death", "died", "dead", "alive", "mortal*",
                 "recur*", "relapse*", "species", "churn*", "default", "disease*", "malignan*",
                 "success*", "fraud*", "spam", "admit*", "cured", "cure", "improved",
                 "remission", "failure", "fail*", "infected", "positive", "grade", "type",
                 "kind", "category", "verdict", "decision", "goal", "quality", "vote",
                 "choice", "chosen", "winner", "win", "won", "accept*", "purchase*",
                 "participat*", "released", "volunteer*")
#: Words of a time to an event (measured after it).
TIME_WORDS = ("time", "times", "days", "day", "duration", "months", "month", "weeks", "week",
              "years", "year", "followup", "follow", "until", "date", "survtime", "futime")
#: Words of a censoring column beside an outcome (``status`` or ``event`` may be the
#: outcome itself, as in R's survival data: neither points for nor against).
STATUS_WORDS = ("censor*",)
#: Words of traits usually recorded before the outcome.
COVARIATE_WORDS = ("age*", "sex", "gender", "race", "ethnic*", "minority", "educ*",
                   "marital", "married", "region", "country", "state", "city", "centre",
                   "center", "site", "hospital", "group", "treatment", "treat", "trt", "arm")
MAX_LISTED = 5


@dataclass(frozen=True)
class Candidate:
    """A column that could be the target, with its points and their reasons."""

    column: object
    score: float
    reasons: tuple
    n_classes: int


def name_words(name) -> list:
    """The lower-case words of a column name (``TimeToRecurrence`` -> time, to, recurrence)."""
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(name))
    text = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", text)
    return [w for w in re.split(r"[^A-Za-z]+", text.lower()) if w]


def _matches(words: list, listed: Sequence) -> list:
    found = []
    for word in words:
        for entry in listed:
            if word == entry or (entry.endswith("*") and word.startswith(entry[:-1])):
                found.append(word)
                break
    return found


def name_kind(name) -> tuple:
    """What a column's name says: (``"outcome"``, ``"time"``, ``"status"``,
    ``"covariate"`` or None, the word that says it)."""
    words = name_words(name)
    for kind, listed in (("time", TIME_WORDS), ("status", STATUS_WORDS),
                         ("covariate", COVARIATE_WORDS), ("outcome", OUTCOME_WORDS)):
        found = _matches(words, listed)
        if found:
            return kind, found[0]
    return None, None


_KIND_WORDS = {"outcome": (3.0, "named like an outcome"),
               "time": (-2.0, "named like a time"),
               "status": (-2.0, "named like a censoring column"),
               "covariate": (-2.0, "named like a trait recorded before the outcome")}


def _candidate(frame: pd.DataFrame, column, position: int, n_columns: int) -> Candidate:
    score, reasons = 0.0, []
    kind, word = name_kind(column)
    if kind is not None:
        points, said = _KIND_WORDS[kind]
        score += points
        reasons.append(f"{said} ({word})")
    n_classes = int(frame[column].nunique())
    if n_classes == 2:
        score, reasons = score + 1.0, reasons + ["2 classes"]
    else:
        score += 0.5 if n_classes <= 5 else 0.0
        reasons.append(f"{n_classes} classes")
    if position == n_columns - 1:
        score, reasons = score + 1.0, reasons + ["the last column"]
    elif position == 0:
        score, reasons = score + 0.5, reasons + ["the first column"]
    return Candidate(column, score, tuple(reasons), n_classes)


def rank_targets(frame: pd.DataFrame, *, excluded: Sequence = ()) -> list:
    """The columns that could be the target, best first (see the module's rules).

    Parameters
    ----------
    frame : pandas.DataFrame
    excluded : sequence
        Columns left out of the data set (never candidates).

    Returns
    -------
    list of Candidate
    """
    columns = [c for c in frame.columns if c not in set(excluded)
               and not INDEX_NAME.match(str(c).strip())]
    found = []
    for position, column in enumerate(columns):
        if names_an_identifier(str(column)) or target_problem(frame[column]) is not None:
            continue
        found.append(_candidate(frame, column, position, len(columns)))
    order = sorted(range(len(found)), key=lambda i: (-found[i].score, -i))
    return [found[i] for i in order]


def choose_target(frame: pd.DataFrame, *, excluded: Sequence = ()) -> tuple:
    """The column to predict when none is named, only when one column qualifies.

    Parameters
    ----------
    frame : pandas.DataFrame
    excluded : sequence
        Columns left out of the data set (never chosen).

    Returns
    -------
    (name, note) : (column name, Note)

    Raises
    ------
    EngineError
        ``target_not_named``, listing the candidates, when none or several qualify.
    """
    ranked = rank_targets(frame, excluded=excluded)
    named = [c for c in ranked if str(c.column).strip().lower() in TARGET_NAMES]
    if len(named) == 1:
        return named[0].column, _chosen(named[0], "named")
    if len(ranked) == 1:
        return ranked[0].column, _chosen(ranked[0], "only")
    raise not_named_error(ranked)


def not_named_error(ranked: list) -> EngineError:
    """The ``target_not_named`` error for the candidates ``ranked`` (the catalogue lists
    the first ``max_listed`` of them)."""
    return EngineError("target_not_named", {"candidates": [str(c.column) for c in ranked],
                                            "reasons": [list(c.reasons) for c in ranked],
                                            "max_listed": MAX_LISTED})


def not_chosen_note(fields, shown) -> Note:
    """The ``target_not_chosen`` note of a table shown with the candidate ``shown`` as its
    target while the user has not chosen (the app's Dataset tab): ``fields`` holds the
    ``candidates`` and their ``reasons`` (a ``target_not_named`` error's, or one
    candidate's)."""
    candidates, reasons = fields["candidates"], fields["reasons"]
    return Note("target_not_chosen", fields={"candidates": list(candidates),
                                             "reasons": [list(r) for r in reasons],
                                             "shown": shown})


def _chosen(candidate: Candidate, why: str) -> Note:
    return Note("target_chosen",
                fields={"column": candidate.column, "last_column": None, "problem": None, "rule": why,
                 "reasons": list(candidate.reasons)})


def outcome_companions(columns: Sequence, target, *, left_out: bool = False) -> list:
    """Notes on columns beside ``target`` that look measured with or after the outcome: a
    time to an event (a time word, and a word of the target or ``to``/``until``/
    ``event``/``survival``/``follow``) or an event's status (``Censor``, ``status``).

    Parameters
    ----------
    columns : sequence
        The feature columns.
    target
        The target column.
    left_out : bool
        The columns are left out (by the user): the notes say so.

    Returns
    -------
    list of Note
        Code ``after_outcome``, fields ``column``, ``target``, ``kind`` (``time`` or
        ``status``), ``left_out``.
    """
    target_words = set(name_words(target)) - set(TIME_WORDS)
    notes = []
    for column in columns:
        words = name_words(column)
        kind = None
        if _is_status(words, target_words):
            kind = "status"
        elif _matches(words, TIME_WORDS) and (target_words & set(words) or set(words) & {
                "to", "until", "event", "survival", "follow", "followup", "futime"}):
            kind = "time"
        if kind is not None:
            notes.append(_companion_note(column, target, kind, left_out))
    return notes


def _is_status(words: list, target_words: set) -> bool:
    """An event's status: ``Censor``, ``censored``, or a name of status words alone
    (``status``, ``event``, ``vital status``) or with a word of the target."""
    if _matches(words, ("censor*",)):
        return True
    plain = set(words) <= {"status", "event", "vital", "indicator", "ind"}
    return bool(words) and (plain or ("status" in words and bool(target_words & set(words))))


def _companion_note(column, target, kind: str, left_out: bool) -> Note:
    return Note("after_outcome", fields={"column": column, "target": target, "kind": kind,
                                         "left_out": left_out})
