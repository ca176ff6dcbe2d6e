"""Issue #40: the time estimate of a job on a run's result (the large-job question's),
made in the shape of the job: calibration from timed fits (engine.runs.fit_timing) for the
job's folds, methods and workers; ALOOCV from the job's own first steps."""
import pytest

from engine import run_service
from engine.evaluation.experiment import AloocvSettings, CalibrationSettings, parse_experiment
from engine.foundation.progress import Progress, run_to_end
from engine.runs import fit_timing, result_jobs
from engine.runs.analysis import run_experiment
from engine.runs.fit_timing import FitTime, job_seconds

MODELS = [{"estimator": "GaussianNB"},
          {"estimator": "LogisticRegression", "params": {"max_iter": 500}}]


@pytest.fixture(scope="module")
def run():
    return run_to_end(run_experiment(parse_experiment(
        {"dataset": {"builtin": "iris"}, "models": MODELS,
         "cv": {"n_splits": 3, "n_repeats": 2, "random_state": 0},
         "metrics": ["accuracy"]})))


def test_a_calibration_job_counts_its_folds_methods_and_workers():
    models = parse_experiment({"dataset": {"builtin": "iris"}, "models": MODELS}).models
    timed = {fit_timing.group_key(spec): FitTime(fixed=1.0, per_tree=0.0, calibration=0.5)
             for spec in models}
    # per model and fold: 2 methods x (0.5 + 4 fold-fits of 1 s) = 9 s; 6 folds, 2 models
    assert job_seconds(models, timed, n_folds=6, n_methods=2) == pytest.approx(108.0)
    assert job_seconds(models, timed, 6, 2, n_jobs=2) == pytest.approx(54.0)


def test_the_calibration_estimate_times_the_runs_folds_with_the_jobs_methods(
        run, monkeypatch):
    asked = []

    def timed(models, cv, metrics, dataset, budget, methods=()):
        asked.append((cv, list(metrics), list(methods), budget))
        return {fit_timing.group_key(spec): FitTime(2.0, 0.0, 1.0) for spec in models}

    monkeypatch.setattr(result_jobs, "time_models", timed)
    checked = run_service.check_calibration(run.dataset, run.cv, run.experiment.models,
                                            CalibrationSettings(methods=("sigmoid",)))
    seconds = run_service.estimate_job_seconds(checked, budget=1.0)
    assert asked == [(run.cv.config, ["accuracy"], ["sigmoid"], 1.0)]
    # 2 models x 6 folds x 1 method x (1 + 4 x 2 s)
    assert seconds == pytest.approx(2 * 6 * 9.0)


def test_the_real_calibration_estimate_is_a_time(run):
    checked = run_service.check_calibration(run.dataset, run.cv, run.experiment.models,
                                            CalibrationSettings(methods=("sigmoid",)))
    seconds = run_service.estimate_job_seconds(checked, budget=0.2)
    assert 0 < seconds < 600


def test_the_aloocv_estimate_scales_the_jobs_first_steps(run, monkeypatch):
    clock = iter(range(100))
    monkeypatch.setattr(result_jobs.time, "monotonic", lambda: float(next(clock)))
    closed = []

    def steps(*args):
        try:
            for done in range(1, 11):
                yield Progress(done, 10, "C")
        finally:
            closed.append(True)

    monkeypatch.setattr(result_jobs, "trace_aloocv", steps)
    checked = run_service.check_aloocv(run.dataset, run.experiment.models,
                                       AloocvSettings(n_C=9))
    # one clock tick a reading: the budget of 2.5 s passes at step 3, 4 s by the end
    assert run_service.estimate_job_seconds(checked, budget=2.5) == pytest.approx(
        (4 - 0) * 10 / 3)
    assert closed == [True]                                 # the job was stopped
