"""The catalogue's long forms of the errors (and some notes) of the evaluation and output
floors.

Part of the catalogue (:mod:`engine.foundation.messages` joins :data:`LONG_EVALUATION`
into its ``LONG``): the sentence of each error code raised in ``engine/evaluation`` and
``engine/output``, made from the error's fields only. A place in the experiment file
(``models[2].params.C``) comes as the field ``place``; a value from the file as the file
writes it (rendered by :func:`engine.foundation.schema.show` where it is raised) as
``got``. This module imports no project module, so every floor may word through it.
"""
from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping


def _at(f, text: str) -> str:
    """``place: text``, or ``text`` alone when the error has no place."""
    return f"{f['place']}: {text}" if f.get("place") else text


# ------------------------------------------------- the experiment file (engine.evaluation)

def _experiment_missing(f) -> str:
    return f"cannot open {f['path']}: the file does not exist"


def _experiment_is_folder(f) -> str:
    return f"cannot open {f['path']}: it is a folder, not an experiment file"


def _experiment_unreadable(f) -> str:
    return f"cannot open {f['path']}: {f['detail']}"


def _experiment_long_number(f) -> str:
    return (f"the experiment file {f['path']} holds a number of more than 4300 digits; "
            "write numbers of a usual size")


def _experiment_not_json(f) -> str:
    return f"the experiment file {f['path']} is not valid JSON: {f['detail']}"


def _experiment_file_too_deep(f) -> str:
    return (f"the experiment file {f['path']} is nested too deeply to read: an experiment "
            "file needs only a few levels of lists and objects")


def _section_invalid(f) -> str:
    return f"{f['section']}: {f['detail']}"


def _section_setting_invalid(f) -> str:
    return f"{f['place']}: {f['problem']}"


def _aloocv_c_range(f) -> str:
    return f"aloocv: need 0 < C_min < C_max (got C_min={f['C_min']}, C_max={f['C_max']})"


def _calibration_methods(f) -> str:
    return (f"calibration: unknown method(s) {', '.join(map(str, f['unknown']))}; choose "
            "from: isotonic, sigmoid")


def _calibration_strategy(f) -> str:
    return f"calibration: strategy must be 'uniform' or 'quantile' (got {f['strategy']!r})"


def _learning_fraction(f) -> str:
    return (f"curves.learning: {f['value']:g} is not a fraction of the training fold; give "
            "numbers above 0 and at most 1, e.g. [0.1, 0.55, 1.0]")


def _learning_fraction_twice(_f) -> str:
    return "curves.learning: a fraction is listed twice; list each once"


def _subgroups_with_datasets(_f) -> str:
    return ('subgroups: a subgroup column belongs to one data set, and this experiment has a '
            '"datasets" list; run the data set with its subgroups as an experiment of its own '
            '("dataset" and "subgroups")')


def _save_models_without_test(_f) -> str:
    return ('save_models: the final models are fitted for the held-out test; add "test": '
            '{"file": PATH} or leave "save_models" out')


def _test_with_datasets(_f) -> str:
    return ('test: a held-out test file belongs to one data set, and this experiment has a '
            '"datasets" list; run the data set with its test file as an experiment of its own '
            '("dataset" and "test")')


def _dataset_file(f) -> str:
    return f"dataset.file: {f['detail']}"


def _unknown_encoding(f) -> str:
    return (f"{f['place']}.encoding: {f['got']} is not a text encoding Python knows; use one "
            'such as "utf-8", "utf-8-sig", "latin-1" or "cp1252", or leave "encoding" out to '
            "detect it")


# ------------------------------------------------ the models of an experiment (catalogue)

def _unknown_estimator(f) -> str:
    return _at(f, f"unknown estimator {f['estimator']!r}; the catalogue has: "
               + ", ".join(f["known"]))


def _model_keys_unknown(f) -> str:
    return (f"{f['place']}: unknown key(s) {', '.join(f['unknown'])}; allowed: "
            + ", ".join(f["allowed"]))


def _model_no_estimator(f) -> str:
    return f"{f['place']}: missing 'estimator' (a catalogue name such as 'SVC')"


def _params_not_object(f) -> str:
    return f"{f['place']}: 'params' must be an object of name: value"


