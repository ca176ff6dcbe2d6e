"""Fit every model once on all training rows and score it once on the test rows.

The final model of each entry is :func:`engine.evaluation.catalogue.make_pipeline` of the data set
(preparation, scaling, resampling, and a ``tune`` grid search or a ``threshold`` search on
inner folds of the training rows), fitted as one cross-validation fold is fitted
(:func:`engine.evaluation.tuning.fit_model`), on all training rows: the test rows never touch any
choice. It is scored by :class:`engine.evaluation.metrics.FoldScorer`, the scorer of every CV fold.

Intervals: a percentile bootstrap of the test rows for every metric (``n_resamples``
resamples of ``n`` rows drawn with replacement, ``numpy.random.default_rng(random_state)
.integers(0, n, (n_resamples, n))``, the draws of ``scipy.stats.bootstrap``; resamples
where a metric is undefined, such as ROC AUC on one class, are left out and counted), and
DeLong's for ROC AUC on two classes (:func:`engine.evaluation.curves.delong.delong_interval`).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Optional

import numpy as np
import pandas as pd

from engine.evaluation.catalogue import make_pipeline
from engine.evaluation.curves.delong import delong_interval
from engine.evaluation.cv import feature_matrix, inner_groups
from engine.evaluation.kept_responses import KeptResponses
from engine.evaluation.metrics import LABELS, PROBA, SCORE, FoldScorer
from engine.foundation.notes import Note
from engine.foundation.progress import Stopwatch
from engine.evaluation.tuning import fit_model
from engine.runs.heldout.words import with_cv_estimates

#: Resamples of the bootstrap of test rows, and its seed.
N_RESAMPLES, BOOTSTRAP_SEED = 2000, 0
COLUMNS = ["model", "metric", "score", "ci_low", "ci_high", "interval", "level", "n_test",
           "n_resamples", "cv_mean", "cv_ci_low", "cv_ci_high", "comparison", "estimand"]


@dataclass(frozen=True)
class HeldoutResult:
    """The held-out scores and the fitted final models.

    Attributes
    ----------
    scores : pandas.DataFrame
        ``test_scores.csv``: one row per model, metric and interval (:data:`COLUMNS`).
    models : dict
        Model name -> the final model fitted on all training rows (None where it failed).
    failures : dict
        Model name -> why its final fit or scoring failed.
    path : str
        The test file.
    notes : tuple of Note
    draws : dict
        ``(model, metric, interval)`` -> what its interval is computed from: the bootstrap
        resamples' scores, or DeLong's ``(y_true, score)`` (for :meth:`at_level`).
    positive : object
        The positive class's label of a two-class target (the sentences name it).
    files : dict
        With ``"save_models"``: ``{file name: bytes}`` of the saved models
        (:func:`engine.runs.heldout.saved.saved_model_files`), made where the run ran (in the
        app, its child process), so that writing them imports nothing.
    """

    scores: pd.DataFrame
    models: dict = field(default_factory=dict, compare=False)
    failures: dict = field(default_factory=dict)
    path: str = ""
    notes: tuple = ()
    draws: dict = field(default_factory=dict, compare=False, repr=False)
    positive: object = None
    files: dict = field(default_factory=dict, compare=False, repr=False)

    def tables(self) -> dict:
        return {"test_scores.csv": self.scores}

    def at_level(self, level: float, summary=None) -> "HeldoutResult":
        """The same scores with their intervals at ``level`` (the comparison's new 1 − α)
        and ``summary``'s CV estimates beside them; nothing is fitted again."""
        from dataclasses import replace

        table = self.scores[COLUMNS[:9]].copy()
        for index, row in table.iterrows():
            drawn = self.draws.get((row["model"], row["metric"], row["interval"]))
            if drawn is None:
                continue
            low, high, _ = interval_of(row["interval"], drawn, level)
            table.loc[index, ["ci_low", "ci_high", "level"]] = [low, high, level]
        return replace(self, scores=with_cv_estimates(table, summary=summary,
                                                      positive=self.positive))


def frozen(scorer: FoldScorer, model) -> KeptResponses:
    """The responses the model gives on the scorer's rows (what it has of them)."""
    proba = scorer.response(PROBA) if hasattr(model, "predict_proba") else None
    decision = scorer.response("decision") if hasattr(model, "decision_function") else None
    classes = getattr(model, "classes_", scorer.labels)  # getattr: a scikit-learn estimator
    return KeptResponses(np.asarray(scorer.response(LABELS)), proba, decision, classes)


def bootstrap_scores(responses: KeptResponses, y, metric: str, labels, *, pos_label=None,
                     costs=None, n_resamples: int = N_RESAMPLES,
                     random_state: int = BOOTSTRAP_SEED) -> np.ndarray:
    """The metric on each bootstrap resample of the test rows (NaN where undefined)."""
    n = len(y)
    draws = np.random.default_rng(random_state).integers(0, n, (n_resamples, n))
    values = np.full(n_resamples, np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i, rows in enumerate(draws):
            scorer = FoldScorer(responses, rows, y[rows], labels, pos_label, costs)
            try:
                values[i] = scorer.score(metric)
            except Exception:  # noqa: BLE001 - undefined on this resample (one class)
                values[i] = np.nan
    return values


def percentile_interval(values: np.ndarray, level: float) -> tuple:
    """(low, high, resamples used): the central percentile interval of the finite values."""
    finite = values[np.isfinite(values)]
    if not len(finite):
        return np.nan, np.nan, 0
    tail = 100 * (1 - level) / 2
    low, high = np.percentile(finite, [tail, 100 - tail])
    return float(low), float(high), int(len(finite))


def interval_of(kind: str, drawn, level: float) -> tuple:
    """(low, high, resamples used) of a ``bootstrap`` row (from its resamples' scores) or a
    ``delong`` row (from its ``(y_true, score)``)."""
    if kind == "delong":
        y_true, score = drawn
        _, low, high = delong_interval(y_true, score, level=level)
        return float(low), float(high), np.nan
    return percentile_interval(drawn, level)


def fit_final(spec, dataset, X, y):
    """The model's pipeline fitted on all training rows (as one CV fold is fitted)."""
    from sklearn import config_context


    model = make_pipeline(spec, dataset=dataset)
    with config_context(skip_parameter_validation=True), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fit_model(model, X, y, inner_groups(model, dataset))


def test_matrix(test, dataset):
    """The test rows in the form the training rows were fitted in."""
    if dataset.is_plain_numeric():
        return test.X.to_numpy(dtype=float)
    return test.X


def run_heldout(dataset, test, models, metrics, *, costs=None, level: float = 0.95,
                n_resamples: int = N_RESAMPLES, random_state: int = BOOTSTRAP_SEED,
                summary: Optional[pd.DataFrame] = None):
    """Fit each model on all training rows and score it on the test rows.

    A generator (one :class:`~engine.foundation.progress.Progress` per model, so it stops between
    models when closed).

    Parameters
    ----------
    dataset : engine.input.data.Dataset
        The training rows.
    test : engine.runs.heldout.TestSet
    models : list of ModelSpec
    metrics : list of str
    costs : optional
        The expected-cost metric's costs.
    level : float
        The intervals' level (the comparison's 1 − α).
    n_resamples, random_state : int
        The bootstrap's resamples and seed.
    summary : pandas.DataFrame, optional
        ``summary.csv``: its mean and interval go beside each held-out score.

    Returns
    -------
    HeldoutResult
    """
    X, X_test = feature_matrix(dataset), test_matrix(test, dataset)
    labels = np.arange(len(dataset.classes))
    pos = dataset.pos_label if len(dataset.classes) == 2 else None
    clock, rows, fitted, failures = Stopwatch(len(models)), [], {}, {}
    draws: dict = {}
    for index, spec in enumerate(models):
        try:
            model = fit_final(spec, dataset, X, dataset.y)
            scorer = FoldScorer(model, X_test, test.y, labels, pos, costs)
            responses = frozen(scorer, model)
            fitted[spec.name] = model
        except Exception as exc:  # noqa: BLE001 - a model's failure is a result
            failures[spec.name] = f"{type(exc).__name__}: {exc}"
            fitted[spec.name] = None
            rows += [_failed_row(spec.name, m, test.n_rows, level) for m in metrics]
            yield clock.progress(index + 1, f"held-out test: {spec.name}")
            continue
        for metric in metrics:
            rows += _metric_rows(spec.name, metric, scorer, responses, test, labels, pos,
                                 costs, level, n_resamples, random_state, draws)
        yield clock.progress(index + 1, f"held-out test: {spec.name}")
    positive = dataset.classes[1 if pos is None else int(pos)] if pos is not None or \
        len(dataset.classes) == 2 else None
    table = with_cv_estimates(pd.DataFrame(rows, columns=COLUMNS[:9]), summary=summary,
                              positive=positive)
    unscored = {key[:2]: draws.pop(key) for key in list(draws) if key[2] == "failed"}
    return HeldoutResult(table, fitted, failures, test.path,
                         tuple(test.notes) + tuple(_failure_notes(failures, unscored)), draws,
                         positive)


def _metric_rows(name, metric, scorer, responses, test, labels, pos, costs, level,
                 n_resamples, random_state, draws: dict) -> list:
    """The rows of one model and metric; what their intervals come from goes to ``draws``."""
    try:
        score = float(scorer.score(metric))
    except Exception as exc:  # noqa: BLE001 - undefined on the test rows: said in a note
        draws[(name, metric, "failed")] = f"{metric}: {type(exc).__name__}: {exc}"
        score = np.nan
    values = bootstrap_scores(responses, test.y, metric, labels, pos_label=pos, costs=costs,
                              n_resamples=n_resamples,
                              random_state=random_state)
    draws[(name, metric, "bootstrap")] = values
    low, high, used = percentile_interval(values, level)
    rows = [[name, metric, score, low, high, "bootstrap", level, test.n_rows, used]]
    if metric == "roc_auc" and len(labels) == 2 and has_delong():
        rows.append(_delong_row(name, scorer, test, pos, level, draws))
    return rows


def has_delong() -> bool:
    """Whether :mod:`engine.evaluation.curves.delong` is installed (it comes with the curves)."""
    import importlib.util

    try:
        return importlib.util.find_spec("engine.evaluation.curves.delong") is not None
    except ModuleNotFoundError:
        return False


def _delong_row(name, scorer, test, pos, level, draws: dict) -> list:
    """DeLong's interval of the ROC AUC of the positive class."""


    score = np.asarray(scorer.response(SCORE), dtype=float)
    positive = 1 if pos is None else int(pos)
    if positive == 0:
        score = -score
    truth = (test.y == positive).astype(int)
    draws[(name, "roc_auc", "delong")] = (truth, score)
    auc, low, high = delong_interval(truth, score, level=level)
    return [name, "roc_auc", float(auc), float(low), float(high), "delong", level,
            test.n_rows, np.nan]


def _failed_row(name, metric, n_test, level) -> list:
    return [name, metric, np.nan, np.nan, np.nan, "bootstrap", level, n_test, 0]


def _failure_notes(failures: dict, unscored: dict) -> list:
    """``heldout_failed`` notes: models that could not be fitted or scored, and metrics
    that could not be computed on the test rows (``(model, metric)`` -> why)."""
    notes = [Note("heldout_failed", fields={"model": name, "metric": None, "reason": reason})
             for name, reason in failures.items()]
    return notes + [Note("heldout_failed",
                         fields={"model": name, "metric": metric, "reason": reason})
                    for (name, metric), reason in unscored.items()]
