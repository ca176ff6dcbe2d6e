"""The catalogue (engine.foundation.messages, engine.evaluation.messages_app): the one
place where the wording of each listed code is pinned. Other tests assert codes and
fields; these pin the sentences made from them, long form and short form."""
import ast
import os

import pytest

from engine.evaluation.messages_app import SHORT, short_form
from engine.foundation import messages
from engine.foundation.errors import CODES as ERROR_CODES, EngineError
from engine.foundation.messages_evaluation import LONG_EVALUATION
from engine.foundation.notes import CODES, Note
from tests.message_cases_floor import NOTE_CASES_FLOOR, PROBLEM_CASES
from tests.message_cases_input import ERROR_CASES_INPUT, NOTE_CASES_INPUT
from tests.message_cases_notes import ERROR_CASES_READING, NOTE_CASES_NOTES

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: (code, fields, long form): one example per code the catalogue words.
LONG_CASES = [
    ("separator", {"separator": ";", "name": "semicolon"}, "separator detected: semicolon"),
    ("decimal_comma", {"column": "w", "example": "1,5", "value": 1.5, "certain": True},
     "decimal comma detected: read '1,5' in column 'w' as 1.5; set \"decimal\" to \".\" if "
     "that is wrong"),
    ("decimal_comma", {"column": "w", "example": "1,500", "value": 1.5, "certain": False},
     "decimal comma assumed (a semicolon-separated file): read '1,500' in column 'w' as 1.5; "
     "set \"decimal\" to \".\" if the comma separates thousands"),
    ("decimal_comma_as_text", {"column": "w", "examples": ["1,5", "2,25"]},
     "column 'w' looks like numbers written with a decimal comma (e.g. '1,5', '2,25'): kept "
     "as text; set \"decimal\" to \",\" to read them as numbers"),
    ("numbers_as_text", {"column": "n", "n_bad": 40, "n_cells": 100, "examples": ["x", "?"]},
     "column 'n' looks like numbers but 40 of its 100 cells are not (e.g. 'x', '?'): kept as "
     "text categories; fix those cells or mark them missing"),
    ("thousands_grouped", {"column": "p", "example": "1,234", "value": 1234.0,
                           "separator": None},
     "column 'p': read '1,234' as 1234.0 (digits grouped by thousands)"),
    ("thousands_grouped", {"column": "p", "example": "3.750", "value": "3750",
                           "separator": "."},
     "column 'p': read '3.750' as 3750 (a dot groups thousands in a decimal-comma file)"),
    ("stray_cells_missing", {"column": "age", "n_bad": 2, "lines": [(3, "n/k"), (9, "?")]},
     "column 'age' holds numbers; 2 cell(s) that are not numbers count as missing: line 3 "
     "'n/k', line 9 '?'"),
    ("spaces_removed", {"columns": ["a", "b"]},
     "removed spaces around text cells in column(s) 'a', 'b'"),
    ("trailing_separator", {},
     "ignored the empty cells after the last column (the lines end with a separator)"),
    ("weka_small_classes", {"classes": ["a", "b"], "counts": [2, 1], "n_splits": 3},
     "with Weka's folds, 2 class(es) have fewer rows than the 3 folds: a (2), b (1); some "
     "test folds hold none of them, so scores that need every class in a test fold (such as "
     "ROC AUC) can be missing there"),
    ("grouped_small_classes", {"classes": ["b"], "counts": [4], "n_splits": 5},
     "with grouped folds, 1 class(es) occur in fewer groups than the 5 folds: b (4); some "
     "test folds hold none of them, so scores that need every class in a test fold (such as "
     "ROC AUC) can be missing there; fewer folds avoid it"),
    ("subgroup_small", {"subgroups": [["sex", "F", 12], ["age", "< 40", 3]], "min_rows": 30,
                        "min_events": 5},
     "subgroups with fewer than 30 rows or fewer than 5 rows of a class get no verdict, their "
     "scores are shown but too uncertain to rank: sex F (12 rows); age < 40 (3 rows)"),
    ("subgroup_columns", {"features": ["age"], "left_out": ["sex", "site"]},
     "subgroups by age (a feature the models learn from); sex, site (left out of the "
     "models)"),
    ("subgroup_columns", {"features": [], "left_out": ["sex"]},
     "subgroups by sex (left out of the models)"),
    ("costs_borrowed", {"costs": ((0.0, 1.0), (5.0, 0.0))},
     "expected cost uses the costs [[0.0, 1.0], [5.0, 0.0]] of the models' thresholds (no "
     "top-level \"costs\" given)"),
    ("costs_not_compared", {"metric": "roc_auc", "threshold_free": True, "costs": None},
     "costs were given, but the models are compared on roc_auc, which does not depend on the "
     "decision threshold, so the costs change nothing in the comparison: make "
     "\"neg_expected_cost\" (expected cost, lower is better) the first metric to compare "
     "them by the costs"),
    ("costs_not_compared", {"metric": "f1", "threshold_free": False,
                            "costs": ((0.0, 1.0), (5.0, 0.0))},
     "costs were given, but the models are compared on f1, which weighs the errors otherwise "
     "than the costs: make \"neg_expected_cost\" (expected cost, lower is better) the first "
     "metric to compare them by the costs"),
    ("auc_not_computed", {"model": "svc", "positive_class": "yes", "repeat": 2,
                          "reason": "one_class_fold"},
     "svc: no AUC interval for class yes in repeat 2: a fold holds only one of the two "
     "classes."),
    ("auc_grouped_rows", {"n_groups": 40, "n_rows": 300},
     "The 300 rows come from 40 groups (rows that belong together): DeLong's intervals and "
     "tests treat every row as independent, so they are too sure. The corrected t runs over "
     "the grouped folds and LeDell's interval counts each group once: quote the corrected t, "
     "or LeDell's for the fold models at hand."),
    ("auc_pooled_test", {"n_pairs": 3, "n_repeats": 5, "alpha": 0.05},
     "DeLong's test of two AUCs (auc_tests.csv) treats each repeat's pooled out-of-fold "
     "predictions as if one model had made them; they come from different fold models, so "
     "the p-values are approximate. Prefer the corrected t-test for deciding between models; "
     "use DeLong's test as the figure reviewers ask for. The summary row gives the median p "
     "over 5 repeat(s) and the share below 0.05."),
    ("decision_two_class_only", {"n_classes": 3},
     "decision curves need two classes; this data has 3, so none were drawn"),
    ("decision_no_probabilities", {"model": "svc"},
     "svc: no decision curve, the model gives no probabilities (net benefit needs a "
     "probability to compare with a threshold)"),
    ("default_metric", {"metric": "roc_auc_ovr", "n_classes": 3},
     "no metric given: using roc_auc_ovr (3 classes)"),
    ("default_metric", {"metric": "roc_auc", "n_classes": 2},
     "no metric given: using roc_auc (two classes)"),
    ("default_metric_imbalanced",
     {"metrics": ["roc_auc", "balanced_accuracy"], "class": "yes", "share": 0.0833,
      "dataset": None},
     "the classes are imbalanced (class 'yes': 8.3% of the rows): balanced_accuracy is "
     "reported beside roc_auc, which stays the primary metric, and per_class.csv gives "
     "every class's recall"),
    ("default_metric_imbalanced",
     {"metrics": ["roc_auc", "balanced_accuracy"], "class": 1, "share": 0.1, "dataset": "b"},
     "the classes are imbalanced in data set 'b' (class 1: 10.0% of the rows): "
     "balanced_accuracy is reported beside roc_auc, which stays the primary metric, and "
     "per_class.csv gives every class's recall"),
    ("random_state_given", {"random_state": 4, "models": ["lr", "rf"]},
     "random_state = 4 (the cross-validation seed) given to lr, rf, so every run gives the "
     "same numbers"),
    ("unscaled_models", {"models": ["knn"]},
     'knn depends on the scale of the features but run without scaling: add "scale": true '
     "unless the columns share one unit"),
    ("unscaled_models", {"models": ["knn", "svc", "lr"]},
     'knn, svc and lr depend on the scale of the features but run without scaling: add '
     '"scale": true unless the columns share one unit'),
    ("folds_failed", {"model": "svc", "n_folds_hit": 3, "n_folds": 10,
                      "example": "ValueError: needs probabilities", "advice": "", "fix": ""},
     "svc failed on 3 of 10 folds (needs probabilities)."),
    ("folds_warned", {"model": "lr", "n_folds_hit": 2, "n_folds": 10, "example": "x" * 120,
                      "advice": "scale it", "fix": "not_converged"},
     "lr raised warnings on 2 of 10 folds (" + "x" * 109 + "…): scale it."),
    ("unranked_models", {"models": ["a", "b"]}, "no rank for a, b: no fold gave a valid score"),
    ("partial_ranks", {"rank_note": "ranked on 9 of 10 folds"},
     "models are ranked on 9 of 10 folds; each pair is compared on the folds both models "
     "completed"),
    ("default_metric_datasets", {"metric": "roc_auc_ovr", "n_classes": [3, 2, 3, 4]},
     "no metric given and the data sets have 2, 3 and 4 classes: using roc_auc_ovr on every "
     "data set (on two classes it is the plain ROC AUC)"),
    ("grouping_gap_no_groups", {"dataset": None},
     '"compare_ungrouped" is on, but this data set names no "groups" column, so there is '
     "nothing to compare: name the column of rows that belong together (a subject or "
     "patient identifier), or turn it off"),
    ("learning_flattened", {"model": "a", "metric": "accuracy", "gain": 0.01234, "se": 0.02,
                            "flattened": True, "n_from": 1200, "n_to": 2400},
     "a: from 1,200 to 2,400 training rows the mean accuracy changed by +0.0123, less than "
     "the standard error of that change over the same folds (0.0200, widened because the "
     "folds share rows): the learning curve may have flattened, so more rows like these may "
     "not help much"),
    ("learning_flattened", {"model": "a", "metric": "accuracy", "gain": -0.5, "se": 0.1,
                            "flattened": False, "n_from": 12, "n_to": 24},
     "a: from 12 to 24 training rows the mean accuracy changed by -0.5000, more than the "
     "standard error of that change over the same folds (0.1000, widened because the folds "
     "share rows): the learning curve may still be rising, so more rows like these may help"),
    ("learning_sizes_merged", {"fractions": [0.1, 0.25], "n_train": [5, 12]},
     "some learning-curve fractions give the same training size and were merged: fractions "
     "0.1, 0.25 give 5, 12 rows"),
    ("learning_failed", {"model": "m", "n_failed": 3, "examples": ["e1", "e2", "e3"]},
     "m: 3 learning-curve fit(s) failed, their scores are missing: e1; e2"),
    ("learning_class_missing", {"model": "m", "fraction": 0.1, "n_train": 8, "n_folds": 2,
                                "n_splits": 5, "shuffled": False},
     "m: on 2 of 5 folds the first 8 training rows (fraction 0.1) lack a class, so those "
     "fits were skipped and score NaN; the data may be sorted by class: shuffle the "
     "training folds (the learning curve's 'shuffled' switch, curves.learning_shuffle) or "
     "leave out the small fractions"),
    ("learning_class_missing", {"model": "m", "fraction": 0.1, "n_train": 8, "n_folds": 2,
                                "n_splits": 5, "shuffled": True},
     "m: on 2 of 5 folds the 8 training rows drawn at random (fraction 0.1) lack a class, "
     "so those fits were skipped and score NaN; the part is too small to hold every class: "
     "leave out the small fractions"),
]


