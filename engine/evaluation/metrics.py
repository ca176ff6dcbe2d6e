"""Scoring a fitted model on a test fold: every metric from one set of predictions.

Metrics are named as scikit-learn's scorers (``roc_auc``, ``accuracy``, ``neg_log_loss``
...) and give the same numbers as ``sklearn.metrics.get_scorer(name)(est, X, y)``. The
model's responses (``predict``, ``decision_function``, ``predict_proba``) are computed
once per fold and shared by all metrics. The hottest metrics (ROC AUC, accuracy,
balanced accuracy) are computed directly with numpy, because scikit-learn's input
validation costs more than the fit for small folds; tests check them against
scikit-learn.
"""
from __future__ import annotations

import difflib
from typing import Callable

import numpy as np

from engine.evaluation.costs import COST_METRIC, expected_cost
from engine.foundation.caller_errors import CallerError
from engine.foundation.errors import EngineError
from engine.foundation.lazy import sklearn
from engine.foundation.schema import show

# response kinds
LABELS, SCORE, PROBA = "labels", "score", "proba"


def _roc_auc_binary(y, score):
    """Area under the ROC curve from ranks (Mann-Whitney U, ties counted half)."""
    y = np.asarray(y)
    n_pos = int(np.count_nonzero(y == 1))
    n_neg = len(y) - n_pos
    if n_pos == 0 or n_neg == 0:
        # scikit-learn's own words (roc_auc_score's), so a fold's error reads as with it
        raise ValueError("Only one class present in y_true. ROC AUC score is not defined in "
                         "that case.")
    score = np.asarray(score, dtype=float)
    if not np.isfinite(score).all():
        # scikit-learn's own words (roc_auc_score's), so a fold's error reads as with it
        raise ValueError("Input contains NaN or infinity.")
    ranks = _average_ranks(score)
    return float((ranks[y == 1].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))


def _average_ranks(values):
    order = np.argsort(values, kind="mergesort")
    sorted_values = values[order]
    boundaries = np.flatnonzero(np.diff(sorted_values)) + 1
    starts = np.concatenate(([0], boundaries))
    ends = np.concatenate((boundaries, [len(values)]))
    ranks = np.empty(len(values))
    ranks[order] = np.repeat((starts + ends + 1) / 2.0, ends - starts)
    return ranks


def _accuracy(y, pred):
    return float(np.mean(np.asarray(y) == np.asarray(pred)))


def _balanced_accuracy(y, pred):
    y, pred = np.asarray(y), np.asarray(pred)
    recalls = [np.mean(pred[y == c] == c) for c in np.unique(y)]
    return float(np.mean(recalls))


def _sk(name: str, **kwargs) -> Callable:
    def score(y, response):
        return float(getattr(sklearn("metrics"), name)(y, response, **kwargs))
    return score


def _roc_auc_multi(**kwargs) -> Callable:
    """scikit-learn's one-vs-rest / one-vs-one ROC AUC; for two classes its scorer scores
    P(class 1), which is plain ROC AUC."""
    def score(y, proba):
        roc_auc_score = sklearn("metrics").roc_auc_score
        proba = np.asarray(proba)
        if proba.ndim == 2 and proba.shape[1] == 2:
            return float(roc_auc_score(y, proba[:, 1]))
        return float(roc_auc_score(y, proba, **kwargs))
    return score


def _log_loss(y, proba, labels):
    log_loss = sklearn("metrics").log_loss
    if proba.shape[1] == 2:  # as scikit-learn's scorer: from P(class 1) alone
        return -float(log_loss(y, proba[:, 1], labels=labels))
    return -float(log_loss(y, proba, labels=labels))


def _brier(y, proba, labels):
    brier_score_loss = sklearn("metrics").brier_score_loss
    if proba.shape[1] == 2:
        return -float(brier_score_loss(y, proba[:, 1], pos_label=labels[1]))
    return -float(brier_score_loss(y, proba, labels=labels))


