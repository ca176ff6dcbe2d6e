"""Whole headless processes side by side with the scikit-learn scripts doing the same work.

    python tests/benchmarks/bench_lean.py [--quick] [--repeats N] [--only NAME ...]
                                          [--rows N] [--six-repeats N]

Each figure runs ours (``python main.py run EXPERIMENT --out NEW_FOLDER --quiet``) and its
peer (a fresh ``python -c SCRIPT``) as separate processes, alternating (peer first, then
ours, in every repetition), ``--repeats`` times (at least 3). Printed per figure: the
median and spread (lowest-highest) of each side's wall time, the median of the per-
repetition ratios ours / peer with their spread, and the machine's load average
(``os.getloadavg()``) before and after: on a shared machine quote the figure with it.

big      a CSV of 1,000,000 rows x 20 columns (``--rows``; --quick: 100,000), one cheap
         model (GaussianNB), 2x1 folds, ``--jobs 1`` / ``pandas.read_csv`` +
         ``cross_validate`` -- goals: time <= 1.2, peak resident memory (``ru_maxrss`` of
         each process, from ``os.wait4``) <= 1.0;
six      the six common classifiers on breast cancer, 10x10 folds (``--six-repeats``;
         --quick: 10x1), ``--jobs 1`` / ``cross_validate(n_jobs=1)`` of the very same
         pipelines (pickled by this script, so the peer imports scikit-learn only) --
         goal <= 0.9;
seed     the seed example (SVC kernels on moons, 10x10) / the same analysis scripted with
         ``GridSearchCV(n_jobs=1)`` (the script of ``bench_cv.py``) -- goal <= 0.60;
         both also run a floor (``SIX_FLOOR``, ``SEED_FLOOR``): a process that only
         imports scikit-learn, fits every model on every training fold and predicts its
         test fold, and print floor / peer, the lowest ratio reachable with those fits;
rerun    a 150-fit run (three models on breast cancer, 10x5) run again on its own result
         store, every fit reused / its first run -- goal <= 0.10 (both sides are ours);
         twice: three cheap models (whose first run is mostly start-up) and three typical
         ones; also the rerun / a bare process importing pandas, SciPy's statistics and
         scikit-learn (the floor of any run).

The loading figure (``load_dataset`` / ``read_csv`` of a 1e5 x 20 CSV) is
``bench_load.py``. CI runs neither (a timing is never a test); ``--quick`` takes a few
minutes on two idle cores.
"""
from __future__ import annotations

import argparse
import compileall
import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
MAIN = os.path.join(ROOT, "main.py")
SEED = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")
GOALS = {"big": 1.2, "big memory": 1.0, "six": 0.9, "seed": 0.60, "rerun": 0.10}

BIG_PEER = textwrap.dedent("""
    import sys
    import pandas as pd
    from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate
    from sklearn.naive_bayes import GaussianNB
    frame = pd.read_csv(sys.argv[1])
    X, y = frame.drop(columns="target"), frame["target"]
    cv = RepeatedStratifiedKFold(n_splits=2, n_repeats=1, random_state=0)
    found = cross_validate(GaussianNB(), X, y, cv=cv, scoring=["roc_auc", "accuracy"])
    print(found["test_roc_auc"].mean())
""")

SIX_PEER = textwrap.dedent("""
    import pickle, sys
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate
    X, y = load_breast_cancer(return_X_y=True)
    with open(sys.argv[1], "rb") as stream:
        pipelines = pickle.load(stream)
    assert "engine" not in sys.modules, "the peer must not import the engine"
    cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=int(sys.argv[2]), random_state=0)
    for name, pipeline in pipelines.items():
        found = cross_validate(pipeline, X, y, cv=cv, scoring=["roc_auc", "accuracy"], n_jobs=1)
        print(name, found["test_roc_auc"].mean())
""")


#: The floors: processes doing only what any tool must do for the same figure -- import
#: scikit-learn, fit every model on every training fold and compute its predictions on the
#: test fold -- with no scoring, statistics or tables, and with scikit-learn's parameter
#: and finiteness checks off (as our fits of checked rows have them). No program that fits
#: with scikit-learn can take less; floor / peer is the lowest ratio it could reach.
SIX_FLOOR = textwrap.dedent("""
    import copy, pickle, sys
    import sklearn
    sklearn.set_config(skip_parameter_validation=True, assume_finite=True)
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import RepeatedStratifiedKFold
    X, y = load_breast_cancer(return_X_y=True)
    with open(sys.argv[1], "rb") as stream:
        pipelines = pickle.load(stream)
    cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=int(sys.argv[2]), random_state=0)
    splits = list(cv.split(X, y))
    for name, pipeline in pipelines.items():
        for train, test in splits:
            model = copy.deepcopy(pipeline).fit(X[train], y[train])
            (model.predict_proba if hasattr(model, "predict_proba")
             else model.decision_function)(X[test])
""")

