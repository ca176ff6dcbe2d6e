"""The Cross-validation tab's Subgroups page and the Results tab's Subgroups view (issue
42), driven through their widgets: ticking columns and typing cut points writes the
experiment's ``"subgroups"``; new data starts without them; the view draws each
subgroup's score with its interval, greys those without a verdict, and exports its
tables.
"""
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import Qt

from engine.evaluation.coverage_record import Coverage, coverage_words, level_words
from engine.input.readers import load_dataset
from gui.state import AppState
from gui.subgroup_blocks import parse_cuts, subgroup_blocks
from gui.views.subgroups_box import SubgroupsBox
from gui.views.subgroups_view import SubgroupsView, method_text
from tests.gui.waiting import run_succeeds

SCORE_COLUMNS = ["model", "column", "subgroup", "metric", "n_rows", "n_positive", "score",
                 "ci_low", "ci_high", "level", "method", "estimand", "verdict_allowed"]
GAP_COLUMNS = ["model", "column", "metric", "subgroup_high", "subgroup_low", "gap", "ci_low",
               "ci_high", "p_value", "method"]


@pytest.fixture
def data_file(tmp_path):
    rng = np.random.default_rng(0)
    n = 120
    frame = pd.DataFrame({"age": rng.integers(20, 90, n), "sex": rng.choice(["F", "M"], n),
                          "bmi": rng.normal(27, 4, n), "site": rng.choice(["A", "B"], n)})
    frame["y"] = np.where(rng.random(n) < 0.4, "yes", "no")
    path = tmp_path / "people.csv"
    frame.to_csv(path, index=False)
    return str(path)


def people(path, **options):
    return load_dataset({"csv": path, "target": "y", "exclude": ["site"], **options})


def ticked(box) -> dict:
    items = (box.column_list.item(i) for i in range(box.column_list.count()))
    return {item.data(Qt.UserRole): item.checkState() == Qt.Checked for item in items}


# ---------------------------------------------------------------------- the box
def test_ticking_columns_and_typing_cuts_writes_the_experiments_subgroups(qtbot, data_file):
    state = AppState()
    box = SubgroupsBox(state)
    qtbot.addWidget(box)
    state.set_dataset(people(data_file))
    assert ticked(box) == {"age": False, "sex": False, "bmi": False, "site": False}
    assert box.column_list.item(3).text() == "site  (categories, left out of the features)"
    box.tick("sex")
    assert not box.cuts_edit.isEnabled()                 # categories: no cut points
    box.tick("age")
    assert box.cuts_edit.isEnabled() and box.cuts_label.text() == "Cut age at"
    qtbot.keyClicks(box.cuts_edit, "40, 65")
    qtbot.keyClick(box.cuts_edit, Qt.Key_Return)
    assert state.subgroups == ({"column": "age", "cuts": [40, 65]}, "sex")
    assert state.experiment_setup()["subgroups"] == [{"column": "age", "cuts": [40, 65]},
                                                     "sex"]
    assert box.column_list.item(0).text() == "age  (numbers; cut at 40, 65)"
    box.tick("age", False)                               # unticked: its cuts go too
    assert state.subgroups == ("sex",)


def test_bad_cut_points_are_refused_with_a_sentence_and_change_nothing(qtbot, data_file):
    state = AppState()
    box = SubgroupsBox(state)
    qtbot.addWidget(box)
    box.show()
    state.set_dataset(people(data_file))
    box.tick("bmi")
    for typed, problem in (("25, x", "Type numbers separated by commas, such as 40, 65."),
                           ("30, 25", "Type the cut points from smallest to largest, each once."),
                           ("inf", "Cut points must be ordinary numbers.")):
        box.cuts_edit.setText(typed)
        box.cuts_edit.editingFinished.emit()
        assert (box.problem.text(), box.problem.isVisible()) == (problem, True)
        assert state.subgroups == ("bmi",)
    box.cuts_edit.setText("25; 30")
    box.cuts_edit.editingFinished.emit()
    assert state.subgroups == ({"column": "bmi", "cuts": [25, 30]},)
    assert not box.problem.isVisible()


