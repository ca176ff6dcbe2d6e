"""Render every tab of the app to PNG, offscreen, after running the built-in example.

First the first screen (``first_screen.png``): File → New, one's own data opened, the steps
above the tabs and the starter set offered.

    python resources/dev/screenshots.py [OUT_DIR]      # default: docs/screenshots/

The window is 1280 x 800; the Results tab is shown with two models selected (rbf, linear).
Then the second example (breast cancer: logistic regression, naive Bayes, random forest,
with ALOOCV and calibration) is run for the ALOOCV and Calibration views, and the third
(five models on six data sets, run here with ``engine.runs.benchmark.run_benchmark``) for the
"Across data sets" view and the data set picker, and the fourth (repeated subjects, run with
and without groups) for the "Grouped vs ungrouped" view, and the fifth (the seed's kernels
tuned inside each fold, with a naive Bayes model whose threshold is chosen by typed costs
added) for the "Tuning" view, and the sixth (kyphosis, three models, with the curves block)
for the "ROC and PR curves" view.
"""
from __future__ import annotations

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gui.app import DEFAULT_EXPERIMENT, make_application  # noqa: E402  (PySide6 first)

from PySide6.QtCore import QEventLoop, QSettings, QTimer  # noqa: E402

FILES = ("dataset.png", "models.png", "cross_validation.png", "results.png")
SECOND_EXAMPLE = os.path.join(ROOT, "resources", "examples", "breast_cancer_calibration.json")
THIRD_EXAMPLE = os.path.join(ROOT, "resources", "examples", "five_models_six_datasets.json")
FOURTH_EXAMPLE = os.path.join(ROOT, "resources", "examples", "repeated_subjects.json")
FIFTH_EXAMPLE = os.path.join(ROOT, "resources", "examples", "svc_kernels_nested_moons.json")
#: Added to the fifth example for the picture: a threshold chosen inside each fold, where
#: a missed positive costs three false alarms.
THRESHOLD_MODEL = {"name": "naive_bayes_costs", "estimator": "GaussianNB",
                   "threshold": {"cost": [[0, 1], [3, 0]], "inner_splits": 5}}


def wait_for(signal, timeout_s: float = 120) -> None:
    loop = QEventLoop()
    signal.connect(loop.quit)
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    loop.exec()


def settle(app, ms: int = 400, window=None) -> None:
    if window is not None:
        window.state.renderer.flush()     # every results view drawn
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()
    app.processEvents()


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    out = os.path.abspath(argv[0] if argv else os.path.join(ROOT, "docs", "screenshots"))
    os.makedirs(out, exist_ok=True)
    app = make_application([])
    from gui.main_window import MainWindow

    with tempfile.TemporaryDirectory() as folder:
        os.environ["HONEST_EVAL_STORE_DIR"] = folder     # result stores: not the user's
        window = MainWindow(settings=QSettings(os.path.join(folder, "s.ini"), QSettings.IniFormat))
        window.resize(1280, 800)
        window.show()
        show_first_screen(app, window, out, folder)
        window.open_experiment(DEFAULT_EXPERIMENT)
        wait_for(window.dataset_tab.view_ready)
        window.tabs.setCurrentWidget(window.cv_tab)
        window.cv_tab.start_run()
        wait_for(window.cv_tab.run_succeeded)
        window.state.set_selection(["rbf", "linear"])
        for index, name in enumerate(FILES):
            window.tabs.setCurrentIndex(index)
            settle(app, window=window)
            save(window, os.path.join(out, name))
        views = window.results_tab.views
        views.setCurrentIndex(2)  # the Bayesian comparison
        settle(app, window=window)
        save(window, os.path.join(out, "results_bayesian.png"))
        run_second_example(app, window, out)
        run_third_example(app, window, out)
        run_fourth_example(app, window, out)
        run_fifth_example(app, window, out)
        run_curves_example(app, window, out, folder)
        show_earlier_runs(app, window, out)
        window.close()
    return 0


def show_first_screen(app, window, out: str, folder: str) -> None:
    """File → New, then one's own data opened (the penguins, written into a temporary
    folder with the species last, the column the app predicts when none is named): the
    steps above the tabs and the starter set offered (``first_screen.png``); then the
    steps are hidden, as with their ✕, for the other pictures."""
    import pandas as pd

    window.new_experiment()
    data = os.path.join(folder, "penguins.csv")
    frame = pd.read_csv(os.path.join(ROOT, "tests", "data", "penguins.csv"))
    frame[[c for c in frame.columns if c != "species"] + ["species"]].to_csv(data, index=False)
    window.dataset_tab.open_file(data)
    wait_for(window.dataset_tab.view_ready)
    settle(app, 600, window=window)
    save(window, os.path.join(out, "first_screen.png"))
    window.start.bar.keep_button.click()
    window.start.panel.close_button.click()


def save(window, path: str) -> None:
    window.grab().save(path)
    print(path)


