"""The model catalogue: estimator names -> scikit-learn classes, parameters, grids, pipelines.

Only the classes listed in :data:`CATALOGUE` can ever be built: an experiment file
names an estimator, it never names code to import, so a shared file cannot run code.
Modules are imported on first use, so a headless run imports only what it needs.
"""
from __future__ import annotations

import functools
import importlib
import inspect
import itertools
import json
import math
import re
from dataclasses import dataclass, field, replace
from typing import Any, Optional

from engine.input.csv_values import visible
from engine.input.imbalance import check_resample, make_sampler, resampling_pipeline
from engine.evaluation.metrics import check_metric_names
from engine.evaluation.param_help import documented_default, parameter_help, word_choices
from engine.foundation.errors import EngineError
from engine.foundation.param_caps import MAX_MODEL_NAME_CHARS, param_cap_problem, setting_problem
from engine.foundation.schema import printable, readable_path, show
from engine.evaluation.tuning import INNER_SPLITS, check_cost, constructor_params, wrap_model

#: name -> (module, one-line description)
CATALOGUE = {
    "LogisticRegression": ("sklearn.linear_model", "Linear model of the log-odds (ridge penalty)"),
    "SVC": ("sklearn.svm", "Support vector classifier (linear, polynomial or RBF kernel)"),
    "KNeighborsClassifier": ("sklearn.neighbors", "Vote of the k nearest training rows"),
    "RandomForestClassifier": ("sklearn.ensemble", "Average of many randomized decision trees"),
    "ExtraTreesClassifier": ("sklearn.ensemble", "Extremely randomized trees"),
    "GradientBoostingClassifier": ("sklearn.ensemble", "Boosted decision trees"),
    "HistGradientBoostingClassifier": ("sklearn.ensemble",
                                       "Fast histogram-based boosted trees"),
    "GaussianNB": ("sklearn.naive_bayes", "Gaussian naive Bayes"),
    "DecisionTreeClassifier": ("sklearn.tree", "A single decision tree"),
    "MLPClassifier": ("sklearn.neural_network", "Multi-layer perceptron (neural network)"),
    "LinearDiscriminantAnalysis": ("sklearn.discriminant_analysis",
                                   "Linear discriminant analysis"),
    "QuadraticDiscriminantAnalysis": ("sklearn.discriminant_analysis",
                                      "Quadratic discriminant analysis"),
    "RidgeClassifier": ("sklearn.linear_model", "Ridge regression on the class labels"),
    "AdaBoostClassifier": ("sklearn.ensemble", "Adaptive boosting of shallow trees"),
    "DummyClassifier": ("sklearn.dummy", "Baseline that ignores the features"),
}

#: Estimators whose results change when a feature is rescaled (distances, penalties,
#: gradient steps): the GUI adds a StandardScaler when one is added from the catalogue.
#: Trees, naive Bayes and discriminant analysis are unaffected by scaling.
SCALE_SENSITIVE = frozenset({"LogisticRegression", "SVC", "KNeighborsClassifier",
                             "MLPClassifier", "RidgeClassifier"})


def is_scale_sensitive(name: str) -> bool:
    """True when the estimator's results depend on the scale of the features."""
    return name in SCALE_SENSITIVE


def takes_random_state(name: str) -> bool:
    """True when the estimator has a ``random_state`` parameter."""
    return "random_state" in inspect.signature(estimator_class(name).__init__).parameters


def takes_class_weight(name: str) -> bool:
    """True when the estimator has a ``class_weight`` parameter (``"balanced"`` weights
    each class by the inverse of its share of the training rows)."""
    return "class_weight" in inspect.signature(estimator_class(name).__init__).parameters


def seed_entry(entry: dict, random_state) -> dict:
    """``entry`` with ``params.random_state`` set to ``random_state`` when its estimator
    takes one and neither ``params`` nor ``grid`` sets it (entries are left as they are
    when ``random_state`` is None or the estimator is unknown)."""
    if random_state is None or not isinstance(entry, dict):
        return entry
    estimator, params = entry.get("estimator"), entry.get("params") or {}
    if estimator not in CATALOGUE or not isinstance(params, dict) or "random_state" in params:
        return entry
    grids = entry.get("grid") or []
    grids = [grids] if isinstance(grids, dict) else grids
    if any(isinstance(g, dict) and "random_state" in g for g in grids):
        return entry
    if not takes_random_state(estimator):
        return entry
    return {**entry, "params": {**params, "random_state": random_state}}