def test_parse_cuts_bounds_and_blocks_round_trip():
    assert parse_cuts("40 65.5") == (40.0, 65.5)
    with pytest.raises(ValueError, match="at most 19"):
        parse_cuts(", ".join(str(i) for i in range(20)))
    entries = ["sex", {"column": "age", "cuts": [40, 65.5]}]
    assert subgroup_blocks(entries) == ("sex", {"column": "age", "cuts": [40, 65.5]})
    as_objects = [SimpleNamespace(column="sex", cuts=None),
                  SimpleNamespace(column="age", cuts=(40.0, 65.5))]
    assert subgroup_blocks(as_objects) == subgroup_blocks(entries)


def test_new_data_starts_without_subgroups_and_the_same_data_keeps_them(qtbot, data_file,
                                                                       tmp_path):
    state = AppState()
    box = SubgroupsBox(state)
    qtbot.addWidget(box)
    state.set_dataset(people(data_file))
    state.set_subgroups(["sex", {"column": "age", "cuts": [50]}])
    state.set_dataset(people(data_file, name="again"))     # the same file read again
    assert state.subgroups == ("sex", {"column": "age", "cuts": [50]})
    assert ticked(box)["sex"] and ticked(box)["age"]
    other = tmp_path / "other.csv"
    pd.read_csv(data_file).to_csv(other, index=False)
    state.set_dataset(people(str(other)))                # new data
    assert state.subgroups == () and not any(ticked(box).values())
    assert "subgroups" not in state.experiment_setup()


def test_a_column_the_data_lacks_stays_listed_so_it_can_be_unticked(qtbot, data_file):
    state = AppState()
    box = SubgroupsBox(state)
    qtbot.addWidget(box)
    state.set_dataset(people(data_file))
    state.set_subgroups(["hospital"])
    assert ticked(box)["hospital"]
    assert box.column_list.item(4).text() == "hospital  (not in this data)"
    assert box.problem.text() == "hospital is not a column of this data set: untick it."
    box.tick("hospital", False)
    assert state.subgroups == ()


def test_the_cv_tab_shows_the_page_beside_the_log_its_tab_counting(window, data_file,
                                                                   monkeypatch):
    monkeypatch.setattr("gui.saving.ask_choice", lambda *args: "discard")   # on closing
    tabs = window.cv_tab.lower_tabs
    assert [tabs.tabText(i) for i in range(tabs.count())][-1] == "Subgroups"
    assert tabs.widget(tabs.count() - 1) is window.cv_tab.subgroups_box
    window.state.set_dataset(people(data_file))
    window.cv_tab.subgroups_box.tick("sex")
    window.cv_tab.subgroups_box.tick("site")
    assert tabs.tabText(tabs.count() - 1) == "Subgroups (2)"
    assert window.state.experiment_setup()["subgroups"] == ["sex", "site"]


# ---------------------------------------------------------------------- the view
def fake_result() -> SimpleNamespace:
    """A result of the engine's shape: two models, sex (F judged, X too small) and age."""
    rows = []
    for model, shift in (("logreg", 0.0), ("forest", 0.02)):
        for metric in ("roc_auc", "accuracy"):
            for column, subgroup, n, judged, score in (
                    ("sex", "F", 160, True, 0.81), ("sex", "M", 150, True, 0.74),
                    ("sex", "X", 12, False, 0.60), ("age", "<40", 90, True, 0.83),
                    ("age", "40-65", 120, True, 0.78), ("age", ">=65", 112, True, 0.70)):
                value = score + shift - (0.1 if metric == "accuracy" else 0.0)
                rows.append([model, column, subgroup, metric, n, n // 3, value,
                             value - 0.05, value + 0.05, 0.95, "corrected_t_folds",
                             "expected_score_at_training_size", judged])
    scores = pd.DataFrame(rows, columns=SCORE_COLUMNS)
    method = "corrected_paired_t_folds_bonferroni"
    gaps = pd.DataFrame([["logreg", "sex", "roc_auc", "F", "M", 0.07, 0.01, 0.13, 0.02, method],
                         ["logreg", "age", "roc_auc", "<40", ">=65", 0.13, 0.05, 0.21, 0.004,
                          method]], columns=GAP_COLUMNS)
    fairness = pd.DataFrame({"model": ["logreg"], "column": ["sex"],
                             "demographic_parity_difference": [0.08],
                             "equalized_odds_difference": [0.11]})
    summary = pd.DataFrame({"model": ["logreg", "forest"], "metric": ["roc_auc"] * 2,
                            "mean": [0.77, 0.79]})
    sub = SimpleNamespace(scores=scores, gaps=gaps, fairness=fairness, notes=())
    return SimpleNamespace(subgroups=sub, cv=SimpleNamespace(primary_metric="roc_auc"),
                           summary=summary, notes=())


