"""No assumed target in the app: a file whose target is not named shows the candidates as
one-click buttons, keeps the step "Choose the column to predict" open and Run waiting; one
click names it. An identifier restarting in each centre is offered as the pair."""
import numpy as np
import pandas as pd
import pytest

from gui.tabs.cv_tab import CHOOSE_TARGET

RNG = np.random.default_rng(3)


@pytest.fixture(autouse=True)
def discard_unsaved_changes(monkeypatch):
    monkeypatch.setattr("gui.saving.ask_choice", lambda *args: "discard")


def write_icu(path, n=120):
    pd.DataFrame({"ID": np.arange(1, n + 1) * 4, "Survive": RNG.integers(0, 2, n),
                  "Age": RNG.integers(16, 90, n), "Sex": RNG.integers(0, 2, n),
                  "SysBP": RNG.integers(60, 200, n),
                  "Emergency": RNG.integers(0, 2, n)}).to_csv(path, index=False)
    return str(path)


def test_candidates_wait_for_one_click_and_run_waits(window, qtbot, tmp_path):
    tab = window.dataset_tab
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.open_file(write_icu(tmp_path / "icu.csv"))
    dataset = window.state.dataset
    assert "target" not in dataset.source
    assert dataset.target == "Survive"                       # shown provisionally
    assert not [n for n in dataset.notes if n.code in ("possible_leak", "positive_class")]
    shown = [b.text() for b in tab.candidate_buttons if b.isVisibleTo(tab)]
    assert shown[:2] == ["Survive  —  named like an outcome (survive), 2 classes",
                         "Emergency  —  2 classes, the last column"]
    assert tab.target_combo.currentIndex() == -1
    assert "not chosen yet (shown: Survive, 2 classes)" in tab.summary.text()
    assert window.start.panel.done() == [True, False, False]
    run = window.cv_tab.run_button
    assert run.text() == CHOOSE_TARGET and not run.isEnabled()
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.candidate_buttons[1].click()                     # Emergency
    dataset = window.state.dataset
    assert dataset.source["target"] == "Emergency" == dataset.target
    assert not tab.candidates_box.isVisibleTo(tab)
    assert tab.target_combo.currentText() == "Emergency"
    assert window.start.panel.done() == [True, True, False]
    assert run.text() == "Run" and run.isEnabled()


def test_choosing_the_shown_candidate_in_the_list_names_it(dataset_tab, qtbot, tmp_path):
    with qtbot.waitSignal(dataset_tab.view_ready, timeout=60000):
        dataset_tab.open_file(write_icu(tmp_path / "icu.csv"))
    combo = dataset_tab.target_combo
    combo.setCurrentIndex(combo.findText("Survive"))
    with qtbot.waitSignal(dataset_tab.view_ready, timeout=60000):
        combo.activated.emit(combo.currentIndex())
    assert dataset_tab.state.dataset.source["target"] == "Survive"


def test_an_id_restarting_in_each_centre_is_offered_as_a_pair(dataset_tab, qtbot, tmp_path):
    rows = [{"centre": c, "id": i, "age": int(RNG.integers(15, 70)), "visit": v,
             "outcome": int(RNG.integers(0, 2))}
            for c, n in ((1, 16), (2, 15)) for i in range(1, n + 1) for v in range(1, 5)]
    path = tmp_path / "respiratory.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    with qtbot.waitSignal(dataset_tab.view_ready, timeout=60000):
        dataset_tab.open_file(str(path))
    box = dataset_tab.groups_box
    assert dataset_tab.state.dataset.target == "outcome"      # named as a target: the rule
    assert box.suggest_button.text() == "Use centre + id: 'id' restarts in each 'centre'"
    with qtbot.waitSignal(dataset_tab.view_ready, timeout=60000):
        box.suggest_button.click()
    dataset = dataset_tab.state.dataset
    assert dataset.source["groups"] == ["centre", "id"]
    assert len(np.unique(dataset.groups)) == 31
    assert box.combo.currentText() == "centre + id"
    assert "31 groups of 4 rows." in box.info.text()