def _bad_grid(f) -> str:
    return f"{f['place']}: bad grid: {f['detail']}"


def _grid_too_large(f) -> str:
    return (f"{f['place']}: the grid makes {f['n_models']:,} models; at most "
            f"{f['limit']:,} can be compared in one experiment")


def _inner_splits_invalid(f) -> str:
    return f"{f['place']}: {f['problem']} (the inner folds)"


def _model_block_not_object(f) -> str:
    return f"{f['place']}: expected an object such as {f['example']}, got {f['got']}"


def _tune_grid_not_object(f) -> str:
    return (f"{f['place']}.grid: expected an object of parameter names and lists of values "
            f"to try, got {f['got']}")


def _tuned_and_grid(f) -> str:
    return (f"{f['place']}.grid: {', '.join(f['parameters'])} is both in the model's \"grid\" "
            "(separate models) and tuned inside the folds: keep it in one")


def _tune_optimism_not_boolean(f) -> str:
    return f"{f['place']}: expected true or false, got {f['got']}"


def _threshold_seed_invalid(f) -> str:
    return f"{f['place']}: expected a whole number or null, got {f['got']}"


def _threshold_scoring_or_cost(f) -> str:
    return (f"{f['place']}: give either \"scoring\" (such as \"balanced_accuracy\") or "
            "\"cost\" (a 2x2 matrix [[c_tn, c_fp], [c_fn, c_tp]]), not both or neither")


def _threshold_scoring(f) -> str:
    return (f"{f['place']}: a threshold is chosen by a metric of predicted classes; got "
            f"{f['got']}, use one of: " + ", ".join(f["allowed"]))


def _unknown_parameter(f) -> str:
    return (f"{f['place']}: {f['estimator']} has no parameter {f['parameter']!r}; allowed: "
            + ", ".join(f["allowed"]))


def _parameter_not_single(f) -> str:
    return f"{f['place']}: parameter {f['parameter']!r} must be a single value, not {f['got']}"


def _parameter_not_finite(f) -> str:
    return f"{f['place']}: parameter {f['parameter']!r} must be a finite number"


def _parameter_invalid(f) -> str:
    if f["parameter"] is None:
        return f"model {f['model']!r}: {f['detail']}"
    return (f"{f['place']}: the {f['parameter']!r} parameter of {f['estimator']} must be "
            f"{f['expected']}, got {f['got']}")


def _model_name_long(f) -> str:
    return (f"the model name {f['start']}… is {f['n_chars']:,} characters long, more than "
            f"the {f['limit']} a name can have (it is written in every row of the result "
            "tables): give the model a shorter name")


def _model_name_control(f) -> str:
    return (f"the model name '{f['shown']}' holds a control character (a line break, a tab "
            "or an invisible Unicode control or format character, shown written out): "
            "rename the model")


def _model_name_twice(f) -> str:
    return f"two models are named {f['name']!r}; give each model its own name"


def _no_models(_f) -> str:
    return "the experiment has no models: add at least one"


# ------------------------------------------------------ the result folder (engine.output)

def _staging_unusable(f) -> str:
    return f"{f['path']}: {f['detail']}"


# ----------------------------------- folds, metrics, comparison, tuning (engine.evaluation)

def _cv_precision(f) -> str:
    return f"cv.precision: a share of the width between 0 and 1 (got {f['precision']!r})"


def _cv_scheme(f) -> str:
    return (f"cv.scheme: unknown fold assignment {f['scheme']!r}; choose \"sklearn\" "
            "(scikit-learn's) or \"weka\" (Weka 3's)")


def _cv_weka_seed(_f) -> str:
    return ('cv.random_state: the "weka" scheme needs a seed (Weka numbers its runs from it; '
            "its Experimenter starts at 1): give a whole number")


def _cv_interval(f) -> str:
    return (f"cv.interval: unknown interval {f['interval']!r}; choose \"corrected_t\" or "
            "\"nested\" (Bates et al.'s nested CV)")


def _folds_count(f) -> str:
    return (f"the number of folds must be a whole number of at least 2 (got "
            f"{f['n_splits']!r})")


