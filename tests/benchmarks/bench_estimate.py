"""Benchmark: how still the live "about N left" holds over a run's first minute.

    python tests/benchmarks/bench_estimate.py [--quick] [--jobs N] [--window S]

Runs one cross-validation experiment through ``engine.runs.analysis.run_experiment`` (the
path of the app and of ``main.py run``): five models of very different costs (a random
forest, an RBF SVC, logistic regression, kNN, naive Bayes) 10x10 on breast cancer,
``--jobs 2``; ``--quick`` (or ``BENCH_QUICK=1``) 10x3 and a 20 s window. Every progress
record of the first ``--window`` seconds (60) gives a predicted end, ``elapsed + left``;
when the run is over, each is compared with the actual end: the spread is
``predicted / actual - 1``. Printed for the estimate the app shows (the median fit time per
model, :class:`engine.foundation.time_left.TimeLeft`) and, as the peer, for the
elapsed-fraction ratio it replaced (``elapsed x (total - done) / done``), from the same
records. Target: the median estimate within +-25 % over the window. Prints the load
average, since the machine may be shared (a changing load moves any estimate).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from engine.evaluation.experiment import parse_experiment  # noqa: E402
from engine.runs.analysis import run_experiment  # noqa: E402

TARGET = 0.25
MODELS = [{"name": "forest", "estimator": "RandomForestClassifier",
           "params": {"n_estimators": 100, "random_state": 0}},
          {"name": "svc", "estimator": "SVC", "scale": True},
          {"name": "logistic", "estimator": "LogisticRegression", "scale": True,
           "params": {"max_iter": 1000}},
          {"name": "knn", "estimator": "KNeighborsClassifier", "scale": True},
          {"name": "nb", "estimator": "GaussianNB"}]


def experiment(repeats: int):
    return parse_experiment({"dataset": {"builtin": "breast_cancer"}, "models": MODELS,
                             "cv": {"n_splits": 10, "n_repeats": repeats, "random_state": 0},
                             "metrics": ["roc_auc", "accuracy"]})


def record_run(job, window: float):
    """Drive ``job``; return ``(actual seconds, [(elapsed, left, ratio left), ...])`` of
    the records within the first ``window`` seconds."""
    start, seen = time.perf_counter(), []
    while True:
        try:
            record = next(job)
        except StopIteration:
            return time.perf_counter() - start, seen
        elapsed = time.perf_counter() - start
        if elapsed <= window and record.done < record.total:
            ratio = elapsed * (record.total - record.done) / record.done
            left = record.left if record.left is not None and record.left == record.left else None
            seen.append((elapsed, left, ratio))


def spread(seen, actual: float, column: int) -> tuple:
    """``(lowest, highest, at lowest, at highest)``: the extremes of ``predicted end /
    actual - 1`` over the records that have one, and the elapsed seconds where they were."""
    errors = [((each[0] + each[column]) / actual - 1, each[0]) for each in seen
              if each[column] is not None]
    if not errors:
        return (float("nan"),) * 4
    (low, at_low), (high, at_high) = min(errors), max(errors)
    return low, high, at_low, at_high


def described(extremes) -> str:
    low, high, at_low, at_high = extremes
    return (f"predicted end {100 * low:+.1f} % (at {at_low:.1f} s) to {100 * high:+.1f} % "
            f"(at {at_high:.1f} s) of the actual")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10x3 folds, a 20 s window")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--window", type=float, help="seconds watched (60; quick: 20)")
    args = parser.parse_args()
    quick = args.quick or os.environ.get("BENCH_QUICK", "") not in ("", "0")
    window = args.window or (20.0 if quick else 60.0)
    repeats = 3 if quick else 10
    print(f"{len(MODELS)} models x 10x{repeats} on breast cancer, --jobs {args.jobs}; load "
          f"average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{os.cpu_count()} cores")
    actual, seen = record_run(run_experiment(experiment(repeats), n_jobs=args.jobs), window)
    median, ratio = spread(seen, actual, 1), spread(seen, actual, 2)
    timed = [each for each in seen if each[1] is not None]
    print(f"actual run {actual:.1f} s; {len(seen)} records in the first {window:.0f} s, "
          f"{len(timed)} with a median estimate (from {timed[0][0]:.1f} s)" if timed else
          f"actual run {actual:.1f} s; no record with an estimate in the window")
    print(f"median estimate: {described(median)} (target within +-{100 * TARGET:.0f} %)")
    print(f"ratio estimate:  {described(ratio)} (the peer it replaced)")
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if timed and max(-median[0], median[1]) <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
