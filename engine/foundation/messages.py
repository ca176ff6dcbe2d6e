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

# the errors of engine/evaluation and engine/output
from engine.foundation.messages_evaluation import LONG_EVALUATION
# the notes of engine/input, engine/foundation and engine/runs worded where made
from engine.foundation.messages_notes import LONG_NOTES, read_stopped_detail
from engine.foundation.caller_errors import CallerError
from engine.foundation.machine import count_text, format_bytes


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


# =========================================== errors of engine.input, .foundation, .runs
# (one block; their LONG entries close the dict)

def _shown_names(names, limit: int = 5, more: str = "") -> str:
    """``'a', 'b'`` of the first ``limit`` names, ``more`` after them when cut."""
    names = list(names)
    return ", ".join(map(repr, names[:limit])) + (more if len(names) > limit else "")


def _file(f) -> str:
    """Which file a held-out error is about: "test" (a held-out test file), or "data" (a
    file given to predict, checked as a test file is)."""
    return f.get("file", "test")


def _heldout_unreadable(f) -> str:
    return f"the {_file(f)} file {f['path']} cannot be read: {f['detail']}"


def _heldout_no_target(f) -> str:
    return (f"the {_file(f)} file {f['path']} has no column {f['target']!r} (the target of the "
            "training data): give it the same columns as the training file")


def _heldout_no_rows(f) -> str:
    return (f"the {_file(f)} file {f['path']} has no row with a value in {f['target']!r}: a "
            "held-out test needs at least one row")


def _heldout_missing_columns(f) -> str:
    columns = [str(c) for c in f["columns"]]
    return (f"the {_file(f)} file {f['path']} lacks {len(columns)} feature column(s) of the "
            f"training data: {_shown_names(columns, more=' ...')}; give it the same columns "
            "as the training file")


def _heldout_text_column(f) -> str:
    return (f"the {_file(f)} file {f['path']}: column {f['column']!r} holds numbers in the "
            f"training data but text in the {_file(f)} file; check the decimal mark "
            f"(\"decimal\"), the separator and the encoding of the {_file(f)} file")


def _heldout_unseen_classes(f) -> str:
    return (f"the {_file(f)} file {f['path']} has class(es) the training data does not have in "
            f"{f['target']!r}: {_shown_names(f['classes'])}; a model cannot predict a class "
            "it never saw: remove those rows or add them to the training data")


def _heldout_missing_values(f) -> str:
    return (f"the {_file(f)} file {f['path']} has missing values in {_shown_names(f['columns'])}, "
            "but the training data has none, so the models were built without filling in "
            "missing values; fill them in or remove those rows")


def _skops_missing(_f) -> str:
    return ('saving and loading models needs skops: pip install "honest-eval[models]" (or '
            "pip install skops)")


def _no_valid_score(f) -> str:
    return (f"no model gave a valid {f['metric']} score on any fold: {f['reason']}"
            + (f"; {f['advice']}" if f["advice"] else ""))


def _grouping_gap_needs_groups(_f) -> str:
    return ('the grouping gap needs a data set with "groups" (the column of rows that belong '
            'together); name one, or leave "compare_ungrouped" out')


def _dataset_problem(f) -> str:
    return f"{f['place']}: {f['detail']}"


def _experiment_invalid(f) -> str:
    return f"{f['place']}: {f['problem']}"


def _experiment_not_finite(f) -> str:
    return f"{f['place']}: expected a finite number, got {f['value']}"


def _experiment_huge_number(f) -> str:
    return (f"{f['place']}: expected a number of a usual size (at most {f['limit']:,}), got "
            f"{f['value']}")


def _experiment_too_deep(f) -> str:
    return (f"{f['place']}: nested more than {f['depth']} levels deep; an experiment file "
            "needs only a few levels")


# ---- files and data set blocks (engine.input.file_checks, engine.input.readers)

#: The kinds of data file, as a sentence names them.
FILE_KIND_NAMES = {"csv": "a CSV file", "arff": "an ARFF file", "excel": "an Excel workbook"}


def _file_missing(f) -> str:
    return f"cannot open {f['path']}: the file does not exist"


def _file_unopenable(f) -> str:
    return f"cannot open {f['path']}: {f['detail']}"


def _file_not_regular(f) -> str:
    return (f"cannot open {f['path']}: it is {f['kind']}, not {f['what']}; give the path of "
            f"{f['what']}")


def _file_of_system(f) -> str:
    return (f"cannot open {f['path']}: it is one of the system's own files (under "
            f"{f['root']}), whose reads can block or never end, not {f['what']}; give the "
            f"path of {f['what']}")


