"""Issue #40: calibration and ALOOCV jobs keep their results in the run's result store
(format 3, table job_results): re-opening the run shows them without a fit, a rerun with
the same settings plans no fit, an older store opens, a damaged or oversized kept result
is refused with a code."""
import json
import shutil
import sqlite3

import numpy as np
import pandas as pd
import pytest

import engine.runs.analysis as analysis
import engine.runs.fit_rows as fit_rows
from engine import run_service
from engine.evaluation.experiment import AloocvSettings, CalibrationSettings, parse_experiment
from engine.foundation.errors import EngineError
from engine.foundation.progress import run_to_end
from engine.runs.analysis import load_run, run_experiment
from engine.runs.store import FORMAT, SCHEMAS, APPLICATION, APPLICATION_ID, ResultStore

MODELS = [{"estimator": "GaussianNB"},
          {"estimator": "LogisticRegression", "scale": True, "params": {"max_iter": 1000}}]
SETTINGS = CalibrationSettings(methods=("sigmoid",), map_buckets=50)
ALO = AloocvSettings(C_min=0.01, C_max=100.0, n_C=5)
FRAMES = ("curve", "scores", "map", "fold_scores", "probabilities")


def experiment(**extra):
    return parse_experiment({"dataset": {"builtin": "breast_cancer"}, "models": MODELS,
                             "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
                             "metrics": ["roc_auc"], **extra})


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A run kept in a store (``plain``), and a copy of that store after the view's
    calibration (``calibrated``), with the calibration's result."""
    folder = tmp_path_factory.mktemp("base")
    plain, calibrated = str(folder / "plain.sqlite"), str(folder / "calibrated.sqlite")
    run = run_to_end(run_experiment(experiment(), store=plain))
    shutil.copy(plain, calibrated)
    return run, plain, calibrated, calibrate_in_view(run, calibrated)


@pytest.fixture
def stored_run(base, tmp_path):
    """The run and a store of its own holding its fits only."""
    return base[0], str(shutil.copy(base[1], tmp_path / "store.sqlite"))


@pytest.fixture
def calibrated(base, tmp_path):
    """The run and a store of its own holding its fits and the calibration."""
    return base[0], str(shutil.copy(base[2], tmp_path / "store.sqlite"))


def calibrate_in_view(run, path, settings=SETTINGS):
    """What the Calibration view does: check (with the store), then run the job."""
    checked = run_service.check_calibration(run.dataset, run.cv, run.experiment.models,
                                            settings, store=path)
    records = []
    return checked, run_to_end(run_service.run_job(checked), on_progress=records.append), records


def reopen(path):
    with ResultStore(path) as store:
        return run_to_end(load_run(store, store.runs()[-1].id))


def assert_same_frames(a, b, names=FRAMES):
    for name in names:
        left, right = getattr(a, name), getattr(b, name)
        pd.testing.assert_frame_equal(left, right, check_exact=True)
        numbers = left.select_dtypes("number").to_numpy(float)
        assert np.allclose(numbers, right.select_dtypes("number").to_numpy(float),
                           rtol=0, atol=1e-12, equal_nan=True)


def test_a_calibration_is_kept_reopened_and_reused(base, calibrated):
    run, path = calibrated
    checked, calibration, records = base[3]
    assert checked.plan.budget == (0, 30, 0) and len(records) == 6   # 2 models x 3 folds
    reopened = reopen(path)
    assert reopened.experiment.calibration == SETTINGS
    assert_same_frames(calibration, reopened.calibration)
    assert reopened.calibration.notes == calibration.notes
    again, kept, records = calibrate_in_view(run, path)
    assert again.plan.budget == (0, 0, 0) and again.plan.steps == 0
    assert again.assessment.ask is None and again.assessment.n_fits == 0
    assert records == []                                  # nothing fitted, no progress
    assert_same_frames(calibration, kept)


def test_other_settings_are_another_job(calibrated):
    run, path = calibrated
    other = run_service.check_calibration(run.dataset, run.cv, run.experiment.models,
                                          replace_buckets(SETTINGS, 20), store=path)
    assert other.stored is None and other.plan.budget == (0, 30, 0)


def replace_buckets(settings, buckets):
    return CalibrationSettings(methods=settings.methods, map_buckets=buckets)


def test_a_run_with_a_store_reuses_its_kept_extras(tmp_path, monkeypatch):
    path = str(tmp_path / "store.sqlite")
    asked = parse_experiment({"dataset": {"builtin": "breast_cancer"},
                              "models": [{"estimator": "LogisticRegression", "scale": True}],
                              "cv": {"n_splits": 2, "n_repeats": 1, "random_state": 0},
                              "metrics": ["roc_auc"], "aloocv": ALO.to_json(),
                              "calibration": {"methods": ["sigmoid"], "map_buckets": 50}})
    first = run_to_end(run_experiment(asked, store=path))

    def refit(*args, **kwargs):
        raise AssertionError("computed again")

    monkeypatch.setattr(analysis, "calibrate", refit)
    monkeypatch.setattr(analysis, "trace_aloocv", refit)
    records = []
    second = run_to_end(run_experiment(asked, store=path),         # the CLI's --store reuse
                        on_progress=records.append)
    assert records[-1].done == records[-1].total                  # kept extras count too
    assert_same_frames(first.calibration, second.calibration)
    assert_same_frames(first.aloocv, second.aloocv, ("curve", "optimum"))
    assert second.aloocv.settings == ALO