def test_the_view_draws_the_picked_models_subgroups_with_intervals(qtbot):
    view = SubgroupsView(AppState())
    qtbot.addWidget(view)
    assert view.stack.currentWidget() is view.hint
    view.set_result(fake_result())
    assert view.stack.currentIndex() == 1
    assert (view.model_combo.currentText(), view.column_combo.currentText(),
            view.metric_combo.currentData()) == ("logreg", "All columns", "roc_auc")
    assert [r[0] for r in view.plot.drawn_rows()][:3] == \
        ["sex = F (160 rows)", "sex = M (150 rows)", "sex = X (12 rows)"]
    assert view.plot.drawn_points(False) == [(pytest.approx(0.60), 2)]     # X: hollow
    assert view.plot.tags() == [(2, "too few rows/events: no verdict")]
    assert len(view.plot.drawn_points(True)) == 5
    assert view.plot.overall.value() == pytest.approx(0.77)
    assert view.unjudged.text() == "Too few rows/events: no verdict: sex = X (12 rows)."
    assert "F scores 0.070 above M (interval 0.010 to 0.130, p = 0.02)" in view.gap.text()
    assert view.method.text() == ("Intervals: Nadeau and Bengio's corrected t over the "
                                  f"subgroup's fold scores, {level_words(ID, 0.95)}; they are "
                                  "about the expected score of a model trained on this many "
                                  "rows by this procedure, on the subgroup's rows; cut at the "
                                  f"metric's possible range; {coverage_words(ID)}.")
    assert "Test: corrected paired t over the shared folds" in view.gap.text()
    from engine.evaluation.coverage_record import interval_label

    panel = view.panels["subgroup_scores.csv"]
    columns = list(panel.frame().columns)
    tip = panel.model.headerData(columns.index("ci_high"), Qt.Horizontal,
                                 Qt.ItemDataRole.ToolTipRole)
    assert interval_label(ID, 0.95) in tip
    assert "corrected t of a subgroup's mean fold score" in tip
    shown = panel.model.data(panel.model.index(0, columns.index("estimand")), Qt.DisplayRole)
    assert shown == "the expected score of a model trained on this many rows by this procedure"
    assert panel.frame()["estimand"].iloc[0] == "expected_score_at_training_size"
    assert view.plot.describe_point(0.6, 2.1) == ("sex = X: 0.600 (95% interval 0.550 to "
                                                  "0.650), 12 rows, 4 positive: too few "
                                                  "rows/events: no verdict")
    view.pick("forest", "age", "accuracy")
    assert view.plot.drawn_rows() == [("age = <40 (90 rows)", pytest.approx(0.75), True),
                                      ("age = 40-65 (120 rows)", pytest.approx(0.70), True),
                                      ("age = >=65 (112 rows)", pytest.approx(0.62), True)]
    assert not view.plot.overall.isVisible()               # no accuracy in the summary
    assert not view.unjudged.isVisible() and view.gap.text() == ""
    assert view.plot.tags() == []


ID = "subgroup_score"


def test_the_method_line_says_the_measured_coverage_or_that_none_was_measured():
    rows = pd.DataFrame({"method": ["corrected_t_folds"], "level": [0.95],
                         "estimand": ["expected_score_at_training_size"]})
    record = {ID: Coverage(ID, "corrected t", "expected_score_at_training_size", 0.95, 0.912,
                           0.951, 0.934, 15, 500, "2026-11-27", "coverage_study.py")}
    measured = method_text(rows, record)
    assert ", 91.2–95.1% measured; they are about the expected score" in measured
    assert measured.endswith("; covered 91.2–95.1% in the study (15 cells, 500 repetitions "
                             "per cell, at 95%).")
    unmeasured = method_text(rows, {})
    assert ", 95%; they are about" in unmeasured
    assert unmeasured.endswith("; coverage not yet measured.")
    assert method_text(rows.iloc[:0], record) == ""


