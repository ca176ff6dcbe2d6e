"""Plain-language verdicts on the comparison of two cross-validated models.

Pure functions (no Qt): they turn one row of the pairwise comparison table
(see :class:`engine.evaluation.stats.Comparison`) into a short text a non-statistician can read,
for example::

    rbf and linear are practically equivalent with probability 0.430, rbf is better with
    probability 0.500 and linear with probability 0.070: no outcome reaches 0.95
    (1 − 0.05), so these folds cannot settle it. The corrected t-test finds no
    significant difference (two-sided p = 0.227, alpha = 0.05).

The pairwise table stores each pair once, the better-ranked model first; the user
may pick the two models in either order, so :func:`oriented_pair` first turns the row
round to read "model A versus model B".
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, NamedTuple, Optional

import numpy as np

from engine.evaluation.metrics import USES_POSITIVE
from engine.evaluation.stats import Posterior, posterior

#: Display names of scikit-learn's classification scorers' base names.
METRIC_LABELS = {
    "roc_auc": "ROC AUC", "accuracy": "accuracy", "balanced_accuracy": "balanced accuracy",
    "top_k_accuracy": "top-k accuracy", "f1": "F1", "neg_log_loss": "log loss (negated)",
    "neg_brier_score": "Brier score (negated)", "average_precision": "average precision",
    "precision": "precision", "recall": "recall", "jaccard": "Jaccard index",
    "matthews_corrcoef": "Matthews correlation", "d2_log_loss_score": "D² log-loss score",
    "d2_brier_score": "D² Brier score",
    "neg_expected_cost": "expected cost (negated; lower cost is better)",
}
_SUFFIXES = (("_ovr_weighted", ", one vs rest, weighted by class size"),
             ("_ovo_weighted", ", one vs one, weighted by class size"),
             ("_ovr", ", one vs rest"), ("_ovo", ", one vs one"),
             ("_macro", ", mean over classes"), ("_micro", ", pooled over classes"),
             ("_weighted", ", weighted by class size"))


def metric_label(metric: str, *, positive=None) -> str:
    """Human-readable name of a scorer, e.g. ``"roc_auc"`` -> ``"ROC AUC"``,
    ``"jaccard_macro"`` -> ``"Jaccard index, mean over classes"``; with ``positive``
    (the positive class's label), metrics about one class name it: ``"F1 of 'Adelie'"``."""
    if positive is not None and metric in USES_POSITIVE:
        return f"{metric_label(metric)} of {str(positive)!r}"
    if metric in METRIC_LABELS:
        return METRIC_LABELS[metric]
    for suffix, words in _SUFFIXES:
        base = metric[: -len(suffix)]
        if metric.endswith(suffix) and base in METRIC_LABELS:
            return METRIC_LABELS[base] + words
    return metric.replace("_", " ")


@dataclass(frozen=True)
class Verdict:
    """The verdict on "model A versus model B".

    Attributes
    ----------
    text : str
        Two plain-language sentences: the Bayesian reading, then the frequentist one.
    outcome : str
        One of :data:`OUTCOMES`: ``"better"`` (A practically better), ``"equivalent"``,
        ``"worse"`` (B practically better) when that outcome's probability reaches
        :func:`bayes_level` (``1 - alpha``, or ``1 - alpha / m`` for m pairs);
        ``"undecided"`` otherwise; ``"insufficient"`` without numbers.
    significant : bool
        Whether the two-sided corrected t-test (after the multiple-comparison
        correction) finds a difference at level ``alpha``.
    """

    text: str
    outcome: str
    significant: bool


def oriented_pair(row: Mapping, model_a: str, model_b: str) -> dict:
    """Read a pairwise row as "``model_a`` versus ``model_b``".

    Parameters
    ----------
    row : mapping
        One row of ``Comparison.pairwise`` (``model_1``, ``model_2``, ``mean_difference``,
        ``p_value``, ``p_value_adjusted``, ``p_value_uncorrected``, ``p_mu_positive``,
        ``p_better``, ``p_equivalent``, ``p_worse``, ...).
    model_a, model_b : str
        The two models of the row, in the order the user wants to read them.

    Returns
    -------
    dict
        The row's values with ``model_1 = model_a``: if the row was stored the other way
        round, the mean difference changes sign and better / worse (and P(mu > 0)) swap.
        The p-values are kept: the one-sided test is about the sign of the difference,
        whichever way round it is read.

    Raises
    ------
    KeyError
        If the row is not about these two models.
    """
    values = dict(row)
    if (values["model_1"], values["model_2"]) == (model_a, model_b):
        return values
    if (values["model_1"], values["model_2"]) != (model_b, model_a):
        raise KeyError(f"the row compares {values['model_1']!r} and {values['model_2']!r}, "
                       f"not {model_a!r} and {model_b!r}")
    values.update(model_1=model_a, model_2=model_b,
                  mean_difference=-values["mean_difference"],
                  p_better=values["p_worse"], p_worse=values["p_better"],
                  p_mu_positive=1.0 - values["p_mu_positive"])
    return values


def format_p(p: float) -> str:
    """A p-value for reading: ``"p = 0.227"``, ``"p < 0.001"`` or ``"p = n/a"``."""
    if p is None or not math.isfinite(p):
        return "p = n/a"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def bayes_level(alpha: float, correction: str, n_pairs: int) -> float:
    """The posterior probability a Bayesian decision on one pair needs.

    ``1 - alpha`` for one pair or without correction; ``1 - alpha / n_pairs``
    (Bonferroni's share of alpha for each pair) with ``"bonferroni"`` or ``"holm"``, so
    that, as for the p-values, deciding on many pairs at once does not make some decision
    likely by the number of looks. The one policy of the app, within a data set (pairs of
    models on its folds) and across data sets (pairs of models over the data sets).
    """
    if correction == "none" or n_pairs <= 1:
        return 1.0 - alpha
    return 1.0 - alpha / n_pairs


def level_words(level: float, alpha: float, correction: str, n_pairs: int) -> str:
    """How the level was set, e.g. ``"1 − 0.05/3 for 3 pairs"`` or ``"1 − 0.05"``."""
    if correction == "none" or n_pairs <= 1:
        extra = ("" if n_pairs <= 1 else
                 f", each of the {n_pairs} pairs read on its own (correction: none)")
        return f"1 − {alpha:g}{extra}"
    return f"1 − {alpha:g}/{n_pairs} for {n_pairs} pairs"


def fixed(value: float, *, decimals: int = 3, signed: bool = False) -> str:
    """``value`` with ``decimals`` decimals, and more (up to six more) when it is not zero
    but would print as zero (``0.0004`` -> ``0.0004``, not ``0.000``)."""
    sign = "+" if signed else ""
    if not math.isfinite(value):
        return f"{value}"
    for digits in range(decimals, decimals + 7):
        shown = f"{value:{sign}.{digits}f}"
        if float(shown) != 0 or value == 0:
            return shown
    return f"{value:{sign}.2e}"


def probability_text(value: float, level: float) -> str:
    """A probability to three decimals, with more digits when three would put it on the
    other side of ``level`` than it is (``0.98334`` against ``0.98333`` reads
    ``0.98334``), ``> 0.999`` when that is true and the level is below it, and
    ``< 0.001`` for a probability that is not zero but would print as ``0.000``."""
    if value > 0.999 and level < 0.999:
        return "> 0.999"
    if 0 < value < 0.001:
        return "< 0.001"
    if value == 0:
        return "0"
    for digits in range(3, 8):
        shown = f"{value:.{digits}f}"
        if (float(shown) >= level) == (value >= level) and (float(shown) < 1 or value >= 1):
            return shown
    return repr(float(value))


def _bayesian_sentence(values: dict, rope: float, level: float, how: str) -> tuple:
    """The Bayesian sentence and the outcome it supports at ``level`` (``how``: how the
    level was set, :func:`level_words`)."""
    a, b = values["model_1"], values["model_2"]
    better, equivalent, worse = (values[k] for k in ("p_better", "p_equivalent", "p_worse"))
    need = f"a decision needs {level:.4g} ({how})"
    if better >= level:
        return (f"{a} is practically better than {b} (by more than the ROPE of ±{rope:g}) "
                f"with probability {probability_text(better, level)}; {need}.", "better")
    if worse >= level:
        return (f"{b} is practically better than {a} (by more than the ROPE of ±{rope:g}) "
                f"with probability {probability_text(worse, level)}; {need}.", "worse")
    if equivalent >= level:
        return (f"{a} and {b} are practically equivalent (they differ by less than ±{rope:g}) "
                f"with probability {probability_text(equivalent, level)}; {need}.",
                "equivalent")
    return (f"{a} and {b} are practically equivalent with probability "
            f"{probability_text(equivalent, level)}, {a} is better with probability "
            f"{probability_text(better, level)} and {b} with probability "
            f"{probability_text(worse, level)}: no outcome reaches {level:.4g} ({how}), so "
            "these folds cannot settle it.", "undecided")


def two_sided_values(values: Mapping) -> tuple:
    """(two-sided p, its adjusted value) of a pairwise row.

    Rows written before the two-sided columns existed are converted: the two-sided value
    of a symmetric test is ``min(1, 2 p)``, and doubling commutes with the Bonferroni and
    Holm adjustments up to their cap at 1, so ``min(1, 2 p_adjusted)`` is exact.
    """
    p, adjusted = values.get("p_value"), values.get("p_value_adjusted", values.get("p_value"))
    two = values.get("p_value_two_sided")
    two_adjusted = values.get("p_value_two_sided_adjusted")
    if two is None or not math.isfinite(two):
        two = min(1.0, 2.0 * p) if p is not None and math.isfinite(p) else math.nan
    if two_adjusted is None or not math.isfinite(two_adjusted):
        two_adjusted = (min(1.0, 2.0 * adjusted) if adjusted is not None
                        and math.isfinite(adjusted) else two)
    return float(two), float(two_adjusted)


def _frequentist_sentence(values: dict, alpha: float, correction: str) -> tuple:
    """The corrected t-test's sentence (two-sided) and whether it is significant."""
    p, adjusted = two_sided_values(values)
    corrected = correction != "none"
    detail = "two-sided " + format_p(p)
    if corrected:
        detail += f"; after {correction.capitalize()} correction {format_p(adjusted)}"
    detail += f", alpha = {alpha:g}"
    significant = bool(math.isfinite(adjusted) and adjusted < alpha)
    if significant:
        winner, loser = ((values["model_1"], values["model_2"])
                         if values["mean_difference"] > 0
                         else (values["model_2"], values["model_1"]))
        text = f"The corrected t-test finds {winner} significantly better than {loser} ({detail})."
    else:
        text = f"The corrected t-test finds no significant difference ({detail})."
    return text + _naive_sentence(values, alpha, significant), significant


def _naive_sentence(values: dict, alpha: float, significant: bool) -> str:
    """What the ordinary paired t-test would say, when it would be fooled: its two-sided
    p-value and the one-sided value ``pairwise.csv`` holds (``p_value_uncorrected``)."""
    one = values.get("p_value_uncorrected", float("nan"))
    if one is None or not math.isfinite(one):
        return ""
    two = min(1.0, 2.0 * one)
    if significant or two >= alpha:
        return ""
    shown = "< 0.001" if one < 0.001 else f"= {one:.3g}" if one < 0.01 else f"= {one:.3f}"
    return (f" A naive t-test would call it significant (two-sided {format_p(two)}; "
            f"one-sided p {shown}, the p_value_uncorrected of pairwise.csv), but it "
            "ignores that the folds share training data.")


class ModelHealth(NamedTuple):
    """How often a model failed or warned on the primary metric's folds.

    A NamedTuple, not a dataclass: :func:`pair_verdict` has always taken plain
    ``(n_failed, n_warned, n_folds)`` tuples, which still work.
    """

    n_failed: int
    n_warned: int
    n_folds: int


def model_health(summary, metric: str, n_folds: int) -> dict:
    """``{model: ModelHealth}`` from a summary table (:func:`engine.evaluation.stats.summary_table`).

    Parameters
    ----------
    summary : DataFrame
        ``ExperimentResult.summary``; a summary without ``n_warned`` counts no warnings.
    metric : str
        The metric whose rows are read (the primary one).
    n_folds : int
        Folds per model (``n_splits * n_repeats``).
    """
    rows = summary[summary["metric"] == metric]
    warned = rows["n_warned"] if "n_warned" in rows else [0] * len(rows)
    return {str(m): ModelHealth(int(f), int(w), int(n_folds))
            for m, f, w in zip(rows["model"], rows["n_failed"], warned)}


def health_sentence(model: str, n_failed: int, n_warned: int, n_folds: int) -> str:
    """Plain words on a model that failed or warned on some folds ('' if neither)."""
    parts = []
    if n_failed:
        parts.append(f"failed on {n_failed} of {n_folds} folds")
    if n_warned:
        parts.append(f"raised warnings on {n_warned} of {n_folds} folds")
    if not parts:
        return ""
    return f"Note: {model} " + " and ".join(parts) + "."


def learning_states(curves) -> dict:
    """``{model: flattened}`` from a run's learning curves (``engine.evaluation.curves.learning``
    verdicts; empty without them)."""
    learning = curves.learning if curves is not None else None
    if learning is None or learning.verdicts.empty:
        return {}
    return {str(m): bool(f) for m, f in zip(learning.verdicts["model"],
                                             learning.verdicts["flattened"])}


def learning_sentence(model: str, flattened) -> str:
    """Plain words when a model's learning curve may still be rising ('' otherwise)."""
    if flattened is None or flattened:
        return ""
    return (f"{model}'s learning curve may still be rising at the full training folds: "
            "with more data it may score higher, and this comparison could change.")


def pair_verdict(row: Mapping, model_a: str, model_b: str, rope: float, alpha: float,
                 *, correction: str = "bonferroni", health: Optional[Mapping] = None,
                 learning: Optional[Mapping] = None, n_pairs: int = 1) -> Verdict:
    """The plain-language verdict on ``model_a`` versus ``model_b``.

    Parameters
    ----------
    row : mapping
        The pairwise row of the two models (either order, see :func:`oriented_pair`).
    model_a, model_b : str
        The models, in reading order.
    rope : float
        Half-width of the region of practical equivalence the row was computed with.
    alpha : float
        Significance level; an outcome is "decided" when its probability is at least
        :func:`bayes_level`: ``1 - alpha`` for one pair (the scikit-learn example's
        reading of the ROPE probabilities), ``1 - alpha / n_pairs`` when ``n_pairs``
        pairs are decided at once under a correction.
    correction : str
        The multiple-comparison correction behind ``p_value_adjusted``; with ``"none"``
        the Bayesian level is ``1 - alpha`` whatever ``n_pairs``.
    health : mapping, optional
        ``{model: ModelHealth}`` (see :func:`model_health`; plain ``(n_failed, n_warned,
        n_folds)`` tuples do too): models that failed or warned on some folds get a
        sentence saying so (the pair is compared on the folds both completed).
    learning : mapping, optional
        ``{model: flattened}`` (:func:`learning_states`): a model whose learning curve may
        still be rising gets a sentence saying so.
    n_pairs : int
        How many pairs the comparison decides at once (the rows of its pairwise table).

    Returns
    -------
    Verdict
    """
    values = oriented_pair(row, model_a, model_b)
    needed = ("mean_difference", "p_better", "p_equivalent", "p_worse", "p_value")
    if any(values.get(k) is None or not math.isfinite(values[k]) for k in needed):
        return Verdict(f"There are not enough complete folds to compare {model_a} and "
                       f"{model_b}: at least two folds where both models have a score "
                       "are needed.", "insufficient", False)
    level = bayes_level(alpha, correction, n_pairs)
    bayes, outcome = _bayesian_sentence(values, rope, level,
                                        level_words(level, alpha, correction, n_pairs))
    frequentist, significant = _frequentist_sentence(values, alpha, correction)
    text = f"{bayes} {frequentist}"
    for model in (model_a, model_b):
        if health and model in health:
            sentence = health_sentence(model, *health[model])
            text += f" {sentence}" if sentence else ""
    n_both = values.get("n_folds")
    if health and n_both is not None and any(health.get(m, (0,))[0] for m in (model_a, model_b)):
        text += f" The two are compared on the {int(n_both)} folds both completed."
    for model in (model_a, model_b):
        sentence = learning_sentence(model, (learning or {}).get(model))
        text += f" {sentence}" if sentence else ""
    return Verdict(text, outcome, significant)


def pair_differences(score_matrix, model_a: str, model_b: str) -> np.ndarray:
    """Per-fold score differences ``model_a - model_b`` over the folds both completed.

    Parameters
    ----------
    score_matrix : DataFrame
        Models as rows, folds as columns (``CVResult.score_matrix()``).
    """
    a = score_matrix.loc[model_a].to_numpy(dtype=float)
    b = score_matrix.loc[model_b].to_numpy(dtype=float)
    both = ~(np.isnan(a) | np.isnan(b))
    return a[both] - b[both]


def pair_posterior(score_matrix, model_a: str, model_b: str, n_train: float,
                   n_test: float) -> Posterior:
    """Posterior of the mean difference ``model_a - model_b`` (see :func:`engine.evaluation.stats.posterior`)."""
    return posterior(pair_differences(score_matrix, model_a, model_b), n_train, n_test)
