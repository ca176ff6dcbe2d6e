"""Calibration of the cross-validated models, measured out of sample.

Ranking metrics say nothing about whether a predicted 0.2 means a 20% chance. This
module measures it from the CV's out-of-fold predictions and builds calibrated variants
of every model without leakage:

* ``uncalibrated``: the CV's own out-of-fold probabilities (decision values are put on
  the probability scale by :func:`~engine.evaluation.calibration.maps.decision_to_probability`:
  logistic for two classes, softmax for more; one-hot labels stay 0/1).
* ``isotonic`` / ``sigmoid``: in every outer training fold of the same repeated
  stratified splits, ``CalibratedClassifierCV(pipeline, method, cv=inner stratified
  k-fold)`` is fitted on the training fold only and predicts the outer test fold (with a
  data set's ``"groups"`` the inner folds are grouped as well: the ``(train, test)`` pairs
  of ``StratifiedGroupKFold`` over the training rows, so no inner test fold shares a
  group with the rows its calibrator was fitted from). The
  calibrator never sees the test fold, so calibrated scores are as out-of-sample as the
  uncalibrated ones and can be compared fold by fold (``fold_scores``). Several classes
  are calibrated one-vs-rest and renormalised (what CalibratedClassifierCV does).

Pooled over folds and repeats (each row appears once per repeat) the module reports
reliability diagrams, Brier score, log loss and ECE, and fits a deployable bucket map
(see :func:`~engine.evaluation.calibration.maps.fit_calibration_map`) on the pooled uncalibrated
out-of-fold probabilities. :func:`run_calibration` is a generator like
:func:`engine.evaluation.cv.run_cv`: one :class:`~engine.foundation.progress.Progress` per (model, method,
outer fold); closing it cancels; numbers are identical for any ``n_jobs``.
"""
from __future__ import annotations

import copy
import warnings
from dataclasses import dataclass
from typing import Generator, Optional

import numpy as np
import pandas as pd

from engine.evaluation.calibration.maps import (CROWDING_SHARE, MAP_METHODS, crowding_share,
                                                decision_to_probability, expected_calibration_error,
                                                fit_calibration_map, reliability_diagram,
                                                row_losses, with_interval)
from engine.evaluation.catalogue import ModelSpec, make_pipeline
from engine.evaluation.cv import (CVResult, feature_matrix, make_splits, split_label, split_number,
                                  value_columns)
from engine.input.data import Dataset
from engine.evaluation.splitters import inner_grouped_splits
from engine.input.groups import fewest_inner_groups
from engine.foundation.caller_errors import CallerError
from engine.foundation.errors import EngineError
from engine.foundation.notes import Note
from engine.evaluation.parallel import run_calls, take_rows
from engine.foundation.progress import Progress, Stopwatch
from engine.evaluation.stats import corrected_ttest, two_sided
from engine.evaluation.tuning import fit_model

__all__ = ["FOLD_METRICS", "UNCALIBRATED", "VARIANTS", "CURVE_COLUMNS", "SCORE_COLUMNS",
           "MAP_COLUMNS", "FOLD_SCORE_COLUMNS", "probability_columns", "CalibrationResult",
           "CalibratedFold", "FoldTest", "calibrate_fold", "fold_score_matrix", "fold_test",
           "run_calibration", "top_label_ece"]

FOLD_METRICS = ("neg_brier_score", "neg_log_loss")
#: The ``method`` of the CV's own out-of-fold probabilities.
UNCALIBRATED = "uncalibrated"
#: Every ``method`` a calibration table can hold, in the order they are shown.
VARIANTS = (UNCALIBRATED, *MAP_METHODS)

#: Columns of :attr:`CalibrationResult.curve` (``calibration_curve.csv``).
CURVE_COLUMNS = ["model", "method", "bin", "mean_predicted", "fraction_positive", "count",
                 "class", "bin_low", "bin_high", "ci_low", "ci_high", "interval", "estimand"]
#: Columns of :attr:`CalibrationResult.scores` (``calibration_scores.csv``).
SCORE_COLUMNS = ["model", "method", "brier", "log_loss", "ece", "n_predictions", "ece_top_label"]
#: Columns of :attr:`CalibrationResult.map` (``calibration_map.csv``).
MAP_COLUMNS = ["model", "method", "bucket_low", "bucket_high", "calibrated", "class", "count",
               "fraction_positive"]
