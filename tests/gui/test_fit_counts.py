"""One count of fits in the window: the CV tab's panel, the progress bar, the status bar,
Cancel, Resume and the Earlier runs list agree with engine.runs.run_plan for a run with a tuned
model, grouped data with ``compare_ungrouped`` and several data sets, and with the fits the
engine actually made (the store's own count); after the run the panel says the store holds
them all."""
import os

import pytest

from engine.evaluation.experiment import parse_experiment
from engine.runs.benchmark import load_datasets
from engine.runs.run_plan import plan_run
from engine.runs.store import ResultStore
from gui.store_location import store_path
from tests.gui.waiting import run_succeeds

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "resources", "examples")


def experiment(slow=False):
    forest = [{"name": "forest", "estimator": "RandomForestClassifier",
               "params": {"n_estimators": 300, "random_state": 0}}] if slow else []
    return parse_experiment({
        "datasets": [{"name": "subjects", "csv": "repeated_subjects.csv",
                      "target": "condition", "groups": "subject"},
                     {"name": "moons", "builtin": "moons", "n_samples": 80}],
        "models": [{"name": "tuned", "estimator": "LogisticRegression", "scale": True,
                    "params": {"max_iter": 2000},
                    "tune": {"grid": {"C": [0.1, 1.0]}, "inner_splits": 3}},
                   {"name": "nb", "estimator": "GaussianNB"}, *forest],
        "metrics": ["accuracy"],
        "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0, "compare_ungrouped": True}},
        base_dir=EXAMPLES)


def test_panel_bar_status_and_earlier_runs_agree(tab, qtbot):
    exp = experiment()
    datasets = load_datasets(exp)
    plan = plan_run(exp, datasets=datasets)
    assert (plan.fits, plan.steps, plan.inner_fits) == (24, 36, 36)
    tab.state.apply_experiment(exp, list(datasets))
    panel = tab.size_label.text()
    assert "(2 models + 2 grid members refitted as plain models) × 3 folds" in panel
    assert "= 24 fits" in panel and "add 36 smaller fits" in panel
    assert "then 12 fits again without the groups" in panel and "— 36 fits in all" in panel
    status = []
    tab.state.status_message.connect(status.append)
    with qtbot.waitSignal(tab.run_succeeded, timeout=180000):
        tab.run_button.click()
    assert (tab.progress_bar.value(), tab.progress_bar.maximum()) == (36, 36)
    assert "Cross-validating: 36 fits…" in status
    qtbot.waitUntil(lambda: "kept for later runs" in tab.time_label.text(), timeout=20000)
    assert "(all 24 fits computed and kept for later runs)" in tab.time_label.text()
    frame = tab.runs_view.table.frame()
    assert list(frame["Fits"]) == [12, 12] and set(frame["Status"]) == {"complete"}
    qtbot.waitUntil(lambda: "in the result store" in tab.size_label.text(), timeout=20000)
    assert "(all 24 fits are in the result store: none to compute)" in tab.size_label.text()


def test_a_stopped_run_whose_fits_are_all_kept_says_so():
    from types import SimpleNamespace

    from gui.store_runs import ResumeOffer, status_text

    stopped = SimpleNamespace(complete=False, fits=1200, reused=0, computed=1200)
    assert status_text(stopped) == "stopped; 1,200 of 1,200 fits in the store now"
    partly = SimpleNamespace(complete=False, fits=1200, reused=100, computed=365)
    assert status_text(partly) == "stopped; 465 of 1,200 fits in the store now"
    recorded = SimpleNamespace(complete=False, fits=500, reused=0, computed=500,
                               status="cancelled", kept=177, resumed_from=None)
    assert status_text(recorded) == "cancelled after 177 of 500 fits"    # as it happened
    offer = ResumeOffer("2026-01-02T03:04:05", 1200, 1200, (1,))
    assert offer.text().startswith("The last run of this experiment stopped after all its "
                                   "1,200 fits were kept (2026-01-02 03:04)")
    assert "1,200 of 1,200" not in offer.text()


def made_fits():
    """The fits the engine made and kept, by the store's own count, over every run."""
    with ResultStore(store_path(None)) as store:
        return store.count_fits(), store.runs()


@pytest.mark.slow
def test_cancel_resume_and_earlier_runs_count_the_plans_fits(tab, qtbot):
    exp = experiment(slow=True)
    datasets = load_datasets(exp)
    plan = plan_run(exp, datasets=datasets)
    assert (plan.fits, plan.steps) == (30, 45)      # 5 models x 3 folds x 2 sets; +15 ungrouped
    tab.state.apply_experiment(exp, list(datasets))
    assert "= 30 fits" in tab.size_label.text() and "45 fits in all" in tab.size_label.text()
    with qtbot.waitSignal(tab.run_started):
        tab.run_button.click()
    assert tab.progress_bar.maximum() == plan.steps
    qtbot.waitUntil(lambda: tab.progress_bar.value() >= 3, timeout=120000)
    with qtbot.waitSignal(tab.run_cancelled, timeout=60000):
        tab.cancel_button.click()
    qtbot.waitUntil(lambda: "Cancelled. " in tab.time_label.text()
                    and "Run" in tab.time_label.text(), timeout=60000)
    kept, runs = made_fits()
    assert kept < plan.fits
    if kept:           # a kill may lose the last quarter second's fits
        assert f"{kept} of 30 finished fits are kept in the result store" in \
            tab.time_label.text()
        bar = tab.store.bar
        qtbot.waitUntil(lambda: bar.isVisible() and bar.kind == "offer", timeout=60000)
        assert f"stopped after {kept} of 30 fits (" in bar.label.text()
        start = bar.action_button.click
    else:
        assert "No fit had finished" in tab.time_label.text()
        start = tab.run_button.click
    with run_succeeds(qtbot, tab):
        start()
    assert (tab.progress_bar.value(), tab.progress_bar.maximum()) == (45, 45)
    qtbot.waitUntil(lambda: "fits reused" in tab.time_label.text()
                    or "kept for later runs" in tab.time_label.text(), timeout=20000)
    total, runs = made_fits()
    assert total == plan.fits                       # the engine made exactly the plan's fits
    resumed = [run for run in runs if run.batch == runs[-1].batch]
    assert sum(run.fits for run in resumed) == plan.fits
    assert sum(run.reused for run in resumed) == kept
    assert sum(run.computed for run in resumed) == plan.fits - kept
    if kept:
        assert f"({kept} of 30 fits reused from earlier runs)" in tab.time_label.text()
    frame = tab.runs_view.table.frame()
    assert list(frame["Fits"])[-2:] == [15, 15]