def _file_unreadable(f) -> str:
    return (f"cannot open {f['path']}: {f['detail']}; check that you may read it (its "
            "permissions)")


def _file_memory(f) -> str:
    return (f"cannot read {f['path']}: the file is {format_bytes(f['size'])} and its table "
            f"would take more memory than the {format_bytes(f['available'])} available; use "
            "a sample of its rows or a computer with more memory")


def _table_memory(f) -> str:
    where = f" ({f['how']})" if f["how"] else ""
    return (f"cannot read {f['path']}: its table of about {count_text(f['n_values'])} "
            f"values{where} would take about {format_bytes(f['need'])} of memory while it is "
            f"read (8 bytes a value, {f['copies']} copies), more than the "
            f"{format_bytes(f['available'])} available; {f['advice']}")


def _experiment_file_size(f) -> str:
    return (f"cannot open {f['path']}: it is {format_bytes(f['size'])}, far more than an "
            "experiment file (a few KB of JSON); is it the right file?")


def _builtin_memory(f) -> str:
    return (f"built-in data set {f['name']!r}: {count_text(f['rows'])} rows x "
            f"{count_text(f['columns'])} columns would take {format_bytes(f['need'])} of "
            f"memory (8 bytes a value), about {f['copies']} times that while it is generated, "
            f"but {format_bytes(f['available'])} is available: lower {f['knob']} to at most "
            f"{count_text(f['most'])}")


def _file_kind_unknown(f) -> str:
    return (f"cannot tell what kind of file {f['path']} is from its extension "
            f"({f['extension'] or 'none'}); the app reads " + ", ".join(f["extensions"])
            + ' (give a CSV file of another name as "csv")')


def _dataset_file_and_csv(_f) -> str:
    return ('dataset: give either "file" or "csv", not both ("csv" reads a CSV file, "file" '
            "any supported file by its extension)")


def _dataset_option_of_kind(f) -> str:
    owners = " and ".join(FILE_KIND_NAMES[k].split(" ", 1)[1] + "s" for k in f["kinds"])
    return (f'dataset: "{f["key"]}" applies to {owners} only, and {f["path"]} is '
            f"{FILE_KIND_NAMES[f['kind']]}; leave it out")


def _dataset_unknown_keys(f) -> str:
    return (f"dataset: unknown key(s) {', '.join(f['keys'])}; allowed with {f['with']}: "
            + ", ".join(f["allowed"]))


def _read_option_unknown(f) -> str:
    return f"{', '.join(f['options'])}: not an option for {FILE_KIND_NAMES[f['kind']]}"


def _builtin_no_groups(f) -> str:
    return ('dataset: "groups" names a column of a data file saying which rows belong '
            f"together; the built-in data set {f['name']!r} has no such column: remove "
            '"groups" (or use a data file with one)')


def _dataset_no_source(_f) -> str:
    return ('dataset: give either {"builtin": NAME} or {"file": PATH, "target": COLUMN} (or '
            '{"csv": PATH, ...})')


def _test_unknown_keys(f) -> str:
    return (f"{f['where']}: {', '.join(f['keys'])} cannot be used with {f['path']}; allowed: "
            + ", ".join(f["allowed"]))


# ---- making a data set (engine.input.data, engine.input.data_checks)

def _builtin_unknown(f) -> str:
    return (f"unknown built-in data set {f['name']!r}; choose one of: "
            + ", ".join(f["builtins"]))


def _builtin_options(f) -> str:
    return (f"built-in data set {f['name']!r} takes no option(s) {', '.join(f['options'])}; "
            f"allowed: {', '.join(f['allowed']) or 'none'}")


def _builtin_generator(f) -> str:
    return f"built-in data set {f['name']!r}: {f['detail']}"


def _file_empty(f) -> str:
    return f"cannot read {f['path']}: the file is empty"


def _one_column(f) -> str:
    return (f"the file {f['path']} has only one column: a data set needs at least one "
            "feature column and a target column (is the separator right?)")


def _data_no_rows(f) -> str:
    if f.get("kind") == "arff":
        return f"cannot read {f['path']}: it has no rows of data after '@data'"
    return f"the file {f['path']} has a header but no rows of data"


def _read_stopped(f) -> str:
    return f"cannot read {f['path']}: {read_stopped_detail(f)}"


def _decimal_option(f) -> str:
    return f'"decimal" must be "." or ","; got {f["decimal"]!r}'


