"""The Cross-validation tab, driven offscreen: settings, a real run, cancel and run again."""
import os

import pandas as pd
import pytest

from engine.evaluation.cv import FoldScores  # noqa: E402
from engine.input.data import load_builtin  # noqa: E402
from engine.evaluation.experiment import load_experiment  # noqa: E402
from gui.tabs import run_job
from tests.gui.waiting import run_succeeds

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")


def seed_state(state):
    experiment = load_experiment(SEED)
    state.apply_experiment(experiment, load_builtin("moons", n_samples=100, noise=0.352,
                                                    random_state=1))


def test_settings_go_into_the_state(tab):
    tab.folds_box.setValue(5)
    tab.repeats_box.setValue(3)
    tab.seed_box.setValue(42)
    tab.primary_combo.setCurrentIndex(tab.primary_combo.findData("balanced_accuracy"))
    for i in range(tab.extra_list.count()):
        item = tab.extra_list.item(i)
        if item.data(0x0100) in ("accuracy", "neg_log_loss"):
            item.setCheckState(tab.extra_list.item(i).checkState().Checked)
    state = tab.state
    assert (state.cv.n_splits, state.cv.n_repeats, state.cv.random_state) == (5, 3, 42)
    assert state.metrics == ("balanced_accuracy", "accuracy", "neg_log_loss")


def test_loaded_experiment_shows_in_the_widgets(tab):
    seed_state(tab.state)
    assert tab.folds_box.value() == 10 and tab.repeats_box.value() == 10
    assert tab.primary_combo.currentData() == "roc_auc"
    assert "4 models × 10 folds × 10 repeats = 400 fits" in tab.size_label.text()
    assert tab.run_button.isEnabled() and not tab.cancel_button.isEnabled()


def test_seed_example_runs_and_shows_every_fold(tab, qtbot, monkeypatch):
    assert tab.progress_bar.text() == "no run yet"          # not Qt's "0 of 100"
    seed_state(tab.state)                 # the full 10 x 10 run is in test_main_window.py
    tab.repeats_box.setValue(2)
    with run_succeeds(qtbot, tab):
        tab.run_button.click()
    result = tab.state.result
    assert list(result.summary["model"]) == ["linear", "2_poly", "3_poly", "rbf"]
    assert result.experiment.cv.n_repeats == 2
    assert tab.progress_bar.value() == 80 and tab.progress_bar.text() == "fit 80 of 80"
    assert "No fold failed" in tab.log.toPlainText()
    tab.state.renderer.flush()                # the after-run strip is drawn in turns
    assert tab.live_plot.fold_points.isVisible()
    assert len(tab.live_plot.fold_points.data) == 80
    assert tab.run_button.isEnabled() and not tab.cancel_button.isEnabled()
    # prepared for display in the run's process: the cached notes and score matrix came back
    assert "notes" in result.__dict__

    def refuse(*args, **kwargs):
        raise AssertionError("the score matrix was computed in the window's process")

    monkeypatch.setattr(pd.DataFrame, "pivot", refuse)
    assert result.cv.score_matrix("roc_auc").shape == (4, 20)


@pytest.mark.slow
def test_cancel_mid_run_then_run_again(tab, qtbot):
    tab.state.set_dataset(load_builtin("breast_cancer"))
    tab.state.set_model_entries([{"name": "forest", "estimator": "RandomForestClassifier",
                                  "params": {"n_estimators": 30, "random_state": 0}}])
    tab.folds_box.setValue(10)
    tab.repeats_box.setValue(20)
    with qtbot.waitSignal(tab.run_started):
        tab.start_run()
    assert tab.folds_box.isEnabled() is False and tab.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: tab.progress_bar.value() >= 2, timeout=60000)
    with qtbot.waitSignal(tab.run_cancelled, timeout=60000):
        tab.cancel_button.click()
    assert tab.state.result is None
    assert tab.progress_bar.value() < 200
    assert "Cancelled" in tab.time_label.text() and tab.run_button.isEnabled()
    tab.folds_box.setValue(3)
    tab.repeats_box.setValue(1)
    with run_succeeds(qtbot, tab):
        tab.start_run()
    assert len(tab.state.result.cv.scores) == 3


