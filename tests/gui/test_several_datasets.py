"""Several data sets in the app (#12), driven through the real widgets: the Dataset tab's
list (add built-ins and files, rename, remove, each with its own target), experiment files
with a "datasets" list opened whole and saved as a list, and the run of all of them, whose
numbers equal the headless runner's."""
import json
import os

import pandas as pd
import pytest
from PySide6.QtWidgets import QFileDialog

from engine.runs.benchmark import run_benchmark
from engine.input.data import load_builtin
from engine.evaluation.experiment import load_experiment, parse_experiment
from engine.foundation.progress import run_to_end
from gui.state import AppState
from gui.tabs.cv_tab import CVTab
from gui.tabs.dataset_tab import DatasetTab
from tests.gui.waiting import run_succeeds

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "resources", "examples", "five_models_six_datasets.json")
SEED = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")
PENGUINS = os.path.join(ROOT, "tests", "data", "penguins.csv")
TWO_MODELS = [{"name": "logistic", "estimator": "LogisticRegression", "scale": True},
              {"name": "bayes", "estimator": "GaussianNB"}]


@pytest.fixture(autouse=True)
def answers(monkeypatch):
    """Questions before closing are answered "discard" (no dialog is shown)."""
    monkeypatch.setattr("gui.saving.ask_choice", lambda *args: "discard")


@pytest.fixture
def tab(qtbot):
    widget = DatasetTab(AppState())
    widget.resize(1280, 800)
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.shutdown()


@pytest.fixture
def cv_tab(qtbot):
    widget = CVTab(AppState())
    widget.resize(1280, 800)
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.shutdown()


def add_builtin_from_menu(tab, qtbot, name):
    """Pick ``name`` in the Add built-in… button's menu."""
    action = next(a for a in tab.dataset_list.add_builtin_button.menu().actions()
                  if a.text() == name)
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        action.trigger()


def add_file_with_button(tab, qtbot, monkeypatch, path, wait=True):
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kw: (str(path), ""))
    if not wait:
        tab.dataset_list.add_file_button.click()
        return
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.dataset_list.add_file_button.click()


def pick_target(tab, qtbot, column):
    tab.target_combo.setCurrentText(column)
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.target_combo.activated.emit(tab.target_combo.currentIndex())


def open_file(window, qtbot, path):
    with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                           timeout=20000):
        window.open_experiment(str(path))


def test_add_builtins_and_a_file_rename_remove_each_keeps_its_target(tab, qtbot, monkeypatch,
                                                                     warnings_shown):
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.load_builtin("iris")
    add_builtin_from_menu(tab, qtbot, "wine")
    add_builtin_from_menu(tab, qtbot, "iris")                   # the same one twice
    add_file_with_button(tab, qtbot, monkeypatch, PENGUINS)
    state, names = tab.state, tab.dataset_list.names
    assert names() == ["iris", "wine", "iris (2)", "penguins"]
    assert state.dataset.name == "penguins" and state.selected_index() == 3
    frame = pd.read_csv(PENGUINS)
    cells = [tab.dataset_list.table.item(3, c).text() for c in (1, 2)]
    target = state.datasets[3].target                           # the engine's choice
    assert cells == [str(frame[target].notna().sum()), str(frame[target].nunique())]
    pick_target(tab, qtbot, "island")                           # acts on the selected one
    assert state.datasets[3].target == "island" and state.datasets[3].source["target"] == "island"
    assert [tab.dataset_list.table.item(3, c).text() for c in (1, 2)] == ["344", "3"]
    tab.dataset_list.select(1)
    qtbot.waitUntil(lambda: tab.summary.text().count("178") > 0, timeout=60000)
    assert state.dataset.name == "wine" and tab.target_combo.currentText() == "target"
    tab.dataset_list.select(3)
    qtbot.waitUntil(lambda: tab.target_combo.currentText() == "island", timeout=60000)
    assert tab.target_combo.isEnabled()
    # rename in place (the name cell edited), then a name that cannot be used
    tab.dataset_list.table.item(2, 0).setText("iris, again")
    assert names()[2] == "iris, again" and state.datasets[2].source["name"] == "iris, again"
    tab.dataset_list.table.item(0, 0).setText("a/b")
    assert names()[0] == "iris" and warnings_shown[-1][0] == "Cannot use this name"
    assert "cannot name a data set" in warnings_shown[-1][1]
    tab.dataset_list.table.item(0, 0).setText("WINE")          # case does not count
    assert names()[0] == "iris" and "already the name" in warnings_shown[-1][1]
    # remove the selected one (penguins): its neighbour is selected, the others unchanged
    tab.dataset_list.select(1)
    qtbot.waitUntil(lambda: state.dataset.name == "wine", timeout=60000)
    tab.dataset_list.remove_button.click()
    assert names() == ["iris", "iris, again", "penguins"] and state.dataset.name == "iris, again"
    assert [d.target for d in state.datasets] == ["target", "target", "island"]
    while len(state.datasets) > 1:
        tab.dataset_list.remove_button.click()
    assert not tab.dataset_list.remove_button.isEnabled()      # the last one stays
    assert len(warnings_shown) == 2


