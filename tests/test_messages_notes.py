"""The catalogue's wording of the notes of engine.input, engine.foundation and engine.runs
that were worded where they were made (engine.foundation.messages_notes): each sentence
pinned once, made from the note's fields; the places that make them give no wording."""
import pytest

from engine.foundation import messages
from engine.foundation.messages_notes import LONG_NOTES
from engine.foundation.notes import CODES, Note
from tests.message_cases_notes import NOTE_CASES_NOTES


@pytest.mark.parametrize("code, fields, text", NOTE_CASES_NOTES)
def test_the_long_form_of_a_note_is_made_from_its_fields(code, fields, text):
    note = Note(code, fields=fields)
    assert str(note) == note.message == text == messages.long_form(code, fields)
    assert note.fields == Note(code, "given", fields).fields


def test_every_code_of_the_block_is_a_note_code_with_an_example():
    assert set(LONG_NOTES) <= set(CODES)
    assert {case[0] for case in NOTE_CASES_NOTES} == set(LONG_NOTES)
    assert set(LONG_NOTES) <= set(messages.LONG)