#: Parameters that are objects rather than values and cannot be set from a file.
_OBJECT_PARAMS = {"estimator", "base_estimator", "estimators", "callbacks", "memory"}


def estimator_class(name: str):
    """The scikit-learn class for a catalogue name (imported on first use)."""
    if name not in CATALOGUE:
        raise EngineError("unknown_estimator", {"estimator": name, "known": list(CATALOGUE),
                                                "place": None})
    module = importlib.import_module(CATALOGUE[name][0])
    return getattr(module, name)


@dataclass(frozen=True)
class ParamSpec:
    """One constructor parameter, for the GUI's editors and for validation."""

    name: str
    default: Any
    kind: str          # "bool", "int", "float", "str", "none", "other"
    doc: str = ""      # "(type) first sentence", plain text (engine.evaluation.param_help)
    choices: tuple = ()   # the words its documented type offers, e.g. SVC's kernels


def parameter_specs(name: str) -> list:
    """The settable parameters of an estimator with defaults and a short description."""
    return list(_parameter_specs(name))


@functools.lru_cache(maxsize=None)
def _parameter_specs(name: str) -> tuple:
    """:func:`parameter_specs`, read once per estimator (parsing the docstring took
    ~2 ms, for every model, every time a setup was checked)."""
    cls = estimator_class(name)
    docs = parameter_help(cls)
    specs = []
    for pname, param in inspect.signature(cls.__init__).parameters.items():
        if pname == "self" or param.kind in (param.VAR_KEYWORD, param.VAR_POSITIONAL):
            continue
        if pname in _OBJECT_PARAMS:
            continue
        default = param.default if param.default is not param.empty else None
        kind, doc = docs.get(pname, ("", ""))
        if isinstance(default, str) and default in ("deprecated", "warn"):
            default = documented_default(kind, default)
        specs.append(ParamSpec(pname, default, _kind_of(default), doc, word_choices(kind)))
    return tuple(specs)


def _kind_of(value) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if value is None:
        return "none"
    return "other"


# ----------------------------------------------------------------------------- models

@dataclass(frozen=True)
class ModelSpec:
    """One model of an experiment: a catalogue estimator, its parameters, optional scaling.

    ``tune`` (a grid searched inside each outer training fold) and ``threshold`` (a
    decision threshold chosen there) are the checked blocks of :mod:`engine.evaluation.tuning`, or
    None. ``resample`` (``"over"``, ``"under"``, ``"smote"`` or None) resamples the training
    rows of every fold with an imbalanced-learn sampler seeded ``resample_seed``
    (:mod:`engine.input.imbalance`): the model's own ``random_state``, else the
    cross-validation's.
    """

    name: str
    estimator: str
    params: dict = field(default_factory=dict)
    scale: bool = False
    tune: Any = None
    threshold: Any = None
    resample: Optional[str] = None
    resample_seed: Optional[int] = None

    def to_json(self) -> dict:
        entry: dict[str, Any] = {"name": self.name, "estimator": self.estimator,
                                 "params": dict(self.params)}
        if self.scale:
            entry["scale"] = True
        for key in ("tune", "threshold"):
            if getattr(self, key):
                entry[key] = dict(getattr(self, key))
        if self.resample:
            entry["resample"] = self.resample
        return entry


def grid_name(combo: dict) -> str:
    """Name of a grid point as in the scikit-learn example: values joined by ``_``."""
    return "_".join(str(v) for v in combo.values())


#: At most this many models in one experiment (grids expanded; counted before a grid is
#: expanded).  The runner's guard (:mod:`engine.runs.guards`) uses this same constant.
MAX_MODELS = 20_000


