"""Benchmark: the fits on a Dask LocalCluster of 2 workers vs joblib's ``n_jobs=2``.

    python tests/benchmarks/bench_cluster.py [--quick]

Three workloads, each run by ``engine.evaluation.cv.run_cv`` with ``n_jobs=2`` (the peer,
``--jobs 2``) and with ``cluster=`` a LocalCluster(2) (one thread per worker, ``--cluster
local:2``), alternately, in one process, 5 times each; the medians compared:

* ``cheap``: six cheap models (naive Bayes, LDA, kNN, a depth-3 tree, logistic
  regression, a constant) 10x10 on breast cancer: 600 fits of a few ms to tens of ms;
* ``tiny``: three models 10x20 on iris: 600 fits of about a millisecond;
* ``heavy``: a random forest, gradient boosting, an RBF SVC and logistic regression
  10x5 on breast cancer: 200 fits of up to a second.

``--cli`` times the whole headless run instead (``python main.py run EXPERIMENT --out DIR
--quiet`` with ``--jobs 2``, then with ``--cluster local:2``, alternately, each a new
process): what the user waits for, with the cluster's start, its check and its close.

``--quick`` (or ``BENCH_QUICK=1``) runs 10x3, 10x6 and 5x2 folds. The cluster's start is
timed apart (once per run, not per fit), and one untimed run of each way (one repeat of
the folds) comes first: the start of joblib's worker pool and the workers' first imports
are once per session, not per fit. Target: cluster / joblib <= 1.1 on every
workload, with identical numbers. Prints the load average before and after, since the
machine may be shared.

The default mode also prints the CPU seconds per run of this process (the client, and for
``local:2`` the scheduler and nannies, which run in it), of the Dask workers and of
joblib's workers, and the Dask tasks per run: CPU seconds hardly depend on the load, clock
times do. While ``--jobs 2`` runs, the idle LocalCluster still uses some CPU (counted under
``--jobs 2``'s "dask workers" and "client"), which the runner's ``--jobs 2`` does not pay.

Measured 2026-11-28 on the 2-core machine shared with 7 other engineers' tests and a
coverage study (load average 10-15), medians of 5 alternating runs, start left out,
before (d33a6b4) and after (8e5d4eb: tasks sized by CPU time to 0.5 s with a 0.1 s floor
in the tail, every finished task gathered at once, ``cluster.LOCAL_CONFIG``), the two
benches run one after the other:

* ``cheap``: before 1.207 (--jobs 2 12.77 s [9.43-17.49], local:2 15.41 s [9.00-21.90],
  load 14.9); after 0.969 (6.12 s [4.80-6.79] vs 5.93 s [5.45-8.20], load 10-14).
  Tasks per run: 32-127 before (sized by clock time, more as the load rose), 20-21 after.
  CPU s per run (a scratch copy of this accounting, load 13-15): before, client with the
  scheduler 1.07 and workers 3.99 against joblib's 2.59 (the idle cluster alone used
  0.04 + 0.06 cores); after, 0.30 and 2.58 against joblib's 2.56 and its run's 0.17 + 0.15
  of the idle cluster. A second run after, with this bench's own accounting (load 11-14):
  0.904 (10.21 s [6.77-12.18] vs 9.23 s [7.37-10.75]), 20 tasks per run; CPU s per run
  client 0.34 + Dask workers 2.57 against client 0.44 + joblib 2.50 (+ 0.13 of the idle
  cluster's workers).
* ``tiny``: before 1.144 (5.38 s [4.60-5.88] vs 6.15 s [4.38-7.36], load 13); after
  1.126 (3.55 s [3.02-4.00] vs 4.00 s [3.22-4.37], load 12), 14 tasks per run; CPU s per
  run: client 0.23 vs 0.20, Dask workers 1.01 vs joblib's 0.86 (0.15 s, about 10 ms a
  task, for 0.86 s of fits of 1.4 ms).
* What a task costs (a scratch LocalCluster(2), 300 empty tasks, load 13): the client
  with the scheduler 3.5-5.5 ms of CPU when finished tasks are gathered together (4.8-7.6
  ms one at a time), a worker 4-10 ms, on the 2 cores the fits use.
* Whole headless runs, ``--cli --quick --only cheap`` (180 fits; load 10-11): before
  1.400 (--jobs 2 26.24 s [25.07-29.77], local:2 36.74 s [32.40-44.50]), after 1.473
  (22.37 s [20.22-25.97] vs 32.94 s [20.91-34.94]): about 10.5 s more either way, the
  cluster's start, check and close, which this change does not touch.
* The cluster's start, check and close, piece by piece (a scratch script, load 11-12,
  2 runs each): Dask's import in the client 1.5-1.9 s; ``LocalCluster(2)`` (scheduler,
  nannies, two spawned workers importing ``distributed``) 4.5-4.6 s; the engine check
  (``client.run(worker_versions)``: each worker importing scikit-learn and the fitting
  code) 11.8-12.5 s; the client 0.04 s, waiting for workers 0.00 s, scattering the data
  0.09 s, closing the client 0.00 s; closing the LocalCluster 3.7-4.2 s (each spawned
  worker tearing its modules down). Workers forked from a forkserver that imported
  ``cluster.PRELOAD`` once (d68022a): ``LocalCluster(2)`` 8.6-9.8 s
  (the forkserver's imports), the check 0.30-0.35 s, the close 0.11-0.15 s.
* After d68022a and 69fefff (forked workers; the first tasks take one call of each model
  not yet timed): whole headless runs, ``--cli --quick --only cheap`` (load 15-19):
  0.950 (--jobs 2 29.29 s [25.15-33.11], local:2 27.84 s [23.55-29.49]); start left out
  (``LocalCluster(2) started in`` 5.5-8.2 s): ``tiny`` 600 fits 0.956 (3.44 s [2.47-4.50]
  vs 3.29 s [2.70-3.83], load 11), 11 tasks per run (14 before), CPU s per run Dask
  workers 1.16 vs joblib's 1.02; ``cheap`` 600 fits 1.036 (6.35 s [4.46-7.20] vs 6.58 s
  [4.97-7.24], load 9-11), 16 tasks per run (20-21 before), Dask workers 2.73 CPU s per
  run vs joblib's 2.58; ``--quick`` (180 fits, load 13-14): ``tiny`` 0.857
  (1.30 s vs 1.12 s, 7 tasks), ``cheap`` 1.115 (2.49 s [2.18-2.88] vs 2.77 s
  [2.21-2.88], 11 tasks; Dask workers 0.89 CPU s per run vs joblib's 0.80): on runs of
  2-3 s the first round trips and 9-10 ms of worker CPU per task still show.
* Earlier (before d33a6b4), whole headless runs (``--cli``, load 9-21): ``cheap`` 1.241,
  ``tiny`` 2.013 (``--quick``: 1.353): the cluster's start and check (14-49 s here, the
  workers' imports under load) and close (4-5 s) are paid once per run.
"""
from __future__ import annotations

