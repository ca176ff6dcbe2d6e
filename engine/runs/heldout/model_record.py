"""The fields of a loaded model file, checked before anything is predicted with it.

A record (:func:`engine.runs.heldout.saved.model_record`) holds the fitted model and what
predicting needs.  :func:`check_record` refuses, with the coded error ``model_record``
naming the field, a record with other keys, a model of a type the app does not save at
the top, classes that are not 2 or more distinct plain values, feature names or dtypes
that are not what the app writes, and a model whose classes or feature count differ from
the record's, or whose parameters are beyond the app's caps
(:func:`engine.foundation.param_caps.param_cap_problem`: threads, trees, iterations,
layer sizes) -- a file cannot ask predict for a million threads.  Qt-free.
"""
from __future__ import annotations

import re

import numpy as np

from engine.foundation.errors import EngineError
from engine.foundation.param_caps import param_cap_problem

#: The keys of a record, exactly (and :data:`OPTIONAL_KEYS` when present).
RECORD_KEYS = frozenset({"format", "name", "model", "target", "classes", "features",
                         "dtypes", "plain_numeric"})
#: Keys a record may have besides :data:`RECORD_KEYS`: ``id_column`` (a name; files
#: written before it was added have none).
OPTIONAL_KEYS = frozenset({"id_column"})
#: The types a record's ``model`` may be (module of the type, name).
MODEL_TYPES = frozenset({
    ("sklearn.pipeline", "Pipeline"), ("imblearn.pipeline", "Pipeline"),
    ("sklearn.model_selection._search", "GridSearchCV"),
    ("sklearn.model_selection._classification_threshold", "TunedThresholdClassifierCV"),
    ("sklearn.linear_model._logistic", "LogisticRegression"), ("sklearn.svm._classes", "SVC"),
    ("sklearn.neighbors._classification", "KNeighborsClassifier"),
    ("sklearn.ensemble._forest", "RandomForestClassifier"),
    ("sklearn.ensemble._forest", "ExtraTreesClassifier"),
    ("sklearn.ensemble._gb", "GradientBoostingClassifier"),
    ("sklearn.ensemble._hist_gradient_boosting.gradient_boosting",
     "HistGradientBoostingClassifier"),
    ("sklearn.naive_bayes", "GaussianNB"), ("sklearn.tree._classes", "DecisionTreeClassifier"),
    ("sklearn.neural_network._multilayer_perceptron", "MLPClassifier"),
    ("sklearn.discriminant_analysis", "LinearDiscriminantAnalysis"),
    ("sklearn.discriminant_analysis", "QuadraticDiscriminantAnalysis"),
    ("sklearn.linear_model._ridge", "RidgeClassifier"),
    ("sklearn.ensemble._weight_boosting", "AdaBoostClassifier"),
    ("sklearn.dummy", "DummyClassifier")})
#: A feature column's dtype as the app writes it (numbers or text).
DTYPE = re.compile(r"object|u?int(8|16|32|64)|U?Int(8|16|32|64)|[Ff]loat(32|64)")
#: Most classes and features a record may name, and the longest name.
MAX_CLASSES, MAX_FEATURES, MAX_NAME_CHARS = 100_000, 1_000_000, 10_000


def wrong(path: str, field: str, detail: str) -> EngineError:
    """The ``model_record`` error for ``field``."""
    return EngineError("model_record", {"path": path, "field": field, "detail": detail},
                       f"the model file {path} is not a usable saved model: its {field} "
                       f"{detail}")


def check_record(record, path: str, expected_format: str) -> dict:
    """``record`` when every field is as the app writes it.

    Raises
    ------
    EngineError
        ``model_record`` naming the field.
    """
    if not isinstance(record, dict) or not RECORD_KEYS <= set(record) <= \
            RECORD_KEYS | OPTIONAL_KEYS:
        keys = sorted(map(str, record))[:8] if isinstance(record, dict) else []
        raise wrong(path, "record", f"is not the app's record (keys: {', '.join(keys)})")
    if record["format"] != expected_format:
        raise wrong(path, "format", f"is not {expected_format!r}")
    for field in ("name", "target", *(OPTIONAL_KEYS & set(record))):
        _check_name(record[field], path, field)
    if not isinstance(record["plain_numeric"], bool):
        raise wrong(path, "plain_numeric", "is not true or false")
    _check_classes(record["classes"], path)
    _check_features(record["features"], record["dtypes"], path)
    _check_model(record, path)
    return record


