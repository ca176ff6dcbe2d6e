"""The run service's jobs on a run's result (calibration, ALOOCV): check -> plan -> guard ->
run, on a real cross-validation of breast_cancer, compared with the engine's direct calls."""
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

import engine.evaluation.calibration.analysis as calibration_analysis
from engine import run_service
from engine.evaluation.aloocv import run_aloocv
from engine.evaluation.calibration import run_calibration
from engine.evaluation.catalogue import expand_models
from engine.evaluation.cv import CVConfig, run_cv
from engine.evaluation.experiment import AloocvSettings, CalibrationSettings, parse_experiment
from engine.foundation.errors import EngineError
from engine.foundation.progress import run_to_end
from engine.input.data import dataset_from_frame
from engine.runs import result_jobs
from engine.runs.analysis import run_experiment
from engine.runs.run_plan import plan_run
from engine.runs.service import refusal

MODELS = [{"estimator": "GaussianNB"},
          {"estimator": "LogisticRegression", "scale": True, "params": {"max_iter": 1000}}]
SETTINGS = CalibrationSettings(map_buckets=50)
ALO = AloocvSettings(C_min=0.01, C_max=100.0, n_C=8)


def experiment(**extra):
    return parse_experiment({"dataset": {"builtin": "breast_cancer"}, "models": MODELS,
                             "cv": {"n_splits": 3, "n_repeats": 1, "random_state": 0},
                             "metrics": ["roc_auc"], **extra})


@pytest.fixture(scope="module")
def run():
    return run_to_end(run_experiment(experiment()))


def test_calibration_job_gives_the_numbers_of_a_direct_call(run):
    checked = run_service.check_calibration(run.dataset, run.cv, run.experiment.models,
                                            SETTINGS)
    records = []
    job = run_to_end(run_service.run_job(checked), on_progress=records.append)
    direct = run_to_end(run_calibration(run.dataset, run.cv, list(run.experiment.models),
                                        SETTINGS))
    for name in ("curve", "scores", "map", "fold_scores", "probabilities"):
        pd.testing.assert_frame_equal(getattr(job, name), getattr(direct, name))
    # 2 models x 2 methods x 3 folds: one record per calibrated fold, as planned
    assert [r.done for r in records] == list(range(1, 13))
    assert checked.plan.steps == records[-1].total == 12


def test_the_jobs_plan_counts_what_the_run_counts(run):
    checked = run_service.check_calibration(run.dataset, run.cv, run.experiment.models,
                                            SETTINGS)
    in_run = plan_run(experiment(calibration={"methods": ["isotonic", "sigmoid"]}),
                      datasets=[run.dataset]).datasets[0]
    assert checked.plan.budget == (0, in_run.calibration_fits, 0) == (0, 60, 0)
    assert checked.plan.steps == in_run.calibration_steps == 12
    assert checked.assessment.n_fits == 60 and checked.assessment.ask is None
    assert checked.assessment.refuse is None
    alo = run_service.check_aloocv(run.dataset, run.experiment.models, ALO)
    in_run = plan_run(experiment(aloocv={"C_min": 0.01, "C_max": 100.0, "n_C": 8}),
                      datasets=[run.dataset]).datasets[0]
    assert [s.name for s in alo.models] == ["LogisticRegression"]      # NB is left out
    assert alo.plan.steps == in_run.aloocv_steps == 9                  # 8 values of C + 1
    assert alo.plan.budget == (0, 0, in_run.aloocv_fits) == (0, 0, 8)


def test_aloocv_job_gives_the_numbers_of_a_direct_call(run):
    checked = run_service.check_aloocv(run.dataset, run.experiment.models, ALO)
    job = run_to_end(run_service.run_job(checked))
    direct = run_to_end(run_aloocv(run.dataset, list(run.experiment.models), ALO))
    pd.testing.assert_frame_equal(job.curve, direct.curve)
    pd.testing.assert_frame_equal(job.optimum, direct.optimum)
    assert 0.01 < job.optimum["C"].iloc[0] < 100.0


def test_a_job_that_cannot_fit_in_memory_is_refused(run):
    checked = run_service.check_calibration(run.dataset, run.cv, run.experiment.models,
                                            SETTINGS, available=1_000)
    # predictions: 569 rows x 2 models x (2 classes + 6) x 8 bytes x 2 copies x (2 methods
    # + 1); data: 569 rows x 30 columns x 8 bytes, once and once for the one worker
    assert checked.assessment.needed_bytes == 569 * 2 * 8 * 8 * 2 * 3 + 569 * 30 * 8 * 2
    assert checked.assessment.refuse.startswith("this job needs about")
    assert checked.assessment.ask is None
    assert run_service.check_aloocv(run.dataset, run.experiment.models, ALO,
                                    available=1_000).assessment.refuse