#: scorer name -> (response kind, function(y, response[, labels]), needs labels)
FAST_METRICS: dict[str, tuple[str, Callable[..., float]]] = {
    "roc_auc": (SCORE, _roc_auc_binary),
    "accuracy": (LABELS, _accuracy),
    "balanced_accuracy": (LABELS, _balanced_accuracy),
    "average_precision": (SCORE, _sk("average_precision_score")),
    "f1": (LABELS, _sk("f1_score")),
    "f1_macro": (LABELS, _sk("f1_score", average="macro")),
    "f1_micro": (LABELS, _sk("f1_score", average="micro")),
    "f1_weighted": (LABELS, _sk("f1_score", average="weighted")),
    "precision": (LABELS, _sk("precision_score")),
    "precision_macro": (LABELS, _sk("precision_score", average="macro")),
    "precision_weighted": (LABELS, _sk("precision_score", average="weighted")),
    "recall": (LABELS, _sk("recall_score")),
    "recall_macro": (LABELS, _sk("recall_score", average="macro")),
    "recall_weighted": (LABELS, _sk("recall_score", average="weighted")),
    "matthews_corrcoef": (LABELS, _sk("matthews_corrcoef")),
    "roc_auc_ovr": (PROBA, _roc_auc_multi(multi_class="ovr")),
    "roc_auc_ovo": (PROBA, _roc_auc_multi(multi_class="ovo")),
    "roc_auc_ovr_weighted": (PROBA, _roc_auc_multi(multi_class="ovr", average="weighted")),
    "roc_auc_ovo_weighted": (PROBA, _roc_auc_multi(multi_class="ovo", average="weighted")),
    "neg_log_loss": (PROBA, _log_loss),
    "neg_brier_score": (PROBA, _brier),
}

BINARY_ONLY = {"roc_auc", "average_precision", "f1", "precision", "recall", "jaccard",
               "neg_expected_cost"}
NEEDS_LABELS = {"neg_log_loss", "neg_brier_score"}
#: binary metrics that depend on which class is positive (``pos_label``)
USES_POSITIVE = {"average_precision", "f1", "precision", "recall", "jaccard"}


def multiclass_counterpart(name: str) -> str:
    """The metric to use instead of a two-class one on more classes: ``roc_auc_ovr`` for
    ``roc_auc``, balanced accuracy for the expected cost, the macro average
    (``f1_macro``) for the others."""
    if name == COST_METRIC:
        return "balanced_accuracy"
    return "roc_auc_ovr" if name == "roc_auc" else name + "_macro"


def default_metric(n_classes: int) -> str:
    """The score used when an experiment names none: ROC AUC for two classes,
    one-vs-rest ROC AUC for more."""
    return "roc_auc" if n_classes <= 2 else "roc_auc_ovr"


#: multiclass forms that equal a plain two-class metric (not offered for two classes)
MULTICLASS_FORMS = {"roc_auc_ovr", "roc_auc_ovo", "roc_auc_ovr_weighted", "roc_auc_ovo_weighted"}
#: meaningless for two classes: the top-2 accuracy of two classes is always 1
MULTICLASS_ONLY = {"top_k_accuracy"}


def metrics_for(n_classes: int) -> list:
    """The metric names offered for a target with ``n_classes`` classes: two-class metrics
    only for two classes, the one-vs-rest / one-vs-one ROC AUCs and top-k accuracy only
    for more."""
    names = known_metrics()
    if n_classes > 2:
        return [n for n in names if n not in BINARY_ONLY]
    return [n for n in names if n not in MULTICLASS_FORMS | MULTICLASS_ONLY]


#: The single-label classification scorers of scikit-learn that this app offers: a positive
#: list, so a scorer scikit-learn adds later is refused until it is added here.  Left out:
#: regression and clustering scorers, the sample-averaged ``*_samples`` scorers (multilabel
#: targets) and the likelihood ratios (infinite or undefined on many folds).
CLASSIFICATION_SCORERS = (
    "accuracy", "balanced_accuracy", "top_k_accuracy", "matthews_corrcoef",
    "roc_auc", "roc_auc_ovr", "roc_auc_ovo", "roc_auc_ovr_weighted", "roc_auc_ovo_weighted",
    "average_precision", "neg_log_loss", "neg_brier_score", "d2_log_loss_score",
    "d2_brier_score",
    "f1", "f1_macro", "f1_micro", "f1_weighted",
    "precision", "precision_macro", "precision_micro", "precision_weighted",
    "recall", "recall_macro", "recall_micro", "recall_weighted",
    "jaccard", "jaccard_macro", "jaccard_micro", "jaccard_weighted",
    "neg_expected_cost",
)


