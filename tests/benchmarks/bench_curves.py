"""Benchmark: decision and learning curves against their peers, side by side.

* Decision curves: :func:`engine.evaluation.curves.decision.decision_curves` on the pooled out-of-fold
  probabilities of two models x ``repeats`` repeats of breast_cancer (99 thresholds) against
  ``dcurves.dca`` on the same predictions, one repeat at a time.
* Learning curves: :func:`engine.evaluation.curves.learning.run_learning` (one process) against
  ``sklearn.model_selection.learning_curve`` (``n_jobs=1``) on the same splits and
  fractions, logistic regression on breast_cancer.

Runs alternate (ours, peer, ours, peer, ...), ``--repeats`` times (3 or more); prints the
median time of each and the median of the per-repetition ratios (ours / peer).

    python tests/benchmarks/bench_curves.py [--quick]

``--quick`` (or ``BENCH_QUICK=1``): 3 repetitions, 5 x 1 folds.
"""
import argparse
import os
import sys
import time

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from engine.evaluation.catalogue import expand_models, make_pipeline  # noqa: E402
from engine.evaluation.curves.decision import THRESHOLDS, decision_curves  # noqa: E402
from engine.evaluation.curves.learning import run_learning  # noqa: E402
from engine.evaluation.cv import CVConfig, make_splits, run_cv  # noqa: E402
from engine.input.data import load_builtin  # noqa: E402
from engine.foundation.progress import run_to_end  # noqa: E402

FRACTIONS = (0.1, 0.325, 0.55, 0.775, 1.0)


def timed(func) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def alternate(ours, peer, repetitions: int) -> tuple:
    """Median seconds of each and the median ratio, running them in turn."""
    mine, theirs = [], []
    for _ in range(repetitions):
        mine.append(timed(ours))
        theirs.append(timed(peer))
    ratios = np.asarray(mine) / np.asarray(theirs)
    return float(np.median(mine)), float(np.median(theirs)), float(np.median(ratios))


def decision_case(cv):
    preds = cv.predictions
    frame = pd.DataFrame({"model": preds["model"], "repeat": preds["repeat"],
                          "row": preds["row"], "y": preds["y"], "p": preds["score_1"]})

    def ours():
        decision_curves(frame, 1)

    def peer():
        import dcurves

        for _, block in frame.groupby("repeat"):
            wide = block.pivot(index="row", columns="model", values="p")
            wide["y"] = block.drop_duplicates("row").set_index("row")["y"]
            dcurves.dca(data=wide.reset_index(drop=True), outcome="y",
                        modelnames=list(cv.models), thresholds=list(THRESHOLDS))

    return ours, peer


def learning_case(dataset, models, cv, config):
    from sklearn.model_selection import learning_curve

    X = dataset.X.to_numpy(dtype=float)
    splits = make_splits(dataset.y, config)

    def ours():
        run_to_end(run_learning(dataset, cv, models, FRACTIONS))

    def peer():
        learning_curve(make_pipeline(models[0], dataset=dataset), X, dataset.y, cv=splits,
                       train_sizes=list(FRACTIONS), scoring="roc_auc", n_jobs=1)

    return ours, peer


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    quick = args.quick or os.environ.get("BENCH_QUICK") == "1"
    repetitions = 3 if quick else max(3, args.repeats)
    config = CVConfig(n_splits=5, n_repeats=1 if quick else 5, random_state=0)
    dataset = load_builtin("breast_cancer")
    both = expand_models([{"name": "logistic", "estimator": "LogisticRegression",
                           "scale": True}, {"name": "nb", "estimator": "GaussianNB"}])
    cv = run_to_end(run_cv(dataset, both, config, ["roc_auc"]))
    print(f"breast_cancer, {config.n_splits} x {config.n_repeats} folds, "
          f"{repetitions} alternating repetitions (median seconds; ratio = ours / peer)")
    for name, (ours, peer) in (("decision curves vs dcurves.dca", decision_case(cv)),
                               ("learning curve vs sklearn learning_curve",
                                learning_case(dataset, both[:1], run_to_end(
                                    run_cv(dataset, both[:1], config, ["roc_auc"])), config))):
        mine, theirs, ratio = alternate(ours, peer, repetitions)
        print(f"{name:44s} ours {mine:8.3f} s  peer {theirs:8.3f} s  ratio {ratio:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