def test_fold_warnings_appear_in_the_log(tab, qtbot):
    tab.state.set_dataset(load_builtin("breast_cancer"))
    tab.state.set_model_entries([{"name": "short", "estimator": "LogisticRegression",
                                  "params": {"max_iter": 2}}])
    tab.folds_box.setValue(3)
    tab.repeats_box.setValue(1)
    with run_succeeds(qtbot, tab):
        tab.start_run()
    log = tab.log.toPlainText()
    assert "warning(s)" in log and "ConvergenceWarning" in log and "short, repeat 1" in log
    assert "short, repeat 1, fold 1:" in log and "short, repeat 1, fold 3:" in log
    assert "repeat 0" not in log and "fold 0" not in log and "fold 4" not in log
    assert "• short raised warnings on 3 of 3 folds" in log and "raise max_iter" in log


def test_scores_offered_follow_the_target(tab):
    def offered():
        return [tab.primary_combo.itemData(i) for i in range(tab.primary_combo.count())]

    tab.state.set_dataset(load_builtin("moons"))
    assert tab.primary_combo.currentData() == "roc_auc"
    assert tab.primary_combo.currentText() == "ROC AUC"
    assert "f1" in offered() and "roc_auc_ovr" not in offered()
    tab.state.set_dataset(load_builtin("iris"))             # three classes
    assert tab.primary_combo.currentData() == "roc_auc_ovr"
    assert tab.state.metrics[0] == "roc_auc_ovr"
    assert "roc_auc" not in offered() and "f1" not in offered() and "f1_macro" in offered()
    labels = [tab.extra_list.item(i).text() for i in range(tab.extra_list.count())]
    assert "Jaccard index, mean over classes" in labels and "jaccard_macro" not in labels


def test_calibration_runs_only_when_asked(tab):
    tab.state.set_dataset(load_builtin("moons"))
    tab.state.set_model_entries([{"estimator": "GaussianNB", "params": {}}])
    assert tab.state.calibration is None and not tab.calibrate_check.isChecked()
    assert "calibration" not in tab.size_label.text()
    tab.calibrate_check.setChecked(True)
    assert tab.state.calibration is not None
    assert tab.state.to_experiment().to_json()["calibration"]["methods"] == ["isotonic",
                                                                            "sigmoid"]
    assert "then calibration (isotonic and Platt)" in tab.size_label.text()
    tab.calibrate_check.setChecked(False)
    assert tab.state.calibration is None and "calibration" not in tab.state.to_experiment().to_json()


def places(tab, widgets) -> list:
    """Where ``widgets`` are drawn on the tab: (x, y, width, height) each."""
    from PySide6.QtCore import QPoint
    return [(w.mapTo(tab, QPoint(0, 0)).x(), w.mapTo(tab, QPoint(0, 0)).y(), w.width(),
             w.height()) for w in widgets]


def test_ticking_an_option_moves_no_control(tab, qtbot):
    seed_state(tab.state)
    qtbot.waitExposed(tab)
    box = tab.curves_box
    below = [tab.calibrate_check, box, box.roc_check, box.learning_check, box.fractions_edit,
             box.shuffle_check, tab.jobs_box, tab.run_on, tab.run_button, tab.cancel_button,
             tab.size_label]
    before = places(tab, below)
    words = tab.size_label.text()
    for check in (tab.calibrate_check, box, box.learning_check, box.shuffle_check):
        check.setChecked(True)
        qtbot.wait(1)
        assert places(tab, below) == before, check.text()
    assert tab.size_label.text() != words and "learning-curve fits" in tab.size_label.text()
    for check in (box.learning_check, box, tab.calibrate_check):
        check.setChecked(False)
        assert places(tab, below) == before, check.text()


