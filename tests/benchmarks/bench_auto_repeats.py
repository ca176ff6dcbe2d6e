"""'"n_repeats": "auto"' (issue #41): what it saves and whether stopping is honest.

    nice python tests/benchmarks/bench_auto_repeats.py [--quick] [--part seed|datasets|null]
                                                       [--replicates N]

(a) seed: the seed example (``resources/examples/svc_kernels_moons.json``, four SVC
    kernels on moons, 10 folds) with ``"n_repeats": "auto"`` (at most 10, precision 0.02):
    the repeats it stopped at (goal: fewer than 10), every reported interval's width at the
    stop over its width at the fixed 10x10 (each model's mean, each pair's corrected-t
    difference, each pair's credible interval at each level; goal: at most 1.10), and its
    tables against a fixed run with as many repeats (every CSV equal, fit times aside).
(b) datasets: three models (GaussianNB, scaled LogisticRegression, a depth-4 tree) on real
    data sets -- scikit-learn's breast_cancer, iris, wine, digits; ISLP's Default, Smarket,
    Weekly (without ``Today``, which is the target's sign), OJ, Caravan; R's MASS Pima
    (Pima.tr + Pima.te), MASS biopsy, datasets infert (without its strata) -- the repeats
    "auto" ran, the fits it saved against 10x10 and the widest interval ratio. The fixed
    10x10 run reuses the auto run's fits from a result store (the same folds), so the
    comparison costs 10x10 once. ``--quick``: the scikit-learn sets only. Both (a) and (b)
    end with ``candidate rules``: where each candidate stopping rule would stop on the
    10x10 scores (the noise bound at levels 0.5 to 0.99, "observed change", "one step with
    noise") and its widest interval ratio there -- what the rule was chosen on.
(c) null: the error rate of the corrected paired t-test (two-sided, alpha 0.05) when the
    two models are equally good: the same learner (a depth-limited tree on half the
    features) with two seeds, on a fresh subsample of 150 rows of breast_cancer per
    replicate (a seed is exchangeable, so the two models' expected scores are equal). Each
    replicate runs "auto" and the fixed 10x10 on the same rows and folds; the report gives
    both rates with their Monte Carlo standard errors and the paired difference.
    ``--quick``: 20 replicates (CI); the figures in docs/repeats.md are from
    ``--replicates 400``.

R's data sets are written by ``Rscript`` (skipped with a line when R or MASS is missing),
ISLP's by its ``load_data`` (skipped when it is not installed).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")                # two cores shared: one thread a fit

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from engine.evaluation import auto_repeats  # noqa: E402
from engine.evaluation.auto_repeats import assess, decide, interval_series, width  # noqa: E402
from engine.evaluation.experiment import parse_experiment  # noqa: E402
from engine.evaluation.stats import corrected_interval  # noqa: E402
from engine.foundation.progress import run_to_end  # noqa: E402
from engine.input.data import dataset_from_frame, load_builtin  # noqa: E402
from engine.runs.analysis import run_experiment  # noqa: E402
from engine.runs.store import ResultStore  # noqa: E402

SEED = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")
AUTO = {"n_repeats": "auto", "max_repeats": 10, "precision": 0.02}
MODELS = [{"name": "nb", "estimator": "GaussianNB"},
          {"name": "logistic", "estimator": "LogisticRegression", "scale": True,
           "params": {"max_iter": 1000}},
          {"name": "tree", "estimator": "DecisionTreeClassifier",
           "params": {"max_depth": 4, "random_state": 0}}]
R_SCRIPT = """
suppressMessages(library(MASS))
write.csv(rbind(Pima.tr, Pima.te), file.path(out, "pima.csv"), row.names = FALSE)
write.csv(biopsy[, -1], file.path(out, "biopsy.csv"), row.names = FALSE)
write.csv(infert[, c("education", "age", "parity", "induced", "case", "spontaneous")],
          file.path(out, "infert.csv"), row.names = FALSE)
