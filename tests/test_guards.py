"""engine.runs.guards: fits counted, memory estimated, absurd requests refused before computing."""
import json
import os
import time

import pytest

from engine.input import file_checks
from engine.runs import guards
from engine.foundation import machine, param_caps
from engine.input.data import load_builtin
from engine.input.readers import load_dataset
from engine.evaluation.catalogue import count_models
from engine.evaluation.experiment import load_experiment, parse_experiment

GB = 10 ** 9


def experiment(**overrides):
    data = {"dataset": {"builtin": "iris"},
            "models": [{"name": "nb", "estimator": "GaussianNB"}],
            "cv": {"n_splits": 10, "n_repeats": 10, "random_state": 0},
            "metrics": ["accuracy"]}
    data.update(overrides)
    parsed = parse_experiment(data)
    return parsed, load_dataset(parsed.dataset)


def test_jobs_above_the_cores_are_capped_with_a_note():
    cores = machine.usable_cores()
    assert machine.cap_jobs(100_000) == (cores, f"--jobs 100000 is more than the {cores} core(s) "
                                               f"of this computer: using {cores}")
    assert machine.cap_jobs(-1) == (-1, None) and machine.cap_jobs(1) == (1, None)
    assert machine.workers_for(-1) == cores and machine.workers_for(10 ** 6) == cores


def test_available_memory_is_measured():
    available = machine.available_memory()
    assert available is None or 0 < available < 2 ** 60


def test_words():
    assert machine.format_bytes(16e12) == "16.0 TB" and machine.format_bytes(320e6) == "320 MB"
    assert machine.format_seconds(40, about=True) == "about 40 s"
    assert machine.format_seconds(720, about=True) == "about 12 min"
    assert machine.format_seconds(3.5 * 3600, about=True) == "about 3.5 h"
    assert machine.format_seconds(5 * 86400, about=True) == "about 5.0 days"
    assert machine.format_seconds(0.2, about=True) == "about 1 s"
    assert machine.format_seconds(0.4) == "0 s"
    assert machine.format_seconds(65) == "1 min 05 s"
    assert machine.format_seconds(7380) == "2 h 03 min"
    assert machine.format_seconds(None) == machine.format_seconds(float("nan")) == "—"


@pytest.mark.parametrize("name, options, fragments", [
    ("moons", {"n_samples": 10 ** 12}, ("16.0 TB", "lower n_samples to at most")),
    ("moons", {"n_samples": 1e12}, ("16.0 TB",)),
    ("circles", {"n_samples": [10 ** 11, 10 ** 11]}, ("3.2 TB",)),
    ("classification", {"n_samples": 500, "n_features": 10 ** 7},
     ("40.0 GB", "lower n_features to at most")),
])
def test_huge_builtins_are_refused_before_generating(name, options, fragments):
    started = time.monotonic()
    with pytest.raises(ValueError) as info:
        file_checks.check_builtin_request(name, options, available=8 * GB)
    message = str(info.value)
    assert message.startswith(f"built-in data set {name!r}: ") and "8.0 GB is available" in message
    for fragment in fragments:
        assert fragment in message
    assert time.monotonic() - started < 30          # generating would take hours, not seconds


@pytest.mark.parametrize("name, options", [
    ("moons", {"n_samples": 10 ** 12}),
    ("classification", {"n_samples": 10 ** 6, "n_features": 10 ** 7}),     # 80 TB
])
def test_the_loader_refuses_them_instead_of_a_memory_error(name, options):
    with pytest.raises(ValueError, match=r"TB of memory .* is available: lower n_"):
        load_builtin(name, **options)


def test_builtins_that_fit_or_are_not_numbers_pass():
    file_checks.check_builtin_request("moons", {"n_samples": 100}, available=GB)
    file_checks.check_builtin_request("moons", {"n_samples": "many"}, available=GB)
    file_checks.check_builtin_request("iris", {}, available=1)


