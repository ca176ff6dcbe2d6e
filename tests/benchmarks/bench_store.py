"""Result-store benchmarks, side by side in one process.

    python tests/benchmarks/bench_store.py [--quick]

1. store overhead on the seed run (SVC kernels on moons, 10x10 folds): run_experiment
   writing every fit to a new store vs without a store -- goal: at most 5 % more time;
2. the same on a 100,000-row, 20-column run (two models, 5x2 folds; --quick: 20,000 rows)
   -- goal: at most 5 %;
3. resume after a stop at 50 % of the fits: the rerun's time vs a whole run (the fits
   committed before the stop are read, the others computed).

Each pair alternates the two runs and keeps the best of ``--repeats``; the machine's load
average is printed with the numbers (a shared machine skews both sides).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from engine.runs.analysis import run_experiment  # noqa: E402
from engine.input.data import dataset_from_frame  # noqa: E402
from engine.evaluation.experiment import load_experiment, parse_experiment  # noqa: E402
from engine.runs.fingerprint import data_fingerprint  # noqa: E402
from engine.foundation.progress import run_to_end  # noqa: E402
from engine.runs.store import ResultStore  # noqa: E402

SEED = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")


class TimedStore(ResultStore):
    """A store that adds up the seconds spent in its own work (opening, keys, look-ups,
    saves, run records, closing): the overhead measured directly, which a loaded machine
    blurs less than the difference of two wall times."""

    seconds = 0.0
    parts: dict = {}

    def __init__(self, *args, **kwargs):
        start = time.perf_counter()
        super().__init__(*args, **kwargs)
        TimedStore.add("open", time.perf_counter() - start)

    @classmethod
    def add(cls, name: str, seconds: float) -> None:
        cls.seconds += seconds
        cls.parts[name] = cls.parts.get(name, 0.0) + seconds


def _timing(name):
    method = getattr(ResultStore, name)

    def timed_method(self, *args, **kwargs):
        start = time.perf_counter()
        try:
            return method(self, *args, **kwargs)
        finally:
            TimedStore.add(name, time.perf_counter() - start)
    setattr(TimedStore, name, timed_method)


for _name in ("keys", "lookup", "save", "begin_run", "finish_run", "close"):
    _timing(_name)


def timed(func) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def side_by_side(repeats: int, plain, stored) -> tuple:
    """Best times of ``plain()`` and ``stored(folder)`` (a new store file each time)."""
    best_plain = best_stored = float("inf")
    with tempfile.TemporaryDirectory() as folder:
        for number in range(repeats):
            best_plain = min(best_plain, timed(plain))
            path = os.path.join(folder, f"store{number}.sqlite")
            best_stored = min(best_stored, timed(lambda: stored(path)))
    return best_plain, best_stored


def overhead(name: str, experiment, dataset, repeats: int) -> float:
    def plain():
        run_to_end(run_experiment(experiment, dataset=dataset))

    def stored(path):
        with TimedStore(path) as store:
            run_to_end(run_experiment(experiment, dataset=dataset, store=store))

    TimedStore.seconds, TimedStore.parts = 0.0, {}
    a, b = side_by_side(repeats, plain, stored)
    ratio, own = b / a, TimedStore.seconds / repeats
    print(f"{name}: without store {a:.2f} s, with a new store {b:.2f} s: "
          f"x{ratio:.3f} ({100 * (ratio - 1):+.1f} %, goal <= +5 %); the store's own work "
          f"{own:.3f} s a run = {100 * own / a:.1f} % of the run without it ("
          + ", ".join(f"{k} {v / repeats:.3f} s" for k, v in TimedStore.parts.items()) + ")")
    return ratio


def big_run(n_rows: int):
    import numpy as np
    import pandas as pd
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=n_rows, n_features=20, n_informative=8,
                               random_state=0)
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(20)]).assign(
        label=np.where(y == 1, "yes", "no"))
    dataset = dataset_from_frame(frame, "label", name="synthetic")
    experiment = parse_experiment({
        "dataset": {"builtin": "iris"},            # replaced by the data set given
        "models": [{"name": "lr", "estimator": "LogisticRegression", "scale": True},
                   {"name": "nb", "estimator": "GaussianNB"}],
        "cv": {"n_splits": 5, "n_repeats": 2, "random_state": 0}, "metrics": ["roc_auc"]})
    return experiment, dataset


def resume(experiment, dataset, repeats: int) -> float:
    """Best whole-run time vs best resume time after a stop at half the fits."""
    whole = resumed = float("inf")
    with tempfile.TemporaryDirectory() as folder:
        for number in range(repeats):
            path = os.path.join(folder, f"store{number}.sqlite")
            with ResultStore(path) as store:
                whole = min(whole, timed(lambda: run_to_end(
                    run_experiment(experiment, dataset=dataset, store=store))))
            path = os.path.join(folder, f"half{number}.sqlite")
            with ResultStore(path) as store:
                job = run_experiment(experiment, dataset=dataset, store=store)
                for record in job:
                    if record.done * 2 >= record.total:
                        break
                job.close()
            with ResultStore(path) as store:
                resumed = min(resumed, timed(lambda: run_to_end(
                    run_experiment(experiment, dataset=dataset, store=store))))
                reused = store.reused
    ratio = resumed / whole
    print(f"resume after a stop at 50 % ({reused} fits reused): {resumed:.2f} s vs a whole "
          f"run {whole:.2f} s: x{ratio:.3f}")
    return ratio


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (CI)")
    parser.add_argument("--repeats", type=int, default=None)
    args = parser.parse_args(argv)
    repeats = args.repeats or (2 if args.quick else 3)
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    seed = load_experiment(SEED)
    from engine.input.readers import load_dataset

    seed_data = load_dataset(seed.dataset, base_dir=seed.base_dir)
    overhead("seed run", seed, seed_data, repeats)
    rows = 20_000 if args.quick else 100_000
    experiment, dataset = big_run(rows)
    overhead(f"{rows:,}-row run", experiment, dataset, repeats)
    start = time.perf_counter()
    data_fingerprint(dataset)
    print(f"data fingerprint of {rows:,} x 20: {time.perf_counter() - start:.3f} s")
    resume(seed, seed_data, repeats)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