@pytest.mark.parametrize("code, fields, text", LONG_CASES)
def test_the_long_form_is_made_from_the_fields(code, fields, text):
    note = Note(code, fields=fields)
    assert str(note) == text == messages.long_form(code, fields)
    assert note.fields == Note(code, "given", fields).fields


#: (code, fields, long form) of the errors the catalogue words.
ERROR_CASES = [
    ("subgroup_column_unknown", {"column": "sx", "columns": ["age", "sex"]},
     'subgroups: there is no column "sx" among the features and the columns left out of the '
     "model; name one of: age, sex"),
    ("subgroup_cuts_not_numeric", {"column": "sex"},
     'subgroups: the column "sex" holds text, so it cannot be cut at numbers; leave out '
     '"cuts" to use its categories'),
    ("subgroup_one_value", {"column": "site", "value": "A", "by": "values"},
     'subgroups: the column "site" has one value (A) apart from missing ones, so it makes no '
     "groups to compare; name another column"),
    ("subgroup_one_value", {"column": "age", "value": "< 90", "by": "cuts"},
     'subgroups: every row of "age" falls in one subgroup (< 90); give cuts inside its '
     "range"),
    ("subgroup_too_many_levels", {"column": "zip", "n_levels": 900, "cap": 50},
     'subgroups: the column "zip" has 900 subgroups, more than 50; give a column of fewer '
     'categories, or fewer "cuts" for a numeric one'),
    ("too_many_models", {"n_models": 99_980_005, "limit": 20_000},
     "models: the models and their grids make 99,980,005 models, more than the 20,000 one "
     "run can compare (every pair is compared): use fewer values per grid parameter"),
]


