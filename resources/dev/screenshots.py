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
added) for the "Tuning" view, and the sixth (kyphosis, three models, with the curves block
and learning fractions) for the "ROC and PR curves", "AUC intervals", "Decision curve" and
"Learning curve" views, and the seventh (breast cancer split into 400 training and 169
test rows, written into the temporary folder) for the "Held-out test" view, and the eighth
(the Palmer penguins' sex predicted from their measurements, scored per species, island and
year) for the Cross-validation tab's Subgroups page and the "Subgroups" view. The second
example's ``report.html`` is rendered by headless Chromium (``report.png``, its top, and
``report_plots.png``, its Results section); without ``chromium`` on the PATH those two are
skipped with a message.

At the end every picture that README.md and docs/*.md show from ``screenshots/`` must have
been written (the report's two may be skipped without Chromium); the script exits 1 naming
any that was not.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
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


#: The pictures written by this run (file names), checked against the documents at the end.
WRITTEN: set = set()
#: The pictures of the report, skipped (not failed) when Chromium is missing.
REPORT_PICTURES = ("report.png", "report_plots.png", "report_subgroups.png")
#: A picture a document shows: ``![caption](…screenshots/NAME.png)``.
PICTURE = re.compile(r"!\[[^\]]*\]\((?:[^)]*/)?screenshots/([^)/]+\.png)\)")


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
        run_heldout_example(app, window, out, folder)
        run_subgroups_example(app, window, out, folder)
        show_earlier_runs(app, window, out)
        render_subgroups_report(out)
        window.close()
    return check_every_picture_written()


def referenced_pictures() -> set:
    """The file names of every picture README.md and docs/*.md show from ``screenshots/``."""
    documents = [os.path.join(ROOT, "README.md")]
    docs = os.path.join(ROOT, "docs")
    documents += [os.path.join(docs, n) for n in sorted(os.listdir(docs)) if n.endswith(".md")]
    names = set()
    for path in documents:
        with open(path, encoding="utf-8") as handle:
            names.update(PICTURE.findall(handle.read()))
    return names


def check_every_picture_written() -> int:
    """0 when every picture the documents show was written by this run (the report's two
    may be missing when Chromium is); else 1, naming the missing ones."""
    allowed = set() if chromium() else set(REPORT_PICTURES)
    missing = sorted(referenced_pictures() - WRITTEN - allowed)
    if missing:
        print("error: the documents show pictures this script did not write: "
              + ", ".join(missing), file=sys.stderr)
        return 1
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
    WRITTEN.add(os.path.basename(path))
    print(path)


def show_view(app, window, title: str, ms: int = 800) -> None:
    """Bring the Results tab's view ``title`` to the front and let it draw."""
    window.tabs.setCurrentWidget(window.results_tab)
    views = window.results_tab.views
    views.setCurrentIndex([views.tabText(i) for i in range(views.count())].index(title))
    settle(app, ms, window=window)


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
    render_report(window.state.result, out)


