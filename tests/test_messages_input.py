"""The catalogue's wording of the errors of engine.input, engine.foundation and
engine.runs: each sentence pinned once, made from the error's fields; the places that
raise them give no wording of their own."""
import ast
import os

import pytest

from engine.foundation import messages
from engine.foundation.errors import CODES, EngineError
from engine.foundation.schema import check_experiment_schema
from engine.foundation.notes import Note
from tests.message_cases_input import ERROR_CASES_INPUT, NOTE_CASES_INPUT

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AREA = ("input", "foundation", "runs")


@pytest.mark.parametrize("code, fields, text", ERROR_CASES_INPUT)
def test_the_long_form_of_an_error_is_made_from_its_fields(code, fields, text):
    error = EngineError(code, fields)
    assert str(error) == error.message == text == messages.long_form(code, fields)
    assert error.code == code and set(error.fields) == set(fields)
    assert error.fields == EngineError(code, fields, "given").fields
    assert isinstance(error, ValueError)                # every `except ValueError` holds


@pytest.mark.parametrize("code, fields, text", NOTE_CASES_INPUT)
def test_the_long_form_of_a_note_is_made_from_its_fields(code, fields, text):
    note = Note(code, fields=fields)
    assert str(note) == note.message == text == messages.long_form(code, fields)
    assert note.fields == Note(code, "given", fields).fields


def test_every_code_of_the_area_is_listed_and_worded():
    codes = {case[0] for case in ERROR_CASES_INPUT}
    assert codes <= set(CODES) and codes <= set(messages.LONG)


def _worded_errors(tree) -> list:
    """``EngineError("code", fields, <message>)`` of a code the catalogue words."""
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "EngineError"
                and node.args and isinstance(node.args[0], ast.Constant)
                and node.args[0].value in messages.LONG
                and (len(node.args) > 2 or any(k.arg == "message" for k in node.keywords))):
            found.append((node.args[0].value, node.lineno))
    return found


def _bare_value_errors(text: str, tree) -> list:
    """Lines of ``raise ValueError(...)``: a caller's mistake is a ``CallerError``, the
    detail of a coded error a ``DetailError`` (tests/test_caller_errors.py)."""
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
            and getattr(node.exc.func, "id", "") == "ValueError"]


def _area_trees():
    for package in AREA:
        for folder, _dirs, files in os.walk(os.path.join(ROOT, "engine", package)):
            for name in sorted(files):
                if name.endswith(".py"):
                    path = os.path.join(folder, name)
                    with open(path, encoding="utf-8") as handle:
                        text = handle.read()
                    yield os.path.relpath(path, ROOT), text, ast.parse(text)


def test_no_place_in_the_area_words_an_error_the_catalogue_words():
    found = {path: hits for path, _text, tree in _area_trees()
             if (hits := _worded_errors(tree))}
    assert not found
    sample = ast.parse('EngineError("heldout_no_rows", {}, "said")\nEngineError("x", {}, "y")')
    assert _worded_errors(sample) == [("heldout_no_rows", 1)]


def test_a_schema_error_carries_its_place_and_keyword():
    data = {"dataset": {"builtin": "iris"}, "models": [{"estimator": "SVC", "scale": "no"}]}
    with pytest.raises(ValueError) as caught:
        check_experiment_schema(data)
    assert caught.value.code == "experiment_invalid"
    assert dict(caught.value.fields) == {"place": "models[0].scale", "keyword": "type",
                                         "problem": 'expected true or false, got "no"'}
    with pytest.raises(ValueError) as caught:
        check_experiment_schema(dict(data, comparison={"rope": float("inf")}))
    assert caught.value.code == "experiment_not_finite"
    assert caught.value.fields["place"] == "comparison.rope"


def test_no_bare_value_error_is_left_in_the_area():
    found = {path: hits for path, text, tree in _area_trees()
             if (hits := _bare_value_errors(text, tree))}
    assert not found
    sample = 'raise ValueError("a")\n# internal: a reason\nraise CallerError("b")\n'
    assert _bare_value_errors(sample, ast.parse(sample)) == [1]