def test_grids_are_counted_without_expanding_them(tmp_path):
    entries = [{"estimator": "SVC", "grid": [{"kernel": ["linear"]},
                                             {"kernel": ["poly"], "degree": [2, 3]}]},
               {"estimator": "GaussianNB"},
               {"estimator": "LogisticRegression", "grid": {"C": list(range(1, 10 ** 4)),
                                                            "tol": list(range(1, 10 ** 4))}}]
    assert count_models(entries) == 3 + 1 + (10 ** 4 - 1) ** 2
    path = tmp_path / "exp.json"
    path.write_text(json.dumps({"dataset": {"builtin": "iris"}, "models": entries}))
    file_checks.check_experiment_file(str(path))          # only the file itself is checked here
    started = time.perf_counter()
    with pytest.raises(ValueError, match=r"^models: the models and their grids make 99,980,005 "
                                         r"models, more than the 20,000"):
        load_experiment(str(path))
    assert time.perf_counter() - started < 60          # counted, never expanded (hours)
    path.write_text("{not json")
    file_checks.check_experiment_file(str(path))          # the parser reports it


@pytest.mark.parametrize("entry, fragment", [
    ({"estimator": "RandomForestClassifier", "params": {"n_estimators": 10 ** 9}},
     "n_estimators = 1,000,000,000 is more than 100,000 trees"),
    ({"estimator": "HistGradientBoostingClassifier", "params": {"max_iter": 10 ** 6}},
     "max_iter = 1,000,000 is more than 100,000 trees"),
    ({"estimator": "LogisticRegression", "params": {"max_iter": 10 ** 8}},
     "more than 1,000,000 solver iterations"),
    ({"estimator": "MLPClassifier", "params": {"hidden_layer_sizes": [10 ** 7]}},
     "hidden_layer_sizes is too large"),
    ({"estimator": "RandomForestClassifier", "params": {"n_jobs": 10 ** 6}},
     "n_jobs = 1,000,000 threads"),
    ({"estimator": "KNeighborsClassifier", "params": {"n_neighbors": 500}},
     "n_neighbors = 500, but the smallest training fold has only 135 rows"),
])
def test_absurd_parameters_are_refused(entry, fragment):
    """Caps are refused when the file is read (at the parameter's place) and again by the
    run check; n_neighbors needs the data, so only the run check can."""
    from engine.evaluation.catalogue import ModelSpec

    pname = next(iter(entry["params"]))
    if pname != "n_neighbors":
        with pytest.raises(ValueError, match=rf"^models\[0\]\.params\.{pname}: "):
            experiment(models=[{"name": "m", **entry}])
        refusal = param_caps.check_models([ModelSpec("m", entry["estimator"], entry["params"])])
        assert refusal.startswith("model 'm': ") and fragment in refusal
        return
    parsed, dataset = experiment(models=[{"name": "m", **entry}])
    assessment = guards.check_run(parsed, dataset, n_jobs=1)
    assert assessment.refuse.startswith("model 'm': ") and fragment in assessment.refuse


def test_sane_parameters_pass():
    parsed, dataset = experiment(models=[
        {"estimator": "RandomForestClassifier", "params": {"n_estimators": 100_000}},
        {"estimator": "LogisticRegression", "params": {"max_iter": 1_000_000}},
        {"estimator": "KNeighborsClassifier", "params": {"n_neighbors": 135}},
        {"estimator": "SVC", "params": {"max_iter": -1}}])
    assessment = guards.check_run(parsed, dataset, n_jobs=1)
    assert assessment.refuse is None and assessment.ask is None


def test_fits_are_counted_with_calibration_and_aloocv():
    parsed, dataset = experiment(
        dataset={"builtin": "breast_cancer"},
        models=[{"name": "lr", "estimator": "LogisticRegression", "scale": True},
                {"name": "nb", "estimator": "GaussianNB"}],
        calibration={"methods": ["isotonic", "sigmoid"]}, aloocv={"n_C": 20})
    a = guards.check_run(parsed, dataset, n_jobs=1)
    assert (a.n_models, a.n_cv_fits, a.n_pairs) == (2, 200, 1)
    assert a.n_calibration_fits == 2 * 100 * 2 * 5 and a.n_aloocv_fits == 20
    assert a.n_fits == 200 + 2000 + 20 and a.refuse is None and a.ask is None
    assert a.data_bytes == 569 * 30 * 8
    assert a.predictions_bytes == 569 * 10 * 2 * (2 + 6) * 8 * guards.PREDICTION_COPIES


