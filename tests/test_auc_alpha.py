"""A new alpha on the Results tab moves the AUC tables with it: ``AucTables.at_alpha``
equals the tables computed afresh at that alpha (intervals at ``1 - alpha``, the share of
repeats with p below it, the note naming it), and ``ExperimentResult.with_comparison``
carries them."""
import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

from engine.evaluation.curves.auc_tables import auc_tables
from engine.evaluation.experiment import parse_experiment
from engine.evaluation.stats import ComparisonSettings
from engine.foundation.progress import run_to_end
from engine.runs.analysis import run_experiment


def predictions(n_classes: int, n_rows: int = 120, n_repeats: int = 3, seed: int = 0):
    """Out-of-fold predictions of three models of differing skill, 5 folds per repeat."""
    rng = np.random.default_rng(seed)
    classes = [f"c{k}" for k in range(n_classes)]
    truth = rng.integers(0, n_classes, n_rows)
    frames = []
    for model, skill in (("good", 2.0), ("fair", 1.0), ("weak", 0.3)):
        for repeat in range(n_repeats):
            logits = rng.normal(size=(n_rows, n_classes))
            logits[np.arange(n_rows), truth] += skill
            proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
            frame = pd.DataFrame({"model": model, "repeat": repeat,
                                  "fold": rng.permutation(np.arange(n_rows) % 5),
                                  "row": np.arange(n_rows),
                                  "true_class": np.asarray(classes)[truth]})
            for k, label in enumerate(classes):
                frame[f"p_{label}"] = proba[:, k]
            frame["predicted"] = np.asarray(classes)[proba.argmax(axis=1)]
            frames.append(frame)
    return pd.concat(frames, ignore_index=True), classes


@pytest.fixture(scope="module")
def seed_result_with_curves():
    experiment = parse_experiment({
        "dataset": {"builtin": "breast_cancer"},
        "models": [{"name": "nb", "estimator": "GaussianNB"},
                   {"name": "logistic", "estimator": "LogisticRegression", "scale": True}],
        "cv": {"n_splits": 5, "n_repeats": 2, "random_state": 0}, "metrics": ["roc_auc"],
        "curves": {"pr": False, "decision": False}})
    return run_to_end(run_experiment(experiment))


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("alpha", [0.1, 0.01])
def test_at_alpha_equals_the_tables_computed_at_that_alpha(n_classes, alpha):
    frame, classes = predictions(n_classes)
    groups = np.arange(120) // 2                       # pairs of rows: LeDell's grouped
    moved = auc_tables(frame, classes, groups=groups).at_alpha(alpha)
    fresh = auc_tables(frame, classes, groups=groups, level=1 - alpha, alpha=alpha)
    assert_frame_equal(moved.intervals, fresh.intervals, check_exact=False, rtol=1e-12,
                       atol=1e-15)
    assert_frame_equal(moved.tests, fresh.tests, check_exact=False, rtol=1e-12, atol=1e-15)
    assert [str(n) for n in moved.notes] == [str(n) for n in fresh.notes]
    assert (moved.intervals["level"] == 1 - alpha).all()
    assert f"share below {alpha:g}" in " ".join(str(n) for n in moved.notes)


def test_a_wider_level_widens_every_interval():
    frame, classes = predictions(2)
    tables = auc_tables(frame, classes)
    wider = tables.at_alpha(0.01).intervals
    assert (wider["ci_low"] <= tables.intervals["ci_low"] + 1e-15).all()
    assert (wider["ci_high"] >= tables.intervals["ci_high"] - 1e-15).all()
    assert (wider["ci_high"] - wider["ci_low"]).sum() > \
        (tables.intervals["ci_high"] - tables.intervals["ci_low"]).sum()


def test_with_comparison_moves_the_auc_tables(seed_result_with_curves):
    result = seed_result_with_curves
    again = result.with_comparison(ComparisonSettings(alpha=0.1))
    assert (again.auc.intervals["level"] == 0.9).all()
    assert (again.auc.tests["alpha"] == 0.1).all()
    assert_frame_equal(again.auc.intervals,
                       result.auc.at_alpha(0.1).intervals)
    back = again.with_comparison(ComparisonSettings(alpha=0.05))
    assert_frame_equal(back.auc.intervals, result.auc.intervals, check_exact=False,
                       rtol=1e-12, atol=1e-15)
    assert_frame_equal(back.auc.tests, result.auc.tests, check_exact=False, rtol=1e-12,
                       atol=1e-15)
