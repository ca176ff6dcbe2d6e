"""The window's result store, driven through the Cross-validation tab: a second Run reuses
every fit, Cancel keeps the finished fits and the bar offers to resume, the Earlier runs
list, reopening a run without any fit, and store files that cannot be used."""
import os
import sqlite3

import pandas as pd
import pytest

from engine.runs.analysis import run_experiment
from engine.input.data import load_builtin
from engine.foundation.progress import run_to_end
from engine.runs.store import ResultStore
from gui import store_runs
from gui.store_location import store_path
from tests.gui.waiting import run_succeeds
from tests.helpers import assert_same_tables, damaged, foreign, not_sqlite

QUICK = [{"name": "lr", "estimator": "LogisticRegression", "params": {"max_iter": 500}},
         {"name": "nb", "estimator": "GaussianNB"}]
SLOW = [{"name": "forest", "estimator": "RandomForestClassifier",
         "params": {"n_estimators": 200, "random_state": 0}}]


def set_up(tab, models=QUICK, folds=3, repeats=2):
    tab.state.set_dataset(load_builtin("breast_cancer"))
    tab.state.set_model_entries(models)
    tab.folds_box.setValue(folds)
    tab.repeats_box.setValue(repeats)


def run(tab, qtbot, start=None):
    with run_succeeds(qtbot, tab) as caught:
        (start or tab.start_run)()
    qtbot.waitUntil(lambda: "reused from earlier runs" in tab.time_label.text()
                    or "kept for later runs" in tab.time_label.text(), timeout=10000)
    return caught.args[0]


def stored_runs():
    with ResultStore(store_path(None)) as store:
        return store.runs()


@pytest.mark.slow
def test_a_second_run_reuses_every_fit(tab, qtbot):
    set_up(tab)
    first = run(tab, qtbot)
    assert "(all 12 fits computed and kept for later runs)" in tab.time_label.text()
    assert os.path.exists(store_path(None))           # unsaved work: the per-user folder
    second = run(tab, qtbot)
    assert "(12 of 12 fits reused from earlier runs)" in tab.time_label.text()
    assert_same_tables(first, second)
    runs = stored_runs()
    assert [(r.fits, r.reused, r.computed, r.complete) for r in runs] == [
        (12, 0, 12, True), (12, 12, 0, True)]


@pytest.mark.slow
def test_the_runs_list_shows_every_run_and_reopens_one_without_any_fit(tab, qtbot,
                                                                        monkeypatch):
    set_up(tab)
    first = run(tab, qtbot)
    tab.repeats_box.setValue(3)
    run(tab, qtbot)
    assert "(12 of 18 fits reused" in tab.time_label.text()
    view = tab.runs_view
    qtbot.waitUntil(lambda: len(view.table.frame()) == 2, timeout=60000)
    frame = view.table.frame()
    assert list(frame.columns) == ["Run", "Started", "Data", "Models", "Compare on", "Fits",
                                   "Reused", "Status"]
    assert list(frame["Run"]) == [2, 1]                       # newest first
    assert list(frame["Data"]) == ["breast_cancer"] * 2
    assert list(frame["Models"]) == ["lr, nb"] * 2
    assert list(frame["Compare on"]) == ["ROC AUC"] * 2
    assert list(frame["Fits"]) == [18, 12] and list(frame["Reused"]) == [12, 0]
    assert list(frame["Status"]) == ["complete", "complete"]
    assert view.where.text() == f"Kept in {store_path(None)}"

    def no_fit(*args, **kwargs):
        raise AssertionError("a fit was computed")

    monkeypatch.setattr("engine.evaluation.cv.fit_and_score", no_fit)   # the reopening runs here
    view.select_run(1)
    assert view.open_button.isEnabled() and not view.resume_button.isEnabled()
    with qtbot.waitSignal(view.opened, timeout=60000) as caught:
        view.open_button.click()
    reopened = caught.args[0]
    assert tab.state.result is reopened and reopened.experiment.cv.n_repeats == 2
    assert_same_tables(first, reopened)
    pd.testing.assert_series_equal(first.cv.scores["fit_seconds"],
                                   reopened.cv.scores["fit_seconds"])   # the stored times
    assert len(stored_runs()) == 2 and all(r.complete for r in stored_runs())
    assert "no fit computed" in view.where.text()