def _thousands_option(f) -> str:
    return ('"thousands" must be one of ",", ".", " ", "\'" or "" (none); got '
            f"{f['thousands']!r}")


def _thousands_is_decimal(f) -> str:
    return f"the thousands separator {f['thousands']!r} cannot also be the decimal mark"


def _no_features(_f) -> str:
    return ("no feature columns are left besides the target: a model needs at least one "
            "column to learn from")


def _target_one_class(f) -> str:
    only = f["classes"][0] if f["classes"] else "nothing"
    return (f"the target {f['target']!r} has only one class ({only}): a classifier needs at "
            "least two classes; pick another target column")


def _target_not_classes(f) -> str:
    return (f"the target {f['target']!r} has {f['n_classes']} different values in "
            f"{f['n_rows']} rows: it looks like a number or an identifier, not a class; pick a "
            "column of categories as the target")


def _columns_missing(f) -> str:
    what = '"features": cannot keep' if f["role"] == "keep" else "cannot leave out"
    return (f"{what} missing column(s) " + ", ".join(map(repr, f["wanted"]))
            + "; the columns are: " + ", ".join(f["columns"]))


def _kept_and_left_out(f) -> str:
    return ("column(s) " + ", ".join(map(repr, f["columns"])) + ' are both in "features" '
            '(kept) and in "exclude" (left out); remove them from one')


def _kept_not_feature(f) -> str:
    return (f'"features": {f["column"]!r} is {f["what"]}, not a feature; remove it from '
            '"features"')


def _target_undeclared(f) -> str:
    return (f"the target {f['target']!r} holds value(s) not declared for it: "
            + ", ".join(map(repr, list(f["values"])[:5])))


def _pos_label_not_binary(f) -> str:
    classes = list(f["classes"])
    return (f'"pos_label" applies to two classes only; the target has {len(classes)}: '
            f"{', '.join(map(repr, classes))}; leave \"pos_label\" out")


def _pos_label_unknown(f) -> str:
    return (f'"pos_label" {f["pos_label"]!r} is not one of the classes: '
            + ", ".join(map(repr, f["classes"])))


def _column_unknown(f) -> str:
    return f"there is no column {f['column']!r}; the columns are: " + ", ".join(f["columns"])


# ---- long texts, groups, row ids, resampling, data set names (engine.input)

def _column_name_long(f) -> str:
    return (f"column {f['position']} has a name of {f['length']:,} characters "
            f"({f['start']}), more than the {f['limit']:,} a column name can have: is it the "
            "right file? Shorten the name in the first row")


def _cell_text_long(f) -> str:
    return (f"column {f['column']}, row {f['row']} of the data holds a text of "
            f"{f['length']:,} characters, more than the {f['limit']:,} a cell can have "
            "(Excel's own limit): is it the right file? Shorten that cell or leave the column "
            "out of the file")


def _class_label_long(f) -> str:
    return (f"the target {f['target']}, row {f['row']} of the data holds a class label of "
            f"{f['length']:,} characters, more than the {f['limit']:,} a class label can "
            "have: pick a column of short categories as the target, or shorten the labels")


def _groups_is_target(f) -> str:
    return (f'"groups": the column {f["column"]!r} is the target; name the column that says '
            "which rows belong together (a subject or patient identifier)")


def _groups_missing(f) -> str:
    rows = ", ".join(map(str, f["rows"])) + (" ..." if f["n_missing"] > 5 else "")
    return (f'"groups": the column {f["column"]!r} has {f["n_missing"]} missing value(s) '
            f"(data row(s) {rows}): every row needs its group; fill them in, or remove those "
            'rows, or leave "groups" out')


def _id_column_is_target(f) -> str:
    return (f'"id_column": {f["column"]!r} is the target; an id column says which row is '
            'which, choose another column (or leave "id_column" out)')


def _id_column_kept(f) -> str:
    return (f'"id_column": {f["column"]!r} is also in "features"; a column used as the id is '
            "not a feature, remove it from one of them")


#: What to do when imbalanced-learn is missing.
IMBLEARN_HINT = ("resampling needs the imbalanced-learn package, which is not installed: "
                 'install it (pip install "honest-eval[imbalance]" or pip install '
                 'imbalanced-learn), or remove "resample"')


def _resample_unknown(f) -> str:
    return (f"{f['where']}: unknown resampling {f['value']!r}; choose "
            + ", ".join(f'"{name}"' for name in f["samplers"]) + " or leave it out")


def _imblearn_missing(f) -> str:
    return f"{f['where']}: {IMBLEARN_HINT}"