#: Columns of :attr:`CalibrationResult.fold_scores`.
FOLD_SCORE_COLUMNS = ["model", "method", "repeat", "fold", "metric", "score"]


def probability_columns(n_classes: int) -> list:
    """The probability columns of :attr:`CalibrationResult.probabilities`: ``prob_0 ..
    prob_{K-1}`` (after ``model, method, repeat, fold, row, y``)."""
    return [f"prob_{k}" for k in range(n_classes)]


@dataclass(frozen=True)
class CalibrationResult:
    """Everything the calibration analysis measured.

    Attributes
    ----------
    curve : DataFrame
        ``calibration_curve.csv``: ``model, method, bin, mean_predicted, fraction_positive,
        count, class, bin_low, bin_high, ci_low, ci_high, interval``; for two classes the
        diagram of the second class (``classes[1]``), for more one diagram per class
        (one-vs-rest). ``ci_low``/``ci_high`` are the 95% Jeffreys interval of
        ``fraction_positive`` counting ``count / n_repeats`` rows
        (:func:`~engine.evaluation.calibration.maps.observed_interval`); ``interval`` names it.
    scores : DataFrame
        ``calibration_scores.csv``: ``model, method, brier, log_loss, ece, n_predictions,
        ece_top_label`` on the pooled out-of-fold probabilities (lower is better). ``ece``
        is, for two classes, the ECE of P(``classes[1]``); for more, the mean of the
        one-vs-rest ECEs of every class. ``ece_top_label`` is the usual top-label ECE (of
        the predicted class's probability), see :func:`top_label_ece`.
    map : DataFrame
        ``calibration_map.csv``: ``model, method, bucket_low, bucket_high, calibrated, class,
        count, fraction_positive``: the deployable lookup table per model and method,
        fitted on the pooled uncalibrated out-of-fold probabilities (one table per class
        for more than two classes; apply with ``apply_calibration_map``).
    fold_scores : DataFrame
        ``model, method, repeat, fold, metric, score`` (repeat and fold from 1, as in
        ``CVResult.scores``) with metric ``neg_brier_score`` and
        ``neg_log_loss`` (scikit-learn's scorer convention: higher is better, so
        :func:`engine.evaluation.stats.compare_models` can compare variants; see
        :func:`fold_score_matrix`).
    probabilities : DataFrame
        ``model, method, repeat, fold, row, y, prob_0 .. prob_{K-1}``: the out-of-fold
        probabilities of every variant.
    notes : tuple of Note
        Plain-language notes (how the variants were measured, transforms applied, crowded
        buckets, failed fits, scikit-learn's warnings); the codes start with
        ``calibration_`` or are ``crowded_buckets`` (see :data:`engine.foundation.notes.CODES`).
    """

    curve: pd.DataFrame
    scores: pd.DataFrame
    map: pd.DataFrame
    fold_scores: pd.DataFrame
    probabilities: pd.DataFrame
    notes: tuple = ()

    def tables(self) -> dict:
        """``{file name: DataFrame}`` of the calibration tables (docs/experiment-format.md)."""
        return {"calibration_curve.csv": self.curve, "calibration_scores.csv": self.scores,
                "calibration_map.csv": self.map}


def fold_score_matrix(result: CalibrationResult, *,
                      metric: str = "neg_brier_score") -> pd.DataFrame:
    """Variants (``"model (method)"``) as rows, folds as columns, for engine.evaluation.stats."""
    if metric not in FOLD_METRICS:
        # the caller's arguments (the app passes its own checked values)
        raise CallerError("argument_choice",
                          f"metric must be one of {', '.join(FOLD_METRICS)} (got {metric!r})")
    table = result.fold_scores[result.fold_scores["metric"] == metric]
    names = table["model"].astype(str) + " (" + table["method"].astype(str) + ")"
    matrix = table.assign(variant=names).pivot(index="variant", columns=["repeat", "fold"],
                                               values="score")
    return matrix.reindex(list(pd.unique(names)))