def _repeats_count(f) -> str:
    return (f"the number of repeats must be a whole number of at least 1 (got "
            f"{f['n_repeats']!r})")


def _folds_one_class(_f) -> str:
    return "the target has only one class: a classifier needs at least two"


def _weka_groups(_f) -> str:
    return ('cv.scheme "weka" cannot keep rows that belong together in one fold (Weka has no '
            'grouped folds): use the "sklearn" scheme, or leave "groups" out of the data set')


def _folds_too_many_rows(f) -> str:
    n_rows, n_splits = f["n_rows"], f["n_splits"]
    return (f"the data has only {n_rows} rows, but {n_splits} folds need at least {n_splits}: "
            f"lower the number of folds to {n_rows} or fewer, or add data")


def _folds_too_many_class(f) -> str:
    smallest, n_splits = f["smallest"], f["n_splits"]
    return (f"the smallest class has only {smallest} row(s), but {n_splits} folds need at "
            f"least {n_splits} rows in every class: lower the number of folds to "
            f"{max(smallest, 2)} or fewer, or add data")


def _cv_no_models(_f) -> str:
    return "no models to cross-validate: add at least one"


def _replay_incomplete(f) -> str:
    if f["repeat"] is None:
        return (f"{f['n_missing']} of the run's {f['n_fits']} fits are not in the store (the "
                "run did not finish): run the experiment again to complete it")
    return (f"{f['n_missing']} fits of repeat {f['repeat']} are not in the store (the run did "
            "not finish): run the experiment again to complete it")


def _inner_groups_too_few(f) -> str:
    key, inner, fewest = f["block"], f["inner_splits"], f["fewest"]
    return (f"model {f['model']!r}: an outer training fold holds only {fewest} group(s) of "
            f"rows that belong together, but its \"{key}\" block's inner {inner}-fold split "
            f"keeps groups together and needs at least {inner}: set \"{key}\": "
            f"{{\"inner_splits\": {max(fewest, 2)}}} or fewer, use fewer outer folds, or add "
            "data")


#: Why a name is not a metric of this app, by ``reason`` (engine.evaluation.metrics).
_METRIC_REASONS = {
    "not_text": "expected a scorer name (text), got {shown}",
    "unknown": "unknown metric {shown}{hint}",
    "multilabel": "{shown} averages over the labels of each sample, for multilabel targets, "
                  "not a classification one",
    "clustering": "{shown} is a clustering score, not a classification one",
    "regression": "{shown} is a regression score, not a classification one",
    "other": "{shown} is not a score this app can rank classifiers by",
}


def _metric_invalid(f) -> str:
    hint = f" (did you mean {f['close']}?)" if f["close"] else ""
    problem = _METRIC_REASONS[f["reason"]].format(shown=f["shown"], hint=hint)
    return f"{f['place']}: {problem}; use one of: " + ", ".join(f["allowed"])


def _metrics_none(_f) -> str:
    return "no metrics given: name at least one, such as 'roc_auc' or 'accuracy'"


def _metric_twice(f) -> str:
    return "a metric is listed twice: " + ", ".join(f["metrics"])


def _metric_two_class_only(f) -> str:
    return (f"metric {f['metric']!r} works for two classes only and the data has "
            f"{f['n_classes']}; use {f['counterpart']!r} instead")


def _metric_multiclass_only(f) -> str:
    return (f"metric {f['metric']!r} is always 1 for two classes (the right class is always "
            "among the top 2); use 'accuracy' instead")


def _cost_metric_no_costs(f) -> str:
    return (f'metric "{f["metric"]}" (expected cost) needs the costs of the outcomes: add '
            '"costs": [[c_tn, c_fp], [c_fn, c_tp]] to the experiment, or choose a threshold '
            "by costs in a model (several models with different costs need the top-level "
            '"costs")')


def _cost_metric_multiclass(f) -> str:
    return (f'metric "{f["metric"]}" (expected cost) works for two classes only (its costs '
            f"are a 2x2 matrix) and the target has {f['n_classes']}: choose another metric, "
            "or a two-class target")


def _comparison_rope(f) -> str:
    return f"comparison: rope must be a number of 0 or more (got {f['rope']})"