def chromium():
    """The path of the Chromium program, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


#: The report's Results section alone: a copy of the page with a style sheet appended that
#: hides the title, the contents and the other sections (nothing of the report is redrawn).
RESULTS_ONLY = "<style>header,main>section:not(#results){display:none}</style></head>"


def render_report(result, out: str) -> None:
    """The run's ``report.html`` (as the headless runner writes it) drawn by headless
    Chromium: its top (``report.png``) and its Results section (``report_plots.png``)."""
    from engine.output.report import build_report

    program = chromium()
    if program is None:
        print("chromium is not on the PATH: report.png and report_plots.png not made",
              file=sys.stderr)
        return
    page = build_report(result, tables=result.tables())
    with tempfile.TemporaryDirectory() as folder:
        for name, text, height in (("report.png", page, 1130),
                                   ("report_plots.png", page.replace("</head>", RESULTS_ONLY, 1),
                                    1490)):
            html = os.path.join(folder, name.replace(".png", ".html"))
            with open(html, "w", encoding="utf-8") as handle:
                handle.write(text)
            path = os.path.join(out, name)
            subprocess.run([program, "--headless", "--no-sandbox", "--disable-gpu",
                            "--hide-scrollbars", f"--screenshot={path}",
                            f"--window-size=1100,{height}", "file://" + html],
                           check=True, capture_output=True, timeout=120)
            WRITTEN.add(name)
            print(path)


#: The subgroups picture's run: the sex of Palmer penguins from their measurements, by
#: species and island (tests/data/penguins.csv).
SUBGROUPS_EXPERIMENT = {
    "dataset": {"csv": os.path.join(ROOT, "tests", "data", "penguins.csv"), "target": "sex",
                "exclude": ["year"]},
    "models": [{"name": "logistic", "estimator": "LogisticRegression", "scale": True},
               {"name": "tree", "estimator": "DecisionTreeClassifier",
                "params": {"max_depth": 3}}],
    "cv": {"n_splits": 5, "n_repeats": 5}, "metrics": ["roc_auc", "accuracy"],
    "subgroups": ["species", "island"]}
#: The report's Subgroups section alone (as :data:`RESULTS_ONLY`).
SUBGROUPS_ONLY = "<style>header,main>section:not(#subgroups){display:none}</style></head>"


def render_subgroups_report(out: str) -> None:
    """The Subgroups section of the report of :data:`SUBGROUPS_EXPERIMENT`, drawn by
    headless Chromium (``report_subgroups.png``)."""
    from engine.evaluation.experiment import parse_experiment
    from engine.foundation.progress import run_to_end
    from engine.output.report import build_report
    from engine.runs.analysis import run_experiment

    program = chromium()
    if program is None:
        print("chromium is not on the PATH: report_subgroups.png not made", file=sys.stderr)
        return
    result = run_to_end(run_experiment(parse_experiment(SUBGROUPS_EXPERIMENT)))
    page = build_report(result, tables=result.tables()).replace("</head>", SUBGROUPS_ONLY, 1)
    with tempfile.TemporaryDirectory() as folder:
        html = os.path.join(folder, "subgroups.html")
        with open(html, "w", encoding="utf-8") as handle:
            handle.write(page)
        path = os.path.join(out, "report_subgroups.png")
        subprocess.run([program, "--headless", "--no-sandbox", "--disable-gpu",
                        "--hide-scrollbars", f"--screenshot={path}",
                        "--window-size=1100,1500", "file://" + html],
                       check=True, capture_output=True, timeout=120)
        WRITTEN.add("report_subgroups.png")
        print(path)


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
#: positive class, three models, ROC and precision-recall curves, AUC intervals, the
#: decision curve and a learning curve (from 40 % of each training fold, 26 rows: fewer
#: first rows may hold no "present" row, and that fit is skipped).
CURVES_EXAMPLE = {
    "dataset": {"csv": os.path.join(ROOT, "tests", "data", "kyphosis.csv"),
                "target": "Kyphosis", "pos_label": "present"},
    "models": [{"name": "logistic", "estimator": "LogisticRegression", "scale": True},
               {"name": "naive_bayes", "estimator": "GaussianNB"},
               {"name": "forest", "estimator": "RandomForestClassifier",
                "params": {"n_estimators": 50}}],
    "cv": {"n_splits": 5, "n_repeats": 4, "random_state": 0},
    "metrics": ["roc_auc"],
    "curves": {"learning": [0.4, 0.55, 0.7, 0.85, 1.0]}}


def run_curves_example(app, window, out: str, folder: str) -> None:
    """Kyphosis with the curves block: the "ROC and PR curves" (``roc_pr.png``), "AUC
    intervals", "Decision curve" and "Learning curve" views."""
    import json

    path = os.path.join(folder, "kyphosis_curves.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(CURVES_EXAMPLE, handle)
    window.open_experiment(path)
    wait_for(window.dataset_tab.view_ready)
    window.tabs.setCurrentWidget(window.cv_tab)
    window.cv_tab.start_run()
    wait_for(window.cv_tab.run_succeeded, 600)
    for title, name in (("ROC and PR curves", "roc_pr.png"),
                        ("AUC intervals", "auc_intervals.png"),
                        ("Decision curve", "decision_curve.png"),
                        ("Learning curve", "learning_curve.png")):
        show_view(app, window, title)
        if title == "Decision curve":
            narrow_thresholds(app, window.results_tab.views.currentWidget())
        save(window, os.path.join(out, name))


def narrow_thresholds(app, view, low: float = 0.05, high: float = 0.5) -> None:
    """The decision curve's thresholds narrowed, as a user would, to the range a surgeon
    might act on (a 5 % to 50 % risk of kyphosis)."""
    view.low.setValue(low)
    view.high.setValue(high)
    settle(app, 400)


#: The seventh example: breast cancer split (stratified, fixed seed) into 400 training rows
#: and 169 held-out test rows, four models, each scored once on the test file.
HELDOUT_EXAMPLE = {
    "dataset": {"csv": "train.csv", "target": "diagnosis", "pos_label": "malignant"},
    "test": {"file": "test.csv"},
    "models": [{"name": "logistic", "estimator": "LogisticRegression", "scale": True},
               {"name": "forest", "estimator": "RandomForestClassifier",
                "params": {"n_estimators": 100}},
               {"name": "knn", "estimator": "KNeighborsClassifier", "scale": True},
               {"name": "naive_bayes", "estimator": "GaussianNB"}],
    "cv": {"n_splits": 5, "n_repeats": 2, "random_state": 0},
    "metrics": ["roc_auc", "accuracy"]}


def write_heldout_files(folder: str) -> str:
    """``train.csv`` (400 rows) and ``test.csv`` (169 rows) of scikit-learn's breast cancer
    data, split stratified with ``random_state=0``, and the experiment naming them; returns
    the experiment's path."""
    import json

    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import train_test_split

    bunch = load_breast_cancer(as_frame=True)
    frame = bunch.frame.drop(columns="target")
    frame["diagnosis"] = bunch.target_names[bunch.target]
    train, test = train_test_split(frame, train_size=400, stratify=frame["diagnosis"],
                                   random_state=0)
    train.to_csv(os.path.join(folder, "train.csv"), index=False)
    test.to_csv(os.path.join(folder, "test.csv"), index=False)
    path = os.path.join(folder, "breast_cancer_heldout.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(HELDOUT_EXAMPLE, handle)
    return path


def run_heldout_example(app, window, out: str, folder: str) -> None:
    """Breast cancer, 400 training rows, 169 test rows: the "Held-out test" view
    (``heldout.png``)."""
    window.open_experiment(write_heldout_files(folder))
    wait_for(window.dataset_tab.view_ready)
    window.tabs.setCurrentWidget(window.cv_tab)
    window.cv_tab.start_run()
    wait_for(window.cv_tab.run_succeeded, 600)
    show_view(app, window, "Held-out test")
    save(window, os.path.join(out, "heldout.png"))



#: The eighth example: the Palmer penguins (tests/data), their sex predicted from their
#: measurements, scored per species, island and year (left out of the features, cut
#: between the three years).
SUBGROUPS_EXAMPLE = {
    "dataset": {"csv": os.path.join(ROOT, "tests", "data", "penguins.csv"),
                "target": "sex", "pos_label": "female", "exclude": ["year"]},
    "models": [{"name": "logistic", "estimator": "LogisticRegression", "scale": True},
               {"name": "naive_bayes", "estimator": "GaussianNB"},
               {"name": "forest", "estimator": "RandomForestClassifier",
                "params": {"n_estimators": 100, "random_state": 0}}],
    "cv": {"n_splits": 5, "n_repeats": 5, "random_state": 0},
    "metrics": ["roc_auc", "accuracy"],
    "subgroups": ["species", "island", {"column": "year", "cuts": [2007, 2008]}]}


def run_subgroups_example(app, window, out: str, folder: str) -> None:
    """Penguins with subgroups: the Cross-validation tab's Subgroups page
    (``subgroups_choice.png``) and the "Subgroups" view (``subgroups.png``)."""
    import json

    path = os.path.join(folder, "penguins_subgroups.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(SUBGROUPS_EXAMPLE, handle)
    window.open_experiment(path)
    wait_for(window.dataset_tab.view_ready)
    tab = window.cv_tab
    window.tabs.setCurrentWidget(tab)
    tab.lower_tabs.setCurrentWidget(tab.subgroups_box)
    tab.subgroups_box.tick("year")            # picked, to show its cut points
    settle(app, 400, window=window)
    save(window, os.path.join(out, "subgroups_choice.png"))
    tab.start_run()
    wait_for(tab.run_succeeded, 600)
    show_view(app, window, "Subgroups")
    window.results_tab.views.currentWidget().pick("logistic", None, "roc_auc")
    settle(app, 400, window=window)
    save(window, os.path.join(out, "subgroups.png"))


if __name__ == "__main__":
    sys.exit(main())