@dataclass(frozen=True)
class FoldTest:
    """Does a calibration method beat the uncalibrated model fold by fold?

    Attributes
    ----------
    model, method : str
        The model and the calibration method compared with its uncalibrated variant.
    metric : str
        The per-fold score compared (``neg_brier_score`` or ``neg_log_loss``; higher is
        better).
    mean_difference : float
        Mean over the folds of (method's score minus the uncalibrated score): positive
        when the method scores better.
    t_stat : float
        Nadeau and Bengio's corrected t statistic of those differences.
    p_value : float
        Its two-sided p-value (``2 t.sf(|t|, n_folds - 1)``, at most 1).
    n_folds : int
        Folds where both variants have a score.
    alpha : float
        The significance level the test was judged at.
    """

    model: str
    method: str
    metric: str
    mean_difference: float
    t_stat: float
    p_value: float
    n_folds: int
    alpha: float

    @property
    def improves(self) -> bool:
        """The method scores better on average and the difference is significant at
        ``alpha`` (two-sided ``p_value < alpha``)."""
        return bool(self.mean_difference > 0 and self.p_value < self.alpha)


def fold_test(result: CalibrationResult, cv_result: CVResult, model: str, method: str,
              *, alpha: float = 0.05, metric: str = "neg_brier_score"):
    """Test whether a calibration method improves a model, fold by fold.

    The calibrated and the uncalibrated variants are scored on the same outer test
    folds (:attr:`CalibrationResult.fold_scores`), so their per-fold differences are
    paired. The folds share training rows, which makes a plain paired t-test far too
    confident; Nadeau and Bengio's corrected t-test
    (:func:`engine.evaluation.stats.corrected_ttest`) widens the variance of the mean difference by
    ``n_test / n_train``. The p-value is two-sided, like the ones the comparison of
    models reports, and is judged at the user's ``alpha`` (the experiment's
    ``comparison.alpha``).

    Parameters
    ----------
    result : CalibrationResult
    cv_result : CVResult
        The cross-validation run that was calibrated (for the fold sizes).
    model : str
        The model's name.
    method : {'isotonic', 'sigmoid'}
        The calibration method compared with ``uncalibrated``.
    alpha : float, default 0.05
        Significance level, between 0 and 1.
    metric : {'neg_brier_score', 'neg_log_loss'}
        The per-fold score compared (higher is better).

    Returns
    -------
    FoldTest or None
        None when either variant is missing or fewer than two folds have both scores.

    Raises
    ------
    ValueError
        For an unknown ``metric`` or an ``alpha`` outside (0, 1).

    Examples
    --------
    >>> test = fold_test(calibration, cv, "GaussianNB", "isotonic", alpha=0.05)
    ... # doctest: +SKIP
    >>> test.improves, round(test.p_value, 3)                       # doctest: +SKIP
    (True, 0.001)
    """
    if not 0 < alpha < 1:
        # the caller's arguments (the app passes its own checked values)
        raise CallerError("argument_value",
                          f"alpha must be between 0 and 1 (got {alpha})")
    matrix = fold_score_matrix(result, metric=metric)
    before, after = f"{model} ({UNCALIBRATED})", f"{model} ({method})"
    if before not in matrix.index or after not in matrix.index:
        return None
    differences = (matrix.loc[after] - matrix.loc[before]).to_numpy(dtype=float)
    differences = differences[np.isfinite(differences)]
    if len(differences) < 2:
        return None
    n_train, n_test = cv_result.train_test_sizes()
    t_stat, p_one_sided = corrected_ttest(differences, n_train, n_test)
    return FoldTest(model=model, method=method, metric=metric,
                    mean_difference=float(np.mean(differences)), t_stat=float(t_stat),
                    p_value=two_sided(p_one_sided), n_folds=len(differences), alpha=float(alpha))


# ----------------------------------------------------------------------------- the run

