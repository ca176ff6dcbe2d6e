"""One dataset block for every kind of file: "file" chooses the reader by extension, "csv"
keeps reading CSV; the headless runner gives the same tables on an ARFF file as on the same
data exported by Weka as CSV; run.json and saved experiments know the file."""
import json
import os
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

from engine.foundation.errors import error_code, error_fields
from engine.input.data import load_csv
from engine.input.readers import load_dataset
from engine.evaluation.experiment import experiment_json_text, parse_experiment
from engine.input.readers import check_file_options, file_kind, read_table
from tests.helpers import EXAMPLES, WEKA_JAR, needs_examples, needs_weka, run_main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PENGUINS = os.path.join(ROOT, "tests", "data", "penguins.csv")
MODELS = [{"estimator": "GaussianNB"}]


@pytest.mark.parametrize("name, kind", [("a.csv", "csv"), ("A.TSV", "csv"), ("b.txt", "csv"),
                                        ("c.arff", "arff"), ("d.xlsx", "excel"),
                                        ("e.XLSM", "excel")])
def test_the_extension_chooses_the_reader(name, kind):
    assert file_kind(name) == kind


@pytest.mark.parametrize("spec, code, fields", [
    ({"file": "x.json"}, "file_kind_unknown",
     {"extension": ".json", "extensions": (".csv", ".tsv", ".txt", ".arff", ".xlsx", ".xlsm")}),
    ({"file": "noext"}, "file_kind_unknown", {"extension": ""}),
    ({"file": "x.csv", "csv": "x.csv"}, "dataset_file_and_csv", {}),
    ({"file": "x.csv", "sheet": "S"}, "dataset_option_of_kind",
     {"key": "sheet", "kinds": ("excel",), "path": "x.csv", "kind": "csv"}),
    ({"file": "x.arff", "sep": ";"}, "dataset_option_of_kind",
     {"key": "sep", "kinds": ("csv",), "kind": "arff"}),
    ({"file": "x.xlsx", "encoding": "latin-1"}, "dataset_option_of_kind",
     {"key": "encoding", "kinds": ("csv", "arff"), "kind": "excel"}),
    ({"csv": "x.csv", "sheet": "S"}, "dataset_unknown_keys", {"keys": ("sheet",), "with": "csv"}),
])
def test_options_that_do_not_fit_the_file_are_refused(spec, code, fields):
    with pytest.raises(ValueError) as error:
        check_file_options(spec)
    assert error_code(error.value) == code
    assert {k: error_fields(error.value)[k] for k in fields} == fields


def test_an_old_excel_file_is_refused_with_what_to_do():
    with pytest.raises(ValueError) as error:
        check_file_options({"file": "x.xls"})
    assert "save it as an Excel workbook (.xlsx) or as CSV" in str(error.value)


def test_the_experiment_is_checked_before_any_data_is_read():
    with pytest.raises(ValueError, match=r"^dataset\.file: cannot tell what kind of file"):
        parse_experiment({"dataset": {"file": "missing.json"}, "models": MODELS})
    with pytest.raises(ValueError, match=r'^dataset: "sheet" applies to Excel'):
        parse_experiment({"dataset": {"file": "missing.csv", "sheet": "x"}, "models": MODELS})
    with pytest.raises(ValueError, match=r"^dataset\.sheet: expected a sheet name"):
        parse_experiment({"dataset": {"file": "missing.xlsx", "sheet": 2}, "models": MODELS})
    parsed = parse_experiment({"dataset": {"file": "missing.xlsx", "sheet": "S"},
                               "models": MODELS})
    assert parsed.dataset == {"file": "missing.xlsx", "sheet": "S"}


def test_a_csv_file_reads_the_same_as_file_and_as_csv(tmp_path):
    by_file = load_dataset({"file": "penguins.csv", "target": "species"},
                           base_dir=os.path.dirname(PENGUINS))
    by_csv = load_csv(PENGUINS, target="species")
    pd.testing.assert_frame_equal(by_file.X, by_csv.X)
    np.testing.assert_array_equal(by_file.y, by_csv.y)
    assert by_file.notes == by_csv.notes and by_file.name == "penguins"
    assert by_file.source == {"file": "penguins.csv", "target": "species"}