SEED_FLOOR = textwrap.dedent("""
    import copy
    import sklearn
    sklearn.set_config(skip_parameter_validation=True, assume_finite=True)
    from sklearn.datasets import make_moons
    from sklearn.model_selection import RepeatedStratifiedKFold
    from sklearn.svm import SVC
    X, y = make_moons(noise=0.352, random_state=1, n_samples=100)
    models = [SVC(kernel="linear", random_state=0), SVC(kernel="poly", degree=2, random_state=0),
              SVC(kernel="poly", degree=3, random_state=0), SVC(kernel="rbf", random_state=0)]
    splits = list(RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0).split(X, y))
    for svc in models:
        for train, test in splits:
            copy.deepcopy(svc).fit(X[train], y[train]).decision_function(X[test])
""")


def load_average() -> str:
    return "/".join(f"{value:.1f}" for value in os.getloadavg())


def measure(command: list) -> tuple:
    """(wall seconds, peak resident MB) of a fresh process running ``command``."""
    with tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status):
            err.seek(0)
            raise RuntimeError(f"{command[:4]} failed: {err.read()[-2000:]}")
    return seconds, usage.ru_maxrss / 1024


def ours(experiment: str, folder: str, *options) -> list:
    out = tempfile.mkdtemp(dir=folder)
    os.rmdir(out)
    return [sys.executable, MAIN, "run", experiment, "--out", out, "--quiet", *options]


def write_json(folder: str, name: str, value) -> str:
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as stream:
        json.dump(value, stream)
    return path


def alternate(repeats: int, peer, mine, floor=None) -> dict:
    """Wall times and peaks of ``peer()``, ``mine()`` and ``floor()`` (commands, the
    floor optional), alternating."""
    sides = (("peer", peer), ("ours", mine)) + ((("floor", floor),) if floor else ())
    times = {side: [] for side, _ in sides}
    for _ in range(repeats):
        for side, command in sides:
            times[side].append(measure(command()))
    return times


def report(name: str, times: dict, which: int = 0, unit: str = "s", goal_key=None) -> None:
    for side in ("peer", "ours"):
        values = [t[which] for t in times[side]]
        print(f"  {name:<12}{side:<5} median {statistics.median(values):8.2f} {unit} "
              f"(spread {min(values):.2f}-{max(values):.2f})")
    ratios = [o[which] / p[which] for o, p in zip(times["ours"], times["peer"])]
    print(f"  {name:<12}ratio ours / peer: median {statistics.median(ratios):.3f} (spread "
          f"{min(ratios):.3f}-{max(ratios):.3f}; goal <= {GOALS[goal_key or name]}); "
          f"load {load_average()}")
    if "floor" in times:
        floors = [f[which] / p[which] for f, p in zip(times["floor"], times["peer"])]
        above = [o[which] / f[which] for o, f in zip(times["ours"], times["floor"])]
        least = statistics.median(t[which] for t in times["floor"])
        print(f"  {name:<12}floor median {least:8.2f} {unit}; floor / peer {statistics.median(floors):.3f} (spread "
              f"{min(floors):.3f}-{max(floors):.3f}), ours / floor "
              f"{statistics.median(above):.3f} (the fits and predictions alone)")


def bench_big(folder: str, repeats: int, n_rows: int) -> None:
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    X = rng.normal(size=(n_rows, 19))
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(19)])
    frame["target"] = (X[:, 0] + rng.normal(size=n_rows) > 0).astype(int)
    data = os.path.join(folder, "big.csv")
    frame.to_csv(data, index=False)
    del frame, X
    experiment = write_json(folder, "big.json", {
        "dataset": {"csv": data, "target": "target"},
        "models": [{"name": "naive_bayes", "estimator": "GaussianNB", "params": {}}],
        "cv": {"n_splits": 2, "n_repeats": 1, "random_state": 0},
        "metrics": ["roc_auc", "accuracy"]})
    print(f"big: {n_rows:,} rows x 20 columns ({os.path.getsize(data) / 2**20:.0f} MB), "
          f"GaussianNB 2x1, load {load_average()}")
    times = alternate(repeats, lambda: [sys.executable, "-c", BIG_PEER, data],
                      lambda: ours(experiment, folder, "--jobs", "1"))
    report("big", times)
    report("big memory", times, which=1, unit="MB")


