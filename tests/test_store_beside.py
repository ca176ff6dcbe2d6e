"""The headless runner uses the store the app keeps beside a saved experiment
(``NAME.store.sqlite`` next to ``NAME.json``) when no ``--store`` is given and that file
exists; otherwise ``store.sqlite`` in the result folder."""
import json
import os

import pytest

from engine.cli import store_choice
from engine.runs.store import ResultStore, store_beside
from tests.helpers import run_main, write_experiment


def manifest(out):
    with open(out / "run.json", encoding="utf-8") as handle:
        return json.load(handle)


@pytest.mark.slow
def test_the_apps_store_beside_the_experiment_is_used_and_reused(tmp_path):
    exp = write_experiment(tmp_path / "study.json")
    beside = tmp_path / "study.store.sqlite"
    assert store_beside(str(exp)) == str(beside)
    alone = run_main(exp, "--out", tmp_path / "alone", "--quiet")   # no store beside yet
    assert alone.returncode == 0, alone.stderr
    assert manifest(tmp_path / "alone")["store"]["path"] == str(tmp_path / "alone" /
                                                                "store.sqlite")
    first = run_main(exp, "--out", tmp_path / "first", "--store", beside, "--quiet")
    assert first.returncode == 0 and beside.exists()          # as the app keeps it
    with ResultStore(str(beside)) as store:
        kept = store.count_fits()
    again = run_main(exp, "--out", tmp_path / "again")
    assert again.returncode == 0, again.stderr
    record = manifest(tmp_path / "again")["store"]
    assert record["path"] == str(beside)
    assert record["reused"] == record["fits"] == kept == 3      # 1 model x 3 folds
    assert not os.path.exists(tmp_path / "again" / "store.sqlite")
    assert f"reused 3 of 3 fits from the result store {beside}" in again.stderr
    other = tmp_path / "elsewhere.sqlite"
    assert store_choice(str(other), str(exp), str(tmp_path)) == str(other)   # --store wins


def test_the_app_and_the_runner_name_the_same_file(tmp_path, monkeypatch):
    pytest.importorskip("PySide6")          # .ci/oldest runs the engine tests without Qt
    from gui.store_location import store_path

    exp = tmp_path / "study.json"
    exp.write_text("{}")
    assert store_path(str(exp)) == store_beside(str(exp))