@pytest.mark.parametrize("code, fields, text", ERROR_CASES)
def test_an_errors_long_form_is_made_from_its_fields(code, fields, text):
    error = EngineError(code, fields)
    assert str(error) == error.message == text
    assert error.fields == EngineError(code, fields, "given").fields
    assert str(EngineError(code, fields, "given")) == "given"


def test_every_worded_code_is_a_code_and_has_an_example():
    assert set(messages.LONG) <= set(CODES) | set(ERROR_CODES)
    assert set(SHORT) <= set(CODES) | set(ERROR_CODES)
    cases = LONG_CASES + ERROR_CASES + ERROR_CASES_INPUT + NOTE_CASES_INPUT
    cases += NOTE_CASES_NOTES + ERROR_CASES_READING     # the notes block and the reading errors
    cases += NOTE_CASES_FLOOR + [case[:3] for case in PROBLEM_CASES]     # the evaluation floor's
    assert {case[0] for case in cases} == (
        set(messages.LONG) - set(LONG_EVALUATION))      # those: test_messages_evaluation.py


def test_a_given_message_is_kept_and_a_missing_field_is_refused():
    assert str(Note("default_metric", "as said", {"metric": "x", "n_classes": 2})) == "as said"
    with pytest.raises(KeyError):
        Note("default_metric", fields={"metric": "x"})


