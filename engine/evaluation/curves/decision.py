"""Decision curves: the net benefit of acting on a model's out-of-fold probabilities.

Vickers & Elkin (2006): a decision maker who treats everybody whose predicted probability
of the positive class is at least ``t`` gains, per person, ``TP/n − FP/n · t/(1 − t)``
(the weight ``t/(1 − t)`` is the harm of an unneeded treatment relative to the benefit of a
needed one that ``t`` implies). ``treat all`` treats everybody (``prevalence − (1 −
prevalence) · t/(1 − t)``), ``treat none`` nobody (0). The rule ``p >= t`` and the formulas
are those of the ``dcurves`` package (``dcurves.dca``), which the tests compare with.

Every repeat of the cross-validation predicts every row once, so each repeat gives one
curve from its pooled out-of-fold probabilities; :func:`decision_summary` gives the mean
over repeats and their min–max band, and :func:`decision_pairs` the probability that one
model gives more net benefit than another at each threshold (a paired bootstrap of rows,
fixed seed; see there for what it does and does not mean).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.evaluation.cv import value_columns
from engine.foundation.caller_errors import CallerError
from engine.foundation.notes import Note

__all__ = ["THRESHOLDS", "TREAT_ALL", "TREAT_NONE", "CURVE_COLUMNS", "SUMMARY_COLUMNS",
           "PAIR_COLUMNS", "N_BOOTSTRAP", "DecisionResult", "net_benefit", "treat_all",
           "decision_curves", "decision_summary", "decision_pairs", "decision_analysis"]

#: Thresholds 0.01, 0.02, ..., 0.99 (as ``np.round(np.arange(1, 100) / 100, 2)``).
THRESHOLDS = np.round(np.arange(1, 100) / 100.0, 2)
TREAT_ALL = "treat all"
TREAT_NONE = "treat none"
#: Columns of ``decision_curve.csv``.
CURVE_COLUMNS = ["model", "repeat", "threshold", "net_benefit", "n", "tp_rate", "fp_rate",
                 "positive_class"]
#: Columns of ``decision_summary.csv``: mean over repeats and the min–max band.
SUMMARY_COLUMNS = ["model", "threshold", "mean_net_benefit", "band_low", "band_high",
                   "n_repeats", "band", "estimand"]
#: Columns of ``decision_pairs.csv``.
PAIR_COLUMNS = ["model_1", "model_2", "threshold", "mean_difference", "p_more_benefit",
                "share_repeats_more", "n_bootstrap", "n_rows", "p_less_benefit"]
#: Bootstrap replicates of :func:`decision_pairs`.
N_BOOTSTRAP = 2000


def _odds(thresholds) -> np.ndarray:
    t = np.asarray(thresholds, dtype=float)
    if np.any((t <= 0) | (t >= 1)):
        # the caller's thresholds (the run's own grid): a programming error
        raise CallerError("argument_value",
                          "decision-curve thresholds must lie strictly between 0 and 1")
    return t / (1.0 - t)


def _rates(y, prob, thresholds) -> tuple:
    """(TP/n, FP/n) per threshold of the rule ``prob >= t``."""
    y = np.asarray(y, dtype=bool)
    p = np.asarray(prob, dtype=float)
    order = np.sort(p[y]), np.sort(p[~y])
    n = len(p)
    t = np.asarray(thresholds, dtype=float)
    tp = len(order[0]) - np.searchsorted(order[0], t, side="left")
    fp = len(order[1]) - np.searchsorted(order[1], t, side="left")
    return tp / n, fp / n


def net_benefit(y, prob, *, thresholds=THRESHOLDS) -> np.ndarray:
    """Net benefit of treating the rows with ``prob >= t``, at every threshold ``t``.

    Parameters
    ----------
    y : array of shape (n,)
        Outcomes, 1 (or True) for the positive class.
    prob : array of shape (n,)
        Predicted probabilities of the positive class.
    thresholds : array of float in (0, 1)

    Returns
    -------
    ndarray
        ``TP/n − FP/n · t/(1 − t)`` per threshold.
    """
    tp, fp = _rates(y, prob, thresholds)
    return tp - fp * _odds(thresholds)


def treat_all(y, *, thresholds=THRESHOLDS) -> np.ndarray:
    """Net benefit of treating everybody: ``prevalence − (1 − prevalence) · t/(1 − t)``."""
    prevalence = float(np.mean(np.asarray(y, dtype=bool)))
    return prevalence - (1.0 - prevalence) * _odds(thresholds)


def _curve_rows(name, repeat, y, prob, thresholds, label) -> pd.DataFrame:
    tp, fp = _rates(y, prob, thresholds)
    return pd.DataFrame({"model": name, "repeat": repeat, "threshold": thresholds,
                         "net_benefit": tp - fp * _odds(thresholds), "n": len(y),
                         "tp_rate": tp, "fp_rate": fp, "positive_class": label})


def decision_curves(predictions: pd.DataFrame, positive_class, *, thresholds=THRESHOLDS
                    ) -> pd.DataFrame:
    """``decision_curve.csv``: every model's net benefit per repeat and threshold.

    Parameters
    ----------
    predictions : DataFrame
        ``model, repeat, row, y, p`` : the out-of-fold probability ``p`` of the positive
        class and the outcome ``y`` (1 = positive) of every row, per model and repeat.
    positive_class
        The label of the positive class (written to every row).
    thresholds : array of float in (0, 1)

    Returns
    -------
    DataFrame
        :data:`CURVE_COLUMNS`; ``treat all`` and ``treat none`` per repeat, from the rows
        the repeat's first model predicted.
    """
    thresholds = np.asarray(thresholds, dtype=float)
    parts = []
    for repeat, block in predictions.groupby("repeat", sort=True):
        first = block[block["model"] == block["model"].iloc[0]]
        y0 = first["y"].to_numpy()
        for name, part in block.groupby("model", sort=False):
            parts.append(_curve_rows(name, repeat, part["y"].to_numpy(), part["p"].to_numpy(),
                                     thresholds, positive_class))
        everyone = _curve_rows(TREAT_ALL, repeat, y0, np.ones(len(y0)), thresholds,
                               positive_class)
        nobody = _curve_rows(TREAT_NONE, repeat, y0, np.zeros(len(y0)), thresholds,
                             positive_class)
        nobody["net_benefit"] = 0.0
        parts += [everyone, nobody]
    if not parts:
        return pd.DataFrame(columns=CURVE_COLUMNS)
    return pd.concat(parts, ignore_index=True)[CURVE_COLUMNS]


def decision_summary(curves: pd.DataFrame) -> pd.DataFrame:
    """``decision_summary.csv``: per model and threshold the mean net benefit over the
    repeats and the band from the smallest to the largest repeat's (``band = "min-max"``)."""
    if curves.empty:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    grouped = curves.groupby(["model", "threshold"], sort=False)["net_benefit"]
    table = grouped.agg(mean_net_benefit="mean", band_low="min", band_high="max",
                        n_repeats="count").reset_index()
    table["band"] = "min-max"
    table["estimand"] = "fold_models_mean"      # a spread of the fold models' curves
    return table[SUMMARY_COLUMNS]