"""
#: name: (loader, target)
ISLP_SETS = {"Default": "default", "Smarket": "Direction", "Weekly": "Direction",
             "OJ": "Purchase", "Caravan": "Purchase"}
R_SETS = {"pima": "type", "biopsy": "class", "infert": "case"}


def run(experiment, dataset=None, store=None):
    return run_to_end(run_experiment(experiment, dataset=dataset, store=store))


def widths(result) -> dict:
    """Every reported interval's width on the primary metric, by a key naming it."""
    found = {}
    metric = result.cv.primary_metric
    summary = result.summary[result.summary["metric"] == metric]
    for row in summary.itertuples():
        found[("mean", row.model)] = row.ci_high - row.ci_low
    matrix = result.cv.score_matrix(metric)
    n_train, n_test = result.cv.train_test_sizes()
    alpha = result.experiment.comparison.alpha
    for row in result.comparison.pairwise.itertuples():
        low, high = corrected_interval(matrix.loc[row.model_1] - matrix.loc[row.model_2],
                                       n_train, n_test, alpha=alpha)
        found[("difference", f"{row.model_1} - {row.model_2}")] = high - low
    for row in result.comparison.intervals.itertuples():
        found[("credible", f"{row.model_1} - {row.model_2} at {row.level:g}")] = (
            row.upper - row.lower)
    return found


def width_ratios(auto, fixed) -> pd.Series:
    """Each interval's width at the stop over its width at 10x10, by its key."""
    a, f = widths(auto), widths(fixed)
    keys = [key for key in a if f.get(key, 0) > 0]
    return pd.Series([a[key] / f[key] for key in keys],
                     index=pd.MultiIndex.from_tuples(keys, names=["kind", "interval"]))


#: The noise bound's one-sided levels compared (0.5: no margin, the formula's rule alone).
LEVELS = (0.5, 0.8, 0.9, 0.95, 0.99)


def _formula_widths(scores, c, alpha, levels) -> np.ndarray:
    """Every interval's width (the corrected t formula) from a (models x folds) matrix."""
    return np.array([width(np.var(x, ddof=1), len(x), 0, c, level)
                     for x, level in interval_series(scores, alpha, credible_levels=levels)])


def _observed_stop(scores, c, alpha, levels, r) -> bool:
    """Candidate "observed change": the formula's rule, and every width changed by less
    than the precision over the last repeat (s² re-estimated)."""
    now = _formula_widths(scores[:, :10 * r], c, alpha, levels)
    before = _formula_widths(scores[:, :10 * (r - 1)], c, alpha, levels)
    return bool(np.all(np.abs(now / before - 1) < AUTO["precision"]))


def _one_step_stop(scores, c, alpha, levels, r) -> bool:
    """Candidate "one step with noise": the width one more repeat gives, at one standard
    error of the next s² (from the spread of the per-repeat variances), narrower by less
    than the precision."""
    for x, level in interval_series(scores[:, :10 * r], alpha, credible_levels=levels):
        per = np.array([np.var(x[10 * i:10 * i + 10], ddof=1) for i in range(r)])
        h = per.std(ddof=1) / per.mean() / (r + 1) * np.sqrt(1 + 1 / r)
        s2 = np.var(x, ddof=1)
        step = width(s2, len(x), 10, c, level) / width(s2, len(x), 0, c, level)
        if step * np.sqrt(max(1 - h, 0.0)) <= 1 - AUTO["precision"]:
            return False
    return True


def _stops(rule, scores, c, alpha, levels, r) -> bool:
    """Whether a candidate stops after ``r`` repeats: a bound level (the rule of
    :mod:`engine.evaluation.auto_repeats` at that level) or a function added to the
    formula's rule."""
    if r == 10:
        return True
    kept = auto_repeats.BOUND_LEVEL
    auto_repeats.BOUND_LEVEL = 0.5 if callable(rule) else rule
    try:
        ratio, bound = assess(scores[:, :10 * r], 10, c, alpha, credible_levels=levels,
                              max_repeats=10)
    finally:
        auto_repeats.BOUND_LEVEL = kept
    if callable(rule):
        return (r > 1 and decide(r, 10, AUTO["precision"], ratio, 1.0) is not None
                and rule(scores, c, alpha, levels, r))
    return decide(r, 10, AUTO["precision"], ratio, bound) is not None


