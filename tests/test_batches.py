"""Tasks sized to the work (engine.evaluation.batches): one call of each kind per task until
times are known, then as many as fill the target, never more than a share of what is left."""
import math
import time

from engine.evaluation.batches import Batches, run_batch
from engine.foundation.time_left import median_of_sorted


def handed_out(batches: Batches) -> list:
    groups = []
    while batches.left:
        groups.append(batches.take())
    return groups


def test_without_times_every_task_holds_one_call():
    assert handed_out(Batches(["a"] * 5, workers=2)) == [[0], [1], [2], [3], [4]]


def test_the_first_tasks_hold_one_call_of_each_kind_not_yet_timed():
    # the tiny fits' start: three models of about a millisecond, a task of three calls
    # instead of three tasks; a second call of an untimed kind starts the next task
    batches = Batches(["nb", "lda", "constant"] * 200, workers=2)
    assert batches.take() == [0, 1, 2] and batches.take() == [3, 4, 5]
    # each untimed call counts as FLOOR_SECONDS (0.1 s): at most 5 in a task of 0.5 s
    many = Batches([f"grid{n}" for n in range(12)] * 10, workers=2)
    assert many.take() == [0, 1, 2, 3, 4] and many.take() == [5, 6, 7, 8, 9]
    # a target below the floor: one call per task, as before anything was timed
    assert Batches(["a", "b"], workers=1, target=0.05).take() == [0]


def test_small_calls_fill_the_target_and_the_order_is_kept():
    batches = Batches(["a"] * 600, workers=2, target=0.25)
    batches.record(0, 0.01)
    batches.record(1, 0.03)            # median of a's calls: 0.02 s -> 13 calls fill 0.25 s
    groups = handed_out(batches)
    assert groups[0] == list(range(13))
    assert [i for group in groups for i in group] == list(range(600))
    # the tail: a task takes at most a quarter (1 / (2 x 2 workers)) of what is left, but
    # never less than FLOOR_SECONDS (0.1 s: 5 calls of 0.02 s) while that many are left
    assert [len(g) for g in groups[-6:]] == [8, 6, 5, 5, 5, 1]
    assert len(groups) == 50           # 54 when the tail went down to one call a task
    left = 600
    for group in groups:
        assert len(group) <= min(13, max(5, math.ceil(left / 4)))
        left -= len(group)


def test_each_kind_is_sized_by_its_own_median():
    kinds = ["slow", "fast"] * 200
    batches = Batches(kinds, workers=1, target=1.0)
    batches.record(0, 0.5)             # slow
    batches.record(1, 0.1)             # fast
    batches.handed = 2
    # slow 0.5 + fast 0.1 + slow 0.5 = 1.1 >= 1.0: three calls
    assert batches.take() == [2, 3, 4]


def test_a_call_of_a_kind_not_yet_timed_ends_its_task():
    batches = Batches(["a", "a"] + ["b"] * 10, workers=1, target=0.3)
    batches.record(0, 0.1)
    batches.record(1, 0.1)
    batches.handed = 2
    assert batches.guess("b") is None and batches.take() == [2]
    batches.record(2, 0.1)
    assert batches.take() == [3, 4, 5]


def test_a_fast_kind_timed_first_does_not_size_the_slow_kinds_tasks():
    # the bench's start: naive Bayes (2 ms) timed first; the next task took 107 of the 600
    # calls of six models (seconds of work) when unknown kinds used the median of all calls
    kinds = ["nb", "lda", "knn", "tree", "logistic", "constant"] * 100
    batches = Batches(kinds, workers=2, target=0.25)
    batches.record(0, 0.002)
    batches.handed = 4
    # logistic and constant untimed (0.1 s each), nb timed (2 ms), lda untimed: 0.302 s
    assert batches.take() == [4, 5, 6, 7]
    batches.handed = 6
    for index, seconds in [(1, 0.004), (2, 0.01), (3, 0.005), (4, 0.03), (5, 0.001)]:
        batches.record(index, seconds)
    group = batches.take()             # every kind timed: 6 + 4 + 10 + 5 + 30 + 1 ms a round
    assert group == list(range(6, 6 + len(group))) and len(group) == 29
def test_failed_timings_are_not_recorded_and_medians_are_exact():
    batches = Batches(["a"], workers=1)
    batches.record(0, math.nan)
    assert batches.guess("a") is None
    assert median_of_sorted([1.0, 2.0, 10.0]) == 2.0
    assert median_of_sorted([1.0, 2.0, 4.0, 10.0]) == 3.0


def test_run_batch_returns_each_call_with_its_index_and_time():
    out = run_batch(pow, [7, 9], [(2, 3), (3, 2)])
    assert [(i, r) for i, _, r in out] == [(7, 8), (9, 9)]
    assert all(seconds >= 0 for _, seconds, _ in out)


def test_run_batch_times_cpu_not_the_clock():
    # a call that sleeps uses no CPU: a loaded machine's waits do not shrink the tasks
    (_, seconds, _), = run_batch(time.sleep, [0], [(0.2,)])
    (_, busy, _), = run_batch(spin, [1], [(0.05,)])
    assert seconds < 0.05 and busy >= 0.04


def spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