def run_calibration(dataset: Dataset, cv_result: CVResult, models: list, settings,
                    *, n_jobs: int = 1, inner_splits: int = 5, cluster=None
                    ) -> Generator[Progress, None, CalibrationResult]:
    """Calibrate every cross-validated model and measure it out of sample.

    Parameters
    ----------
    dataset : Dataset
        The data the CV ran on.
    cv_result : CVResult
        The CV run: its out-of-fold predictions are the uncalibrated variant, its splits
        (``make_splits(dataset.y, cv_result.config, dataset.groups)``) the outer folds.
    models : list of ModelSpec
        The CV's models (same names); each is refitted inside every outer training fold.
    settings : engine.evaluation.experiment.CalibrationSettings
        ``methods`` (isotonic, sigmoid), ``n_bins`` and ``strategy`` of the diagrams and the
        ECE, ``map_buckets`` of the map (bucketed with the same ``strategy``).
    n_jobs : int
        Worker processes (joblib); 1 runs here, -1 uses every core. Same numbers for any value.
    inner_splits : int
        Folds of the inner stratified k-fold of CalibratedClassifierCV (shuffled, seeded
        from the CV's ``random_state`` and the outer fold); with ``dataset.groups``,
        stratified group k-fold over the training rows' groups (same seeds).
    cluster : engine.evaluation.cluster.Cluster, optional
        An open Dask cluster: the fits run on its workers (:func:`engine.evaluation.parallel.run_calls`).

    Yields
    ------
    Progress
        After every (model, method, outer fold) fit.

    Returns
    -------
    CalibrationResult
    """
    for attribute in ("methods", "n_bins", "strategy", "map_buckets"):
        if not hasattr(settings, attribute):
            # the caller's arguments (the app passes its own checked values)
            raise CallerError("argument_type",
                              "settings must be a CalibrationSettings (methods, n_bins, strategy, "
                              f"map_buckets); it has no {attribute!r}")
    specs = _check_models(models, cv_result)
    y = np.asarray(dataset.y)
    n_classes = len(dataset.classes)
    splits = outer_splits(y, cv_result, dataset.groups)
    groups = dataset.groups
    _check_inner(y, splits, inner_splits, groups)
    base_seed = cv_result.config.random_state
    seeds = [int(np.random.SeedSequence([0 if base_seed is None else int(base_seed), s])
                 .generate_state(1)[0]) for s in range(len(splits))]
    methods = list(dict.fromkeys(settings.methods))
    tasks = [(m, method, s) for s in range(len(splits)) for m in range(len(specs))
             for method in methods]
    X = feature_matrix(dataset)
    estimators = [make_pipeline(spec, dataset=dataset) for spec in specs]
    clock = Stopwatch(len(tasks))
    outcomes = [None] * len(tasks)
    jobs = [(estimators[m], X, y, *splits[s], method, inner_splits, seeds[s], groups)
            for m, method, s in tasks]
    done = 0
    for index, outcome in run_calls(calibrate_fold, jobs, n_jobs=n_jobs, cluster=cluster):
        outcomes[index] = outcome
        done += 1
        m, method, s = tasks[index]
        repeat, fold = split_label(s, cv_result.config.n_splits)
        yield clock.progress(done, f"{specs[m].name} {method}: repeat {repeat}, fold {fold}")
    return _assemble(outcomes, tasks, specs, methods, splits, y, n_classes, dataset, cv_result,
                     settings, inner_splits, grouped=groups is not None)


def _check_models(models, cv_result) -> list:
    specs = list(models)
    if not specs:
        # the caller's arguments (the app passes its own checked values)
        raise CallerError("argument_missing",
                          "no models to calibrate: pass the CV's models")
    for spec in specs:
        if not isinstance(spec, ModelSpec):
            # the caller's arguments (the app passes its own checked values)
            raise CallerError("argument_type",
                              f"models must be ModelSpec objects (got {type(spec).__name__})")
        if spec.name not in cv_result.models:
            raise EngineError("calibration_model_not_in_cv", {
                "model": spec.name, "models": list(cv_result.models)})
    return specs


def outer_splits(y, cv_result, groups=None) -> list:
    """The CV's splits; rebuilt from its predictions when it was not seeded."""
    config = cv_result.config
    preds = cv_result.predictions
    if config.random_state is None:  # unseeded: make_splits would draw new folds
        if preds.empty:
            raise EngineError("calibration_cv_unseeded")
        first = preds[preds["model"] == preds["model"].iloc[0]]
        every = np.arange(len(y))
        splits = []
        for (_, _), part in first.groupby(["repeat", "fold"], sort=True):
            test = np.sort(part["row"].to_numpy())
            splits.append((np.setdiff1d(every, test), test))
        return splits
    splits = make_splits(y, config, groups)
    if not preds.empty and not _first_fold_matches(preds, splits, len(y), config.n_splits):
        raise EngineError("calibration_cv_mismatch")
    return splits