import argparse
import os
import statistics
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

TARGET = 1.1
REPEATS = 5
CHEAP = [{"name": "nb", "estimator": "GaussianNB"},
         {"name": "lda", "estimator": "LinearDiscriminantAnalysis"},
         {"name": "knn", "estimator": "KNeighborsClassifier", "scale": True},
         {"name": "tree", "estimator": "DecisionTreeClassifier",
          "params": {"max_depth": 3, "random_state": 0}},
         {"name": "logistic", "estimator": "LogisticRegression", "scale": True,
          "params": {"max_iter": 1000}},
         {"name": "constant", "estimator": "DummyClassifier"}]
TINY = [{"name": "nb", "estimator": "GaussianNB"},
        {"name": "lda", "estimator": "LinearDiscriminantAnalysis"},
        {"name": "constant", "estimator": "DummyClassifier"}]
HEAVY = [{"name": "forest", "estimator": "RandomForestClassifier",
          "params": {"n_estimators": 200, "random_state": 0}},
         {"name": "boosting", "estimator": "GradientBoostingClassifier",
          "params": {"random_state": 0}},
         {"name": "svc", "estimator": "SVC", "scale": True, "params": {"probability": True,
                                                                      "random_state": 0}},
         {"name": "logistic", "estimator": "LogisticRegression", "scale": True,
          "params": {"max_iter": 1000}}]
