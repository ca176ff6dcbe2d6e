"""The pre-run check: everything that would make a run fail or mislead, before any fit.

:func:`check_experiment` looks at an experiment and the data sets it would run on (data
loaded, nothing fitted) and returns :class:`Problem` values, each a coded
:class:`~engine.foundation.notes.Note` with ``blocking`` (the run would fail, or its numbers would
mean nothing) and the :class:`Fix` values the app can apply in one click
(:func:`apply_fix` applies one to an experiment file's JSON object). The headless runner
refuses an experiment with a blocking problem (exit 2, one ``error:`` line each) and
prints the others as ``warning:`` lines; the app lists them all when Run is pressed and
starts nothing until the user chooses. The list of checks and which ones block is in
``docs/preflight.md``.

Checks, per data set:

* ``metric_not_for_target`` (blocks): a metric made for two classes on more (``roc_auc``
  on six classes), or one meaningless on two (``top_k_accuracy``).
* ``too_few_rows`` (blocks): a class (or, with groups, the groups) too small for the folds
  (:func:`engine.evaluation.cv.check_folds`).
* ``no_probabilities`` (blocks): a model that gives neither probabilities nor the decision
  values a metric needs (an SVC without ``probability`` under one-vs-rest ROC AUC: every
  fold fails), also the metric a tuned model is tuned on.
* ``threshold_many_classes`` (blocks): a model that chooses a decision threshold (by a
  metric or by costs) on a target with more than two classes.
* ``tune_metric_not_for_target`` (blocks): a tuned model's own metric that does not fit
  the target.
* ``inner_folds_too_few`` (blocks): a tuned or thresholded model's inner folds need more
  rows of the smallest class than an outer training part has.
* ``unscaled_model`` (warns): a scale-sensitive model (distances, penalties) without
  scaling on features whose spreads differ more than :data:`SPREAD_RATIO` times.
"""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field, replace

import numpy as np

from engine.runs.benchmark import experiment_for
from engine.evaluation.catalogue import count_models, estimator_class, is_scale_sensitive
from engine.evaluation.costs import COST_METRIC, cost_metric_problem
from engine.evaluation.cv import check_folds
from engine.evaluation.metrics import (BINARY_ONLY, FAST_METRICS, LABELS, MULTICLASS_ONLY, PROBA,
                                       multiclass_counterpart)
from engine.foundation.caller_errors import CallerError
from engine.foundation.errors import error_code
from engine.foundation.notes import Note
from engine.evaluation.messages_app import short_form
from engine.evaluation.verdict import metric_label

#: Spreads (standard deviations) of numeric features this many times apart make an unscaled
#: scale-sensitive model worth a warning; closer spreads (two features on one scale, as in
#: the moons examples) change little.
SPREAD_RATIO = 10.0
#: The label metric offered instead of a probability metric on more than two classes.
LABEL_METRIC = "balanced_accuracy"


@dataclass(frozen=True)
class Fix:
    """One change that removes a problem.

    Attributes
    ----------
    kind : str
        ``"model_param"`` (fields ``entry``, ``param``, ``value``), ``"model_scale"``
        (``entry``), ``"drop_threshold"`` (``entry``), ``"tune_scoring"`` (``entry``: the
        model is tuned on the primary metric), ``"inner_splits"`` (``entry``, ``block``,
        ``value``), ``"metric"`` (``old``, ``new``: None drops it), ``"folds"``
        (``n_splits``).
    fields : dict
        What to change; ``entry`` is the index of the model in the experiment's ``models``.
    words : str
        The button's text, in words for people.
    """

    kind: str
    fields: dict
    words: str


