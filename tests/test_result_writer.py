"""One writer for the headless runner and the app's export (engine.runs.result_writer):
the same folder for the same result, the same failure policy, and the service's steps
around the run (engine.runs.service)."""
from __future__ import annotations

import json
import os
import re

import pytest

import engine.run_service
from engine.cli import run as run_cli
from engine.evaluation.experiment import parse_experiment
from engine.foundation.errors import EngineError
from engine.foundation.progress import run_to_end
from engine.runs import result_writer, service
from gui.exporting import write_benchmark, write_results

MODELS = [{"name": "logistic", "estimator": "LogisticRegression", "scale": True,
           "params": {"max_iter": 500}},
          {"name": "bayes", "estimator": "GaussianNB", "params": {}}]
CV = {"n_splits": 3, "n_repeats": 1, "random_state": 0}
SINGLE = {"dataset": {"builtin": "breast_cancer"}, "models": MODELS, "cv": CV,
          "metrics": ["accuracy"], "aloocv": None, "calibration": None}
SEVERAL = {**{k: v for k, v in SINGLE.items() if k != "dataset"},
           "datasets": [{"builtin": "breast_cancer"}, {"builtin": "iris"}]}


def _cli_run(tmp_path, monkeypatch, experiment: dict):
    """Run ``experiment`` headless into ``tmp_path/cli``: ``(folder, the result)``."""
    captured, real = [], engine.run_service.run

    def keeping(*args, **kwargs):
        result = yield from real(*args, **kwargs)
        captured.append(result)
        return result

    monkeypatch.setattr(engine.run_service, "run", keeping)
    path = tmp_path / "experiment.json"
    path.write_text(json.dumps(experiment), encoding="utf-8")
    out = str(tmp_path / "cli")
    store = str(tmp_path / "elsewhere.sqlite")          # not in the folder compared
    assert run_cli([str(path), "--out", out, "--quiet", "--store", store]) == 0
    assert len(captured) == 1
    return out, captured[0]


def _files(folder: str) -> dict:
    """Every file but ``run.json``, the report's time of writing taken out."""
    files = {name: open(os.path.join(folder, name), "rb").read()
             for name in sorted(os.listdir(folder)) if name != "run.json"}
    stamp = rb"written \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00"
    for report in ("report.html", "report.md"):
        files[report], n = re.subn(stamp, b"written WHEN", files[report])
        assert n == 1
    return files


def _same_folders(cli_out: str, app_out: str) -> None:
    cli_files, app_files = _files(cli_out), _files(app_out)
    assert sorted(cli_files) == sorted(app_files)
    assert "report.html" in cli_files and "summary.csv" in cli_files
    for name in cli_files:
        assert cli_files[name] == app_files[name], name
    cli_run, app_run = (json.load(open(os.path.join(folder, "run.json"), encoding="utf-8"))
                        for folder in (cli_out, app_out))
    for key in ("tables", "experiment", "data", "datasets", "csv_style"):
        assert cli_run.get(key) == app_run.get(key), key
    assert app_run["written_from"] == "the app" and "command" in cli_run


@pytest.mark.slow
def test_the_app_export_writes_the_folder_the_cli_writes(tmp_path, monkeypatch):
    cli_out, result = _cli_run(tmp_path, monkeypatch, SINGLE)
    app_out = str(tmp_path / "app")
    written = write_results(result, app_out)
    _same_folders(cli_out, app_out)
    tables = sorted(name for name in os.listdir(app_out) if name.endswith(".csv"))
    assert sorted(os.path.basename(path) for path in written.tables) == tables
    assert written.warnings == ()


@pytest.mark.slow
def test_the_app_export_of_several_data_sets_writes_the_cli_folder(tmp_path, monkeypatch):
    cli_out, result = _cli_run(tmp_path, monkeypatch, SEVERAL)
    app_out = str(tmp_path / "app")
    written = write_benchmark(result, app_out)
    _same_folders(cli_out, app_out)
    assert "report.md" in os.listdir(app_out)
    assert written.summary.startswith(f"{len(written.tables)} tables, report.md, report.html")


def _small_result():
    experiment = parse_experiment({**SINGLE, "dataset": {"builtin": "iris"},
                                   "models": MODELS[1:], "cv": {**CV, "n_splits": 2}})
    datasets = engine.run_service.read_datasets(experiment)
    checked = engine.run_service.check_run(experiment, datasets)
    return run_to_end(engine.run_service.run(checked.experiment, checked.datasets))


def test_a_report_that_cannot_be_built_costs_the_app_export_its_page_only(tmp_path,
                                                                          monkeypatch):
    """The CLI's policy in the app too: the page is left out with a note, the tables
    are written, the export does not fail."""
    import engine.output.report

    def broken(result, tables=None, written=None, full_paths=False):
        raise RuntimeError("no page today")

    result = _small_result()
    monkeypatch.setattr(engine.output.report, "build_document", broken)
    written = write_results(result, str(tmp_path))
    names = os.listdir(tmp_path)
    assert "report.html" not in names and "report.md" not in names and "summary.csv" in names
    assert len(written.warnings) == 1 and "RuntimeError: no page today" in written.warnings[0]
    notes = (tmp_path / "notes.txt").read_text(encoding="utf-8")
    assert "the HTML report could not be written (RuntimeError: no page today)" in notes
    assert written.summary.endswith("tables and notes.txt")


def test_the_manifest_says_one_data_set_or_several_by_the_experiment():
    result = _small_result()
    manifest = result_writer.base_manifest(result)
    assert set(manifest) == {"experiment", "data"}
    assert manifest["data"]["n_rows"] == 150


def test_a_folder_that_cannot_be_made_is_a_coded_refusal(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("x", encoding="utf-8")
    out = str(blocker / "out")
    with pytest.raises(EngineError) as caught:
        service.claim_folder(out, os.path.join(out, "store.sqlite"))
    assert caught.value.code == "result_folder_unwritable"
    assert caught.value.fields["path"] == out
    assert str(caught.value).startswith(f"cannot write to {out}: ")


def test_a_claimed_folder_knows_what_it_created_and_refuses_others_files(tmp_path):
    out = tmp_path / "new" / "deeper"
    place = service.claim_folder(str(out), str(out / "store.sqlite"))
    assert place.created == (str(out), str(tmp_path / "new")) and place.store_inside
    assert place.own == ("store.sqlite", "store.sqlite-wal", "store.sqlite-shm",
                         "store.sqlite-journal")
    (out / "someone_elses.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ValueError):
        service.claim_folder(str(out), str(tmp_path / "s.sqlite"))
    assert (out / "someone_elses.txt").read_text(encoding="utf-8") == "mine"