#: name -> (data set, models, metrics, folds, (repeats, quick repeats))
WORKLOADS = {"cheap": ("breast_cancer", CHEAP, ["roc_auc", "accuracy"], 10, (10, 3)),
             "tiny": ("iris", TINY, ["accuracy"], 10, (20, 6)),
             "heavy": ("breast_cancer", HEAVY, ["roc_auc", "neg_log_loss"], (10, 5), (5, 2))}


def timed(func):
    start = time.perf_counter()
    value = func()
    return time.perf_counter() - start, value


def workload(name: str, quick: bool):
    """``(dataset, specs, config, metrics)`` of a workload."""
    data, models, metrics, folds, repeats = WORKLOADS[name]
    if isinstance(folds, tuple):                 # heavy: (full, quick) fold counts
        folds = folds[1] if quick else folds[0]
    return (load_builtin(data), expand_models(models),
            CVConfig(folds, repeats[1] if quick else repeats[0], 0), metrics)


class CPU:
    """CPU seconds of this process (the client and, for ``local:2``, the scheduler and
    nannies), of the Dask workers, and of the other child processes (joblib's workers),
    summed per way over the timed runs (psutil: a dependency of Dask's distributed)."""

    def __init__(self, cluster):
        import psutil

        self.me, self.psutil = psutil.Process(), psutil
        self.dask = set(cluster.client.run(os.getpid).values())
        self.used: dict = {}

    def now(self) -> dict:
        seconds = {"client": sum(self.me.cpu_times()[:2]), "dask workers": 0.0, "joblib": 0.0}
        for child in self.me.children(recursive=True):
            try:
                used = sum(child.cpu_times()[:2])
            except self.psutil.Error:
                continue
            seconds["dask workers" if child.pid in self.dask else "joblib"] += used
        return seconds

    def timed(self, way: str, func):
        before = self.now()
        value = timed(func)
        total = self.used.setdefault(way, dict.fromkeys(before, 0.0))
        for key, used in self.now().items():
            total[key] += used - before[key]
        return value

    def print(self, runs: int) -> None:
        for way, used in self.used.items():
            print(f"  CPU s per run, {way}: " + ", ".join(f"{key} {value / runs:.2f}"
                                                          for key, value in used.items()))


def compare(cluster, name: str, quick: bool) -> float:
    """Run the workload alternately both ways; print and return the ratio of medians."""
    dataset, specs, config, metrics = workload(name, quick)
    n_fits = len(specs) * config.n_splits * config.n_repeats
    for backend in ({"n_jobs": 2}, {"cluster": cluster}):      # untimed: pool start, imports
        run_to_end(run_cv(dataset, specs, CVConfig(config.n_splits, 1, 0), metrics, **backend))
    joblib_times, cluster_times = [], []
    cpu, tasks = CPU(cluster), count_tasks(cluster)
    for _ in range(REPEATS):
        seconds, here = cpu.timed("--jobs 2", lambda: run_to_end(run_cv(
            dataset, specs, config, metrics, n_jobs=2)))
        joblib_times.append(seconds)
        seconds, there = cpu.timed("local:2", lambda: run_to_end(run_cv(
            dataset, specs, config, metrics, cluster=cluster)))
        cluster_times.append(seconds)
        pd.testing.assert_frame_equal(here.scores.drop(columns="fit_seconds"),
                                      there.scores.drop(columns="fit_seconds"))
        pd.testing.assert_frame_equal(here.predictions, there.predictions)
    ratio = statistics.median(cluster_times) / statistics.median(joblib_times)
    print(f"{name:6s} {n_fits:4d} fits ({len(specs)} models x {config.n_splits}x"
          f"{config.n_repeats} on {dataset.n_rows} rows): --jobs 2 median "
          f"{statistics.median(joblib_times):6.2f} s ({_listed(joblib_times)}), local:2 median "
          f"{statistics.median(cluster_times):6.2f} s ({_listed(cluster_times)}); "
          f"ratio {ratio:.3f}; load {os.getloadavg()[0]:.1f}; {len(tasks) / REPEATS:.0f} "
          "Dask tasks per run", flush=True)
    cpu.print(REPEATS)
    del cluster.client.submit             # count_tasks's wrapper: the method again
    return ratio


