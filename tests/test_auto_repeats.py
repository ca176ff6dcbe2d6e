"""'"n_repeats": "auto"' (issue #41): the stopping rule, its reproducibility, its notes."""
import json
import os

import numpy as np
import pytest
from scipy.stats import t as student_t

from engine.evaluation import auto_repeats
from engine.evaluation.auto_repeats import (
    WIDTH_TOLERANCE,
    AutoStop,
    assess,
    cap_bound,
    decide,
    in_rounds,
    width,
    widths_bound,
    widths_ratio,
)
from engine.evaluation.cv import run_cv
from engine.evaluation.experiment import parse_experiment
from engine.foundation.progress import run_to_end
from engine.input.data import dataset_from_frame, load_builtin
from engine.runs.analysis import load_run, run_experiment
from engine.runs.store import ResultStore
from tests.helpers import assert_same_tables, visits

SEED = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "resources",
                    "examples", "svc_kernels_moons.json")
MODELS = [{"name": "nb", "estimator": "GaussianNB"},
          {"name": "tree", "estimator": "DecisionTreeClassifier",
           "params": {"max_depth": 2, "random_state": 0}},
          {"name": "knn", "estimator": "KNeighborsClassifier"}]


def experiment(cv, dataset=None):
    return parse_experiment({"dataset": dataset or {"builtin": "iris"}, "models": MODELS,
                             "cv": cv, "metrics": ["accuracy"]})


def auto_cv(**more):
    return {"n_splits": 5, "n_repeats": "auto", "max_repeats": 4, "precision": 0.2,
            "random_state": 0, **more}


def fixed_cv(n_repeats, **more):
    return {"n_splits": 5, "n_repeats": n_repeats, "random_state": 0, **more}


@pytest.fixture
def formula_only(monkeypatch):
    """The rule without its noise margin (a bound at the median: the Student t quantile
    is 0), so a small run stops early and the plumbing around the stop can be checked:
    then the bound is the formula's ratio of the widths now and at the cap."""
    monkeypatch.setattr(auto_repeats, "BOUND_LEVEL", 0.5)


# ---------------------------------------------------------------- the experiment file

def test_auto_parses_to_the_cap_and_writes_back_as_auto():
    cv = experiment({"n_repeats": "auto"}).cv
    assert (cv.n_repeats, cv.auto_precision) == (10, 0.02)
    assert cv.to_json()["n_repeats"] == "auto"
    assert (cv.to_json()["max_repeats"], cv.to_json()["precision"]) == (10, 0.02)
    again = experiment(cv.to_json()).cv
    assert again == cv


@pytest.mark.parametrize("cv, words", [
    ({"n_repeats": "some"}, 'cv.n_repeats: expected an integer ≥ 1 or one of auto, got "some"'),
    ({"n_repeats": "auto", "precision": 1.5}, "cv.precision: expected a number > 0 and < 1"),
    ({"n_repeats": "auto", "max_repeats": 0}, "cv.max_repeats: expected an integer ≥ 1"),
    ({"n_repeats": 3, "precision": 0.1}, 'go with "n_repeats": "auto"'),
    ({"max_repeats": 3}, 'go with "n_repeats": "auto"')])
def test_bad_auto_settings_are_one_clear_message(cv, words):
    with pytest.raises(ValueError, match=None) as caught:
        experiment(cv)
    assert words in str(caught.value)


# ---------------------------------------------------------------- the rule

def test_width_is_the_corrected_t_formula():
    s2, n, c = 0.004, 30, 1 / 9
    expected = 2 * student_t.ppf(0.975, 29) * np.sqrt((1 / 30 + c) * s2)
    assert width(s2, n, 0, c, 0.95) == pytest.approx(expected, rel=1e-12)
    predicted = 2 * student_t.ppf(0.975, 39) * np.sqrt((1 / 40 + c) * s2)
    assert width(s2, n, 10, c, 0.95) == pytest.approx(predicted, rel=1e-12)