def known_metrics() -> list:
    """Metric names offered to the user: :data:`CLASSIFICATION_SCORERS` that the installed
    scikit-learn has (the fast ones of :data:`FAST_METRICS` always)."""
    get_scorer_names = sklearn("metrics").get_scorer_names

    available = set(get_scorer_names()) | set(FAST_METRICS) | {COST_METRIC}
    return sorted(name for name in CLASSIFICATION_SCORERS if name in available)


def metric_problem(name) -> dict | None:
    """Why ``name`` is not a metric of this app (None when it is one).

    Returns
    -------
    dict or None
        The fields of a ``metric_invalid`` error: ``reason`` (``not_text``, ``unknown``,
        ``multilabel``, ``clustering``, ``regression`` or ``other``), ``shown`` (the
        name as the file writes it) and ``close`` (a known name it may be meant as, shown,
        or None).
    """
    if name in FAST_METRICS or name in known_metrics():
        return None
    problem = {"reason": "other", "shown": show(name), "close": None}
    if not isinstance(name, str):
        return {**problem, "reason": "not_text"}
    scorers = sklearn("metrics")
    if name not in scorers.get_scorer_names():
        close = [m for m in known_metrics() if m.startswith(name)] or \
            difflib.get_close_matches(name, known_metrics(), n=1)
        return {**problem, "reason": "unknown", "close": show(close[0]) if close else None}
    if name.endswith("_samples"):
        return {**problem, "reason": "multilabel"}
    # getattr: scikit-learn's scorer and its function
    module = getattr(getattr(scorers.get_scorer(name), "_score_func", None), "__module__", "") or ""
    if "cluster" in module:
        return {**problem, "reason": "clustering"}
    if "_regression" in module:
        return {**problem, "reason": "regression"}
    return problem


def check_metric_names(metrics, *, where: str = "metrics", n_classes: int | None = None,
                       indexed: bool = True) -> None:
    """Refuse any name that is not a classification scorer of this app.

    Parameters
    ----------
    metrics : list of str
    where : str
        The place in the experiment file, for the message (``metrics[1]: ...``).
    n_classes : int, optional
        When known, the valid names listed are those for this many classes.
    indexed : bool
        False when the file gave one name instead of a list (the place is then ``where``).

    Raises
    ------
    ValueError
        ``metrics[1]: "r2" is a regression score, not a classification one; use one of:
        accuracy, ...``
    """
    for i, name in enumerate(metrics):
        problem = metric_problem(name)
        if problem:
            valid = known_metrics() if n_classes is None else metrics_for(n_classes)
            place = f"{where}[{i}]" if indexed else where
            raise EngineError("metric_invalid", {**problem, "place": place,
                                                 "allowed": list(valid)})


def check_metrics(metrics: list, n_classes: int) -> list:
    """Validate metric names for a problem with ``n_classes`` classes."""
    if not metrics:
        raise EngineError("metrics_none")
    metrics = [str(m) for m in metrics]
    if len(set(metrics)) != len(metrics):
        raise EngineError("metric_twice", {"metrics": metrics})
    check_metric_names(metrics, n_classes=n_classes)
    for name in metrics:
        if n_classes > 2 and name in BINARY_ONLY:
            if name == COST_METRIC:
                raise EngineError("cost_metric_multiclass", {"metric": COST_METRIC,
                                                             "n_classes": n_classes})
            raise EngineError("metric_two_class_only", {
                "metric": name, "n_classes": n_classes,
                "counterpart": multiclass_counterpart(name)})
        if n_classes <= 2 and name in MULTICLASS_ONLY:
            raise EngineError("metric_multiclass_only", {"metric": name})
    return metrics