def expand_model(entry: dict, *, path: tuple = (), random_state=None) -> list:
    """Expand one ``models`` entry of an experiment file into :class:`ModelSpec` objects.

    A ``grid`` (scikit-learn ``param_grid`` form: a dict or a list of dicts of lists)
    gives one model per combination in ``ParameterGrid`` order, merged over
    ``params`` and named ``"_".join(str(v) for v in combo.values())``, or
    ``"<name>_<that>"`` when the entry has a name.

    Parameters
    ----------
    entry : dict
    path : tuple
        The entry's place in the experiment file (``("models", 2)``): messages then name
        the place of the wrong value (``models[2].params.C: ...``).
    random_state : int, optional
        The cross-validation's seed: a ``"resample"`` entry's sampler gets the model's
        own ``random_state`` (a whole number) or else this one.
    """
    where = readable_path(path) if path else "model entry"
    allowed = {"name", "estimator", "params", "grid", "scale", "tune", "threshold", "resample"}
    unknown = sorted(set(entry) - allowed)
    if unknown:
        raise EngineError("model_keys_unknown", {"place": where, "unknown": unknown,
                                           "allowed": sorted(allowed)})
    if "estimator" not in entry:
        raise EngineError("model_no_estimator", {"place": where})
    estimator = entry["estimator"]
    try:
        estimator_class(estimator)
    except EngineError as exc:
        place = readable_path(path + ("estimator",)) if path else None
        raise EngineError(exc.code, {**exc.fields, "place": place}) from None
    params = entry.get("params") or {}
    if not isinstance(params, dict):
        raise EngineError("params_not_object",
                          {"place": _place(path, "params", "model " + str(estimator))})
    scale = bool(entry.get("scale", False))
    resample = entry.get("resample")
    if resample is not None:
        check_resample(resample, where=_place(path, "resample", f"model {estimator}"))
    places = {p: path + ("params", p) for p in params} if path else {}
    extra = _inside_folds(entry, path)
    grid = entry.get("grid")
    if not grid:
        name = entry.get("name") or estimator
        return [validated(_with_resample(ModelSpec(str(name), estimator, dict(params), scale,
                                                   **extra), resample, random_state),
                                                   places=places)]
    prefix = entry.get("name")
    specs = []
    for combo, combo_path in grid_points(grid, path, str(estimator)):
        name = grid_name(combo)
        if prefix:
            name = f"{prefix}_{name}"
        at = {**places, **{p: combo_path + (p,) for p in combo}} if path else {}
        spec = ModelSpec(name, estimator, {**params, **combo}, scale, **extra)
        specs.append(validated(_with_resample(spec, resample, random_state), places=at))
    return specs


def _inside_folds(entry: dict, path: tuple) -> dict:
    """The checked ``tune`` and ``threshold`` blocks of an entry (:mod:`engine.evaluation.tuning`)."""
    out = {}
    if entry.get("tune") is not None:
        out["tune"] = check_tune(entry["tune"], entry, path=path)
    if entry.get("threshold") is not None:
        out["threshold"] = check_threshold(entry["threshold"], path=path)
    return out


def _with_resample(spec: ModelSpec, resample, random_state) -> ModelSpec:
    """``spec`` resampled by ``resample`` (None: unchanged), its sampler seeded by the
    model's own ``random_state`` when that is a whole number, else ``random_state``."""
    if resample is None:
        return spec
    own = spec.params.get("random_state")
    seed = own if isinstance(own, int) and not isinstance(own, bool) else random_state
    return replace(spec, resample=resample, resample_seed=seed)


def _place(path: tuple, key: str, fallback: str) -> str:
    return readable_path(path + (key,)) if path else fallback


def grid_points(grid, path: tuple, estimator: str) -> list:
    """``(combination, place of its grid)`` in ``ParameterGrid`` order."""
    from sklearn.model_selection import ParameterGrid

    grids = [(grid, path + ("grid",))] if isinstance(grid, dict) else \
        [(g, path + ("grid", j)) for j, g in enumerate(grid)]
    where = _place(path, "grid", f"model {estimator}")
    try:
        sizes = [len(ParameterGrid(g)) for g, _ in grids]
    except (TypeError, ValueError) as exc:
        raise EngineError("bad_grid", {"place": where, "detail": str(exc)}) from None
    if sum(sizes) > MAX_MODELS:
        raise EngineError("grid_too_large", {"place": where, "n_models": sum(sizes),
                                             "limit": MAX_MODELS})
    return [(combo, place) for g, place in grids for combo in ParameterGrid(g)]