def _row_matrix(predictions, name, rows) -> np.ndarray:
    """(repeats, rows) probabilities of ``name`` on ``rows`` (NaN where missing)."""
    part = predictions[predictions["model"] == name]
    wide = part.pivot_table(index="repeat", columns="row", values="p", aggfunc="first")
    return wide.reindex(columns=rows).to_numpy(dtype=float)


def _contributions(y, probs, thresholds) -> np.ndarray:
    """(rows, thresholds): each row's share of n·NB, averaged over the repeats."""
    treated = probs[:, :, None] >= thresholds[None, None, :]
    weight = np.where(y[:, None], 1.0, -_odds(thresholds)[None, :])
    return (treated * weight[None, :, :]).mean(axis=0)


def decision_pairs(predictions: pd.DataFrame, *, thresholds=THRESHOLDS,
                   n_bootstrap: int = N_BOOTSTRAP, random_state: int = 0) -> pd.DataFrame:
    """``decision_pairs.csv``: for every pair of models, how sure is "A gives more net
    benefit than B" at each threshold?

    ``mean_difference`` is A's net benefit minus B's, averaged over the repeats.
    ``p_more_benefit`` is a paired bootstrap of rows: ``n_bootstrap`` resamples of the
    rows both models predicted in every repeat (the same resample for A and B, seeded by
    ``random_state``), each giving the repeat-averaged difference; it is the share of
    resamples where A's net benefit is larger. ``share_repeats_more`` is the share of
    repeats whose own curves have A above B. ``p_less_benefit`` is the share of resamples
    where B's is larger (the rest are ties).

    What it does not mean: the fitted models are held fixed, so the bootstrap shows how
    much the rows at hand could move the difference, not how a model refitted on new
    data would do; and it is a share of resamples, not a posterior probability. Ties
    (both treat the same rows) count as "not more".

    Returns
    -------
    DataFrame
        :data:`PAIR_COLUMNS`, one row per pair (models in the order they first appear)
        and threshold.
    """
    thresholds = np.asarray(thresholds, dtype=float)
    names = list(pd.unique(predictions["model"]))
    if len(names) < 2:
        return pd.DataFrame(columns=PAIR_COLUMNS)
    counts = predictions.groupby(["row"])["repeat"].count()
    rows = np.asarray(sorted(counts.index[counts == counts.max()]))
    y = (predictions.drop_duplicates("row").set_index("row").loc[rows, "y"]
         .to_numpy(dtype=bool))
    shares = {name: _contributions(y, _row_matrix(predictions, name, rows), thresholds)
              for name in names}
    per_repeat = {name: decision_curves(predictions[predictions["model"] == name]
                                        .loc[lambda f: f["row"].isin(rows)], None,
                                        thresholds=thresholds)
                  for name in names}
    weights = np.random.default_rng(random_state).multinomial(
        len(rows), np.full(len(rows), 1.0 / len(rows)), size=n_bootstrap).astype(float)
    parts = []
    for a, b in itertools.combinations(names, 2):
        difference = shares[a] - shares[b]
        boot = weights @ difference / len(rows)
        curve_a = per_repeat[a][per_repeat[a]["model"] == a]
        curve_b = per_repeat[b][per_repeat[b]["model"] == b]
        above = (curve_a["net_benefit"].to_numpy() > curve_b["net_benefit"].to_numpy())
        above = above.reshape(-1, len(thresholds)).mean(axis=0)
        parts.append(pd.DataFrame({"model_1": a, "model_2": b, "threshold": thresholds,
                                   "mean_difference": difference.sum(axis=0) / len(rows),
                                   "p_more_benefit": (boot > 1e-12).mean(axis=0),
                                   "p_less_benefit": (boot < -1e-12).mean(axis=0),
                                   "share_repeats_more": above, "n_bootstrap": n_bootstrap,
                                   "n_rows": len(rows)}))
    return pd.concat(parts, ignore_index=True)[PAIR_COLUMNS]


