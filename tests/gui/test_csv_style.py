"""Exported tables for spreadsheets that use semicolons and decimal commas: the save dialog
offers both CSV styles and remembers the choice; File → Export results follows the File
menu's option (and says so in run.json); the standard style stays the default."""
import json
import os

import pandas as pd
import pytest
from PySide6.QtWidgets import QFileDialog

from engine.runs.analysis import run_experiment
from engine.evaluation.experiment import load_experiment
from engine.foundation.progress import run_to_end
from gui.file_dialogs import CSV_FILTERS, csv_style
from gui.table_panel import TablePanel

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")
FRAME = pd.DataFrame({"model": ["rbf", "linear"], "mean": [0.94, 0.9312345]})


@pytest.fixture(autouse=True)
def no_questions(monkeypatch):
    monkeypatch.setattr("gui.saving.ask_choice", lambda *args: "discard")


def read_european(path):
    return pd.read_csv(path, sep=";", decimal=",", encoding="utf-8-sig")


def test_the_table_dialog_offers_both_styles_and_remembers(window, qtbot, monkeypatch, tmp_path):
    panel = window.findChildren(TablePanel)[0]
    panel.set_frame(FRAME)
    offered = []

    def save(parent, title, start, filters, selected=""):
        offered.append((filters, selected))
        return str(tmp_path / "t.csv"), CSV_FILTERS["semicolon"]

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    with qtbot.waitSignal(panel.exported, timeout=10000):
        panel.export_button.click()
    assert offered[0] == (";;".join(CSV_FILTERS.values()), CSV_FILTERS["standard"])
    pd.testing.assert_frame_equal(read_european(tmp_path / "t.csv"), FRAME)
    assert csv_style(window) == "semicolon"
    with qtbot.waitSignal(panel.exported, timeout=10000):
        panel.export_button.click()
    assert offered[1][1] == CSV_FILTERS["semicolon"]            # the last choice selected


@pytest.mark.slow
def test_export_results_follows_the_file_menu_option(window, qtbot, tmp_path):
    result = run_to_end(run_experiment(load_experiment(SEED)))
    window.state.set_result(result)
    window.csv_style_action.setChecked(True)
    with qtbot.waitSignal(window.results_exported, timeout=20000):
        window.export_results(str(tmp_path / "eu"))
    summary = read_european(tmp_path / "eu" / "summary.csv")
    expected = result.summary.reset_index(drop=True)
    assert list(summary["model"]) == list(expected["model"])
    assert summary["mean"].tolist() == pytest.approx(expected["mean"].tolist(), abs=0)
    run = json.loads((tmp_path / "eu" / "run.json").read_text(encoding="utf-8"))
    assert run["csv_style"] == "semicolon"
    window.csv_style_action.setChecked(False)
    with qtbot.waitSignal(window.results_exported, timeout=20000):
        window.export_results(str(tmp_path / "std"))
    standard = pd.read_csv(tmp_path / "std" / "summary.csv")
    assert standard["mean"].tolist() == pytest.approx(expected["mean"].tolist(), abs=0)
    assert "csv_style" not in json.loads((tmp_path / "std" / "run.json").read_text("utf-8"))