# why a data set name cannot be used (engine.input.dataset_names.name_problem)
_NAME_PROBLEMS = {
    "empty": lambda f: "a name is non-empty text",
    "too_long": lambda f: (f"a name has at most {f['max_length']} characters (this one has "
                           f"{f['length']})"),
    "forbidden": lambda f: (f"it holds {' '.join(f['characters'])}, which a file name cannot "
                            "hold"),
    "formula": lambda f: f"it starts with {f['first']}, which a spreadsheet reads as a formula",
    "dot_or_space": lambda f: "a name cannot start with a dot or a space, or end with one",
    "reserved": lambda f: "Windows reserves this name for a device",
}


def _target_not_named(f) -> str:
    candidates, reasons = list(f["candidates"]), list(f["reasons"])
    if not candidates:
        return ("no column looks like classes to predict; name the target column "
                "(\"target\": COLUMN)")
    shown = min(len(candidates), f["max_listed"])
    listed = "; ".join(f"{candidates[i]!r} ({', '.join(reasons[i])})" for i in range(shown))
    more = f" and {len(candidates) - shown} more" if len(candidates) > shown else ""
    return (f"the column to predict is not named and {len(candidates)} columns could be it: "
            f"{listed}{more}; name it (\"target\": {json.dumps(candidates[0])} or another)")


def _dataset_name_bad(f) -> str:
    return (f"{f['where']}: {f['name']} cannot name a data set: "
            f"{_NAME_PROBLEMS[f['problem']](f)}; use letters, digits, spaces and signs such "
            "as _ ( ) . ,")


def _dataset_name_taken(f) -> str:
    case = f" ({f['other']}: case does not count)" if f["other"] else ""
    return (f"datasets[{f['index']}].name: the name {f['name']} is already the name of "
            f"datasets[{f['other_index']}]{case}; give every data set a name of its own")


# ---- reading a CSV file's text (engine.input.csv_values)

#: The encodings the messages suggest.
ENCODINGS_LISTED = "utf-8, utf-8-sig, latin-1, cp1252, cp932 (Shift-JIS) or utf-16"

#: A separator as a sentence names it.
_SEPARATOR_WORDS = {",": "a comma", ";": "a semicolon", "\t": "a tab", "|": "a vertical bar"}


def _sep_option(f) -> str:
    return f'"sep" must be one character such as ",", ";", "|" or a tab (got {f["sep"]!r})'


def _encoding_option(f) -> str:
    return f'"encoding" must be a name such as "utf-8" (got {f["encoding"]!r})'


def _encoding_unknown(f) -> str:
    return (f"unknown encoding {f['encoding']!r}: use {ENCODINGS_LISTED}, or leave "
            '"encoding" out to detect it')


#: What to do with a known binary file, by the ``fix`` of ``file_binary_kind``.
_BINARY_FIXES = {
    "spreadsheet": "save the sheet as CSV (File, Save as, CSV) and give that file",
    "workbook": 'give it as "file" instead of "csv" (the app reads .xlsx workbooks), or save '
                "the sheet as CSV",
    "archive": "unpack it and give the CSV file inside"}


def _file_binary_kind(f) -> str:
    return (f"cannot read {f['path']}: it is {f['kind']} (a binary file), not {f['what']}; "
            f"{_BINARY_FIXES.get(f['fix']) or 'give ' + f['what']}")


def _file_binary(f) -> str:
    why = (f"it holds zero bytes even when read as {f['encoding']}" if f["encoding"]
           else "it holds zero bytes, which text files do not")
    return (f"cannot read {f['path']}: it looks like a binary file, not {f['what']} ({why}); "
            f'give {f["what"]}, or its encoding if it is text ("encoding": "utf-16")')


def _csv_comment_first(f) -> str:
    return (f"cannot read {f['path']}: line {f['line']} is a comment ({f['text']!r}) but the "
            "first line must hold the column names; delete the comment lines at the top of "
            "the file")


def _csv_not_encoding(f) -> str:
    return (f"cannot read {f['path']} as {f['encoding']}: it holds bytes that are not "
            f"{f['encoding']} ({f['detail']}); give the file's encoding as \"encoding\" "
            f"({ENCODINGS_LISTED}), or save it as UTF-8")


def _csv_empty(f) -> str:
    return f"cannot read {f['path']}: it holds no columns or rows"


def _csv_ragged(f) -> str:
    name = _SEPARATOR_WORDS.get(f["sep"], repr(f["sep"]))
    return (f"cannot read {f['path']}: line {f['line']} has {f['saw']} cells but the header "
            f"has {f['expected']}; put quotes around cells that contain the separator "
            f'({name}), delete stray comment lines, or set "sep" if the separator is not '
            + name)


