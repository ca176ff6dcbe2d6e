"""Cross-validation benchmarks, each side by side with its scikit-learn peer.

    python tests/benchmarks/bench_cv.py [--quick]

1. the seed workload's CV step (SVC kernels on moons, 10x10 folds) vs GridSearchCV(n_jobs=1)
   -- target: at most 0.4 of its time;
2. a fit-dominated workload (breast cancer, six models, 10x10 folds) vs cross_validate with
   n_jobs=-1 -- target: at most 0.9 of its time, identical numbers;
3. the whole headless process on the seed example vs the same analysis scripted with
   GridSearchCV -- target: at most 0.75 of its time.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402

from engine.evaluation.catalogue import expand_models, make_pipeline, presets  # noqa: E402
from engine.evaluation.cv import CVConfig, run_cv  # noqa: E402
from engine.input.data import load_builtin  # noqa: E402
from engine.foundation.progress import run_to_end  # noqa: E402

SEED = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")
SEED_GRID = [{"kernel": ["linear"]}, {"kernel": ["poly"], "degree": [2, 3]}, {"kernel": ["rbf"]}]


def best_of(repeats, func):
    times, value = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        value = func()
        times.append(time.perf_counter() - start)
    return min(times), value


def bench_seed_cv(repeats: int) -> tuple:
    from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
    from sklearn.svm import SVC

    dataset = load_builtin("moons")
    specs = expand_models([{"estimator": "SVC", "params": {"random_state": 0}, "grid": SEED_GRID}])
    X, y = dataset.X.to_numpy(), dataset.y

    def peer():
        cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
        search = GridSearchCV(SVC(random_state=0), SEED_GRID, scoring="roc_auc", cv=cv, n_jobs=1)
        return search.fit(X, y)

    def ours():
        return run_to_end(run_cv(dataset, specs, CVConfig(10, 10, 0), ["roc_auc"]))

    peer_time, search = best_of(repeats, peer)
    our_time, result = best_of(repeats, ours)
    ours_means = result.scores.groupby("model", sort=False)["score"].mean().to_numpy()
    same = np.allclose(ours_means, search.cv_results_["mean_test_score"], rtol=0, atol=1e-12)
    return our_time, peer_time, same


def bench_fit_dominated(n_repeats: int) -> tuple:
    from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate

    dataset = load_builtin("breast_cancer")
    specs = expand_models(presets()["Six common classifiers"])
    X, y = dataset.X.to_numpy(), dataset.y
    metrics = ["roc_auc", "accuracy"]

    def peer():
        cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=n_repeats, random_state=0)
        return {spec.name: cross_validate(make_pipeline(spec, dataset=dataset), X, y, cv=cv,
                                          scoring=metrics, n_jobs=-1) for spec in specs}

    def ours():
        return run_to_end(run_cv(dataset, specs, CVConfig(10, n_repeats, 0), metrics, n_jobs=-1))

    peer_time, peer_scores = best_of(1, peer)
    our_time, result = best_of(1, ours)
    largest = max(
        np.max(np.abs(result.scores.query("model == @name and metric == @metric")["score"]
                      .to_numpy() - peer_scores[name][f"test_{metric}"]))
        for name in peer_scores for metric in metrics)
    return our_time, peer_time, f"largest difference {largest:.1e}"


SCRIPTED_PEER = textwrap.dedent("""
    import numpy as np, pandas as pd
    from itertools import combinations
    from scipy.stats import t
    from sklearn.datasets import make_moons
    from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
    from sklearn.svm import SVC
    X, y = make_moons(noise=0.352, random_state=1, n_samples=100)
    grid = [{"kernel": ["linear"]}, {"kernel": ["poly"], "degree": [2, 3]}, {"kernel": ["rbf"]}]
    cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
    search = GridSearchCV(SVC(random_state=0), grid, scoring="roc_auc", cv=cv).fit(X, y)
    res = pd.DataFrame(search.cv_results_).sort_values("rank_test_score")
    scores = res.filter(regex=r"split\\d*_test_score")
    corr = scores.transpose().corr()
    rows = []
    for i, k in combinations(range(len(scores)), 2):
        d = scores.iloc[i].values - scores.iloc[k].values
        std = np.sqrt(np.var(d, ddof=1) * (1 / len(d) + 10 / 90))
        post = t(len(d) - 1, loc=d.mean(), scale=std)
        rows.append([d.mean() / std, t.sf(abs(d.mean() / std), len(d) - 1) * 6,
                     post.cdf(-0.01), 1 - post.cdf(0.01), post.interval(0.95)])
    import os, sys
    out = sys.argv[1]
    pd.DataFrame(rows).to_csv(os.path.join(out, "pairwise.csv"))
    corr.to_csv(os.path.join(out, "correlation.csv"))
""")


def bench_whole_process(repeats: int) -> tuple:
    ours, peer = [], []
    with tempfile.TemporaryDirectory() as folder:
        script = os.path.join(folder, "peer.py")
        with open(script, "w") as handle:
            handle.write(SCRIPTED_PEER)
        for _ in range(repeats):
            for times, command in ((peer, [sys.executable, script, folder]),
                                   (ours, [sys.executable, os.path.join(ROOT, "main.py"), "run",
                                           SEED, "--out", folder, "--quiet"])):
                start = time.perf_counter()
                subprocess.run(command, check=True, cwd=ROOT)
                times.append(time.perf_counter() - start)
    return statistics.median(ours), statistics.median(peer)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repeats (for CI)")
    args = parser.parse_args()
    repeats = 1 if args.quick else 3
    print(f"{'benchmark':<48}{'ours (s)':>10}{'peer (s)':>10}{'ratio':>8}  target")
    ours, peer, same = bench_seed_cv(repeats)
    print(f"{'1. seed CV step vs GridSearchCV(n_jobs=1)':<48}{ours:>10.3f}{peer:>10.3f}"
          f"{ours / peer:>8.2f}  <= 0.40  (same means: {same})")
    ours, peer, same = bench_fit_dominated(2 if args.quick else 10)
    print(f"{'2. six models, breast cancer vs cross_validate':<48}{ours:>10.3f}{peer:>10.3f}"
          f"{ours / peer:>8.2f}  <= 0.90  ({same})")
    ours, peer = bench_whole_process(1 if args.quick else 3)
    print(f"{'3. headless process vs scripted GridSearchCV':<48}{ours:>10.3f}{peer:>10.3f}"
          f"{ours / peer:>8.2f}  <= 0.75")


if __name__ == "__main__":
    main()