def test_open_replaces_the_selected_data_set_and_add_file_adds(tab, qtbot, monkeypatch):
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.load_builtin("iris")
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.open_file(PENGUINS)                                  # as today: replaces it
    assert [d.name for d in tab.state.datasets] == ["penguins"]
    add_builtin_from_menu(tab, qtbot, "moons")
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.load_builtin("circles")                             # replaces the selected one
    assert [d.name for d in tab.state.datasets] == ["penguins", "circles"]
    assert "Add built-in" in tab.load_builtin_button.toolTip()


def test_a_bad_file_to_add_gives_a_dialog_and_changes_nothing(tab, qtbot, monkeypatch,
                                                              warnings_shown, tmp_path):
    with qtbot.waitSignal(tab.view_ready, timeout=60000):
        tab.load_builtin("iris")
    add_builtin_from_menu(tab, qtbot, "wine")
    before = list(tab.state.datasets)
    bad = tmp_path / "empty.csv"
    bad.write_text("", encoding="utf-8")
    with qtbot.waitSignal(tab.load_failed, timeout=60000):
        add_file_with_button(tab, qtbot, monkeypatch, bad, wait=False)
    assert len(warnings_shown) == 1 and warnings_shown[0][0] == "Cannot use this data"
    assert tab.state.datasets == before and tab.state.dataset is before[1]
    assert tab.dataset_list.add_file_button.isEnabled()


def test_the_shipped_example_opens_whole_saves_as_a_list_and_reopens_equal(window, qtbot,
                                                                           tmp_path):
    open_file(window, qtbot, EXAMPLE)
    state = window.state
    blocks = load_experiment(EXAMPLE).datasets
    assert [d.name for d in state.datasets] == [b["name"] for b in blocks]
    assert [d.n_rows for d in state.datasets] == [200, 200, 200, 200, 300, 300]
    assert window.dataset_tab.dataset_list.names()[5] == "linear, 20 columns"
    assert not window.is_dirty()
    assert window.proposed_experiment_path() != EXAMPLE        # shipped: never over it
    assert "× 6 data sets = 300 fits" in window.cv_tab.size_label.text()
    window.dataset_tab.dataset_list.table.item(1, 0).setText("noisy moons")
    assert window.is_dirty() and window.windowTitle().startswith(
        "five_models_six_datasets.json*")
    saved = tmp_path / "mine.json"
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        window.save_experiment(str(saved))
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert "dataset" not in data and len(data["datasets"]) == 6
    assert data["datasets"][1] == {"name": "noisy moons", "builtin": "moons", "n_samples": 200,
                                   "noise": 0.5, "random_state": 2}
    assert not window.is_dirty()
    first = parse_experiment(data).to_json()
    sources = window.data_sources()
    window.state.set_dataset(load_builtin("iris"))              # something else, then reopen
    open_file(window, qtbot, saved)
    assert window.data_sources() == sources and window.state.to_experiment().to_json() == first
    assert not window.is_dirty() and window.proposed_experiment_path() == str(saved)


def test_one_data_set_is_saved_as_before(window, qtbot, tmp_path):
    open_file(window, qtbot, SEED)
    saved = tmp_path / "one.json"
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        window.save_experiment(str(saved))
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert "datasets" not in data and data["dataset"] == window.state.dataset.source
    assert list(data) == ["dataset", "models", "cv", "metrics", "comparison"]


def test_a_data_set_that_cannot_be_read_fails_the_file_with_one_dialog(window, qtbot, tmp_path,
                                                                      warnings_shown):
    open_file(window, qtbot, SEED)
    before = (list(window.state.datasets), window.state.experiment_path)
    with open(EXAMPLE, encoding="utf-8") as stream:
        data = json.load(stream)
    data["datasets"][1] = {"csv": "missing.csv", "target": "y"}
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    window.open_experiment(str(path))
    qtbot.waitUntil(lambda: len(warnings_shown) == 1, timeout=60000)
    title, text = warnings_shown[0]
    assert title == "Cannot open the experiment"
    assert text.startswith('Data set "missing" (datasets[1]): ')      # a capital
    assert (list(window.state.datasets), window.state.experiment_path) == before


def setup_two(state, k=3, r=2):
    state.set_datasets([load_builtin("moons", n_samples=120, noise=0.3, random_state=1),
                        load_builtin("circles", n_samples=150, noise=0.15, factor=0.6,
                                     random_state=2)])
    state.set_model_entries(TWO_MODELS)


