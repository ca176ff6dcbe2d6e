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

What is not the user's is not an ``EngineError``: a caller that breaks a function's
contract gets a :class:`~engine.foundation.caller_errors.CallerError` (a programming
error, with a code of :data:`CALLER_CODES`), and a helper that says why a stored value
cannot be used raises a :class:`~engine.foundation.caller_errors.DetailError` for the
coded error its caller raises (both from :mod:`engine.foundation.caller_errors`, named
here too). A bare ``ValueError`` is left only where a foreign interface asks for one
(``tests/test_caller_errors.py`` lists them).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Optional

from engine.foundation.caller_errors import (  # noqa: F401 - the error module's names
    CALLER_CODES, CallerError, DetailError, detail_of, is_caller_error)
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
    "data_no_rows": "the data file has column names but no row of data [path, kind: "
                    "'csv' or 'arff']",
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
    "predict_data": "the data file cannot be read or does not fit the model [path, detail, "
                    "cause: the reading error's code, or '']",
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
                        "rule [candidates: column names best first, reasons: per candidate, "
                        "max_listed: how many the sentence lists]",
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
    # ---- the experiment file and its models (engine.evaluation.experiment,
    # engine.evaluation.catalogue) and the result folder (engine.output)
    "experiment_missing": "the experiment file does not exist [path]",
    "experiment_is_folder": "the experiment path is a folder [path]",
    "experiment_unreadable": "the experiment file cannot be opened [path, detail]",
    "experiment_long_number": "the experiment file holds a number of more than 4300 "
                              "digits [path]",
    "experiment_not_json": "the experiment file is not valid JSON [path, detail]",
    "experiment_file_too_deep": "the experiment file is nested too deeply to read [path]",
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
    # ---- folds, metrics, comparison, tuning and costs (engine.evaluation)
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
    # ---- subgroups, calibration and ALOOCV (engine.evaluation)
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
    # ==== engine.input, engine.foundation, engine.runs
    # ---- the held-out test file (engine.runs.heldout.test_file)
    # (the heldout_* codes below also take file: "data" when the file checked is one given
    # to predict, worded "the data file"; left out, "test")
    "heldout_unreadable": "the test file cannot be read [path, detail: why, cause: the "
                          "code of the reading error, or '']",
    "heldout_no_target": "the test file has no column of the training data's target "
                         "[path, target]",
    "heldout_no_rows": "no row of the test file has a target value [path, target]",
    "heldout_missing_columns": "the test file lacks feature columns of the training data "
                               "[path, columns]",
    "heldout_text_column": "a column of numbers in the training data holds text in the "
                           "test file [path, column]",
    "heldout_unseen_classes": "the test file has classes the training data has not "
                              "[path, target, classes]",
    "heldout_missing_values": "the test file has missing values but the models fill in "
                              "none [path, columns]",
    # ---- saved models (engine.runs.heldout.saved), a run (engine.runs.analysis ...)
    "skops_missing": "saving or loading models needs skops, which is not installed []",
    "no_valid_score": "no model gave a valid score of the primary metric on any fold "
                      "[metric, reason: the most frequent fold error, advice: or '']",
    "grouping_gap_needs_groups": "the grouping gap was asked for on a data set without "
                                 "groups []",
    "dataset_problem": "one data set of several cannot be read or used "
                       "[dataset: its name, index, place: the data set named as the "
                       "experiment names it, detail: the problem, cause: its code or '', "
                       "cause_fields]",
    # ---- the experiment file's shape (engine.foundation.schema)
    "experiment_invalid": "the experiment file does not fit its schema [place: where, as "
                          "'models[0].scale', keyword: the schema keyword not met, problem: "
                          "what was expected there]",
    "experiment_not_finite": "a number of the experiment file is not finite [place, value: "
                             "as shown]",
    "experiment_huge_number": "an integer of the experiment file is beyond the usual size "
                              "[place, value: as shown, limit]",
    "experiment_too_deep": "the experiment file is nested too deep [place, depth: the "
                           "limit]",
    # ---- files (engine.input.file_checks)
    "file_missing": "the file does not exist [path]",
    "file_unopenable": "the file cannot be looked at [path, detail: the system's reason]",
    "file_not_regular": "the path is a folder, pipe, device ... not a file [path, kind, "
                        "what: the kind of file wanted]",
    "file_of_system": "the path is one of the system's own files (/proc, /dev ...) [path, "
                      "root, what]",
    "file_unreadable": "the file cannot be opened for reading [path, detail]",
    "file_memory": "the file is larger than the memory available [path, size, available]",
    "table_memory": "the table of a file would take more memory than available while read "
                    "[path, n_values, how: where the count comes from, or '', need: bytes, "
                    "copies, available, advice]",
    "experiment_file_size": "the experiment file is far too large to be one [path, size]",
    "builtin_memory": "a generated built-in data set would take more memory than available "
                      "[name, rows, columns, need, copies, available, knob: the option to "
                      "lower, most: its largest value that fits]",
    # ---- data set blocks (engine.input.readers)
    "file_kind_unknown": "the file's extension is not one the app reads [path, extension, "
                         "extensions]",
    "dataset_file_and_csv": "a data set block gives both \"file\" and \"csv\" []",
    "dataset_option_of_kind": "a data set block gives a reading option of another kind of "
                              "file [key, kinds: those it applies to, path, kind]",
    "dataset_unknown_keys": "a data set block has unknown keys [keys, with: 'file' or "
                            "'csv', allowed]",
    "read_option_unknown": "a reading option is not one of the file's kind [options, kind]",
    "builtin_no_groups": "\"groups\" was given for a built-in data set [name]",
    "dataset_no_source": "a data set block names no built-in data set and no file []",
    "test_unknown_keys": "the test block has keys its file's kind does not take [where, "
                         "keys, path, allowed]",
    # ---- making a data set (engine.input.data, engine.input.data_checks)
    "builtin_unknown": "no built-in data set of that name [name, builtins]",
    "builtin_options": "a built-in data set was given options it does not take [name, "
                       "options, allowed]",
    "builtin_generator": "scikit-learn's generator refused a built-in data set's options "
                         "[name, detail: its reason]",
    "file_empty": "the data file is empty [path]",
    "one_column": "the data file has one column only [path]",
    "read_stopped": "reading the file stopped before it filled the memory [path, reason: "
                    "'row_too_long' (line, row_bytes) or 'rows_too_many' (lines, rows, "
                    "width, need, copies, available)]",
    "decimal_option": "\"decimal\" is neither \".\" nor \",\" [decimal]",
    "thousands_option": "\"thousands\" is not a thousands separator [thousands]",
    "thousands_is_decimal": "the thousands separator is also the decimal mark [thousands]",
    "no_features": "no feature column is left besides the target []",
    "target_one_class": "the target has fewer than two classes [target, classes]",
    "target_not_classes": "the target has more different values than half its rows "
                          "[target, n_classes, n_rows]",
    "columns_missing": "columns named to leave out or keep are not in the file [wanted, "
                       "role: 'leave_out' or 'keep', columns]",
    "kept_and_left_out": "columns are both kept (\"features\") and left out [columns]",
    "kept_not_feature": "\"features\" names the target or the groups column [column, what]",
    "target_undeclared": "the target holds values its declaration lacks (ARFF) [target, "
                         "values]",
    "pos_label_not_binary": "\"pos_label\" given for a target of other than two classes "
                            "[classes]",
    "pos_label_unknown": "\"pos_label\" is not one of the classes [pos_label, classes]",
    "column_unknown": "there is no column of that name [column, columns]",
    # ---- long texts, groups, ids, resampling, data set names (engine.input)
    "column_name_long": "a column name is longer than a name can be [position, length, "
                        "start: its start as shown, limit]",
    "cell_text_long": "a cell holds a longer text than a cell can [column: its start as "
                      "shown, row, length, limit]",
    "class_label_long": "a class label is longer than a label can be [target: as shown, "
                        "row, length, limit]",
    "groups_is_target": "\"groups\" names the target [column]",
    "groups_missing": "the groups column has missing values [column, n_missing, rows: the "
                      "first of them, numbered from 1]",
    "id_column_is_target": "\"id_column\" names the target [column]",
    "id_column_kept": "\"id_column\" is also in \"features\" [column]",
    "resample_unknown": "an unknown \"resample\" value [where, value, samplers]",
    "imblearn_missing": "resampling needs imbalanced-learn, which is not installed [where]",
    "dataset_name_bad": "a data set name cannot be used [where, name: as shown, problem: "
                        "'empty', 'too_long' (length, max_length), 'forbidden' (characters), "
                        "'formula' (first), 'dot_or_space' or 'reserved']",
    "dataset_name_taken": "two data sets have one name [index, name: as shown, "
                          "other_index, other: the other's name as shown when it differs "
                          "in case, else '']",
    # ---- reading a CSV file's text (engine.input.csv_values)
    "sep_option": "\"sep\" is not one character that can separate cells [sep]",
    "encoding_option": "\"encoding\" is not a name [encoding]",
    "encoding_unknown": "\"encoding\" names no text encoding Python knows [encoding]",
    "file_binary_kind": "the file is a known binary kind (an image, an archive ...) [path, "
                        "kind, what: the kind of file wanted, fix: what to do, 'archive', "
                        "'spreadsheet', 'workbook', or '' (give the kind wanted)]",
    "file_binary": "the file holds zero bytes, as text files do not [path, encoding: the "
                   "one given, or None, what]",
    "csv_comment_first": "the CSV file starts with comment lines [path, line, text: its "
                         "start]",
    "csv_not_encoding": "the CSV file holds bytes its encoding cannot have [path, encoding, "
                        "detail]",
    "csv_empty": "the CSV file holds no columns or rows [path]",
    "csv_ragged": "a line has more cells than the header [path, sep, line, saw, expected]",
    "csv_open_quote": "a quote mark opens a cell that never closes [path, line]",
    "csv_unparsed": "the CSV parser failed otherwise [path, sep, detail: its message]",
    # ---- Excel workbooks (engine.input.excel)
    "excel_old_format": "the file is an old .xls workbook [path]",
    "sheet_unreadable": "pandas could not read a sheet [path, sheet, detail]",
    # (the classes NotATable and SheetTooLarge of engine.input.excel)
    "sheet_not_a_table": "a sheet holds no table: fewer than two columns, or no rows under "
                         "the names [path, sheet, sheets, n_columns, n_rows]",
    "sheet_too_large": "a sheet's padded rows would not fit in memory [path, n_rows, "
                       "n_columns, last_column: its letter, need, available]",
    "excel_not_zip": "the .xlsx file is not a ZIP archive [path]",
    "openpyxl_missing": "reading workbooks needs openpyxl, which is missing [detail]",
    "excel_invalid": "the file is not a valid workbook [path, detail]",
    "excel_part_large": "a part of the workbook unpacks larger than the app reads [path, "
                        "part, size, limit]",
    "excel_part_padding": "a part of the workbook is compressed far more than data is "
                          "[path, part, size, compressed]",
    "excel_strings_large": "the workbook's shared strings unpack larger than the app reads "
                           "[path, part, size, limit]",
    "excel_part_memory": "a part of the workbook would take more memory than available "
                         "[path, part, size, need, available]",
    "excel_no_sheets": "the workbook has no sheets [path]",
    "sheet_unknown": "the workbook has no sheet of that name [sheet, file: the file's name, "
                     "sheets]",
    # ---- ARFF files (engine.input.arff)
    "arff_line": "a line of the ARFF file is wrong [path, line (None when not read from a "
                 "file), problem: 'split', 'open_quote', 'no_relation', 'attribute_twice', "
                 "'data_first', 'unexpected', 'attribute_form', 'nominal_brace', "
                 "'nominal_values', 'nominal_twice', 'date_format', 'relational', "
                 "'unknown_type', 'dense_brace', 'n_values', 'weight', 'sparse_form', "
                 "'sparse_pairs', 'sparse_index', 'sparse_twice', 'not_number' or "
                 "'not_declared'; and the problem's own: quote, found, name, detail, kind, "
                 "n_values, n_attributes, weight, index, last, value, declared]",
    "arff_not_encoding": "the ARFF file is not text of its encoding [path, encoding, detail]",
    "arff_no_data": "the ARFF file has no @data line [path]",
    "arff_weights": "the rows of the ARFF file have different instance weights [path, "
                    "weights: the first of them]",
    # ---- Java date patterns (engine.input.java_dates)
    "date_unfit": "a date does not fit its pattern [text, pattern]",
    "date_invalid": "a date fits its pattern but names no real moment [text, pattern, "
                    "detail: which part is out of range]",
    "date_pattern_quote": "a date pattern has a quote that never closes [pattern]",
    "date_pattern_letter": "a date pattern uses a letter the app does not read [pattern, "
                           "letter]",
    "date_at": "a date of a file cannot be read [place: the file, line and attribute, "
               "detail, cause: the date's own code, text]",
    # ==== area errC: the last bare ValueErrors that were the user's (issue #40)
    # ---- a Dask cluster (engine.evaluation.cluster, engine.evaluation.scheduler_greeting)
    "cluster_tls": "the cluster's address asks for TLS, which the app has no settings for "
                   "[cluster]",
    "cluster_address": "the cluster is neither local:N nor tcp://HOST:PORT [cluster]",
    "distributed_missing": "running on a Dask cluster needs Dask's distributed, which is "
                           "not installed [install: the command]",
    "cluster_unreachable": "no Dask scheduler answers at the address in time [address, "
                           "timeout: seconds, why: the exception's name]",
    "cluster_not_scheduler": "what answers at the address is not a Dask scheduler "
                             "[address, problem]",
    "cluster_no_workers": "the Dask scheduler has no workers [address]",
    "cluster_worker_import": "a worker cannot import the app's engine [address, detail]",
    "cluster_versions": "workers run another scikit-learn than this computer [address, "
                        "version: this computer's, workers: address to version]",
    # ---- the command line (engine.cli) and the experiment file (engine.evaluation.experiment)
    "save_models_flag_without_test": "--save-models for an experiment without a held-out "
                                     "test file []",
    "experiment_value": "a value of the experiment file is refused by a library's own check "
                        "(not one the app words itself) [detail: its words, one line]",
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
            raise CallerError("code_unregistered",
                              f"unknown error code {code!r}; "
                              "add it to engine.foundation.errors.CODES", {"code": code})
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


def is_store_error(exc: BaseException, *, path: Optional[str] = None) -> bool:
    """True for an error about the result store (about the one at ``path`` when given)."""
    if not error_code(exc).startswith(STORE_PREFIX):
        return False
    return path is None or error_fields(exc).get("path") == path