def test_an_experiment_saved_before_the_choice_opens_with_the_candidates(window, qtbot,
                                                                          tmp_path):
    tab = window.dataset_tab
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.open_file(write_icu(tmp_path / "icu.csv"))
    window.models_tab.add_model("GaussianNB")
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        window.save_experiment(str(tmp_path / "study.json"))
    with qtbot.waitSignals([window.experiment_loaded, tab.view_ready], timeout=20000):
        window.open_experiment(str(tmp_path / "study.json"))
    dataset = window.state.dataset
    assert "target" not in dataset.source and dataset.target == "Survive"
    assert tab.candidate_buttons[0].text().startswith("Survive  —  ")
    assert window.cv_tab.run_button.text() == CHOOSE_TARGET


def test_the_only_candidate_still_waits_for_its_click(dataset_tab, qtbot, tmp_path):
    rng = np.random.default_rng(0)
    path = tmp_path / "only.csv"
    pd.DataFrame({"a": rng.normal(size=40), "b": rng.normal(size=40),
                  "kind": rng.choice(["x", "y"], 40)}).to_csv(path, index=False)
    with qtbot.waitSignal(dataset_tab.view_ready, timeout=60000):
        dataset_tab.open_file(str(path))
    dataset = dataset_tab.state.dataset
    assert dataset.target == "kind" and "target" not in dataset.source
    assert [n.code for n in dataset.notes if n.code.startswith("target")] == \
        ["target_not_chosen"]
    shown = [b.text() for b in dataset_tab.candidate_buttons if b.isVisibleTo(dataset_tab)]
    assert shown == ["kind  —  named like an outcome (kind), 2 classes, the last column"]
    with qtbot.waitSignal(dataset_tab.view_ready, timeout=60000):
        dataset_tab.candidate_buttons[0].click()
    assert dataset_tab.state.dataset.source["target"] == "kind"


def test_a_column_named_class_is_the_files_own_choice(dataset_tab, qtbot, tmp_path):
    rng = np.random.default_rng(0)
    path = tmp_path / "named.csv"
    pd.DataFrame({"a": rng.normal(size=40), "flag": rng.integers(0, 2, 40),
                  "class": rng.choice(["x", "y"], 40)}).to_csv(path, index=False)
    with qtbot.waitSignal(dataset_tab.view_ready, timeout=60000):
        dataset_tab.open_file(str(path))
    assert dataset_tab.state.dataset.source["target"] == "class"
    assert not dataset_tab.candidates_box.isVisibleTo(dataset_tab)


def test_choosing_the_outcome_unticks_its_leak_time_and_censoring(dataset_tab, qtbot,
                                                                   tmp_path):
    rng = np.random.default_rng(1)
    n = 120
    recurrence = rng.integers(0, 2, n)
    path = tmp_path / "blood.csv"
    pd.DataFrame({"Age": rng.integers(40, 80, n), "AA": rng.integers(0, 2, n),
                  "PVol": rng.normal(50, 10, n).round(1), "Recurrence": recurrence,
                  "Censor": 1 - recurrence,
                  "TimeToRecurrence": rng.gamma(2, 20, n).round(2)}).to_csv(path, index=False)
    with qtbot.waitSignal(dataset_tab.view_ready, timeout=60000):
        dataset_tab.open_file(str(path))
    assert "exclude" not in dataset_tab.state.dataset.source     # nothing judged yet
    assert dataset_tab.candidate_buttons[0].text().startswith("Recurrence  —  ")
    with qtbot.waitSignal(dataset_tab.view_ready, timeout=60000):
        dataset_tab.candidate_buttons[0].click()
    dataset = dataset_tab.state.dataset
    assert dataset.source["exclude"] == ["Censor", "TimeToRecurrence"]
    assert list(dataset.X.columns) == ["Age", "AA", "PVol"]
    assert "time to the event beside the target 'Recurrence'" in \
        dataset_tab.columns.item("TimeToRecurrence").toolTip()
