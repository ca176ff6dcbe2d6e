"""AUC intervals and tests of two AUCs from the out-of-fold predictions table.

From ``predictions.csv`` (``model, repeat, fold, row, true_class`` and ``p_<class>``
columns, or ``decision`` / ``decision_<class>`` for a model without probabilities: the AUC
needs only an order, so decision values serve as well) this module builds

* ``auc_intervals.csv``: per model and class first the corrected t over the per-fold AUCs of
  all k × r folds (method ``corrected_t``, estimate ``fold_average``, empty ``repeat``;
  :mod:`engine.evaluation.curves.auc_corrected`), the interval that takes in how the fold
  models vary (estimand ``expected_score_at_training_size``); then per repeat DeLong's
  interval of the AUC of the pooled out-of-fold predictions (method ``delong``, estimate
  ``pooled``) and LeDell's influence-curve interval of the fold-averaged AUC (method
  ``ledell``, estimate ``fold_average``; grouped when the data set has groups), both about
  the fold models at hand (estimand ``fold_models_mean``); a row with an empty ``repeat``
  summarises their repeats: the mean AUC and the mean of the bounds (repeating the CV
  steadies the estimate, it does not shrink the uncertainty that comes from having these
  rows);
* ``auc_tests.csv``: per pair of models and class, DeLong's paired test on the pooled
  out-of-fold predictions of each repeat, and a row with an empty ``repeat``: the mean AUCs,
  the median z and p and the share of repeats with p below α.

The pooled predictions of one repeat come from k different fold models, so pooled
intervals and tests are approximate (note ``auc_pooled_test``). Two classes: the positive
class only; more: one-vs-rest for each class (``positive_class`` names the class).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Optional

import numpy as np
import pandas as pd
from scipy.stats import norm

from engine.evaluation.cv import positive_label
from engine.foundation.notes import Note
from engine.evaluation.curves.auc_corrected import corrected_at, corrected_row, fold_sizes
from engine.evaluation.curves.delong import delong_covariance, delong_test
from engine.evaluation.curves.ledell import ledell_interval
from engine.evaluation.curves.predictions import predictions_table

__all__ = ["INTERVAL_COLUMNS", "TEST_COLUMNS", "AucTables", "auc_tables", "class_score"]

INTERVAL_COLUMNS = ["model", "repeat", "positive_class", "method", "estimate", "auc", "ci_low",
                    "ci_high", "level", "se", "n_positive", "n_negative", "n_groups",
                    "n_repeats", "n_folds", "estimand"]
TEST_COLUMNS = ["model_1", "model_2", "repeat", "positive_class", "auc_1", "auc_2",
                "difference", "z", "p_value", "alpha", "share_below_alpha", "n_repeats"]


@dataclass(frozen=True)
class AucTables:
    """AUC intervals and tests of one run.

    Attributes
    ----------
    intervals : DataFrame
        ``auc_intervals.csv`` (:data:`INTERVAL_COLUMNS`).
    tests : DataFrame
        ``auc_tests.csv`` (:data:`TEST_COLUMNS`).
    notes : tuple of Note
        Codes ``auc_pooled_test``, ``auc_grouped_rows`` and ``auc_not_computed``.
    """

    intervals: pd.DataFrame
    tests: pd.DataFrame
    notes: tuple = ()

    def tables(self) -> dict:
        """``{file name: DataFrame}`` (docs/experiment-format.md)."""
        return {"auc_intervals.csv": self.intervals, "auc_tests.csv": self.tests}

    def at_alpha(self, alpha: float) -> "AucTables":
        """The same tables at another ``alpha`` (the Results tab's), without a new pass
        over the predictions: DeLong's and LeDell's intervals are ``auc ± z · se`` clipped to
        [0, 1] (DeLong's as pROC, LeDell's as cvAUC), so they move with ``z``, the corrected
        t's ``auc ± t · se`` with ``n_folds − 1`` degrees of freedom; the tests count the
        stored p-values below the new alpha; the summary rows are the repeats' means again."""
        return AucTables(_intervals_at(self.intervals, 1.0 - alpha),
                         _tests_at(self.tests, alpha),
                         tuple(_pooled_note(n.fields["n_pairs"], n.fields["n_repeats"], alpha)
                               if n.code == "auc_pooled_test" else n for n in self.notes))


def class_score(frame: pd.DataFrame, label, classes) -> Optional[np.ndarray]:
    """The score that grows with class ``label``: ``p_<label>``; else, with two classes,
    ``decision`` (larger = the second class in label order; negated for the first), with
    more ``decision_<label>``; None when the model has none of them."""
    classes = list(classes)
    for column, sign in ((f"p_{label}", 1.0),
                         ("decision" if len(classes) == 2 else f"decision_{label}",
                          -1.0 if len(classes) == 2 and label == classes[0] else 1.0)):
        if column in frame and frame[column].notna().any():
            return sign * frame[column].to_numpy(dtype=float)
    return None


def auc_tables(predictions: pd.DataFrame, classes, *, positive_class=None, groups=None,
               level: float = 0.95, alpha: float = 0.05, sizes=None) -> AucTables:
    """AUC intervals (corrected t, DeLong, LeDell) and DeLong's tests of every pair of models.

    Parameters
    ----------
    predictions : DataFrame
        The predictions table: ``model, repeat, fold, row, true_class`` and ``p_<class>``
        columns or ``decision``.
    classes : sequence
        The class labels. With two, ``positive_class`` (default the second) is the class
        the AUC is about; with more, each class in turn against the rest.
    positive_class : optional
        The positive class of a two-class data set.
    groups : array-like, optional
        Group code of every row of the data (indexed by ``row``): LeDell's grouped variance.
    level : float, default 0.95
        Confidence level of the intervals.
    alpha : float, default 0.05
        The level the share of significant repeats is counted at.
    sizes : tuple of float, optional
        ``(n_train, n_test)``, the mean fold sizes of the corrected t (the run's, as
        ``summary.csv`` uses); by default read from the predictions (:func:`fold_sizes`).

    Returns
    -------
    AucTables
    """
    classes = list(classes)
    targets = ([classes[1] if positive_class is None else positive_class]
               if len(classes) == 2 else classes)
    models = list(pd.unique(predictions["model"]))
    sizes = fold_sizes(predictions) if sizes is None and len(predictions) else sizes
    n_groups = np.nan if groups is None else len(np.unique(np.asarray(groups)))
    notes: list[Note] = []
    interval_rows, test_rows = [], []
    for label in targets:
        scored = {}
        for model in models:
            per_repeat = _model_scores(predictions, model, label, classes, notes)
            interval_rows += corrected_row(model, label, per_repeat, sizes, level, n_groups)
            interval_rows += _model_intervals(model, label, per_repeat, groups, level, notes)
            scored[model] = per_repeat
        for first, second in combinations(models, 2):
            test_rows += _pair_tests(first, second, label, scored, alpha)
    tests = _frame(test_rows, TEST_COLUMNS)
    if groups is not None and len(interval_rows):
        notes.insert(0, _grouped_note(groups, predictions["row"].nunique()))
    if len(tests):
        n_repeats = int(predictions["repeat"].nunique())
        notes.insert(0, _pooled_note(len(models) * (len(models) - 1) // 2, n_repeats, alpha))
    return AucTables(_frame(interval_rows, INTERVAL_COLUMNS), tests, tuple(notes))


#: What each AUC interval is about (docs/experiment-format.md): DeLong's and LeDell's take the
#: fold models at hand as given, the corrected t takes in how they vary.
ESTIMANDS = {"corrected_t": "expected_score_at_training_size",
             "delong": "fold_models_mean", "ledell": "fold_models_mean"}


def _frame(rows: list, columns: list) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=columns)
    frame["repeat"] = frame["repeat"].astype("Int64")
    if "estimand" in columns:
        frame["estimand"] = frame["method"].map(ESTIMANDS)
        frame["n_folds"] = frame["n_folds"].astype("Int64")
    return frame


def _model_scores(predictions, model, label, classes, notes) -> dict:
    """``{repeat: (row, positive, score, fold)}`` of one model and class, in row order;
    a repeat with a failed fold (fewer rows than the data) is left out with a note."""
    out = {}
    n_rows = predictions["row"].nunique()
    table = predictions[predictions["model"] == model]
    for repeat, part in table.groupby("repeat", sort=True):
        part = part.sort_values("row")
        score = class_score(part, label, classes)
        reason = ("no_score" if score is None else
                  "missing_predictions" if len(part) < n_rows
                  or not np.all(np.isfinite(score)) else None)
        if reason:
            notes.append(_skip_note(model, label, repeat, reason))
            continue
        positive = part["true_class"].astype(str).to_numpy() == str(label)
        out[int(repeat)] = (part["row"].to_numpy(), positive, score, part["fold"].to_numpy())
    return out


def _model_intervals(model, label, per_repeat, groups, level, notes) -> list:
    rows = []
    z = norm.ppf(0.5 + level / 2.0)
    for repeat, (row, positive, score, fold) in per_repeat.items():
        if positive.all() or not positive.any():
            notes.append(_skip_note(model, label, repeat, "one_class_fold"))
            continue
        counts = dict(level=level, n_positive=int(positive.sum()),
                      n_negative=int((~positive).sum()))
        auc, cov = delong_covariance(positive, score)
        se = float(np.sqrt(max(cov[0, 0], 0.0)))
        rows.append(dict(model=model, repeat=repeat, positive_class=label, method="delong",
                         estimate="pooled", auc=float(auc[0]),
                         ci_low=max(0.0, float(auc[0]) - z * se),
                         ci_high=min(1.0, float(auc[0]) + z * se), se=se, n_groups=np.nan,
                         n_repeats=1, n_folds=len(np.unique(fold)), **counts))
        rows += _ledell_row(model, label, repeat, positive, score, fold, row, groups, level,
                            counts, notes)
    return rows + _summary_rows(rows)


def _ledell_row(model, label, repeat, positive, score, fold, row, groups, level, counts,
                notes) -> list:
    group_codes = None if groups is None else np.asarray(groups)[row]
    try:
        auc, low, high, se = ledell_interval(positive, score, fold, level=level, groups=group_codes)
    except ValueError:                 # a fold without one of the classes
        notes.append(_skip_note(model, label, repeat, "one_class_fold"))
        return []
    n_groups = np.nan if group_codes is None else len(np.unique(group_codes))
    return [dict(model=model, repeat=repeat, positive_class=label, method="ledell",
                 estimate="fold_average", auc=auc, ci_low=low, ci_high=high, se=se,
                 n_groups=n_groups, n_repeats=1, n_folds=len(np.unique(fold)), **counts)]


def _summary_rows(rows: list) -> list:
    """One row per method with an empty repeat: the means over the repeats."""
    if not rows:
        return []
    frame = pd.DataFrame(rows)
    out = []
    for _method, part in frame.groupby("method", sort=False):
        first = part.iloc[0].to_dict()
        means = part[["auc", "ci_low", "ci_high", "se"]].mean().to_dict()
        out.append({**first, **means, "repeat": pd.NA, "n_repeats": len(part)})
    return out


def _pair_tests(first, second, label, scored, alpha) -> list:
    rows = []
    for repeat in sorted(set(scored[first]) & set(scored[second])):
        row_a, positive, score_a, _ = scored[first][repeat]
        row_b, _, score_b, _ = scored[second][repeat]
        if not np.array_equal(row_a, row_b) or positive.all() or not positive.any():
            continue
        auc_a, auc_b, difference, z, p = delong_test(positive, score_a, score_b)
        rows.append(dict(model_1=first, model_2=second, repeat=repeat, positive_class=label,
                         auc_1=auc_a, auc_2=auc_b, difference=difference, z=z, p_value=p,
                         alpha=alpha, share_below_alpha=float(p < alpha), n_repeats=1))
    if rows:
        frame = pd.DataFrame(rows)
        rows.append(dict(rows[0], repeat=pd.NA, auc_1=frame["auc_1"].mean(),
                         auc_2=frame["auc_2"].mean(), difference=frame["difference"].mean(),
                         z=frame["z"].median(), p_value=frame["p_value"].median(),
                         share_below_alpha=float((frame["p_value"] < alpha).mean()),
                         n_repeats=len(frame)))
    return rows


def _intervals_at(intervals: pd.DataFrame, level: float) -> pd.DataFrame:
    """``intervals`` at confidence ``level``: the per-repeat rows from their ``auc`` and
    ``se``, then each model's, class's and method's summary row again."""
    if intervals.empty:
        return intervals
    z = norm.ppf(0.5 + level / 2.0)
    corrected = intervals["method"] == "corrected_t"
    rows = intervals[intervals["repeat"].notna() & ~corrected].copy()
    rows["ci_low"] = (rows["auc"] - z * rows["se"]).clip(lower=0.0)
    rows["ci_high"] = (rows["auc"] + z * rows["se"]).clip(upper=1.0)
    rows["level"] = level
    rows = pd.concat([corrected_at(intervals[corrected], level), rows])
    out = []
    for _, part in rows.groupby(["model", "positive_class"], sort=False):
        records = part.to_dict("records")
        firsts = [r for r in records if r["method"] == "corrected_t"]
        others = [r for r in records if r["method"] != "corrected_t"]
        out += firsts + others + _summary_rows(others)
    return pd.DataFrame(out, columns=intervals.columns).astype(intervals.dtypes.to_dict())


def _tests_at(tests: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """``tests`` counted at ``alpha``: per repeat whether p is below it, and in each pair's
    summary row the share of repeats where it is."""
    if tests.empty:
        return tests
    out = tests.copy()
    out["alpha"] = alpha
    per_repeat = out["repeat"].notna()
    below = (out["p_value"] < alpha).astype(float)
    out.loc[per_repeat, "share_below_alpha"] = below[per_repeat]
    keys = ["model_1", "model_2", "positive_class"]
    shares = below[per_repeat].groupby([out.loc[per_repeat, k] for k in keys]).mean()
    for index in out.index[~per_repeat]:
        out.loc[index, "share_below_alpha"] = shares.loc[tuple(out.loc[index, keys])]
    return out


def _skip_note(model, label, repeat, reason) -> Note:
    return Note("auc_not_computed", fields={"model": model, "positive_class": label,
                                            "repeat": int(repeat), "reason": reason})


def _grouped_note(groups, n_rows) -> Note:
    n_groups = len(np.unique(np.asarray(groups)))
    return Note("auc_grouped_rows", fields={"n_groups": n_groups, "n_rows": int(n_rows)})


def _pooled_note(n_pairs, n_repeats, alpha) -> Note:
    return Note("auc_pooled_test",
                fields={"n_pairs": n_pairs, "n_repeats": n_repeats, "alpha": alpha})


def run_auc_tables(result):
    """The AUC tables of an :class:`engine.runs.analysis.ExperimentResult` with a ``curves``
    block whose ``roc`` is on (a generator, like the other extras; it fits nothing).

    The intervals' level is ``1 − alpha`` of the experiment's ``comparison`` block, the
    same level as the summary's intervals; the tests count p below that alpha.

    Returns
    -------
    AucTables
    """

    predictions = predictions_table(result.cv, result.dataset)
    alpha = result.experiment.comparison.alpha
    return auc_tables(predictions, result.dataset.classes,
                      positive_class=positive_label(result.dataset),
                      groups=result.dataset.groups, level=1.0 - alpha,
                      alpha=alpha, sizes=result.cv.train_test_sizes())
    yield  # pragma: no cover  (a generator, like the other extras)