def bench_six(folder: str, repeats: int, n_repeats: int) -> None:
    from engine.evaluation.catalogue import expand_models, make_pipeline, presets
    from engine.input.data import load_builtin

    models = presets()["Six common classifiers"]
    dataset = load_builtin("breast_cancer")
    pipelines = {spec.name: make_pipeline(spec, dataset=dataset) for spec in expand_models(models)}
    pickled = os.path.join(folder, "six.pickle")
    with open(pickled, "wb") as stream:
        pickle.dump(pipelines, stream)
    experiment = write_json(folder, "six.json", {
        "dataset": {"builtin": "breast_cancer"}, "models": models,
        "cv": {"n_splits": 10, "n_repeats": n_repeats, "random_state": 0},
        "metrics": ["roc_auc", "accuracy"]})
    print(f"six: six common classifiers, breast cancer, 10x{n_repeats}, load {load_average()}")
    times = alternate(repeats, lambda: [sys.executable, "-c", SIX_PEER, pickled, str(n_repeats)],
                      lambda: ours(experiment, folder, "--jobs", "1"),
                      lambda: [sys.executable, "-c", SIX_FLOOR, pickled, str(n_repeats)])
    report("six", times)


def bench_seed(folder: str, repeats: int) -> None:
    from bench_cv import SCRIPTED_PEER

    print(f"seed: {os.path.basename(SEED)} / scripted GridSearchCV, load {load_average()}")
    times = alternate(repeats, lambda: [sys.executable, "-c", SCRIPTED_PEER, folder],
                      lambda: ours(SEED, folder), lambda: [sys.executable, "-c", SEED_FLOOR])
    report("seed", times)


BARE_IMPORTS = "import pandas, scipy.stats, sklearn.base"

#: The two 150-fit runs of the rerun figure: three cheap models (their 150 fits take well
#: under a second, so the first run is mostly start-up) and three models whose fits are the
#: run's main cost, as in a typical comparison.
RERUN_MODELS = {"cheap": ("logistic", "knn", "naive_bayes"),
                "typical": ("logistic", "svc_rbf", "random_forest")}


def bench_rerun(folder: str, repeats: int) -> None:
    from engine.evaluation.catalogue import presets

    for label, names in RERUN_MODELS.items():
        models = [m for m in presets()["Six common classifiers"] if m["name"] in names]
        experiment = write_json(folder, f"rerun-{label}.json", {
            "dataset": {"builtin": "breast_cancer"}, "models": models,
            "cv": {"n_splits": 10, "n_repeats": 5, "random_state": 0},
            "metrics": ["roc_auc", "accuracy"]})
        print(f"rerun ({label}): {', '.join(names)} on breast cancer, 10x5 = 150 fits, "
              f"load {load_average()}")
        times = {"peer": [], "ours": []}         # peer: the first run; ours: the rerun
        bare = []
        for _ in range(repeats):
            store = os.path.join(tempfile.mkdtemp(dir=folder), "store.sqlite")
            times["peer"].append(measure(ours(experiment, folder, "--store", store)))
            times["ours"].append(measure(ours(experiment, folder, "--store", store)))
            bare.append(measure([sys.executable, "-c", BARE_IMPORTS])[0])
        report("rerun", times)
        floor = statistics.median(bare)
        print(f"  rerun       the rerun / a bare `{BARE_IMPORTS}` process "
              f"({floor:.2f} s): {statistics.median(t[0] for t in times['ours']) / floor:.2f}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="100,000 rows, six models 10x1 (a few minutes)")
    parser.add_argument("--repeats", type=int, default=3, help="repetitions (at least 3)")
    parser.add_argument("--only", nargs="+", choices=("big", "six", "seed", "rerun"),
                        default=("big", "six", "seed", "rerun"))
    parser.add_argument("--rows", type=int, help="rows of the big CSV (default 1,000,000)")
    parser.add_argument("--six-repeats", type=int, help="repeats of the six models' 10-fold CV")
    args = parser.parse_args(argv)
    repeats = max(3, args.repeats)
    # The project's bytecode, as an installed app has it (pip compiles a wheel's modules) and
    # as the peer's libraries have theirs: with PYTHONDONTWRITEBYTECODE set, every process
    # would otherwise compile the engine from source (about 0.15 s a process here).
    for part in ("engine", "gui"):
        compileall.compile_dir(os.path.join(ROOT, part), quiet=1)
    print(f"{os.cpu_count()} cores, load {load_average()}, {repeats} repetitions alternating")
    with tempfile.TemporaryDirectory(prefix="bench-lean-") as folder:
        if "big" in args.only:
            bench_big(folder, repeats, args.rows or (100_000 if args.quick else 1_000_000))
        if "six" in args.only:
            bench_six(folder, repeats, args.six_repeats or (1 if args.quick else 10))
        if "seed" in args.only:
            bench_seed(folder, repeats)
        if "rerun" in args.only:
            bench_rerun(folder, repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
