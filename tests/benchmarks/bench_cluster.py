"""Benchmark: the fits on a Dask LocalCluster of 2 workers vs joblib's ``n_jobs=2``.

    python tests/benchmarks/bench_cluster.py [--quick]

A fit-dominated workload (breast cancer, a random forest, gradient boosting, an RBF SVC and
a scaled logistic regression; 10x5 folds, ``--quick`` or ``BENCH_QUICK=1``: 5x2) run by
``engine.evaluation.cv.run_cv`` with ``n_jobs=2`` and with ``cluster=`` a LocalCluster(2) (one thread
per worker), alternately, in one process; the best of the repeats of each. The cluster's
start is timed apart (once per run, not per fit). Target: cluster / joblib <= 1.15, with
identical numbers. Prints the load average, since the machine may be shared.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

import pandas as pd  # noqa: E402

from engine.evaluation.catalogue import expand_models  # noqa: E402
from engine.evaluation.cluster import ClusterSpec, open_cluster  # noqa: E402
from engine.evaluation.cv import CVConfig, run_cv  # noqa: E402
from engine.input.data import load_builtin  # noqa: E402
from engine.foundation.progress import run_to_end  # noqa: E402

TARGET = 1.15
MODELS = [{"name": "forest", "estimator": "RandomForestClassifier",
           "params": {"n_estimators": 200, "random_state": 0}},
          {"name": "boosting", "estimator": "GradientBoostingClassifier",
           "params": {"random_state": 0}},
          {"name": "svc", "estimator": "SVC", "scale": True, "params": {"probability": True,
                                                                        "random_state": 0}},
          {"name": "logistic", "estimator": "LogisticRegression", "scale": True,
           "params": {"max_iter": 1000}}]


def timed(func):
    start = time.perf_counter()
    value = func()
    return time.perf_counter() - start, value


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5x2 folds, 2 repeats")
    args = parser.parse_args()
    quick = args.quick or os.environ.get("BENCH_QUICK", "") not in ("", "0")
    config = CVConfig(5, 2, 0) if quick else CVConfig(10, 5, 0)
    repeats = 2 if quick else 3
    dataset, specs = load_builtin("breast_cancer"), expand_models(MODELS)
    metrics = ["roc_auc", "neg_log_loss"]
    n_fits = len(specs) * config.n_splits * config.n_repeats
    print(f"{n_fits} fits ({len(specs)} models x {config.n_splits}x{config.n_repeats} folds) "
          f"on {dataset.n_rows} rows; load average before: {os.getloadavg()[0]:.2f}")
    start = time.perf_counter()
    with open_cluster(ClusterSpec.parse("local:2")) as cluster:
        print(f"LocalCluster(2) started in {time.perf_counter() - start:.1f} s")
        joblib_times, cluster_times = [], []
        for _ in range(repeats):
            seconds, here = timed(lambda: run_to_end(run_cv(dataset, specs, config, metrics,
                                                            n_jobs=2)))
            joblib_times.append(seconds)
            seconds, there = timed(lambda: run_to_end(run_cv(dataset, specs, config, metrics,
                                                             cluster=cluster)))
            cluster_times.append(seconds)
            pd.testing.assert_frame_equal(here.scores.drop(columns="fit_seconds"),
                                          there.scores.drop(columns="fit_seconds"))
            pd.testing.assert_frame_equal(here.predictions, there.predictions)
        start = time.perf_counter()
    print(f"LocalCluster(2) closed in {time.perf_counter() - start:.1f} s")
    best_joblib, best_cluster = min(joblib_times), min(cluster_times)
    ratio = best_cluster / best_joblib
    print(f"joblib n_jobs=2:  {best_joblib:7.2f} s  (runs: "
          f"{', '.join(f'{t:.2f}' for t in joblib_times)})")
    print(f"LocalCluster(2):  {best_cluster:7.2f} s  (runs: "
          f"{', '.join(f'{t:.2f}' for t in cluster_times)})")
    print(f"ratio {ratio:.3f} (target <= {TARGET}); numbers identical; load average after: "
          f"{os.getloadavg()[0]:.2f}")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
