"""Choices made inside each outer training fold: nested tuning and decision thresholds.

A model entry of an experiment file may carry

* ``"tune": {"grid": {PARAM: [values]}, "inner_splits": 5, "scoring": METRIC,
  "optimism": true}``: in every outer fold the model is scikit-learn's
  ``GridSearchCV(pipeline, grid, cv=inner_splits, scoring=METRIC, refit=True)`` fitted on
  the training part only (the inner splitter is scikit-learn's default for ``cv=int``,
  unshuffled stratified k-fold), so its outer scores equal ``cross_val_score(GridSearchCV(
  ...), X, y, cv=outer)``. ``optimism`` (default true) also scores every grid member as a
  plain model on the same outer folds, to measure how much picking the best of them by
  those folds would flatter it (``tuning_optimism.csv``). With a data set's ``"groups"``
  the inner folds are grouped too: ``cv=StratifiedGroupKFold(inner_splits)`` (unshuffled)
  given the training rows' groups, so its outer scores equal ``cross_val_score(
  GridSearchCV(..., cv=StratifiedGroupKFold(inner_splits)), X, y, cv=outer,
  params={"groups": groups})`` with scikit-learn's metadata routing on.
* ``"threshold": {"scoring": METRIC} or {"cost": [[c_tn, c_fp], [c_fn, c_tp]]}`` (two
  classes): the model is ``TunedThresholdClassifierCV(model, scoring=..., cv=inner_splits)``,
  its decision threshold chosen on the training part only. Costs are what each outcome
  costs (positive = bad, negative = a gain); the threshold minimises the mean cost per row,
  i.e. maximises :func:`cost_score`. With groups its inner folds are
  ``StratifiedGroupKFold(inner_splits)`` as well. With ``"tune"`` as well, the threshold is tuned
  around the grid search (the grid search runs inside each of the threshold's inner
  folds, then once more on the whole training part).

:func:`wrap_model` builds the estimator, :func:`fit_model` fits it (passing the groups),
:func:`fit_details` reads what was chosen from a
fitted one (the ``details`` of :class:`engine.evaluation.cv.FoldFit`), and the table functions make
``tuning.csv``, ``thresholds.csv`` and ``tuning_optimism.csv``.
"""
from __future__ import annotations

import json
import math
from typing import Any, Optional

import numpy as np
import pandas as pd

from engine.evaluation.costs import COST_METRIC, as_costs, cost_score
from engine.evaluation.metrics import USES_POSITIVE, default_metric
from engine.foundation.errors import EngineError
from engine.foundation.notes import Note
from engine.foundation.schema import show
from engine.evaluation.stats import corrected_interval, corrected_ttest, two_sided

#: Default inner folds of ``"tune"`` and ``"threshold"``.
INNER_SPLITS = 5
#: Columns of ``thresholds.csv``.
#: ``threshold`` is on the probability (or decision score) of ``positive_class``.
THRESHOLD_COLUMNS = ["model", "repeat", "fold", "threshold", "inner_score", "positive_class"]
#: Columns of ``tuning_optimism.csv``.
OPTIMISM_COLUMNS = ["model", "metric", "n_members", "best_member", "best_plain_score",
                    "nested_score", "optimism", "ci_low", "ci_high", "p_value_two_sided",
                    "n_folds", "tuning_metric"]


# ----------------------------------------------------------------------------- checking

def check_cost(cost, *, where: str = "cost") -> list:
    """A 2x2 cost matrix ``[[c_tn, c_fp], [c_fn, c_tp]]`` of finite numbers (rows: the
    actual class, negative then positive; columns: the predicted class)."""
    ok = (isinstance(cost, list) and len(cost) == 2
          and all(isinstance(row, list) and len(row) == 2 for row in cost)
          and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                  for row in cost for v in row))
    if not ok:
        raise EngineError("cost_matrix_invalid", {"place": where, "got": show(cost)})
    if len({v for row in cost for v in row}) == 1:
        raise EngineError("cost_matrix_flat", {"place": where})
    return [[float(v) for v in row] for row in cost]


# ----------------------------------------------------------------------------- scorers

def cost_scorer(cost, *, pos_label=None):
    """A scikit-learn scorer from a cost matrix (see :func:`cost_score`); picklable.

    It carries ``pos_label`` (the positive class's code, default 1), so a
    ``TunedThresholdClassifierCV`` scored by it puts its threshold on the positive
    class's probability (or decision score)."""
    from sklearn.metrics import make_scorer

    positive = 1 if pos_label is None else int(pos_label)
    return make_scorer(cost_score, cost=cost, labels=[1 - positive, positive],
                       pos_label=positive)


