"""A held-out test file that is not held out (issue 36): the training file itself, a copy
of it, more than half its rows training rows (refused), or a few (a note)."""
import os
import shutil

import numpy as np
import pandas as pd
import pytest

from engine.foundation.errors import EngineError
from engine.foundation.notes import note_code, note_fields
from engine.input.readers import load_dataset
from engine.runs.heldout.shared_rows import row_keys
from engine.runs.heldout.test_file import load_test_set


def write_data(path, rows, seed=0):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({"a": rng.normal(size=rows).round(6), "b": rng.integers(0, 9, rows),
                          "c": rng.choice(["red", "blue"], rows),
                          "label": rng.choice(["x", "y"], rows)})
    frame.to_csv(path, index=False)
    return frame


@pytest.fixture
def training(tmp_path):
    frame = write_data(tmp_path / "train.csv", 120)
    return frame, load_dataset({"csv": "train.csv", "target": "label"}, base_dir=str(tmp_path))


def test_the_training_file_and_its_copy_are_refused(tmp_path, training):
    shutil.copy(tmp_path / "train.csv", tmp_path / "copy.csv")
    os.link(tmp_path / "train.csv", tmp_path / "hard.csv")
    for name, how, said in [("train.csv", "same_file", "is the training file itself"),
                            ("hard.csv", "same_file", "is the training file itself"),
                            ("copy.csv", "same_content", "has the same content as the "
                                                          "training file (SHA-256)")]:
        with pytest.raises(EngineError) as caught:
            load_test_set({"file": name}, training[1], base_dir=str(tmp_path))
        assert caught.value.code == "heldout_is_training" and caught.value.fields["how"] == how
        assert str(caught.value).startswith(f"the test file {name} {said}: a held-out test "
                                            "needs rows the models were not fitted on")


def test_shared_rows_are_counted_and_named_and_most_refused(tmp_path, training):
    frame, dataset = training
    other = write_data(tmp_path / "unused.csv", 40, seed=1)
    mixed = pd.concat([other.iloc[:3], frame.iloc[[7]], other.iloc[3:10], frame.iloc[[50, 9]]])
    mixed.to_csv(tmp_path / "few.csv", index=False)
    test = load_test_set({"file": "few.csv"}, dataset, base_dir=str(tmp_path))
    [note] = test.notes
    assert note_code(note) == "heldout_shared_rows"
    assert dict(note_fields(note)) == {"n_shared": 3, "n_rows": 13, "rows": (4, 12, 13)}
    assert str(note).startswith("test file: 3 of its 13 rows are also rows of the training "
                                "data (data rows 4, 12, 13), so their scores are not held out")
    pd.concat([frame.iloc[:7], other.iloc[:7]]).to_csv(tmp_path / "half.csv", index=False)
    [note] = load_test_set({"file": "half.csv"}, dataset, base_dir=str(tmp_path)).notes
    assert note_fields(note)["n_shared"] == 7                   # exactly half: a note
    pd.concat([frame.iloc[:8], other.iloc[:7]]).to_csv(tmp_path / "most.csv", index=False)
    with pytest.raises(EngineError, match=r"^the test file most.csv: 8 of its 15 rows \(53%\) "
                                          r"are also rows of the training data") as caught:
        load_test_set({"file": "most.csv"}, dataset, base_dir=str(tmp_path))
    assert dict(caught.value.fields) == {"path": "most.csv", "n_shared": 8, "n_rows": 15}
    other.to_csv(tmp_path / "fresh.csv", index=False)
    assert load_test_set({"file": "fresh.csv"}, dataset, base_dir=str(tmp_path)).notes == ()


def test_rows_are_equal_by_value_not_by_how_they_are_typed():
    numbers = pd.DataFrame({"a": [1, 2, 0], "t": ["u", None, "v"]})
    floats = pd.DataFrame({"a": [1.0, 2.0, -0.0], "t": ["u", np.nan, "v"]})
    y = np.array([0, 1, 1])
    np.testing.assert_array_equal(row_keys(numbers, y), row_keys(floats, y))
    assert row_keys(numbers, y)[0] != row_keys(numbers, np.array([1, 1, 1]))[0]    # the class
    assert len(set(row_keys(floats.assign(a=[1.0, 2.0, 3.0]), y))) == 3


@pytest.mark.slow
def test_the_note_reaches_the_runs_notes(tmp_path, training):
    """The app shows a run's notes (``result.notes``: the Run log of the Cross-validation
    tab, ``gui.tabs.cv_tab.log_text``): the shared rows are said there."""
    import json

    from engine.evaluation.experiment import load_experiment
    from engine.foundation.progress import run_to_end
    from engine.runs.analysis import run_experiment

    frame, _ = training
    other = write_data(tmp_path / "unused.csv", 30, seed=2)
    pd.concat([other, frame.iloc[[3, 4]]]).to_csv(tmp_path / "test.csv", index=False)
    (tmp_path / "e.json").write_text(json.dumps({
        "dataset": {"csv": "train.csv", "target": "label"}, "test": {"file": "test.csv"},
        "models": [{"estimator": "GaussianNB"}], "cv": {"n_splits": 2, "n_repeats": 1}}))
    result = run_to_end(run_experiment(load_experiment(str(tmp_path / "e.json"))))
    [note] = [n for n in result.notes if note_code(n) == "heldout_shared_rows"]
    assert dict(note_fields(note)) == {"n_shared": 2, "n_rows": 32, "rows": (31, 32)}
