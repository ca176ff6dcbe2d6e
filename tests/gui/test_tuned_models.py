"""Model entries with "tune" and "threshold" in the app (the Models tab has no controls
for them yet): opened, run and saved without a crash or a lost key."""
import json

import pytest

from tests.gui.waiting import run_succeeds
from tests.gui.helpers import open_seed

pytestmark = pytest.mark.usefixtures("answers")     # questions before closing answered


TUNED = {"name": "svc_tuned", "estimator": "SVC", "params": {"random_state": 0},
         "tune": {"grid": {"kernel": ["linear", "rbf"]}, "inner_splits": 3}}
THRESHOLD = {"name": "nb_threshold", "estimator": "GaussianNB",
             "threshold": {"cost": [[0, 1], [4, 0]], "inner_splits": 3}}


@pytest.mark.slow
def test_open_run_and_save_keeps_tune_and_threshold(window, qtbot, tmp_path):
    experiment = {"dataset": {"builtin": "moons", "n_samples": 80, "noise": 0.3,
                              "random_state": 1},
                  "models": [TUNED, THRESHOLD],
                  "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
                  "metrics": ["roc_auc", "accuracy"]}
    path = tmp_path / "tuned.json"
    path.write_text(json.dumps(experiment), encoding="utf-8")
    open_seed(window, qtbot, str(path))
    assert window.models_tab.expanded_list.count() == 2
    window.tabs.setCurrentWidget(window.cv_tab)
    with run_succeeds(qtbot, window.cv_tab):
        window.cv_tab.run_button.click()
    result = window.state.result
    tables = result.tables()
    assert list(tables["tuning.csv"]["model"]) == ["svc_tuned"] * 3
    assert set(tables["tuning.csv"]["kernel"]) <= {"linear", "rbf"}
    assert list(tables["thresholds.csv"]["model"]) == ["nb_threshold"] * 3
    assert tables["tuning_optimism.csv"].loc[0, "n_members"] == 2
    assert any(n.code == "tuning_optimism" for n in result.notes)
    saved = tmp_path / "saved.json"
    with qtbot.waitSignal(window.experiment_saved, timeout=60000):
        window.save_experiment(str(saved))
    models = json.loads(saved.read_text(encoding="utf-8"))["models"]
    assert models[0]["tune"] == TUNED["tune"]
    assert models[1]["threshold"] == THRESHOLD["threshold"]
    out = tmp_path / "tables"
    with qtbot.waitSignal(window.results_exported, timeout=60000) as exported:
        window.export_results(str(out))
    names = {p.split("/")[-1] for p in exported.args[0]}
    assert {"tuning.csv", "thresholds.csv", "tuning_optimism.csv"} <= names
    manifest = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert {"tuning.csv", "thresholds.csv", "tuning_optimism.csv"} <= set(manifest["tables"])
