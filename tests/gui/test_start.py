"""A real starting point: File → New, the first-screen steps, and the starter set of models
proposed (one click to accept or decline) when one's own data is opened while the models
are still the example's."""
import os
import shutil

import pytest

from engine.evaluation.catalogue import expand_models, starter_models
from gui.store_location import UNSAVED_NAME

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")
PENGUINS = os.path.join(ROOT, "tests", "data", "penguins.csv")


@pytest.fixture(autouse=True)
def discard_unsaved_changes(monkeypatch):
    monkeypatch.setattr("gui.saving.ask_choice", lambda *args: "discard")


def open_seed(window, qtbot):
    with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                           timeout=20000):
        window.open_experiment(SEED)


def open_own_data(window, qtbot, tmp_path):
    path = tmp_path / "penguins.csv"
    shutil.copy(PENGUINS, path)
    with qtbot.waitSignal(window.dataset_tab.view_ready, timeout=20000):
        window.dataset_tab.open_file(str(path))
    return path


def file_new(window, qtbot):
    """File → New, and the turns of the event loop it clears the views in."""
    window.new_action.trigger()
    qtbot.waitUntil(lambda: not window.state.renderer.busy, timeout=20000)


def test_file_new_starts_clean(window, qtbot):
    open_seed(window, qtbot)
    assert window.state.experiment_path == SEED and window.state.model_entries
    window.cv_tab.folds_box.setValue(3)
    assert "store.sqlite" in window.cv_tab.store.path()
    assert os.path.basename(window.cv_tab.store.path()) != UNSAVED_NAME
    file_new(window, qtbot)
    state = window.state
    assert state.dataset is None and state.datasets == [] and state.model_entries == []
    assert state.experiment_path is None and state.result is None
    assert state.cv.n_splits == 10 and state.cv.n_repeats == 10
    assert state.cv.auto_precision == 0.02           # new data: "auto", at most 10 repeats
    assert os.path.basename(window.cv_tab.store.path()) == UNSAVED_NAME   # not the example's
    assert window.cv_tab.folds_box.value() == 10
    assert window.models_tab.expanded_list.count() == 0
    assert window.dataset_tab.preview.frame().empty
    assert window.windowTitle() == "Honest Eval"
    assert window.start.panel.isVisible() and window.start.panel.done() == [False] * 3
    assert window.new_action.shortcut().toString() == "Ctrl+N"


def test_own_data_gets_the_starter_set_offer_and_accepting_it(window, qtbot, tmp_path):
    open_seed(window, qtbot)
    assert not window.start.bar.isVisible()               # the example itself: no offer
    open_own_data(window, qtbot, tmp_path)
    bar = window.start.bar
    assert bar.isVisible() and "example" in bar.label.text()
    assert window.start.panel.done()[0]
    bar.use_button.click()
    assert not bar.isVisible()
    entries = window.state.model_entries
    assert entries == starter_models(window.state.cv.random_state)
    assert len(expand_models(entries)) == 5               # valid entries, five models
    assert [e["estimator"] for e in entries] == [
        "LogisticRegression", "RandomForestClassifier", "HistGradientBoostingClassifier",
        "KNeighborsClassifier", "GaussianNB"]
    assert entries[0]["scale"] and entries[3]["scale"]
    assert all(e["params"]["random_state"] == 0 for e in entries[1:3])
    assert window.models_tab.expanded_list.count() == 5
    open_own_data(window, qtbot, tmp_path)                 # the offer is made once
    assert not bar.isVisible()


def test_declining_keeps_the_models_and_asks_no_more(window, qtbot, tmp_path):
    open_seed(window, qtbot)
    before = list(window.state.model_entries)
    open_own_data(window, qtbot, tmp_path)
    window.start.bar.keep_button.click()
    assert window.state.model_entries == before and not window.start.bar.isVisible()
    open_own_data(window, qtbot, tmp_path)
    assert not window.start.bar.isVisible()


def test_models_chosen_by_the_user_get_no_offer(window, qtbot, tmp_path):
    open_seed(window, qtbot)
    window.models_tab.add_model("GaussianNB")
    open_own_data(window, qtbot, tmp_path)
    assert not window.start.bar.isVisible()


def test_after_new_own_data_is_offered_the_starter_set(window, qtbot, tmp_path):
    open_seed(window, qtbot)
    file_new(window, qtbot)
    open_own_data(window, qtbot, tmp_path)
    assert window.start.bar.isVisible() and "not chosen yet" in window.start.bar.label.text()
    window.start.bar.use_button.click()
    assert len(window.state.model_entries) == 5
    panel = window.start.panel
    assert panel.done()[0]


def test_data_opened_while_file_new_clears_the_views_is_kept(window, qtbot, tmp_path):
    """File → New clears the views over a few turns of the event loop; data opened
    before the last one ends the clearing first, so the clearing never drops it."""
    open_seed(window, qtbot)
    window.new_action.trigger()
    assert window.state.renderer.busy and window.state.model_entries    # not all cleared yet
    path = open_own_data(window, qtbot, tmp_path)
    qtbot.waitUntil(lambda: not window.state.renderer.busy, timeout=20000)
    state = window.state
    assert state.model_entries == [] and state.experiment_path is None
    assert state.dataset is not None and state.dataset.source["csv"] == str(path)
    assert window.dataset_tab.preview.frame().shape[0] == state.dataset.n_rows


def test_hiding_the_steps_is_remembered_and_new_shows_them(window, qtbot):
    panel = window.start.panel
    assert panel.isVisible()
    panel.close_button.click()
    assert not panel.isVisible()
    assert str(window.settings.value("start/hidden")).lower() == "true"
    file_new(window, qtbot)
    assert panel.isVisible()