# ----------------------------------------------------------------------------- tune, threshold

#: Metrics a threshold can be chosen by: they score predicted labels (ranking metrics such
#: as ROC AUC do not depend on the threshold).
THRESHOLD_SCORINGS = ("balanced_accuracy", "accuracy", "f1", "precision", "recall", "jaccard",
                      "matthews_corrcoef", "f1_macro", "f1_weighted")



def _where(path: tuple, *keys) -> str:
    return readable_path(path + keys) if path else ".".join(map(str, keys))


def _inner_splits(block: dict, path: tuple, key: str) -> int:
    value = block.get("inner_splits", INNER_SPLITS)
    problem = setting_problem("inner_splits", value)
    if problem:
        raise EngineError("inner_splits_invalid", {"place": _where(path, key, "inner_splits"),
                                                   "problem": problem})
    return value


def _check_keys(block, here: str, example: str, allowed: tuple) -> None:
    """``block`` is an object with only the ``allowed`` keys."""
    if not isinstance(block, dict):
        raise EngineError("model_block_not_object", {"place": here, "example": example,
                                            "got": show(block)})
    unknown = sorted(set(block) - set(allowed))
    if unknown:
        raise EngineError("model_keys_unknown", {"place": here, "unknown": unknown,
                                           "allowed": list(allowed)})


def check_tune(tune, entry: dict, *, path: tuple = ()) -> dict:
    """The ``"tune"`` block of a model entry, checked, with its defaults filled in.

    Every combination of the grid is checked as the model's parameters are (by
    :func:`validated`); messages name the place (``models[0].tune.grid.C:
    ...``).

    Parameters
    ----------
    tune : dict
    entry : dict
        The model entry (its estimator, params, scale and grid).
    path : tuple
        The entry's place in the experiment file.

    Returns
    -------
    dict
        ``grid``, ``inner_splits``, ``scoring`` (None: the primary metric) and ``optimism``.
    """
    here = _where(path, "tune")
    _check_keys(tune, here, '{"grid": {"C": [0.1, 1, 10]}}',
                ("grid", "inner_splits", "optimism", "scoring"))
    grid = tune.get("grid")
    if not grid or not isinstance(grid, (dict, list)):
        raise EngineError("tune_grid_not_object", {"place": here, "got": show(grid)})
    outer = entry.get("grid") or {}
    outer_keys = set().union(*[g for g in ([outer] if isinstance(outer, dict) else outer)
                               if isinstance(g, dict)]) if outer else set()
    params, scale = entry.get("params") or {}, bool(entry.get("scale", False))
    estimator = entry["estimator"]
    for combo, place in grid_points(grid, path + ("tune",), str(estimator)):
        both = sorted(outer_keys & set(combo))
        if both:
            raise EngineError("tuned_and_grid", {"place": here, "parameters": list(both)})
        at = {p: place + (p,) for p in combo} if path else {}
        validated(ModelSpec("tuned", estimator, {**params, **combo}, scale), places=at)
    scoring = tune.get("scoring")
    if scoring is not None:
        check_metric_names([scoring], where=f"{here}.scoring", indexed=False)
    optimism = tune.get("optimism", True)
    if not isinstance(optimism, bool):
        raise EngineError("tune_optimism_not_boolean", {"place": f"{here}.optimism",
                                               "got": show(optimism)})
    return {"grid": grid, "inner_splits": _inner_splits(tune, path, "tune"),
            "scoring": scoring, "optimism": optimism}