def test_a_large_job_asks_like_a_run(run, monkeypatch):
    monkeypatch.setattr(result_jobs, "ASK_FITS", 50)
    checked = run_service.check_calibration(run.dataset, run.cv, run.experiment.models,
                                            SETTINGS)
    assert checked.assessment.ask == (
        "this calibration makes 60 fits (2 models x 2 methods x 3 folds, with inner 5-fold "
        "splits), more than the 50 that start without asking")
    # the service's answer to the budget, as for a run
    assert refusal(checked, estimate=lambda _: None).startswith("this calibration makes 60")
    assert refusal(checked, yes=True) is None


def test_cancel_stops_between_folds(run, monkeypatch):
    fitted = []
    original = calibration_analysis.calibrate_fold

    def counting(*args):
        fitted.append(args[6])
        return original(*args)

    monkeypatch.setattr(calibration_analysis, "calibrate_fold", counting)
    checked = run_service.check_calibration(run.dataset, run.cv, run.experiment.models,
                                            SETTINGS)
    job = run_service.run_job(checked)
    first, second = next(job), next(job)
    job.close()                                 # the Cancel of the app and of Ctrl+C
    assert (first.done, second.done, second.total) == (1, 2, 12)
    assert len(fitted) == 2                     # no fold after the cancel
    with pytest.raises(StopIteration):
        next(job)


def _rare_class(n=120, positives=6):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(n, 3)), columns=["a", "b", "c"])
    frame["target"] = np.r_[np.ones(positives, int), np.zeros(n - positives, int)]
    return dataset_from_frame(frame, "target", name="rare")


def test_bad_settings_are_coded_errors_before_any_fit(run):
    dataset = _rare_class()
    models = expand_models([{"name": "nb", "estimator": "GaussianNB"}])
    cv = run_to_end(run_cv(dataset, models, CVConfig(3, 1, 0), ["accuracy"]))
    with pytest.raises(EngineError) as caught:
        run_service.check_calibration(dataset, cv, models, SETTINGS)
    # 6 rows of the rare class: a training fold of 3 folds keeps 4, fewer than 5 inner folds
    assert caught.value.code == "calibration_inner_too_few"
    assert dict(caught.value.fields) == {"smallest": 4, "inner_splits": 5, "grouped": False}
    other = expand_models([{"name": "other", "estimator": "GaussianNB"}])
    with pytest.raises(EngineError) as caught:
        run_service.check_calibration(run.dataset, run.cv, other, SETTINGS)
    assert caught.value.code == "calibration_models_missing"
    assert list(caught.value.fields["models"]) == ["other"]
    with pytest.raises(EngineError) as caught:
        run_service.check_calibration(run.dataset, run.cv, run.experiment.models,
                                      replace(SETTINGS, methods=()))
    assert caught.value.code == "calibration_no_method"
    with pytest.raises(EngineError) as caught:
        run_service.check_calibration(dataset, run.cv, run.experiment.models, SETTINGS)
    assert caught.value.code == "calibration_cv_mismatch"   # the evaluation layer names it
    with pytest.raises(EngineError) as caught:
        run_service.check_aloocv(run.dataset, run.experiment.models[:1], ALO)
    assert caught.value.code == "aloocv_no_model"
    assert list(caught.value.fields["models"]) == ["GaussianNB"]


def test_the_run_computes_its_extras_with_the_jobs_generators(monkeypatch):
    called = []
    for name in ("calibrate", "trace_aloocv"):
        original = getattr(result_jobs, name)
        monkeypatch.setattr("engine.runs.analysis." + name,
                            lambda *a, _o=original, _n=name, **k: called.append(_n) or _o(*a, **k))
    result = run_to_end(run_experiment(experiment(calibration={"methods": ["sigmoid"]},
                                                  aloocv={"n_C": 4})))
    assert called == ["trace_aloocv", "calibrate"]
    assert set(result.calibration.scores.method) == {"uncalibrated", "sigmoid"}
    assert len(result.aloocv.curve) == 4


def test_with_groups_the_inner_folds_need_groups_of_every_class():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(80, 2)), columns=["a", "b"])
    frame["g"] = np.repeat(np.arange(8), 10)              # 8 groups of 10 rows
    frame["target"] = (frame["g"] >= 4).astype(int)         # 4 groups of each class
    dataset = dataset_from_frame(frame, "target", name="grouped", groups="g")
    models = expand_models([{"name": "nb", "estimator": "GaussianNB"}])
    cv = run_to_end(run_cv(dataset, models, CVConfig(2, 1, 0), ["accuracy"]))
    with pytest.raises(EngineError) as caught:
        run_service.check_calibration(dataset, cv, models, SETTINGS)
    # two folds of 4 groups: a training part keeps 2 groups of each class, fewer than 5
    assert caught.value.code == "calibration_inner_too_few"
    assert dict(caught.value.fields) == {"smallest": 2, "inner_splits": 5, "grouped": True}
    assert "group(s) holding its smallest class" in str(caught.value)
