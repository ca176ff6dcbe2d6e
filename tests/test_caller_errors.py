"""The engine's error model for what is not the user's (issue #40): a broken contract is a
CallerError, the detail of a coded error a DetailError, and a bare ``raise ValueError(``
is left only where a foreign interface asks for one, each listed below with its reason."""
import ast
import os
import pickle

import numpy as np
import pytest

from engine.evaluation.calibration.maps import fit_calibration_map
from engine.evaluation.curves.delong import delong_covariance
from engine.foundation.caller_errors import (CALLER_CODES, CallerError, DetailError,
                                             detail_of, is_caller_error)
from engine.foundation.errors import CODES, EngineError
from engine.foundation.notes import Note
from engine.input.java_dates import compile_pattern
from engine.foundation.progress import run_to_end
from engine.runs.runner import run_in_process

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: (module, function, reason) of every bare ``raise ValueError(`` the engine keeps.
ALLOWED = {
    ("engine/evaluation/metrics.py", "_roc_auc_binary",
     "the fast ROC AUC raises scikit-learn's roc_auc_score's own ValueError and words, so a "
     "fold's error reads the same with either path"),
}


def _bare_raises() -> set:
    """(module, function, line) of each ``raise ValueError(...)`` in the engine."""
    found = set()
    for folder, _dirs, files in os.walk(os.path.join(ROOT, "engine")):
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as handle:
                tree = ast.parse(handle.read())
            found |= _raises_in(tree, os.path.relpath(path, ROOT).replace(os.sep, "/"))
    return found


def _raises_in(tree, module: str) -> set:
    found = set()
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                    and getattr(node.exc.func, "id", "") == "ValueError"):
                found.add((module, function.name, node.lineno))
    return found


def test_a_bare_value_error_is_left_only_where_the_allow_list_says_why():
    raises = _bare_raises()
    found = {(module, function) for module, function, _line in raises}
    allowed = {(module, function) for module, function, _reason in ALLOWED}
    assert found == allowed
    assert len(raises) == 2                             # the two of the fast ROC AUC


def test_the_walk_finds_a_bare_raise_and_only_it():
    tree = ast.parse("def f():\n    raise ValueError('a')\n"
                     "def g():\n    raise CallerError('argument_value', 'b')\n")
    assert _raises_in(tree, "m.py") == {("m.py", "f", 2)}


def test_caller_codes_are_their_own_list():
    assert not set(CALLER_CODES) & set(CODES)
    with pytest.raises(TypeError, match="unknown caller-error code"):
        CallerError("no_such_code", "x")


def test_a_caller_error_is_a_value_error_with_a_code_that_pickles():
    error = CallerError("argument_value", "level must lie in (0, 1), got 2", {"level": 2})
    again = pickle.loads(pickle.dumps(error))
    assert isinstance(again, ValueError) and is_caller_error(again)
    assert (again.code, str(again), again.fields) == ("argument_value",
                                                      "level must lie in (0, 1), got 2",
                                                      {"level": 2})
    assert not is_caller_error(EngineError("no_models")) and not is_caller_error(ValueError())


def test_an_unregistered_code_is_the_caller_s_bug():
    with pytest.raises(CallerError) as caught:
        EngineError("no_such_code")
    assert (caught.value.code, caught.value.fields) == ("code_unregistered",
                                                        {"code": "no_such_code"})
    with pytest.raises(CallerError) as caught:
        Note("no_such_note")
    assert caught.value.code == "code_unregistered"


def test_library_functions_refuse_broken_contracts_with_their_code():
    with pytest.raises(CallerError) as caught:
        fit_calibration_map([0, 1, 1], [0.2, 0.4, 0.9], strategy="median")
    assert caught.value.code == "argument_choice"
    with pytest.raises(CallerError) as caught:
        delong_covariance(np.array([0, 1, 1]), np.array([[0.1, 0.5]]))
    assert caught.value.code == "argument_array"


def raises_in_child():
    """A job for the run process that breaks a contract."""
    raise CallerError("argument_array", "y has 3 rows", {"rows": 3})


def test_the_process_boundary_keeps_a_caller_error_a_caller_error():
    with pytest.raises(CallerError) as caught:
        run_to_end(run_in_process(raises_in_child))      # EngineError: tests/test_runner.py
    assert (caught.value.code, dict(caught.value.fields), str(caught.value)) == (
        "argument_array", {"rows": 3}, "y has 3 rows")


def test_a_detail_error_gives_the_coded_error_its_detail():
    assert detail_of(DetailError("the year must be 1 or later")) == \
        "the year must be 1 or later"
    assert detail_of(ValueError("foreign words")) == "foreign words"
    assert pickle.loads(pickle.dumps(DetailError("d"))).detail == "d"


