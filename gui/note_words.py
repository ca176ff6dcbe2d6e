"""Words for people: the engine's notes as the window says them.

The wording is the engine's catalogue's short form (:mod:`engine.evaluation.messages_app`),
made from each note's ``code`` and ``fields``; the window never reads, splits or edits the
engine's text (tests/gui/test_no_engine_text_editing.py checks gui/'s syntax tree).
"""
from __future__ import annotations

from engine.evaluation.messages_app import plain_ids, short_form

__all__ = ["note_words", "plain_ids"]


def note_words(note) -> str:
    """An engine note or error as the window says it: the catalogue's short form."""
    return short_form(note)