@dataclass(frozen=True)
class DecisionResult:
    """The decision-curve analysis of a run.

    Attributes
    ----------
    curves : DataFrame
        ``decision_curve.csv`` (:data:`CURVE_COLUMNS`).
    summary : DataFrame
        ``decision_summary.csv`` (:data:`SUMMARY_COLUMNS`).
    pairs : DataFrame
        ``decision_pairs.csv`` (:data:`PAIR_COLUMNS`).
    positive_class : object
        The class the thresholds are about.
    notes : tuple of Note
    """

    curves: pd.DataFrame
    summary: pd.DataFrame
    pairs: pd.DataFrame
    positive_class: object = None
    notes: tuple = ()

    def tables(self) -> dict:
        """``{file name: DataFrame}`` (docs/experiment-format.md)."""
        if self.curves.empty:
            return {}
        return {"decision_curve.csv": self.curves, "decision_summary.csv": self.summary,
                "decision_pairs.csv": self.pairs}


def _positive_frame(cv_result, positive_code) -> tuple:
    """(model, repeat, row, y, p frame of the probability models; names left out)."""
    n_classes = len(cv_result.classes)
    preds = cv_result.predictions
    column = value_columns(n_classes)[positive_code]
    kept, left_out = [], []
    for name in cv_result.models:
        if cv_result.prediction_kind.get(name) != "proba":
            left_out.append(name)
            continue
        part = preds[preds["model"] == name]
        kept.append(pd.DataFrame({"model": name, "repeat": part["repeat"].to_numpy(),
                                  "row": part["row"].to_numpy(),
                                  "y": (part["y"].to_numpy() == positive_code).astype(int),
                                  "p": part[column].to_numpy(dtype=float)}))
    frame = (pd.concat(kept, ignore_index=True) if kept
             else pd.DataFrame(columns=["model", "repeat", "row", "y", "p"]))
    return frame, left_out


def decision_analysis(cv_result, *, positive_code: int = 1, random_state: int = 0,
                      thresholds=THRESHOLDS, n_bootstrap: int = N_BOOTSTRAP
                      ) -> DecisionResult:
    """Decision curves, their summary and the pairs, from a CV run's out-of-fold
    probabilities (two classes only; models without probabilities are left out with a
    ``decision_no_probabilities`` note).

    Parameters
    ----------
    cv_result : engine.evaluation.cv.CVResult
    positive_code : int
        Code of the positive class (the data set's ``pos_label``, default 1).
    random_state : int
        Seed of the pairs' bootstrap.
    """
    classes = tuple(cv_result.classes)
    if len(classes) != 2:
        return DecisionResult(pd.DataFrame(columns=CURVE_COLUMNS),
                              pd.DataFrame(columns=SUMMARY_COLUMNS),
                              pd.DataFrame(columns=PAIR_COLUMNS), None,
                              (Note("decision_two_class_only",
                                    fields={"n_classes": len(classes)}),))
    label = classes[positive_code]
    frame, left_out = _positive_frame(cv_result, positive_code)
    notes = [Note("decision_no_probabilities", fields={"model": name}) for name in left_out]
    curves = decision_curves(frame, label, thresholds=thresholds)
    return DecisionResult(curves, decision_summary(curves),
                          decision_pairs(frame, thresholds=thresholds, n_bootstrap=n_bootstrap,
                                         random_state=random_state),
                          label, tuple(notes))
