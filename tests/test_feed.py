"""The rounds of an "auto" run read one stream of fits (issue #41: the rounds' overhead)."""
import math

import pytest

from engine.evaluation import auto_repeats
from engine.evaluation.experiment import parse_experiment
from engine.evaluation.parallel import Feed
from engine.foundation.progress import run_to_end
from engine.runs.analysis import run_experiment
from tests.helpers import assert_same_tables

MODELS = [{"name": "nb", "estimator": "GaussianNB"},
          {"name": "tree", "estimator": "DecisionTreeClassifier",
           "params": {"max_depth": 2, "random_state": 0}},
          {"name": "knn", "estimator": "KNeighborsClassifier"}]


def experiment(n_repeats, **more):
    return parse_experiment({"dataset": {"builtin": "iris"}, "models": MODELS,
                             "cv": {"n_splits": 5, "n_repeats": n_repeats, "random_state": 0,
                                    **more},
                             "metrics": ["accuracy"]})


def test_with_one_job_a_feed_runs_only_what_is_read_and_keeps_early_results():
    ran = []

    def square(x):
        ran.append(x)
        return x * x
    feed = Feed(square, {10: (1,), 11: (2,), 12: (3,), 13: (4,)})
    assert list(feed.take([11])) == [(11, 4)]
    assert ran == [1, 2]                           # key 10 ran first and waits
    assert list(feed.take([12, 10])) == [(10, 1), (12, 9)]
    assert ran == [1, 2, 3]
    feed.close()
    assert ran == [1, 2, 3] and feed.early == {}   # key 13 never ran


def test_with_workers_a_feed_gives_every_result_once_by_round():
    feed = Feed(math.pow, {i: (i, 2) for i in range(12)}, n_jobs=2)
    first = dict(feed.take(range(4)))
    second = dict(feed.take(range(4, 8)))
    feed.close()
    assert first == {i: float(i * i) for i in range(4)}
    assert second == {i: float(i * i) for i in range(4, 8)}
    assert feed.early == {}


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_an_auto_run_counts_and_keeps_only_the_repeats_the_rule_kept(monkeypatch, n_jobs):
    """The rule without its noise margin stops this run after 3 of at most 4 repeats
    (tests/test_auto_repeats.py); with two workers some fits of repeat 4 may have run,
    but the progress counts 3 x 5 x 3 fits and the tables are a fixed 3-repeat run's."""
    monkeypatch.setattr(auto_repeats, "BOUND_LEVEL", 0.5)
    records = []
    auto = run_to_end(run_experiment(experiment("auto", max_repeats=4, precision=0.2),
                                     n_jobs=n_jobs), on_progress=records.append)
    assert auto.cv.auto_stop.n_repeats == 3
    fits = [r for r in records if r.detail is not None]
    assert len(fits) == 45
    assert sorted((f.detail.model, f.detail.repeat, f.detail.fold) for f in fits) == sorted(
        (m["name"], r, k) for m in MODELS for r in (1, 2, 3) for k in range(1, 6))
    assert any(r.label == "stopped after 3 of at most 4 repeats" for r in records)
    assert_same_tables(auto, run_to_end(run_experiment(experiment(3))))
