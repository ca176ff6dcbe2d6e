"""Loading a CSV file, side by side with ``pandas.read_csv`` in one process.

    python tests/benchmarks/bench_load.py [--quick] [--repeats N] [--rows N]

``engine.input.readers.load_dataset({"csv": PATH})`` (reading with detection, the data checks: index
columns, leaks, group suggestions, imbalance; the Dataset) against ``pandas.read_csv(PATH)``
of the same file: 100,000 rows x 20 columns (16 decimal features, two text categories, a
small code and a yes/no class; ``--numbers``: 19 decimal features and a 0/1 class;
--quick: 20,000 rows). Goal: at most 1.5 times ``read_csv``'s time.

The two alternate (peer first, then ours, in every repetition, after one untimed warm-up
of each), so that a shared machine's load falls on both. Printed: the median and the
spread (lowest to highest) of each, in wall-clock and in CPU seconds of this process (the
steadier figure when other work shares the cores), the ratio of the medians, and the
machine's load average before and after.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from engine.input.readers import load_dataset  # noqa: E402

GOAL = 1.5


def write_table(path: str, n_rows: int, n_features: int = 19, seed: int = 0,
                categorical: bool = True) -> None:
    """A CSV of ``n_rows`` rows and ``n_features`` feature columns and a target: with
    ``categorical``, 16 decimal columns, two text categories (3 and 5 values), a small
    whole-number code and a ``yes``/``no`` class; else decimals and a 0/1 class."""
    rng = np.random.default_rng(seed)
    n_numbers = n_features - 3 if categorical else n_features
    X = rng.normal(size=(n_rows, n_numbers))
    frame = pd.DataFrame(X, columns=[f"x{i + 1}" for i in range(n_numbers)])
    signal = X[:, 0] + rng.normal(size=n_rows) > 0
    if categorical:
        frame["colour"] = rng.choice(["red", "green", "blue"], n_rows)
        frame["grade"] = rng.choice(list("abcde"), n_rows)
        frame["code"] = rng.integers(0, 4, n_rows)
        frame["y"] = np.where(signal, "yes", "no")
    else:
        frame["y"] = signal.astype(int)
    frame.to_csv(path, index=False)


def timed(func) -> tuple:
    """(wall seconds, CPU seconds of this process) of ``func()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    func()
    return time.perf_counter() - wall, time.process_time() - cpu


def side_by_side(path: str, repeats: int) -> dict:
    """Times of ``read_csv`` and ``load_dataset``, alternating, after a warm-up of each."""
    peer = lambda: pd.read_csv(path)                 # noqa: E731
    ours = lambda: load_dataset({"csv": path})       # noqa: E731
    peer(), ours()
    times = {"read_csv": [], "load_dataset": []}
    for _ in range(repeats):
        times["read_csv"].append(timed(peer))
        times["load_dataset"].append(timed(ours))
    return times


def describe(times: list, which: int) -> str:
    values = [t[which] for t in times]
    return (f"median {statistics.median(values):.3f} s "
            f"(spread {min(values):.3f}-{max(values):.3f})")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20,000 rows, 3 repetitions (CI)")
    parser.add_argument("--repeats", type=int, default=None, help="repetitions (default 7)")
    parser.add_argument("--rows", type=int, default=None, help="rows (default 100,000)")
    parser.add_argument("--numbers", action="store_true", help="number columns only")
    args = parser.parse_args(argv)
    rows = args.rows or (20_000 if args.quick else 100_000)
    repeats = max(3, args.repeats or (3 if args.quick else 7))
    print(f"load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "table.csv")
        write_table(path, rows, categorical=not args.numbers)
        size = os.path.getsize(path) / 2**20
        print(f"{rows:,} rows x 20 columns, {size:.1f} MB; {repeats} repetitions, alternating")
        times = side_by_side(path, repeats)
    ratios = {}
    for which, clock in ((0, "wall"), (1, "CPU")):
        for name in ("read_csv", "load_dataset"):
            print(f"  {clock:4} {name:12} {describe(times[name], which)}")
        ratio = (statistics.median(t[which] for t in times["load_dataset"])
                 / statistics.median(t[which] for t in times["read_csv"]))
        ratios[clock] = ratio
        print(f"  {clock:4} ratio load_dataset / read_csv: {ratio:.2f} (goal <= {GOAL})")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
