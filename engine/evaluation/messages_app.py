"""The catalogue's short forms: notes as the app's window says them.

The long forms (:mod:`engine.foundation.messages`) are written for the headless runner
and name experiment-file keys (``add "scale": true``, ``"compare_ungrouped" is on``) and
scorer ids (``roc_auc_ovr``). The short forms here say the same in the words of the
window's controls and with the metrics' display names, one line each, made from the
note's ``code`` and ``fields`` only. The app takes every note's wording from
:func:`short_form` and never reads, splits or edits the engine's text.

A note whose code has no short form yet is shown in its long form with each scorer id
written as its display name (:func:`plain_ids`, worded here in the engine, so the app
never edits the text itself).
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from functools import lru_cache

from engine.evaluation.metrics import CLASSIFICATION_SCORERS
from engine.evaluation.verdict import fixed, metric_label
from engine.input.csv_values import NOT_UTF8_NAMES
from engine.foundation.messages import add_long_forms, joined, long_form, short_example
from engine.foundation.errors import error_code, error_fields
from engine.foundation.notes import Note

#: A fold problem's fix (``fix`` field of ``folds_failed`` / ``folds_warned``) in the
#: words of the window; fixes not listed keep the engine's advice (it names no key).
FIX_WORDS = {
    "not_converged": "the solver stopped before converging: tick \"Scale features\" for it on "
                     "the Models tab, or raise max_iter",
    "no_probabilities": "this model gives no probabilities: compare on a metric computed from "
                        "labels (accuracy, balanced accuracy, F1) on the Cross-validation tab, "
                        "or use a model with probabilities",
    "few_rows": "a class has very few rows: choose fewer folds on the Cross-validation tab, "
                "or add data",
}


@lru_cache(maxsize=1)
def _scorer_pattern():
    """A regular expression matching every scorer id the engine knows, longest first."""
    names = sorted(set(CLASSIFICATION_SCORERS), key=len, reverse=True)
    return re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, names)) + r")(?![\w])")


def plain_ids(text: str) -> str:
    """``text`` with every scorer id (``roc_auc_ovr``) written as its display name (for
    text the catalogue has no short form of, and scikit-learn's own messages)."""
    return _scorer_pattern().sub(lambda match: metric_label(match.group(1)), str(text))


def _unscaled(f) -> str:
    models = list(f["models"])
    verb = "depends" if len(models) == 1 else "depend"
    return (f"{joined(models)} {verb} on the scale of the features but run without scaling: "
            "tick \"Scale features\" for them on the Models tab unless the columns share one "
            "unit")


def _folds(f, failed: bool) -> str:
    what = "failed" if failed else "raised warnings"
    advice = FIX_WORDS.get(f.get("fix", "")) or f.get("advice", "")
    sentence = (f"{f['model']} {what} on {f['n_folds_hit']} of {f['n_folds']} folds "
                f"({plain_ids(short_example(str(f.get('example', ''))))})")
    return sentence + (f": {plain_ids(advice)}." if advice else ".")


def _imbalanced(f) -> str:
    where = f" in data set {f['dataset']!r}" if f.get("dataset") else ""
    metrics = list(f["metrics"])
    return (f"the classes are imbalanced{where} (class {f['class']!r}: "
            f"{100 * f['share']:.1f}% of the rows): {metric_label(metrics[-1])} is reported "
            f"beside {metric_label(metrics[0])}, which stays the metric the models are "
            "compared on; Results, Per class gives every class's recall")


def _auto_stopped(f) -> str:
    n, most = f["n_repeats"], f["max_repeats"]
    bound = f.get("bound")
    stable = ("" if bound is None else
              f", and no interval is likely to be more than {f['tolerance']:.0%} wider "
              f"than with {most}")
    why = {"precision": f"one more would have narrowed no interval by "
                        f"{f['precision']:.0%} of its width{stable}",
           "max_repeats": "the most repeats were reached",
           "time_budget": "the time budget was reached"}[f["reason"]]
    return (f"Repeats \"auto\" stopped after {n} of at most {most}: {why}. The results are "
            f"those of {n} repeats; set the repeats to {n} to run the same again.")


# ----------------------------------------- the Dataset tab's notes (its Features list)

#: The screen's words for the experiment file's advice.
UNTICK = "untick it under Features"
PICK_POSITIVE = "pick another under Positive class"
#: ``positive_class`` reasons whose note says 'set "pos_label" to change', and why.
_POSITIVE_WHY = {"zero_one": "of 0 and 1", "smaller_class": "the smaller class",
                 "same_size": "the classes are the same size"}


class LongForm(LookupError):
    """Raised by a short form for fields it has no words for: the long form is shown."""


def _possible_leak(f) -> str:
    judged = f.get("rows_judged", 0)
    rows = ("rows" if judged in (0, f.get("n_rows")) else
            f"a random sample of {judged:,} of its {f['n_rows']:,} rows")
    said = (f"possible leak: column {f['column']!r} alone predicts {f['target']!r} "
            f"for {f['share']:.1f}% of {rows} ({f['rule']})")
    if f.get("left_out"):
        return f"{said}; it is left out (tick it under Features to use it anyway)"
    return (f"{said}; if it is recorded after the outcome or computed from it, leave it "
            f"out ({UNTICK})")


def _after_outcome(f) -> str:
    what = "a time to the event" if f["kind"] == "time" else "the status of an event"
    said = (f"column {f['column']!r} looks like {what} beside the target {f['target']!r}: "
            "known only with or after the outcome, it would give the answer away")
    if f.get("left_out"):
        return f"{said}; it is left out (tick it under Features if it is known before)"
    return f"{said}; unless it is known before, leave it out ({UNTICK})"


def _positive_class(f) -> str:
    if f.get("reason") not in _POSITIVE_WHY:
        raise LongForm
    return f"positive class: {f['label']!r} ({_POSITIVE_WHY[f['reason']]}; {PICK_POSITIVE})"


def _target_chosen(f) -> str:
    if f.get("problem"):
        return (f"target column not given; the last column, {f['last_column']!r}, does not "
                f"look like classes ({f['problem']}); using {f['column']!r}, the nearest "
                "column from the right that does (pick another one above)")
    if f.get("weka"):
        return (f"target column not given; using the last attribute, {f['column']!r}, as "
                "Weka does (pick another one above)")
    raise LongForm


def _class_imbalance(f) -> str:
    guess = "the other class" if f["n_classes"] == 2 else "the largest class"
    return (f"the classes are imbalanced: class {f['class']!r} has {f['count']} of "
            f"{f['n_rows']} rows ({100 * f['share']:.1f}%); always guessing {guess} is "
            f"{100 * f['majority_share']:.1f}% accurate. Balanced accuracy is reported too, "
            "and each class's recall under Results, Per class; the Models tab offers "
            "\"Balance classes\" and \"Resample training folds\"")


def _encoding(f) -> str:
    if f.get("how") != "not_utf8":
        raise LongForm
    other = f.get("alternative")
    also = f"; its bytes also fit {NOT_UTF8_NAMES.get(other, other)}" if other else ""
    return (f"the file is not UTF-8: read it as {f.get('name', f['encoding'])}{also}. If "
            "letters look wrong, save the file as UTF-8 (in Excel: Save as, CSV UTF-8) and "
            "open it again")


DATASET_TAB = {
    "possible_leak": _possible_leak,
    "after_outcome": _after_outcome,
    "index_columns_left_out": lambda f: (
        "left out index-like column(s): " + ", ".join(repr(str(c)) for c in f["columns"])
        + ": a row number or identifier says where a row sits in the file, not anything "
        "about it, and in a file sorted by class it gives the answer away (tick it under "
        "Features to use it anyway)"),
    "identifier_feature": lambda f: (
        f"column {f['column']!r} looks like an identifier (whole numbers, {f['n_values']} "
        "values, named like one) but is used as a feature: a model reads its numbers as "
        "amounts; if rows with the same value belong together, choose it under Rows that "
        f"belong together, else {UNTICK}"),
    "many_categories": lambda f: (
        f"column {f['column']!r} has {f['n_categories']} categories: one-hot encoding makes "
        f"many columns; consider leaving it out ({UNTICK})"),
    "positive_class": _positive_class,
    "target_chosen": _target_chosen,
    "groups_suggested": lambda f: (
        f"column {f['column']!r} looks like an identifier with repeated values "
        f"({f['n_values']} values, {f['rows_per_value']:.1f} rows each on average): if rows "
        "with the same value belong together (one patient, one subject), choose it under "
        "Rows that belong together, so that they are never split between training and test "
        "folds"),
    "class_imbalance": _class_imbalance,
    "encoding": _encoding,
    "sheet_read": lambda f: (f"read the sheet {f['sheet']!r} of the {len(f['sheets'])} in "
                             "the workbook (pick another one under Sheet)"),
}


# ------------------------------------ long forms that need the evaluation floor

def _gap_scores(f) -> str:
    return (f"with ordinary stratified folds, {f['model']} scores "
            f"{fixed(f['ungrouped_mean'])} ({metric_label(f['metric'])}); with the rows of "
            f"each {f['groups_column']!r} kept together, {fixed(f['grouped_mean'])}")


def _gap_words(gap: float, half: float) -> str:
    """The gap with its yardstick: optimistic by it when it exceeds the grouped mean's
    interval half-width, otherwise only higher, the size of the optimism not measured."""
    if not math.isfinite(half):
        return (f"the ungrouped score is higher by {fixed(gap)} (the grouped mean has no "
                "interval to measure it against)")
    if gap > half:
        return (f"the ungrouped score is optimistic by {fixed(gap)}, more than the "
                f"±{fixed(half)} of the grouped mean's 95% interval")
    return (f"the ungrouped score is higher by {fixed(gap)}, within the ±{fixed(half)} of the "
            "grouped mean's 95% interval, so these folds do not measure how optimistic it "
            "is")


def _gap_optimistic(f) -> str:
    ranking = ("" if f["best_grouped"] == f["best_ungrouped"] else
               f"; the best model changes too: {f['best_ungrouped']} without groups, "
               f"{f['best_grouped']} with them")
    return (f"{_gap_scores(f)}: {_gap_words(f['gap'], f['grouped_half_width'])}{ranking}. "
            f"With ordinary folds, rows of one {f['groups_column']!r} are in both the training "
            "part and the test fold, so a model can score by recognising them rather than by "
            "learning the pattern; for new ones, expect the grouped score")


def _grouping_gap(f) -> str:
    kind = f["kind"]
    if kind == "no_scores":
        return (f"the models could not be compared with and without groups on "
                f"{metric_label(f['metric'])}: no model has scores both ways")
    if kind == "optimistic":
        return _gap_optimistic(f)
    if kind == "small":
        return (f"{_gap_scores(f)}: grouping changes little here (largest gap "
                f"{fixed(f['gap'], signed=True)}); rows of one {f['groups_column']!r} do not "
                "help the models much. The grouped score is still the honest one for new ones")
    return (f"{_gap_scores(f)}: no model scores higher with ordinary folds (largest gap "
            f"{fixed(f['gap'], signed=True)}); the grouped score is the one to report")


# The pre-run check's problems (engine.runs.preflight): the long form names scorer ids
# and experiment-file keys (``ids``), the short form (the app's) does not.

def _pf_metric(metric: str, ids: bool) -> str:
    return f"{metric_label(metric)} ({metric})" if ids else metric_label(metric)


def _pf_key(text: str, ids: bool) -> str:
    return f" ({text})" if ids else ""


def _pf_data(f) -> str:
    """The data set the problem was found on first, as its sentence names it."""
    return f"the data set {f['dataset']!r}" if f.get("dataset") else "the data"


def _pf_also(f) -> str:
    """`` (also on 'b', 'c')``: the other data sets the problem was found on."""
    names = list(f.get("datasets") or ())
    return f" (also on {', '.join(map(repr, names[1:]))})" if len(names) > 1 else ""


_PF_WHY = {"always_one": lambda f: "is always 1 on two classes",
           "no_costs": lambda f: "needs the costs of the outcomes, and none were given",
           "two_classes_only": lambda f: (f"works for two classes only, and {_pf_data(f)} has "
                                          f"{f['n_classes']}")}


def _pf_metric_not_for_target(f, ids: bool) -> str:
    return (f"the metric {_pf_metric(f['metric'], ids)} {_PF_WHY[f['reason']](f)}: use "
            f"{_pf_metric(f['suggested'], ids)} instead")


def _pf_too_few_rows(f, ids: bool) -> str:
    return f"{_pf_data(f)}: {f['reason']}"


def _pf_no_probabilities(f, ids: bool) -> str:
    what = "probabilities" if f["needs"] == "proba" else "probabilities or decision values"
    tuned = ", the metric it is tuned on," if f["where"] == "tune" else ""
    return (f"model {f['model']!r} gives no {what}, but {_pf_metric(f['metric'], ids)}{tuned} "
            "needs them: every fold would fail")


def _pf_threshold_many_classes(f, ids: bool) -> str:
    how = "by costs" if f["by"] == "costs" else "by a metric"
    return (f"model {f['model']!r} chooses a decision threshold {how}"
            f"{_pf_key(chr(34) + 'threshold' + chr(34), ids)}, which works for two classes "
            f"only, and {_pf_data(f)} has {f['n_classes']}: the run would stop there")


def _pf_tune_metric_not_for_target(f, ids: bool) -> str:
    return (f"model {f['model']!r} is tuned on {_pf_metric(f['metric'], ids)}, which does not "
            f"fit the {f['n_classes']} classes of {_pf_data(f)}")


def _pf_inner_folds_too_few(f, ids: bool) -> str:
    return (f"model {f['model']!r} splits each training part into {f['inner_splits']} inner "
            f"folds{_pf_key(chr(34) + f['block'] + chr(34), ids)}, but the smallest class of "
            f"{_pf_data(f)} has only {f['rows']} rows there")


def _pf_unscaled_model(f, ids: bool) -> str:
    return (f"model {f['model']!r}{_pf_key(f['estimator'], ids)} depends on the scale of the "
            "features and runs unscaled, while the spreads of the features of "
            f"{_pf_data(f)} differ up to {f['shown_ratio']:,} times: its scores may say more "
            "about the units than about the model (scaling the features"
            f"{_pf_key(chr(34) + 'scale' + chr(34) + ': true', ids)} fixes it)")


_PREFLIGHT = {"metric_not_for_target": _pf_metric_not_for_target,
              "too_few_rows": _pf_too_few_rows,
              "no_probabilities": _pf_no_probabilities,
              "threshold_many_classes": _pf_threshold_many_classes,
              "tune_metric_not_for_target": _pf_tune_metric_not_for_target,
              "inner_folds_too_few": _pf_inner_folds_too_few,
              "unscaled_model": _pf_unscaled_model}


def _pf_form(words: Callable[[Mapping, bool], str], long: bool) -> Callable[[Mapping], str]:
    """A pre-run problem's long or short form, with the data sets it was also found on."""
    def form(f: Mapping) -> str:
        return words(f, long) + _pf_also(f)
    return form


#: The pre-run check's short forms (the app's words: no scorer ids, no file keys).
PREFLIGHT_SHORT: dict[str, Callable[[Mapping], str]] = {
    code: _pf_form(words, False) for code, words in _PREFLIGHT.items()}

#: Code -> long form of the codes whose words need the evaluation floor (metric labels,
#: :func:`~engine.evaluation.verdict.fixed`); added to the catalogue's long forms at import.
LONG_EVALUATION_FLOOR: dict[str, Callable[[Mapping], str]] = {
    "grouping_gap": _grouping_gap,
    **{code: _pf_form(words, True) for code, words in _PREFLIGHT.items()},
}
add_long_forms(LONG_EVALUATION_FLOOR)


#: Code -> the short form's wording function over the note's or error's fields.
SHORT: dict[str, Callable[[Mapping], str]] = {
    "unscaled_models": _unscaled,
    "repeats_auto_stopped": _auto_stopped,
    "folds_failed": lambda f: _folds(f, True),
    "folds_warned": lambda f: _folds(f, False),
    "default_metric": lambda f: (f"no metric chosen: comparing on {metric_label(f['metric'])} "
                                 f"({f['n_classes']} classes)"),
    "default_metric_datasets": lambda f: (
        "no metric chosen and the data sets differ in their number of classes: comparing on "
        f"{metric_label(f['metric'])} on every data set (on two classes it is the plain ROC "
        "AUC)"),
    "default_metric_imbalanced": _imbalanced,
    "random_state_given": lambda f: (
        f"the cross-validation's random seed ({f['random_state']}) given to "
        f"{joined(f['models'])}, so every run gives the same numbers"),
    "grouping_gap_no_groups": lambda f: (
        "\"Also run without groups\" is on, but this data set has no column of rows that "
        "belong together: choose one on the Dataset tab, or turn the comparison off"),
    "decimal_comma": lambda f: (f"decimal comma: read {f['example']!r} in column "
                                f"{f['column']!r} as {f['value']}"),
    "learning_flattened": lambda f: long_form(
        "learning_flattened", {**f, "metric": metric_label(f["metric"])}),
    "too_many_models": lambda f: (
        f"the models and their grids make {f['n_models']:,} models, more than the "
        f"{f['limit']:,} one run can compare (every pair is compared): use fewer values per "
        "grid parameter"),
    "decimal_comma_as_text": lambda f: (
        f"column {f['column']!r} looks like numbers written with a decimal comma but was kept "
        "as text"),
    **DATASET_TAB,
    **PREFLIGHT_SHORT,
}


def short_form(item) -> str:
    """A note or error as the app says it: its short form made from its code and fields;
    one of a code without a short form (or with fields of another shape, or an exception
    without a code), its long form with metric display names (:func:`plain_ids`)."""
    if isinstance(item, Note):
        code, fields = item.code, item.fields
    else:
        code, fields = error_code(item), error_fields(item)
    words = SHORT.get(code)
    if words is not None:
        try:
            return words(fields)
        except (LongForm, KeyError, TypeError, ValueError, IndexError):
            pass                                  # no words for these fields: the long form
    return plain_ids(str(item))