@pytest.mark.slow
def test_cancel_keeps_the_fits_and_resume_computes_only_the_missing_ones(tab, qtbot):
    set_up(tab, SLOW, folds=3, repeats=2)
    with qtbot.waitSignal(tab.run_started):
        tab.start_run()
    qtbot.waitUntil(lambda: tab.progress_bar.value() >= 2, timeout=60000)
    with qtbot.waitSignal(tab.run_cancelled, timeout=60000):
        tab.cancel_button.click()
    qtbot.waitUntil(lambda: "kept in the result store" in tab.time_label.text(), timeout=60000)
    kept = stored_runs()[-1].computed
    assert 1 <= kept < 6 and not stored_runs()[-1].complete   # a kill may lose the last 0.25 s
    assert f"{kept} of 6 finished fits are kept in the result store: Run resumes" in \
        tab.time_label.text()
    bar = tab.store.bar
    qtbot.waitUntil(bar.isVisible, timeout=60000)
    assert bar.kind == "offer" and bar.action_button.text() == "Resume"
    assert f"The last run of this experiment stopped after {kept} of 6 fits (" in \
        bar.label.text()
    assert "only the missing fits are computed" in bar.label.text()
    view = tab.runs_view
    qtbot.waitUntil(lambda: len(view.table.frame()) == 1, timeout=60000)
    assert view.table.frame()["Status"][0] == f"cancelled after {kept} of 6 fits"
    view.select_run(1)
    assert view.resume_button.isEnabled() and not view.open_button.isEnabled()
    tab.repeats_box.setValue(3)              # another setup: that run is not resumed by Run
    qtbot.waitUntil(lambda: view.snapshot.offer is None, timeout=60000)
    view.select_run(1)
    assert not view.resume_button.isEnabled() and "set up now" in view.resume_button.toolTip()
    tab.repeats_box.setValue(2)
    qtbot.waitUntil(lambda: view.snapshot.offer is not None, timeout=60000)
    qtbot.waitUntil(bar.isVisible, timeout=60000)

    resumed = run(tab, qtbot, bar.action_button.click)
    assert f"({kept} of 6 fits reused from earlier runs)" in tab.time_label.text()
    last = stored_runs()[-1]
    assert (last.fits, last.reused, last.computed, last.complete) == (6, kept, 6 - kept, True)
    assert not bar.isVisible()
    experiment = resumed.experiment
    uninterrupted = run_to_end(run_experiment(experiment, dataset=resumed.dataset))
    assert_same_tables(uninterrupted, resumed)