def label_score(y_true, y_pred, metric: str, *, pos_label=None) -> float:
    """scikit-learn's ``metric`` of predicted labels for a metric that treats the classes
    alike (balanced accuracy, accuracy, MCC, macro or weighted F1): ``pos_label`` is not
    used in the score; a scorer made with it tells scikit-learn which class's probability
    a threshold is on."""
    from sklearn import metrics as skm

    if metric in ("f1_macro", "f1_weighted"):
        return float(skm.f1_score(y_true, y_pred, average=metric.split("_")[1]))
    func = {"balanced_accuracy": skm.balanced_accuracy_score, "accuracy": skm.accuracy_score,
            "matthews_corrcoef": skm.matthews_corrcoef}[metric]
    return float(func(y_true, y_pred))


def threshold_scorer(block: dict, *, pos_label=None):
    """The scorer a ``"threshold"`` block chooses its threshold by, on the positive class.

    scikit-learn's ``TunedThresholdClassifierCV`` thresholds the probability (or decision
    score) of the class its scorer names as ``pos_label``, else of the class that sorts
    last. Every scorer made here names the data's positive class (code ``pos_label``,
    default 1), so ``best_threshold_`` is the threshold on the positive class's
    probability whichever class sorts first, and ``predict`` says positive at or above it.

    Parameters
    ----------
    block : dict
        A checked ``"threshold"`` block (:func:`check_threshold`).
    pos_label : int, optional
        The positive class's code.
    """
    from sklearn import metrics as skm

    positive = 1 if pos_label is None else int(pos_label)
    if "cost" in block:
        return cost_scorer(block["cost"], pos_label=positive)
    metric = block["scoring"]
    if metric in ("f1", "precision", "recall", "jaccard"):
        func = {"f1": skm.f1_score, "precision": skm.precision_score,
                "recall": skm.recall_score, "jaccard": skm.jaccard_score}[metric]
        return skm.make_scorer(func, pos_label=positive)
    return skm.make_scorer(label_score, metric=metric, pos_label=positive)


def scorer_for(metric: str, *, pos_label=None):
    """scikit-learn's scorer for ``metric``, with ``pos_label`` for the metrics that have a
    positive class (as :class:`engine.evaluation.metrics.FoldScorer` scores them); the name itself
    when the positive class is scikit-learn's default (code 1)."""
    if pos_label is None or int(pos_label) == 1 or metric not in USES_POSITIVE:
        return metric
    from sklearn import metrics as skm

    if metric == "average_precision":
        return skm.make_scorer(skm.average_precision_score, pos_label=int(pos_label),
                               response_method=("decision_function", "predict_proba"))
    func = {"f1": skm.f1_score, "precision": skm.precision_score,
            "recall": skm.recall_score, "jaccard": skm.jaccard_score}[metric]
    return skm.make_scorer(func, pos_label=int(pos_label))


# ----------------------------------------------------------------------------- models

def constructor_params(params: dict) -> dict:
    """A model's parameters as its constructor takes them (lists of hidden layer sizes as
    tuples, class weights keyed by class code where the key is a number)."""
    out = dict(params)
    if isinstance(out.get("hidden_layer_sizes"), list):
        out["hidden_layer_sizes"] = tuple(out["hidden_layer_sizes"])
    if isinstance(out.get("class_weight"), dict):
        out["class_weight"] = {_maybe_int(k): v for k, v in out["class_weight"].items()}
    return out


def _maybe_int(key):
    try:
        return int(key)
    except (TypeError, ValueError):
        return key


def prefixed_grid(grid, estimator):
    """``grid`` with its names as the pipeline needs them (``model__C``) and its values as
    the constructor takes them (lists of hidden layer sizes as tuples)."""
    prefix = "model__" if hasattr(estimator, "steps") else ""
    grids = [grid] if isinstance(grid, dict) else list(grid)
    out = [{prefix + p: [constructor_params({p: v})[p] for v in values]
            for p, values in g.items()} for g in grids]
    return out[0] if isinstance(grid, dict) else out