def test_the_view_greys_unjudged_rows_and_exports_its_tables(qtbot, tmp_path):
    view = SubgroupsView(AppState())
    qtbot.addWidget(view)
    result = fake_result()
    view.set_result(result)
    scores = view.panels["subgroup_scores.csv"]
    style = [scores.model.data(scores.model.index(i, 0), Qt.BackgroundRole)
             for i in range(scores.model.rowCount())]
    grey = [i for i, brush in enumerate(style) if brush is not None]
    assert grey == list(np.flatnonzero(~result.subgroups.scores["verdict_allowed"]))
    assert [view.tables.isTabVisible(i) for i in range(4)] == [True, True, False, True]
    for name, frame in (("subgroup_gaps.csv", result.subgroups.gaps),
                        ("subgroup_scores.csv", result.subgroups.scores)):
        panel = view.panels[name]
        with qtbot.waitSignal(panel.exported, timeout=10000):
            panel.export_to(str(tmp_path / name))
        written = pd.read_csv(tmp_path / name)
        assert list(written.columns) == list(frame.columns) and len(written) == len(frame)
        assert np.allclose(written["ci_high"], frame["ci_high"])
    without = fake_result()
    without.subgroups.fairness = None
    view.set_result(without)
    assert not view.tables.isTabVisible(3)
    view.set_result(None)
    assert view.stack.currentWidget() is view.hint


def test_the_results_tab_lists_the_subgroups_view(window):
    titles = [window.results_tab.views.tabText(i)
              for i in range(window.results_tab.views.count())]
    assert titles.index("Subgroups") == titles.index("Grouped vs ungrouped") + 1


# ---------------------------------------------------------------------- a real run
@pytest.mark.slow
def test_a_run_with_subgroups_fills_the_view_and_saving_keeps_them(window, qtbot, data_file,
                                                                   tmp_path):
    """Tick sex and age (cut at 50) and site (left out), run two models, see the view
    filled with the engine's tables, export them, save and reopen the experiment."""
    state, cv_tab = window.state, window.cv_tab
    state.set_dataset(people(data_file))
    state.set_model_entries([{"name": "nb", "estimator": "GaussianNB"},
                             {"name": "stump", "estimator": "DecisionTreeClassifier",
                              "params": {"max_depth": 1, "random_state": 0}}])
    cv_tab.folds_box.setValue(3)
    cv_tab.repeats_box.setValue(2)
    box = cv_tab.subgroups_box
    for column in ("sex", "age", "site"):
        box.tick(column)
    box.tick("age")
    box.cuts_edit.setText("50")
    box.cuts_edit.editingFinished.emit()
    assert state.subgroups == ({"column": "age", "cuts": [50]}, "sex", "site")
    with run_succeeds(qtbot, cv_tab):
        cv_tab.start_run()
    state.renderer.flush()
    sub = state.result.subgroups
    view = next(window.results_tab.views.widget(i)
                for i in range(window.results_tab.views.count())
                if window.results_tab.views.tabText(i) == "Subgroups")
    assert view.stack.currentIndex() == 1
    assert sorted(set(sub.scores["column"])) == ["age", "sex", "site"]
    pd.testing.assert_frame_equal(view.panels["subgroup_scores.csv"].frame(), sub.scores)
    pd.testing.assert_frame_equal(view.panels["subgroup_gaps.csv"].frame(), sub.gaps)
    view.pick("stump", "age", state.result.cv.primary_metric)
    before = view.plot.drawn_rows()
    window.results_tab.controls.alpha_spin.setValue(0.1)      # rescored at 90 %
    sub = state.result.subgroups
    assert np.allclose(sub.scores["level"], 0.9)
    assert (view.model_combo.currentData(), view.column_combo.currentData()) == ("stump", "age")
    assert view.plot.drawn_rows() == before                 # the scores are the same
    assert view.method.text().split(", ")[1].startswith("90%")
    shown = sub.scores[(sub.scores["model"] == "stump") & (sub.scores["column"] == "age")
                       & (sub.scores["metric"] == state.result.cv.primary_metric)]
    assert [r[1] for r in view.plot.drawn_rows()] == pytest.approx(list(shown["score"]))
    assert [r[0] for r in view.plot.drawn_rows()] == \
        [f"age = {s} ({n:,} rows)" for s, n in zip(shown["subgroup"], shown["n_rows"])]
    assert "site (left out of the models)" in view.notes.text()
    panel = view.panels["subgroup_scores.csv"]
    with qtbot.waitSignal(panel.exported, timeout=10000):
        panel.export_to(str(tmp_path / "scores.csv"))
    written = pd.read_csv(tmp_path / "scores.csv")
    assert np.allclose(written["score"], sub.scores["score"])
    saved = tmp_path / "saved.json"
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        assert window.save_experiment(str(saved))
    state.set_subgroups([])
    with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                           timeout=60000):
        window.open_experiment(str(saved))
    assert state.subgroups == ({"column": "age", "cuts": [50]}, "sex", "site")
    assert ticked(box) == {"age": True, "sex": True, "bmi": False, "site": True}