def test_the_learning_fractions_are_read_whole(tab, qtbot):
    qtbot.waitExposed(tab)
    edit = tab.curves_box.fractions_edit
    assert edit.text() == "0.1, 0.325, 0.55, 0.775, 1"
    assert edit.fontMetrics().horizontalAdvance(edit.text()) < edit.width() - 8


def test_impossible_setup_gives_the_pre_run_list(tab, qtbot, preflight_lists):
    tab.state.set_dataset(load_builtin("iris"))             # 50 rows per class
    tab.state.set_model_entries([{"estimator": "GaussianNB", "params": {}}])
    tab.folds_box.setValue(60)
    tab.repeats_box.setValue(1)
    tab.start_run()
    qtbot.waitUntil(lambda: len(preflight_lists) == 1, timeout=60000)
    [(code, stops, words)] = preflight_lists[0]
    assert (code, stops) == ("too_few_rows", True)
    assert "lower the number of folds to 50" in words
    qtbot.waitUntil(lambda: tab.run_button.isEnabled(), timeout=60000)
    assert tab.time_label.text().startswith("Not started")


def test_no_data_gives_a_dialog_before_starting(tab, warnings_shown):
    tab.start_run()
    assert len(warnings_shown) == 1 and warnings_shown[0][1].startswith("No data set is loaded")
    assert not tab.running


@pytest.mark.slow
def test_the_app_and_the_headless_runner_agree_to_the_last_digit(tab, qtbot, tmp_path):
    """A real file, unseeded random models: the GUI's run and a headless run of the
    experiment it saves give identical tables (timings aside)."""
    import json

    import pandas as pd

    from engine.runs.analysis import run_experiment
    from engine.input.data import load_csv
    from engine.evaluation.experiment import experiment_json_text, parse_experiment
    from engine.foundation.progress import run_to_end

    csv = os.path.join(ROOT, "tests", "data", "penguins.csv")
    tab.state.set_dataset(load_csv(csv, target="species"))
    tab.state.set_model_entries([
        {"name": "forest", "estimator": "RandomForestClassifier", "params": {"n_estimators": 20}},
        {"name": "knn", "estimator": "KNeighborsClassifier", "scale": True, "params": {}}])
    tab.folds_box.setValue(3)
    tab.repeats_box.setValue(2)
    assert tab.state.metrics[0] == "roc_auc_ovr"
    with run_succeeds(qtbot, tab):
        tab.start_run()
    gui_tables = tab.state.result.tables()
    saved = json.loads(experiment_json_text(tab.state.to_experiment()))
    assert saved["models"][0]["params"]["random_state"] == 0        # the seed is written
    headless = run_to_end(run_experiment(parse_experiment(saved)))
    for name, table in headless.tables().items():
        drop = [c for c in table.columns if c == "fit_seconds"]
        pd.testing.assert_frame_equal(gui_tables[name].drop(columns=drop),
                                      table.drop(columns=drop), check_exact=True)


def test_the_last_run_is_forgotten_when_the_data_changes(tab, qtbot):
    tab.state.set_dataset(load_builtin("moons"))
    tab.state.set_model_entries([{"estimator": "GaussianNB", "params": {}}])
    tab.folds_box.setValue(3)
    tab.repeats_box.setValue(1)
    with run_succeeds(qtbot, tab):
        tab.start_run()
    assert tab.log.toPlainText() and tab.time_label.text().startswith("Done")
    tab.state.set_dataset(load_builtin("iris"))
    assert tab.log.toPlainText() == "" and tab.progress_bar.value() == 0
    assert tab.progress_bar.text() == "no run yet"      # not the last run's "fit 0 of 3"
    assert "Not run with the current data" in tab.time_label.text()


def test_live_plot_draws_fold_f_of_repeat_r_at_its_place_in_split_order(tab):
    plot = tab.live_plot
    plot.start(["a"], "accuracy", 3, 2)                 # repeats and folds from 1 (engine.evaluation.cv)
    details = [FoldScores("a", r, f, {"accuracy": 10 * r + f}) for r in (2, 1) for f in (3, 1, 2)]
    plot.add_fold_scores(details)
    x, y = plot.lines[0].getData()
    assert list(x) == [1, 2, 3, 4, 5, 6]
    assert list(y) == [11, 12, 13, 21, 22, 23]