def wrap_model(estimator, spec, *, dataset=None):
    """``estimator`` (the model's pipeline) wrapped as its ``tune`` and ``threshold`` ask.

    Parameters
    ----------
    estimator : estimator
        What :func:`engine.evaluation.catalogue.make_pipeline` built for the plain model.
    spec : ModelSpec
    dataset : Dataset, optional
        For the number of classes and the positive class (default: two classes, code 1).

    Raises
    ------
    ValueError
        A threshold on data with more than two classes.
    """
    n_classes = len(dataset.classes) if dataset is not None else 2
    pos_label = dataset.pos_label
    model = estimator
    if spec.tune:
        from sklearn.model_selection import GridSearchCV

        scoring = spec.tune.get("scoring") or default_metric(n_classes)
        model = GridSearchCV(estimator, prefixed_grid(spec.tune["grid"], estimator),
                             scoring=_tune_scorer(spec, scoring, pos_label),
                             cv=inner_cv(spec.tune.get("inner_splits", INNER_SPLITS),
                                         dataset=dataset),
                             refit=True)
    if spec.threshold:
        if n_classes != 2:
            raise EngineError("threshold_two_class_only", {"model": spec.name,
                                                           "n_classes": n_classes})
        from sklearn.model_selection import TunedThresholdClassifierCV

        block = spec.threshold
        scoring = threshold_scorer(block, pos_label=pos_label)
        model = TunedThresholdClassifierCV(model, scoring=scoring,
                                           cv=inner_cv(block.get("inner_splits", INNER_SPLITS),
                                                       dataset=dataset),
                                           random_state=block.get("random_state", 0))
    return model


def _tune_scorer(spec, scoring: str, pos_label=None):
    """The grid search's scorer: the expected cost's from ``tune["cost"]`` (set by
    :func:`with_scoring`), else :func:`scorer_for`."""
    if scoring != COST_METRIC:
        return scorer_for(scoring, pos_label=pos_label)
    if "cost" not in spec.tune:
        raise EngineError("tune_cost_without_costs", {"model": spec.name})
    return cost_scorer(spec.tune["cost"], pos_label=pos_label)


def inner_cv(n_splits: int, *, dataset=None):
    """The inner splitter of ``"tune"`` and ``"threshold"``.

    Parameters
    ----------
    n_splits : int
        The block's ``inner_splits``.
    dataset : Dataset, optional
        With ``groups`` (rows that belong together), the inner folds are grouped too.

    Returns
    -------
    int or StratifiedGroupKFold
        ``n_splits`` itself without groups (scikit-learn's default for ``cv=int``:
        unshuffled stratified k-fold); with groups scikit-learn's unshuffled
        ``StratifiedGroupKFold(n_splits)``, which needs the training rows' groups at fit
        time (:func:`fit_model` routes them).
    """
    if dataset.groups is None:
        return n_splits
    from sklearn.model_selection import StratifiedGroupKFold

    return StratifiedGroupKFold(n_splits=n_splits)


def uses_groups(estimator) -> bool:
    """Whether ``estimator`` (or an estimator it wraps) splits by groups inside its fit:
    a ``GridSearchCV`` or ``TunedThresholdClassifierCV`` built by :func:`wrap_model` for
    data with groups."""
    from sklearn.model_selection import StratifiedGroupKFold

    seen = 0
    while estimator is not None and seen < 10:
        # getattr: a scikit-learn meta-estimator's
        if isinstance(getattr(estimator, "cv", None), StratifiedGroupKFold):
            return True
        # getattr: a scikit-learn meta-estimator's
        estimator, seen = getattr(estimator, "estimator", None), seen + 1
    return False


def fit_model(model, X, y, groups=None):
    """``model.fit(X, y)``, with the rows' ``groups`` passed to its grouped inner splits.

    When ``model`` splits by groups inside its fit (:func:`uses_groups`), it is fitted
    with scikit-learn's metadata routing on, so ``groups`` reaches every inner splitter
    (also through ``TunedThresholdClassifierCV`` or ``CalibratedClassifierCV`` around
    the grid search, which pass each inner fit the groups of its rows). Otherwise
    ``groups`` is not used.

    Parameters
    ----------
    model : estimator
    X, y
        The training rows.
    groups : ndarray, optional
        The group of every training row.

    Returns
    -------
    estimator
        ``model``, fitted.
    """
    if groups is None or not uses_groups(model):
        return model.fit(X, y)
    from sklearn import config_context

    with config_context(enable_metadata_routing=True):
        return model.fit(X, y, groups=np.asarray(groups))


def with_scoring(spec, metric: str, *, costs=None):
    """``spec`` with its ``tune.scoring`` set to ``metric`` when it names none; a grid
    search by the expected cost (:data:`engine.evaluation.costs.COST_METRIC`) also gets ``costs`` as
    its ``tune["cost"]`` (when given and it has none)."""
    from dataclasses import replace

    if not spec.tune:
        return spec
    tune = spec.tune if spec.tune.get("scoring") else {**spec.tune, "scoring": metric}
    if tune["scoring"] == COST_METRIC and costs is not None and "cost" not in tune:
        tune = {**tune, "cost": [list(row) for row in as_costs(costs)]}
    return spec if tune is spec.tune else replace(spec, tune=tune)