def _csv_open_quote(f) -> str:
    return (f"cannot read {f['path']}: a quote mark (\") near line {f['line']} opens a cell "
            "that never closes; close or remove it")


def _csv_unparsed(f) -> str:
    name = _SEPARATOR_WORDS.get(f["sep"], repr(f["sep"]))
    return (f"cannot read {f['path']} as CSV ({f['detail']}); check the separator (now "
            f"{name}) and the encoding")


# ---- Excel workbooks (engine.input.excel)

#: What to do with an .xls file.
OLD_EXCEL_ADVICE = ("the old Excel 97-2003 format (.xls), which this app does not read; open "
                    "it in Excel or LibreOffice and save it as an Excel workbook (.xlsx) or as "
                    "CSV")


def _excel_old_format(f) -> str:
    return f"cannot read {f['path']}: it is in {OLD_EXCEL_ADVICE}"


def _sheet_unreadable(f) -> str:
    return f"cannot read sheet {f['sheet']!r} of {f['path']}: {f['detail']}"


def _excel_not_zip(f) -> str:
    return (f"cannot read {f['path']}: it is not an Excel workbook (an .xlsx file is a ZIP "
            "archive, this one is not); save it from Excel as .xlsx, or give a CSV file")


def _openpyxl_missing(f) -> str:
    return (f"reading Excel workbooks needs the package openpyxl: {f['detail']}; install it "
            "(pip install -U openpyxl) or save the sheet as CSV")


def _excel_invalid(f) -> str:
    return (f"cannot read {f['path']}: not a valid Excel workbook ({f['detail']}); save it "
            "again from Excel as .xlsx, or as CSV")


def _excel_part_large(f) -> str:
    return (f"cannot read {f['path']}: its part {f['part']!r} unpacks to "
            f"{format_bytes(f['size'])}, more than the {format_bytes(f['limit'])} this app "
            "reads from a workbook (it would take many minutes); save the sheet as CSV")


def _excel_part_padding(f) -> str:
    ratio = f["size"] / max(1, f["compressed"])
    return (f"cannot read {f['path']}: its part {f['part']!r} unpacks to "
            f"{format_bytes(f['size'])} from {format_bytes(f['compressed'])} ({ratio:,.0f} "
            "times), far more than a sheet of data compresses: it is mostly padding; save the "
            "sheet again from Excel, or as CSV")


def _excel_strings_large(f) -> str:
    return (f"cannot read {f['path']}: its shared strings ({f['part']!r}) unpack to "
            f"{format_bytes(f['size'])}, more than the {format_bytes(f['limit'])} this app "
            "reads (every one is parsed when the workbook opens, about 1 MB a second); save "
            "the sheet as CSV")


def _excel_part_memory(f) -> str:
    return (f"cannot read {f['path']}: its part {f['part']!r} unpacks to "
            f"{format_bytes(f['size'])}, which would take about {format_bytes(f['need'])} of "
            f"memory while it is read, more than the {format_bytes(f['available'])} "
            "available; save the sheet as CSV or use a computer with more memory")


def _excel_no_sheets(f) -> str:
    return f"cannot read {f['path']}: the workbook has no sheets"


def _sheet_unknown(f) -> str:
    return (f"there is no sheet {f['sheet']!r} in {f['file']}; its sheets are: "
            + ", ".join(f["sheets"]))


# ---- ARFF files (engine.input.arff): one code per file, a problem per line

def _declared(f) -> str:
    values = list(f["declared"])
    return ", ".join(values[:10]) + (", ..." if len(values) > 10 else "")


