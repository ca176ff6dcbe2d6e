"""The catalogue's long forms of the errors of the evaluation and output floors.

Part of the catalogue (:mod:`engine.foundation.messages` joins :data:`LONG_EVALUATION`
into its ``LONG``): the sentence of each error code raised in ``engine/evaluation`` and
``engine/output``, made from the error's fields only. A place in the experiment file
(``models[2].params.C``) comes as the field ``place``; a value from the file as the file
writes it (rendered by :func:`engine.foundation.schema.show` where it is raised) as
``got``. This module imports no project module, so every floor may word through it.
"""
from __future__ import annotations

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


def _experiment_too_deep(f) -> str:
    return (f"the experiment file {f['path']} is nested too deeply to read: an experiment "
            "file needs only a few levels of lists and objects")


def _section_invalid(f) -> str:
    return f"{f['section']}: {f['detail']}"


def _setting_invalid(f) -> str:
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


def _unknown_keys(f) -> str:
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


def _not_an_object(f) -> str:
    return f"{f['place']}: expected an object such as {f['example']}, got {f['got']}"


def _tune_grid_not_object(f) -> str:
    return (f"{f['place']}.grid: expected an object of parameter names and lists of values "
            f"to try, got {f['got']}")


def _tuned_and_grid(f) -> str:
    return (f"{f['place']}.grid: {', '.join(f['parameters'])} is both in the model's \"grid\" "
            "(separate models) and tuned inside the folds: keep it in one")


def _expected_boolean(f) -> str:
    return f"{f['place']}: expected true or false, got {f['got']}"


def _expected_seed(f) -> str:
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


#: Code -> the long form's wording function (joined into ``messages.LONG``).
LONG_EVALUATION: dict[str, Callable[[Mapping], str]] = {
    "experiment_missing": _experiment_missing,
    "experiment_is_folder": _experiment_is_folder,
    "experiment_unreadable": _experiment_unreadable,
    "experiment_long_number": _experiment_long_number,
    "experiment_not_json": _experiment_not_json,
    "experiment_too_deep": _experiment_too_deep,
    "section_invalid": _section_invalid,
    "setting_invalid": _setting_invalid,
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
    "unknown_keys": _unknown_keys,
    "model_no_estimator": _model_no_estimator,
    "params_not_object": _params_not_object,
    "bad_grid": _bad_grid,
    "grid_too_large": _grid_too_large,
    "inner_splits_invalid": _inner_splits_invalid,
    "not_an_object": _not_an_object,
    "tune_grid_not_object": _tune_grid_not_object,
    "tuned_and_grid": _tuned_and_grid,
    "expected_boolean": _expected_boolean,
    "expected_seed": _expected_seed,
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
}
