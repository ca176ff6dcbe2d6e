"""Benchmark: the comparison across data sets, 10 data sets x 6 models.

Times the whole :func:`engine.runs.across.compare_across` (Friedman, Iman-Davenport, Nemenyi,
15 Wilcoxon tests with Holm, the Bayesian signed-rank test of 15 pairs with 50,000 draws)
with ``report()`` and ``tables()`` (target: under 100 ms), side by side with the peer
tools doing the same work: autorank (``force_mode="nonparametric"``: ranks, Friedman,
critical difference, and its ``create_report``), baycomp's ``SignedRankTest`` on the 15
pairs, scipy's Wilcoxon on the 15 pairs and statsmodels' Holm. One thread, best of the
repeats; prints the times and the ratios.

    python tests/benchmarks/bench_across.py [--quick]

``--quick`` (or ``BENCH_QUICK=1``): 3 repeats, and baycomp timed on one pair and
multiplied by 15 (its 50,000 draws are a Python loop; the full run times all 15).
"""
import argparse
import contextlib
import io
import os
import sys
import time
import timeit

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from threadpoolctl import threadpool_limits  # noqa: E402

from engine.runs.across import compare_across  # noqa: E402

N_DATASETS, N_MODELS, TARGET_MS = 10, 6, 100.0


def scores(seed=0):
    """Mean ROC AUCs: data sets of different difficulty, models a little apart, noise."""
    rng = np.random.default_rng(seed)
    values = (rng.uniform(0.7, 0.95, N_DATASETS)[:, None]
              + np.linspace(0, 0.03, N_MODELS)[None, :]
              + rng.normal(0, 0.01, (N_DATASETS, N_MODELS)))
    return values


def tidy(values):
    return pd.DataFrame([(f"data{i}", f"model{j}", values[i, j])
                         for i in range(values.shape[0]) for j in range(values.shape[1])],
                        columns=["dataset", "model", "mean"])


def best_of(func, repeats):
    """The fastest of ``repeats`` runs, in seconds."""
    return min(timeit.repeat(func, number=1, repeat=repeats))


def cpu_of(func, repeats):
    """The least processor time of ``repeats`` runs, in seconds (what other programs on a
    busy machine do not add)."""
    return min(timeit.repeat(func, number=1, repeat=repeats, timer=time.process_time))


def ours(frame):
    result = compare_across(frame, metric="roc_auc")
    result.report()
    result.tables()
    return result


def peers(values, quick):
    """The peer tools' times for the same work, by part (seconds)."""
    import matplotlib

    matplotlib.use("Agg")
    import autorank
    import baycomp
    from scipy import stats
    from statsmodels.stats.multitest import multipletests

    frame = pd.DataFrame(values, columns=[f"model{j}" for j in range(values.shape[1])])
    pairs = [(i, j) for i in range(N_MODELS) for j in range(i + 1, N_MODELS)]

    def ranks_friedman_nemenyi_report():
        with contextlib.redirect_stdout(io.StringIO()):
            result = autorank.autorank(frame, alpha=0.05, force_mode="nonparametric")
            autorank.create_report(result)

    def wilcoxon_holm():
        p = [stats.wilcoxon(values[:, i], values[:, j], zero_method="zsplit").pvalue
             for i, j in pairs]
        multipletests(p, method="holm")

    def signed_rank(some_pairs):
        for i, j in some_pairs:
            baycomp.two_on_multiple(values[:, i], values[:, j], rope=0.01, random_state=0)

    times = {"autorank (ranks, Friedman, CD, report)": best_of(ranks_friedman_nemenyi_report, 2),
             "scipy Wilcoxon x15 + statsmodels Holm": best_of(wilcoxon_holm, 3)}
    if quick:
        times["baycomp signed-rank x15 (1 pair x 15)"] = best_of(
            lambda: signed_rank(pairs[:1]), 1) * len(pairs)
    else:
        times["baycomp signed-rank x15"] = best_of(lambda: signed_rank(pairs), 1)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="3 repeats; baycomp timed on one pair (x15)")
    args = parser.parse_args()
    quick = args.quick or os.environ.get("BENCH_QUICK", "") not in ("", "0")
    repeats = 3 if quick else 10
    values = scores()
    frame = tidy(values)
    with threadpool_limits(1):
        ours(frame)                                   # warm up imports and caches
        t_ours = best_of(lambda: ours(frame), repeats)
        cpu_ours = cpu_of(lambda: ours(frame), repeats)
        t_peers = peers(values, quick)
    total = sum(t_peers.values())
    print(f"{N_DATASETS} data sets x {N_MODELS} models, 1 thread, best of {repeats}")
    print(f"  compare_across + report() + tables(): {t_ours * 1e3:8.1f} ms "
          f"(target < {TARGET_MS:.0f} ms; processor time {cpu_ours * 1e3:.1f} ms)")
    for name, seconds in t_peers.items():
        print(f"  {name:<40}: {seconds * 1e3:8.1f} ms")
    print(f"  {'peers together':<40}: {total * 1e3:8.1f} ms")
    print(f"ratio peers / ours = {total / t_ours:.1f}: "
          + ("OK" if t_ours * 1e3 < TARGET_MS else "TOO SLOW"))
    return 0 if t_ours * 1e3 < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