#: An ARFF line's problem (``problem`` field of ``arff_line``) -> its wording.
_ARFF_PROBLEMS: dict[str, Callable[[Mapping], str]] = {
    "split": lambda f: "cannot split this line into values",
    "open_quote": lambda f: (f"a quote ({f['quote']}) never closes on this line; close it, "
                             "or write a quote inside a value as \\' or \\\""),
    "no_relation": lambda f: ("an ARFF file starts with '@relation NAME' (comments with % "
                              f"before it); found {f['found']}: is it an ARFF file?"),
    "attribute_twice": lambda f: (f"a second attribute named {f['name']!r}; attribute names "
                                  "must differ"),
    "data_first": lambda f: "@data comes before any @attribute: the file declares no columns",
    "unexpected": lambda f: f"expected @attribute or @data, found {f['found']}",
    "attribute_form": lambda f: ("write an attribute as '@attribute NAME TYPE' (TYPE: "
                                 "numeric, a list of values in braces, string or date)"),
    "nominal_brace": lambda f: (f"the values of nominal attribute {f['name']!r} need a "
                                "closing brace '}'"),
    "nominal_values": lambda f: (f"nominal attribute {f['name']!r}: list its values in "
                                 "braces, {a, b, c} (quote a value that holds ? or braces)"),
    "nominal_twice": lambda f: f"nominal attribute {f['name']!r} lists a value twice",
    "date_format": lambda f: f"attribute {f['name']!r}: {f['detail']}",
    "relational": lambda f: (f"attribute {f['name']!r} is relational (multi-instance data), "
                             "which this app does not read; flatten it in Weka first (filter "
                             "MultiInstanceToPropositional)"),
    "unknown_type": lambda f: (f"attribute {f['name']!r} has the unknown type "
                               f"{f['kind']!r}; use numeric, real, integer, string, date or a "
                               "list of values in braces"),
    "dense_brace": lambda f: ("a brace in a dense row; a sparse row is written {index value, "
                              "...} and a weight {w} at the end"),
    "n_values": lambda f: (f"{f['n_values']} value(s) where the header declares "
                           f"{f['n_attributes']} attributes; quote values that hold spaces or "
                           "commas, write ? for a missing one"),
    "weight": lambda f: f"the instance weight {{{f['weight']}}} is not a number of 0 or more",
    "sparse_form": lambda f: ("a sparse row is written {index value, index value, ...} on "
                              "one line"),
    "sparse_pairs": lambda f: "a sparse row needs pairs of an index and a value",
    "sparse_index": lambda f: (f"{f['index']!r} is not an attribute index (0 to "
                               f"{f['last']}) in a sparse row"),
    "sparse_twice": lambda f: f"index {f['index']} appears twice in a sparse row",
    "not_number": lambda f: (f": attribute {f['name']!r} is numeric but the value is "
                             f"{f['value']!r}; write a number, or ? when missing"),
    "not_declared": lambda f: (f": {f['value']!r} is not a declared value of nominal "
                               f"attribute {f['name']!r} ({{{_declared(f)}}}); add it to the "
                               "@attribute line or correct the value"),
}


def _arff_line(f) -> str:
    text = _ARFF_PROBLEMS[f["problem"]](f)
    if f["path"] is None:
        return text.removeprefix(": ")
    if text.startswith(": "):                 # a value of a data row: "path, line N: ..."
        return f"{f['path']}, line {f['line']}{text}"
    return f"{f['path']}, line {f['line']}: {text}"


def _arff_not_encoding(f) -> str:
    return (f"cannot read {f['path']}: it is not {f['encoding']} text ({f['detail']}); give "
            'its encoding ("encoding": "latin-1")')


def _arff_no_data(f) -> str:
    return (f"cannot read {f['path']}: no '@data' line; an ARFF file lists its attributes, "
            "then '@data' and the rows")


def _arff_weights(f) -> str:
    shown = ", ".join(f"{w:g}" for w in f["weights"])
    return (f"cannot use {f['path']}: its rows have different instance weights ({shown}, "
            "...), which this app's cross-validation does not apply; remove the {weight} at "
            "the end of the rows (e.g. repeat each row as often as its weight says)")


# ---- Java date patterns (engine.input.java_dates)

def _date_unfit(f) -> str:
    return f"{f['text']!r} does not fit the date pattern {f['pattern']!r}"


def _date_invalid(f) -> str:
    return (f"{f['text']!r} is not a valid date for the pattern {f['pattern']!r} "
            f"({f['detail']})")


def _date_pattern_quote(f) -> str:
    return f"the date pattern {f['pattern']!r} has a quote that never closes"


def _date_pattern_letter(f) -> str:
    return (f"the date pattern {f['pattern']!r} uses the letter {f['letter']!r}, which this "
            "app does not read; use y, M, d, H, h, k, K, m, s, S, a, E, D, z, Z or X (or quote "
            "text: 'T')")


def _date_at(f) -> str:
    return f"{f['place']}: {f['detail']}"


# ---- notes of reading files and making data sets (engine.input, engine.runs.heldout)

def _sparse_rows(f) -> str:
    return (f"{f['n_rows']} row(s) written sparsely: the values they leave out are 0 (for a "
            "nominal attribute its first value, for a string attribute missing)")


def _instance_weights_ignored(f) -> str:
    return (f"every row has the same instance weight ({f['weight']:g}): weights that are all "
            "equal change nothing and are ignored")