def check_threshold(threshold, *, path: tuple = ()) -> dict:
    """The ``"threshold"`` block of a model entry, checked, with its defaults filled in.

    Returns
    -------
    dict
        ``scoring`` (a name of :data:`THRESHOLD_SCORINGS`) or ``cost`` (a 2x2 list of
        finite numbers), ``inner_splits`` and ``random_state``.
    """
    here = _where(path, "threshold")
    _check_keys(threshold, here, '{"scoring": "balanced_accuracy"}',
                ("cost", "inner_splits", "random_state", "scoring"))
    if ("scoring" in threshold) == ("cost" in threshold):
        raise EngineError("threshold_scoring_or_cost", {"place": here})
    out = {"inner_splits": _inner_splits(threshold, path, "threshold"),
           "random_state": threshold.get("random_state", 0)}
    seed = out["random_state"]
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise EngineError("threshold_seed_invalid", {"place": f"{here}.random_state", "got": show(seed)})
    if "scoring" in threshold:
        if threshold["scoring"] not in THRESHOLD_SCORINGS:
            raise EngineError("threshold_scoring", {"place": f"{here}.scoring",
                                                    "got": show(threshold["scoring"]),
                                                    "allowed": list(THRESHOLD_SCORINGS)})
        out["scoring"] = threshold["scoring"]
    else:
        out["cost"] = check_cost(threshold["cost"], where=f"{here}.cost")
    return out


_SKLEARN_CHECK = re.compile(r"The '(\w+)' parameter of (\w+) must be (.+?)\. Got .* instead\.?$",
                            re.S)


def validated(spec: ModelSpec, *, places: dict | None = None) -> ModelSpec:
    """Check a model's parameters; raise a ValueError naming the bad one and the allowed ones.

    Parameters
    ----------
    spec : ModelSpec
    places : dict, optional
        Parameter name -> its place in the experiment file (a path tuple), for messages;
        without one a message names the model.
    """
    def at(pname) -> str:
        place = (places or {}).get(pname)
        return readable_path(place) if place else f"model {spec.name!r}"

    key = _validation_key(spec)
    if key in _VALIDATED:
        return spec
    cls = estimator_class(spec.estimator)
    allowed = [p.name for p in parameter_specs(spec.estimator)]
    for pname, value in spec.params.items():
        if pname not in allowed:
            raise EngineError("unknown_parameter", {"place": at(pname), "parameter": pname,
                                                    "estimator": spec.estimator,
                                                    "allowed": allowed})
        if isinstance(value, (dict, list)) and pname not in ("hidden_layer_sizes", "class_weight",
                                                              "priors"):
            raise EngineError("parameter_not_single", {"place": at(pname), "parameter": pname,
                                                       "got": show(value)})
        if isinstance(value, float) and not math.isfinite(value):
            raise EngineError("parameter_not_finite", {"place": at(pname), "parameter": pname})
        problem = param_cap_problem(spec.estimator, pname, value)
        if problem:
            raise EngineError("section_setting_invalid", {"place": at(pname), "problem": problem})
    try:
        estimator = cls(**constructor_params(spec.params))
        estimator._validate_params()
    except (TypeError, ValueError) as exc:
        raise EngineError("parameter_invalid", _sklearn_fields(str(exc), spec, at)) from None
    if len(_VALIDATED) >= _VALIDATED_MAX:
        _VALIDATED.clear()
    _VALIDATED.add(key)
    return spec


#: Estimator and parameters already found valid: the app checks the same models each
#: time the setup is read (Run, the size line), and scikit-learn's check of 20 models
#: takes about 10 ms -- a visible pause on the window's thread.
_VALIDATED: set = set()
_VALIDATED_MAX = 10_000


def _validation_key(spec: ModelSpec) -> tuple:
    """The estimator and its parameters as a hashable value (types kept: 1, 1.0 and
    True differ)."""
    return spec.estimator, json.dumps(spec.params, sort_keys=True, default=repr)


def _sklearn_fields(text: str, spec: ModelSpec, at) -> dict:
    """The fields of scikit-learn's parameter check (``parameter_invalid``): the
    parameter's place and the value shown as the file writes it, or (a check the
    pattern does not read) scikit-learn's text in one line."""
    match = _SKLEARN_CHECK.match(text.strip())
    fields = {"model": spec.name, "place": None, "parameter": None, "estimator": None,
              "expected": None, "got": None, "detail": printable(text)}
    if not match or match.group(1) not in spec.params:
        return fields
    pname, cls, expected = match.groups()
    return {**fields, "place": at(pname), "parameter": pname, "estimator": cls,
            "expected": printable(expected), "got": show(spec.params[pname])}