def test_more_than_20000_fits_asks_with_the_numbers():
    grid = {"var_smoothing": [1e-9 * (i + 1) for i in range(201)]}
    parsed, dataset = experiment(models=[{"estimator": "GaussianNB", "grid": grid}])
    a = guards.check_run(parsed, dataset, n_jobs=2)
    assert a.n_fits == 20_100 and a.refuse is None
    assert a.ask == ("this run makes 20,100 fits (201 models x 10 folds x 10 repeats), more "
                     "than the 20,000 that start without asking")
    text = guards.question(a, seconds=600)
    assert text.startswith(a.ask) and "about 10 min with " in text


def test_a_run_larger_than_memory_is_refused_with_what_to_change():
    parsed, dataset = experiment(dataset={"builtin": "digits"})
    a = guards.check_run(parsed, dataset, n_jobs=1, available=10 ** 6)
    assert a.refuse.startswith("this run needs about ") and "1.0 MB is available" in a.refuse
    assert a.refuse.endswith("use fewer repeats or fewer models")
    assert a.needed_bytes > 10 ** 6 and a.available_bytes == 10 ** 6


def test_the_estimate_times_real_fits_within_the_budget():
    parsed, dataset = experiment(
        dataset={"builtin": "breast_cancer"},
        models=[{"name": "forest", "estimator": "RandomForestClassifier",
                 "params": {"n_estimators": 100_000}},
                {"name": "nb", "estimator": "GaussianNB"}],
        cv={"n_splits": 5, "n_repeats": 2})
    started = time.monotonic()
    seconds = guards.estimate_seconds(parsed, dataset, 1, budget=1.0)
    assert time.monotonic() - started < 120         # timed with 10 trees, then scaled
    assert seconds > 10 * 30                         # 10 fits of 100,000 trees: not quick
    small, _ = experiment(models=[{"estimator": "GaussianNB"}], cv={"n_splits": 3,
                                                                    "n_repeats": 1})
    assert 0 < guards.estimate_seconds(small, dataset, 1, budget=0.5) < 5


def test_a_forest_timed_on_a_busy_machine_errs_long(monkeypatch):
    """40 trees timed no longer than 10 (a busy machine's noise): every second counts
    per tree, so 100,000 trees are not called quick."""
    from engine.runs import fit_timing
    parsed, dataset = experiment(
        dataset={"builtin": "breast_cancer"},
        models=[{"name": "forest", "estimator": "RandomForestClassifier",
                 "params": {"n_estimators": 100_000}}],
        cv={"n_splits": 5, "n_repeats": 2})
    monkeypatch.setattr(fit_timing, "median_time", lambda *args: 0.05)
    timed = fit_timing.time_fits(parsed, dataset, budget=0.2)
    (fit,) = timed.values()
    assert fit.fixed == 0.0 and fit.per_tree > 0
    assert guards.estimate_seconds(parsed, dataset, 1, budget=0.2) >= 10 * 10_000 * 0.05


def test_special_files_are_refused_by_kind(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    for path, kind in ((fifo, "a named pipe (FIFO)"), (tmp_path, "a folder"),
                       ("/dev/null", "a character device")):
        with pytest.raises(ValueError, match=rf"it is {kind.replace('(', '.').replace(')', '.')}"
                                             r", not a CSV file"):
            file_checks.check_regular_file(str(path))
    regular = tmp_path / "d.csv"
    regular.write_text("a,b\n")
    assert file_checks.check_regular_file(str(regular)) == 4


def test_the_cli_progress_bar_says_seconds_in_the_one_wording():
    from io import StringIO

    from engine.cli import ProgressBar
    from engine.foundation.progress import Progress
    stream = StringIO()
    ProgressBar(stream, width=4).update(Progress(done=1, total=4, label="fold 1", elapsed=65.0),
                                        force=True)
    # 65 s for a quarter: 195 s left, an estimate
    assert stream.getvalue() == "[#---] 1/4  25% 1 min 05 s, about 3 min left  fold 1\n"