def test_ratio_with_ten_folds_stops_at_five_repeats_at_two_percent():
    """With s² as estimated now the ratio depends on k, r and n_test/n_train only: with 10
    folds one more repeat narrows by 7.5 % after 2 repeats, 2.5 % after 4, 1.7 % after 5."""
    rng = np.random.default_rng(0)
    ratios = [widths_ratio(rng.normal(0.8, 0.05, (3, 10 * r)), 10, 1 / 9, 0.05,
                           credible_levels=(0.95,))
              for r in range(1, 7)]
    narrowing = [round(1 - ratio, 3) for ratio in ratios]
    assert narrowing[1] == pytest.approx(0.075, abs=0.001)
    assert narrowing[3] == pytest.approx(0.025, abs=0.001)
    assert narrowing[4] == pytest.approx(0.017, abs=0.001)
    stops = [decide(r, 10, 0.02, ratio, 1.0) for r, ratio in enumerate(ratios, 1)]
    assert stops == [None, None, None, None, "precision", "precision"]
    noisy = [decide(r, 10, 0.02, ratio, 1.0 + WIDTH_TOLERANCE + 1e-9)
             for r, ratio in enumerate(ratios, 1)]
    assert noisy == [None] * 6                     # a width that may still fall: go on


def test_the_rule_ignores_labels_signs_and_means():
    """Shuffling the models, flipping every difference's sign (the models in reverse order)
    or moving one model's scores leaves the ratio, and so the stop, unchanged."""
    rng = np.random.default_rng(1)
    scores = rng.normal(0.8, 0.05, (4, 30))
    base = widths_ratio(scores, 10, 1 / 9, 0.05, credible_levels=(0.5, 0.95))
    assert widths_ratio(scores[::-1], 10, 1 / 9, 0.05, credible_levels=(0.5, 0.95)) == base
    assert widths_ratio(scores[[2, 0, 3, 1]], 10, 1 / 9, 0.05, credible_levels=(0.5, 0.95)) == base
    shifted = scores.copy()
    shifted[0] += 0.3                          # a much better model: a verdict would change
    assert widths_ratio(shifted, 10, 1 / 9, 0.05, credible_levels=(0.5,
                                                                   0.95)) == pytest.approx(base,
                                                                                rel=1e-12)


def test_the_bound_ignores_labels_signs_and_means():
    """The noise bound too: it reads each interval's spread only (4 models, 6 repeats)."""
    rng = np.random.default_rng(2)
    scores = rng.normal(0.8, 0.05, (4, 60))
    base = widths_bound(scores, 10, 1 / 9, 0.05, credible_levels=(0.5, 0.95), max_repeats=10)
    assert np.isfinite(base) and base > 1.0
    assert widths_bound(scores[::-1], 10, 1 / 9, 0.05, credible_levels=(0.5, 0.95),
                        max_repeats=10) == base
    assert widths_bound(scores[[2, 0, 3, 1]], 10, 1 / 9, 0.05, credible_levels=(0.5, 0.95),
                        max_repeats=10) == base
    shifted = scores.copy()
    shifted[0] += 0.3
    assert widths_bound(shifted, 10, 1 / 9, 0.05, credible_levels=(0.5, 0.95),
                        max_repeats=10) == pytest.approx(
        base, rel=1e-9)


def test_equal_scores_have_no_width_and_stop_after_two_repeats():
    scores = np.ones((2, 10))
    assert np.isnan(widths_ratio(scores, 5, 0.25, 0.05))
    assert decide(1, 10, 0.02, np.nan, np.nan) is None
    assert decide(2, 10, 0.02, np.nan, np.nan) == "precision"
    assert decide(3, 3, 0.02, 0.5, np.inf) == "max_repeats"
    note = AutoStop(2, "precision", np.nan, 10, 0.02).note()
    assert note.fields["ratio"] is None


def repeated(values, r):
    """``values`` (models x k) in every one of ``r`` repeats, each repeat's folds in another
    order: every repeat has the same variance, so the spread between repeats is 0."""
    rng = np.random.default_rng(7)
    return np.hstack([values[:, rng.permutation(values.shape[1])] for _ in range(r)])