@dataclass(frozen=True, eq=False)
class Problem(Note):
    """A coded note about a run that would fail (``blocking``) or mislead, with its fixes.

    Its long form (``message``: scorer ids and experiment-file keys) and its short form
    (:meth:`words`) are the catalogue's (:mod:`engine.evaluation.messages_app`), made
    from its fields; a problem found on several data sets names the others
    (``datasets``)."""

    blocking: bool = True
    fixes: tuple = field(default=())

    def words(self) -> str:
        """The sentence for the app: no experiment-file keys or scorer ids."""
        return short_form(self)

    def line(self) -> str:
        """The headless runner's line: ``error: ...`` or ``warning: ...``."""
        return f"{'error' if self.blocking else 'warning'}: {self.message}"


def blocking(problems) -> list:
    """The problems that stop a run."""
    return [problem for problem in problems if problem.blocking]


# ----------------------------------------------------------------------------- checking

def check_experiment(experiment, datasets) -> list:
    """Every problem of running ``experiment`` on ``datasets``, nothing fitted.

    Parameters
    ----------
    experiment : engine.evaluation.experiment.Experiment
    datasets : Dataset or sequence of Dataset
        The loaded data: one data set, or all of an experiment with a ``"datasets"`` list
        in its order.

    Returns
    -------
    list of Problem
        Blocking ones first; a problem found on several data sets is listed once, its
        ``datasets`` field naming them.
    """
    datasets = list(datasets) if isinstance(datasets, (list, tuple)) else [datasets]
    cost_problems = _cost_problems(experiment, datasets)
    if cost_problems:             # the metrics cannot be filled in: say only this
        return cost_problems
    filled = _filled(experiment, datasets)
    entries = _entry_of_models(experiment)
    found = []
    for dataset in datasets:
        found.extend(_dataset_problems(filled, dataset, entries))
    merged = _merged(found)
    return sorted(merged, key=lambda problem: not problem.blocking)


def _filled(experiment, datasets):
    """The experiment with its metrics as the run fills them in for ``datasets``."""
    if len(datasets) > 1 or experiment.datasets:
        return experiment_for(experiment, datasets)
    return experiment.with_metrics_for(len(datasets[0].classes), datasets[0])


def _entry_of_models(experiment) -> list:
    """For every model (grids expanded), the index of its entry in ``models``."""
    owners = []
    for index, entry in enumerate(experiment.model_entries):
        owners.extend([index] * count_models([entry]))
    if len(owners) != len(experiment.models):        # cannot happen; stay safe
        owners = list(range(len(experiment.models)))
    return owners


def _dataset_problems(experiment, dataset, entries) -> list:
    n_classes = len(dataset.classes)
    metrics = list(experiment.metrics)
    found = _metric_problems(metrics, n_classes, dataset)
    found += _fold_problems(experiment.cv, dataset)
    for spec, entry in zip(experiment.models, entries):
        found += _model_problems(spec, entry, metrics, n_classes, dataset, experiment.cv)
    return found


def _about(dataset) -> dict:
    return {"dataset": dataset.name}


def _problem(code, fields, fixes=(), block=True) -> Problem:
    """A problem worded by the catalogue from ``fields``."""
    return Problem(code, fields=fields, blocking=block, fixes=tuple(fixes))


# ----------------------------------------------------------------------------- metrics

def _metric_problems(metrics, n_classes, dataset) -> list:
    found = []
    for metric in metrics:
        if n_classes > 2 and metric in BINARY_ONLY:
            new, reason = multiclass_counterpart(metric), "two_classes_only"
        elif n_classes <= 2 and metric in MULTICLASS_ONLY:
            new, reason = "accuracy", "always_one"
        else:
            continue
        fields = {**_about(dataset), "metric": metric, "n_classes": n_classes,
                  "suggested": new, "reason": reason}
        found.append(_problem("metric_not_for_target", fields,
                              [metric_fix(metric, new, metrics)]))
    return found