def grid_members(spec) -> list:
    """``(label, ModelSpec)`` of every grid member of a tuned model, as a plain model
    (its threshold kept), in ``ParameterGrid`` order; ``[]`` when the model is not tuned
    or its ``optimism`` is off."""
    from dataclasses import replace

    from sklearn.model_selection import ParameterGrid

    if not spec.tune or not spec.tune.get("optimism", True):
        return []
    return [(member_label(combo), replace(spec, params={**spec.params, **combo}, tune=None))
            for combo in ParameterGrid(spec.tune["grid"])]


def fits_per_fold(spec) -> int:
    """Model fits one outer fold of ``spec`` makes: 1 for a plain model; with ``tune``
    ``grid size x inner_splits + 1`` (the inner search and the refit) plus the grid
    members as plain models (``optimism``); ``threshold`` multiplies by its
    ``inner_splits + 1``. Inner fits use part of the training rows; counted as whole."""
    from sklearn.model_selection import ParameterGrid

    search = members = 0
    if spec.tune:
        size = len(ParameterGrid(spec.tune["grid"]))
        search = size * spec.tune.get("inner_splits", INNER_SPLITS) + 1
        members = size if spec.tune.get("optimism", True) else 0
    factor = spec.threshold.get("inner_splits", INNER_SPLITS) + 1 if spec.threshold else 1
    return (search or 1) * factor + members * factor


def member_label(combo: dict) -> str:
    """``"C=1, gamma=0.01"``: a grid member as the tables name it."""
    return ", ".join(f"{p}={_cell(v)}" for p, v in combo.items())


# ----------------------------------------------------------------------------- details