def count_tasks(cluster) -> list:
    """A list that grows by one for each task the cluster's client submits."""
    submit, submitted = cluster.client.submit, []

    def counted(*args, **kwargs):
        submitted.append(1)
        return submit(*args, **kwargs)

    cluster.client.submit = counted
    return submitted


def compare_cli(name: str, quick: bool, folder: str) -> float:
    """The whole headless run of the workload, ``--jobs 2`` then ``--cluster local:2``,
    alternately; print and return the ratio of medians."""
    import json
    import subprocess

    data, models, metrics, folds, repeats = WORKLOADS[name]
    folds = (folds[1] if quick else folds[0]) if isinstance(folds, tuple) else folds
    path = os.path.join(folder, f"{name}.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"dataset": {"builtin": data}, "models": models, "metrics": metrics,
                   "cv": {"n_splits": folds, "n_repeats": repeats[1] if quick else repeats[0],
                          "random_state": 0}}, handle)
    times: dict = {"--jobs": [], "--cluster": []}
    for run in range(REPEATS):
        for option, value in (("--jobs", "2"), ("--cluster", "local:2")):
            out = os.path.join(folder, f"{name}{option}{run}")
            command = [sys.executable, os.path.join(ROOT, "main.py"), "run", path, "--out", out,
                       "--quiet", "--fresh", option, value]
            seconds, done = timed(lambda: subprocess.run(command, capture_output=True,
                                                         text=True))
            if done.returncode != 0:
                raise SystemExit(f"{' '.join(command)} failed: {done.stderr}")
            times[option].append(seconds)
    jobs, there = times["--jobs"], times["--cluster"]
    ratio = statistics.median(there) / statistics.median(jobs)
    print(f"{name:6s} whole run: --jobs 2 median {statistics.median(jobs):6.2f} s "
          f"({_listed(jobs)}), --cluster local:2 median {statistics.median(there):6.2f} s "
          f"({_listed(there)}); ratio {ratio:.3f}; load {os.getloadavg()[0]:.1f}", flush=True)
    return ratio


def _listed(times) -> str:
    return ", ".join(f"{t:.2f}" for t in times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats of the folds")
    parser.add_argument("--only", choices=sorted(WORKLOADS), help="one workload")
    parser.add_argument("--cli", action="store_true",
                        help="time whole headless runs (start and close included)")
    args = parser.parse_args()
    quick = args.quick or os.environ.get("BENCH_QUICK", "") not in ("", "0")
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{os.cpu_count()} cores")
    names = [args.only] if args.only else list(WORKLOADS)
    if args.cli:
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            ratios = {name: compare_cli(name, quick, folder) for name in names}
        return _verdict(ratios, compared=False)
    start = time.perf_counter()
    with open_cluster(ClusterSpec.parse("local:2")) as cluster:
        print(f"LocalCluster(2) started in {time.perf_counter() - start:.1f} s")
        ratios = {name: compare(cluster, name, quick) for name in names}
    return _verdict(ratios)


def _verdict(ratios: dict, compared: bool = True) -> int:
    worst = max(ratios.values())
    numbers = "numbers identical" if compared else "numbers not compared (the default mode does)"
    print(f"worst ratio {worst:.3f} (target <= {TARGET}); {numbers}; load average "
          f"after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