def candidate_stops(fixed) -> dict:
    """Where each candidate rule stops on a fixed 10 x 10 run's scores (the first r
    repeats are those of a fixed run with r), and the widest interval's width there over
    its width at 10 (the corrected t formula on the scores): ``{name: (r, widest)}``."""
    metric = fixed.cv.primary_metric
    scores = fixed.cv.score_matrix(metric).to_numpy(dtype=float)
    n_train, n_test = fixed.cv.train_test_sizes()
    c, alpha = n_test / n_train, fixed.experiment.comparison.alpha
    levels = tuple(sorted(set(fixed.comparison.intervals["level"])))
    full = _formula_widths(scores, c, alpha, levels)
    rules = {f"bound {level:g}": level for level in LEVELS}
    rules.update({"observed change": _observed_stop, "one step with noise": _one_step_stop})
    found = {}
    for name, rule in rules.items():
        r = next(r for r in range(1, 11) if _stops(rule, scores, c, alpha, levels, r))
        found[name] = (r, float(np.max(_formula_widths(scores[:, :10 * r], c, alpha, levels)
                                        / full)))
    return found


def print_candidates(rows: dict) -> None:
    """The candidates' stops and widest ratios, one line a rule, a column a data set."""
    names = list(rows)
    print("    candidate rules (r: repeats at the stop / widest width ratio to 10x10), on the "
          "10x10 scores:")
    print("      " + " | ".join(n[:12] for n in names))
    for rule in next(iter(rows.values())):
        cells = [f"{rows[n][rule][0]}/{rows[n][rule][1]:.3f}" for n in names]
        over = sum(rows[n][rule][1] > 1.10 for n in names if n != "seed")
        real = [rows[n][rule][0] for n in names if n != "seed"]
        summary = (f"   | real sets: fits saved {1 - np.mean(real) / 10:.0%}, widest > 1.10 "
                   f"on {over}" if real else "")
        print(f"      {rule:<20} " + " ".join(f"{cell:>10}" for cell in cells) + summary)


def same_tables(a, b) -> list:
    """The tables that differ (every column but the fit times); [] when all are equal."""
    ta, tb = a.tables(), b.tables()
    if ta.keys() != tb.keys():
        return ["(other tables)"]
    differ = []
    for name in ta:
        keep = [c for c in ta[name].columns if "seconds" not in str(c)]
        if not ta[name][keep].equals(tb[name][keep]):
            differ.append(name)
    return differ


def seed_part() -> None:
    with open(SEED, encoding="utf-8") as handle:
        data = json.load(handle)

    def experiment(cv):
        return parse_experiment({**data, "cv": {"n_splits": 10, "random_state": 0, **cv}})
    run(experiment({"n_repeats": 1}))                     # warm: imports, first fits
    times = {"auto": [], "fixed": []}
    for _ in range(3):                                      # alternating, best of three
        for key, cv in (("auto", AUTO), ("fixed", {"n_repeats": 10})):
            start = time.perf_counter()
            result = run(experiment(cv))
            times[key].append(time.perf_counter() - start)
            if key == "auto":
                auto = result
            else:
                fixed_10 = result
    auto_seconds, fixed_seconds = min(times["auto"]), min(times["fixed"])
    r = auto.cv.auto_stop.n_repeats
    fixed_r = run(experiment({"n_repeats": r}))
    ratios = width_ratios(auto, fixed_10)
    differ = same_tables(auto, fixed_r)
    print("(a) seed example, 10 folds, auto (precision 0.02, at most 10)")
    print(f"    stopped after {r} repeats ({auto.cv.auto_stop.reason}; widths ratio "
          f"{auto.cv.auto_stop.ratio:.4f}, bound {auto.cv.auto_stop.bound:.4f}): goal < 10 -> "
          f"{'ok' if r < 10 else 'MISSED'}")
    print(f"    interval widths auto / 10x10 over {len(ratios)} intervals: max "
          f"{ratios.max():.3f}, median {np.median(ratios):.3f}, min {ratios.min():.3f}: "
          f"goal <= 1.10 -> {'ok' if ratios.max() <= 1.10 else 'MISSED'}")
    for kind, part in ratios.groupby(level="kind"):
        print(f"      {kind:<10} {len(part):>2} intervals: max {part.max():.3f} "
              f"({part.idxmax()[1]}), median {part.median():.3f}, "
              f"over 1.10: {int((part > 1.10).sum())}")
    print("    the widest ratio to 10x10 had the run stopped after r repeats (fixed r, the "
          "same folds): " + ", ".join(
              f"r={n}: {width_ratios(run(experiment({'n_repeats': n})), fixed_10).max():.3f}"
              for n in range(2, 10)))
    print(f"    tables equal to a fixed run with {r} repeats: "
          f"{'all equal' if not differ else 'DIFFER: ' + ', '.join(differ)}")
    print(f"    time: auto {auto_seconds:.1f} s, fixed 10x10 {fixed_seconds:.1f} s "
          f"(ratio {auto_seconds / fixed_seconds:.2f})")
    print_candidates({"seed": candidate_stops(fixed_10)})


