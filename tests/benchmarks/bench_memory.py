"""Peak memory of a large headless run, side by side with scikit-learn's cross_validate.

    python tests/benchmarks/bench_memory.py [--quick] [--rows N]

A CSV of N rows (1,000,000; ``--quick``: 100,000) and 20 numeric columns plus a two-class
``target`` (scikit-learn's ``make_classification``, written with pandas to a temporary
folder) is cross-validated 5x2 (``RepeatedStratifiedKFold(5, 2, random_state=0)``) with two
models, LogisticRegression (``max_iter=1000``, no scaling) and GaussianNB, on the metrics
``roc_auc`` and ``accuracy``:

(a) ours: a fresh ``python main.py run exp.json --out DIR --jobs 1 --quiet``, the whole
    runner (reading, checks, the fits, statistics, every table written, run.json);
(b) the peer: a fresh process doing ``pandas.read_csv`` and
    ``sklearn.model_selection.cross_validate`` of the same two models on the same splits
    with the same metrics (``return_estimator=False``).

Each process's peak resident memory (``ru_maxrss`` from ``os.wait4``) and wall time are
reported, and the ratio ours / peer -- target: at most 1.0. Both processes also report
their mean scores, which must agree.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
N_FEATURES, N_SPLITS, N_REPEATS, SEED = 20, 5, 2, 0
METRICS = ["roc_auc", "accuracy"]
MODELS = [{"name": "logistic", "estimator": "LogisticRegression",
           "params": {"max_iter": 1000}},
          {"name": "naive_bayes", "estimator": "GaussianNB", "params": {}}]

PEER = textwrap.dedent("""
    import json, sys
    import pandas as pd
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate
    from sklearn.naive_bayes import GaussianNB

    path, n_splits, n_repeats, seed, metrics = sys.argv[1], *map(int, sys.argv[2:5]), sys.argv[5:]
    frame = pd.read_csv(path)
    X, y = frame.drop(columns="target"), frame["target"]
    cv = RepeatedStratifiedKFold(n_splits=n_splits, n_repeats=n_repeats, random_state=seed)
    means = {}
    for name, model in (("logistic", LogisticRegression(max_iter=1000)),
                        ("naive_bayes", GaussianNB())):
        found = cross_validate(model, X, y, cv=cv, scoring=metrics, return_estimator=False)
        means[name] = {m: float(found["test_" + m].mean()) for m in metrics}
    print(json.dumps(means))
""")


def write_data(folder: str, n_rows: int) -> str:
    """The CSV file: ``x0 .. x19`` and ``target`` (0/1), seeded."""
    import pandas as pd
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=n_rows, n_features=N_FEATURES, n_informative=10,
                               n_redundant=4, random_state=SEED)
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(N_FEATURES)])
    frame["target"] = y
    path = os.path.join(folder, "data.csv")
    frame.to_csv(path, index=False)
    return path


def write_experiment(folder: str, data: str) -> str:
    experiment = {"dataset": {"csv": data, "target": "target"}, "models": MODELS,
                  "cv": {"n_splits": N_SPLITS, "n_repeats": N_REPEATS, "random_state": SEED},
                  "metrics": METRICS}
    path = os.path.join(folder, "exp.json")
    with open(path, "w", encoding="utf-8") as stream:
        json.dump(experiment, stream)
    return path


def measure(command: list) -> tuple:
    """(peak RSS in MB, seconds, stdout) of a fresh process running ``command``."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(process.pid, 0)   # this child's own rusage
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if process.returncode:
            raise RuntimeError(f"{command[:3]} failed ({process.returncode}): "
                               f"{err.read()[-2000:]}")
        return usage.ru_maxrss / 1024, seconds, out.read()


def ours(folder: str, experiment: str) -> tuple:
    out = os.path.join(folder, "out")
    peak, seconds, _ = measure([sys.executable, os.path.join(ROOT, "main.py"), "run",
                                experiment, "--out", out, "--jobs", "1", "--quiet"])
    import pandas as pd

    summary = pd.read_csv(os.path.join(out, "summary.csv"))
    return peak, seconds, summary


def peer(data: str) -> tuple:
    peak, seconds, out = measure([sys.executable, "-c", PEER, data, str(N_SPLITS),
                                  str(N_REPEATS), str(SEED), *METRICS])
    return peak, seconds, json.loads(out)


def same_means(summary, means) -> bool:
    """Our summary's mean scores equal the peer's (to 1e-9)."""
    for name, scores in means.items():
        for metric, value in scores.items():
            row = summary[(summary["model"] == name) & (summary["metric"] == metric)]
            if len(row) != 1 or abs(float(row["mean"].iloc[0]) - value) > 1e-9:
                return False
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100,000 rows (for CI)")
    parser.add_argument("--rows", type=int, help="rows of the CSV (default 1,000,000)")
    args = parser.parse_args(argv)
    n_rows = args.rows or (100_000 if args.quick else 1_000_000)
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as folder:
        data = write_data(folder, n_rows)
        experiment = write_experiment(folder, data)
        size = os.path.getsize(data) / 2**20
        print(f"{n_rows:,} rows x {N_FEATURES} columns ({size:.0f} MB CSV), "
              f"2 models, {N_SPLITS}x{N_REPEATS} folds, metrics {', '.join(METRICS)}")
        our_peak, our_time, summary = ours(folder, experiment)
        peer_peak, peer_time, means = peer(data)
    print(f"ours  (main.py run --jobs 1):      peak {our_peak:8.0f} MB   {our_time:7.1f} s")
    print(f"peer  (read_csv + cross_validate): peak {peer_peak:8.0f} MB   {peer_time:7.1f} s")
    ratio = our_peak / peer_peak
    print(f"peak memory ours / peer: {ratio:.2f} (target <= 1.0); "
          f"time ours / peer: {our_time / peer_time:.2f}; "
          f"same mean scores: {same_means(summary, means)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
