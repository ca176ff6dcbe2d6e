"""The catalogue's long forms of the notes of engine/input, engine/foundation and
engine/runs that were still worded where they were made (issue #40, area msgsC).

Part of the catalogue (:mod:`engine.foundation.messages` joins :data:`LONG_NOTES` into its
``LONG``): the sentence of each note code, made from the note's fields only. This module
imports no project module, so every floor may word through it.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping


def _names(items) -> str:
    """``'a', 'b'``: each item as its quoted text."""
    return ", ".join(repr(str(item)) for item in items)


# ------------------------------------- comparing across data sets (engine.runs.across)

def _across_dataset_left_out(f) -> str:
    models = f["models"]
    one = len(models) == 1
    return (f"data set {str(f['dataset'])!r} is left out of the comparison across data sets: "
            f"{', '.join(str(m) for m in models)} {'has' if one else 'have'} no valid mean on "
            "it (every fold failed); leaving out the data set loses fewer results than "
            f"leaving out {'the model' if one else 'those models'}")


def _across_model_left_out(f) -> str:
    where = ("any data set" if len(f["datasets"]) == f["n_datasets"]
             else "data set(s) " + _names(f["datasets"]))
    return (f"model {str(f['model'])!r} is left out of the comparison across data sets: it "
            f"has no valid mean on {where} (every fold failed); leaving out the model loses "
            "fewer results than leaving out those data sets")


def _across_failed_folds(f) -> str:
    parts = [f"{model} on " + ", ".join(f"{str(d)!r} ({c} folds)" for d, c in places)
             for model, places in f["folds"].items()]
    return ("models failed on some folds: " + "; ".join(parts) + ". On each such data set "
            "every model's mean is over the folds every model completed there (as the "
            "ranking within a data set), so a model that fails on hard folds is not "
            "flattered")


def _across_no_common_folds(f) -> str:
    return ("no fold was completed by every model on " + _names(f["datasets"]) + ": there "
            "each model's mean is over its own folds, which can flatter a model that failed "
            "on hard folds")


def _across_too_few(f) -> str:
    return (f"{f['n_models']} model(s) on {f['n_datasets']} data set(s) left to compare: a "
            "comparison across data sets needs at least 2 models and 2 data sets; only the "
            "ranks are given")


def _across_no_decision(f) -> str:
    n = f["n_datasets"]
    return (f"only {n} data sets: nothing is decided (no model is called better and no pair "
            f"significant) with fewer than {f['min_datasets']} data sets. The exact two-sided "
            f"Wilcoxon test cannot reach p < {f['alpha']:g} with {n} data sets even when one "
            "model wins on every one, and the Bayesian signed-rank test weighs only these "
            f"{n} differences, so its probabilities come close to 1 whenever they all lie on "
            "one side. The numbers are shown; compare the models on more data sets to decide")


def _across_two_models(f) -> str:
    return ("two models: no Friedman or Nemenyi test (they compare three or more); the "
            "Wilcoxon signed-rank test and the Bayesian signed-rank test compare the pair")


def _across_few_datasets(f) -> str:
    n, smallest, alpha = f["n_datasets"], f["min_wilcoxon_p"], f["alpha"]
    return (f"only {n} data sets: the tests across data sets have little power; with {n} "
            f"data sets no Wilcoxon p-value can be smaller than {smallest:.3g}"
            + (f", so no pair can be significant at alpha = {alpha:g}"
               if smallest >= alpha else ""))


def _across_friedman_approximate(f) -> str:
    return ("the Friedman and Iman-Davenport p-values use the chi-square and F "
            f"approximations, which are rough with {f['n_datasets']} data sets and "
            f"{f['n_models']} models (rule of thumb: more than 10 data sets and more than 5 "
            "models, Demšar 2006); read them as approximate")


def _across_posthoc_not_interpretable(f) -> str:
    return (f"the Friedman test (Iman-Davenport) does not reject at alpha = {f['alpha']:g}, "
            "so the Nemenyi pairs are not read as differences (a post-hoc test is "
            "interpreted only after the omnibus test rejects)")


def _across_wilcoxon_multiplicity(f) -> str:
    return (f"with {f['n_datasets']} data sets and {f['n_pairs']} pairs, no Wilcoxon p-value "
            f"can be below {f['alpha']:g} after the {f['correction']} correction (the "
            f"smallest possible is {f['min_adjusted_p']:.3g}): compare fewer models or add "
            "data sets")


def _across_all_tied(f) -> str:
    return ("every model has the same mean on every data set: the models cannot be told "
            "apart, and the Friedman test is undefined")


def _across_tied_ranks(f) -> str:
    tied = f["datasets"]
    return (f"models tie on {len(tied)} data set(s) (" + _names(tied[:5])
            + (", ..." if len(tied) > 5 else "") + "): tied models share the average of "
            "their ranks")


def _across_wilcoxon_undefined(f) -> str:
    return ("the Wilcoxon test is undefined for "
            + "; ".join(f"{a} and {b}" for a, b in f["pairs"])
            + ": they have the same mean on every data set")


_WILCOXON_WORDS = {
    "exact": "exactly",
    "permutation": "exactly, over all sign flips (ties or zero differences)",
    "asymptotic": "by the normal approximation (ties, zero differences or more than 50 "
                  "data sets)"}


def _across_wilcoxon_method(f) -> str:
    parts = [f"{len(f[m])} {'pair' if len(f[m]) == 1 else 'pairs'} {words}"
             for m, words in _WILCOXON_WORDS.items() if f[m]]
    return ("Wilcoxon p-values: " + "; ".join(parts)
            + " (the method column of the Wilcoxon table names each)")


#: Code -> the long form's wording function (joined into messages.LONG).
LONG_NOTES: dict[str, Callable[[Mapping], str]] = {
    "across_dataset_left_out": _across_dataset_left_out,
    "across_model_left_out": _across_model_left_out,
    "across_failed_folds": _across_failed_folds,
    "across_no_common_folds": _across_no_common_folds,
    "across_too_few": _across_too_few,
    "across_no_decision": _across_no_decision,
    "across_two_models": _across_two_models,
    "across_few_datasets": _across_few_datasets,
    "across_friedman_approximate": _across_friedman_approximate,
    "across_posthoc_not_interpretable": _across_posthoc_not_interpretable,
    "across_wilcoxon_multiplicity": _across_wilcoxon_multiplicity,
    "across_all_tied": _across_all_tied,
    "across_tied_ranks": _across_tied_ranks,
    "across_wilcoxon_undefined": _across_wilcoxon_undefined,
    "across_wilcoxon_method": _across_wilcoxon_method,
}