#: Final estimators whose ``predict`` is, in scikit-learn's own code, ``classes_`` at the
#: argmax of ``predict_proba`` (ties to the first class): forests take it from their
#: averaged probabilities; k-NN with uniform weights takes the mode of the neighbours'
#: classes (the smallest on a tie), the argmax of its vote shares.
PREDICT_IS_PROBA_ARGMAX = {"RandomForestClassifier": None, "ExtraTreesClassifier": None,
                           "KNeighborsClassifier": {"weights": "uniform"}}


def _predict_is_proba_argmax(estimator) -> bool:
    """Whether ``estimator`` (a pipeline, or a search over one) predicts by
    :data:`PREDICT_IS_PROBA_ARGMAX`; never with a tuned threshold."""
    if hasattr(estimator, "best_threshold_") or not hasattr(estimator, "classes_"):
        return False
    inner = getattr(estimator, "best_estimator_", estimator)  # getattr: scikit-learn's search
    final = inner.steps[-1][1] if hasattr(inner, "steps") else inner
    if type(final).__name__ not in PREDICT_IS_PROBA_ARGMAX or \
            type(final).__module__.split(".")[0] != "sklearn":
        return False
    wanted = PREDICT_IS_PROBA_ARGMAX[type(final).__name__] or {}
    # getattr: a scikit-learn estimator's parameter
    return all(getattr(final, key, None) == value for key, value in wanted.items())


class NonFiniteResponse(ValueError):
    """The model's probabilities or decision values hold NaN or infinity."""


def _check_finite(kind: str, values):
    array = np.asarray(values)
    if array.dtype.kind in "fc" and not np.isfinite(array).all():
        n_bad = int(np.count_nonzero(~np.isfinite(array).all(axis=tuple(range(1, array.ndim)))))
        what = "probabilities" if kind == PROBA else "decision values"
        raise NonFiniteResponse(f"the model's {what} hold NaN or infinity for {n_bad} of "
                                f"{len(array)} test rows, so no score can be computed from them")
    return values


