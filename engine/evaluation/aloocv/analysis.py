"""ALOOCV for the logistic-regression models of an experiment.

For every ``LogisticRegression`` model (L2 penalty, with intercept), the model's own
preparation (imputation, one-hot encoding, scaling) is fitted on the whole data, as in
the seed example, and the ALO log-likelihood is traced over a log-spaced grid of C
(optionally beside exact leave-one-out) and maximised. Other models are skipped with a
note saying why.

ALO leaves out one row at a time. On a data set with ``"groups"`` (rows that belong
together) that leaves the other rows of the same group in training, which the grouped
cross-validation never does, so every eligible model gets an ``alo_grouped_rows`` note
(:func:`grouped_rows_note`): its curve is optimistic there and C is better chosen by the
grouped cross-validation (a ``"tune"`` grid over C). ALO is still computed.
"""
from __future__ import annotations

import hashlib
import warnings
from dataclasses import dataclass
from typing import Generator, Optional

import numpy as np
import pandas as pd

from engine.evaluation.aloocv.alo import alo_curve, optimize_alo
from engine.evaluation.catalogue import ModelSpec, make_pipeline, split_pipeline
from engine.evaluation.cv import feature_matrix
from engine.input.data import Dataset
from engine.evaluation.experiment import AloocvSettings
from engine.foundation.notes import Note
from engine.foundation.progress import Progress, Stopwatch

#: Columns of :attr:`AloocvResult.curve` (``aloocv_curve.csv``).
CURVE_COLUMNS = ["model", "C", "alo_log_likelihood", "loo_log_likelihood", "alo_reliable"]
#: Columns of :attr:`AloocvResult.optimum` (``aloocv_optimum.csv``).
OPTIMUM_COLUMNS = ["model", "C", "alo_log_likelihood", "at_bound", "message"]


@dataclass(frozen=True)
class AloocvResult:
    """ALO curves and optima of the eligible models.

    Attributes
    ----------
    curve : DataFrame
        ``model, C, alo_log_likelihood, loo_log_likelihood, alo_reliable``: exact LOO is
        NaN where not computed; ``alo_reliable`` is False where ALO falls below twice
        the log-likelihood of predicting the class frequencies (see
        :func:`reliable_points`).
    optimum : DataFrame
        ``model, C, alo_log_likelihood, at_bound, message``.
    notes : tuple of Note
        Models skipped and why (``alo_not_applicable``), ALO on grouped rows
        (``alo_grouped_rows``), solver warnings
        (``alo_solver_warnings``), unreliable points (``alo_unreliable``) and what to know
        about each optimum (``alo_optimum``, its ``notes`` field holding the
        :class:`~engine.evaluation.aloocv.AloOptimum`'s own); every one has a ``model`` field.
    """

    curve: pd.DataFrame
    optimum: pd.DataFrame
    notes: tuple = ()
    settings: Optional[AloocvSettings] = None

    def tables(self) -> dict:
        if self.curve.empty:
            return {}
        return {"aloocv_curve.csv": self.curve, "aloocv_optimum.csv": self.optimum}


def aloocv_eligibility(spec: ModelSpec) -> str:
    """Why ALO does not apply to a model ("" when it does)."""
    note = ineligibility_note(spec)
    return "" if note is None else note.message


def ineligibility_note(spec: ModelSpec) -> Optional[Note]:
    """Why ALO does not apply to a model, as an ``alo_not_applicable`` note (fields
    ``model``, ``reason`` and ``value``, the parameter's value that rules it out, or None);
    None when it applies."""
    params, value = spec.params, None
    if spec.estimator != "LogisticRegression":
        reason = "estimator"
    elif params.get("l1_ratio", 0.0) not in (0, 0.0, None):
        reason, value = "l1_ratio", params["l1_ratio"]
    elif params.get("penalty", "l2") not in ("l2", "deprecated"):
        reason, value = "penalty", params["penalty"]
    elif params.get("fit_intercept", True) is False:
        reason = "no_intercept"
    elif params.get("class_weight") is not None:
        reason = "class_weight"
    elif spec.resample:
        reason, value = "resample", spec.resample
    else:
        return None
    return Note("alo_not_applicable", fields={"model": spec.name, "reason": reason,
                                              "value": value})


def grouped_rows_note(dataset: Dataset, spec: ModelSpec) -> Optional[Note]:
    """An ``alo_grouped_rows`` note when ``dataset`` has groups; None otherwise.

    Parameters
    ----------
    dataset : Dataset
    spec : ModelSpec
        An eligible model (named in the note).

    Returns
    -------
    Note or None
        Fields ``model``, ``groups_column`` (None when unknown) and ``n_groups``.
    """
    groups = dataset.groups
    if groups is None:
        return None
    column = (dataset.source or {}).get("groups")
    n_groups = int(len(np.unique(groups)))
    return Note("alo_grouped_rows", fields={"model": spec.name, "groups_column": column,
                                            "n_groups": n_groups})


def prepared_matrix(dataset: Dataset, spec: ModelSpec) -> np.ndarray:
    """The model's preparation (impute, encode, scale) fitted on all rows, as floats."""
    preparation, _ = split_pipeline(make_pipeline(spec, dataset=dataset, inside_folds=False))
    X = feature_matrix(dataset)
    if preparation is None:
        return np.asarray(X, dtype=float)
    return np.asarray(preparation.fit_transform(X), dtype=float)