def check_unique_names(specs: list) -> None:
    """Names must be unique, printable (a control character could break a table) and at
    most :data:`engine.foundation.param_caps.MAX_MODEL_NAME_CHARS` characters long."""
    seen = set()
    for spec in specs:
        if len(spec.name) > MAX_MODEL_NAME_CHARS:
            raise EngineError("model_name_long", {"start": printable(spec.name[:40]),
                                                  "n_chars": len(spec.name),
                                                  "limit": MAX_MODEL_NAME_CHARS})
        if visible(spec.name) != spec.name:
            raise EngineError("model_name_control", {"shown": visible(spec.name)})
        if spec.name in seen:
            raise EngineError("model_name_twice", {"name": spec.name})
        seen.add(spec.name)


def make_estimator(spec: ModelSpec):
    """A fresh, unfitted classifier for the model (without preprocessing)."""
    return estimator_class(spec.estimator)(**constructor_params(spec.params))


def make_pipeline(spec: ModelSpec, *, dataset=None, inside_folds: bool = True):
    """A fresh, unfitted scikit-learn estimator for the model, with what the data needs.

    Categorical columns are one-hot encoded and missing values imputed inside the
    pipeline (fitted on each training fold only); ``scale`` adds a StandardScaler.
    A plain numeric data set with no scaling gets the bare estimator. ``resample``
    makes it imbalanced-learn's ``Pipeline`` with the sampler after the preparation and
    before the estimator (:func:`engine.input.imbalance.resampling_pipeline`). A model with
    ``tune`` or ``threshold`` is wrapped in scikit-learn's ``GridSearchCV`` /
    ``TunedThresholdClassifierCV`` (:func:`engine.evaluation.tuning.wrap_model`) unless
    ``inside_folds`` is False.
    """
    plain = _plain_pipeline(spec, dataset)
    if inside_folds and (spec.tune or spec.threshold):
        return wrap_model(plain, spec, dataset=dataset)
    return plain


def _plain_pipeline(spec: ModelSpec, dataset=None):
    estimator = make_estimator(spec)
    steps = []
    needs_prep = dataset is not None and not dataset.is_plain_numeric()
    if needs_prep:
        steps.append(("prepare", make_preprocessor(dataset, scale=spec.scale)))
    elif spec.scale:
        from sklearn.preprocessing import StandardScaler

        steps.append(("scale", StandardScaler()))
    if spec.resample:
        return resampling_pipeline(steps, make_sampler(spec.resample,
                                                       random_state=spec.resample_seed),
                                   estimator)
    if not steps:
        return estimator
    from sklearn.pipeline import Pipeline

    return Pipeline(steps + [("model", estimator)])


def make_preprocessor(dataset, *, scale: bool = False):
    """Column-wise preparation: impute + (scale) numbers, impute + one-hot categories."""
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    numeric, categorical = dataset.numeric_columns, dataset.categorical_columns
    transformers = []
    if numeric:
        steps = [("impute", SimpleImputer(strategy="median"))]
        if scale:
            steps.append(("scale", StandardScaler()))
        transformers.append(("numbers", Pipeline(steps), numeric))
    if categorical:
        transformers.append(("categories", Pipeline([
            ("impute", SimpleImputer(strategy="most_frequent")),
            ("one_hot", OneHotEncoder(handle_unknown="ignore", sparse_output=False)),
        ]), categorical))
    return ColumnTransformer(transformers)


def split_pipeline(estimator) -> tuple:
    """(preprocessing or None, final classifier) of what :func:`make_pipeline` built (a
    sampler, which acts in ``fit`` only, is not part of the preprocessing)."""
    if hasattr(estimator, "steps"):
        from sklearn.pipeline import Pipeline

        steps = [step for step in estimator.steps[:-1] if step[0] != "resample"]
        prep = Pipeline(steps) if steps else None
        return prep, estimator.steps[-1][1]
    return None, estimator