def _cost_problems(experiment, datasets) -> list:
    """The expected-cost metric where it cannot be computed: without costs, or on a data
    set without two classes (:func:`engine.evaluation.costs.cost_metric_problem`); the fix compares by
    balanced accuracy instead."""
    metrics = list(experiment.metrics)
    if COST_METRIC not in metrics:
        return []
    found = []
    for dataset in datasets:
        if cost_metric_problem(metrics, experiment.metric_costs(), n_classes=len(dataset.classes)):
            n_classes = len(dataset.classes)
            fields = {**_about(dataset), "metric": COST_METRIC, "n_classes": n_classes,
                      "suggested": "balanced_accuracy",
                      "reason": "two_classes_only" if n_classes != 2 else "no_costs"}
            found.append(_problem("metric_not_for_target", fields,
                                  [metric_fix(COST_METRIC, "balanced_accuracy", metrics)]))
    return _merged(found)


def metric_fix(old: str, new, metrics) -> Fix:
    """The fix that uses ``new`` instead of the metric ``old`` (drops ``old`` when ``new``
    is None or already measured)."""
    if new is None or (new in metrics and new != old):
        return Fix("metric", {"old": old, "new": None}, f"Stop measuring {metric_label(old)}")
    return Fix("metric", {"old": old, "new": new},
               f"Compare on {metric_label(new)} instead of {metric_label(old)}"
               if metrics and metrics[0] == old else
               f"Measure {metric_label(new)} instead of {metric_label(old)}")


def needed_response(metric: str) -> str:
    """What a model must give for ``metric``: ``"proba"`` (probabilities), ``"score"``
    (probabilities or decision values) or ``"labels"`` (any classifier)."""
    if metric == COST_METRIC:              # scored on predicted classes (thresholds chosen)
        return "labels"
    if metric in FAST_METRICS:
        kind = FAST_METRICS[metric][0]
        return "labels" if kind == LABELS else "proba" if kind == PROBA else "score"
    from sklearn.metrics import get_scorer

    # getattr: scikit-learn's scorer
    method = getattr(get_scorer(metric), "_response_method", "predict")
    methods = (method,) if isinstance(method, str) else tuple(method)
    if "predict" in methods:
        return "labels"
    return "score" if "decision_function" in methods else "proba"


# ----------------------------------------------------------------------------- folds

def _fold_problems(cv, dataset) -> list:
    try:
        check_folds(dataset.y, cv, dataset.groups, classes=dataset.classes)
    except ValueError as exc:
        possible = _possible_folds(cv, dataset)
        fixes = ([Fix("folds", {"n_splits": possible}, f"Use {possible} folds")]
                 if possible else [])
        fields = {**_about(dataset), "n_splits": cv.n_splits, "possible": possible,
                  "reason": str(exc), "reason_code": error_code(exc)}
        return [_problem("too_few_rows", fields, fixes)]
    return []


def _possible_folds(cv, dataset):
    """The most folds (below the asked number, at least 2) the data can support, or None."""
    for n_splits in range(min(int(cv.n_splits), len(dataset.y)) - 1, 1, -1):
        try:
            check_folds(dataset.y, replace(cv, n_splits=n_splits), dataset.groups,
                        classes=dataset.classes)
            return n_splits
        except ValueError:
            continue
    return None


# ----------------------------------------------------------------------------- models

def _model_problems(spec, entry, metrics, n_classes, dataset, cv) -> list:
    found = _response_problems(spec, entry, metrics, n_classes, dataset)
    found += _threshold_problems(spec, entry, n_classes, dataset)
    found += _tune_problems(spec, entry, n_classes, dataset)
    found += _inner_fold_problems(spec, entry, dataset, cv)
    found += _scale_problems(spec, entry, dataset)
    return found


def gives(spec) -> set:
    """What a model gives besides labels: ``{"proba", "score"}`` with probabilities,
    ``{"score"}`` with decision values only (a tuned model: what every grid member gives)."""
    from sklearn.model_selection import ParameterGrid

    cls = estimator_class(spec.estimator)
    combos = list(ParameterGrid(spec.tune["grid"])) if spec.tune else [{}]
    found = {"proba", "score"}
    for combo in combos:
        params = {**spec.params, **combo}
        try:
            estimator = cls(**{k: v for k, v in params.items() if k in cls().get_params()})
        except Exception:  # noqa: BLE001 - checked elsewhere; assume it gives all
            continue
        if not hasattr(estimator, "predict_proba"):
            found.discard("proba")
            if not hasattr(estimator, "decision_function"):
                found.discard("score")
    return found


