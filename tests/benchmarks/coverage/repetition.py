"""One repetition of a cell: the app's intervals on a sample, and what each should cover.

The sample is cross-validated by the engine's :func:`engine.evaluation.cv.run_cv` and
every interval comes from the function the app prints it with: ``summary.csv``'s
(:func:`engine.evaluation.stats.summary_table`), the corrected paired t
(:func:`engine.evaluation.stats.corrected_interval` on the fold differences, as
``pairwise.csv``'s test), the credible interval (:func:`engine.evaluation.stats.compare_models`),
``auc_intervals.csv`` (:func:`engine.evaluation.curves.auc_tables.auc_tables`: DeLong,
LeDell and, once merged, the corrected t), the decision curves' band
(:func:`engine.evaluation.curves.decision.decision_analysis`), the reliability diagram's
interval (:func:`engine.evaluation.calibration.maps.with_interval`) and the held-out
test's (:func:`engine.runs.heldout.scoring.run_heldout` on a held-out draw).

Each row names its interval id, method and estimand, and carries the repetition's own
truths (``fold_models_mean``, ``model_on_all_rows``, ``fixed_model_on_new_data``), each
computed on the rest of the population; ``expected_score_at_training_size`` is a cell's
(:mod:`tests.benchmarks.coverage.truth`) and is joined when the rows are counted.
"""
from __future__ import annotations

import hashlib
import pickle
from contextlib import contextmanager

import numpy as np
import pandas as pd

from engine.evaluation.calibration.maps import reliability_diagram, with_interval
from engine.evaluation.curves.auc_tables import auc_tables
from engine.evaluation.curves.decision import decision_analysis, net_benefit
from engine.evaluation.curves.predictions import predictions_table
from engine.evaluation import cv as cv_module
from engine.evaluation.catalogue import make_pipeline
from engine.evaluation.cv import (CVConfig, feature_matrix, make_splits, run_cv,
                                  value_columns)
from engine.evaluation.parallel import take_rows
from engine.evaluation.stats import compare_models, corrected_interval, summary_table
from engine.runs.heldout import TestSet
from engine.runs.heldout.scoring import run_heldout

from .sample import draw_rows, fit_on, scorer_on

__all__ = ["AUC_METHODS", "drain", "fit_key", "kept_fold_models", "metric_for",
           "one_repetition", "repetition_sample", "row"]

#: ``auc_intervals.csv`` method -> (interval id, estimand).
AUC_METHODS = {"delong": ("auc_delong_pooled", "fold_models_mean"),
               "ledell": ("auc_ledell", "fold_models_mean"),
               "corrected_t": ("auc_corrected_t", "expected_score_at_training_size")}
LEVEL = 0.95
N_BINS = 10


def drain(generator):
    """Run an engine generator to its end; its return value."""
    while True:
        try:
            next(generator)
        except StopIteration as stop:
            return stop.value


def metric_for(n_classes: int) -> str:
    """The primary metric: ROC AUC with two classes, accuracy with more."""
    return "roc_auc" if n_classes == 2 else "accuracy"


def row(interval, model, method, estimand, low, high, truths, estimate=np.nan) -> dict:
    """One interval of one repetition (plain floats, JSON-able)."""
    return {"interval": interval, "model": model, "method": method, "estimand": estimand,
            "low": float(low), "high": float(high), "estimate": float(estimate),
            "truths": {k: float(v) for k, v in truths.items()}}


def fit_key(model, X, y) -> tuple | None:
    """What identifies a fit: the unfitted model (its pickle: every parameter; ``repr``
    is ten times dearer) and a digest of its training rows (their positions' labels,
    values and classes); None for a model that does not pickle (never reused)."""
    try:
        params = hashlib.sha256(pickle.dumps(model, protocol=5)).hexdigest()
    except (pickle.PicklingError, TypeError, AttributeError):
        return None
    digest = hashlib.sha256(np.ascontiguousarray(y).tobytes())
    if isinstance(X, pd.DataFrame):
        digest.update(pd.util.hash_pandas_object(X, index=True).to_numpy().tobytes())
    else:
        digest.update(np.ascontiguousarray(X).tobytes())
    return params, X.shape, digest.hexdigest()


@contextmanager
def kept_fold_models():
    """Keep every model :func:`engine.evaluation.cv.run_cv` fits in this process (its
    :func:`~engine.evaluation.tuning.fit_model` wrapped), by :func:`fit_key`, so the study
    scores the very fold models on the rest instead of fitting them again."""
    kept, original = {}, cv_module.fit_model

    def keeping(model, X, y, groups=None):
        key = fit_key(model, X, y)
        result = original(model, X, y, groups)
        if key is not None:
            kept[key] = model
        return result

    cv_module.fit_model = keeping
    try:
        yield kept
    finally:
        cv_module.fit_model = original