def test_a_large_run_asks_first_with_the_estimated_time(tab, qtbot, monkeypatch):
    """Above engine.runs.guards.ASK_FITS fits (lowered here) the tab times a few fits
    (``cv_tab.estimate_job``: in a child process, here a thread saying 754 s), then asks;
    No starts nothing, Yes starts the run."""
    from PySide6.QtWidgets import QMessageBox

    from engine.runs import guards
    from gui.jobs import Job
    from gui.tabs import cv_tab

    seed_state(tab.state)
    tab.repeats_box.setValue(2)                                 # 4 x 10 x 2 = 80 fits
    monkeypatch.setattr(guards, "ASK_FITS", 50)
    monkeypatch.setattr(cv_tab, "estimate_job",
                        lambda *args: Job(lambda: 754.0, name="run-estimate"))
    asked, answers = [], [QMessageBox.No, QMessageBox.Yes]
    monkeypatch.setattr(QMessageBox, "exec", lambda box: asked.append(box.text())
                        or answers.pop(0))
    tab.start_run()
    qtbot.waitUntil(lambda: len(asked) == 1, timeout=60000)
    assert asked[0].startswith("This run makes 80 fits (4 models x 10 folds x 2 repeats), "
                               "more than the 50 that start without asking; it would take "
                               "about 13 min with one worker.")
    assert not tab.running and "Not started" in tab.time_label.text()
    assert tab.run_button.isEnabled()
    with run_succeeds(qtbot, tab):
        tab.start_run()
    assert len(asked) == 2 and len(tab.state.result.cv.scores) == 80


def test_a_run_too_large_for_memory_is_refused_with_what_it_needs(tab, qtbot, monkeypatch,
                                                                   warnings_shown):
    from engine.runs import guards

    seed_state(tab.state)
    monkeypatch.setattr(guards, "available_memory", lambda: 100_000)
    tab.start_run()                    # checked on a worker thread, refused with a dialog
    qtbot.waitUntil(lambda: len(warnings_shown) == 1, timeout=60000)
    assert not tab.running and not tab.state.result
    text = warnings_shown[0][1]
    assert text.startswith("This run needs about ") and "but 100 KB is available" in text


def test_a_failed_run_says_so_with_a_capital(tab, qtbot, warnings_shown, monkeypatch):
    def fails(*args, **kwargs):
        raise ValueError("the data has one class")
    monkeypatch.setattr(run_job, "run_in_process", fails)
    seed_state(tab.state)
    tab.repeats_box.setValue(1)
    with qtbot.waitSignal(tab.run_failed, timeout=30000):
        tab.run_button.click()
    title, text = warnings_shown[-1]
    assert title == "Cannot run the cross-validation"
    assert text.startswith("The data has one class\n\n")
    assert tab.log.toPlainText().endswith("error: the data has one class")   # the log's line


def test_the_time_estimate_runs_in_a_child_process(qtbot):
    """``cv_tab.estimate_job`` (``Job.in_process``: the fits in a child process, not on a
    thread of the window's) pickles its arguments and brings the estimate back in
    seconds."""
    from engine.evaluation.experiment import parse_experiment
    from gui.tabs import cv_tab

    experiment = parse_experiment({"dataset": {"builtin": "iris"},
                                   "models": [{"name": "nb", "estimator": "GaussianNB"}],
                                   "cv": {"n_splits": 3, "n_repeats": 2, "random_state": 0},
                                   "metrics": ["accuracy"]})
    job = cv_tab.estimate_job(experiment, [load_builtin("iris")], 1)
    seen = []
    job.succeeded.connect(seen.append)
    job.failed.connect(seen.append)
    with qtbot.waitSignal(job.finished, timeout=120000):
        job.start()
    assert len(seen) == 1 and isinstance(seen[0], float), seen
    assert 0 < seen[0] < 60