def test_an_aloocv_job_is_kept_and_reopened(stored_run):
    run, path = stored_run
    checked = run_service.check_aloocv(run.dataset, run.experiment.models, ALO, store=path)
    assert checked.plan.budget[2] > 0
    curve = run_to_end(run_service.run_job(checked))
    reopened = reopen(path)
    assert reopened.experiment.aloocv == ALO == reopened.aloocv.settings
    assert_same_frames(curve, reopened.aloocv, ("curve", "optimum"))
    again = run_service.check_aloocv(run.dataset, run.experiment.models, ALO, store=path)
    assert again.plan.budget == (0, 0, 0) and again.stored is not None


def test_a_job_checked_without_the_store_looks_it_up_when_it_runs(stored_run):
    """The ALOOCV view checks on the window's thread without reading the store: the job
    (in its own process) finds the kept result and fits nothing."""
    run, path = stored_run
    spec = run.experiment.models[1]
    run_to_end(run_service.run_job(run_service.check_aloocv(run.dataset, [spec], ALO,
                                                            store=path)))
    from dataclasses import replace
    unchecked = replace(run_service.check_aloocv(run.dataset, [spec], ALO), store=path)
    records = []
    result = run_to_end(run_service.run_job(unchecked), on_progress=records.append)
    assert records == [] and len(result.curve) == ALO.n_C
    assert reopen(path).aloocv.curve.equals(result.curve)     # one model's, put together


def old_store(path, format_):
    db = sqlite3.connect(path)
    db.executescript(SCHEMAS[format_])
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    db.executemany("INSERT INTO meta VALUES (?, ?)", [("application", APPLICATION),
                                                      ("format", str(format_)),
                                                      ("created", "x")])
    db.commit()
    db.close()


@pytest.mark.parametrize("format_", [1, 2])
def test_a_store_without_the_jobs_table_opens_and_gets_it(tmp_path, format_):
    path = str(tmp_path / "old.sqlite")
    old_store(path, format_)
    with ResultStore(path) as store:
        assert store.lookup_job("0" * 64) is None
        assert store.latest_job("calibration", "0" * 64) is None
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone() == (
            str(FORMAT),) == ("3",)
        assert db.execute("SELECT COUNT(*) FROM job_results").fetchone() == (0,)
    db.close()


def damage(path, sql, *params):
    with sqlite3.connect(path) as db:
        db.execute(sql, params)
    db.close()


def first_header(path):
    with sqlite3.connect(path) as db:
        (header,) = db.execute("SELECT tables FROM job_results").fetchone()
    db.close()
    return json.loads(header)


def refused(path, run):
    with pytest.raises(EngineError) as caught:
        run_service.check_calibration(run.dataset, run.cv, run.experiment.models, SETTINGS,
                                      store=path)
    return caught.value


def test_a_kept_calibration_of_another_dtype_is_refused_with_a_code(calibrated):
    run, path = calibrated
    header = first_header(path)
    header[0][2][3][2] = "<U500000000"                  # curve's mean_predicted
    damage(path, "UPDATE job_results SET tables = ?", json.dumps(header))
    error = refused(path, run)
    assert error.code == "store_damaged" and "U500000000" in error.fields["detail"]


@pytest.mark.parametrize("change", [
    lambda h: h[0][2][3].__setitem__(3, 10 ** 12),       # more bytes than are stored
    lambda h: h.__setitem__(0, ["probabilities", *h[0][1:]]),   # another table
    lambda h: h[1].__setitem__(1, -1),                    # rows that are not a count
])
def test_a_damaged_kept_calibration_is_refused_with_a_code(calibrated, change):
    run, path = calibrated
    header = first_header(path)
    change(header)
    damage(path, "UPDATE job_results SET tables = ?", json.dumps(header))
    assert refused(path, run).code == "store_damaged"
    with pytest.raises(EngineError, match="kept calibration or ALOOCV result"):
        reopen(path)


def test_a_kept_note_of_an_unknown_code_is_refused(calibrated):
    run, path = calibrated
    damage(path, "UPDATE job_results SET notes = ?", json.dumps([["rm -rf", "x", {}]]))
    assert refused(path, run).code == "store_damaged"


def test_an_oversized_kept_result_is_refused_before_it_is_read(calibrated, monkeypatch):
    run, path = calibrated
    big = 4 * 1024 ** 2                                   # 4 MiB claimed as numbers
    header = first_header(path)
    header[0][1] = big // 8
    header[0][2] = [["bin_low", "numbers", "<f8", big]]
    damage(path, "UPDATE job_results SET tables = ?, data = zeroblob(?)",
           json.dumps(header), big)
    monkeypatch.setattr(fit_rows, "available_memory", lambda: 8 * 1024 ** 2)
    error = refused(path, run)                            # 4 MiB > a quarter of 8 MiB
    assert error.code == "store_damaged" and "memory" in error.fields["detail"]


def test_a_fresh_store_reads_no_kept_result(calibrated):
    run, path = calibrated
    with ResultStore(path, fresh=True) as store:
        checked = run_service.check_calibration(run.dataset, run.cv, run.experiment.models,
                                                SETTINGS, store=store)
    assert checked.stored is None and checked.plan.budget == (0, 30, 0)
