"""Benchmark: the calibration map's isotonic fit at click-through-rate scale.

Fits :func:`engine.evaluation.calibration.fit_calibration_map` (bucketing + isotonic regression over
the buckets, the seed recipe) on 1,000,000 predictions with 100,000 buckets, side by side
with scikit-learn's ``IsotonicRegression`` alone fitted on the same raw predictions, in one
process with one thread. Prints the times, their ratio (target: map <= 1.2 x sklearn) and
the peak extra memory of each (tracemalloc).

    python tests/benchmarks/bench_calibration.py [--quick]
"""
import argparse
import os
import sys
import time
import tracemalloc

import numpy as np

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from threadpoolctl import threadpool_limits  # noqa: E402

from engine.evaluation.calibration import apply_calibration_map, fit_calibration_map  # noqa: E402


def ctr_data(n, seed=0):
    """Skewed CTR-like scores: most near 0, a miscalibrated model (true rate = p**1.3)."""
    rng = np.random.default_rng(seed)
    p = rng.beta(0.6, 12.0, n)
    y = (rng.uniform(size=n) < p ** 1.3).astype(np.int8)
    return y, p


def best_of(func, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def peak_memory(func):
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    func()
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return peak


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100,000 predictions, 3 repeats")
    args = parser.parse_args()
    n, buckets, repeats = (100_000, 10_000, 3) if args.quick else (1_000_000, 100_000, 5)
    y, p = ctr_data(n)
    from sklearn.isotonic import IsotonicRegression

    def ours():
        return fit_calibration_map(y, p, n_buckets=buckets)

    def sklearn_alone():
        return IsotonicRegression(out_of_bounds="clip").fit(p, y)

    with threadpool_limits(1):
        ours(), sklearn_alone()                       # warm up imports and caches
        t_ours, t_sk = [], []
        for _ in range(repeats):                      # interleaved, side by side
            t_ours.append(best_of(ours, 1))
            t_sk.append(best_of(sklearn_alone, 1))
        mem_ours, mem_sk = peak_memory(ours), peak_memory(sklearn_alone)
        table = ours()
        t_apply = best_of(lambda: apply_calibration_map(table, p), repeats)
        iso = sklearn_alone()
    ratio = min(t_ours) / min(t_sk)
    brier_map = float(np.mean((apply_calibration_map(table, p) - y) ** 2))
    brier_iso = float(np.mean((iso.predict(p) - y) ** 2))
    print(f"{n:,} predictions, {buckets:,} buckets, 1 thread, best of {repeats}")
    print(f"  fit_calibration_map (bucket + isotonic): {min(t_ours) * 1e3:8.1f} ms  "
          f"peak extra memory {mem_ours / 2**20:6.1f} MiB")
    print(f"  sklearn IsotonicRegression.fit (raw)   : {min(t_sk) * 1e3:8.1f} ms  "
          f"peak extra memory {mem_sk / 2**20:6.1f} MiB")
    print(f"  apply_calibration_map                  : {t_apply * 1e3:8.1f} ms")
    print(f"  Brier: map {brier_map:.6f}, IsotonicRegression {brier_iso:.6f}, "
          f"raw {float(np.mean((p - y) ** 2)):.6f}")
    print(f"ratio map / sklearn = {ratio:.3f} (target <= 1.2): "
          + ("OK" if ratio <= 1.2 else "TOO SLOW"))
    return 0 if ratio <= 1.2 else 1


if __name__ == "__main__":
    sys.exit(main())