def refuse_to_pivot(*args, **kwargs):
    raise AssertionError("a score matrix was computed in the window's process")


def test_two_data_sets_run_end_to_end_and_equal_the_headless_run(cv_tab, qtbot):
    state = cv_tab.state
    setup_two(state)
    cv_tab.folds_box.setValue(3)
    cv_tab.repeats_box.setValue(2)
    assert cv_tab.size_label.text().startswith(
        "Run computes: 2 models × 3 folds × 2 repeats × 2 data sets = 24 fits on 270 rows")
    with run_succeeds(qtbot, cv_tab):
        cv_tab.run_button.click()
    benchmark = state.benchmark
    assert benchmark.names == ("moons", "circles") and state.result is benchmark.results[0]
    assert cv_tab.progress_bar.value() == 24
    assert cv_tab.time_label.text().startswith("Done: 2 models on 2 data sets")
    assert "moons:\nNo fold failed" in cv_tab.log.toPlainText()
    # prepared for display in the run's process: notes and score matrices came back cached
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pd.DataFrame, "pivot", refuse_to_pivot)
        for each in benchmark.results:
            assert "notes" in each.__dict__
            assert each.cv.score_matrix("roc_auc").shape == (2, 6)
    headless = run_to_end(run_benchmark(parse_experiment(state.to_experiment().to_json())))
    gui_tables = benchmark.tables()
    assert set(gui_tables) == set(headless.tables())
    for name, table in headless.tables().items():
        drop = [c for c in table.columns if c == "fit_seconds"]
        pd.testing.assert_frame_equal(gui_tables[name].drop(columns=drop),
                                      table.drop(columns=drop), check_exact=True)
    assert benchmark.texts() == headless.texts()


def test_cancel_a_run_of_several_data_sets(cv_tab, qtbot):
    state = cv_tab.state
    state.set_datasets([load_builtin("breast_cancer"), load_builtin("breast_cancer")])
    state.set_model_entries([{"name": "forest", "estimator": "RandomForestClassifier",
                              "params": {"n_estimators": 30, "random_state": 0}}])
    cv_tab.folds_box.setValue(10)
    cv_tab.repeats_box.setValue(10)
    with qtbot.waitSignal(cv_tab.run_started, timeout=60000):
        cv_tab.start_run()
    qtbot.waitUntil(lambda: cv_tab.progress_bar.value() >= 2, timeout=60000)
    assert "data set 1 of 2: breast_cancer — fit " in cv_tab.time_label.text()
    with qtbot.waitSignal(cv_tab.run_cancelled, timeout=60000):
        cv_tab.cancel_button.click()
    assert state.benchmark is None and state.result is None
    assert cv_tab.progress_bar.value() < 200 and cv_tab.run_button.isEnabled()


def test_a_data_set_the_folds_cannot_use_is_named_before_any_fit(cv_tab, qtbot,
                                                                preflight_lists):
    state = cv_tab.state
    state.set_datasets([load_builtin("iris"), load_builtin("moons", n_samples=12)])
    state.set_model_entries(TWO_MODELS)
    cv_tab.folds_box.setValue(10)
    assert state.metrics[0] == "roc_auc_ovr"                   # valid on 3 and on 2 classes
    cv_tab.start_run()
    qtbot.waitUntil(lambda: preflight_lists != [], timeout=60000)
    folds = [(stops, words) for code, stops, words in preflight_lists[0]
             if code == "too_few_rows"]
    assert len(folds) == 1 and folds[0][0]
    assert folds[0][1].startswith("the data set 'moons': the smallest class has only 6 row(s)")
    qtbot.waitUntil(lambda: cv_tab.run_button.isEnabled(), timeout=60000)
    assert cv_tab.time_label.text() == "Not started: fix the setup, then press Run."


def test_the_live_plot_starts_again_for_each_data_set(cv_tab):
    from engine.runs.benchmark import DatasetStep
    from engine.evaluation.cv import FoldScores
    from engine.foundation.progress import Progress
    from gui.tabs.benchmark_run import LivePlotFeed

    setup_two(cv_tab.state)
    experiment = cv_tab.state.to_experiment()
    feed = LivePlotFeed(cv_tab.live_plot, experiment)

    def step(index, name, fold):
        record = Progress(fold, 6, "fold", 0.0, FoldScores("bayes", 1, fold,
                                                           {"roc_auc": 0.5 + fold / 10}))
        return DatasetStep(index, name, 2, record)

    feed.add([step(0, "moons", 1), step(0, "moons", 2)])
    assert list(cv_tab.live_plot.lines[1].getData()[0]) == [1, 2]
    feed.add([step(0, "moons", 3), step(1, "circles", 1)])
    assert "Data set 2 of 2, circles" in cv_tab.live_plot.title.text()
    assert list(cv_tab.live_plot.lines[1].getData()[1]) == [0.6]