def _first_fold_matches(preds, splits, n_rows, n_splits) -> bool:
    """Whether the first model's first (repeat, fold) holds the test rows of that split."""
    first = preds[preds["model"] == preds["model"].iloc[0]]
    repeat, fold = int(first["repeat"].iloc[0]), int(first["fold"].iloc[0])
    rows = np.sort(first.loc[(first["repeat"] == repeat) & (first["fold"] == fold), "row"])
    number = split_number(repeat, fold, n_splits)
    if not 0 <= number < len(splits) or n_rows <= rows.max(initial=-1):
        return False
    return np.array_equal(rows, np.sort(splits[number][1]))


def _check_inner(y, splits, inner_splits, groups=None) -> None:
    """Every outer training fold can be split into ``inner_splits`` inner folds: enough
    rows of every class, or with ``groups`` enough groups holding every class."""
    if isinstance(inner_splits, bool) or not isinstance(inner_splits, (int, np.integer)) \
            or inner_splits < 2:
        # the caller's arguments (the app passes its own checked values)
        raise CallerError("argument_value",
                          f"inner_splits must be a whole number of at least 2 (got "
                          f"{inner_splits!r})")
    if groups is not None:
        _check_inner_groups(y, splits, inner_splits, groups)
        return
    smallest = min(int(np.bincount(y[train]).min()) for train, _ in splits)
    if smallest < inner_splits:
        raise EngineError("calibration_inner_rows", {"smallest": smallest,
                                                     "inner_splits": int(inner_splits)})


def _check_inner_groups(y, splits, inner_splits, groups) -> None:
    _, fewest = fewest_inner_groups(y, groups, splits)
    if fewest < inner_splits:
        raise EngineError("calibration_inner_groups", {"fewest": int(fewest),
                                                       "inner_splits": int(inner_splits)})


@dataclass(frozen=True)
class CalibratedFold:
    """What :func:`calibrate_fold` measured on one outer fold (sent back from a worker).

    Attributes
    ----------
    proba : ndarray or None
        ``(n_test, K)`` calibrated probabilities of the test rows; None when the fit failed.
    error : str or None
        The failure, ``"Type: message"``.
    warnings : tuple of (str, str)
        Distinct ``(category name, first line of the message)`` pairs.
    """

    proba: Optional[np.ndarray] = None
    error: Optional[str] = None
    warnings: tuple = ()


def calibrate_fold(estimator, X, y, train, test, method, inner_splits, seed,
                   groups=None) -> CalibratedFold:
    """Fit ``CalibratedClassifierCV`` on the training rows only; predict the test rows.

    Parameters
    ----------
    estimator : estimator
        The model's pipeline (unfitted; copied).
    X, y
        Every row.
    train, test : ndarray of int
        The outer fold's rows.
    method : {'isotonic', 'sigmoid'}
    inner_splits : int
        Inner folds of ``CalibratedClassifierCV``.
    seed : int
        ``random_state`` of the inner folds' shuffle.
    groups : ndarray of int, optional
        The group of every row: the inner folds are then
        :func:`engine.evaluation.splitters.inner_grouped_splits` of the training rows (no inner test
        fold shares a group with its inner training part), and a tuned model's own
        grouped inner search gets its rows' groups (:func:`engine.evaluation.tuning.fit_model`).

    Returns
    -------
    CalibratedFold
        A model's failure is recorded there, never raised.
    """
    from sklearn import config_context
    from sklearn.calibration import CalibratedClassifierCV
    from threadpoolctl import threadpool_limits

    proba, error, warned = None, None, []
    inner = _inner_folds(y[train], None if groups is None else groups[train], inner_splits,
                         seed)
    model = CalibratedClassifierCV(copy.deepcopy(estimator), method=method, cv=inner)
    # one BLAS thread: the small L-BFGS problems of Platt scaling run several times faster,
    # and the numbers do not depend on the machine's core count (parallelism is n_jobs)
    with warnings.catch_warnings(record=True) as caught, threadpool_limits(1, user_api="blas"), \
            config_context(skip_parameter_validation=True):  # validated by the catalogue
        warnings.simplefilter("always")
        try:
            fit_model(model, take_rows(X, train), y[train],
                      None if groups is None else groups[train])
            proba = np.asarray(model.predict_proba(take_rows(X, test)), dtype=float)
        except Exception as exc:  # one fold's failure is a result, not a crash
            error = f"{type(exc).__name__}: {exc}"
    for item in caught:
        if issubclass(item.category, (DeprecationWarning, PendingDeprecationWarning)):
            continue
        lines = str(item.message).splitlines()
        pair = (item.category.__name__, lines[0] if lines else "")
        if pair not in warned:
            warned.append(pair)
    return CalibratedFold(proba, error, tuple(warned))