#: (code, fields, short form): the app's words, naming its controls and metric names.
SHORT_CASES = [
    ("default_metric", {"metric": "roc_auc_ovr", "n_classes": 3},
     "no metric chosen: comparing on ROC AUC, one vs rest (3 classes)"),
    ("unscaled_models", {"models": ["knn", "svc"]},
     'knn and svc depend on the scale of the features but run without scaling: tick "Scale '
     'features" for them on the Models tab unless the columns share one unit'),
    ("folds_failed", {"model": "svc", "n_folds_hit": 3, "n_folds": 3,
                      "example": "ValueError: roc_auc needs probabilities",
                      "advice": "use accuracy", "fix": "no_probabilities"},
     "svc failed on 3 of 3 folds (ROC AUC needs probabilities): this model gives no "
     "probabilities: compare on a metric computed from labels (accuracy, balanced accuracy, "
     "F1) on the Cross-validation tab, or use a model with probabilities."),
    ("learning_flattened", {"model": "a", "metric": "roc_auc_ovr", "gain": 0.0, "se": 0.01,
                            "flattened": True, "n_from": 10, "n_to": 20},
     "a: from 10 to 20 training rows the mean ROC AUC, one vs rest changed by +0.0000, less "
     "than the standard error of that change over the same folds (0.0100, widened because "
     "the folds share rows): the learning curve may have flattened, so more rows like these "
     "may not help much"),
    ("repeats_auto_stopped", {"n_repeats": 7, "max_repeats": 50, "reason": "precision",
                              "precision": 0.05, "ratio": 0.97},
     'Repeats "auto" stopped after 7 of at most 50: one more would have narrowed no '
     "interval by 5% of its width. The results are those of 7 repeats; set the repeats to 7 "
     "to run the same again."),
    ("decimal_comma", {"column": "w", "example": "1,5", "value": 1.5, "certain": True},
     "decimal comma: read '1,5' in column 'w' as 1.5"),
    ("sheet_read", {"sheet": "B", "sheets": ["A", "B", "C"]},
     "read the sheet 'B' of the 3 in the workbook (pick another one under Sheet)"),
    ("many_categories", {"column": "town", "n_categories": 412},
     "column 'town' has 412 categories: one-hot encoding makes many columns; consider "
     "leaving it out (untick it under Features)"),
    ("class_imbalance", {"class": "yes", "count": 12, "share": 0.1, "n_rows": 120,
                         "majority_share": 0.9, "n_classes": 2},
     "the classes are imbalanced: class 'yes' has 12 of 120 rows (10.0%); always guessing "
     "the other class is 90.0% accurate. Balanced accuracy is reported too, and each class's "
     "recall under Results, Per class; the Models tab offers \"Balance classes\" and "
     "\"Resample training folds\""),
    ("encoding", {"encoding": "cp1252", "how": "not_utf8", "name": "Windows-1252 (cp1252)",
                  "alternative": None},
     "the file is not UTF-8: read it as Windows-1252 (cp1252). If letters look wrong, save "
     "the file as UTF-8 (in Excel: Save as, CSV UTF-8) and open it again"),
]


@pytest.mark.parametrize("code, fields", [
    ("positive_class", {"label": "yes", "reason": "asked"}),
    ("target_chosen", {"column": "y", "last_column": "y", "problem": None, "weka": False}),
    ("encoding", {"encoding": "utf-8-sig", "how": "bom"}),
])
def test_fields_a_short_form_has_no_words_for_show_the_long_form(code, fields):
    assert short_form(Note(code, "the long form, roc_auc", fields)) == "the long form, ROC AUC"