def _comparison_alpha(f) -> str:
    return f"comparison: alpha must be between 0 and 1 (got {f['alpha']})"


def _comparison_correction(f) -> str:
    return (f"comparison: unknown correction {f['correction']!r}; choose one of: "
            + ", ".join(f["allowed"]))


def _comparison_credible_level(f) -> str:
    return f"comparison: credible levels must be between 0 and 1 (got {f['level']})"


def _cost_matrix_invalid(f) -> str:
    return (f"{f['place']}: expected a 2x2 matrix of numbers [[c_tn, c_fp], [c_fn, c_tp]] "
            f"(rows: actual negative, positive; columns: predicted), got {f['got']}")


def _cost_matrix_flat(f) -> str:
    return (f"{f['place']}: every outcome costs the same, so no threshold is better than "
            "another: give the errors (c_fp, c_fn) higher costs")


def _threshold_two_class_only(f) -> str:
    return (f"model {f['model']!r}: a decision threshold works for two classes only, and the "
            f"data has {f['n_classes']}: remove \"threshold\" from the model, or use a "
            "two-class target")


def _tune_cost_without_costs(f) -> str:
    return (f"model {f['model']!r}: its grid search chooses by the expected cost, which needs "
            'the costs: add "costs": [[c_tn, c_fp], [c_fn, c_tp]] to the experiment')


def _auto_settings_fixed_repeats(_f) -> str:
    return ('cv: "max_repeats" and "precision" go with "n_repeats": "auto" (a whole number '
            "of repeats runs exactly that many)")


# ------------------------------------------- subgroups, calibration, ALOOCV (engine.evaluation)

def _subgroup_cuts_order(f) -> str:
    return (f"subgroups[{f['index']}].cuts: give the cut points in ascending order, each once "
            f"(got {list(f['cuts'])})")


def _subgroup_column_twice(f) -> str:
    return (f"subgroups: the column {json.dumps(f['column'])} is named twice; name each "
            "column once")


def _calibration_inner_rows(f) -> str:
    smallest, inner = f["smallest"], f["inner_splits"]
    return (f"a training fold has only {smallest} row(s) of its smallest class, but the "
            f"calibration's inner {inner}-fold split needs at least {inner}: lower "
            f"inner_splits to {max(smallest, 2)} or fewer, use fewer outer folds, or add data")


def _calibration_inner_groups(f) -> str:
    fewest, inner = f["fewest"], f["inner_splits"]
    return (f"a training fold has only {fewest} group(s) of rows that belong together holding "
            f"its least spread class, but the calibration's inner {inner}-fold split keeps "
            f"groups together and needs at least {inner} groups of every class: lower "
            f"inner_splits to {max(fewest, 2)} or fewer, use fewer outer folds, or add data "
            "from more groups")


def _calibration_cv_unseeded(_f) -> str:
    return "the CV was not seeded and kept no predictions: rerun it with a random_state"


def _calibration_cv_mismatch(_f) -> str:
    return ("the CV result does not match this data set (its test folds differ from the "
            "splits of these rows): pass the data set the CV ran on")


def _calibration_model_not_in_cv(f) -> str:
    return (f"model {f['model']!r} is not in the CV result (it has: "
            + ", ".join(f["models"]) + "); pass the models the CV ran")


def _calibration_one_class(_f) -> str:
    return "the outcomes are all one class: a sigmoid needs both 0s and 1s"


def _aloocv_single_row(f) -> str:
    return (f"class {f['class_code']} has a single row: leaving it out removes the class, so "
            "the exact LOO log-likelihood is -inf. Merge or drop that class.")


# ------------------------------------------------ notes: calibration, ALOOCV, interval bounds

def _calibration_no_predictions(f) -> str:
    return (f"{f['model']}: the CV kept no out-of-fold predictions (every fit failed); it is "
            "left out of the calibration")


def _calibration_decision_values(f) -> str:
    used = ("the logistic 1/(1+exp(-d)) of the decision value d" if f["transform"] == "logistic"
            else "the softmax of the decision values")
    return (f"{f['model']}: the model gives decision values, not probabilities; its "
            f"uncalibrated variant and map use {used}")