def test_no_offer_for_another_experiment():
    dataset = load_builtin("iris")
    setup = {"dataset": {"builtin": "iris"}, "models": QUICK[1:],
             "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0}}
    current = store_runs.current_runs(setup, [dataset])
    fingerprint, sections = current["iris"]

    class Run:
        id, batch, started, complete, fits, reused, computed = 1, "b", "2026-01-02T03:04", \
            False, 3, 0, 1
        data = {"name": "iris"}
        data_fingerprint = fingerprint
        experiment = {**setup, **sections}

    offer = store_runs.resume_offer([Run], current)
    assert (offer.done, offer.total, offer.run_ids) == (1, 3, (1,))
    assert "stopped after 1 of 3 fits (2026-01-02 03:04)" in offer.text()
    Run.experiment = {**setup, **sections, "cv": {**sections["cv"], "n_repeats": 2}}
    assert store_runs.resume_offer([Run], current) is None        # other folds
    Run.experiment, Run.data_fingerprint = {**setup, **sections}, "other data"
    assert store_runs.resume_offer([Run], current) is None        # other data
    Run.data_fingerprint, Run.complete = fingerprint, True
    assert store_runs.resume_offer([Run], current) is None        # it finished


def test_a_saved_experiment_keeps_its_store_beside_it(tab, qtbot, tmp_path):
    set_up(tab)
    tab.state.experiment_path = str(tmp_path / "mine.json")
    run(tab, qtbot)
    assert os.path.exists(tmp_path / "mine.store.sqlite")
    assert not os.path.exists(store_path(None))


def locked(path):
    """A store another program holds locked (returns what ends the lock)."""
    ResultStore(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")

    def release():
        holder.execute("ROLLBACK")
        holder.close()
    return release


@pytest.mark.slow
@pytest.mark.parametrize("make, words", [
    (not_sqlite, "is not a result store (it is not an SQLite database)"),
    (foreign, "is another program's database, not a result store of this app"),
    (damaged, "is damaged"),
    (locked, "is in use by another program")])
def test_a_store_that_cannot_be_used_is_explained_and_left_alone(tab, qtbot, warnings_shown,
                                                                  make, words):
    path = store_path(None)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    release = make(path)
    before = open(path, "rb").read()
    try:
        set_up(tab)
        tab.start_run()
        qtbot.waitUntil(lambda: bool(warnings_shown), timeout=60000)
        assert len(warnings_shown) == 1
        title, text = warnings_shown[0]
        assert title == "Cannot use the result store"
        assert f"The result store {path} {words}" in text
        assert "it has not changed the file" in text and "Run without keeping results" in text
        assert "Traceback" not in text and "--store" not in text
        assert "cannot be used" in tab.time_label.text() and tab.state.result is None
        bar = tab.store.bar
        assert bar.isVisible() and bar.action_button.text() == "Run without keeping results"
        with run_succeeds(qtbot, tab):
            bar.action_button.click()
        assert "The fits were not kept" in tab.time_label.text()
        assert len(warnings_shown) == 1
    finally:
        if release is not None:
            release()
    assert open(path, "rb").read() == before


def test_several_data_sets_share_the_store_and_reopen_together(tab, qtbot, monkeypatch,
                                                             warnings_shown):
    tab.state.set_datasets([load_builtin("moons", n_samples=120, noise=0.3, random_state=1),
                            load_builtin("circles", n_samples=150, noise=0.15, factor=0.6,
                                         random_state=1)])
    tab.state.set_model_entries(QUICK)
    tab.folds_box.setValue(3)
    tab.repeats_box.setValue(1)
    with qtbot.waitSignals([tab.run_succeeded], raising=False, timeout=120000):
        tab.start_run()
    assert not warnings_shown
    first = tab.state.benchmark
    qtbot.waitUntil(lambda: "kept for later runs" in tab.time_label.text(), timeout=60000)
    assert "(all 12 fits computed and kept for later runs)" in tab.time_label.text()
    with run_succeeds(qtbot, tab):
        tab.start_run()
    qtbot.waitUntil(lambda: "(12 of 12 fits reused" in tab.time_label.text(), timeout=60000)
    view = tab.runs_view
    qtbot.waitUntil(lambda: len(view.table.frame()) == 4, timeout=60000)
    assert list(view.table.frame()["Data"]) == ["circles", "moons"] * 2
    monkeypatch.setattr("engine.evaluation.cv.fit_and_score", None)      # any fit would fail
    view.select_run(1)
    with qtbot.waitSignal(view.opened, timeout=60000) as opened:
        view.open_button.click()
    reopened = opened.args[0]
    assert tab.state.benchmark is reopened and list(reopened.names) == ["moons", "circles"]
    for a, b in zip(first.results, reopened.results):
        assert_same_tables(a, b)
    tables, again = first.tables(), reopened.tables()
    assert tables.keys() == again.keys()
    for name, table in tables.items():
        keep = [c for c in table.columns if "seconds" not in str(c)]
        pd.testing.assert_frame_equal(table[keep], again[name][keep], check_exact=True)


@pytest.mark.slow
def test_save_as_takes_the_fits_along(window, qtbot, tmp_path):
    tab = window.cv_tab
    set_up(tab)
    run(tab, qtbot)
    saved = str(tmp_path / "saved.json")
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        window.save_experiment(saved)
    qtbot.waitUntil(lambda: os.path.exists(tmp_path / "saved.store.sqlite"), timeout=60000)
    qtbot.waitUntil(lambda: not tab.store.copying, timeout=60000)
    run(tab, qtbot)
    assert "(12 of 12 fits reused from earlier runs)" in tab.time_label.text()
    assert os.path.exists(store_path(None))                   # the unsaved store stays


@pytest.mark.slow
def test_opening_an_experiment_with_a_stopped_run_offers_to_resume(window, qtbot, tmp_path):
    import json

    from engine.evaluation.experiment import load_experiment

    path = tmp_path / "stopped.json"
    path.write_text(json.dumps({
        "dataset": {"builtin": "iris"}, "models": [{"name": "nb", "estimator": "GaussianNB"}],
        "cv": {"n_splits": 3, "n_repeats": 2, "random_state": 0}, "metrics": ["accuracy"]}))
    with ResultStore(store_path(str(path))) as store:           # stopped after 4 of 6 fits
        job = run_experiment(load_experiment(str(path)), store=store)
        for _ in range(4):
            next(job)
        job.close()
    bar = window.cv_tab.store.bar
    with qtbot.waitSignal(window.experiment_loaded, timeout=60000):
        window.open_experiment(str(path))
    qtbot.waitUntil(lambda: not bar.isHidden(), timeout=60000)
    assert "The last run of this experiment stopped after 4 of 6 fits (" in bar.label.text()
    assert "Resume it on the Cross-validation tab" in window.statusBar().currentMessage()
    window.cv_tab.repeats_box.setValue(3)                      # another experiment: no offer
    qtbot.waitUntil(bar.isHidden, timeout=60000)
    window.cv_tab.repeats_box.setValue(2)
    qtbot.waitUntil(lambda: not bar.isHidden(), timeout=60000)
    with run_succeeds(qtbot, window.cv_tab):
        bar.action_button.click()
    qtbot.waitUntil(lambda: "reused" in window.cv_tab.time_label.text(), timeout=60000)
    assert "(4 of 6 fits reused from earlier runs)" in window.cv_tab.time_label.text()