def test_cap_bound_without_spread_is_the_formula_ratio_to_the_cap():
    """Equal per-repeat variances: no noise to allow for, the bound is the formula's
    ratio of the width now to the width at the cap (10 folds: 1.054 at 5 repeats, 1.0 at
    10), and the rule stops after 5 repeats as the formula alone did."""
    scores = repeated(np.random.default_rng(3).normal(0.8, 0.05, (3, 10)), 5)
    x, c = scores[0], 1 / 9
    formula = width(np.var(x, ddof=1), 50, 0, c, 0.95) / width(np.var(x, ddof=1), 50, 50,
                                                               c, 0.95)
    assert cap_bound(x, 0.95, 10, c, 10) == pytest.approx(formula, rel=1e-12)
    assert formula == pytest.approx(1.054, abs=5e-4)
    assert cap_bound(repeated(scores[:, :10], 10)[0], 0.95, 10, c, 10) == 1.0
    ratio, bound = assess(scores, 10, c, 0.05, credible_levels=(0.5, 0.95), max_repeats=10)
    assert bound == pytest.approx(formula, rel=1e-9)       # the 95% intervals are widest
    assert decide(5, 10, 0.02, ratio, bound) == "precision"


def test_cap_bound_counts_the_spread_of_the_variances_between_repeats():
    """Three repeats of 10 folds, every fold value of repeat 2 1.5 times as far from the
    mean: per-repeat variances v, 2.25 v, v; the bound is the formula's ratio over
    sqrt(1 − t(0.95, 2) · g), g = 7/10 · sd(v)/mean(v) · sqrt(1/7 + 1/3)."""
    base = np.linspace(-1.0, 1.0, 10)
    x = 0.8 + 0.05 * np.concatenate([base, 1.5 * base, base])
    per = np.array([1.0, 2.25, 1.0]) * np.var(0.05 * base, ddof=1)
    g = 0.7 * per.std(ddof=1) / per.mean() * np.sqrt(1 / 7 + 1 / 3)
    shrink = 1 - student_t.ppf(0.95, 2) * g
    s2 = np.var(x, ddof=1)
    expected = width(s2, 30, 0, 0.25, 0.95) / width(s2, 30, 70, 0.25, 0.95) / np.sqrt(shrink)
    assert cap_bound(x, 0.95, 10, 0.25, 10) == pytest.approx(expected, rel=1e-12)
    assert expected == pytest.approx(2.028, abs=5e-4) and g == pytest.approx(0.2461, abs=5e-4)
    tripled = 0.8 + 0.05 * np.concatenate([base, 3 * base, base])
    assert cap_bound(tripled, 0.95, 10, 0.25, 10) == np.inf  # 1 − q g <= 0: no bound
    assert cap_bound(x[:10], 0.95, 10, 0.25, 10) == np.inf    # one repeat: no spread yet
    assert np.isnan(cap_bound(np.full(30, 0.8), 0.95, 10, 0.25, 10))  # no width


def test_failed_folds_keep_their_repeat():
    """A NaN fold leaves the other repeats' variances where they were."""
    scores = repeated(np.random.default_rng(4).normal(0.8, 0.05, (1, 10)), 4)[0]
    gap = scores.copy()
    gap[13] = np.nan                                   # repeat 2 loses a fold
    assert np.isfinite(cap_bound(gap, 0.95, 10, 1 / 9, 10))
    assert cap_bound(gap, 0.95, 10, 1 / 9, 10) != cap_bound(scores, 0.95, 10, 1 / 9, 10)