def test_several_data_sets_are_told_subgroups_need_one(qtbot, data_file):
    state = AppState()
    box = SubgroupsBox(state)
    qtbot.addWidget(box)
    box.show()
    state.set_datasets([people(data_file), load_dataset({"builtin": "moons",
                                                         "n_samples": 60})])
    assert not box.column_list.isEnabled()
    assert box.problem.isVisible() and box.problem.text().startswith(
        "Subgroups are scored for one data set at a time")


def test_the_page_says_what_the_run_would_refuse_as_soon_as_it_is_typed(qtbot, data_file):
    state = AppState()
    box = SubgroupsBox(state)
    qtbot.addWidget(box)
    box.show()
    state.set_dataset(people(data_file))
    box.tick("bmi")
    box.cuts_edit.setText("1000")                          # above every row
    box.cuts_edit.editingFinished.emit()
    assert state.subgroups == ({"column": "bmi", "cuts": [1000]},)     # kept, and told
    assert box.problem.text() == ("bmi makes one subgroup only (<= 1000): type cut points "
                                  "inside its range, or untick it.")
    box.cuts_edit.setText("25")
    box.cuts_edit.editingFinished.emit()
    assert not box.problem.isVisible()
    box.tick("site")                                       # left out, text: no cuts
    assert not box.cuts_edit.isEnabled()
    state.set_subgroups([{"column": "site", "cuts": [3]}])  # as a file may say
    assert box.problem.text() == ("site holds text: clear its cut points to use its "
                                  "categories.")
    box.column_list.setCurrentRow(3)                       # site: its cuts can be cleared
    box.cuts_edit.setText("")
    box.cuts_edit.editingFinished.emit()
    assert state.subgroups == ("site",) and not box.problem.isVisible()


@pytest.mark.parametrize("font_scale", [1.0, 1.3])
def test_the_filled_view_fits_a_laptop_screen(qtbot, qapp, tmp_path, font_scale,
                                              monkeypatch):
    """With long model names and subgroup labels the window's minimum stays inside
    1280 x 768 (and inside 1280 wide with a font 1.3 times larger)."""
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QFont

    from engine.evaluation.experiment import parse_experiment
    from engine.foundation.progress import run_to_end
    from engine.runs.analysis import run_experiment
    from gui.main_window import MainWindow

    experiment = parse_experiment({"dataset": {"builtin": "breast_cancer"},
                                   "models": [{"name": "nb", "estimator": "GaussianNB"}],
                                   "cv": {"n_splits": 3, "n_repeats": 1}})
    dataset = load_dataset({"builtin": "breast_cancer"})
    monkeypatch.setattr("gui.saving.ask_choice", lambda *args: "discard")
    result = fake_result()
    long_name = "logistic regression with a long descriptive name number 1"
    result.subgroups.scores["model"] = result.subgroups.scores["model"].replace(
        "logreg", long_name)
    result.subgroups.scores["subgroup"] = result.subgroups.scores["subgroup"] + \
        " and a subgroup label much longer than any screen would want"
    font = qapp.font()
    larger = QFont(font)
    larger.setPointSizeF(font.pointSizeF() * font_scale)
    qapp.setFont(larger)
    try:
        window = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
        qtbot.addWidget(window)
        window.resize(1280, 768)
        window.show()
        window.state.set_dataset(dataset)
        window.state.set_result(replace(run_to_end(run_experiment(experiment)),
                                        subgroups=result.subgroups))
        views = window.results_tab.views
        window.tabs.setCurrentWidget(window.results_tab)
        view = next(views.widget(i) for i in range(views.count())
                    if views.tabText(i) == "Subgroups")
        views.setCurrentWidget(view)
        window.state.renderer.flush()
        qtbot.wait(10)
        assert view.plot.isVisible() and view.stack.currentIndex() == 1
        minimum = window.minimumSizeHint()
        assert minimum.width() <= 1280 and window.width() <= 1280
        if font_scale == 1.0:
            assert minimum.height() <= 768 and window.height() <= 768
        window.shutdown()
    finally:
        qapp.setFont(font)