def show_earlier_runs(app, window, out: str) -> None:
    """The default example run again (every fit reused from the result store), then its
    Earlier runs list (``earlier_runs.png``)."""
    window.open_experiment(DEFAULT_EXPERIMENT)
    wait_for(window.dataset_tab.view_ready)
    window.tabs.setCurrentWidget(window.cv_tab)
    window.cv_tab.start_run()
    wait_for(window.cv_tab.run_succeeded)
    window.tabs.setCurrentWidget(window.cv_tab)
    window.cv_tab.lower_tabs.setCurrentWidget(window.cv_tab.runs_view)
    settle(app, 1000, window=window)
    save(window, os.path.join(out, "earlier_runs.png"))


def run_second_example(app, window, out: str) -> None:
    """ALOOCV and calibration on breast cancer (the experiment file has both sections)."""
    window.open_experiment(SECOND_EXAMPLE)
    wait_for(window.dataset_tab.view_ready)
    window.tabs.setCurrentWidget(window.cv_tab)
    window.cv_tab.start_run()
    wait_for(window.cv_tab.run_succeeded, 600)
    window.state.set_selection(["naive_bayes"])
    views = window.results_tab.views
    for title, name in (("ALOOCV", "aloocv.png"), ("Calibration", "calibration.png")):
        index = [views.tabText(i) for i in range(views.count())].index(title)
        views.setCurrentIndex(index)
        settle(app, 800, window=window)
        save(window, os.path.join(out, name))


def run_third_example(app, window, out: str) -> None:
    """Five models on six data sets: the Across data sets view, then one data set's
    scores chosen with the picker."""
    from engine.runs.benchmark import run_benchmark
    from engine.evaluation.experiment import load_experiment
    from engine.foundation.progress import run_to_end

    benchmark = run_to_end(run_benchmark(load_experiment(THIRD_EXAMPLE)))
    window.tabs.setCurrentWidget(window.results_tab)
    window.state.set_benchmark(benchmark)        # opens the Across data sets view
    settle(app, 800, window=window)
    save(window, os.path.join(out, "across.png"))
    window.results_tab.views.setCurrentIndex(0)
    window.results_tab.picker.pick("circles, close")
    settle(app, 800, window=window)
    save(window, os.path.join(out, "results_datasets.png"))


def run_fourth_example(app, window, out: str) -> None:
    """Repeated subjects, run with the subjects kept together and without: the "Grouped vs
    ungrouped" view."""
    window.open_experiment(FOURTH_EXAMPLE)
    wait_for(window.dataset_tab.view_ready)
    window.tabs.setCurrentWidget(window.cv_tab)
    window.cv_tab.start_run()
    wait_for(window.cv_tab.run_succeeded, 600)
    views = window.results_tab.views
    views.setCurrentIndex([views.tabText(i) for i in range(views.count())]
                          .index("Grouped vs ungrouped"))
    settle(app, 800, window=window)
    save(window, os.path.join(out, "grouping_gap.png"))


def run_fifth_example(app, window, out: str) -> None:
    """The seed's kernels tuned inside each fold, and a naive Bayes model with costs: the
    "Tuning" view."""
    window.open_experiment(FIFTH_EXAMPLE)
    wait_for(window.dataset_tab.view_ready)
    entries = [e for e in window.state.model_entries if e.get("tune")] + [THRESHOLD_MODEL]
    window.state.set_model_entries(entries)
    window.tabs.setCurrentWidget(window.cv_tab)
    window.cv_tab.start_run()
    wait_for(window.cv_tab.run_succeeded, 900)
    window.tabs.setCurrentWidget(window.results_tab)
    views = window.results_tab.views
    views.setCurrentIndex([views.tabText(i) for i in range(views.count())].index("Tuning"))
    settle(app, 800, window=window)
    save(window, os.path.join(out, "tuning.png"))


#: The sixth example: kyphosis after spinal surgery (R's rpart; tests/data), a rare-ish
#: positive class, three models, ROC and precision-recall curves.
CURVES_EXAMPLE = {
    "dataset": {"csv": os.path.join(ROOT, "tests", "data", "kyphosis.csv"),
                "target": "Kyphosis", "pos_label": "present"},
    "models": [{"name": "logistic", "estimator": "LogisticRegression", "scale": True},
               {"name": "naive_bayes", "estimator": "GaussianNB"},
               {"name": "forest", "estimator": "RandomForestClassifier",
                "params": {"n_estimators": 50}}],
    "cv": {"n_splits": 5, "n_repeats": 4, "random_state": 0},
    "metrics": ["roc_auc"], "curves": {"decision": False}}


def run_curves_example(app, window, out: str, folder: str) -> None:
    """Kyphosis with the curves block: the "ROC and PR curves" view (``roc_pr.png``)."""
    import json

    path = os.path.join(folder, "kyphosis_curves.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(CURVES_EXAMPLE, handle)
    window.open_experiment(path)
    wait_for(window.dataset_tab.view_ready)
    window.tabs.setCurrentWidget(window.cv_tab)
    window.cv_tab.start_run()
    wait_for(window.cv_tab.run_succeeded, 600)
    window.tabs.setCurrentWidget(window.results_tab)
    views = window.results_tab.views
    views.setCurrentIndex([views.tabText(i) for i in range(views.count())]
                          .index("ROC and PR curves"))
    settle(app, 800, window=window)
    save(window, os.path.join(out, "roc_pr.png"))


if __name__ == "__main__":
    sys.exit(main())
