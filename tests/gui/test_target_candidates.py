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