def test_an_impossible_date_is_date_invalid_with_the_helper_s_detail():
    with pytest.raises(EngineError) as caught:
        compile_pattern("yyyy-MM-dd").seconds("0000-01-01")
    assert caught.value.code == "date_invalid"
    assert caught.value.fields["detail"] == "the year must be 1 or later"
    with pytest.raises(EngineError) as caught:       # datetime's own words, as they are
        compile_pattern("yyyy-MM-dd").seconds("2020-13-01")
    assert caught.value.fields["detail"] == "month must be in 1..12"


def test_a_stored_fit_that_is_not_an_object_is_a_detail_error():
    from engine.runs.fit_rows import decode_fit

    with pytest.raises(DetailError) as caught:
        decode_fit("[1, 2]", "[]", b"")
    assert caught.value.detail == "its fields are not a JSON object"


# ---- the bare ValueErrors that were the user's are coded now
def test_a_cluster_address_the_app_cannot_use_is_coded():
    from engine.evaluation.cluster import ClusterSpec

    with pytest.raises(EngineError) as caught:
        ClusterSpec.parse("tls://10.0.0.2:8786")
    assert (caught.value.code, dict(caught.value.fields)) == (
        "cluster_tls", {"cluster": "tls://10.0.0.2:8786"})
    with pytest.raises(EngineError) as caught:
        ClusterSpec.parse("my laptop")
    assert (caught.value.code, dict(caught.value.fields)) == (
        "cluster_address", {"cluster": "my laptop"})


def test_a_scheduler_nobody_answers_for_is_coded_unreachable():
    import socket

    from engine.evaluation.scheduler_greeting import check_greeting

    with socket.create_server(("127.0.0.1", 0)) as placeholder:
        port = placeholder.getsockname()[1]
    with pytest.raises(EngineError) as caught:
        check_greeting(f"tcp://127.0.0.1:{port}", 1)
    assert caught.value.code == "cluster_unreachable"
    assert dict(caught.value.fields) == {"address": f"tcp://127.0.0.1:{port}", "timeout": 1,
                                         "why": "ConnectionRefusedError"}


def test_a_server_that_is_not_a_scheduler_is_coded():
    from engine.evaluation.scheduler_greeting import check_greeting
    from tests.test_scheduler_greeting import FakeServer

    server = FakeServer(b"HTTP/1.1 400 Bad Request\r\n\r\n")
    try:
        with pytest.raises(EngineError) as caught:
            check_greeting(server.address, 2)
    finally:
        server.close()
    assert caught.value.code == "cluster_not_scheduler"
    assert caught.value.fields["address"] == server.address
    assert caught.value.fields["problem"] in str(caught.value)




def test_an_experiment_s_uncoded_library_error_is_coded_but_a_bug_stays_a_bug(monkeypatch):
    from engine.evaluation import experiment

    def library_refuses(data):
        raise ValueError("two\nlines")

    monkeypatch.setattr(experiment, "check_experiment_schema", library_refuses)
    with pytest.raises(EngineError) as caught:
        experiment.parse_experiment({})
    assert caught.value.code == "experiment_value"
    assert "\n" not in caught.value.fields["detail"] and "two" in caught.value.fields["detail"]

    def bug(data):
        raise CallerError("argument_type", "settings must be a CalibrationSettings")

    monkeypatch.setattr(experiment, "check_experiment_schema", bug)
    with pytest.raises(CallerError) as caught:
        experiment.parse_experiment({})
    assert caught.value.code == "argument_type"


def test_the_cli_reports_a_caller_error_as_a_bug_not_as_bad_input(tmp_path, monkeypatch,
                                                                  capsys):
    from engine import cli
    from engine.input import file_checks

    def broken(path):
        raise CallerError("argument_choice", "unknown fix 'x'")

    monkeypatch.setattr(file_checks, "check_experiment_file", broken)
    assert cli.run([str(tmp_path / "exp.json"), "--out", str(tmp_path / "out")]) == 1
    assert capsys.readouterr().err == ("error: unexpected failure (CallerError "
                                       "argument_choice: unknown fix 'x'); please report it "
                                       "with the experiment file\n")

    def refused(path):
        raise EngineError("cluster_address", {"cluster": "x"}, "the cluster 'x' ...")

    monkeypatch.setattr(file_checks, "check_experiment_file", refused)
    assert cli.run([str(tmp_path / "exp.json"), "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err == "error: the cluster 'x' ...\n"


def test_save_models_without_a_test_file_is_coded(tmp_path, capsys):
    import json

    from engine import cli

    path = tmp_path / "exp.json"
    path.write_text(json.dumps({"dataset": {"builtin": "iris"},
                                "models": [{"name": "nb", "estimator": "GaussianNB"}]}))
    assert cli.run([str(path), "--out", str(tmp_path / "out"), "--save-models",
                    "--quiet"]) == 2
    # error_text drops the message's leading punctuation, the flag's dashes with it
    assert capsys.readouterr().err == ("error: save-models saves the models fitted for "
                                       'the held-out test: add "test": {"file": PATH} to '
                                       "the experiment\n")
