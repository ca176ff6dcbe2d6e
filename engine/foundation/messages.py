"""The catalogue: one wording of each note and error code, made from its fields.

A note or error is a code with typed fields (:mod:`engine.foundation.notes`,
:mod:`engine.foundation.errors`); the sentence people read is made here, once, from those
fields. :data:`LONG` holds the long form: the sentence the headless runner prints,
``notes.txt`` holds and the report shows (it names experiment-file keys and scorer ids).
The app's short forms, in the words of its own controls and with the metrics' display
names, are in :mod:`engine.evaluation.messages_app` (they need the metric names of the
evaluation layer).

A :class:`~engine.foundation.notes.Note` or
:class:`~engine.foundation.errors.EngineError` made without a message takes its message
from here (:func:`long_form`). Codes not listed yet are still worded where they are made;
a code is listed only when every place that makes it leaves the wording to the
catalogue (tests/engine/test_messages.py checks the engine's syntax tree for that).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping


def joined(names, *, last: str = " and ") -> str:
    """``a, b and c`` (``last`` between the last two)."""
    names = [str(n) for n in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + last + names[-1]


def short_example(message: str, *, limit: int = 110) -> str:
    """A fold's first error or warning without its type (``ValueError: ...``), cut to
    ``limit`` characters with an ellipsis."""
    text = message.split(": ", 1)[-1] if message.count(": ") else message
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# ------------------------------------ reading a CSV file (8 of 9 codes; not "encoding")

def _separator(f) -> str:
    return f"separator detected: {f['name']}"


def _decimal_comma(f) -> str:
    if f["certain"]:
        return (f"decimal comma detected: read {f['example']!r} in column {f['column']!r} as "
                f"{f['value']}; set \"decimal\" to \".\" if that is wrong")
    return (f"decimal comma assumed (a semicolon-separated file): read {f['example']!r} in "
            f"column {f['column']!r} as {f['value']}; set \"decimal\" to \".\" if the comma "
            "separates thousands")


def _examples(f) -> str:
    return ", ".join(repr(c) for c in f["examples"])


def _decimal_comma_as_text(f) -> str:
    return (f"column {f['column']!r} looks like numbers written with a decimal comma "
            f"(e.g. {_examples(f)}): kept as text; set \"decimal\" to \",\" to read them as "
            "numbers")


def _numbers_as_text(f) -> str:
    return (f"column {f['column']!r} looks like numbers but {f['n_bad']} of its "
            f"{f['n_cells']} cells are not (e.g. {_examples(f)}): kept as text categories; "
            "fix those cells or mark them missing")


def _thousands_grouped(f) -> str:
    how = ("a dot groups thousands in a decimal-comma file" if f["separator"] == "."
           else "digits grouped by thousands")
    return f"column {f['column']!r}: read {f['example']!r} as {f['value']} ({how})"


def _stray_cells_missing(f) -> str:
    listed = ", ".join(f"line {line} {text!r}" for line, text in f["lines"])
    return (f"column {f['column']!r} holds numbers; {f['n_bad']} cell(s) that are not "
            f"numbers count as missing: {listed}")


def _spaces_removed(f) -> str:
    return ("removed spaces around text cells in column(s) "
            + ", ".join(map(repr, f["columns"])))


def _trailing_separator(_f) -> str:
    return "ignored the empty cells after the last column (the lines end with a separator)"


# ------------------------------------------------------------- the experiment (4 codes)

def _default_metric(f) -> str:
    classes = "two" if f["n_classes"] == 2 else f["n_classes"]
    return f"no metric given: using {f['metric']} ({classes} classes)"


def _default_metric_imbalanced(f) -> str:
    where = f" in data set {f['dataset']!r}" if f.get("dataset") else ""
    metrics = list(f["metrics"])
    return (f"the classes are imbalanced{where} (class {f['class']!r}: "
            f"{100 * f['share']:.1f}% of the rows): {metrics[-1]} is reported beside "
            f"{metrics[0]}, which stays the primary metric, and per_class.csv gives every "
            "class's recall")


def _random_state_given(f) -> str:
    return (f"random_state = {f['random_state']} (the cross-validation seed) given to "
            + ", ".join(map(str, f["models"])) + ", so every run gives the same numbers")


def _unscaled_models(f) -> str:
    models = list(f["models"])
    verb = "depends" if len(models) == 1 else "depend"
    return (f"{joined(models)} {verb} on the scale of the features but run without "
            'scaling: add "scale": true unless the columns share one unit')


# ------------------------------------------------------------------ the folds (2 codes)

#: What classes with too few rows (or groups) for the folds do to the scores.
SMALL_CLASSES_EFFECT = ("; some test folds hold none of them, so scores that need every class "
                        "in a test fold (such as ROC AUC) can be missing there")


def _small(f) -> tuple:
    """(how many classes, ``label (count), ...``) of a small-classes note."""
    pairs = list(zip(f["classes"], f["counts"]))
    return len(pairs), ", ".join(f"{label} ({n})" for label, n in pairs)


def _weka_small_classes(f) -> str:
    n_small, listed = _small(f)
    return (f"with Weka's folds, {n_small} class(es) have fewer rows than the "
            f"{f['n_splits']} folds: {listed}{SMALL_CLASSES_EFFECT}")


def _grouped_small_classes(f) -> str:
    n_small, listed = _small(f)
    return (f"with grouped folds, {n_small} class(es) occur in fewer groups than the "
            f"{f['n_splits']} folds: {listed}{SMALL_CLASSES_EFFECT}; fewer folds avoid it")


# --------------------------------------------------- the cross-validation run (4 codes)

def _folds(f, what: str) -> str:
    advice = f["advice"]
    return (f"{f['model']} {what} on {f['n_folds_hit']} of {f['n_folds']} folds "
            f"({short_example(f['example'])})" + (f": {advice}." if advice else "."))


def _unranked_models(f) -> str:
    return "no rank for " + ", ".join(map(str, f["models"])) + ": no fold gave a valid score"


def _partial_ranks(f) -> str:
    return ("models are " + f["rank_note"]
            + "; each pair is compared on the folds both models completed")


# ------------------------------------------------------ several data sets, grouping gap

def _default_metric_datasets(f) -> str:
    values = sorted(set(f["n_classes"]))
    classes = ", ".join(map(str, values[:-1])) + f" and {values[-1]}"
    return (f"no metric given and the data sets have {classes} classes: using {f['metric']} "
            "on every data set (on two classes it is the plain ROC AUC)")


def _grouping_gap_no_groups(f) -> str:
    return ('"compare_ungrouped" is on, but this data set names no "groups" column, so '
            "there is nothing to compare: name the column of rows that belong together "
            "(a subject or patient identifier), or turn it off")


# ------------------------------------------- curves: decision (2 codes), learning (4)

def _decision_two_class_only(f) -> str:
    return (f"decision curves need two classes; this data has {f['n_classes']}, so none were "
            "drawn")


def _decision_no_probabilities(f) -> str:
    return (f"{f['model']}: no decision curve, the model gives no probabilities (net benefit "
            "needs a probability to compare with a threshold)")


def _learning_flattened(f) -> str:
    step = (f"{f['model']}: from {f['n_from']:,} to {f['n_to']:,} training rows the mean "
            f"{f['metric']} changed by {f['gain']:+.4f}")
    yardstick = (f"the standard error of that change over the same folds ({f['se']:.4f}, "
                 "widened because the folds share rows)")
    if f["flattened"]:
        return (f"{step}, less than {yardstick}: the learning curve may have flattened, so "
                "more rows like these may not help much")
    return (f"{step}, more than {yardstick}: the learning curve may still be rising, so "
            "more rows like these may help")


def _learning_sizes_merged(f) -> str:
    fractions = ", ".join(f"{x:g}" for x in f["fractions"])
    return ("some learning-curve fractions give the same training size and were merged: "
            f"fractions {fractions} give {', '.join(map(str, f['n_train']))} rows")


def _learning_failed(f) -> str:
    return (f"{f['model']}: {f['n_failed']} learning-curve fit(s) failed, their scores are "
            "missing: " + "; ".join(f["examples"][:2]))


def _learning_class_missing(f) -> str:
    if f["shuffled"]:
        part = f"{f['n_train']} training rows drawn at random"
        advice = "the part is too small to hold every class: leave out the small fractions"
    else:
        part = f"first {f['n_train']} training rows"
        advice = ("the data may be sorted by class: shuffle the training folds (the "
                  "learning curve's 'shuffled' switch, curves.learning_shuffle) or leave "
                  "out the small fractions")
    return (f"{f['model']}: on {f['n_folds']} of {f['n_splits']} folds the {part} (fraction "
            f"{f['fraction']:g}) lack a class, so those fits were skipped and score NaN; "
            f"{advice}")


# ----------------------------------------------------- costs of the outcomes (2 codes)

#: The expected-cost metric's scorer id (engine.evaluation.costs.COST_METRIC).
COST_METRIC = "neg_expected_cost"


def _costs_borrowed(f) -> str:
    shown = [list(row) for row in f["costs"]]
    return (f"expected cost uses the costs {shown} of the models' thresholds (no top-level "
            "\"costs\" given)")


def _costs_not_compared(f) -> str:
    why = ("does not depend on the decision threshold, so the costs change nothing in the "
           "comparison" if f["threshold_free"] else "weighs the errors otherwise than the costs")
    return (f"costs were given, but the models are compared on {f['metric']}, which {why}: "
            f'make "{COST_METRIC}" (expected cost, lower is better) the first metric to '
            "compare them by the costs")


# ------------------------------------------------------ AUC intervals and tests (3 codes)

#: Why a model has no AUC interval for a class and repeat, by ``reason``.
_AUC_SKIPPED = {"no_score": "it has no score for this class",
                "missing_predictions": "some of its folds have no predictions (failed fits)",
                "one_class_fold": "a fold holds only one of the two classes"}


def _auc_not_computed(f) -> str:
    return (f"{f['model']}: no AUC interval for class {f['positive_class']} in repeat "
            f"{f['repeat']}: {_AUC_SKIPPED[f['reason']]}.")


def _auc_grouped_rows(f) -> str:
    return (f"The {f['n_rows']} rows come from {f['n_groups']} groups (rows that belong "
            "together): DeLong's intervals and tests treat every row as independent, so they "
            "are too sure. The corrected t runs over the grouped folds and LeDell's interval "
            "counts each group once: quote the corrected t, or LeDell's for the fold models "
            "at hand.")


def _auc_pooled_test(f) -> str:
    return ("DeLong's test of two AUCs (auc_tests.csv) treats each repeat's pooled "
            "out-of-fold predictions as if one model had made them; they come from different "
            "fold models, so the p-values are approximate. Prefer the corrected t-test for "
            "deciding between models; use DeLong's test as the figure reviewers ask for. The "
            f"summary row gives the median p over {f['n_repeats']} repeat(s) and the share "
            f"below {f['alpha']:g}.")


# ------------------------------------------------- subgroups (2 note and 4 error codes)

def _subgroup_small(f) -> str:
    named = [f"{column} {subgroup} ({n_rows} rows)" for column, subgroup, n_rows
             in f["subgroups"]]
    return (f"subgroups with fewer than {f['min_rows']} rows or fewer than {f['min_events']} "
            "rows of a class get no verdict, their scores are shown but too uncertain to "
            "rank: " + "; ".join(named))


def _subgroup_columns(f) -> str:
    parts = []
    if f["features"]:
        parts.append(", ".join(f["features"]) + " (a feature the models learn from)")
    if f["left_out"]:
        parts.append(", ".join(f["left_out"]) + " (left out of the models)")
    return "subgroups by " + "; ".join(parts)


def _subgroup_column_unknown(f) -> str:
    return (f"subgroups: there is no column {json.dumps(f['column'])} among the features and "
            "the columns left out of the model; name one of: "
            + ", ".join(list(f["columns"])[:30]))


def _subgroup_cuts_not_numeric(f) -> str:
    return (f"subgroups: the column {json.dumps(f['column'])} holds text, so it cannot be cut "
            'at numbers; leave out "cuts" to use its categories')


def _subgroup_one_value(f) -> str:
    column = json.dumps(f["column"])
    if f["by"] == "cuts":
        return (f"subgroups: every row of {column} falls in one subgroup ({f['value']}); give "
                "cuts inside its range")
    return (f"subgroups: the column {column} has one value ({f['value']}) apart from missing "
            "ones, so it makes no groups to compare; name another column")


def _subgroup_too_many_levels(f) -> str:
    return (f"subgroups: the column {json.dumps(f['column'])} has {f['n_levels']} subgroups, "
            f"more than {f['cap']}; give a column of fewer categories, or fewer \"cuts\" for a "
            "numeric one")


# ----------------------------------------------- errors: the models of an experiment (1)

def _too_many_models(f) -> str:
    return (f"models: the models and their grids make {f['n_models']:,} models, more than "
            f"the {f['limit']:,} one run can compare (every pair is compared): use fewer "
            "values per grid parameter")


#: Code -> the long form's wording function over the note's or error's fields.
LONG: dict[str, Callable[[Mapping], str]] = {
    "separator": _separator,
    "decimal_comma": _decimal_comma,
    "decimal_comma_as_text": _decimal_comma_as_text,
    "numbers_as_text": _numbers_as_text,
    "thousands_grouped": _thousands_grouped,
    "stray_cells_missing": _stray_cells_missing,
    "spaces_removed": _spaces_removed,
    "trailing_separator": _trailing_separator,
    "weka_small_classes": _weka_small_classes,
    "grouped_small_classes": _grouped_small_classes,
    "default_metric": _default_metric,
    "default_metric_imbalanced": _default_metric_imbalanced,
    "random_state_given": _random_state_given,
    "unscaled_models": _unscaled_models,
    "folds_failed": lambda f: _folds(f, "failed"),
    "folds_warned": lambda f: _folds(f, "raised warnings"),
    "unranked_models": _unranked_models,
    "partial_ranks": _partial_ranks,
    "default_metric_datasets": _default_metric_datasets,
    "grouping_gap_no_groups": _grouping_gap_no_groups,
    "decision_two_class_only": _decision_two_class_only,
    "decision_no_probabilities": _decision_no_probabilities,
    "learning_flattened": _learning_flattened,
    "learning_sizes_merged": _learning_sizes_merged,
    "learning_failed": _learning_failed,
    "learning_class_missing": _learning_class_missing,
    "auc_not_computed": _auc_not_computed,
    "auc_grouped_rows": _auc_grouped_rows,
    "auc_pooled_test": _auc_pooled_test,
    "costs_borrowed": _costs_borrowed,
    "costs_not_compared": _costs_not_compared,
    "subgroup_small": _subgroup_small,
    "subgroup_columns": _subgroup_columns,
    "subgroup_column_unknown": _subgroup_column_unknown,
    "subgroup_cuts_not_numeric": _subgroup_cuts_not_numeric,
    "subgroup_one_value": _subgroup_one_value,
    "subgroup_too_many_levels": _subgroup_too_many_levels,
    "too_many_models": _too_many_models,
}


def has_long_form(code: str) -> bool:
    """True when the catalogue words ``code``."""
    return code in LONG


def long_form(code: str, fields: Mapping) -> str:
    """The long form of a note or error of ``code`` made from ``fields``.

    Raises
    ------
    KeyError
        When the catalogue does not word ``code`` (:func:`has_long_form`) or ``fields``
        lack a field its wording needs.
    """
    return LONG[code](fields)
