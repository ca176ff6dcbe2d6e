"""The time left from the median fit time (engine.foundation.time_left), on injected times:
no wall clock, so every figure is exact."""
import math

import pytest

from engine.evaluation.catalogue import expand_models
from engine.evaluation.cv import CVConfig, run_cv
from engine.evaluation.parallel import workers
from engine.foundation.progress import Progress
from engine.foundation.time_left import TimeLeft
from engine.input.data import load_builtin
from engine.runs.run_plan import Phases


def test_each_model_counts_its_fits_left_at_its_median_shared_by_the_workers():
    timer = TimeLeft(["slow", "fast"] * 10, workers=2)
    assert math.isnan(timer.seconds())               # nothing timed yet
    for seconds in (1.0, 3.0, 2.0):
        timer.done("slow", seconds)
    assert math.isnan(timer.seconds())               # "fast" not timed yet
    timer.done("fast", 0.5)
    # slow: median 2.0 x 7 left; fast: 0.5 x 9 left; over 2 workers
    assert timer.seconds() == pytest.approx((2.0 * 7 + 0.5 * 9) / 2)


def test_a_model_whose_fits_are_all_done_no_longer_waits_for_a_time():
    timer = TimeLeft(["a"] * 2 + ["b"] * 4)
    timer.done("a")                                  # both found in the store
    timer.done("a")
    timer.done("b", 1.0)
    timer.done("b", 3.0)
    assert timer.seconds() == pytest.approx(2.0 * 2)


def test_stored_and_failed_fits_count_down_without_a_time():
    timer = TimeLeft(["a"] * 5, workers=4)
    timer.done("a")                                  # found in the store
    timer.done("a", math.nan)                        # no time
    assert math.isnan(timer.seconds())
    timer.done("a", 0.6)
    # two fits left, never shared among more workers than fits
    assert timer.seconds() == pytest.approx(0.6 * 2 / 2)
    timer.done("a", 0.6)
    timer.done("a", 0.6)
    assert timer.seconds() == 0.0


def test_the_estimate_holds_still_where_the_ratio_swings():
    """Slow fits first (a model of 2 s, then one of 0.1 s per split): the ratio estimate
    overshoots after the slow fit and undershoots after the fast one; the median's
    estimate of the whole run's end stays at the truth."""
    kinds, times = ["slow", "fast"] * 50, {"slow": 2.0, "fast": 0.1}
    truth = 50 * 2.1
    timer, elapsed, ends, ratio_ends = TimeLeft(kinds), 0.0, [], []
    for done, kind in enumerate(kinds, 1):
        elapsed += times[kind]
        timer.done(kind, times[kind])
        if done >= 2:                                 # once each model was timed
            ends.append(elapsed + timer.seconds())
            ratio_ends.append(elapsed + Progress(done, 100, elapsed=elapsed).remaining)
    assert max(abs(end / truth - 1) for end in ends) < 1e-12
    assert max(end / truth for end in ratio_ends[:3]) > 1.3


def test_a_record_prefers_its_producers_estimate():
    assert Progress(1, 4, elapsed=10.0).remaining == 30.0
    assert Progress(1, 4, elapsed=10.0, left=5.0).remaining == 5.0
    assert Progress(1, 4, elapsed=10.0, left=math.nan).remaining is None   # not known yet
    assert Progress(0, 4, elapsed=1.0).remaining is None


def test_the_run_adds_the_later_phases_at_its_seconds_per_step():
    phases = Phases(10)                               # a phase of 4 steps, then one of 6
    first = phases.overall(Progress(1, 4, left=3.0))
    assert first.done == 1
    assert first.left == pytest.approx(3.0 + 6 * first.elapsed / 1)
    assert phases.overall(Progress(2, 4)).left is None  # no estimate: the ratio serves
    assert math.isnan(phases.overall(Progress(3, 4, left=math.nan)).left)


def test_workers_count_as_joblib_and_the_cluster_do():
    class Cluster:
        def workers(self):
            return 3
    assert workers(1) == 1 and workers(4) == 4 and workers(2, Cluster()) == 3
    assert workers(-1) >= 1


def test_cross_validation_records_carry_the_median_estimate():
    dataset = load_builtin("iris")
    specs = expand_models([{"name": "nb", "estimator": "GaussianNB"},
                           {"name": "lda", "estimator": "LinearDiscriminantAnalysis"}])
    job = run_cv(dataset, specs, CVConfig(3, 2, 0), ["accuracy"])
    records = []
    try:
        while True:
            records.append(next(job))
    except StopIteration:
        pass
    assert math.isnan(records[0].left)               # one model timed of two
    assert all(r.left >= 0 for r in records[2:])
    assert records[-1].left == 0.0 and records[-2].left > 0
