"""Coded errors: why the engine cannot go on, as a sentence and as data.

An :class:`EngineError` is a ``ValueError`` (so every ``except ValueError`` that shows
the user the engine's message keeps working) that also carries a stable ``code`` saying
what kind of problem it is and the ``fields`` its sentence was made from, like a
:class:`engine.foundation.notes.Note`. People read the message (the headless runner's one
``error:`` line is exactly ``str(error)``); programs -- the GUI -- decide on ``code`` and
``fields`` and never on the wording.

Every code is listed in :data:`CODES`; an error with any other code is refused, so a
typo fails at once. Codes are part of the engine's interface: add new ones, never
rename or reuse one (docs/contributing.md, "Adding an error code").

Errors cross the process boundary as values: an ``EngineError`` pickles with its code,
fields and message (:mod:`engine.runs.runner` sends those three and raises the error again
in the calling process).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Optional

from engine.foundation.messages import has_long_form, long_form
from engine.foundation.notes import Fields

#: Every error code, with what an error of that code says. The ``fields`` of each are
#: named in brackets.
CODES = {
    # ---- the result store (engine.runs.store)
    "store_locked": "the result store is in use by another program [path]",
    "store_foreign": "the file is another program's SQLite database, not a result store "
                     "[path]",
    "store_not_sqlite": "the file is not an SQLite database [path]",
    "store_damaged": "the result store is damaged [path, detail]",
    "store_format": "the result store was written in another format (by another version of "
                    "the app) [path, format, expected]",
    "store_link": "the result store or one of its side files is a symbolic link the app "
                  "does not write through [path, link]",
    "store_unusable": "the result store cannot be opened or written for another reason "
                      "(its folder is missing or read-only ...) [path, detail]",
    "store_hard_link": "the result folder's store or one of its side files has another "
                       "name elsewhere (a hard link): writing it would change that file "
                       "[path, link]",
    "store_side_files": "SQLite's side files of the result store are there without the "
                        "store (SQLite would take them for its own) [path, side]",
    "store_no_run": "the result store has no run of that id [path, run_id]",
    "store_data_changed": "the data of a stored run changed since it ran [path, run_id]",
    # ---- the result folder of a run (engine.runs.service)
    "result_folder_unwritable": "the result folder cannot be created or written [path, "
                                "detail]",
    # ---- grouped folds (engine.input.groups)
    "groups_length": "the groups do not give one value per row [n_values, n_rows]",
    "groups_too_few": "fewer groups than folds [n_groups, n_splits, possible: the most "
                      "folds possible]",
    "groups_one_group_class": "a class occurs in a single group [class]",
    # ---- reading data (engine.input.data, engine.input.arff)
    "data_no_rows": "the data file has column names but no row of data [path]",
    # ---- saved models and predict (engine.runs.heldout.saved)
    "model_unreadable": "the model file cannot be read: missing, a folder, pipe or device, "
                        "or not readable [path, detail]",
    "model_too_large": "the model file or what it unpacks to is larger than the limit or "
                       "the memory available [path, size, limit]",
    "model_foreign": "the file is not a model file saved by honest-eval [path, detail]",
    "model_untrusted": "the model file names a type or function the app does not write "
                       "(it could run code); nothing in it was built [path, types]",
    "model_record": "a field of the saved model is missing or wrong [path, field, detail]",
    "model_failed": "the model failed while predicting [path, detail]",
    "predict_data": "the data file cannot be read or does not fit the model [path, detail]",
    "predict_memory": "predicting would take more memory than is available [path, needed, "
                      "available]",
    "predict_out_kind": "the output path exists and is not a regular file [path, kind]",
    "predict_out_is_input": "the output path is the data file or the model file [path, "
                            "input]",
    "predict_out_folder": "the folder of the output file does not exist [path, folder]",
    # ---- the measured coverage shipped with the app (engine.evaluation.coverage_record)
    "coverage_record": "the coverage record cannot be used: unreadable, too large, other "
                       "columns, an unknown or repeated interval, a number out of bounds "
                       "[path, detail]",
    # ---- the held-out test file (engine.runs.heldout.test_file)
    "heldout_is_training": "the test file is the training file itself [path, training, "
                           "how: 'same_file' or 'same_content']",
    "heldout_mostly_training": "more than half the test file's rows are rows of the "
                               "training data [path, n_shared, n_rows]",
    # ---- the models a run keeps beside its result store (engine.output.kept_models)
    "kept_models_folder": "the folder for kept models is a symbolic link or not a folder, "
                          "or cannot be made or written [path, detail]",
    "kept_models_name": "a kept model's file name is not one the app writes [name]",
    # ---- the column to predict (engine.input.target_choice)
    # ---- the nested-CV interval (engine.evaluation.nested_interval, engine.runs.nested_cv)
    "nested_metric": "cv.interval \"nested\" needs a primary metric that is a mean over "
                     "rows [metric, allowed]",
    "nested_folds": "the nested-CV interval needs 3 to 100 folds [n_splits]",
    "nested_groups": "the nested-CV interval treats rows as independent and is not run "
                     "on data with groups [dataset]",
    "nested_rows": "the smallest class has fewer rows than the folds, so some inner "
                   "training parts would miss it [smallest, n_splits, class]",
    "target_not_named": "no target is named and not exactly one column qualifies by the "
                        "rule [candidates: column names best first, reasons: per candidate]",
    # ---- subgroups (engine.evaluation.subgroups.spec)
    "subgroup_column_unknown": "a subgroup column is neither a feature nor a column left "
                               "out of the models [column, columns: the names it may be]",
    "subgroup_cuts_not_numeric": "cut points were given for a column of text [column]",
    "subgroup_one_value": "a subgroup column makes one group only [column, value, by: "
                          "'values' (one value apart from missing ones) or 'cuts' (every "
                          "row in one cut)]",
    "subgroup_too_many_levels": "a subgroup column has more subgroups than the cap "
                                "[column, n_levels, cap]",
    # ---- the models of an experiment (engine.evaluation.catalogue)
    "too_many_models": "the models and their grids make more models than one run can "
                       "compare [n_models, limit]",
    # ---- jobs on a run's result (engine.runs.result_jobs)
    "calibration_no_method": "no calibration method is chosen []",
    "calibration_models_missing": "models to calibrate are not in the run's result "
                                  "[models: the missing ones, have: the result's]",
    "calibration_result_mismatch": "the run's result is not of these rows, or cannot "
                                   "give its folds again [detail]",
    "calibration_inner_too_few": "a training fold has fewer rows (with groups: groups) of "
                                 "a class than the calibration's inner folds "
                                 "[smallest, inner_splits, grouped]",
    "aloocv_no_model": "ALO applies to none of the models [models, reasons: per model]",
    # ---- msgsB: the experiment file and its models (engine.evaluation.experiment,
    # engine.evaluation.catalogue) and the result folder (engine.output)
    "experiment_missing": "the experiment file does not exist [path]",
    "experiment_is_folder": "the experiment path is a folder [path]",
    "experiment_unreadable": "the experiment file cannot be opened [path, detail]",
    "experiment_long_number": "the experiment file holds a number of more than 4300 "
                              "digits [path]",
    "experiment_not_json": "the experiment file is not valid JSON [path, detail]",
    "experiment_too_deep": "the experiment file is nested too deeply to read [path]",
    "section_invalid": "a section of the experiment cannot be built [section, detail]",
    "section_setting_invalid": "a setting is outside its bounds [place, problem]",
    "aloocv_c_range": "aloocv needs 0 < C_min < C_max [C_min, C_max]",
    "calibration_methods": "unknown calibration methods [unknown]",
    "calibration_strategy": "the calibration strategy is not uniform or quantile [strategy]",
    "learning_fraction": "a learning-curve fraction is not in (0, 1] [value]",
    "learning_fraction_twice": "a learning-curve fraction is listed twice []",
    "subgroups_with_datasets": "subgroups with a \"datasets\" list []",
    "save_models_without_test": "save_models without a held-out test file []",
    "test_with_datasets": "a held-out test file with a \"datasets\" list []",
    "dataset_file": "the data set's file options are wrong [detail, inner_code]",
    "unknown_encoding": "not a text encoding Python knows [place, got]",
    "unknown_estimator": "not an estimator of the catalogue [estimator, known, place]",
    "model_keys_unknown": "a block has keys it does not take [place, unknown, allowed]",
    "model_no_estimator": "a model entry names no estimator [place]",
    "params_not_object": "a model's params are not an object [place]",
    "bad_grid": "a model's grid is not a parameter grid [place, detail]",
    "grid_too_large": "a model's grid makes too many models [place, n_models, limit]",
    "inner_splits_invalid": "the inner folds are outside their bounds [place, problem]",
    "model_block_not_object": "a block is not an object [place, example, got]",
    "tune_grid_not_object": "a tuning grid is not an object [place, got]",
    "tuned_and_grid": "parameters both in the grid and tuned [place, parameters]",
    "tune_optimism_not_boolean": "a setting is not true or false [place, got]",
    "threshold_seed_invalid": "a seed is not a whole number or null [place, got]",
    "threshold_scoring_or_cost": "a threshold needs scoring or cost, one of them [place]",
    "threshold_scoring": "a threshold's metric is not one of predicted classes [place, got, "
                         "allowed]",
    "unknown_parameter": "the estimator has no such parameter [place, estimator, parameter, "
                         "allowed]",
    "parameter_not_single": "a parameter holds a list or object [place, parameter, got]",
    "parameter_not_finite": "a parameter is not a finite number [place, parameter]",
    "parameter_invalid": "scikit-learn refuses a parameter value [model, place, parameter, "
                         "estimator, expected, got, detail]",
    "model_name_long": "a model name is too long [start, n_chars, limit]",
    "model_name_control": "a model name holds a control character [shown]",
    "model_name_twice": "two models share a name [name]",
    "no_models": "the experiment has no models []",
    "staging_unusable": "an interrupted write of a result folder cannot be finished [path, "
                        "detail]",
    # ---- msgsB: folds, metrics, comparison, tuning and costs (engine.evaluation)
    "cv_precision": "cv.precision is not between 0 and 1 [precision]",
    "cv_scheme": "an unknown fold assignment [scheme]",
    "cv_weka_seed": "the weka scheme has no seed []",
    "cv_interval": "an unknown cv.interval [interval]",
    "folds_count": "the folds are not a whole number of at least 2 [n_splits]",
    "repeats_count": "the repeats are not a whole number of at least 1 [n_repeats]",
    "folds_one_class": "the target has one class []",
    "weka_groups": "Weka's folds cannot keep groups together []",
    "folds_too_many_rows": "more folds than rows [n_rows, n_splits]",
    "folds_too_many_class": "more folds than rows of the smallest class [smallest, n_splits]",
    "cv_no_models": "no models to cross-validate []",
    "replay_incomplete": "fits of a replayed run are not in the store [n_missing, n_fits, "
                         "repeat: None for the whole run]",
    "inner_groups_too_few": "an inner split needs more groups than an outer training fold "
                            "holds [model, block, inner_splits, fewest]",
    "metric_invalid": "not a classification metric of this app [place, reason, shown, close, "
                      "allowed]",
    "metrics_none": "no metrics given []",
    "metric_twice": "a metric is listed twice [metrics]",
    "metric_two_class_only": "a two-class metric on more classes [metric, n_classes, "
                             "counterpart]",
    "metric_multiclass_only": "a many-class metric on two classes [metric]",
    "cost_metric_no_costs": "the expected cost without costs [metric]",
    "cost_metric_multiclass": "the expected cost on more than two classes [metric, n_classes]",
    "comparison_rope": "the rope is not a number of 0 or more [rope]",
    "comparison_alpha": "alpha is not between 0 and 1 [alpha]",
    "comparison_correction": "an unknown correction [correction, allowed]",
    "comparison_credible_level": "a credible level is not between 0 and 1 [level]",
    "cost_matrix_invalid": "the costs are not a 2x2 matrix of numbers [place, got]",
    "cost_matrix_flat": "every outcome costs the same [place]",
    "threshold_two_class_only": "a decision threshold on more than two classes [model, "
                                "n_classes]",
    "tune_cost_without_costs": "a grid search by expected cost without costs [model]",
    "auto_settings_fixed_repeats": "max_repeats or precision without n_repeats auto []",
    # ---- msgsB: subgroups, calibration and ALOOCV (engine.evaluation)
    "subgroup_cuts_order": "cut points not ascending or repeated [index, cuts]",
    "subgroup_column_twice": "a subgroup column is named twice [column]",
    "calibration_inner_rows": "the calibration's inner split needs more rows of the smallest "
                              "class [smallest, inner_splits]",
    "calibration_inner_groups": "the calibration's inner split needs more groups [fewest, "
                                "inner_splits]",
    "calibration_cv_unseeded": "an unseeded CV without predictions to calibrate []",
    "calibration_cv_mismatch": "the CV result's folds are not those of this data set []",
    "calibration_model_not_in_cv": "a model to calibrate is not in the CV result [model, "
                                   "models]",
    "calibration_one_class": "a sigmoid fit on outcomes of one class []",
    "aloocv_single_row": "exact LOO with a class of a single row [class_code]",
}

#: The prefix of every result store code (:func:`is_store_error`).
STORE_PREFIX = "store_"


class EngineError(ValueError):
    """A problem the engine cannot go on with, for the user and for programs.

    Parameters
    ----------
    code : str
        What kind of problem: a key of :data:`CODES`.
    fields : mapping, optional
        The values the message was made from, by name (plain values; stored read-only).
    message : str, optional
        The sentence for people (``str(error)``); left empty, the catalogue's long form
        made from ``fields`` (:mod:`engine.foundation.messages`) for the codes it words,
        else the code's meaning in :data:`CODES`.

    Examples
    --------
    >>> error = EngineError("groups_too_few", {"n_groups": 3, "n_splits": 5}, "only 3 ...")
    >>> str(error), error.code, error.fields["n_groups"]
    ('only 3 ...', 'groups_too_few', 3)
    """

    def __init__(self, code: str, fields: Optional[Mapping] = None, message: str = ""):
        if code not in CODES:
            raise ValueError(f"unknown error code {code!r}; "
                             "add it to engine.foundation.errors.CODES")
        fields = Fields(fields or {})
        message = str(message) or (long_form(code, fields) if has_long_form(code)
                                   else CODES[code])
        super().__init__(message)
        self.code, self.message = code, message
        self.fields = fields

    def __reduce__(self):
        return EngineError, (self.code, dict(self.fields), self.message)

    def __repr__(self) -> str:
        return f"EngineError({self.code!r}, {dict(self.fields)!r}, {self.message!r})"


def error_code(exc: BaseException) -> str:
    """The code of an :class:`EngineError` (or of anything with a ``code``, such as
    :class:`engine.runs.runner.JobFailed`); "" for anything else."""
    code = getattr(exc, "code", "")
    return code if isinstance(code, str) else ""


def error_fields(exc: BaseException) -> Mapping:
    """The fields of an :class:`EngineError`; an empty mapping for anything else."""
    fields = getattr(exc, "fields", None)
    return fields if isinstance(fields, Mapping) else Fields()


def is_store_error(exc: BaseException, path: Optional[str] = None) -> bool:
    """True for an error about the result store (about the one at ``path`` when given)."""
    if not error_code(exc).startswith(STORE_PREFIX):
        return False
    return path is None or error_fields(exc).get("path") == path