def test_a_noisy_variance_goes_on_where_a_steady_one_stops():
    """The same formula ratio after 5 repeats of 10 folds; repeats whose variances differ
    fourfold keep the run going, equal ones stop it."""
    steady = repeated(np.random.default_rng(5).normal(0.8, 0.05, (2, 10)), 5)
    noisy = steady.copy()
    noisy[:, 10:20] = 0.8 + 2 * (noisy[:, 10:20] - 0.8)
    noisy[:, 30:40] = 0.8 + 2 * (noisy[:, 30:40] - 0.8)
    for scores, stop in ((steady, "precision"), (noisy, None)):
        ratio, bound = assess(scores, 10, 1 / 9, 0.05, credible_levels=(0.95,), max_repeats=10)
        assert ratio == pytest.approx(0.983, abs=5e-4)       # the formula: 1.7 % narrower
        assert decide(5, 10, 0.02, ratio, bound) == stop
    assert widths_bound(noisy, 10, 1 / 9, 0.05, credible_levels=(0.95,),
                        max_repeats=10) > 1 + WIDTH_TOLERANCE


def test_the_note_says_the_bound_it_stopped_at():
    note = AutoStop(9, "precision", 0.99406, 10, 0.02, 1.087767).note()
    assert (note.fields["ratio"], note.fields["max_repeats"]) == (0.99406, 10)
    assert (note.fields["bound"], note.fields["tolerance"]) == (1.087767, 0.10)
    assert note.fields["bound_level"] == 0.95
    capped = AutoStop(3, "max_repeats", 0.99, 3, 0.02, np.inf).note()
    assert capped.fields["bound"] is None and capped.fields["reason"] == "max_repeats"


def test_rounds_yield_stored_fits_first_and_stop_at_the_rule():
    tasks = [(m, s) for s in range(6) for m in range(2)]            # 2 folds x 3 repeats
    asked = []

    def compute(indices):
        asked.append(list(indices))
        return ((i, f"fit {i}") for i in indices)
    ratios = iter([0.5, 0.99])
    job = in_rounds(tasks, 2, 3, 0.02, {1: "stored 1"}, compute,
                    lambda r: (next(ratios), 1.05))
    items, stop = [], None
    try:
        while True:
            items.append(next(job))
    except StopIteration as end:
        stop = end.value
    assert items[0] == (1, "stored 1", " (stored)")
    assert asked == [[0, 2, 3], [4, 5, 6, 7]]
    assert stop == AutoStop(2, "precision", 0.99, 3, 0.02, 1.05)


# ---------------------------------------------------------------- runs

def test_auto_run_equals_the_fixed_run_with_as_many_repeats(formula_only):
    """5 folds, precision 0.2, at most 4: after 2 repeats one more would narrow by 9.8 %,
    but the widths are 1.167 times those at 4 repeats (over 1.10): go on; after 3, 5.0 %
    and 1.053 times: stop."""
    auto = run_to_end(run_experiment(experiment(auto_cv())))
    stop = auto.cv.auto_stop
    assert (stop.n_repeats, stop.reason) == (3, "precision")
    assert auto.cv.config.n_repeats == 3 and auto.cv.config.auto_precision is None
    assert auto.experiment.cv.to_json()["n_repeats"] == 3         # reproducible as a number
    fixed = run_to_end(run_experiment(experiment(fixed_cv(3))))
    assert_same_tables(auto, fixed)
    note = next(n for n in auto.notes if n.code == "repeats_auto_stopped")
    assert note.fields["n_repeats"] == 3 and note.fields["reason"] == "precision"
    assert note.fields["ratio"] == pytest.approx(stop.ratio, abs=1e-6)
    assert note.fields["ratio"] == pytest.approx(0.9498, abs=5e-4)  # 5 folds, 3 -> 4
    assert note.fields["bound"] == pytest.approx(stop.bound, abs=1e-6)
    assert note.fields["bound"] == pytest.approx(1.0528, abs=5e-4)  # 3 -> 4, formula only
    assert note.fields["tolerance"] == WIDTH_TOLERANCE == 0.10
    assert note.fields["bound_level"] == 0.5                        # as patched


