"""The held-out test in the window: a test file chosen on the Dataset tab is saved into the
experiment, checked when Run is pressed (a bad one is a message, nothing fitted), scored
after the run and shown by the Results tab's "Held-out test" view; File → Predict… applies
a saved model on a worker thread."""
import json
import os

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from sklearn.datasets import load_breast_cancer

from engine import run_service
from engine.evaluation.catalogue import expand_models
from engine.evaluation.experiment import parse_experiment
from engine.input.readers import load_dataset
from engine.runs.heldout import load_test_set, run_heldout
from engine.runs.heldout.saved import load_model, saved_model_files
from engine.foundation.progress import run_to_end
from gui.help import ALIASES
from gui.tabs import run_job
from gui.views.heldout_view import HeldoutView
from tests.gui.waiting import run_succeeds
from tests.peers import peer

FEATURES = ["mean radius", "mean texture", "worst concavity", "worst symmetry"]
MODELS = [{"name": "nb", "estimator": "GaussianNB"},
          {"name": "logistic", "estimator": "LogisticRegression", "scale": True}]


@pytest.fixture
def files(tmp_path):
    """train.csv (250 rows), test.csv (the rest) and an experiment on train.csv."""
    frame = load_breast_cancer(as_frame=True).frame[FEATURES + ["target"]].copy()
    frame["target"] = frame["target"].map({0: "malignant", 1: "benign"})
    frame.iloc[:250].to_csv(tmp_path / "train.csv", index=False)
    frame.iloc[250:].to_csv(tmp_path / "test.csv", index=False)
    frame.iloc[250:].drop(columns=["mean texture"]).to_csv(tmp_path / "other.csv", index=False)
    experiment = {"dataset": {"file": "train.csv", "target": "target"}, "models": MODELS,
                  "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
                  "metrics": ["roc_auc", "accuracy"]}
    (tmp_path / "exp.json").write_text(json.dumps(experiment))
    return tmp_path


@pytest.fixture
def no_questions(monkeypatch):
    """Closing the window discards unsaved changes without asking."""
    monkeypatch.setattr("gui.saving.ask_choice",
                        lambda parent, title, text, choices, default: "discard")


def opened(window, qtbot, path):
    with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                           timeout=30000):
        window.open_experiment(str(path))


def choose_test_file(window, qtbot, monkeypatch, path):
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kw: (str(path), ""))
    qtbot.mouseClick(window.dataset_tab.heldout_box.choose_button, Qt.LeftButton)


def heldout_view(window) -> HeldoutView:
    views = window.results_tab.views
    titles = [views.tabText(i) for i in range(views.count())]
    return views.widget(titles.index("Held-out test"))


@pytest.mark.slow
def test_a_test_file_chosen_run_shown_and_exported(window, qtbot, monkeypatch, files,
                                                   no_questions):
    peer("skops")
    opened(window, qtbot, files / "exp.json")
    view = heldout_view(window)
    assert view.stack.currentWidget() is view.hint
    choose_test_file(window, qtbot, monkeypatch, files / "test.csv")
    assert window.state.test == {"file": str(files / "test.csv")}
    qtbot.mouseClick(window.dataset_tab.heldout_box.save_check, Qt.LeftButton)
    assert window.state.save_models
    setup = window.state.experiment_setup()
    assert setup["test"] == {"file": str(files / "test.csv")} and setup["save_models"]
    assert "test.csv" in window.dataset_tab.heldout_box.file_label.text()
    with run_succeeds(qtbot, window.cv_tab):
        window.cv_tab.start_run()
    result = window.state.result
    scores = result.heldout.scores
    # the same numbers as the engine on its own, fitted on all training rows
    dataset = load_dataset({"file": "train.csv", "target": "target"}, base_dir=str(files))
    test = load_test_set({"file": "test.csv"}, dataset, base_dir=str(files))
    alone = run_to_end(run_heldout(dataset, test, expand_models(MODELS, random_state=0),
                                   ["roc_auc", "accuracy"], summary=result.summary))
    pd.testing.assert_frame_equal(scores, alone.scores)
    qtbot.waitUntil(lambda: view.stack.currentIndex() == 1, timeout=10000)
    assert view.shown_metric() == "roc_auc"
    rows = scores[(scores["metric"] == "roc_auc") & (scores["interval"] == "bootstrap")]
    drawn = view.plot.drawn_points()
    (_, cv_y), (_, test_y) = drawn.values()
    assert test_y == pytest.approx(list(rows["score"]), abs=1e-12)
    assert cv_y == pytest.approx(list(rows["cv_mean"]), abs=1e-12)
    assert view.table.frame().shape == scores.shape
    text = view.verdict.text()
    assert "one test set is one draw" in text and "logistic" in text
    view.metric_combo.setCurrentIndex(view.metric_combo.findData("accuracy"))
    accuracy = scores[(scores["metric"] == "accuracy")]
    assert view.plot.drawn_points()[list(drawn)[1]][1] == pytest.approx(
        list(accuracy["score"]), abs=1e-12)
    view.grab().save(str(files / "heldout_view.png"))
    with qtbot.waitSignal(window.results_exported, timeout=60000) as exported:
        window.export_results(str(files / "out"))
    manifest = json.loads((files / "out" / "run.json").read_text())
    assert {"test_scores.csv", "model_nb.skops", "model_logistic.skops",
            "models_README.txt"} <= set(manifest["tables"])
    assert any(path.endswith("test_scores.csv") for path in exported.args[0])
    saved = load_model(str(files / "out" / "model_nb.skops"))["model"]
    X = pd.read_csv(files / "test.csv")[FEATURES].to_numpy(float)
    np.testing.assert_array_equal(saved.predict_proba(X),
                                  result.heldout.models["nb"].predict_proba(X))
    assert ALIASES["heldout"] == "results#heldout"