def test_the_file_checks_apply_to_every_reader(tmp_path):
    fifo = tmp_path / "pipe.arff"
    os.mkfifo(fifo)
    with pytest.raises(ValueError) as error:
        read_table(str(fifo))
    assert error_code(error.value) == "file_not_regular"
    assert error_fields(error.value)["kind"] == "a named pipe (FIFO)"
    with pytest.raises(ValueError) as error:
        read_table(str(tmp_path / "none.xlsx"))
    assert error_code(error.value) == "file_missing"
    assert error_fields(error.value)["path"] == str(tmp_path / "none.xlsx")
    with pytest.raises(ValueError) as error:
        os.mkdir(tmp_path / "dir.arff")
        read_table(str(tmp_path / "dir.arff"))
    assert error_code(error.value) == "file_not_regular"
    assert (error_fields(error.value)["kind"], error_fields(error.value)["what"]) == \
        ("a folder", "an ARFF file")


@pytest.mark.parametrize("name", ["t.csv", "t.arff", "t.xlsx"])
def test_an_unreadable_file_is_refused_by_every_reader(tmp_path, monkeypatch, name):
    path = tmp_path / name
    path.write_bytes(b"anything")
    real = os.open

    def refuse(file, flags, *args, **kwargs):
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied")
        return real(file, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(ValueError, match=r"cannot open .*: Permission denied; check that you "
                                         "may read it"):
        load_dataset({"file": str(path)})


def test_a_saved_experiment_keeps_the_file_relative(tmp_path):
    data = tmp_path / "data" / "weather.arff"
    experiment = parse_experiment({"dataset": {"file": str(data), "target": "play"},
                                   "models": MODELS})
    text = experiment_json_text(experiment, path=str(tmp_path / "exp.json"))
    assert json.loads(text)["dataset"] == {"file": "data/weather.arff", "target": "play"}


@pytest.mark.slow
@needs_weka
@needs_examples
def test_the_runner_gives_the_same_tables_on_arff_as_on_wekas_csv_export(tmp_path):
    arff = tmp_path / "diabetes.arff"
    shutil.copy(os.path.join(EXAMPLES, "diabetes.arff"), arff)
    csv = tmp_path / "diabetes.csv"
    done = subprocess.run(["java", "-cp", WEKA_JAR, "weka.core.converters.CSVSaver",
                           "-i", str(arff), "-o", str(csv)], capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr
    common = {"models": [{"name": "nb", "estimator": "GaussianNB"},
                         {"name": "logistic", "estimator": "LogisticRegression", "scale": True}],
              "cv": {"n_splits": 3, "n_repeats": 2, "random_state": 0},
              "metrics": ["roc_auc", "accuracy"]}
    tables = {}
    for name, dataset in (("arff", {"file": "diabetes.arff"}), ("csv", {"csv": "diabetes.csv"})):
        experiment = tmp_path / f"{name}.json"
        experiment.write_text(json.dumps({"dataset": dataset, **common}))
        done = run_main(experiment, "--out", tmp_path / name, "--quiet")
        assert done.returncode == 0, done.stderr
        tables[name] = {f: pd.read_csv(tmp_path / name / f) for f in
                        ("fold_scores.csv", "summary.csv", "pairwise.csv", "confusion.csv")}
        manifest = json.loads((tmp_path / name / "run.json").read_text())
        assert manifest["data"]["n_rows"] == 768 and manifest["data"]["n_features"] == 8
        assert manifest["data"]["reader"] == name
        assert manifest["data"]["path"] == str(tmp_path / f"diabetes.{name}")
        assert manifest["data"]["classes"] == ["tested_negative", "tested_positive"]
    for file, frame in tables["arff"].items():
        other = tables["csv"][file]
        if file == "fold_scores.csv":
            frame, other = frame.drop(columns="fit_seconds"), other.drop(columns="fit_seconds")
        pd.testing.assert_frame_equal(frame, other, check_exact=True)
    assert len(tables["arff"]["fold_scores.csv"]) == 2 * 6 * 2