def run_aloocv(dataset: Dataset, models: list, settings: AloocvSettings
               ) -> Generator[Progress, None, AloocvResult]:
    """Trace ALO over C and find its optimum for every eligible model.

    Parameters
    ----------
    dataset : Dataset
    models : list of ModelSpec
    settings : AloocvSettings
        ``C_min``, ``C_max``, ``n_C`` (log-spaced grid) and ``exact_loo``.

    Yields
    ------
    Progress
        One record per C value (twice per C with exact LOO) and per optimum.

    Returns
    -------
    AloocvResult
    """
    eligible, notes = [], []
    for spec in models:
        reason = ineligibility_note(spec)
        if reason is None:
            eligible.append(spec)
            grouped = grouped_rows_note(dataset, spec)
            if grouped is not None:
                notes.append(grouped)
        else:
            notes.append(reason)
    Cs = np.geomspace(settings.C_min, settings.C_max, settings.n_C)
    caught: list = []
    per_model = settings.n_C * (2 if settings.exact_loo else 1) + 1
    clock = Stopwatch(per_model * len(eligible))
    curves, optima, done = [], [], {}
    for index, spec in enumerate(eligible):
        X = prepared_matrix(dataset, spec)
        offset = index * per_model
        key = _fingerprint(X)
        if key not in done:               # e.g. a grid over C: same data, same curve
            curve = yield from _relabelled(alo_curve(X, dataset.y, Cs,
                                                     exact_loo=settings.exact_loo),
                                           clock, offset, spec.name, caught)
            with single_blas_thread(), warnings.catch_warnings(record=True) as more:
                warnings.simplefilter("always")
                best = optimize_alo(X, dataset.y, C_min=settings.C_min, C_max=settings.C_max)
            caught.extend(more)
            curve = curve.assign(alo_reliable=reliable_points(curve["alo_log_likelihood"],
                                                              dataset.y))
            done[key] = curve, best
            notes.extend(_solver_notes(spec.name, caught, curve))
            caught.clear()
        curve, best = done[key]
        curves.append(curve.assign(model=spec.name)[CURVE_COLUMNS])
        optima.append((spec.name, best.C, best.alo_log_likelihood, best.at_bound, best.message))
        if best.message:
            notes.append(Note("alo_optimum", fields={"model": spec.name, "notes": best.notes}))
        yield clock.progress(offset + per_model, f"{spec.name}: optimum C = {best.C:.4g}")
    curve = (pd.concat(curves, ignore_index=True) if curves
             else pd.DataFrame(columns=CURVE_COLUMNS))
    optimum = pd.DataFrame(optima, columns=OPTIMUM_COLUMNS)
    return AloocvResult(curve=curve, optimum=optimum, notes=tuple(notes), settings=settings)


def _fingerprint(X: np.ndarray) -> tuple:
    """Identifies a prepared matrix: models whose preparation gives the same numbers
    (they differ only in C, max_iter, ...) share one curve and optimum."""
    data = np.ascontiguousarray(X)
    return data.shape, hashlib.blake2b(data.view(np.uint8).data, digest_size=16).digest()


def single_blas_thread():
    """numpy's and scipy's BLAS builds fight over 2 threads each on small matrices
    (measured 2.5-14x slower); one thread each is fastest for ALO's sizes."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")


def _relabelled(job, clock, offset, name, caught: list):
    """Pass on a sub-generator's progress as part of the whole job; its warnings are
    collected in ``caught`` (shown to the user as notes, not printed on a terminal)."""
    while True:
        try:
            with single_blas_thread(), warnings.catch_warnings(record=True) as more:
                warnings.simplefilter("always")
                record = next(job)
        except StopIteration as stop:
            caught.extend(more)
            return stop.value
        caught.extend(more)
        yield clock.progress(offset + record.done, f"{name}: {record.label}")


def reliable_points(alo, y) -> np.ndarray:
    """Where an ALO value can be trusted: not below twice the log-likelihood of the
    class frequencies (the model that ignores the features).

    ALO is a one-Newton-step approximation; on (nearly) separable data at large C the
    step is far too long for rows of high leverage and ALO can drop by orders of
    magnitude (values such as -150,000 where exact LOO is about -30). A model whose
    leave-one-out likelihood is worse than twice that of guessing the class frequencies
    is not a sensible reading, so such points are marked and left out of the plot's
    scale.
    """
    counts = np.bincount(np.asarray(y))
    counts = counts[counts > 0]
    baseline = float(np.sum(counts * np.log(counts / counts.sum())))
    alo = np.asarray(alo, dtype=float)
    return np.isfinite(alo) & (alo >= 2.0 * baseline)


def _solver_notes(name: str, caught: list, curve: pd.DataFrame) -> list:
    notes = []
    messages = list(dict.fromkeys(" ".join(str(w.message).split()) for w in caught
                                  if not issubclass(w.category, DeprecationWarning)))
    if messages:
        notes.append(Note("alo_solver_warnings", fields={
            "model": name, "n_warnings": len(messages), "example": messages[0]}))
    unreliable = curve.loc[~curve["alo_reliable"], "C"]
    if len(unreliable):
        C_from = float(unreliable.min())
        notes.append(Note("alo_unreliable", fields={
            "model": name, "n_unreliable": len(unreliable), "n_C": len(curve),
            "C_from": C_from}))
    return notes