def _jsonable(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


def fit_details(model) -> dict:
    """What a fitted model chose on its training part, as JSON-able values.

    Returns
    -------
    dict
        ``best_threshold`` and ``threshold_score`` (a ``TunedThresholdClassifierCV``'s
        ``best_threshold_`` / ``best_score_``), ``best_params`` and ``best_score`` (a
        grid search's ``best_params_``, names without the pipeline prefix, /
        ``best_score_``); empty for a plain model.
    """
    details: dict[str, Any] = {}
    if hasattr(model, "best_threshold_"):
        details["best_threshold"] = float(model.best_threshold_)
        details["threshold_score"] = float(model.best_score_)
        model = model.estimator_
    if hasattr(model, "best_params_"):
        details["best_params"] = {name.split("__")[-1]: _jsonable(value)
                                  for name, value in model.best_params_.items()}
        details["best_score"] = float(model.best_score_)
    return details


def _cell(value):
    """A chosen value as a table cell: numbers and text as they are, others as JSON."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return json.dumps(_jsonable(value))


def tuning_table(rows: list) -> pd.DataFrame:
    """``tuning.csv`` from ``(model, repeat, fold, details)``: model, repeat, fold, one
    column per tuned parameter (the value chosen on that fold's training part;
    empty where a model does not tune it), inner_score."""
    records, names = [], []
    for model, repeat, fold, details in rows:
        if "best_params" not in details:
            continue
        chosen = {p: _cell(v) for p, v in details["best_params"].items()}
        names += [p for p in chosen if p not in names]
        records.append({"model": model, "repeat": repeat, "fold": fold, **chosen,
                        "inner_score": details["best_score"]})
    columns = ["model", "repeat", "fold", *names, "inner_score"]
    return pd.DataFrame(records, columns=columns)


def thresholds_table(rows: list, *, positive=None) -> pd.DataFrame:
    """``thresholds.csv`` from ``(model, repeat, fold, details)``: model, repeat, fold,
    threshold (on the positive class's probability, or decision score: the model says
    ``positive`` at or above it), inner_score (the threshold's mean score on the inner
    folds), positive_class (``positive``, the class the threshold is about)."""
    positive = _jsonable(positive)
    records = [(model, repeat, fold, d["best_threshold"], d["threshold_score"], positive)
               for model, repeat, fold, d in rows if "best_threshold" in d]
    return pd.DataFrame(records, columns=THRESHOLD_COLUMNS)


def optimism_table(nested: dict, members: dict, metric: str, *, sizes: tuple = (np.nan, np.nan),
                   alpha: float = 0.05, tuning_metrics: Optional[dict] = None) -> pd.DataFrame:
    """``tuning_optimism.csv``: per tuned model, the best grid member's plain CV mean minus
    the nested mean (same outer folds, ``metric``), with the uncertainty of that gap.

    Parameters
    ----------
    nested : dict
        Tuned model name -> its outer fold scores.
    members : dict
        Tuned model name -> ``{member label: its outer fold scores as a plain model}``.
    metric : str
    sizes : (float, float)
        Mean training and test fold sizes of the outer folds.
    alpha : float
        The interval's level is ``1 − alpha`` (the comparison's α).
    tuning_metrics : dict, optional
        Tuned model name -> the metric its grid search chose by (default ``metric``).

    Returns
    -------
    DataFrame
        :data:`OPTIMISM_COLUMNS`: ``optimism`` (best_plain_score − nested_score), then
        ``ci_low``, ``ci_high`` (the corrected-t interval of the paired fold differences,
        best member minus tuned model, over the folds both completed,
        :func:`engine.evaluation.stats.corrected_interval`), ``p_value_two_sided`` (the corrected
        paired t-test of those differences), ``n_folds`` and ``tuning_metric``.
    """
    records = []
    n_train, n_test = sizes
    for model, scores in members.items():
        means = {label: _mean(s) for label, s in scores.items()}
        means = {k: v for k, v in means.items() if np.isfinite(v)}
        nested_mean = _mean(nested[model])
        if not means or not np.isfinite(nested_mean):
            continue
        best = max(means, key=means.__getitem__)
        differences = np.asarray(scores[best], float) - np.asarray(nested[model], float)
        differences = differences[~np.isnan(differences)]
        low, high = corrected_interval(differences, n_train, n_test, alpha=alpha)
        p_value = two_sided(corrected_ttest(differences, n_train, n_test)[1])
        records.append((model, metric, len(scores), best, means[best], nested_mean,
                        means[best] - nested_mean, low, high, p_value, len(differences),
                        (tuning_metrics or {}).get(model) or metric))
    return pd.DataFrame(records, columns=OPTIMISM_COLUMNS)


def optimism_at(table: pd.DataFrame, alpha: float, old_alpha: float) -> pd.DataFrame:
    """``tuning_optimism.csv`` with its interval at level ``1 − alpha`` instead of
    ``1 − old_alpha`` (same centre and standard error; the t quantile changes)."""
    from scipy.stats import t as student_t

    if table.empty or "ci_low" not in table or alpha == old_alpha:
        return table
    table = table.copy()
    df = table["n_folds"].to_numpy(dtype=float) - 1
    with np.errstate(all="ignore"):
        centre = (table["ci_low"] + table["ci_high"]).to_numpy(dtype=float) / 2
        half = ((table["ci_high"] - table["ci_low"]).to_numpy(dtype=float) / 2
                * student_t.ppf(1 - alpha / 2, df) / student_t.ppf(1 - old_alpha / 2, df))
    table["ci_low"], table["ci_high"] = centre - half, centre + half
    return table


def _mean(scores) -> float:
    scores = np.asarray(scores, dtype=float)
    return float(np.nanmean(scores)) if np.isfinite(scores).any() else float("nan")


def optimism_shown(row) -> bool:
    """Whether a ``tuning_optimism.csv`` row shows optimism: its interval lies above 0."""
    low = row.get("ci_low", np.nan) if hasattr(row, "get") else np.nan
    return bool(np.isfinite(low) and low > 0)


def _fields(row) -> dict:
    return {k: (row[k].item() if isinstance(row[k], np.generic) else row[k])
            for k in OPTIMISM_COLUMNS if k in row}


def optimism_notes(table: pd.DataFrame, *, alpha: float = 0.05) -> list:
    """A ``tuning_optimism`` note per row of ``tuning_optimism.csv`` (its field
    ``shown``: whether the interval excludes 0 above it), and a
    ``tuning_metric_differs`` note for a model whose grid search chose by another metric
    than the one compared."""
    notes = []
    for _, row in table.iterrows():
        notes.append(Note("tuning_optimism", fields={**_fields(row),
                                                     "shown": optimism_shown(row),
                                                     "level": 1 - alpha}))
        tuned_by = row.get("tuning_metric")
        if isinstance(tuned_by, str) and tuned_by != row["metric"]:
            notes.append(Note("tuning_metric_differs", fields=
                              {"model": row["model"], "metric": row["metric"],
                               "tuning_metric": tuned_by}))
    return notes