def _check_name(value, path: str, field: str) -> None:
    if not isinstance(value, str) or len(value) > MAX_NAME_CHARS:
        raise wrong(path, field, f"is not a name of at most {MAX_NAME_CHARS:,} characters")


def _check_classes(classes, path: str) -> None:
    plain = (str, int, float)
    if not isinstance(classes, list) or not 2 <= len(classes) <= MAX_CLASSES or \
            not all(isinstance(c, plain) and not isinstance(c, bool) for c in classes):
        raise wrong(path, "classes", f"are not a list of 2 to {MAX_CLASSES:,} labels")
    if len(set(map(str, classes))) != len(classes):
        raise wrong(path, "classes", "repeat a label")
    if any(isinstance(c, str) and len(c) > MAX_NAME_CHARS for c in classes):
        raise wrong(path, "classes", f"have a label over {MAX_NAME_CHARS:,} characters")


def _check_features(features, dtypes, path: str) -> None:
    if not isinstance(features, list) or not 1 <= len(features) <= MAX_FEATURES:
        raise wrong(path, "features", f"are not a list of 1 to {MAX_FEATURES:,} columns")
    for name in features:
        _check_name(name, path, "features")
    if len(set(features)) != len(features):
        raise wrong(path, "features", "repeat a column")
    if not isinstance(dtypes, list) or len(dtypes) != len(features):
        raise wrong(path, "dtypes", "are not one type per feature column")
    bad = [t for t in dtypes if not isinstance(t, str) or not DTYPE.fullmatch(t)]
    if bad:
        raise wrong(path, "dtypes", f"include {str(bad[0])[:40]!r}, not a type the app writes")


def _check_model(record: dict, path: str) -> None:
    model = record["model"]
    kind = (type(model).__module__, type(model).__name__)
    if kind not in MODEL_TYPES:
        raise wrong(path, "model", f"is a {'.'.join(kind)}, not a model the app saves")
    try:
        classes = np.asarray(model.classes_)
    except Exception:  # noqa: BLE001 - any failure: the model is not fitted as saved
        raise wrong(path, "model", "has no classes (it is not fitted)") from None
    if classes.shape != (len(record["classes"]),) or \
            not np.array_equal(classes, np.arange(len(record["classes"]))):
        raise wrong(path, "model", f"predicts {classes.size} class code(s), not the "
                                   f"{len(record['classes'])} classes of the record")
    width = getattr(model, "n_features_in_", None)  # getattr: a scikit-learn estimator
    if width is not None and width != len(record["features"]):
        raise wrong(path, "model", f"takes {width} columns, not the "
                                   f"{len(record['features'])} features of the record")
    for estimator in _estimators(model):
        for pname, value in estimator.get_params(deep=False).items():
            problem = param_cap_problem(type(estimator).__name__, pname, value)
            if problem:
                raise wrong(path, "model", f"has a parameter beyond the app's caps: {problem}")


def _estimators(model) -> list:
    """``model`` and the estimators it wraps (pipeline steps, the searched and the
    chosen estimator, a threshold's estimator), at most 100."""
    found: list = []
    stack = [model]
    while stack and len(found) < 100:
        item = stack.pop()
        if not hasattr(item, "get_params"):
            continue
        found.append(item)
        # getattr: a scikit-learn Pipeline
        stack += [step for _, step in getattr(item, "steps", [])]
        # getattr: a scikit-learn meta-estimator's part
        stack += [getattr(item, key, None) for key in ("estimator", "estimator_",
                                                        "best_estimator_")]
    return found
