"""Benchmark: nested cross-validation against scikit-learn's own.

5 folds x 2 repeats outside, 5 inner folds, a 3 x 3 grid (SVC's C x gamma, with scaling)
on breast cancer, scored by ROC AUC: :func:`engine.evaluation.cv.run_cv` with a ``"tune"`` model
(``optimism`` off: the same fits as the peer) against ``cross_val_score(GridSearchCV(...),
X, y, cv=RepeatedStratifiedKFold(5, 2))``, side by side in one process, one thread. Prints
both times (processor time, which other programs on a busy machine do not add, and wall
time), their ratio (goal: at most 1.0), that the fold scores are equal (to 1e-12: the
engine computes ROC AUC from ranks, scikit-learn by trapezoids), and the
processor time with ``optimism`` on (the 9 grid members also fitted as plain models).

    python tests/benchmarks/bench_nested.py [--quick]

``--quick`` (or ``BENCH_QUICK=1``): each side timed once instead of best of 3.
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from threadpoolctl import threadpool_limits  # noqa: E402

from engine.evaluation.catalogue import expand_models  # noqa: E402
from engine.evaluation.cv import CVConfig, run_cv  # noqa: E402
from engine.input.data import load_builtin  # noqa: E402
from engine.foundation.progress import run_to_end  # noqa: E402

GRID = {"C": [0.1, 1.0, 10.0], "gamma": [0.001, 0.01, 0.1]}
CONFIG = CVConfig(n_splits=5, n_repeats=2, random_state=0)
INNER = 5


def entry(optimism):
    return {"name": "svc", "estimator": "SVC", "scale": True, "params": {"random_state": 0},
            "tune": {"grid": GRID, "inner_splits": INNER, "optimism": optimism}}


def ours(dataset, optimism=False):
    specs = expand_models([entry(optimism)])
    result = run_to_end(run_cv(dataset, specs, CONFIG, ["roc_auc"]))
    return result.scores["score"].to_numpy()


def peer(dataset):
    from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold, cross_val_score
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    pipe = Pipeline([("scale", StandardScaler()), ("model", SVC(random_state=0))])
    search = GridSearchCV(pipe, {f"model__{k}": v for k, v in GRID.items()},
                          scoring="roc_auc", cv=INNER, refit=True)
    outer = RepeatedStratifiedKFold(n_splits=CONFIG.n_splits, n_repeats=CONFIG.n_repeats,
                                    random_state=CONFIG.random_state)
    return cross_val_score(search, dataset.X.to_numpy(dtype=float), dataset.y, cv=outer,
                           scoring="roc_auc")


def timed(func, repeats):
    """(least processor seconds, least wall seconds, the last result) of ``repeats`` runs."""
    cpu, wall, value = [], [], None
    for _ in range(repeats):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        value = func()
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
    return min(cpu), min(wall), value


def main(quick: bool) -> int:
    repeats = 1 if quick else 3
    dataset = load_builtin("breast_cancer")
    print(f"nested CV: {CONFIG.n_splits}x{CONFIG.n_repeats} outer, {INNER} inner, 3x3 grid, "
          f"breast cancer ({dataset.n_rows} rows); load {os.getloadavg()[0]:.2f} on "
          f"{os.cpu_count()} cores; best of {repeats}")
    with threadpool_limits(1):
        ours(dataset)                                     # warm up imports
        peer_cpu, peer_wall, expected = timed(lambda: peer(dataset), repeats)
        our_cpu, our_wall, scores = timed(lambda: ours(dataset), repeats)
        members_cpu, _, _ = timed(lambda: ours(dataset, optimism=True), 1)
    largest = float(np.abs(scores - expected).max())
    identical = largest <= 1e-12      # the engine's ROC AUC (ranks) vs scikit-learn's (trapezoids)
    print(f"  scikit-learn cross_val_score(GridSearchCV): {peer_cpu:7.2f} s cpu "
          f"{peer_wall:7.2f} s wall")
    print(f"  honest-eval run_cv (tune)                 : {our_cpu:7.2f} s cpu "
          f"{our_wall:7.2f} s wall")
    print(f"  ratio (ours / scikit-learn, cpu)          : {our_cpu / peer_cpu:7.3f}  "
          "(goal <= 1.0)")
    print(f"  with optimism (9 members as plain models) : {members_cpu:7.2f} s cpu "
          f"({members_cpu / our_cpu:.2f} x tune alone)")
    print(f"  fold scores equal: {identical} (largest difference {largest:.1e}, goal <= "
          f"1e-12); mean ROC AUC {scores.mean():.6f} vs {expected.mean():.6f}")
    return 0 if identical else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    sys.exit(main(args.quick or os.environ.get("BENCH_QUICK") == "1"))