def _calibration_labels_only(f) -> str:
    return (f"{f['model']}: the model gives labels only; its uncalibrated 'probabilities' "
            "are 0/1")


def _calibration_folds_failed(f) -> str:
    return (f"{f['model']} {f['method']}: {f['n_failed']} fold(s) failed, left out: "
            + "; ".join(f["examples"][:3]))


def _calibration_warning(f) -> str:
    return f"{f['model']} {f['method']}: {f['category']}: {f['text']}"


def _calibration_method(f) -> str:
    kept = " that keeps the rows of a group together" if f["grouped"] else ""
    return ("calibrated variants: CalibratedClassifierCV fitted inside each outer training "
            f"fold with an inner {f['inner_splits']}-fold split{kept}, predicting the outer "
            "test fold; the calibration map is fitted on all pooled out-of-fold probabilities "
            "(for deployment; its own fit is in-sample)")


def _crowded_buckets(f) -> str:
    return (f"{f['model']}: {f['share']:.0%} of the out-of-fold probabilities fall in the "
            "first or last bucket of the uniform calibration map (extreme probabilities, as "
            "naive Bayes gives): the map cannot resolve them; quantile buckets (strategy "
            "'quantile') follow the data")


def _calibration_map_failed(f) -> str:
    return (f"{f['model']} {f['method']}: no calibration map for class {f['class_label']}: "
            f"{f['error']}")


def _interval_past_bound(f) -> str:
    where, extreme = (("above", "largest") if f["side"] == "upper"
                      else ("below", "smallest"))
    return (f"The summary interval of {', '.join(f['models'])} on {f['metric']} reaches "
            f"{where} {f['bound']:g}, the {extreme} possible value: the corrected-t interval "
            "is symmetric around the mean and does not know the limit, so read that end as "
            f"{f['bound']:g}.")


def _alo_grouped_rows(f) -> str:
    column = f["groups_column"]
    named = f"the column {column!r}" if column is not None else "the data set's groups"
    return (f"{f['model']}: the rows belong to {f['n_groups']} groups ({named}), but ALOOCV "
            "leaves out one row at a time, so the other rows of the same group stay in "
            "training: its curve is optimistic on grouped data and its best C can be too "
            "large; choose C from the grouped cross-validation instead (a \"tune\" grid over "
            "C, whose inner folds keep groups together)")


def _alo_solver_warnings(f) -> str:
    return (f"{f['model']}: the solver warned {f['n_warnings']} time(s), e.g. {f['example']} "
            "Scaling the features usually helps.")


def _alo_unreliable(f) -> str:
    return (f"{f['model']}: ALO is unreliable at {f['n_unreliable']} of {f['n_C']} values of "
            f"C (from C = {f['C_from']:.4g}): far below even guessing the class frequencies; "
            "those points are marked and not used for the plot's scale")


def _alo_best_at_max_c(f) -> str:
    return (f"ALO keeps improving up to C_max={f['C_max']:g}: the classes are (nearly) "
            "separable or barely regularized, so the optimum lies at or beyond the bound (and "
            "ALO is optimistic at large C). Raise C_max to search further.")


def _alo_best_at_min_c(f) -> str:
    return (f"ALO is best at C_min={f['C_min']:g}: the features add little beyond the class "
            "frequencies. Lower C_min to search further.")


def _alo_single_row_class(f) -> str:
    return (f"class {f['class_code']} has a single row; its ALO term is unreliable and exact "
            "LOO is undefined.")


def _alo_constant_columns(f) -> str:
    columns = list(f["columns"])
    more = "..." if len(columns) > 10 else ""
    return (f"constant column(s) {columns[:10]}{more}: the ridge keeps the Hessian positive "
            "definite; zero columns get coefficient 0.")


# --------------------------------------------------------- notes: ALO eligibility, tuning

#: Why ALO does not apply to a model, by ``reason`` (``{value}``: the parameter's value).
_ALO_NOT_APPLICABLE = {
    "estimator": "ALO applies to LogisticRegression only",
    "l1_ratio": "ALO needs the ridge (L2) penalty; l1_ratio is {value}",
    "penalty": "ALO needs the ridge (L2) penalty, not {value!r}",
    "no_intercept": "ALO here assumes a fitted intercept (fit_intercept=True)",
    "class_weight": "ALO assumes unweighted rows; class_weight is set",
    "resample": "ALO assumes the rows as given; the training rows are resampled ({value})",
}


