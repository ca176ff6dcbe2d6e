"""Comparing models across several data sets: :func:`compare_across` and its result."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
import pandas as pd

from engine.runs.across.report import across_report
from engine.foundation.caller_errors import CallerError
from engine.foundation.notes import Note
from engine.evaluation.stats import CORRECTIONS, snap_ties
from engine.runs.across import frequentist as freq
from engine.runs.across.decisions import bayes_decision, bayes_level, minimum_datasets
from engine.runs.across.signed_rank import signed_rank_posterior

DATASET_SCORE_COLUMNS = ["dataset", "model", "mean", "rank", "n_folds", "n_failed"]
SIGNED_RANK_COLUMNS = ["model_1", "model_2", "p_better", "p_equivalent", "p_worse",
                       "share_most_probable_better", "share_most_probable_equivalent",
                       "share_most_probable_worse", "decision"]
#: File names of :meth:`AcrossComparison.tables`.
TABLE_FILES = ("dataset_scores.csv", "ranks.csv", "friedman.csv", "nemenyi.csv",
               "wilcoxon.csv", "signed_rank.csv")


@dataclass(frozen=True)
class AcrossComparison:
    """Models compared across data sets (the tables of docs/experiment-format.md,
    section "Several data sets").

    ``dataset_scores`` holds every (data set, model) given, with the rank among the
    models compared on that data set (empty where the data set or the model was left
    out); every other table is about the data sets and models compared. Pairs are
    ordered better mean rank first (``model_1``) in ``nemenyi``, ``wilcoxon`` and
    ``signed_rank``.

    Nothing is decided with fewer than ``min_datasets`` data sets (``decides`` is
    False): no pair is ``significant`` and every ``decision`` is ``too_few_datasets``.
    Nemenyi pairs are ``significant`` only when the omnibus test (Iman and Davenport's F)
    rejects at ``alpha`` (``posthoc_interpretable``).
    """

    metric: str
    alpha: float
    rope: float
    dataset_scores: pd.DataFrame
    ranks: pd.DataFrame
    friedman: pd.DataFrame
    nemenyi: pd.DataFrame
    wilcoxon: pd.DataFrame
    signed_rank: pd.DataFrame
    notes: tuple
    correction: str = "holm"
    min_datasets: int = 6
    bayes_level: float = 0.95

    @property
    def n_datasets(self) -> int:
        """The number of data sets compared."""
        return int(self.friedman["n_datasets"].iloc[0])

    @property
    def decides(self) -> bool:
        """Whether there are enough data sets (``min_datasets``) to state any decision."""
        return self.n_datasets >= self.min_datasets

    @property
    def posthoc_interpretable(self) -> bool:
        """Whether Nemenyi's pairs may be read as differences: enough data sets, and the
        omnibus test (Iman and Davenport's F) rejects at ``alpha``."""
        p = self.friedman["iman_davenport_p_value"].iloc[0]
        return self.decides and bool(np.isfinite(p) and p < self.alpha)

    def tables(self) -> dict:
        """``{file name: DataFrame}`` of the six tables."""
        frames = (self.dataset_scores, self.ranks, self.friedman, self.nemenyi,
                  self.wilcoxon, self.signed_rank)
        return dict(zip(TABLE_FILES, frames))

    def cliques(self) -> list:
        """Groups of models (lists of names in rank order) whose mean ranks do not differ
        by more than Nemenyi's critical difference: the bars of a critical-difference
        diagram. Only groups of two or more; a model in no group differs significantly
        from every other. Empty when there is no Nemenyi test (fewer than 3 models or
        2 data sets)."""
        if self.nemenyi.empty:
            return []
        ranked = self.ranks.dropna(subset=["mean_rank"])
        return freq.cliques(ranked, float(self.nemenyi["critical_difference"].iloc[0]))

    def diagram_cliques(self) -> list:
        """The bars a critical-difference diagram should draw: :meth:`cliques` when the
        Nemenyi pairs may be read (:attr:`posthoc_interpretable`), otherwise one group of
        every ranked model (no pair is told apart)."""
        if self.posthoc_interpretable:
            return self.cliques()
        ranked = self.ranks.dropna(subset=["mean_rank"])["model"].tolist()
        return [ranked] if len(ranked) >= 2 and not self.nemenyi.empty else []

    def report(self) -> str:
        """The text of ``report.md``: the comparison in plain words."""
        return across_report(self)


def compare_across(means: pd.DataFrame, *, metric: str, alpha: float = 0.05,
                   rope: float = 0.01, random_state: Optional[int] = 0,
                   n_samples: int = 50_000, correction: str = "holm") -> AcrossComparison:
    """Compare models across data sets on their mean scores.

    Parameters
    ----------
    means : DataFrame
        Tidy, with columns ``dataset, model, mean``: the primary metric's mean of that
        model on that data set over the folds every model completed there (higher is
        better; losses negated; NaN where every fold failed). Optional columns
        ``n_folds`` (the folds that mean is over), ``n_failed`` (the model's failed
        folds there) and ``common`` (False where no fold was common to every model, so
        the mean is the model's own) are kept in ``dataset_scores`` and named in a note;
        other columns are ignored. Data sets and models keep their order of first
        appearance.
    metric : str
        The primary metric's scikit-learn scorer name (for the record and the report).
    alpha : float, default 0.05
        Significance level of the Friedman, Nemenyi and Wilcoxon tests.
    rope : float, default 0.01
        Half-width of the region of practical equivalence of the Bayesian signed-rank
        test, in score units.
    random_state : int or None, default 0
        Seed of the Bayesian signed-rank test's Monte Carlo draws.
    n_samples : int, default 50_000
        Monte Carlo draws of the Bayesian signed-rank test.
    correction : {"holm", "bonferroni", "none"}, default "holm"
        The multiple-comparison correction of the Wilcoxon p-values over all pairs; with
        ``"holm"`` or ``"bonferroni"`` a Bayesian decision needs a posterior probability
        of ``1 - alpha / n_pairs`` (:func:`engine.runs.across.decisions.bayes_level`).

    Returns
    -------
    AcrossComparison

    Raises
    ------
    ValueError
        When ``means`` lacks a column, holds text means or a (data set, model) twice, or
        a setting is out of range.

    Notes
    -----
    A model without a mean on some data set makes the matrix incomplete. The data set
    or the model is left out, whichever loses fewer means, one at a time, with a note
    saying which and why. Tests that need more models or data sets than remain are left
    empty, with a note; nothing raises for lack of data.
    """
    _check_settings(metric, alpha, rope, n_samples, correction)
    table, datasets, models, codes = _tidy(means)
    matrix = np.full((len(datasets), len(models)), np.nan)
    matrix[codes] = table["mean"].to_numpy()
    rows, cols, notes = _complete(matrix, datasets, models)
    kept_sets, kept_models = [datasets[r] for r in rows], [models[c] for c in cols]
    values = snap_ties(matrix[np.ix_(rows, cols)])         # ties within rounding noise
    ranks = freq.rank_matrix(values)
    all_ranks = np.full(matrix.shape, np.nan)
    all_ranks[np.ix_(rows, cols)] = ranks
    table["rank"] = all_ranks[codes]
    order = np.lexsort((codes[1], codes[0]))               # data set, then model, as first seen
    table = table.iloc[order].reset_index(drop=True)
    rank_table = _rank_table(models, kept_models, ranks)
    n_pairs = len(kept_models) * (len(kept_models) - 1) // 2
    settings: dict[str, Any] = {"alpha": alpha, "rope": rope, "correction": correction,
                "minimum": minimum_datasets(alpha),
                "level": bayes_level(alpha, correction, n_pairs)}
    tests = _tests(values, kept_models, rank_table.iloc[:len(kept_models)], settings,
                   random_state, n_samples)
    notes = _failed_folds_notes(table) + notes
    notes += _caveats(values, kept_sets, kept_models, tests, settings)
    return AcrossComparison(metric=metric, alpha=float(alpha), rope=float(rope),
                            dataset_scores=table[DATASET_SCORE_COLUMNS], ranks=rank_table,
                            friedman=tests["friedman"], nemenyi=tests["nemenyi"],
                            wilcoxon=tests["wilcoxon"], signed_rank=tests["signed_rank"],
                            notes=tuple(notes), correction=correction,
                            min_datasets=settings["minimum"],
                            bayes_level=float(settings["level"]))


def _rank_table(models: list, kept: list, ranks: np.ndarray) -> pd.DataFrame:
    """The ranks table: the models compared, best first, then those left out (no rank)."""
    table = freq.rank_table(kept, ranks)
    dropped = [m for m in models if m not in kept]
    if not dropped:
        return table
    return pd.concat([table, pd.DataFrame({"model": dropped, "mean_rank": np.nan,
                                           "n_datasets": 0})], ignore_index=True)


# ----------------------------------------------------------------------------- input
def _check_settings(metric, alpha, rope, n_samples, correction) -> None:
    if correction not in CORRECTIONS:
        # internal: a caller's mistake (run_benchmark passes checked settings)
        raise CallerError("argument_choice",
                          f"compare_across: unknown correction {correction!r}; choose one of: "
                          + ", ".join(CORRECTIONS))
    if not isinstance(metric, str) or not metric:
        # internal: a caller's mistake (run_benchmark passes checked settings)
        raise CallerError("argument_choice",
                          "compare_across: metric must be the primary metric's scorer name, "
                          f"e.g. 'roc_auc' (got {metric!r})")
    if not 0 < alpha < 1:
        # internal: a caller's mistake (run_benchmark passes checked settings)
        raise CallerError("argument_value",
                          f"compare_across: alpha must be between 0 and 1 (got {alpha})")
    if not np.isfinite(rope) or rope < 0:
        # internal: a caller's mistake (run_benchmark passes checked settings)
        raise CallerError("argument_value",
                          f"compare_across: rope must be a number of 0 or more (got {rope})")
    if int(n_samples) != n_samples or n_samples < 1:
        # internal: a caller's mistake (run_benchmark passes checked settings)
        raise CallerError("argument_value",
                          "compare_across: n_samples must be a positive whole number "
                          f"(got {n_samples})")


def _tidy(means) -> tuple:
    """The ``dataset, model, mean`` rows (means as floats, infinities as NaN), and the
    data sets and models in order of first appearance."""
    if not isinstance(means, pd.DataFrame):
        # internal: a caller's mistake (run_benchmark passes checked settings)
        raise CallerError("argument_type",
                          "compare_across: means must be a table (DataFrame) with columns "
                          "dataset, model, mean")
    missing = [c for c in ("dataset", "model", "mean") if c not in means.columns]
    if missing:
        # internal: a caller's mistake (run_benchmark passes checked settings)
        raise CallerError("argument_type",
                          f"compare_across: means has no column {', '.join(missing)}; give "
                          "one row per data set and model with columns dataset, model, mean")
    optional = [c for c in ("n_folds", "n_failed", "common") if c in means.columns]
    table = means[["dataset", "model", "mean", *optional]].reset_index(drop=True)
    for column in ("n_folds", "n_failed"):
        if column not in table:
            table[column] = np.nan
    try:
        values = pd.to_numeric(table["mean"], errors="raise").astype(float)
    except (ValueError, TypeError):
        # internal: a caller's mistake (run_benchmark passes checked settings)
        raise CallerError("argument_type",
                          "compare_across: the column mean must hold numbers (the mean score "
                          "of each model on each data set)") from None
    table["mean"] = values.where(np.isfinite(values))
    dataset_codes, datasets = pd.factorize(table["dataset"])
    model_codes, models = pd.factorize(table["model"])
    if (dataset_codes < 0).any() or (model_codes < 0).any():
        # internal: a caller's mistake (run_benchmark passes checked settings)
        raise CallerError("argument_array",
                          "compare_across: every row of means needs a data set and a model "
                          "name (some are empty)")
    twice = table.duplicated(["dataset", "model"], keep=False)
    if twice.any():
        first = table[twice].iloc[0]
        # internal: a caller's mistake (run_benchmark passes checked settings)
        raise CallerError("argument_array",
                          f"compare_across: model {first['model']!r} has more than one mean on "
                          f"data set {first['dataset']!r}; give one row per data set and model")
    return table, list(datasets), list(models), (dataset_codes, model_codes)


def _complete(matrix: np.ndarray, datasets: list, models: list) -> tuple:
    """Leave out data sets or models until no mean is missing.

    Each step leaves out the data set or model (the line with a missing mean) that
    loses the fewest valid means per missing mean removed; on a tie a data set goes
    first (the comparison is about the models), then the later line.
    Returns the positions of the data sets and models kept, and one note per line left
    out.
    """
    missing = np.isnan(matrix)
    rows, cols = list(range(matrix.shape[0])), list(range(matrix.shape[1]))
    notes = []
    while rows and cols and missing[np.ix_(rows, cols)].any():
        sub = missing[np.ix_(rows, cols)]
        candidates = [((len(cols) - n) / n, 0, -pos, pos) for pos, n in
                      enumerate(sub.sum(axis=1)) if n]
        candidates += [((len(rows) - n) / n, 1, -pos, pos) for pos, n in
                       enumerate(sub.sum(axis=0)) if n]
        _, is_model, _, pos = min(candidates)
        if is_model:
            lacking = [datasets[r] for r in rows if missing[r, cols[pos]]]
            notes.append(_model_note(models[cols.pop(pos)], lacking, len(rows)))
        else:
            lacking = [models[c] for c in cols if missing[rows[pos], c]]
            notes.append(_dataset_note(datasets[rows.pop(pos)], lacking))
    return rows, cols, notes


def _dataset_note(dataset, models: list) -> Note:
    return Note("across_dataset_left_out", fields={"dataset": dataset, "models": models})


def _model_note(model, datasets: list, n_datasets: int) -> Note:
    return Note("across_model_left_out",
                fields={"model": model, "datasets": datasets, "n_datasets": n_datasets})


# ----------------------------------------------------------------------------- tests
def _tests(values, models, ranks, settings, random_state, n_samples) -> dict:
    n, k = values.shape
    alpha, decides = settings["alpha"], n >= settings["minimum"]
    friedman = pd.DataFrame([freq.friedman_row(values)], columns=freq.FRIEDMAN_COLUMNS)
    omnibus_p = friedman["iman_davenport_p_value"].iloc[0]
    rejects = decides and bool(np.isfinite(omnibus_p) and omnibus_p < alpha)
    tests = {"friedman": friedman,
             "nemenyi": freq.nemenyi_table(ranks, n, alpha, interpretable=rejects)}
    if k >= 2 and n >= 2:
        pairs, differences = freq.pair_differences(values, ranks, models)
        tests["wilcoxon"] = freq.wilcoxon_table(pairs, differences,
                                                correction=settings["correction"],
                                                alpha=alpha if decides else None)
        posterior = signed_rank_posterior(differences, settings["rope"], n_samples=n_samples,
                                          random_state=random_state)
        probabilities, shares = posterior.probabilities, posterior.most_probable
    else:
        pairs, probabilities, shares = [], np.empty((0, 3)), np.empty((0, 3))
        tests["wilcoxon"] = pd.DataFrame(columns=freq.WILCOXON_COLUMNS)
    decisions = [bayes_decision(better, equivalent, worse, settings["level"], settings["rope"])
                 if decides else "too_few_datasets"
                 for better, equivalent, worse in probabilities]
    tests["signed_rank"] = pd.DataFrame(
        {"model_1": [a for a, _ in pairs], "model_2": [b for _, b in pairs],
         "p_better": probabilities[:, 0], "p_equivalent": probabilities[:, 1],
         "p_worse": probabilities[:, 2], "share_most_probable_better": shares[:, 0],
         "share_most_probable_equivalent": shares[:, 1],
         "share_most_probable_worse": shares[:, 2], "decision": decisions},
        columns=SIGNED_RANK_COLUMNS)
    return tests


def _failed_folds_notes(table: pd.DataFrame) -> list:
    """A note naming the models that failed on some folds of a data set (their mean
    there, like every model's, is over the folds every model completed), and one for
    data sets without a fold every model completed."""
    failed = table[table["n_failed"].fillna(0) > 0]
    notes = []
    if len(failed):
        where: dict[str, list[tuple[str, int]]] = {}
        for model, dataset, count in zip(failed["model"], failed["dataset"], failed["n_failed"]):
            where.setdefault(model, []).append((dataset, int(count)))
        notes.append(Note("across_failed_folds",
                          fields={"models": list(where),
                                  "datasets": {str(m): [d for d, _ in p]
                                               for m, p in where.items()},
                                  "folds": {str(m): p for m, p in where.items()}}))
    if "common" in table:
        lacking = list(dict.fromkeys(table.loc[table["common"] == False, "dataset"]))  # noqa: E712
        if lacking:
            notes.append(Note("across_no_common_folds", fields={"datasets": lacking}))
    return notes


# ----------------------------------------------------------------------------- caveats
def _caveats(values, datasets, models, tests, settings) -> list:
    """The notes on what the tests can say with these data sets and models."""
    alpha = settings["alpha"]
    n, k = values.shape
    if k < 2 or n < 2:
        return [Note("across_too_few", fields={"n_models": k, "n_datasets": n})]
    notes = []
    if n < settings["minimum"]:
        notes.append(Note("across_no_decision",
                          fields={"n_datasets": n, "min_datasets": settings["minimum"],
                                  "alpha": alpha}))
    if k == 2:
        notes.append(Note("across_two_models", fields={"models": list(models)}))
    smallest_p = 2.0 / 2 ** n
    if n < 5 or smallest_p >= alpha:
        notes.append(Note("across_few_datasets",
                          fields={"n_datasets": n, "min_wilcoxon_p": smallest_p, "alpha": alpha}))
    if k >= 3 and (n <= 10 or k <= 5):
        notes.append(Note("across_friedman_approximate",
                          fields={"n_datasets": n, "n_models": k}))
    notes += _posthoc_notes(tests, n, k, settings)
    return notes + _tie_notes(values, datasets) + _wilcoxon_notes(values, tests)


def _posthoc_notes(tests, n: int, k: int, settings) -> list:
    """Nemenyi not interpretable without the omnibus test's rejection; Wilcoxon pairs that
    cannot be significant after the correction."""
    notes = []
    alpha, minimum = settings["alpha"], settings["minimum"]
    p = tests["friedman"]["iman_davenport_p_value"].iloc[0]
    if k >= 3 and n >= minimum and not (np.isfinite(p) and p < alpha):
        notes.append(Note("across_posthoc_not_interpretable",
                          fields={"iman_davenport_p_value": float(p) if np.isfinite(p) else None,
                           "alpha": alpha}))
    m = len(tests["wilcoxon"])
    smallest = 2.0 / 2 ** n * (m if settings["correction"] != "none" else 1)
    if m > 1 and n >= minimum and smallest >= alpha:
        notes.append(Note("across_wilcoxon_multiplicity",
                          fields={"n_datasets": n, "n_pairs": m,
                                  "correction": settings["correction"],
                                  "min_adjusted_p": min(smallest, 1.0), "alpha": alpha}))
    return notes


def _tie_notes(values, datasets) -> list:
    notes = []
    tied = [d for d, row in zip(datasets, values) if len(np.unique(row)) < len(row)]
    if tied and freq.all_tied(values):
        notes.append(Note("across_all_tied", fields={"datasets": tied}))
    elif tied:
        notes.append(Note("across_tied_ranks", fields={"datasets": tied}))
    return notes


def _wilcoxon_notes(values, tests) -> list:
    notes = []
    wilcoxon = tests["wilcoxon"]
    same = wilcoxon[wilcoxon["method"] == ""]
    pairs = [(a, b) for a, b in zip(same["model_1"], same["model_2"])]
    if pairs and not freq.all_tied(values):
        notes.append(Note("across_wilcoxon_undefined", fields={"pairs": pairs}))
    approximate = wilcoxon[wilcoxon["method"].isin(["permutation", "asymptotic"])]
    if len(approximate):
        by = {m: [(a, b) for a, b, mm in zip(wilcoxon["model_1"], wilcoxon["model_2"],
                                             wilcoxon["method"]) if mm == m]
              for m in ("exact", "permutation", "asymptotic")}
        notes.append(Note("across_wilcoxon_method",
                          fields={"exact": by["exact"], "permutation": by["permutation"],
                           "asymptotic": by["asymptotic"]}))
    return notes