def _fold_model(spec, dataset, train, kept):
    """The fold model run_cv fitted on ``train`` (fitted here when it was not kept)."""
    X = take_rows(feature_matrix(dataset), train)
    key = fit_key(make_pipeline(spec, dataset=dataset), X, dataset.y[train])
    found = kept.get(key) if key is not None else None
    return found if found is not None else fit_on(spec, dataset, train)


def _fold_truths(draw, specs, splits, metric, kept):
    """Per model: each fold model's score and probabilities on the rest."""
    out = {}
    for spec in specs:
        scores, probs = [], []
        for train, _ in splits:
            model = _fold_model(spec, draw.dataset, train, kept)
            scorer = scorer_on(model, draw.dataset, draw.rest)
            scores.append(scorer.score(metric))
            if len(draw.dataset.classes) == 2:
                probs.append(scorer.response("proba")[:, 1])
        out[spec.name] = (np.array(scores), probs)
    return out


def _cv_rows(cv, dataset, metric, folds, final) -> list:
    specs = list(cv.models)
    summary = summary_table(cv.scores, cv.models, (metric,), failures=cv.failures)
    rows = []
    for _, line in summary.iterrows():
        truths = {"fold_models_mean": folds[line["model"]][0].mean(),
                  "model_on_all_rows": final[line["model"]]}
        rows.append(row("summary_mean", line["model"], "corrected_t",
                        "expected_score_at_training_size", line["ci_low"], line["ci_high"],
                        truths, line["mean"]))
    matrix = cv.score_matrix(metric)
    a, b = specs[0], specs[1]
    n_train, n_test = cv.train_test_sizes()
    differences = matrix.loc[a].to_numpy(float) - matrix.loc[b].to_numpy(float)
    truths = {"fold_models_mean": (folds[a][0] - folds[b][0]).mean(),
              "model_on_all_rows": final[a] - final[b]}
    low, high = corrected_interval(differences, n_train, n_test, alpha=1 - LEVEL)
    pair = f"{a} - {b}"
    rows.append(row("pairwise_difference", pair, "corrected_paired_t",
                    "expected_score_at_training_size", low, high, truths,
                    np.nanmean(differences)))
    comparison = compare_models(matrix, n_train, n_test, metric=metric)
    credible = comparison.intervals[comparison.intervals["level"] == LEVEL].iloc[0]
    low, high = credible["lower"], credible["upper"]
    if credible["model_1"] != a:                      # the app orders by rank
        low, high = -high, -low
    rows.append(row("credible_difference", pair, "bayesian_correlated_t",
                    "expected_score_at_training_size", low, high, truths))
    return rows


def _auc_rows(cv, dataset, folds) -> list:
    tables = auc_tables(predictions_table(cv, dataset), dataset.classes,
                        positive_class=dataset.classes[dataset.pos_label])
    frame = tables.intervals
    frame = frame[frame["repeat"].isna()]
    rows = []
    for _, line in frame.iterrows():
        if line["method"] not in AUC_METHODS:
            continue
        interval, estimand = AUC_METHODS[line["method"]]
        truths = {"fold_models_mean": folds[line["model"]][0].mean()}
        rows.append(row(interval, line["model"], line["method"], estimand, line["ci_low"],
                        line["ci_high"], truths, line["auc"]))
    return rows


def _decision_rows(cv, dataset, folds, rest, threshold) -> list:
    result = decision_analysis(cv, positive_code=dataset.pos_label, n_bootstrap=10)
    summary = result.summary[np.isclose(result.summary["threshold"], threshold)]
    y_rest = (rest.y == dataset.pos_label).astype(int)
    rows = []
    for _, line in summary.iterrows():
        if line["model"] not in folds:                # treat all, treat none
            continue
        probs = folds[line["model"]][1]
        column = 1 if dataset.pos_label == 1 else 0
        truth = np.mean([net_benefit(y_rest, p if column else 1 - p, thresholds=[threshold])[0]
                         for p in probs])
        rows.append(row("decision_curve_band", line["model"], "min_max_over_repeats",
                        "fold_models_mean", line["band_low"], line["band_high"],
                        {"fold_models_mean": truth}, line["mean_net_benefit"]))
    return rows