def _string_attributes(f) -> str:
    return ("string attribute(s) " + ", ".join(map(repr, f["columns"])) + " hold free text: "
            "read as text categories (one-hot encoded, or left out when every row differs); "
            "a word-count filter in Weka (StringToWordVector) makes features of text")


def _dates_as_numbers(f) -> str:
    listed = ", ".join(map(repr, f["columns"]))
    if f["origin"].endswith("Z"):                  # ARFF: instants, in UTC
        return (f"date attribute(s) {listed} read as numbers: seconds since 1970-01-01 00:00 "
                "UTC (a date without a time zone is taken as UTC; Weka stores milliseconds)")
    return (f"date column(s) {listed} read as numbers: seconds since 1970-01-01 00:00 (times "
            "of day: seconds since midnight)")


def _sheet_read(f) -> str:
    sheets = list(f["sheets"])
    return (f"read the sheet {f['sheet']!r} (the workbook has {len(sheets)}: "
            f"{', '.join(sheets)}; set \"sheet\" to read another)")


def _rows_dropped(f) -> str:
    where = "test file: " if f["test_file"] else ""
    return f"{where}dropped {f['n_rows']} row(s) with no value in {f['target']!r}"


def _infinite_values(f) -> str:
    return (f"column {f['column']!r}: {f['n_values']} infinite value(s) (inf, -inf) count as "
            "missing")


def _empty_columns_left_out(f) -> str:
    return "left out empty column(s): " + ", ".join(map(str, f["columns"]))


def _one_hot_encoded(f) -> str:
    return ("categorical column(s) one-hot encoded inside each model: "
            + ", ".join(map(str, f["columns"])))


def _missing_imputed(f) -> str:
    return (f"{f['n_missing']} missing value(s) imputed inside each model, fitted on the "
            "training folds only (median for numbers, most frequent for categories)")


def _many_categories(f) -> str:
    return (f"column {f['column']!r} has {f['n_categories']} categories: one-hot encoding "
            "makes many columns; consider dropping it")


def _identifier_columns_left_out(f) -> str:
    return ("left out identifier-like column(s) (a different text in every row): "
            + ", ".join(map(str, f["columns"])))


