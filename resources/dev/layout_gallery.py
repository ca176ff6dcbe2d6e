"""Render every tab and every results view at two window sizes, with 2 and with 12 models,
to look at the layout (labels that collide, legends over data, text that runs off).

    python resources/dev/layout_gallery.py OUT_DIR [--quick]

Data: breast cancer (two classes), ALOOCV and calibration on. Two models: logistic
regression and a random forest; twelve: the six common classifiers plus six variants with
long names. 5 folds x 2 repeats (--quick: 3 x 1). Files: ``{W}x{H}_{n}models_{view}.png``.
"""
from __future__ import annotations

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gui.app import make_application  # noqa: E402  (PySide6 first)

from PySide6.QtCore import QEventLoop, QSettings, QTimer  # noqa: E402

SIZES = ((1280, 800), (1366, 768), (1920, 1080))
TWO = [{"name": "logistic", "estimator": "LogisticRegression", "scale": True,
        "params": {"max_iter": 1000}},
       {"name": "random_forest", "estimator": "RandomForestClassifier",
        "params": {"n_estimators": 50}}]
TWELVE = TWO + [
    {"name": "naive_bayes", "estimator": "GaussianNB", "params": {}},
    {"name": "knn", "estimator": "KNeighborsClassifier", "scale": True, "params": {}},
    {"name": "svc_rbf", "estimator": "SVC", "scale": True, "params": {}},
    {"name": "tree", "estimator": "DecisionTreeClassifier", "params": {"max_depth": 4}},
    {"name": "logistic regression, strong penalty (C = 0.01)", "estimator": "LogisticRegression",
     "scale": True, "params": {"C": 0.01, "max_iter": 1000}},
    {"name": "logistic regression, weak penalty (C = 100)", "estimator": "LogisticRegression",
     "scale": True, "params": {"C": 100.0, "max_iter": 1000}},
    {"name": "random forest with 300 deep trees", "estimator": "RandomForestClassifier",
     "params": {"n_estimators": 300}},
    {"name": "k nearest neighbours, k = 25", "estimator": "KNeighborsClassifier", "scale": True,
     "params": {"n_neighbors": 25}},
    {"name": "extra trees", "estimator": "ExtraTreesClassifier", "params": {"n_estimators": 100}},
    {"name": "svc_linear", "estimator": "SVC", "scale": True,
     "params": {"kernel": "linear"}},
]


def wait_for(signal, timeout_s: float = 600) -> None:
    loop = QEventLoop()
    signal.connect(loop.quit)
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    loop.exec()


def settle(app, window, ms: int = 300) -> None:
    window.state.renderer.flush()
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()
    app.processEvents()


def run(app, window, models: list, quick: bool) -> None:
    from engine.evaluation.experiment import AloocvSettings, CalibrationSettings

    window.dataset_tab.load_builtin("breast_cancer")
    wait_for(window.dataset_tab.view_ready)
    window.state.set_model_entries(models)
    window.state.set_extras(AloocvSettings(n_C=20), CalibrationSettings())
    cv = window.cv_tab
    cv.folds_box.setValue(3 if quick else 5)
    cv.repeats_box.setValue(1 if quick else 2)
    window.tabs.setCurrentWidget(cv)
    cv.start_run()
    wait_for(cv.run_succeeded)
    window.state.set_selection([models[0]["name"], models[1]["name"]])
    settle(app, window)


def shoot(app, window, out: str, prefix: str) -> None:
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        settle(app, window)
        name = window.tabs.tabText(index).lower().replace(" ", "_").replace("-", "_")
        save(window, os.path.join(out, f"{prefix}_{index}_{name}.png"))
    window.tabs.setCurrentWidget(window.results_tab)
    views = window.results_tab.views
    for index in range(1, views.count()):
        views.setCurrentIndex(index)
        settle(app, window, 600)
        name = views.tabText(index).lower().split(" (")[0].replace(" ", "_")
        save(window, os.path.join(out, f"{prefix}_results_{index}_{name}.png"))
    views.setCurrentIndex(0)


def save(window, path: str) -> None:
    window.grab().save(path)
    print(path, f"window {window.width()}x{window.height()}")


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    quick = "--quick" in argv
    paths = [a for a in argv if not a.startswith("--")]
    out = os.path.abspath(paths[0] if paths else "layout_gallery")
    os.makedirs(out, exist_ok=True)
    app = make_application([])
    from gui.main_window import MainWindow

    with tempfile.TemporaryDirectory() as folder:
        window = MainWindow(settings=QSettings(os.path.join(folder, "s.ini"),
                                               QSettings.IniFormat))
        window.show()
        for models in (TWO, TWELVE):
            window.resize(*SIZES[0])
            run(app, window, models, quick)
            for width, height in SIZES:
                window.resize(width, height)
                settle(app, window)
                shoot(app, window, out, f"{width}x{height}_{len(models)}models")
        window.shutdown()
        window.deleteLater()
    return 0


if __name__ == "__main__":
    sys.exit(main())