class FoldScorer:
    """Computes the model's responses on one test fold once and scores every metric.

    Probabilities and decision values must be finite: a metric computed from NaN or
    infinite responses raises :class:`NonFiniteResponse` (scikit-learn's scorers reject
    such input too, and ``cross_val_score`` records NaN).  ``pos_label`` is the code of
    the positive class for the binary metrics in :data:`USES_POSITIVE` (default: 1,
    scikit-learn's choice for codes 0/1). ``costs`` (``[[c_tn, c_fp], [c_fn, c_tp]]``)
    are the costs the expected-cost metric (:data:`engine.evaluation.costs.COST_METRIC`) scores the
    predicted classes by.
    """

    def __init__(self, estimator, X_test, y_test, labels, pos_label=None, costs=None):
        self.estimator, self.X, self.y, self.labels = estimator, X_test, y_test, labels
        self.pos_label = 1 if pos_label is None else int(pos_label)
        self.costs = costs
        self._cache = {}

    def response(self, kind: str):
        if kind not in self._cache:
            self._cache[kind] = self._compute(kind)
        return self._cache[kind]

    def _compute(self, kind: str):
        est = self.estimator
        if kind == LABELS:
            return est.predict(self.X)
        if kind == PROBA:
            return _check_finite(PROBA, est.predict_proba(self.X))
        if kind == "decision":
            return _check_finite("decision", est.decision_function(self.X))
        # SCORE: scikit-learn's order for binary ranking metrics
        if hasattr(est, "decision_function"):
            return self.response("decision")
        return self.response(PROBA)[:, 1]

    def score(self, metric: str) -> float:
        if metric == COST_METRIC:
            return self._score_cost()
        if self.pos_label != 1 and metric in USES_POSITIVE:
            return self._score_positive(metric)
        if metric not in FAST_METRICS:
            return float(sklearn("metrics").get_scorer(metric)(self.estimator, self.X, self.y))
        kind, func = FAST_METRICS[metric]
        response = self.scoring_labels() if kind == LABELS else self.response(kind)
        if metric in NEEDS_LABELS:
            return func(self.y, response, self.labels)
        return func(self.y, response)

    def _score_cost(self) -> float:
        """Minus the mean cost per row of the predicted classes (greater is better)."""
        if self.costs is None:
            # the run checks the costs first (check_cost_metric): a programming error
            raise CallerError("argument_missing",
                              f"{COST_METRIC} needs the costs of the outcomes, and none were "
                              "given")
        return -expected_cost(self.y, self.predicted_labels(), self.costs, pos_label=self.pos_label)

    def _score_positive(self, metric: str) -> float:
        """A positive-class metric for ``pos_label`` 0 (the first class)."""
        skm = sklearn("metrics")
        if metric == "average_precision":
            score = self.response(SCORE)
            return float(skm.average_precision_score(self.y, -np.asarray(score),
                                                      pos_label=self.pos_label))
        func = {"f1": skm.f1_score, "precision": skm.precision_score,
                "recall": skm.recall_score, "jaccard": skm.jaccard_score}[metric]
        return float(func(self.y, self.scoring_labels(), pos_label=self.pos_label))

    def scoring_labels(self) -> np.ndarray:
        """The predicted classes the label metrics score: ``predict``'s own, taken from the
        probabilities when ``predict`` is by scikit-learn's code their argmax
        (:data:`PREDICT_IS_PROBA_ARGMAX`; the probabilities are kept for calibration
        anyway, so ``predict`` need not repeat the model's work)."""
        if LABELS not in self._cache and _predict_is_proba_argmax(self.estimator):
            proba = np.asarray(self.response(PROBA))
            self._cache[LABELS] = np.asarray(self.estimator.classes_)[proba.argmax(axis=1)]
        return self.response(LABELS)

    def predicted_labels(self) -> np.ndarray:
        """The predicted class codes, as ``predict`` gives them.

        Taken from the probabilities or decision values already computed when their
        argmax is what ``predict`` does (saves a second pass, e.g. k-NN's neighbour
        search); SVC uses its decision value's sign for two classes (libsvm's rule; its
        Platt probabilities can disagree) and ``predict`` for more (one-vs-one votes); the
        dummy baseline (random strategies) always calls ``predict``.
        """
        if LABELS in self._cache:
            return np.asarray(self._cache[LABELS])
        est = self.estimator
        if hasattr(est, "best_threshold_"):     # a tuned threshold: only predict applies it
            return np.asarray(self.response(LABELS))
        inner = getattr(est, "best_estimator_", est)   # a grid search predicts with it
        final = type(inner.steps[-1][1] if hasattr(inner, "steps") else inner).__name__
        # getattr: a scikit-learn estimator
        classes = np.asarray(getattr(est, "classes_", self.labels))
        decision = self._cache.get("decision")
        if final == "SVC" and decision is not None and np.ndim(decision) == 1:
            return classes[(np.asarray(decision) > 0).astype(int)]   # libsvm's binary rule
        if final not in ("SVC", "DummyClassifier"):
            for kind in (PROBA, "decision"):
                values = self._cache.get(kind)
                if values is not None:
                    values = np.asarray(values, dtype=float)
                    if values.ndim == 1:
                        return classes[(values > 0).astype(int)]
                    return classes[values.argmax(axis=1)]
        return np.asarray(self.response(LABELS))

    def kept_predictions(self):
        """(kind, 2-D array) kept for calibration: probabilities, else decision values."""
        try:
            return self._kept_predictions()
        except NonFiniteResponse:
            return None, None

    def _kept_predictions(self):
        est = self.estimator
        if hasattr(est, "predict_proba"):
            return "proba", np.asarray(self.response(PROBA), dtype=float)
        if hasattr(est, "decision_function"):
            values = np.asarray(self.response("decision"), dtype=float)
            if values.ndim == 1:
                values = np.column_stack([-values, values])
            return "decision", values
        labels = np.asarray(self.response(LABELS))
        return "labels", (labels[:, None] == np.asarray(self.labels)[None, :]).astype(float)