def _empty_classes(f) -> str:
    return (f"class(es) declared for {f['target']!r} but without any row, left out: "
            + ", ".join(map(repr, f["classes"])))


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
    # the errors of engine/evaluation and engine/output
    **LONG_EVALUATION,
    # ---- errors of engine.input, .foundation, .runs
    "heldout_unreadable": _heldout_unreadable,
    "heldout_no_target": _heldout_no_target,
    "heldout_no_rows": _heldout_no_rows,
    "heldout_missing_columns": _heldout_missing_columns,
    "heldout_text_column": _heldout_text_column,
    "heldout_unseen_classes": _heldout_unseen_classes,
    "heldout_missing_values": _heldout_missing_values,
    "skops_missing": _skops_missing,
    "no_valid_score": _no_valid_score,
    "grouping_gap_needs_groups": _grouping_gap_needs_groups,
    "dataset_problem": _dataset_problem,
    "experiment_invalid": _experiment_invalid,
    "experiment_not_finite": _experiment_not_finite,
    "experiment_huge_number": _experiment_huge_number,
    "experiment_too_deep": _experiment_too_deep,
    "file_missing": _file_missing,
    "file_unopenable": _file_unopenable,
    "file_not_regular": _file_not_regular,
    "file_of_system": _file_of_system,
    "file_unreadable": _file_unreadable,
    "file_memory": _file_memory,
    "table_memory": _table_memory,
    "experiment_file_size": _experiment_file_size,
    "builtin_memory": _builtin_memory,
    "file_kind_unknown": _file_kind_unknown,
    "dataset_file_and_csv": _dataset_file_and_csv,
    "dataset_option_of_kind": _dataset_option_of_kind,
    "dataset_unknown_keys": _dataset_unknown_keys,
    "read_option_unknown": _read_option_unknown,
    "builtin_no_groups": _builtin_no_groups,
    "dataset_no_source": _dataset_no_source,
    "test_unknown_keys": _test_unknown_keys,
    "builtin_unknown": _builtin_unknown,
    "builtin_options": _builtin_options,
    "builtin_generator": _builtin_generator,
    "file_empty": _file_empty,
    "one_column": _one_column,
    "data_no_rows": _data_no_rows,
    "read_stopped": _read_stopped,
    "decimal_option": _decimal_option,
    "thousands_option": _thousands_option,
    "thousands_is_decimal": _thousands_is_decimal,
    "no_features": _no_features,
    "target_one_class": _target_one_class,
    "target_not_classes": _target_not_classes,
    "columns_missing": _columns_missing,
    "kept_and_left_out": _kept_and_left_out,
    "kept_not_feature": _kept_not_feature,
    "target_undeclared": _target_undeclared,
    "pos_label_not_binary": _pos_label_not_binary,
    "pos_label_unknown": _pos_label_unknown,
    "column_unknown": _column_unknown,
    "column_name_long": _column_name_long,
    "cell_text_long": _cell_text_long,
    "class_label_long": _class_label_long,
    "groups_is_target": _groups_is_target,
    "groups_missing": _groups_missing,
    "id_column_is_target": _id_column_is_target,
    "id_column_kept": _id_column_kept,
    "resample_unknown": _resample_unknown,
    "imblearn_missing": _imblearn_missing,
    "dataset_name_bad": _dataset_name_bad,
    "dataset_name_taken": _dataset_name_taken,
    "sep_option": _sep_option,
    "encoding_option": _encoding_option,
    "encoding_unknown": _encoding_unknown,
    "file_binary_kind": _file_binary_kind,
    "file_binary": _file_binary,
    "csv_comment_first": _csv_comment_first,
    "csv_not_encoding": _csv_not_encoding,
    "csv_empty": _csv_empty,
    "csv_ragged": _csv_ragged,
    "csv_open_quote": _csv_open_quote,
    "csv_unparsed": _csv_unparsed,
    "excel_old_format": _excel_old_format,
    "sheet_unreadable": _sheet_unreadable,
    "excel_not_zip": _excel_not_zip,
    "openpyxl_missing": _openpyxl_missing,
    "excel_invalid": _excel_invalid,
    "excel_part_large": _excel_part_large,
    "excel_part_padding": _excel_part_padding,
    "excel_strings_large": _excel_strings_large,
    "excel_part_memory": _excel_part_memory,
    "excel_no_sheets": _excel_no_sheets,
    "sheet_unknown": _sheet_unknown,
    "arff_line": _arff_line,
    "arff_not_encoding": _arff_not_encoding,
    "arff_no_data": _arff_no_data,
    "arff_weights": _arff_weights,
    "date_unfit": _date_unfit,
    "date_invalid": _date_invalid,
    "date_pattern_quote": _date_pattern_quote,
    "date_pattern_letter": _date_pattern_letter,
    "date_at": _date_at,
    "sparse_rows": _sparse_rows,
    "instance_weights_ignored": _instance_weights_ignored,
    "string_attributes": _string_attributes,
    "dates_as_numbers": _dates_as_numbers,
    "sheet_read": _sheet_read,
    "rows_dropped": _rows_dropped,
    "infinite_values": _infinite_values,
    "empty_columns_left_out": _empty_columns_left_out,
    "one_hot_encoded": _one_hot_encoded,
    "missing_imputed": _missing_imputed,
    "many_categories": _many_categories,
    "identifier_columns_left_out": _identifier_columns_left_out,
    "empty_classes": _empty_classes,
    # ---- notes of engine.input, .foundation, .runs
    **LONG_NOTES,
    # ---- worded where raised before
    "target_not_named": _target_not_named,
}


# long forms worded on a higher floor register themselves here at import

def add_long_forms(table: Mapping[str, Callable[[Mapping], str]]) -> None:
    """Add the long forms of codes worded on a higher floor (their words need names the
    foundation cannot import, e.g. the metrics' display names); the module that words
    them calls this at import, and the modules that make those codes import it.

    Raises
    ------
    CallerError
        ``argument_value``: a code of ``table`` is worded already by another function.
    """
    taken = [code for code, words in table.items() if LONG.get(code, words) is not words]
    if taken:
        raise CallerError("argument_value", f"codes worded twice: {', '.join(taken)}",
                          {"codes": taken})
    LONG.update(table)


def has_long_form(code: str) -> bool:
    """True when the catalogue words ``code``."""
    return code in LONG


def long_form(code: str, fields: Mapping) -> str:
    """The long form of a note or error of ``code`` made from ``fields``; with the field
    ``about_dataset`` set (a note of one data set among several,
    :func:`engine.runs.benchmark.about_dataset`), the data set's name (``dataset``)
    before it.

    Raises
    ------
    KeyError
        When the catalogue does not word ``code`` (:func:`has_long_form`) or ``fields``
        lack a field its wording needs.
    """
    words = LONG[code](fields)
    return f"{fields['dataset']}: {words}" if fields.get("about_dataset") else words
