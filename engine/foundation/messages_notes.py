"""The catalogue's long forms of the notes of engine/input, engine/foundation and
engine/runs that were still worded where they were made (issue #40).

Part of the catalogue (:mod:`engine.foundation.messages` joins :data:`LONG_NOTES` into its
``LONG``): the sentence of each note code, made from the note's fields only, and of the
reading errors that were classes worded where raised (a sheet that is no table, a sheet
too large, a CSV read stopped). It imports only :mod:`engine.foundation.machine` (for
sizes), so every floor may word through it.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from engine.foundation.machine import count_text, format_bytes


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


# ------------------------------------------ reading files and making a data set (input)

def _encoding(f) -> str:
    if f["how"] == "bom":
        return f"the file is {f['encoding'].upper()} (it starts with a byte order mark)"
    if f["how"] == "no_bom":
        return f"the file is {f['encoding'].upper()} without a byte order mark; read it as such"
    text = f"the file is not UTF-8; read it as {f.get('name') or f['encoding']}"
    if f.get("starts_like"):
        text += f" (it starts like {f['starts_like']} but holds bytes that are not)"
    if f.get("alternative"):
        text += (f"; its bytes also fit {f['alternative_name']}: set \"encoding\" to "
                 f"\"{f['alternative']}\" if the text looks wrong")
    return text


_POSITIVE_WHY = {
    "second_class": "the second class",
    "asked": "as asked",
    "zero_one": "of 0 and 1; set \"pos_label\" to change",
    "smaller_class": "the smaller class; set \"pos_label\" to change",
    "same_size": "the classes are the same size; set \"pos_label\" to change"}


def _positive_class(f) -> str:
    return f"positive class: {f['label']!r} ({_POSITIVE_WHY[f['reason']]})"


def _control_characters(f) -> str:
    what = "column name(s)" if f["what"] == "column_names" else "class label(s)"
    return (f"{what} with invisible control characters, shown written out: "
            + ", ".join(f["names"]))


def _target_chosen(f) -> str:
    if f.get("weka"):
        return (f"target column not given; using the last attribute, {f['column']!r}, as "
                "Weka does (name the target to choose another)")
    said = ("the one column named as a target" if f["rule"] == "named"
            else "the only column that looks like classes")
    return (f"target column not given; using {str(f['column'])!r}, {said} (name the target "
            "to choose another)")


def _target_not_chosen(f) -> str:
    listed = "; ".join(f"{str(c)!r} ({', '.join(r)})"
                       for c, r in zip(f["candidates"], f["reasons"]))
    return f"the column to predict is not chosen yet; candidates: {listed}"


def _after_outcome(f) -> str:
    column = str(f["column"])
    what = "a time to the event" if f["kind"] == "time" else "the status of an event"
    advice = ("it is left out, as asked" if f["left_out"] else
              f"exclude it (\"exclude\": [{json.dumps(column)}]) unless it is known before")
    return (f"column {column!r} looks like {what} beside the target {str(f['target'])!r}: "
            f"known only with or after the outcome, it would give the answer away; {advice}")


def _possible_leak(f) -> str:
    share, judged, n_rows = f["share"], f["rows_judged"], f["n_rows"]
    rows = (f"{share:.1f}% of rows" if judged == n_rows else
            f"{share:.1f}% of a random sample of {judged:,} of its {n_rows:,} rows")
    advice = ("it is left out, as asked" if f["left_out"] else
              "if it is recorded after the outcome or computed from it, exclude it "
              f"(\"exclude\": [{json.dumps(str(f['column']))}])")
    return (f"possible leak: column {f['column']!r} alone predicts {f['target']!r} for "
            f"{rows} ({f['rule']}); {advice}")


def _class_imbalance(f) -> str:
    label = f["class"]
    guess = "the other class" if f["n_classes"] == 2 else "the largest class"
    return (f"the classes are imbalanced: class {label!r} has {f['count']} of {f['n_rows']} "
            f"rows ({100 * f['share']:.1f}%). Always guessing {guess} is "
            f"{100 * f['majority_share']:.1f}% accurate, so accuracy can look good for a model "
            f"that never finds {label!r}: read balanced accuracy and the recall of each class "
            "(reported by default when no metric is named). The Models tab offers "
            "\"Balance classes\" (class_weight \"balanced\") for the models that take it and "
            "\"Resample training folds\" (over, under or SMOTE; \"resample\" in the "
            "experiment file), applied inside the training folds only")


def _groups_suggested(f) -> str:
    per_value = f["n_rows"] / max(f["n_values"], 1)
    return (f"column {str(f['column'])!r} looks like an identifier with repeated values "
            f"({f['n_values']} values, {per_value:.1f} rows each on average): if rows with "
            "the same value belong together (one patient, one subject), name it as "
            '"groups" of the data set so that they are never split between training and '
            "test folds; otherwise the scores can be too optimistic")


def _groups_pair_suggested(f) -> str:
    outer, inner = (str(c) for c in f["columns"])
    per_pair = f["n_rows"] / f["n_pairs"]
    return (f"column {inner!r} looks like an identifier whose values restart within "
            f"{outer!r} ({f['n_values']} values but {f['n_pairs']} different pairs, "
            f"{per_pair:.1f} rows each on average): the same number in two places is two "
            "cases, so if rows of one case belong together, name the pair as \"groups\" "
            f"(\"groups\": [{json.dumps(outer)}, {json.dumps(inner)}]); {inner!r} alone would "
            "join different cases")


def _identifier_feature(f) -> str:
    column = str(f["column"])
    return (f"column {column!r} looks like an identifier (whole numbers, {f['n_values']} "
            "values, named like one) but is used as a feature: a model reads its numbers as "
            "amounts; if rows with the same value belong together, name it as \"groups\", "
            f"else exclude it (\"exclude\": [{json.dumps(column)}])")


#: Why a column looks like a row index (engine.input.index_columns), by reason.
INDEX_REASONS = {"row_numbers": "the row numbers in file order",
                 "index_name": "a row index as R or pandas write it",
                 "id_name": "a different identifier in every row"}


def _index_columns_left_out(f) -> str:
    said = ", ".join(f"{str(c)!r} ({INDEX_REASONS[why]})"
                     for c, why in zip(f["columns"], f["reasons"]))
    listed = ", ".join(f'"{c}"' for c in map(str, f["columns"]))
    return (f"left out index-like column(s): {said}. A row number or identifier says where a "
            "row sits in the file, not anything about it, and in a file sorted by class it "
            "gives the answer away; to use it as a feature anyway, list it under "
            f"\"features\" (\"features\": [{listed}])")


# ------------------------------------------- the held-out test and nested CV (runs)

def _heldout_failed(f) -> str:
    if f["metric"] is None:
        return (f"held-out test: {f['model']} could not be fitted on all training rows or "
                f"scored on the test file: {f['reason']}")
    return (f"held-out test: {f['metric']} of {f['model']} could not be computed on the test "
            f"file: {f['reason']}")


def _heldout_not_calibrated(f) -> str:
    return ("held-out test: the models are scored as the cross-validation compared them, "
            "without the calibrated variants (" + ", ".join(f["methods"]) + ")")


def _heldout_shared_rows(f) -> str:
    n_shared, named = f["n_shared"], f["rows"]
    listed = ", ".join(map(str, named)) + (" ..." if n_shared > len(named) else "")
    words = (("is", "a row", "row", "its score is", "it") if n_shared == 1 else
             ("are", "rows", "rows", "their scores are", "them"))
    return (f"test file: {n_shared:,} of its {f['n_rows']:,} rows {words[0]} also "
            f"{words[1]} of the training data (data {words[2]} {listed}), so {words[3]} not "
            f"held out; remove {words[4]} from one of the two files for an honest held-out "
            "estimate")


def _models_saved(f) -> str:
    files, missing = f["files"], f["not_saved"]
    text = (f"saved {len(files)} final model(s) fitted on all training rows ("
            + ", ".join(files) + "; see models_README.txt)")
    if missing:
        text += f"; {len(missing)} could not be saved: " + ", ".join(missing)
    return text + "; use model files only from people you trust"


def _nested_not_computed(f) -> str:
    what = "predicted classes" if f["metric"] == "accuracy" else "probabilities"
    return (f"no nested-CV interval for {f['model']}: {f['failed']} of its {f['fits']} "
            f"nested fits failed or gave no {what} for {f['metric']}")


def _nested_interval(f) -> str:
    folds = f["n_splits"]
    return (f"nested CV (Bates, Hastie and Tibshirani 2024): {f['nested_repeats']} repeat(s) "
            f"of {folds} x {folds} fits per model give a {f['level'] * 100:g}% interval for "
            f"{f['metric']} of the model fitted on all {f['n_rows']:,} rows, around a "
            "bias-corrected estimate (nested_intervals.csv)")


# ------------------------------------------ repeats "auto" (engine.evaluation.auto_repeats)

def _repeats_auto_stopped(f) -> str:
    ratio, bound = f["ratio"], f["bound"]
    most = ("no interval had a width: every fold value was equal" if ratio is None
            else f"by {1 - ratio:.1%} at most")
    stable = ("" if bound is None else
              f", and none is likely to be more than {f['tolerance']:.0%} wider than with "
              f"{f['max_repeats']} repeats (at most {bound:.3f} times, a "
              f"{f['bound_level']:.0%} bound from the spread between repeats)")
    why = {"precision": "one more repeat would have narrowed every interval on the primary "
                        f"metric by less than {f['precision']:.0%} of its width "
                        f"({most}){stable}",
           "max_repeats": f"the cap of {f['max_repeats']} repeats was reached",
           "time_budget": "the time budget was reached"}[f["reason"]]
    return (f'"n_repeats": "auto" stopped after {f["n_repeats"]} of at most '
            f"{f['max_repeats']} repeats: {why}; the tables equal a fixed run with "
            f'"n_repeats": {f["n_repeats"]}')


# ---------------------------- reading errors that were worded where raised (engine.input)

def _other_sheets(f) -> str:
    others = [s for s in f["sheets"] if s != f["sheet"]]
    if not others:
        return ""
    return ("; the workbook's other sheet(s): " + ", ".join(map(repr, others))
            + ' (set "sheet" to read one)')


def _sheet_not_a_table(f) -> str:
    if f["n_columns"] < 2:
        problem = (f"the sheet {f['sheet']!r} of {f['path']} has {f['n_columns']} column(s): "
                   "a data set needs at least one feature column and a target column, with "
                   "their names in the first row")
    else:
        problem = (f"the sheet {f['sheet']!r} of {f['path']} has no rows of data under its "
                   "first row (the column names)")
    return problem + _other_sheets(f)


def _sheet_too_large(f) -> str:
    n_rows = f["n_rows"]
    return (f"cannot read {f['path']}: its sheet reaches row {n_rows:,} and column "
            f"{f['last_column']} ({n_rows:,} x {f['n_columns']:,} cells), which as a table "
            f"would take about {format_bytes(f['need'])} of memory, more than the "
            f"{format_bytes(f['available'])} available; delete the stray cells far below or "
            "to the right of the data (Ctrl+End in Excel shows the last one), or save the "
            "data as CSV")


def read_stopped_detail(f) -> str:
    """Why a bounded CSV read stopped (:class:`engine.input.csv_bounds.ReadStopped`),
    without the path: a row too long (``reason`` "row_too_long") or too many rows for
    the memory ("rows_too_many")."""
    if f["reason"] == "row_too_long":
        return (f"the row that starts on line {f['line']:,} is longer than "
                f"{format_bytes(f['row_bytes'])} (a cell can have at most 32,767 "
                "characters): is it the right file? (A quote that never closes makes the "
                "rest of the file one cell.)")
    return (f"its first {f['lines']:,} lines already make {count_text(f['rows'])} rows x "
            f"{count_text(f['width'])} columns (every row has the header's columns), which "
            f"would take {format_bytes(f['need'])} of memory while it is read (8 bytes a "
            f"value, {f['copies']} copies), more than the {format_bytes(f['available'])} "
            "available; use a sample of its rows or a computer with more memory")


# --------------------------------- a built-in data set, the default ROPE (input, runs)

def _builtin_data(f) -> str:
    return f["description"]


def _default_rope(f) -> str:
    return (f"no ROPE given: equivalence within ±{f['rope']:g} ({f['unit']}) on "
            f"{f['metric']}, the default for its family: {f['reason']}")


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
    "encoding": _encoding,
    "positive_class": _positive_class,
    "control_characters": _control_characters,
    "target_chosen": _target_chosen,
    "target_not_chosen": _target_not_chosen,
    "after_outcome": _after_outcome,
    "possible_leak": _possible_leak,
    "class_imbalance": _class_imbalance,
    "groups_suggested": _groups_suggested,
    "groups_pair_suggested": _groups_pair_suggested,
    "identifier_feature": _identifier_feature,
    "index_columns_left_out": _index_columns_left_out,
    "heldout_failed": _heldout_failed,
    "heldout_not_calibrated": _heldout_not_calibrated,
    "heldout_shared_rows": _heldout_shared_rows,
    "models_saved": _models_saved,
    "nested_not_computed": _nested_not_computed,
    "nested_interval": _nested_interval,
    "repeats_auto_stopped": _repeats_auto_stopped,
    "sheet_not_a_table": _sheet_not_a_table,
    "sheet_too_large": _sheet_too_large,
    "builtin_data": _builtin_data,
    "default_rope": _default_rope,
}
