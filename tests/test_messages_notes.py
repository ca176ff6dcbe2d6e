"""The catalogue's wording of the notes of engine.input, engine.foundation and engine.runs
that were worded where they were made (engine.foundation.messages_notes): each sentence
pinned once, made from the note's fields; the places that make them give no wording."""
import pytest

from engine.foundation import messages
from engine.foundation.messages_notes import LONG_NOTES
from engine.foundation.errors import CODES as ERROR_CODES, EngineError
from engine.foundation.notes import CODES, Note
from tests.message_cases_notes import (ERROR_CASES_DATA_FILE, ERROR_CASES_READING,
                                       NOTE_CASES_NOTES)


@pytest.mark.parametrize("code, fields, text", NOTE_CASES_NOTES)
def test_the_long_form_of_a_note_is_made_from_its_fields(code, fields, text):
    note = Note(code, fields=fields)
    assert str(note) == note.message == text == messages.long_form(code, fields)
    assert note.fields == Note(code, "given", fields).fields


def test_every_code_of_the_block_is_a_note_code_with_an_example():
    assert set(LONG_NOTES) <= set(CODES) | set(ERROR_CODES)
    cases = NOTE_CASES_NOTES + ERROR_CASES_READING
    assert {case[0] for case in cases} == set(LONG_NOTES) | {"read_stopped",
                                                            "file_binary_kind"}  # pinned in message_cases_input.py
    assert set(LONG_NOTES) <= set(messages.LONG)


@pytest.mark.parametrize("code, fields, text", ERROR_CASES_DATA_FILE)
def test_a_held_out_error_names_the_file_its_field_says(code, fields, text):
    assert str(EngineError(code, fields)) == text


def test_predict_words_the_test_files_checks_about_the_data_file():
    import pandas as pd

    from engine.runs.heldout.saved import predictions

    record = {"features": ["a", "b"], "dtypes": ["float64", "float64"], "target": "y",
              "classes": ["n", "p"], "plain_numeric": True}
    with pytest.raises(EngineError) as caught:
        predictions(record, pd.DataFrame({"a": [1.0]}), path="new.csv")     # fails on columns
    assert caught.value.code == "predict_data"
    assert caught.value.fields["detail"] == str(EngineError(
        "heldout_missing_columns", {"path": "new.csv", "columns": ["b"], "file": "data"}))


@pytest.mark.parametrize("code, fields, text", ERROR_CASES_READING)
def test_a_reading_errors_long_form_is_made_from_its_fields(code, fields, text):
    error = EngineError(code, fields)
    assert str(error) == text and error.fields == EngineError(code, fields, "given").fields


def test_a_sheet_that_is_no_table_keeps_its_sheets_and_problem_through_pickling():
    import pickle

    from engine.input.excel import NotATable, SheetTooLarge

    fields = dict(ERROR_CASES_READING[0][1])
    error = pickle.loads(pickle.dumps(NotATable(fields)))
    assert isinstance(error, NotATable) and error.code == "sheet_not_a_table"
    assert (error.sheet, error.sheets) == ("Read me", ["Read me", "glass"])
    assert error.problem == str(error).split("; the workbook's")[0]
    large = pickle.loads(pickle.dumps(SheetTooLarge(dict(ERROR_CASES_READING[2][1]))))
    assert isinstance(large, SheetTooLarge) and str(large) == ERROR_CASES_READING[2][2]


def test_a_stopped_read_carries_its_fields_and_says_them():
    from engine.input.csv_bounds import ReadStopped

    fields = {k: v for k, v in ERROR_CASES_READING[3][1].items() if k != "path"}
    stopped = ReadStopped(fields)
    assert stopped.fields == fields
    assert "cannot read d.csv: " + str(stopped) == ERROR_CASES_READING[3][2]
