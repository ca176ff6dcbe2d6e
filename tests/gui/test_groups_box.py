"""The Dataset tab's "Rows that belong together" and the Results tab's "Grouped vs
ungrouped" view (issue #14), driven through the real widgets."""
import json

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import StratifiedGroupKFold
from PySide6.QtCore import Qt

from engine.runs.grouping_gap import GAP_COLUMNS
from tests.gui.waiting import run_succeeds
from tests.helpers import visits


@pytest.fixture(autouse=True)
def discard_unsaved_changes(monkeypatch):
    monkeypatch.setattr("gui.saving.ask_choice", lambda *args: "discard")


def open_file(window, qtbot, path):
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=60000):
        window.dataset_tab.open_file(str(path))
    return window.state.dataset


def pick_groups(window, qtbot, column):
    box = window.dataset_tab.groups_box
    index = box.combo.findData(column) if column is not None else 0
    assert index >= 0
    box.combo.setCurrentIndex(index)
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=60000):
        box.combo.activated.emit(index)
    return window.state.dataset


@pytest.fixture
def visits_csv(tmp_path):
    path = tmp_path / "visits.csv"
    visits(n_subjects=30, seed=2).to_csv(path, index=False)
    return path


def test_the_suggested_column_is_offered_in_one_click(window, qtbot, visits_csv, warnings_shown):
    dataset = open_file(window, qtbot, visits_csv)
    box = window.dataset_tab.groups_box
    assert dataset.groups is None and "subject" in dataset.X.columns
    assert box.chosen() is None and box.suggest_button.isVisible()
    assert "'subject'" in box.suggest_button.text()
    notes = window.dataset_tab.notes_label.text()
    assert "choose it under Rows that belong together" in notes and '"groups"' not in notes
    assert not box.compare_check.isEnabled()        # nothing to compare without groups
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=60000):
        qtbot.mouseClick(box.suggest_button, Qt.LeftButton)
    dataset = window.state.dataset
    assert dataset.source["groups"] == "subject" and "subject" not in dataset.X.columns
    codes, _ = pd.factorize(visits(n_subjects=30, seed=2)["subject"])
    np.testing.assert_array_equal(dataset.groups, codes)
    assert box.chosen() == "subject" and not box.suggest_button.isVisible()
    sizes = np.bincount(codes)
    assert (f"30 groups of {sizes.min()} to {sizes.max()} rows ({sizes.mean():.1f} on average)"
            in box.info.text())
    item = window.dataset_tab.columns.item("subject")
    assert not item.flags() & Qt.ItemIsEnabled and "belong together" in item.toolTip()
    assert box.compare_check.isEnabled()
    # back to no groups: the column is a feature again, and offered again
    dataset = pick_groups(window, qtbot, None)
    assert dataset.groups is None and "groups" not in dataset.source
    assert "subject" in dataset.X.columns and box.suggest_button.isVisible()
    assert not warnings_shown


def test_too_few_groups_for_the_folds_is_said_in_the_tab(window, qtbot, tmp_path):
    path = tmp_path / "few.csv"
    visits(n_subjects=6, seed=1, label_every=2).to_csv(path, index=False)
    open_file(window, qtbot, path)
    pick_groups(window, qtbot, "subject")
    box = window.dataset_tab.groups_box
    assert window.state.cv.n_splits == 10
    assert "only 6 group(s)" in box.info.text() and "Cross-validation tab" in box.info.text()
    window.cv_tab.folds_box.setValue(3)             # the CV tab's own control
    assert "only" not in box.info.text()


def test_a_groups_column_with_missing_values_gives_a_dialog_with_what_to_change(
        window, qtbot, tmp_path, warnings_shown):
    frame = visits(n_subjects=20, seed=4)
    frame.loc[[3, 7], "subject"] = np.nan
    path = tmp_path / "gaps.csv"
    frame.to_csv(path, index=False)
    open_file(window, qtbot, path)
    box = window.dataset_tab.groups_box
    index = box.combo.findData("subject")
    box.combo.setCurrentIndex(index)
    with qtbot.waitSignal(window.dataset_tab.load_failed, timeout=60000):
        box.combo.activated.emit(index)
    assert len(warnings_shown) == 1
    title, text = warnings_shown[0]
    assert "2 missing value(s)" in text and "fill them in" in text
    assert window.state.dataset.groups is None
    qtbot.waitUntil(lambda: box.chosen() is None, timeout=60000)   # back to what is in use


