"""The study's extra piece kinds: ``subgroup_score`` and ``nested_cv``.

They are pieces of their own (kinds ``"subgroup"``, ``"subgroup_truth"`` and ``"nested"``,
chosen with ``--intervals``) so the lines of the main repetitions (kind ``"rep"``) and
their cells stay exactly as they were.

``subgroup``: the sample of the main repetition (the same seed), cross-validated as there,
and ``subgroup_scores.csv``'s intervals computed by the app's own
:func:`engine.evaluation.subgroups.run_subgroups` on its out-of-fold predictions, for the
population's subgroup column (:data:`SUBGROUP_COLUMNS`). The interval's estimand is the
expected score at the training size on the subgroup's rows: ``subgroup_truth`` computes it
as :mod:`tests.benchmarks.coverage.truth` does, fitting on fresh draws of the training size
and scoring on each subgroup's rows of the rest. Its rows are named ``"model | column=value"``
and joined to the truth by that name.

``nested``: Bates et al.'s interval as ``"cv": {"interval": "nested"}`` computes it
(:func:`engine.runs.nested_cv.run_nested`) on accuracy, one learner, :data:`NESTED_FOLDS`
folds and the app's default ``nested_repeats``; its truth, ``model_on_all_rows``, is the
model fitted on the whole sample scored on the rest.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from engine.evaluation.cv import CVConfig, run_cv
from engine.evaluation.subgroups import SubgroupSpec, run_subgroups
from engine.runs.nested_cv import run_nested

from .repetition import drain, metric_for, repetition_sample, row
from .sample import Rows, draw_rows, fit_on, scorer_on
from .truth import training_size

__all__ = ["NESTED_FOLDS", "NESTED_METRIC", "NESTED_REPEATS", "SUBGROUP_COLUMNS",
           "nested_rows", "subgroup_expected", "subgroup_rows"]

#: Population -> its subgroup column (a text column of two values).
SUBGROUP_COLUMNS = {"arrests": "colour", "default": "student", "health_insurance": "gender",
                    "fertility": "afam"}
#: The nested interval's design: K folds and R repeats (R·K² fits per repetition; the app's
#: default R is 10, five times the fits of the study's R = 2).
NESTED_FOLDS = 5
NESTED_REPEATS = 2
#: The nested interval's metric (a mean of per-row values; the AUC is not one).
NESTED_METRIC = "accuracy"


def group_name(model: str, column: str, label) -> str:
    """The row name of a model's subgroup (the truth's key too)."""
    return f"{model} | {column}={label}"


def subgroup_rows(frame, target, specs, n, seed, design, column) -> list:
    """``subgroup_score`` rows of one repetition: one per model and subgroup the app gives
    an interval (no truth: the cell's ``subgroup_truth`` is joined when counting)."""
    draw, metric, config = repetition_sample(frame, target, n, seed, design)
    dataset = draw.dataset
    cv = drain(run_cv(dataset, specs, config, [metric]))
    experiment = SimpleNamespace(subgroups=(SubgroupSpec(column),), metric_costs=lambda: None)
    result = run_subgroups(experiment, dataset, cv)
    rows = []
    for _, line in result.scores.iterrows():
        if line["metric"] != metric or not np.isfinite([line["ci_low"], line["ci_high"]]).all():
            continue
        entry = row("subgroup_score", group_name(line["model"], column, line["subgroup"]),
                    line["method"], line["estimand"], line["ci_low"], line["ci_high"], {},
                    line["score"])
        entry["n_rows"], entry["verdict"] = int(line["n_rows"]), bool(line["verdict_allowed"])
        rows.append(entry)
    return rows


def subgroup_expected(frame, target, specs, n, folds, draws, rest_cap, seed,
                      column) -> dict:
    """``{"model | column=value": (mean, standard error)}``: each learner's score on each
    subgroup's rows of the rest, over ``draws`` fresh draws of the training size."""
    rng = np.random.default_rng(seed)
    size, scores = training_size(n, folds), {}
    for _ in range(draws):
        try:
            draw = draw_rows(frame, target, size, 0, rest_cap, rng)
        except ValueError:
            continue
        if len(draw.dataset.classes) < 2:
            continue
        metric = metric_for(len(draw.dataset.classes))
        groups = draw.rest_frame[column].astype(str).to_numpy()
        for spec in specs:
            model = fit_on(spec, draw.dataset)
            for label in np.unique(groups):
                inside = groups == label
                part = _subset(draw.rest, inside)
                if len(np.unique(part.y)) < 2 and metric == "roc_auc":
                    continue
                value = scorer_on(model, draw.dataset, part).score(metric)
                scores.setdefault(group_name(spec.name, column, label), []).append(value)
    return {name: (float(np.mean(v)), float(np.std(v, ddof=1) / np.sqrt(len(v))))
            for name, v in scores.items() if len(v) > 1}


def _subset(rows: Rows, inside: np.ndarray) -> Rows:
    return Rows(rows.X[inside], rows.y[inside])


def nested_rows(frame, target, spec, n, seed, rest_cap,
                design=(NESTED_FOLDS, NESTED_REPEATS)) -> list:
    """The ``nested_cv`` row of one repetition (one learner, ``design`` its folds and
    repeats), with its truth."""
    rng = np.random.default_rng(seed)
    draw = draw_rows(frame, target, n, 0, rest_cap, rng)
    dataset = draw.dataset
    config = CVConfig(n_splits=design[0], n_repeats=1, random_state=seed % (2 ** 31),
                      interval="nested", nested_repeats=design[1])
    result = drain(run_nested(dataset, [spec], config, [NESTED_METRIC]))
    truth = scorer_on(fit_on(spec, dataset), dataset, draw.rest).score(NESTED_METRIC)
    rows = []
    for _, line in result.table.iterrows():
        rows.append(row("nested_cv", line["model"], line["method"], line["estimand"],
                        line["ci_low"], line["ci_high"], {"model_on_all_rows": truth},
                        line["bias_corrected"]))
    return rows
