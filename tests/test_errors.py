"""Coded errors (engine.foundation.errors): each store and grouping problem carries its code and
fields, an error pickles as a value, and it crosses the process boundary with its code."""
import os
import pickle
import sqlite3

import numpy as np
import pytest

from engine.foundation.errors import CODES, EngineError, error_code, error_fields, is_store_error
from engine.input.groups import check_grouped_folds
from engine.foundation.progress import run_to_end
from engine.runs.runner import JobFailed, run_in_process
from engine.runs.store import ResultStore, check_store_path


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "store.sqlite")


def foreign(path):
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE people (name TEXT)")
    db.close()


def not_sqlite(path):
    with open(path, "w") as stream:
        stream.write("name,score\nada,1\n")


def other_format(path):
    ResultStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'format'")
    db.close()


def no_meta_row(path):
    ResultStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM meta WHERE key = 'application'")
    db.close()


def dangling_link(path):
    os.symlink(path + ".nowhere", path)


@pytest.mark.parametrize("make, code", [(foreign, "store_foreign"),
                                        (not_sqlite, "store_not_sqlite"),
                                        (other_format, "store_format"),
                                        (no_meta_row, "store_damaged"),
                                        (dangling_link, "store_link")])
def test_each_refused_store_file_has_its_code_and_path(path, make, code):
    make(path)
    with pytest.raises(EngineError) as caught:
        ResultStore(path).close()
    assert caught.value.code == code
    assert caught.value.fields["path"] == path
    assert is_store_error(caught.value, path=path) and not is_store_error(caught.value,
                                                                          path=path + "x")
    assert isinstance(caught.value, ValueError)         # old handlers keep working


def test_the_format_error_says_which_formats(path):
    other_format(path)
    with pytest.raises(EngineError) as caught:
        ResultStore(path)
    assert dict(caught.value.fields) == {"path": path, "format": "99", "expected": "3"}


def test_a_locked_store_is_store_locked(path):
    ResultStore(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(EngineError) as caught:
            ResultStore(path, timeout=0.05)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert caught.value.code == "store_locked"


def test_a_folder_as_store_is_unusable(tmp_path):
    folder = str(tmp_path / "folder.sqlite")
    os.mkdir(folder)
    with pytest.raises(EngineError) as caught:
        check_store_path(folder)
    assert caught.value.code == "store_unusable" and caught.value.fields["path"] == folder


@pytest.mark.parametrize("y, groups, n_splits, code, fields", [
    ([0, 1, 0, 1], [0, 1, 2], 2, "groups_length", {"n_values": 3, "n_rows": 4}),
    ([0, 1, 0, 1, 0, 1], [0, 0, 1, 1, 2, 2], 5, "groups_too_few",
     {"n_groups": 3, "n_splits": 5, "possible": 3}),
    ([0, 0, 0, 1, 1, 1], [0, 1, 2, 3, 3, 3], 2, "groups_one_group_class", {"class": "b"}),
])
def test_grouping_problems_have_codes_and_the_numbers(y, groups, n_splits, code, fields):
    with pytest.raises(EngineError) as caught:
        check_grouped_folds(np.array(y), np.array(groups), n_splits, classes=["a", "b"])
    assert caught.value.code == code and dict(caught.value.fields) == fields


def test_an_error_is_a_picklable_value():
    error = EngineError("groups_too_few", {"n_groups": 3, "n_splits": np.int64(5)}, "words")
    again = pickle.loads(pickle.dumps(error))
    assert (again.code, dict(again.fields), str(again)) == (
        "groups_too_few", {"n_groups": 3, "n_splits": 5}, "words")
    assert type(again.fields["n_splits"]) is int


def test_an_unknown_code_is_refused():
    with pytest.raises(ValueError, match="unknown error code"):
        EngineError("no_such_code", {}, "words")


def test_every_code_says_what_it_means():
    assert all(isinstance(text, str) and text for text in CODES.values())
    assert str(EngineError("store_locked", {"path": "p"})) == CODES["store_locked"]


def refuse_grouping():
    """In a child process: a coded error."""
    check_grouped_folds(np.array([0, 1, 0, 1]), np.array([0, 0, 1, 1]), 5)


def refuse_plainly():
    raise ValueError("plain words")


@pytest.mark.slow
def test_a_coded_error_crosses_the_process_boundary_with_its_code():
    with pytest.raises(EngineError) as caught:
        run_to_end(run_in_process(refuse_grouping, start_method="spawn"))
    assert caught.value.code == "groups_too_few"
    assert dict(caught.value.fields) == {"n_groups": 2, "n_splits": 5, "possible": 2}
    assert "only 2 group(s)" in str(caught.value)


@pytest.mark.slow
def test_a_plain_value_error_crosses_as_a_plain_value_error():
    with pytest.raises(ValueError) as caught:
        run_to_end(run_in_process(refuse_plainly, start_method="spawn"))
    assert type(caught.value) is ValueError and error_code(caught.value) == ""
    assert str(caught.value) == "plain words" and not error_fields(caught.value)


@pytest.mark.slow
def test_a_child_that_dies_fails_with_the_process_died_code():
    with pytest.raises(JobFailed) as caught:
        run_to_end(run_in_process(os._exit, (3,), start_method="spawn"))
    assert caught.value.code == "process_died" and error_code(caught.value) == "process_died"


def test_a_data_file_without_rows_is_data_no_rows(tmp_path):
    from engine.input.data import load_csv

    csv = tmp_path / "empty.csv"
    csv.write_text("a,b,target\n")
    with pytest.raises(EngineError) as caught:
        load_csv(str(csv))
    assert caught.value.code == "data_no_rows" and caught.value.fields["path"] == str(csv)


def test_a_run_the_store_does_not_hold_is_store_no_run(path):
    with ResultStore(path) as store:
        with pytest.raises(EngineError) as caught:
            store.run(7)
    assert caught.value.code == "store_no_run"
    assert dict(caught.value.fields) == {"path": path, "run_id": 7}
