"""'"n_repeats": "auto"' (issue #41): the cost of running the repeats in rounds.

    nice python tests/benchmarks/bench_auto_rounds.py [--runs N] [--jobs J ...]

The seed example (``resources/examples/svc_kernels_moons.json``) with ``"n_repeats":
"auto"`` against the fixed run with as many repeats as auto stopped at (the peer: the same
fits, without the rounds), alternating, ``--runs`` times each (default 4) for every
``--jobs`` (default 1 and 2). Each run is a fresh process that times the run alone
(``run_experiment``, no start-up, no report): its wall seconds and this process's CPU
seconds. Prints the medians and the load average over the runs.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = os.path.join(ROOT, "resources", "examples", "svc_kernels_moons.json")
ONE_RUN = """
import json, sys, time
from engine.evaluation.experiment import parse_experiment
from engine.foundation.progress import run_to_end
from engine.runs.analysis import run_experiment
exp = parse_experiment(json.load(open(sys.argv[1])))
wall, cpu = time.perf_counter(), time.process_time()
result = run_to_end(run_experiment(exp, n_jobs=int(sys.argv[2])))
print(time.perf_counter() - wall, time.process_time() - cpu, result.cv.config.n_repeats)
"""


def one_run(path: str, jobs: int) -> tuple:
    """``(wall s, CPU s, repeats)`` of one run of the experiment at ``path``."""
    env = {**os.environ, "PYTHONPATH": ROOT, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run([sys.executable, "-c", ONE_RUN, path, str(jobs)], env=env,
                         check=True, capture_output=True, text=True, cwd=ROOT).stdout
    wall, cpu, repeats = out.split()
    return float(wall), float(cpu), int(repeats)


def experiments(folder: str) -> tuple:
    """The seed example as auto, and as the fixed run with auto's repeats."""
    with open(SEED) as f:
        seed = json.load(f)
    auto = os.path.join(folder, "auto.json")
    with open(auto, "w") as f:
        json.dump({**seed, "cv": {**seed["cv"], "n_repeats": "auto"}}, f)
    _, _, repeats = one_run(auto, 1)
    fixed = os.path.join(folder, "fixed.json")
    with open(fixed, "w") as f:
        json.dump({**seed, "cv": {**seed["cv"], "n_repeats": repeats}}, f)
    return auto, fixed, repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        auto, fixed, repeats = experiments(folder)
        print(f"auto stops after {repeats} repeats; the peer: a fixed {repeats}")
        for jobs in args.jobs:
            times, loads = {"auto": [], "fixed": []}, []
            for _ in range(args.runs):
                for name, path in (("auto", auto), ("fixed", fixed)):
                    loads.append(os.getloadavg()[0])
                    times[name].append(one_run(path, jobs)[:2])
            for name, runs in times.items():
                print(f"jobs {jobs} {name:5s}: wall {statistics.median(w for w, _ in runs):.2f} s, "
                      f"CPU here {statistics.median(c for _, c in runs):.2f} s "
                      f"(medians of {args.runs})")
            print(f"jobs {jobs} load {min(loads):.1f} to {max(loads):.1f}")


if __name__ == "__main__":
    main()