def _inner_folds(y_train, groups_train, inner_splits, seed):
    """The ``cv`` of CalibratedClassifierCV: a shuffled StratifiedKFold without groups,
    the explicit grouped pairs with them."""
    if groups_train is None:
        from sklearn.model_selection import StratifiedKFold

        return StratifiedKFold(n_splits=inner_splits, shuffle=True, random_state=seed)
    return inner_grouped_splits(y_train, groups_train, inner_splits, random_state=seed)


# ----------------------------------------------------------------------------- tables

def _uncalibrated(cv_result, name, n_classes) -> tuple:
    """(table of model, repeat, fold, row, y; (n, K) probabilities) from the CV's predictions."""
    preds = cv_result.predictions
    part = preds[preds["model"] == name]
    values = part[value_columns(n_classes)].to_numpy(dtype=float)
    if cv_result.prediction_kind.get(name) == "decision":
        values = decision_to_probability(values)
    return part[["repeat", "fold", "row", "y"]].reset_index(drop=True), values


def _assemble(outcomes, tasks, specs, methods, splits, y, n_classes, dataset, cv_result,
              settings, inner_splits, grouped=False) -> CalibrationResult:
    n_splits = cv_result.config.n_splits
    notes, blocks = [], []
    by_task = {(m, method, s): outcome for (m, method, s), outcome in zip(tasks, outcomes)}
    for m, spec in enumerate(specs):
        name = spec.name
        index, values = _uncalibrated(cv_result, name, n_classes)
        kind = cv_result.prediction_kind.get(name)
        if index.empty:
            notes.append(Note("calibration_no_predictions", fields={"model": name}))
            continue
        if kind == "decision":
            notes.append(Note("calibration_decision_values", fields={
                "model": name, "transform": "logistic" if n_classes == 2 else "softmax"}))
        elif kind == "labels":
            notes.append(Note("calibration_labels_only", fields={"model": name}))
        blocks.append((name, UNCALIBRATED, index, values))
        for method in methods:
            parts, probs, failed, texts = [], [], [], []
            for s, (_, test) in enumerate(splits):
                outcome = by_task[(m, method, s)]
                texts += [t for t in outcome.warnings if t not in texts]
                repeat, fold = split_label(s, n_splits)
                if outcome.proba is None:
                    failed.append(f"repeat {repeat}, fold {fold}: {outcome.error}")
                    continue
                parts.append(pd.DataFrame({"repeat": repeat, "fold": fold, "row": test,
                                           "y": y[test]}))
                probs.append(outcome.proba)
            if failed:
                notes.append(Note("calibration_folds_failed", fields={
                    "model": name, "method": method, "n_failed": len(failed),
                    "examples": failed[:3]}))
            for category, text in texts:
                notes.append(Note("calibration_warning", fields={
                    "model": name, "method": method, "category": category, "text": text}))
            if parts:
                blocks.append((name, method, pd.concat(parts, ignore_index=True),
                               np.concatenate(probs)))
    curve, scores, fold_scores, probabilities = _score_blocks(blocks, n_classes, dataset,
                                                              settings)
    maps = _maps(blocks, methods, n_classes, dataset, settings, notes)
    notes.insert(0, Note("calibration_method", fields={"inner_splits": int(inner_splits),
                                                        "grouped": bool(grouped)}))
    return CalibrationResult(curve=curve, scores=scores, map=maps, fold_scores=fold_scores,
                             probabilities=probabilities, notes=tuple(notes))


def top_label_ece(y, proba, *, n_bins: int = 10, strategy: str = "uniform") -> float:
    """The usual top-label ECE: the reliability of the predicted class's probability.

    Parameters
    ----------
    y : array of shape (n,)
        Class codes.
    proba : array of shape (n, K)
        Predicted probabilities.
    n_bins, strategy
        Binning of the confidences, as in :func:`reliability_diagram`.

    Returns
    -------
    float
        Count-weighted mean gap between accuracy and mean confidence over bins of the
        confidence ``max_k p_k`` (Guo et al. 2017).
    """
    proba = np.asarray(proba, dtype=float)
    correct = proba.argmax(axis=1) == np.asarray(y)
    diagram = reliability_diagram(correct, proba.max(axis=1), n_bins=n_bins, strategy=strategy)
    return expected_calibration_error(diagram)