def test_groups_are_per_data_set_and_the_target_cannot_be_them(window, qtbot, visits_csv):
    open_file(window, qtbot, visits_csv)
    pick_groups(window, qtbot, "subject")
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=60000):
        window.dataset_tab.add_builtin("iris")
    box = window.dataset_tab.groups_box
    assert box.chosen() is None and not box.combo.isEnabled()
    assert "Built-in data sets have no such column" in box.info.text()
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=60000):
        window.state.select_dataset(0)
    assert box.chosen() == "subject"
    assert "label" not in [box.combo.itemData(i) for i in range(box.combo.count())]
    combo = window.dataset_tab.target_combo
    index = combo.findText("subject")
    combo.setCurrentIndex(index)
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=60000):
        combo.activated.emit(index)
    assert window.state.dataset.target == "subject" and window.state.dataset.groups is None


@pytest.mark.slow
def test_run_both_ways_shows_the_gap_and_save_reopen_keeps_it(window, qtbot, visits_csv,
                                                              tmp_path, warnings_shown):
    open_file(window, qtbot, visits_csv)
    pick_groups(window, qtbot, "subject")
    box = window.dataset_tab.groups_box
    qtbot.mouseClick(box.compare_check, Qt.LeftButton)
    assert window.state.cv.compare_ungrouped
    cv_tab = window.cv_tab
    cv_tab.folds_box.setValue(3)
    cv_tab.repeats_box.setValue(2)
    assert window.state.cv.compare_ungrouped           # kept by the CV tab's settings
    window.state.set_model_entries([{"name": "knn", "estimator": "KNeighborsClassifier",
                                     "scale": True, "params": {"n_neighbors": 1}},
                                    {"name": "nb", "estimator": "GaussianNB"}])
    with run_succeeds(qtbot, cv_tab):
        cv_tab.start_run()
    result = window.state.result
    gap = result.grouping_gap
    assert gap is not None and list(gap.table.columns) == GAP_COLUMNS
    dataset = window.state.dataset                      # the statistics: grouped folds
    first = result.cv.predictions.query("model == 'nb' and repeat == 1 and fold == 1")["row"]
    _, test = next(StratifiedGroupKFold(3, shuffle=True, random_state=0)
                   .split(dataset.X, dataset.y, dataset.groups))
    np.testing.assert_array_equal(np.sort(first.to_numpy()), np.sort(test))
    view = next(window.results_tab.views.widget(i) for i in
                range(window.results_tab.views.count())
                if window.results_tab.views.tabText(i) == "Grouped vs ungrouped")
    window.state.renderer.flush()
    assert view.stack.currentIndex() == 1
    pd.testing.assert_frame_equal(view.table.frame(), gap.table)
    primary = gap.table[gap.table["metric"] == result.cv.primary_metric]
    heights = view.plot.drawn_heights()
    np.testing.assert_allclose(heights["ordinary folds (groups ignored)"],
                               primary["ungrouped_mean"])
    np.testing.assert_allclose(heights["rows of a group kept together"], primary["grouped_mean"])
    note = next(n for n in result.notes if n.code == "grouping_gap")
    assert f"{note.fields['ungrouped_mean']:.3f}" in view.verdict.text()
    saved = tmp_path / "saved.json"
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        assert window.save_experiment(str(saved))
    data = json.loads(saved.read_text())
    assert data["dataset"]["groups"] == "subject" and data["cv"]["compare_ungrouped"] is True
    window.state.set_result(None)
    window.state.set_cv(type(window.state.cv)(), ())
    with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                           timeout=20000):
        window.open_experiment(str(saved))
    assert window.state.dataset.source["groups"] == "subject"
    assert box.chosen() == "subject" and box.compare_check.isChecked()
    assert window.state.cv.compare_ungrouped
    assert not warnings_shown


def test_the_view_says_what_to_do_without_a_gap(window, qtbot):
    from gui.views.grouping_gap_view import HINT, NO_GROUPS

    view = next(window.results_tab.views.widget(i) for i in
                range(window.results_tab.views.count())
                if window.results_tab.views.tabText(i) == "Grouped vs ungrouped")
    assert view.stack.currentIndex() == 0 and view.hint.text() == HINT
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=60000):
        window.dataset_tab.load_builtin("iris")
    from dataclasses import replace

    window.state.set_cv(replace(window.state.cv, n_splits=3, n_repeats=1,
                                compare_ungrouped=True), ("accuracy",))
    window.state.set_model_entries([{"estimator": "GaussianNB"}])
    with run_succeeds(qtbot, window.cv_tab):
        window.cv_tab.start_run()
    assert view.stack.currentIndex() == 0 and view.hint.text() == NO_GROUPS