def test_a_test_file_without_a_feature_column_is_a_message(window, qtbot, monkeypatch, files,
                                                           warnings_shown, no_questions):
    opened(window, qtbot, files / "exp.json")
    choose_test_file(window, qtbot, monkeypatch, files / "other.csv")
    window.cv_tab.start_run()
    qtbot.waitUntil(lambda: bool(warnings_shown), timeout=60000)
    assert len(warnings_shown) == 1
    title, text = warnings_shown[0]
    assert "lacks 1 feature column" in text and "'mean texture'" in text
    assert window.state.result is None                     # nothing was fitted


def test_predict_dialog_writes_the_models_predictions(window, qtbot, files, no_questions):
    peer("skops")
    dataset = load_dataset({"file": "train.csv", "target": "target"}, base_dir=str(files))
    test = load_test_set({"file": "test.csv"}, dataset, base_dir=str(files))
    heldout = run_to_end(run_heldout(dataset, test, expand_models(MODELS[1:], random_state=0),
                                     ["accuracy"], n_resamples=10))
    for name, data in saved_model_files(heldout, dataset).items():
        (files / name).write_bytes(data)
    dialog = window.open_predict_dialog()
    assert "trust" in dialog.warning.text()
    dialog.set_paths(str(files / "model_logistic.skops"), str(files / "test.csv"))
    with qtbot.waitSignal(dialog.predicted, timeout=60000):
        dialog.start()
    written = pd.read_csv(files / "test_predictions.csv", float_precision="round_trip")
    model = load_model(str(files / "model_logistic.skops"))["model"]
    X = pd.read_csv(files / "test.csv")[FEATURES].to_numpy(float)
    np.testing.assert_array_equal(written[["p_benign", "p_malignant"]].to_numpy(),
                                  model.predict_proba(X))
    assert "Wrote 319 predictions" in dialog.message.text()
    dialog.close()


def test_the_run_uses_the_test_rows_the_check_read(files):
    """The window's run hands the rows its check read to the child process
    (``gui.tabs.run_job``): the child never reads the test file again, so a file removed
    after the check does not stop the run, and the scores are those of the checked rows."""
    experiment = parse_experiment({"dataset": {"file": "train.csv", "target": "target"},
                                   "test": {"file": "test.csv"}, "models": MODELS,
                                   "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
                                   "metrics": ["roc_auc"]}, base_dir=str(files))
    dataset = load_dataset({"file": "train.csv", "target": "target"}, base_dir=str(files))
    checked = run_service.check_run(experiment, [dataset], n_jobs=1)
    assert checked.test is not None
    os.remove(files / "test.csv")
    result = run_to_end(run_job.run_in_process(checked.experiment, checked.datasets, 1, None,
                                               test=checked.test, start_method="spawn"))
    alone = run_to_end(run_heldout(dataset, checked.test, expand_models(MODELS, random_state=0),
                                   ["roc_auc"], summary=result.summary))
    pd.testing.assert_frame_equal(result.heldout.scores, alone.scores)


def test_the_bundles_run_path_passes_the_checked_test_rows_on(files, monkeypatch):
    """``gui.tabs.cv_tab.run_in_process`` (the bundle's ``--check-bundle``) starts the
    window's run from a checked run: its held-out rows go to the child, not dropped."""
    from gui.tabs import cv_tab

    experiment = parse_experiment({"dataset": {"file": "train.csv", "target": "target"},
                                   "test": {"file": "test.csv"}, "models": MODELS,
                                   "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
                                   "metrics": ["roc_auc"]}, base_dir=str(files))
    dataset = load_dataset({"file": "train.csv", "target": "target"}, base_dir=str(files))
    checked = run_service.check_run(experiment, [dataset], n_jobs=2)
    seen = {}

    def started(experiment, datasets, n_jobs, prepare, cluster=None, store=None, **options):
        seen.update(options, experiment=experiment, datasets=datasets, n_jobs=n_jobs)
        return "job"

    monkeypatch.setattr(run_job, "run_in_process", started)
    assert cv_tab.run_in_process(checked) == "job"
    assert seen["test"] is checked.test and len(checked.test.X) == 319
    assert seen["datasets"] == checked.datasets and seen["n_jobs"] == 2