def _diagram_classes(n_classes):
    return [1] if n_classes == 2 else list(range(n_classes))


def _score_blocks(blocks, n_classes, dataset, settings) -> tuple:
    curve_parts, score_rows, fold_parts, prob_parts = [], [], [], []
    for name, method, index, values in blocks:
        yv = index["y"].to_numpy(dtype=np.int64)
        eces = []
        for k in _diagram_classes(n_classes):
            diagram = reliability_diagram(yv == k, values[:, k], n_bins=settings.n_bins,
                                          strategy=settings.strategy)
            eces.append(expected_calibration_error(diagram))
            diagram = with_interval(diagram, n_repeats=index["repeat"].nunique())
            diagram.insert(0, "method", method)
            diagram.insert(0, "model", name)
            diagram.insert(6, "class", dataset.classes[k])
            curve_parts.append(diagram)
        brier, logs = row_losses(yv, values)
        score_rows.append((name, method, float(brier.mean()), float(logs.mean()),
                           float(np.mean(eces)), len(yv),
                           top_label_ece(yv, values, n_bins=settings.n_bins,
                                         strategy=settings.strategy)))
        keys = index[["repeat", "fold"]].assign(neg_brier_score=-brier, neg_log_loss=-logs)
        per_fold = keys.groupby(["repeat", "fold"], sort=True).mean().reset_index()
        per_fold = per_fold.melt(id_vars=["repeat", "fold"], value_vars=list(FOLD_METRICS),
                                 var_name="metric", value_name="score")
        per_fold.insert(0, "method", method)
        per_fold.insert(0, "model", name)
        fold_parts.append(per_fold)
        probs = index.copy()
        for k, column in enumerate(probability_columns(n_classes)):
            probs[column] = values[:, k]
        probs.insert(0, "method", method)
        probs.insert(0, "model", name)
        prob_parts.append(probs)
    curve = (pd.concat(curve_parts, ignore_index=True)[CURVE_COLUMNS] if curve_parts
             else pd.DataFrame(columns=CURVE_COLUMNS))
    scores = pd.DataFrame(score_rows, columns=SCORE_COLUMNS)
    fold_scores = (pd.concat(fold_parts, ignore_index=True)[FOLD_SCORE_COLUMNS] if fold_parts
                   else pd.DataFrame(columns=FOLD_SCORE_COLUMNS))
    prob_columns = ["model", "method", "repeat", "fold", "row", "y",
                    *probability_columns(n_classes)]
    probabilities = (pd.concat(prob_parts, ignore_index=True) if prob_parts
                     else pd.DataFrame(columns=prob_columns))
    return curve, scores, fold_scores.reset_index(drop=True), probabilities


def _maps(blocks, methods, n_classes, dataset, settings, notes) -> pd.DataFrame:
    parts = []
    for name, method, index, values in blocks:
        if method != UNCALIBRATED:
            continue
        yv = index["y"].to_numpy(dtype=np.int64)
        if settings.strategy == "uniform":
            share = max(crowding_share(values[:, k], settings.map_buckets)
                        for k in _diagram_classes(n_classes))
            if share > CROWDING_SHARE:
                notes.append(Note("crowded_buckets", fields={"model": name,
                                                             "share": float(share)}))
        for map_method in methods:
            for k in _diagram_classes(n_classes):
                try:
                    table = fit_calibration_map(yv == k, values[:, k],
                                                n_buckets=settings.map_buckets,
                                                strategy=settings.strategy, method=map_method)
                except ValueError as exc:
                    notes.append(Note("calibration_map_failed", fields={
                        "model": name, "method": map_method,
                        "class_label": dataset.classes[k], "error": str(exc)}))
                    continue
                table.insert(0, "method", map_method)
                table.insert(0, "model", name)
                table.insert(5, "class", dataset.classes[k])
                parts.append(table)
    return (pd.concat(parts, ignore_index=True)[MAP_COLUMNS] if parts
            else pd.DataFrame(columns=MAP_COLUMNS))