def starter_models(random_state: int = 0) -> list:
    """A fair first set of models for one's own data (experiment ``models`` entries): a
    scaled logistic regression, a random forest, gradient boosting, k nearest neighbours
    (scaled) and Gaussian naive Bayes, the random ones seeded with ``random_state``. All of
    them give probabilities, so every metric applies, on two classes or more."""
    return [
        {"name": "logistic_regression", "estimator": "LogisticRegression", "scale": True,
         "params": {"max_iter": 1000}},
        {"name": "random_forest", "estimator": "RandomForestClassifier",
         "params": {"random_state": random_state}},
        {"name": "gradient_boosting", "estimator": "HistGradientBoostingClassifier",
         "params": {"random_state": random_state}},
        {"name": "knn", "estimator": "KNeighborsClassifier", "scale": True, "params": {}},
        {"name": "naive_bayes", "estimator": "GaussianNB", "params": {}},
    ]


#: The name of :func:`starter_models` among the presets.
STARTER_PRESET = "Fair starter set (five kinds of model)"


def presets() -> dict:
    """Ready-made model lists (experiment ``models`` entries) for the GUI."""
    return {
        STARTER_PRESET: starter_models(),
        "SVC kernels (scikit-learn example)": [
            {"estimator": "SVC", "params": {"random_state": 0},
             "grid": [{"kernel": ["linear"]}, {"kernel": ["poly"], "degree": [2, 3]},
                      {"kernel": ["rbf"]}]},
        ],
        "Quick baseline trio": [
            {"name": "logistic", "estimator": "LogisticRegression", "scale": True,
             "params": {"max_iter": 1000}},
            {"name": "random_forest", "estimator": "RandomForestClassifier",
             "params": {"random_state": 0}},
            {"name": "naive_bayes", "estimator": "GaussianNB", "params": {}},
        ],
        "Six common classifiers": [
            {"name": "logistic", "estimator": "LogisticRegression", "scale": True,
             "params": {"max_iter": 1000}},
            {"name": "svc_rbf", "estimator": "SVC", "scale": True, "params": {"random_state": 0}},
            {"name": "knn", "estimator": "KNeighborsClassifier", "scale": True, "params": {}},
            {"name": "random_forest", "estimator": "RandomForestClassifier",
             "params": {"random_state": 0}},
            {"name": "gradient_boosting", "estimator": "GradientBoostingClassifier",
             "params": {"random_state": 0}},
            {"name": "naive_bayes", "estimator": "GaussianNB", "params": {}},
        ],
    }


def expand_models(entries: list, *, random_state=None) -> list:
    """Expand every ``models`` entry and check that names are unique.

    Messages name the entry's place in the experiment file (``models[2].params.C: ...``).
    ``random_state`` (the cross-validation's seed) seeds the samplers of ``"resample"``
    entries whose model has no ``random_state`` of its own.
    """
    if not entries:
        raise EngineError("no_models")
    n_models = count_models(entries)
    if n_models > MAX_MODELS:
        raise EngineError("too_many_models", {"n_models": n_models, "limit": MAX_MODELS})
    specs = list(itertools.chain.from_iterable(
        expand_model(e, path=("models", i), random_state=random_state) for i,
        e in enumerate(entries)))
    check_unique_names(specs)
    return specs


def count_models(entries: list) -> int:
    """Models the ``models`` entries make once their grids are expanded, counted without
    expanding them (a malformed entry counts 1; :func:`expand_model` reports it).

    Parameters
    ----------
    entries : list
        The ``models`` entries of an experiment file.

    Returns
    -------
    int
    """
    total = 0
    for entry in entries:
        grid = entry.get("grid") if isinstance(entry, dict) else None
        grids = [grid] if isinstance(grid, dict) else grid if isinstance(grid, list) else []
        sizes = [math.prod(len(v) if isinstance(v, (list, tuple)) else 1 for v in g.values())
                 for g in grids if isinstance(g, dict)]
        total += sum(sizes) if sizes else 1
    return total