def real_datasets(folder: str, quick: bool) -> list:
    """``[(name, Dataset)]``: scikit-learn's, then ISLP's and R's (unless ``quick``)."""
    sets = [(name, load_builtin(name)) for name in ("breast_cancer", "iris", "wine", "digits")]
    if quick:
        return sets
    try:
        from ISLP import load_data
    except ImportError:
        print("    (ISLP not installed: its data sets left out)")
    else:
        for name, target in ISLP_SETS.items():
            frame = load_data(name).drop(columns=["Today", "Year"], errors="ignore")
            sets.append((f"ISLP {name}", dataset_from_frame(frame, target, name=name)))
    if shutil.which("Rscript") is None:
        print("    (Rscript not found: R's data sets left out)")
        return sets
    done = subprocess.run(["Rscript", "-e", f'out <- "{folder}"' + R_SCRIPT],
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        print(f"    (R's data sets left out: {done.stderr.strip()[:200]})")
        return sets
    for name, target in R_SETS.items():
        frame = pd.read_csv(os.path.join(folder, f"{name}.csv"))
        sets.append((f"R {name}", dataset_from_frame(frame, target, name=name)))
    return sets


def datasets_part(quick: bool) -> None:
    print("(b) real data sets, 3 models (GaussianNB, scaled LogisticRegression, tree depth 4), "
          "10 folds, auto (0.02, at most 10) against 10x10")
    print(f"    {'data set':<20} {'rows':>6} {'repeats':>7} {'fits':>6} {'of':>6} "
          f"{'saved':>6} {'width ratio max':>16} {'median':>7} {'bound':>6} {'auto s':>7} "
          f"{'10x10 s':>8}")
    totals = [0, 0]
    candidates = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, dataset in real_datasets(folder, quick):
            def experiment(cv):
                return parse_experiment({"dataset": {"builtin": "iris"}, "models": MODELS,
                                         "cv": {"n_splits": 10, "random_state": 0, **cv}})
            store_path = os.path.join(folder, f"{len(totals)}-{name.replace(' ', '_')}.sqlite")
            totals.append(0)
            with ResultStore(store_path) as store:
                start = time.perf_counter()
                auto = run(experiment(AUTO), dataset, store)
                auto_s = time.perf_counter() - start
                start = time.perf_counter()
                fixed = run(experiment({"n_repeats": 10}), dataset, store)
                fixed_s = auto_s + time.perf_counter() - start      # 10x10 from scratch
            r = auto.cv.auto_stop.n_repeats
            fits, all_fits = len(MODELS) * 10 * r, len(MODELS) * 100
            totals[0] += fits
            totals[1] += all_fits
            ratios = width_ratios(auto, fixed)
            print(f"    {name:<20} {dataset.X.shape[0]:>6} {r:>7} {fits:>6} {all_fits:>6} "
                  f"{1 - fits / all_fits:>6.0%} {ratios.max():>16.3f} {ratios.median():>7.3f} "
                  f"{auto.cv.auto_stop.bound:>6.3f} {auto_s:>7.1f} {fixed_s:>8.1f}", flush=True)
            candidates[name] = candidate_stops(fixed)
    print(f"    in all: {totals[0]:,} of {totals[1]:,} fits ({1 - totals[0] / totals[1]:.0%} "
          "saved)")
    print_candidates(candidates)


def null_part(replicates: int) -> None:
    population = load_builtin("breast_cancer")
    frame = pd.DataFrame(np.asarray(population.X, dtype=float),
                         columns=[f"x{i}" for i in range(population.X.shape[1])])
    frame["y"] = np.asarray(population.classes, dtype=object)[population.y]
    tree = {"estimator": "DecisionTreeClassifier", "params": {"max_depth": 3,
                                                              "max_features": 0.5}}
    models = [{**tree, "name": "seed_1", "params": {**tree["params"], "random_state": 1}},
              {**tree, "name": "seed_2", "params": {**tree["params"], "random_state": 2}}]
    rng = np.random.default_rng(20261127)
    rejected = {"auto": [], "fixed": []}
    repeats = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for replicate in range(replicates):
            rows = rng.choice(len(frame), 150, replace=False)
            sample = dataset_from_frame(frame.iloc[np.sort(rows)].reset_index(drop=True), "y",
                                        name="sample")
            seed = int(rng.integers(2**31 - 1))

            def experiment(cv):
                return parse_experiment({"dataset": {"builtin": "iris"}, "models": models,
                                         "metrics": ["accuracy"],
                                         "cv": {"n_splits": 10, "random_state": seed, **cv}})
            with ResultStore(os.path.join(folder, f"{replicate}.sqlite")) as store:
                auto = run(experiment(AUTO), sample, store)
                fixed = run(experiment({"n_repeats": 10}), sample, store)
            repeats.append(auto.cv.auto_stop.n_repeats)
            for key, result in (("auto", auto), ("fixed", fixed)):
                p = float(result.comparison.pairwise["p_value_two_sided"].iloc[0])
                rejected[key].append(p < 0.05)
            if (replicate + 1) % 50 == 0:                  # so far, should the run be cut
                print(f"    after {replicate + 1}: auto {np.mean(rejected['auto']):.3f}, fixed "
                      f"{np.mean(rejected['fixed']):.3f}, repeats {np.mean(repeats):.2f} "
                      f"({time.perf_counter() - start:.0f} s)", flush=True)
    seconds = time.perf_counter() - start
    auto_r, fixed_r = (np.array(rejected[k], dtype=float) for k in ("auto", "fixed"))
    difference = auto_r - fixed_r
    print(f"(c) null: two seeds of one tree learner, 150-row subsamples of breast_cancer, "
          f"10 folds, {replicates} replicates ({seconds:.0f} s)")
    counts = ", ".join(f"{n}: {repeats.count(n)}" for n in sorted(set(repeats)))
    print(f"    auto stopped after {min(repeats)}..{max(repeats)} repeats (mean "
          f"{np.mean(repeats):.2f}; replicates by repeats {counts})")
    for key, values in (("auto", auto_r), ("fixed 10x10", fixed_r)):
        se = np.sqrt(values.mean() * (1 - values.mean()) / len(values))
        print(f"    {key:<12} rejection rate at alpha 0.05 (two-sided): {values.mean():.3f} "
              f"± {se:.3f} (Monte Carlo s.e.)")
    se = difference.std(ddof=1) / np.sqrt(len(difference)) if len(difference) > 1 else np.nan
    print(f"    auto - fixed: {difference.mean():+.3f} ± {se:.3f} (paired s.e.); "
          f"the tests disagreed on {int(np.abs(difference).sum())} replicates")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run (CI)")
    parser.add_argument("--part", choices=("seed", "datasets", "null"), action="append")
    parser.add_argument("--replicates", type=int, default=None)
    args = parser.parse_args()
    parts = args.part or ["seed", "datasets", "null"]
    if "seed" in parts:
        seed_part()
    if "datasets" in parts:
        datasets_part(args.quick)
    if "null" in parts:
        null_part(args.replicates or (20 if args.quick else 200))


if __name__ == "__main__":
    main()