def _response_problems(spec, entry, metrics, n_classes, dataset) -> list:
    available = gives(spec)
    asked = [(metric, "metric") for metric in metrics]
    tune_metric = (spec.tune or {}).get("scoring")
    if tune_metric:
        asked.append((tune_metric, "tune"))
    found = []
    for metric, where in asked:
        need = needed_response(metric)
        if need == "labels" or need in available:
            continue
        fields = {**_about(dataset), "model": spec.name, "entry": entry, "metric": metric,
                  "where": where, "needs": need}
        found.append(_problem(
            "no_probabilities", fields, _response_fixes(spec, entry, metric, where, metrics, n_classes)))
    return found


def _response_fixes(spec, entry, metric, where, metrics, n_classes) -> list:
    fixes = []
    if "probability" in estimator_class(spec.estimator)().get_params():
        fixes.append(Fix("model_param", {"entry": entry, "param": "probability", "value": True},
                         f"Turn on probabilities for {spec.name!r}"))
    if where == "tune":
        fixes.append(Fix("tune_scoring", {"entry": entry},
                         f"Tune {spec.name!r} on the metric the models are compared on"))
    elif metric == metrics[0]:
        new = LABEL_METRIC if n_classes > 2 else "roc_auc"
        if needed_response(new) == "score" and "score" not in gives(spec):
            new = LABEL_METRIC
        fixes.append(metric_fix(metric, new, metrics))
    else:
        fixes.append(metric_fix(metric, None, metrics))
    return fixes


def _threshold_problems(spec, entry, n_classes, dataset) -> list:
    if not spec.threshold or n_classes == 2:
        return []
    fields = {**_about(dataset), "model": spec.name, "entry": entry, "n_classes": n_classes,
              "by": "costs" if "cost" in spec.threshold else "metric"}
    return [_problem(
        "threshold_many_classes", fields, [Fix("drop_threshold", {"entry": entry},
                     f"Use the usual threshold for {spec.name!r}")])]


def _tune_problems(spec, entry, n_classes, dataset) -> list:
    metric = (spec.tune or {}).get("scoring")
    if not metric:
        return []
    if not ((n_classes > 2 and metric in BINARY_ONLY)
            or (n_classes <= 2 and metric in MULTICLASS_ONLY)):
        return []
    fields = {**_about(dataset), "model": spec.name, "entry": entry, "metric": metric,
              "n_classes": n_classes}
    return [_problem(
        "tune_metric_not_for_target", fields, [Fix("tune_scoring", {"entry": entry},
                     f"Tune {spec.name!r} on the metric the models are compared on")])]


def _inner_fold_problems(spec, entry, dataset, cv) -> list:
    """A tuned or thresholded model whose inner folds need more rows of the smallest class
    than an outer training part holds (without groups; grouped inner folds are checked by
    the run itself, :func:`engine.evaluation.cv.check_inner_groups`)."""
    if dataset.groups is not None or not (spec.tune or spec.threshold):
        return []
    counts = np.bincount(dataset.y)
    counts = counts[counts > 0]
    if len(counts) < 2 or not isinstance(cv.n_splits, int) or cv.n_splits < 2:
        return []
    smallest = int(counts.min()) - math.ceil(int(counts.min()) / cv.n_splits)
    found = []
    for block_name in ("tune", "threshold"):
        block = getattr(spec, block_name)
        inner = (block or {}).get("inner_splits", 5)
        if not block or inner <= smallest:
            continue
        fields = {**_about(dataset), "model": spec.name, "entry": entry, "block": block_name,
                  "inner_splits": inner, "rows": smallest}
        fixes = ([Fix("inner_splits", {"entry": entry, "block": block_name, "value": smallest},
                      f"Use {smallest} inner folds for {spec.name!r}")] if smallest >= 2 else [])
        found.append(_problem("inner_folds_too_few", fields, fixes))
    return found


