"""An experiment with grouped rows opens in the app, runs grouped and is saved with its
"groups" (the Dataset tab's own control for it comes later)."""
import json

import numpy as np
from PySide6.QtCore import QSettings
from sklearn.model_selection import StratifiedGroupKFold

from gui.main_window import MainWindow
from tests.gui.waiting import run_succeeds
from tests.helpers import visits


def test_experiment_with_groups_opens_runs_grouped_and_saves_them(qtbot, tmp_path,
                                                                   warnings_shown):
    visits().to_csv(tmp_path / "visits.csv", index=False)
    experiment = {"dataset": {"csv": "visits.csv", "target": "label", "groups": "subject"},
                  "models": [{"name": "nb", "estimator": "GaussianNB"}],
                  "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 5},
                  "metrics": ["accuracy"]}
    path = tmp_path / "grouped.json"
    path.write_text(json.dumps(experiment))
    window = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(window)
    try:
        with qtbot.waitSignals([window.experiment_loaded, window.dataset_tab.view_ready],
                               timeout=20000):
            window.open_experiment(str(path))
        dataset = window.state.dataset
        assert dataset.source["groups"] == "subject" and "subject" not in dataset.X.columns
        with run_succeeds(qtbot, window.cv_tab):
            window.cv_tab.start_run()
        scores = window.state.result.cv.scores
        sizes = [len(test) for _, test in StratifiedGroupKFold(3, shuffle=True, random_state=5)
                 .split(dataset.X, dataset.y, dataset.groups)]
        np.testing.assert_array_equal(scores["n_test"].to_numpy(), sizes)
        saved = tmp_path / "saved.json"
        with qtbot.waitSignal(window.experiment_saved, timeout=60000):
            assert window.save_experiment(str(saved))
        assert json.loads(saved.read_text())["dataset"]["groups"] == "subject"
    finally:
        window.shutdown()
    assert not warnings_shown