def _alo_not_applicable(f) -> str:
    return f"{f['model']}: " + _ALO_NOT_APPLICABLE[f["reason"]].format(value=f.get("value"))


def _alo_optimum(f) -> str:
    return f"{f['model']}: " + " ".join(map(str, f["notes"]))


#: Why the gap is not selection bias alone (said with every optimism sentence).
OPTIMISM_MIXES = ("the gap mixes the flattery of picking a setting on the folds that score it "
                  "with the nested search choosing its setting on smaller (inner) training sets")


def _tuning_optimism(f) -> str:
    """One sentence on the optimism of a tuned model: it calls the gap optimism only when
    its interval (level ``level``) excludes 0."""
    head = (f"{f['model']}: tuned inside each training fold it scores "
            f"{f['nested_score']:.4g} {f['metric']}; the best of its {f['n_members']} grid "
            f"settings ({f['best_member']}), picked by the same folds that score it, shows "
            f"{f['best_plain_score']:.4g}")
    low, high = f.get("ci_low", math.nan), f.get("ci_high", math.nan)
    if not (math.isfinite(low) and math.isfinite(high)):
        return (head + f", {f['optimism']:.3g} higher, with too few folds to say how sure "
                f"that is ({OPTIMISM_MIXES}): report the tuned score")
    gap = (f"a gap of {f['optimism']:.3g} ({100 * f['level']:g}% interval {low:.3g} to "
           f"{high:.3g}, corrected paired t-test p = {f['p_value_two_sided']:.2g})")
    if low > 0:
        return (head + f": {gap}, so choosing on the scoring folds would have flattered it; "
                f"{OPTIMISM_MIXES}; report the tuned score, which paid for choosing the setting")
    if high < 0:
        return (head + f": {gap}, the tuned model scoring higher, so these folds show no "
                "optimism; report the tuned score")
    return (head + f": {gap}; the interval holds 0, so these folds cannot tell optimism from "
            f"fold-to-fold noise ({OPTIMISM_MIXES}); report the tuned score either way")


def _tuning_metric_differs(f) -> str:
    return (f"{f['model']}: its grid search chose the setting by {f['tuning_metric']} while "
            f"the optimism compares {f['metric']}, so part of the gap comes from choosing for "
            "another metric, not from the folds alone")


# ------------------------------------------------------ notes: the result folder (engine.output)

def _result_folder_leftover(f) -> str:
    return (f"left {f['shown_name']} in {f['shown_folder']} alone: it looks like a leftover of "
            f"this app but is not exactly its own ({f['problem']}); remove it yourself if you "
            "do not need it")