ERROR_SHORT_CASES = [
    ("too_many_models", {"n_models": 25_000, "limit": 20_000},
     "the models and their grids make 25,000 models, more than the 20,000 one run can "
     "compare (every pair is compared): use fewer values per grid parameter"),
]


@pytest.mark.parametrize("code, fields, text", ERROR_SHORT_CASES)
def test_an_errors_short_form_drops_the_file_place(code, fields, text):
    assert short_form(EngineError(code, fields)) == text
    assert short_form(ValueError("roc_auc is wrong")) == "ROC AUC is wrong"


@pytest.mark.parametrize("code, fields, text", SHORT_CASES)
def test_the_short_form_names_controls_and_metric_labels(code, fields, text):
    assert short_form(Note(code, "the long form", fields)) == text


def test_a_code_without_a_short_form_is_its_long_form_with_metric_names():
    note = Note("tuning_optimism", "svc scores 0.9 roc_auc_ovr, not my_roc_auc_ovr", {})
    assert short_form(note) == "svc scores 0.9 ROC AUC, one vs rest, not my_roc_auc_ovr"
    odd = Note("default_metric", "kept", {"metric": "roc_auc"})        # a field missing
    assert short_form(odd) == "kept"


def _literal_messages(tree) -> list:
    """``Note("code", <message>, ...)`` calls of a listed code with a message given."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Note"
                and node.args and isinstance(node.args[0], ast.Constant)):
            continue
        code = node.args[0].value
        has_message = len(node.args) > 1 or any(k.arg == "message" for k in node.keywords)
        if code in messages.LONG and has_message:
            found.append((code, node.lineno))
    return found


def test_no_engine_module_words_a_code_the_catalogue_words():
    """A code is migrated whole: no place in the engine still writes its sentence."""
    found = {}
    for folder, _dirs, files in os.walk(os.path.join(ROOT, "engine")):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as handle:
                    hits = _literal_messages(ast.parse(handle.read()))
                if hits:
                    found[os.path.relpath(path, ROOT)] = hits
    assert not found
    sample = ast.parse('Note("default_metric", "no metric", {})\nNote("x", "y")')
    assert _literal_messages(sample) == [("default_metric", 1)]


def test_the_catalogues_cost_metric_is_the_engines():
    from engine.evaluation.costs import COST_METRIC

    assert messages.COST_METRIC == COST_METRIC


# the long forms worded on the evaluation floor, added to the catalogue at import

@pytest.mark.parametrize("code, fields, text", NOTE_CASES_FLOOR)
def test_a_long_form_worded_on_the_evaluation_floor_is_the_catalogues(code, fields, text):
    note = Note(code, fields=fields)
    assert str(note) == text == messages.long_form(code, fields)


def test_a_code_is_worded_on_one_floor_only():
    from engine.evaluation.messages_app import LONG_EVALUATION_FLOOR

    assert set(LONG_EVALUATION_FLOOR) <= set(messages.LONG)
    messages.add_long_forms(LONG_EVALUATION_FLOOR)               # the same words: no change
    with pytest.raises(ValueError, match="codes worded twice: grouping_gap"):
        messages.add_long_forms({"grouping_gap": lambda f: "other words"})
    assert str(Note("grouping_gap", fields=NOTE_CASES_FLOOR[-1][1])) == NOTE_CASES_FLOOR[-1][2]


@pytest.mark.parametrize("code, fields, long, short", PROBLEM_CASES)
def test_a_pre_run_problems_long_and_short_forms_are_the_catalogues(code, fields, long, short):
    from engine.runs.preflight import Problem

    problem = Problem(code, fields=fields, blocking=code != "unscaled_model")
    assert problem.message == long and problem.words() == short == short_form(problem)
    assert problem.line().startswith("error: " if problem.blocking else "warning: ")


def test_a_note_of_one_data_set_among_several_is_named_by_its_dataset_field():
    from engine.runs.benchmark import about_dataset

    note = Note("default_metric", fields={"metric": "roc_auc_ovr", "n_classes": 3})
    named = about_dataset(note, "w")
    assert (named.code, named.fields["dataset"], named.fields["about_dataset"]) == (
        "default_metric", "w", True)
    assert str(named) == "w: " + str(note) == messages.long_form("default_metric", named.fields)
    assert short_form(named) == short_form(note)           # the app shows the name itself
    kept = Note("grouping_gap_no_groups", fields={"dataset": "w"})   # its own field only
    assert not str(kept).startswith("w: ")