def _bin_truth(y, probs, bin_index: int) -> float:
    """Fraction of class 1 among the rest's predictions (all fold models) in a bin of the
    diagram's equal-width bins, assigned as the diagram assigns them
    (``searchsorted`` on the inner edges)."""
    inner = np.linspace(0.0, 1.0, N_BINS + 1)[1:-1]
    hits = count = 0
    for p in probs:
        inside = np.searchsorted(inner, p) == bin_index
        hits, count = hits + y[inside].sum(), count + inside.sum()
    return hits / count if count else np.nan


def _calibration_rows(cv, dataset, folds, rest) -> list:
    """Share of the reliability diagram's bins whose interval covers the fold models'
    frequency of class 1 on the rest (one row per model; ``covered`` is a share)."""
    preds = cv.predictions
    column = value_columns(2)[1]
    rows = []
    for name in cv.models:
        part = preds[preds["model"] == name]
        diagram = reliability_diagram(part["y"].to_numpy() == 1,
                                      part[column].to_numpy(float), n_bins=N_BINS)
        diagram = with_interval(diagram, n_repeats=part["repeat"].nunique())
        y_rest, checks = (rest.y == 1).astype(int), []
        for _, line in diagram.iterrows():
            truth = _bin_truth(y_rest, folds[name][1], int(line["bin"]))
            if np.isfinite(truth):
                checks.append(line["ci_low"] <= truth <= line["ci_high"])
        entry = row("calibration_band", name, "jeffreys_per_bin", "fold_models_mean",
                    np.nan, np.nan, {})
        entry["covered"] = float(np.mean(checks)) if checks else np.nan
        entry["n_checks"] = len(checks)
        rows.append(entry)
    return rows


def _heldout(draw, specs, metric, summary=None):
    test = TestSet(draw.test_frame[list(draw.dataset.X.columns)], draw.test.y, "draw")
    result = drain(run_heldout(draw.dataset, test, specs, [metric]))
    scorers = {name: scorer_on(model, draw.dataset, draw.rest)   # one prediction each
               for name, model in result.models.items()}
    final = {name: scorer.score(metric) for name, scorer in scorers.items()}
    auc = ({name: scorer.score("roc_auc") for name, scorer in scorers.items()}
           if len(draw.dataset.classes) == 2 else {})
    rows = []
    for _, line in result.scores.iterrows():
        kind = "heldout_delong" if line["interval"] == "delong" else "heldout_bootstrap"
        truth = auc[line["model"]] if line["metric"] == "roc_auc" else final[line["model"]]
        rows.append(row(kind, line["model"], line["interval"], "fixed_model_on_new_data",
                        line["ci_low"], line["ci_high"],
                        {"fixed_model_on_new_data": truth}, line["score"]))
    return rows, final


def repetition_sample(frame, target, n: int, seed: int, design: dict) -> tuple:
    """``(draw, metric, config)`` of a repetition: its sample and held-out rows drawn with
    ``seed``, its primary metric and its cross-validation settings (the folds seeded by
    ``seed`` too). The subgroup pieces draw the very same sample with it."""
    rng = np.random.default_rng(seed)
    draw = draw_rows(frame, target, n, n, design["rest_cap"], rng)
    config = CVConfig(n_splits=design["folds"], n_repeats=design["repeats"],
                      random_state=seed % (2 ** 31))
    return draw, metric_for(len(draw.dataset.classes)), config


def one_repetition(frame, target, specs, n, seed, design) -> list:
    """Every interval of one repetition of a cell, with its truths.

    Parameters
    ----------
    frame : DataFrame
        The population.
    target : str
    specs : list of ModelSpec
        Two learners (their difference is the pairwise interval's).
    n : int
        Sample size.
    seed : int
        Seeds the draw and the folds.
    design : dict
        ``folds``, ``repeats``, ``rest_cap``, ``threshold`` (the decision curve's).
    """
    draw, metric, config = repetition_sample(frame, target, n, seed, design)
    dataset = draw.dataset
    with kept_fold_models() as kept:
        cv = drain(run_cv(dataset, specs, config, [metric]))
    folds = _fold_truths(draw, specs, make_splits(dataset.y, config), metric, kept)
    kept.clear()
    rows, final = _heldout(draw, specs, metric)
    rows += _cv_rows(cv, dataset, metric, folds, final)
    if len(dataset.classes) == 2:
        rows += _auc_rows(cv, dataset, folds)
        rows += _decision_rows(cv, dataset, folds, draw.rest, design["threshold"])
        rows += _calibration_rows(cv, dataset, folds, draw.rest)
    return rows
