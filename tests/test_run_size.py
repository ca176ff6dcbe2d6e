"""A default run sized to the machine (engine.runs.run_size) from fits timed once, as
medians under the run's thread cap (engine.runs.fit_timing)."""
import pytest

from engine.evaluation.cv import CVConfig
from engine.evaluation.experiment import parse_experiment
from engine.input.data import load_builtin
from engine.runs import fit_timing, run_size


def experiment(**extra):
    return parse_experiment({"dataset": {"builtin": "breast_cancer"},
                             "models": [{"name": "nb", "estimator": "GaussianNB"},
                                        {"name": "forest", "estimator": "RandomForestClassifier",
                                         "params": {"n_estimators": 100}}], **extra})


def fixed_times(nb: float, forest_fixed: float, per_tree: float) -> dict:
    return {("GaussianNB", False, None): fit_timing.FitTime(0.0, nb),
            ("RandomForestClassifier", False, None): fit_timing.FitTime(forest_fixed,
                                                                        per_tree)}


def test_the_candidates_never_go_below_ten_by_three_or_five_by_two():
    designs = run_size.candidates(CVConfig(10, 10))
    assert [(cv.n_splits, cv.n_repeats) for cv in designs] == \
        [(10, r) for r in range(10, 2, -1)] + [(5, 2)]
    assert [(cv.n_splits, cv.n_repeats) for cv in run_size.candidates(CVConfig(5, 2))] == \
        [(5, 2)]


@pytest.fixture
def pairs_take_half_a_second(monkeypatch):
    """Comparing a pair of models takes 0.5 s (the timed rate is left out)."""
    monkeypatch.setattr(fit_timing, "pair_seconds", lambda n_folds: 0.5)


def test_the_most_repeats_within_the_target_are_proposed(pairs_take_half_a_second):
    parsed, dataset = experiment(), load_builtin("breast_cancer")
    keys = {fit_timing.group_key(spec) for spec in parsed.models}
    times = fixed_times(0.01, 0.05, 0.002)               # 0.26 s a fold, both models
    assert set(times) == keys
    sized = run_size.size_from(parsed, [dataset], [times], 1, target=12.0)
    per_fold = 0.01 + 0.05 + 0.002 * 100
    assert (sized.cv.n_splits, sized.cv.n_repeats) == (10, 4) and sized.smaller
    assert sized.seconds == pytest.approx(40 * per_fold + 0.5)     # and the one pair
    assert sized.asked_seconds == pytest.approx(100 * per_fold + 0.5)
    quick = run_size.size_from(parsed, [dataset], [fixed_times(1e-4, 1e-4, 1e-5)], 1)
    assert (quick.cv.n_repeats, quick.smaller) == (10, False)     # 10 x 10 fits: kept
    slow = run_size.size_from(parsed, [dataset], [fixed_times(1.0, 1.0, 0.1)], 1)
    assert (slow.cv.n_splits, slow.cv.n_repeats) == (5, 2)        # never fewer
    assert slow.seconds > run_size.TARGET_SECONDS


def test_calibration_and_learning_curves_count_in_the_time(pairs_take_half_a_second):
    plain = experiment()
    both = experiment(calibration={"methods": ["sigmoid"]},
                      curves={"learning": [0.5, 1.0]})
    dataset = load_builtin("breast_cancer")
    times = fixed_times(0.01, 0.0, 0.001)
    one = fit_timing.seconds_for(plain, dataset, times, n_jobs=1)
    more = fit_timing.seconds_for(both, dataset, times, n_jobs=1)
    per_fold = 0.01 + 0.1
    # calibration: 4 fold-fits more a fold (no overhead timed); learning: 1.5 fold-fits
    assert more - one == pytest.approx(100 * per_fold * (4 + 1.5))


def test_timed_fits_are_medians(monkeypatch):
    times = iter([5.0, 1.0, 2.0])
    seconds = fit_timing.median_time(lambda rows: next(times), None, 0.0, float("inf"))
    assert seconds == 2.0
    assert fit_timing.run_threads() >= 1


def test_a_real_sizing_keeps_a_quick_run_whole():
    parsed = parse_experiment({"dataset": {"builtin": "iris"},
                               "models": [{"estimator": "GaussianNB"}]})
    sized = run_size.sized_run(parsed, load_builtin("iris"), n_jobs=1, budget=0.3)
    assert (sized.cv.n_splits, sized.cv.n_repeats) == (10, 10)
    assert 0 < sized.seconds == sized.asked_seconds < run_size.TARGET_SECONDS