def _scale_problems(spec, entry, dataset) -> list:
    if spec.scale or not is_scale_sensitive(spec.estimator):
        return []
    ratio = spread_ratio(dataset)
    if ratio is None or ratio <= SPREAD_RATIO:
        return []
    fields = {**_about(dataset), "model": spec.name, "entry": entry,
              "estimator": spec.estimator, "ratio": round(ratio, 1), "shown_ratio": round(ratio)}
    return [_problem(
        "unscaled_model", fields, [Fix("model_scale", {"entry": entry}, f"Scale the features for {spec.name!r}")],
        block=False)]


def spread_ratio(dataset):
    """The largest standard deviation of a numeric feature over the smallest non-zero one
    (None with fewer than two such features)."""
    columns = list(dataset.numeric_columns)
    if len(columns) < 2:
        return None
    spreads = dataset.X[columns].std(numeric_only=True).to_numpy(dtype=float)
    spreads = spreads[np.isfinite(spreads) & (spreads > 0)]
    if len(spreads) < 2:
        return None
    return float(spreads.max() / spreads.min())


def _merged(found) -> list:
    """One problem per kind and subject, naming every data set it was found on."""
    merged = {}
    for problem in found:
        fields = dict(problem.fields)
        name = fields.pop("dataset", None)
        key = (problem.code, repr(sorted(fields.items())), repr(problem.fixes))
        if key not in merged:
            merged[key] = (problem, [name])
        else:
            merged[key][1].append(name)
    out = []
    for problem, names in merged.values():
        fields = {**problem.fields, "datasets": tuple(names)}
        out.append(Problem(problem.code, fields=fields, blocking=problem.blocking,
                           fixes=problem.fixes))
    return out


# ----------------------------------------------------------------------------- fixing

def apply_fix(setup: dict, fix: Fix) -> dict:
    """An experiment file's JSON object with ``fix`` applied (a changed copy).

    Parameters
    ----------
    setup : dict
        At least the parts the fix changes: ``models`` (entries), ``metrics``, ``cv``.
    fix : Fix

    Returns
    -------
    dict
    """
    setup = copy.deepcopy(setup)
    values = fix.fields
    if fix.kind == "metric":
        setup["metrics"] = _fixed_metrics(list(setup.get("metrics") or []), values["old"],
                                          values["new"])
    elif fix.kind == "folds":
        setup["cv"] = {**(setup.get("cv") or {}), "n_splits": values["n_splits"]}
    else:
        entry = setup["models"][values["entry"]]
        _fix_entry(entry, fix.kind, values)
    return setup


def _fixed_metrics(metrics: list, old: str, new) -> list:
    if old not in metrics:
        metrics = [old, *metrics] if not metrics else metrics
    out = []
    for metric in metrics:
        replacement = new if metric == old else metric
        if replacement is not None and replacement not in out:
            out.append(replacement)
    return out


def _fix_entry(entry: dict, kind: str, values) -> None:
    if kind == "model_param":
        entry["params"] = {**(entry.get("params") or {}), values["param"]: values["value"]}
    elif kind == "model_scale":
        entry["scale"] = True
    elif kind == "drop_threshold":
        entry.pop("threshold", None)
    elif kind == "tune_scoring":
        entry["tune"] = {k: v for k, v in entry["tune"].items() if k != "scoring"}
    elif kind == "inner_splits":
        entry[values["block"]] = {**entry[values["block"]], "inner_splits": values["value"]}
    else:
        raise CallerError("argument_choice",
                          f"unknown fix {kind!r}")  # internal: fixes come from this module
