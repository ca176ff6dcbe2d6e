"""The keys of the result store: what makes one fit the same fit as another.

A fit's key (:func:`fit_keys`) is the SHA-256 of a canonical JSON record of everything
its numbers depend on: the prepared data (:func:`data_fingerprint`), the model's full
specification without its name (:func:`model_record`), the split (scheme, folds, seed,
repeat, fold and the test rows themselves), the metrics asked, the scikit-learn version,
the store's format and the fields a fit records (:class:`engine.evaluation.cv.FoldFit`). The number of
repeats is not part of it: every scheme draws repeat *i* the same way whatever the number
of repeats, so adding repeats reuses the earlier ones (the hash of the test rows checks it).
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Optional

import numpy as np
import pandas as pd

from engine.evaluation.costs import COST_METRIC, as_costs
from engine.evaluation.cv import FoldFit, split_label

#: Bumped when what a stored fit means changes (how pipelines are built, how a fit is
#: scored): every key changes with it, so no older fit is reused. 2: with groups, tuned
#: and thresholded models split their training part by groups too (same data and model
#: record as before, different numbers). 3: thresholds are on the positive class's
#: probability whichever class sorts first, and group codes follow the sorted values of
#: the groups column (scikit-learn's order), which changes grouped folds.
KEY_FORMAT = 3


def canonical_json(value) -> str:
    """``value`` as JSON with sorted keys and no spaces (the same text for equal values)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      default=_plain)


def _plain(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    raise TypeError(f"{type(value).__name__} is not JSON-able")


def data_fingerprint(dataset) -> str:
    """SHA-256 of the prepared data: features (names, types, values), class codes, class
    labels, positive class and groups.

    Parameters
    ----------
    dataset : engine.input.data.Dataset

    Returns
    -------
    str
        64 hex digits. Numeric columns are hashed as their bytes (1,000,000 rows by 20
        columns take about a quarter of a second); other columns through
        ``pandas.util.hash_pandas_object``.
    """
    digest = hashlib.sha256()
    X = dataset.X
    digest.update(canonical_json({
        "columns": [str(c) for c in X.columns], "dtypes": [str(t) for t in X.dtypes],
        "rows": int(len(X)), "classes": [str(c) for c in dataset.classes],
        "class_types": [type(c).__name__ for c in dataset.classes],
        "pos_label": dataset.pos_label,
        "groups": dataset.groups is not None}).encode())
    for name in X.columns:
        digest.update(_column_bytes(X[name]))
    digest.update(_array_bytes(np.asarray(dataset.y, dtype=np.int64)))
    groups = dataset.groups
    if groups is not None:
        digest.update(_array_bytes(np.asarray(groups, dtype=np.int64)))
    return digest.hexdigest()


def _column_bytes(column: pd.Series) -> memoryview:
    if column.dtype.kind in "biufc" and not isinstance(column.dtype, pd.CategoricalDtype):
        return _array_bytes(column.to_numpy())
    return _array_bytes(pd.util.hash_pandas_object(column, index=False).to_numpy())


def _array_bytes(array: np.ndarray) -> memoryview:
    return np.ascontiguousarray(array).data.cast("B")


def model_record(spec) -> dict:
    """The model's specification without its name: ``ModelSpec.to_json()`` minus
    ``"name"`` (estimator, params, scale and whatever else a model entry holds)."""
    record = dict(spec.to_json())
    record.pop("name", None)
    return record


def split_records(splits, config) -> list:
    """What each split contributes to a key: scheme, folds, seed, repeat and fold (from
    1) and the SHA-256 of its test rows."""
    records = []
    for number, (_, test) in enumerate(splits):
        repeat, fold = split_label(number, config.n_splits)
        test_hash = hashlib.sha256(_array_bytes(np.asarray(test, dtype=np.int64))).hexdigest()
        records.append({"scheme": config.scheme, "n_splits": config.n_splits,
                        "random_state": config.random_state, "repeat": repeat,
                        "fold": fold, "test_rows": test_hash})
    return records


def environment_record(fit_class=None) -> dict:
    """The scikit-learn version, the key format and the fields a fit records."""
    import sklearn

    if fit_class is None:
        fit_class = FoldFit
    return {"sklearn": sklearn.__version__, "format": KEY_FORMAT,
            "fit_fields": [f.name for f in dataclasses.fields(fit_class)]}


def fit_keys(dataset, models, config, metrics, splits, tasks,
             *, data_key: Optional[str] = None, costs=None) -> list:
    """The store key of every ``(model, split)`` task of a run, in task order.

    Parameters
    ----------
    dataset : engine.input.data.Dataset
    models : list of ModelSpec
    config : engine.evaluation.cv.CVConfig
    metrics : list of str
    splits : list of (ndarray, ndarray)
        :func:`engine.evaluation.cv.make_splits`.
    tasks : list of (int, int)
        ``(model index, split number)``.
    data_key : str, optional
        :func:`data_fingerprint` of ``dataset``, when already known.
    costs : 2x2 nested sequence, optional
        The costs the expected-cost metric scores by: part of the key when that metric is
        among ``metrics`` (a changed cost is a new fit), left out otherwise.

    Returns
    -------
    list of str
        64 hex digits each; equal keys mean the same fit.
    """
    record = {"data": data_key or data_fingerprint(dataset), "metrics": list(metrics),
              **environment_record()}
    if COST_METRIC in list(metrics) and costs is not None:
        record["costs"] = [list(row) for row in as_costs(costs)]
    common = canonical_json(record)
    model_texts = [canonical_json(model_record(spec)) for spec in models]
    split_texts = [canonical_json(record) for record in split_records(splits, config)]
    keys = []
    for model, split in tasks:
        text = f'{{"common":{common},"model":{model_texts[model]},"split":{split_texts[split]}}}'
        keys.append(hashlib.sha256(text.encode()).hexdigest())
    return keys