def test_auto_run_with_weka_folds_equals_the_fixed_run():
    """The whole rule, noise margin too: 5 folds of iris, at most 10 repeats, stops after
    9 (by 0.7% at most, a bound of 1.077 times the width at 10)."""
    cv = auto_cv(scheme="weka", random_state=1, max_repeats=10)
    auto = run_to_end(run_experiment(experiment(cv)))
    stop = auto.cv.auto_stop
    fixed = run_to_end(run_experiment(experiment(fixed_cv(stop.n_repeats, scheme="weka",
                                                          random_state=1))))
    assert (stop.n_repeats, stop.reason) == (9, "precision")
    assert stop.bound == pytest.approx(1.0775, abs=5e-4)
    assert_same_tables(auto, fixed)


def test_auto_run_with_groups_equals_the_fixed_run(formula_only):
    data = dataset_from_frame(visits(), "label", name="visits", groups="subject",
                              source={"csv": "visits.csv", "groups": "subject"})
    auto = run_to_end(run_experiment(experiment(auto_cv()), dataset=data))
    fixed = run_to_end(run_experiment(experiment(fixed_cv(auto.cv.auto_stop.n_repeats)),
                                      dataset=data))
    assert auto.cv.auto_stop.n_repeats < 4
    assert_same_tables(auto, fixed)


def test_cap_reached_is_the_reason():
    auto = run_to_end(run_experiment(experiment(auto_cv(max_repeats=2, precision=0.01))))
    assert (auto.cv.auto_stop.n_repeats, auto.cv.auto_stop.reason) == (2, "max_repeats")
    note = next(n for n in auto.notes if n.code == "repeats_auto_stopped")
    assert (note.fields["reason"], note.fields["max_repeats"]) == ("max_repeats", 2)


def test_store_keeps_only_the_fits_run_and_replays_them(tmp_path, formula_only):
    path = tmp_path / "store.sqlite"
    with ResultStore(path) as store:
        first = run_to_end(run_experiment(experiment(auto_cv()), store=store))
        assert (store.fits, store.computed) == (3 * 5 * 3, 3 * 5 * 3)
        run_id = store.runs()[-1].id
    with ResultStore(path) as store:
        again = run_to_end(run_experiment(experiment(auto_cv()), store=store))
        assert (store.fits, store.reused, store.computed) == (45, 45, 0)
    assert_same_tables(first, again)
    replayed = run_to_end(load_run(str(path), run_id))
    assert_same_tables(first, replayed)


def test_progress_says_at_most_and_ends_full_when_it_stops_early(formula_only):
    exp = experiment(auto_cv())
    records = []
    job = run_cv(load_builtin("iris"), list(exp.models), exp.cv, ["accuracy"])
    try:
        while True:
            records.append(next(job))
    except StopIteration as end:
        result = end.value
    assert "repeat 1 of at most 4, fold 1" in records[0].label
    assert records[-1].done == records[-1].total == 3 * 5 * 4
    assert records[-1].label == "stopped after 3 of at most 4 repeats"
    assert len(records) == 3 * 5 * 3 + 1 and result.config.n_repeats == 3


@pytest.mark.slow
def test_seed_example_stops_at_nine_and_equals_the_fixed_nine():
    """The seed example (four SVC kernels on moons, 10 folds) with "auto": 9 repeats (the
    formula alone would stop after 5; the spread of s² between repeats keeps it going), and
    every table of a fixed 10 x 9 run."""
    with open(SEED, encoding="utf-8") as handle:
        data = json.load(handle)
    auto = run_to_end(run_experiment(parse_experiment(
        {**data, "cv": {"n_splits": 10, "n_repeats": "auto", "random_state": 0}})))
    assert (auto.cv.auto_stop.n_repeats, auto.cv.auto_stop.reason) == (9, "precision")
    assert auto.cv.auto_stop.bound == pytest.approx(1.088, abs=5e-4)
    fixed = run_to_end(run_experiment(parse_experiment(
        {**data, "cv": {"n_splits": 10, "n_repeats": 9, "random_state": 0}})))
    assert_same_tables(auto, fixed)
    assert len(auto.cv.scores) == 4 * 90