#: Code -> the long form's wording function (joined into ``messages.LONG``).
LONG_EVALUATION: dict[str, Callable[[Mapping], str]] = {
    "experiment_missing": _experiment_missing,
    "experiment_is_folder": _experiment_is_folder,
    "experiment_unreadable": _experiment_unreadable,
    "experiment_long_number": _experiment_long_number,
    "experiment_not_json": _experiment_not_json,
    "experiment_file_too_deep": _experiment_file_too_deep,
    "section_invalid": _section_invalid,
    "section_setting_invalid": _section_setting_invalid,
    "aloocv_c_range": _aloocv_c_range,
    "calibration_methods": _calibration_methods,
    "calibration_strategy": _calibration_strategy,
    "learning_fraction": _learning_fraction,
    "learning_fraction_twice": _learning_fraction_twice,
    "subgroups_with_datasets": _subgroups_with_datasets,
    "save_models_without_test": _save_models_without_test,
    "test_with_datasets": _test_with_datasets,
    "dataset_file": _dataset_file,
    "unknown_encoding": _unknown_encoding,
    "unknown_estimator": _unknown_estimator,
    "model_keys_unknown": _model_keys_unknown,
    "model_no_estimator": _model_no_estimator,
    "params_not_object": _params_not_object,
    "bad_grid": _bad_grid,
    "grid_too_large": _grid_too_large,
    "inner_splits_invalid": _inner_splits_invalid,
    "model_block_not_object": _model_block_not_object,
    "tune_grid_not_object": _tune_grid_not_object,
    "tuned_and_grid": _tuned_and_grid,
    "tune_optimism_not_boolean": _tune_optimism_not_boolean,
    "threshold_seed_invalid": _threshold_seed_invalid,
    "threshold_scoring_or_cost": _threshold_scoring_or_cost,
    "threshold_scoring": _threshold_scoring,
    "unknown_parameter": _unknown_parameter,
    "parameter_not_single": _parameter_not_single,
    "parameter_not_finite": _parameter_not_finite,
    "parameter_invalid": _parameter_invalid,
    "model_name_long": _model_name_long,
    "model_name_control": _model_name_control,
    "model_name_twice": _model_name_twice,
    "no_models": _no_models,
    "staging_unusable": _staging_unusable,
    "cv_precision": _cv_precision,
    "cv_scheme": _cv_scheme,
    "cv_weka_seed": _cv_weka_seed,
    "cv_interval": _cv_interval,
    "folds_count": _folds_count,
    "repeats_count": _repeats_count,
    "folds_one_class": _folds_one_class,
    "weka_groups": _weka_groups,
    "folds_too_many_rows": _folds_too_many_rows,
    "folds_too_many_class": _folds_too_many_class,
    "cv_no_models": _cv_no_models,
    "replay_incomplete": _replay_incomplete,
    "inner_groups_too_few": _inner_groups_too_few,
    "metric_invalid": _metric_invalid,
    "metrics_none": _metrics_none,
    "metric_twice": _metric_twice,
    "metric_two_class_only": _metric_two_class_only,
    "metric_multiclass_only": _metric_multiclass_only,
    "cost_metric_no_costs": _cost_metric_no_costs,
    "cost_metric_multiclass": _cost_metric_multiclass,
    "comparison_rope": _comparison_rope,
    "comparison_alpha": _comparison_alpha,
    "comparison_correction": _comparison_correction,
    "comparison_credible_level": _comparison_credible_level,
    "cost_matrix_invalid": _cost_matrix_invalid,
    "cost_matrix_flat": _cost_matrix_flat,
    "threshold_two_class_only": _threshold_two_class_only,
    "tune_cost_without_costs": _tune_cost_without_costs,
    "auto_settings_fixed_repeats": _auto_settings_fixed_repeats,
    "subgroup_cuts_order": _subgroup_cuts_order,
    "subgroup_column_twice": _subgroup_column_twice,
    "calibration_inner_rows": _calibration_inner_rows,
    "calibration_inner_groups": _calibration_inner_groups,
    "calibration_cv_unseeded": _calibration_cv_unseeded,
    "calibration_cv_mismatch": _calibration_cv_mismatch,
    "calibration_model_not_in_cv": _calibration_model_not_in_cv,
    "calibration_one_class": _calibration_one_class,
    "aloocv_single_row": _aloocv_single_row,
    "calibration_no_predictions": _calibration_no_predictions,
    "calibration_decision_values": _calibration_decision_values,
    "calibration_labels_only": _calibration_labels_only,
    "calibration_folds_failed": _calibration_folds_failed,
    "calibration_warning": _calibration_warning,
    "calibration_method": _calibration_method,
    "crowded_buckets": _crowded_buckets,
    "calibration_map_failed": _calibration_map_failed,
    "interval_past_bound": _interval_past_bound,
    "alo_grouped_rows": _alo_grouped_rows,
    "alo_solver_warnings": _alo_solver_warnings,
    "alo_unreliable": _alo_unreliable,
    "alo_best_at_max_c": _alo_best_at_max_c,
    "alo_best_at_min_c": _alo_best_at_min_c,
    "alo_single_row_class": _alo_single_row_class,
    "alo_constant_columns": _alo_constant_columns,
    "alo_not_applicable": _alo_not_applicable,
    "tuning_optimism": _tuning_optimism,
    "tuning_metric_differs": _tuning_metric_differs,
    "alo_optimum": _alo_optimum,
    "result_folder_leftover": _result_folder_leftover,
}
