"""Issue 36: one escaping path for every CSV cell, each level of a two-level index too."""
import csv
import json

import pandas as pd
import pytest

from engine.output.tables import csv_text, write_csv
from tests.fuzz.conftest import headless

NAMES = ['=HYPERLINK("http://x")', "@SUM(1)", "+1+2", "-A1", "\tTAB"]


def cells(path):
    with open(path, newline="", encoding="utf-8") as stream:
        return [cell for row in csv.reader(stream) for cell in row]


def test_every_level_of_a_two_level_index_is_made_safe(tmp_path):
    index = pd.MultiIndex.from_product([["=data", "iris"], NAMES], names=["@set", "model"])
    frame = pd.DataFrame({name: range(len(index)) for name in NAMES}, index=index)
    path = write_csv(frame, str(tmp_path / "t.csv"), index=True)
    written = cells(path)
    assert not [cell for cell in written if cell.startswith(("=", "+", "-", "@", "\t"))]
    assert written.count("'=HYPERLINK(\"http://x\")") == 3      # a column and two rows
    assert "'@set" in written and "'=data" in written and "\\tTAB" in written
    assert csv_text(frame, index=True).splitlines()[1].startswith("'=data,\"'=HYPERLINK")


def test_an_empty_two_level_index_is_written(tmp_path):
    index = pd.MultiIndex.from_arrays([[], []], names=["dataset", "model"])
    path = write_csv(pd.DataFrame({"x": []}, index=index), str(tmp_path / "t.csv"),
                     index=True)
    assert cells(path) == ["dataset", "model", "x"]


@pytest.mark.slow
def test_formula_model_names_in_the_correlation_table_of_several_data_sets(tmp_path):
    exp = tmp_path / "exp.json"
    exp.write_text(json.dumps({
        "datasets": [{"builtin": "iris"}, {"builtin": "wine"}],
        "models": [{"name": NAMES[0], "estimator": "GaussianNB"},
                   {"name": NAMES[1], "estimator": "GaussianNB", "params":
                    {"var_smoothing": 1e-3}}],
        "cv": {"n_splits": 2, "n_repeats": 2, "random_state": 0}, "metrics": ["accuracy"]}))
    done = headless(exp, "--out", tmp_path / "out", "--quiet")
    assert done.returncode == 0, done.stderr
    written = cells(tmp_path / "out" / "correlation.csv")
    assert written.count("'=HYPERLINK(\"http://x\")") == 3 and written.count("'@SUM(1)") == 3
    assert not [cell for cell in written if cell.startswith(("=", "@"))]
