"""One draw from a population: the sample the app sees, a held-out draw, the rest.

The sample's rows become a :class:`engine.input.data.Dataset` through the reader's own
:func:`engine.input.data.dataset_from_frame` (so the positive class, the encoding and
the models' pipelines are the app's); the rest is coded with the sample's classes and
scored by the engine's :class:`engine.evaluation.metrics.FoldScorer`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.evaluation.catalogue import make_pipeline
from engine.evaluation.cv import feature_matrix
from engine.evaluation.metrics import FoldScorer
from engine.evaluation.tuning import fit_model
from engine.input.data import dataset_from_frame

__all__ = ["Draw", "Rows", "draw_rows", "fit_on", "rows_of", "scorer_on"]


@dataclass(frozen=True)
class Rows:
    """Feature matrix and class codes of population rows, coded as a sample's data set
    codes them (a class the sample lacks gets code -1: always predicted wrongly)."""

    X: object
    y: np.ndarray


@dataclass(frozen=True)
class Draw:
    """A sample of ``n`` rows as a data set, a held-out draw and the rest (coded, and
    as the population's rows)."""

    dataset: object
    test_frame: pd.DataFrame
    test: Rows
    rest: Rows
    rest_frame: pd.DataFrame | None = None


def rows_of(frame: pd.DataFrame, dataset, target: str) -> Rows:
    """``frame``'s rows coded like ``dataset`` (its feature columns, its class codes)."""
    codes = {str(label): code for code, label in enumerate(dataset.classes)}
    y = np.array([codes.get(str(v), -1) for v in frame[target]], dtype=np.intp)
    X = frame[list(dataset.X.columns)]
    if dataset.is_plain_numeric():
        X = X.to_numpy(dtype=float)
    return Rows(X, y)


def draw_rows(frame: pd.DataFrame, target: str, n: int, n_test: int, rest_cap: int,
              rng: np.random.Generator) -> Draw:
    """Draw ``n`` sample rows and ``n_test`` held-out rows without replacement; the rest
    is every other row (at most ``rest_cap`` of them, drawn at random)."""
    order = rng.permutation(len(frame))
    sample = frame.iloc[order[:n]].reset_index(drop=True)
    test_frame = frame.iloc[order[n:n + n_test]].reset_index(drop=True)
    rest_frame = frame.iloc[order[n + n_test:n + n_test + rest_cap]]
    dataset = dataset_from_frame(sample, target=target, name="sample")
    return Draw(dataset, test_frame, rows_of(test_frame, dataset, target),
                rows_of(rest_frame, dataset, target), rest_frame)


def fit_on(spec, dataset, rows=None):
    """The model's pipeline (the app's :func:`make_pipeline`) fitted on ``rows`` of the
    data set (all rows when None)."""
    X, y = feature_matrix(dataset), dataset.y
    if rows is not None:
        X = X.iloc[rows] if isinstance(X, pd.DataFrame) else X[rows]
        y = y[rows]
    model = make_pipeline(spec, dataset=dataset)
    fit_model(model, X, y)
    return model


def scorer_on(model, dataset, rows: Rows) -> FoldScorer:
    """The engine's scorer of ``model`` on ``rows``."""
    labels = np.arange(len(dataset.classes))
    return FoldScorer(model, rows.X, rows.y, labels, dataset.pos_label)
