"""The catalogue's wording of the errors of engine/evaluation and engine/output
(engine.foundation.messages_evaluation): one pinned sentence per code. Other tests
assert codes and fields; these pin the sentences made from them."""
import ast
import os

import pytest

from engine.foundation.errors import CODES, EngineError
from engine.foundation.messages import LONG
from engine.foundation.messages_evaluation import LONG_EVALUATION
from engine.foundation.notes import CODES as NOTE_CODES, Note

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: (code, fields, long form): one example per code (two where the wording branches).
CASES = [
    ("experiment_missing", {"path": "e.json"}, "cannot open e.json: the file does not exist"),
    ("experiment_is_folder", {"path": "d"},
     "cannot open d: it is a folder, not an experiment file"),
    ("experiment_unreadable", {"path": "e.json", "detail": "Permission denied"},
     "cannot open e.json: Permission denied"),
    ("experiment_long_number", {"path": "e.json"},
     "the experiment file e.json holds a number of more than 4300 digits; write numbers of a "
     "usual size"),
    ("experiment_not_json", {"path": "e.json", "detail": "Expecting value: line 1"},
     "the experiment file e.json is not valid JSON: Expecting value: line 1"),
    ("experiment_file_too_deep", {"path": "e.json"},
     "the experiment file e.json is nested too deeply to read: an experiment file needs only "
     "a few levels of lists and objects"),
    ("section_invalid", {"section": "cv", "detail": "bad keyword"}, "cv: bad keyword"),
    ("section_setting_invalid", {"place": "aloocv.n_C", "problem": "at most 200"},
     "aloocv.n_C: at most 200"),
    ("aloocv_c_range", {"C_min": 2.0, "C_max": 1.0},
     "aloocv: need 0 < C_min < C_max (got C_min=2.0, C_max=1.0)"),
    ("calibration_methods", {"unknown": ["platt", "beta"]},
     "calibration: unknown method(s) platt, beta; choose from: isotonic, sigmoid"),
    ("calibration_strategy", {"strategy": "kmeans"},
     "calibration: strategy must be 'uniform' or 'quantile' (got 'kmeans')"),
    ("learning_fraction", {"value": 1.5},
     "curves.learning: 1.5 is not a fraction of the training fold; give numbers above 0 and "
     "at most 1, e.g. [0.1, 0.55, 1.0]"),
    ("learning_fraction_twice", {},
     "curves.learning: a fraction is listed twice; list each once"),
    ("subgroups_with_datasets", {},
     'subgroups: a subgroup column belongs to one data set, and this experiment has a '
     '"datasets" list; run the data set with its subgroups as an experiment of its own '
     '("dataset" and "subgroups")'),
    ("save_models_without_test", {},
     'save_models: the final models are fitted for the held-out test; add "test": {"file": '
     'PATH} or leave "save_models" out'),
    ("test_with_datasets", {},
     'test: a held-out test file belongs to one data set, and this experiment has a '
     '"datasets" list; run the data set with its test file as an experiment of its own '
     '("dataset" and "test")'),
    ("dataset_file", {"detail": "no such option", "inner_code": ""},
     "dataset.file: no such option"),
    ("unknown_encoding", {"place": "datasets[1]", "got": '"klingon"'},
     'datasets[1].encoding: "klingon" is not a text encoding Python knows; use one such as '
     '"utf-8", "utf-8-sig", "latin-1" or "cp1252", or leave "encoding" out to detect it'),
    ("unknown_estimator", {"estimator": "Foo", "known": ["SVC", "LogisticRegression"],
                           "place": None},
     "unknown estimator 'Foo'; the catalogue has: SVC, LogisticRegression"),
    ("unknown_estimator", {"estimator": "Foo", "known": ["SVC"], "place": "models[0].estimator"},
     "models[0].estimator: unknown estimator 'Foo'; the catalogue has: SVC"),
    ("model_keys_unknown", {"place": "models[1]", "unknown": ["x", "y"], "allowed": ["name", "scale"]},
     "models[1]: unknown key(s) x, y; allowed: name, scale"),
    ("model_no_estimator", {"place": "models[0]"},
     "models[0]: missing 'estimator' (a catalogue name such as 'SVC')"),
    ("params_not_object", {"place": "models[0].params"},
     "models[0].params: 'params' must be an object of name: value"),
    ("bad_grid", {"place": "models[0].grid", "detail": "Parameter grid is not a dict"},
     "models[0].grid: bad grid: Parameter grid is not a dict"),
    ("grid_too_large", {"place": "model SVC", "n_models": 30_000, "limit": 20_000},
     "model SVC: the grid makes 30,000 models; at most 20,000 can be compared in one "
     "experiment"),
    ("inner_splits_invalid", {"place": "tune.inner_splits", "problem": "at least 2"},
     "tune.inner_splits: at least 2 (the inner folds)"),
    ("model_block_not_object", {"place": "threshold", "example": '{"scoring": "f1"}', "got": "3"},
     'threshold: expected an object such as {"scoring": "f1"}, got 3'),
    ("tune_grid_not_object", {"place": "tune", "got": "an empty list"},
     "tune.grid: expected an object of parameter names and lists of values to try, got an "
     "empty list"),
    ("tuned_and_grid", {"place": "models[0].tune", "parameters": ["C", "gamma"]},
     'models[0].tune.grid: C, gamma is both in the model\'s "grid" (separate models) and '
     "tuned inside the folds: keep it in one"),
    ("tune_optimism_not_boolean", {"place": "tune.optimism", "got": '"yes"'},
     'tune.optimism: expected true or false, got "yes"'),
    ("threshold_seed_invalid", {"place": "threshold.random_state", "got": "1.5"},
     "threshold.random_state: expected a whole number or null, got 1.5"),
    ("threshold_scoring_or_cost", {"place": "threshold"},
     'threshold: give either "scoring" (such as "balanced_accuracy") or "cost" (a 2x2 matrix '
     "[[c_tn, c_fp], [c_fn, c_tp]]), not both or neither"),
    ("threshold_scoring", {"place": "threshold.scoring", "got": '"roc_auc"',
                           "allowed": ["accuracy", "f1"]},
     'threshold.scoring: a threshold is chosen by a metric of predicted classes; got '
     '"roc_auc", use one of: accuracy, f1'),
    ("unknown_parameter", {"place": "models[0].params.Q", "estimator": "SVC", "parameter": "Q",
                           "allowed": ["C", "kernel"]},
     "models[0].params.Q: SVC has no parameter 'Q'; allowed: C, kernel"),
    ("parameter_not_single", {"place": "model 'a'", "parameter": "C", "got": "a list ([1])"},
     "model 'a': parameter 'C' must be a single value, not a list ([1])"),
    ("parameter_not_finite", {"place": "model 'a'", "parameter": "C"},
     "model 'a': parameter 'C' must be a finite number"),
    ("parameter_invalid", {"model": "a", "place": "models[0].params.C", "parameter": "C",
                           "estimator": "SVC", "expected": "a float in the range (0.0, inf)",
                           "got": "-1", "detail": "..."},
     "models[0].params.C: the 'C' parameter of SVC must be a float in the range (0.0, inf), "
     "got -1"),
    ("parameter_invalid", {"model": "a", "place": None, "parameter": None, "estimator": None,
                           "expected": None, "got": None, "detail": "bad\\ncombination"},
     "model 'a': bad\\ncombination"),
    ("model_name_long", {"start": "x" * 40, "n_chars": 5000, "limit": 200},
     "the model name " + "x" * 40 + "… is 5,000 characters long, more than the 200 a name "
     "can have (it is written in every row of the result tables): give the model a shorter "
     "name"),
    ("model_name_control", {"shown": "a\\nb"},
     "the model name 'a\\nb' holds a control character (a line break, a tab or an invisible "
     "Unicode control or format character, shown written out): rename the model"),
    ("model_name_twice", {"name": "svc"}, "two models are named 'svc'; give each model its own "
     "name"),
    ("no_models", {}, "the experiment has no models: add at least one"),
    ("staging_unusable", {"path": "/r/.staging", "detail": "its run.json cannot be used (x)"},
     "/r/.staging: its run.json cannot be used (x)"),
    ("cv_precision", {"precision": 1.5},
     "cv.precision: a share of the width between 0 and 1 (got 1.5)"),
    ("cv_scheme", {"scheme": "caret"},
     "cv.scheme: unknown fold assignment 'caret'; choose \"sklearn\" (scikit-learn's) or "
     "\"weka\" (Weka 3's)"),
    ("cv_weka_seed", {},
     'cv.random_state: the "weka" scheme needs a seed (Weka numbers its runs from it; its '
     "Experimenter starts at 1): give a whole number"),
    ("cv_interval", {"interval": "bootstrap"},
     "cv.interval: unknown interval 'bootstrap'; choose \"corrected_t\" or \"nested\" "
     "(Bates et al.'s nested CV)"),
    ("folds_count", {"n_splits": 1},
     "the number of folds must be a whole number of at least 2 (got 1)"),
    ("repeats_count", {"n_repeats": 0},
     "the number of repeats must be a whole number of at least 1 (got 0)"),
    ("folds_one_class", {}, "the target has only one class: a classifier needs at least two"),
    ("weka_groups", {},
     'cv.scheme "weka" cannot keep rows that belong together in one fold (Weka has no '
     'grouped folds): use the "sklearn" scheme, or leave "groups" out of the data set'),
    ("folds_too_many_rows", {"n_rows": 4, "n_splits": 10},
     "the data has only 4 rows, but 10 folds need at least 10: lower the number of folds to 4 "
     "or fewer, or add data"),
    ("folds_too_many_class", {"smallest": 1, "n_splits": 5},
     "the smallest class has only 1 row(s), but 5 folds need at least 5 rows in every class: "
     "lower the number of folds to 2 or fewer, or add data"),
    ("cv_no_models", {}, "no models to cross-validate: add at least one"),
    ("replay_incomplete", {"n_missing": 3, "n_fits": 20, "repeat": None},
     "3 of the run's 20 fits are not in the store (the run did not finish): run the "
     "experiment again to complete it"),
    ("replay_incomplete", {"n_missing": 5, "n_fits": None, "repeat": 2},
     "5 fits of repeat 2 are not in the store (the run did not finish): run the experiment "
     "again to complete it"),
    ("inner_groups_too_few", {"model": "svc", "block": "tune", "inner_splits": 5, "fewest": 3},
     "model 'svc': an outer training fold holds only 3 group(s) of rows that belong together, "
     "but its \"tune\" block's inner 5-fold split keeps groups together and needs at least 5: "
     "set \"tune\": {\"inner_splits\": 3} or fewer, use fewer outer folds, or add data"),
    ("metric_invalid", {"place": "metrics[1]", "reason": "regression", "shown": '"r2"',
                        "close": None, "allowed": ["accuracy", "f1"]},
     'metrics[1]: "r2" is a regression score, not a classification one; use one of: '
     "accuracy, f1"),
    ("metric_invalid", {"place": "metrics[0]", "reason": "unknown", "shown": '"acc"',
                        "close": '"accuracy"', "allowed": ["accuracy"]},
     'metrics[0]: unknown metric "acc" (did you mean "accuracy"?); use one of: accuracy'),
    ("metrics_none", {},
     "no metrics given: name at least one, such as 'roc_auc' or 'accuracy'"),
    ("metric_twice", {"metrics": ["f1", "f1"]}, "a metric is listed twice: f1, f1"),
    ("metric_two_class_only", {"metric": "roc_auc", "n_classes": 3, "counterpart": "roc_auc_ovr"},
     "metric 'roc_auc' works for two classes only and the data has 3; use 'roc_auc_ovr' "
     "instead"),
    ("metric_multiclass_only", {"metric": "top_k_accuracy"},
     "metric 'top_k_accuracy' is always 1 for two classes (the right class is always among "
     "the top 2); use 'accuracy' instead"),
    ("cost_metric_no_costs", {"metric": "neg_expected_cost", "n_classes": 2},
     'metric "neg_expected_cost" (expected cost) needs the costs of the outcomes: add '
     '"costs": [[c_tn, c_fp], [c_fn, c_tp]] to the experiment, or choose a threshold by costs '
     'in a model (several models with different costs need the top-level "costs")'),
    ("cost_metric_multiclass", {"metric": "neg_expected_cost", "n_classes": 3},
     'metric "neg_expected_cost" (expected cost) works for two classes only (its costs are a '
     "2x2 matrix) and the target has 3: choose another metric, or a two-class target"),
    ("comparison_rope", {"rope": -0.1},
     "comparison: rope must be a number of 0 or more (got -0.1)"),
    ("comparison_alpha", {"alpha": 1.5}, "comparison: alpha must be between 0 and 1 (got 1.5)"),
    ("comparison_correction", {"correction": "fdr", "allowed": ["bonferroni", "holm", "none"]},
     "comparison: unknown correction 'fdr'; choose one of: bonferroni, holm, none"),
    ("comparison_credible_level", {"level": 95},
     "comparison: credible levels must be between 0 and 1 (got 95)"),
    ("cost_matrix_invalid", {"place": "costs", "got": "a list ([1, 2])"},
     "costs: expected a 2x2 matrix of numbers [[c_tn, c_fp], [c_fn, c_tp]] (rows: actual "
     "negative, positive; columns: predicted), got a list ([1, 2])"),
    ("cost_matrix_flat", {"place": "costs"},
     "costs: every outcome costs the same, so no threshold is better than another: give the "
     "errors (c_fp, c_fn) higher costs"),
    ("threshold_two_class_only", {"model": "lr", "n_classes": 3},
     "model 'lr': a decision threshold works for two classes only, and the data has 3: remove "
     "\"threshold\" from the model, or use a two-class target"),
    ("tune_cost_without_costs", {"model": "lr"},
     "model 'lr': its grid search chooses by the expected cost, which needs the costs: add "
     '"costs": [[c_tn, c_fp], [c_fn, c_tp]] to the experiment'),
    ("auto_settings_fixed_repeats", {},
     'cv: "max_repeats" and "precision" go with "n_repeats": "auto" (a whole number of '
     "repeats runs exactly that many)"),
    ("subgroup_cuts_order", {"index": 1, "cuts": [40, 30]},
     "subgroups[1].cuts: give the cut points in ascending order, each once (got [40, 30])"),
    ("subgroup_column_twice", {"column": "sex"},
     'subgroups: the column "sex" is named twice; name each column once'),
    ("calibration_inner_rows", {"smallest": 1, "inner_splits": 3},
     "a training fold has only 1 row(s) of its smallest class, but the calibration's inner "
     "3-fold split needs at least 3: lower inner_splits to 2 or fewer, use fewer outer folds, "
     "or add data"),
    ("calibration_inner_groups", {"fewest": 2, "inner_splits": 3},
     "a training fold has only 2 group(s) of rows that belong together holding its least "
     "spread class, but the calibration's inner 3-fold split keeps groups together and needs "
     "at least 3 groups of every class: lower inner_splits to 2 or fewer, use fewer outer "
     "folds, or add data from more groups"),
    ("calibration_cv_unseeded", {},
     "the CV was not seeded and kept no predictions: rerun it with a random_state"),
    ("calibration_cv_mismatch", {},
     "the CV result does not match this data set (its test folds differ from the splits of "
     "these rows): pass the data set the CV ran on"),
    ("calibration_model_not_in_cv", {"model": "rf", "models": ["lr", "svc"]},
     "model 'rf' is not in the CV result (it has: lr, svc); pass the models the CV ran"),
    ("calibration_one_class", {},
     "the outcomes are all one class: a sigmoid needs both 0s and 1s"),
    ("aloocv_single_row", {"class_code": 2},
     "class 2 has a single row: leaving it out removes the class, so the exact LOO "
     "log-likelihood is -inf. Merge or drop that class."),
]


#: A row of tuning_optimism.csv (the fields of a ``tuning_optimism`` note) and its sentence.
_OPTIMISM = {"model": "svc", "metric": "roc_auc", "n_members": 6, "best_member": "C=1",
             "best_plain_score": 0.91234, "nested_score": 0.88765, "optimism": 0.02469,
             "p_value_two_sided": 0.0123, "n_folds": 10, "tuning_metric": "roc_auc",
             "shown": False, "level": 1 - 0.05}
_OPTIMISM_HEAD = ("svc: tuned inside each training fold it scores 0.8877 roc_auc; the best of "
                  "its 6 grid settings (C=1), picked by the same folds that score it, shows "
                  "0.9123")
_MIXES = ("the gap mixes the flattery of picking a setting on the folds that score it with the "
          "nested search choosing its setting on smaller (inner) training sets")

#: (code, fields, long form) of the notes the block words.
NOTE_CASES = [
    ("calibration_no_predictions", {"model": "svc"},
     "svc: the CV kept no out-of-fold predictions (every fit failed); it is left out of the "
     "calibration"),
    ("calibration_decision_values", {"model": "svc", "transform": "logistic"},
     "svc: the model gives decision values, not probabilities; its uncalibrated variant and "
     "map use the logistic 1/(1+exp(-d)) of the decision value d"),
    ("calibration_decision_values", {"model": "svc", "transform": "softmax"},
     "svc: the model gives decision values, not probabilities; its uncalibrated variant and "
     "map use the softmax of the decision values"),
    ("calibration_labels_only", {"model": "knn"},
     "knn: the model gives labels only; its uncalibrated 'probabilities' are 0/1"),
    ("calibration_folds_failed", {"model": "lr", "method": "sigmoid", "n_failed": 4,
                                  "examples": ["a", "b", "c"]},
     "lr sigmoid: 4 fold(s) failed, left out: a; b; c"),
    ("calibration_warning", {"model": "lr", "method": "isotonic",
                             "category": "ConvergenceWarning", "text": "stopped"},
     "lr isotonic: ConvergenceWarning: stopped"),
    ("calibration_method", {"inner_splits": 3, "grouped": False},
     "calibrated variants: CalibratedClassifierCV fitted inside each outer training fold with "
     "an inner 3-fold split, predicting the outer test fold; the calibration map is fitted on "
     "all pooled out-of-fold probabilities (for deployment; its own fit is in-sample)"),
    ("calibration_method", {"inner_splits": 5, "grouped": True},
     "calibrated variants: CalibratedClassifierCV fitted inside each outer training fold with "
     "an inner 5-fold split that keeps the rows of a group together, predicting the outer "
     "test fold; the calibration map is fitted on all pooled out-of-fold probabilities (for "
     "deployment; its own fit is in-sample)"),
    ("crowded_buckets", {"model": "nb", "share": 0.634},
     "nb: 63% of the out-of-fold probabilities fall in the first or last bucket of the "
     "uniform calibration map (extreme probabilities, as naive Bayes gives): the map cannot "
     "resolve them; quantile buckets (strategy 'quantile') follow the data"),
    ("calibration_map_failed", {"model": "lr", "method": "sigmoid", "class_label": "yes",
                                "error": "one class"},
     "lr sigmoid: no calibration map for class yes: one class"),
    ("interval_past_bound", {"metric": "accuracy", "side": "upper", "bound": 1.0,
                             "models": ["a", "b"]},
     "The summary interval of a, b on accuracy reaches above 1, the largest possible value: "
     "the corrected-t interval is symmetric around the mean and does not know the limit, so "
     "read that end as 1."),
    ("interval_past_bound", {"metric": "roc_auc", "side": "lower", "bound": 0.0,
                             "models": ["a"]},
     "The summary interval of a on roc_auc reaches below 0, the smallest possible value: the "
     "corrected-t interval is symmetric around the mean and does not know the limit, so read "
     "that end as 0."),
    ("alo_grouped_rows", {"model": "lr", "groups_column": "subject", "n_groups": 40},
     "lr: the rows belong to 40 groups (the column 'subject'), but ALOOCV leaves out one row "
     "at a time, so the other rows of the same group stay in training: its curve is "
     "optimistic on grouped data and its best C can be too large; choose C from the grouped "
     'cross-validation instead (a "tune" grid over C, whose inner folds keep groups '
     "together)"),
    ("alo_grouped_rows", {"model": "lr", "groups_column": None, "n_groups": 7},
     "lr: the rows belong to 7 groups (the data set's groups), but ALOOCV leaves out one row "
     "at a time, so the other rows of the same group stay in training: its curve is "
     "optimistic on grouped data and its best C can be too large; choose C from the grouped "
     'cross-validation instead (a "tune" grid over C, whose inner folds keep groups '
     "together)"),
    ("alo_solver_warnings", {"model": "lr", "n_warnings": 2, "example": "did not converge."},
     "lr: the solver warned 2 time(s), e.g. did not converge. Scaling the features usually "
     "helps."),
    ("alo_unreliable", {"model": "lr", "n_unreliable": 3, "n_C": 30, "C_from": 123.456},
     "lr: ALO is unreliable at 3 of 30 values of C (from C = 123.5): far below even guessing "
     "the class frequencies; those points are marked and not used for the plot's scale"),
    ("alo_best_at_max_c", {"C_max": 1000.0},
     "ALO keeps improving up to C_max=1000: the classes are (nearly) separable or barely "
     "regularized, so the optimum lies at or beyond the bound (and ALO is optimistic at large "
     "C). Raise C_max to search further."),
    ("alo_best_at_min_c", {"C_min": 0.001},
     "ALO is best at C_min=0.001: the features add little beyond the class frequencies. Lower "
     "C_min to search further."),
    ("alo_single_row_class", {"class_code": 1},
     "class 1 has a single row; its ALO term is unreliable and exact LOO is undefined."),
    ("alo_constant_columns", {"columns": [0, 3]},
     "constant column(s) [0, 3]: the ridge keeps the Hessian positive definite; zero columns "
     "get coefficient 0."),
    ("alo_constant_columns", {"columns": list(range(12))},
     "constant column(s) [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]...: the ridge keeps the Hessian "
     "positive definite; zero columns get coefficient 0."),
    ("alo_not_applicable", {"model": "a", "reason": "estimator", "value": None},
     "a: ALO applies to LogisticRegression only"),
    ("alo_not_applicable", {"model": "c", "reason": "penalty", "value": "l1"},
     "c: ALO needs the ridge (L2) penalty, not 'l1'"),
    ("alo_not_applicable", {"model": "b", "reason": "l1_ratio", "value": 0.5},
     "b: ALO needs the ridge (L2) penalty; l1_ratio is 0.5"),
    ("alo_not_applicable", {"model": "f", "reason": "resample", "value": "smote"},
     "f: ALO assumes the rows as given; the training rows are resampled (smote)"),
    ("tuning_optimism", {**_OPTIMISM, "ci_low": 0.011, "ci_high": 0.038},
     _OPTIMISM_HEAD + ": a gap of 0.0247 (95% interval 0.011 to 0.038, corrected paired t-test "
     "p = 0.012), so choosing on the scoring folds would have flattered it; " + _MIXES
     + "; report the tuned score, which paid for choosing the setting"),
    ("tuning_optimism", {**_OPTIMISM, "ci_low": -0.04, "ci_high": -0.01},
     _OPTIMISM_HEAD + ": a gap of 0.0247 (95% interval -0.04 to -0.01, corrected paired t-test "
     "p = 0.012), the tuned model scoring higher, so these folds show no optimism; report the "
     "tuned score"),
    ("tuning_optimism", {**_OPTIMISM, "ci_low": -0.01, "ci_high": 0.05},
     _OPTIMISM_HEAD + ": a gap of 0.0247 (95% interval -0.01 to 0.05, corrected paired t-test "
     "p = 0.012); the interval holds 0, so these folds cannot tell optimism from fold-to-fold "
     "noise (" + _MIXES + "); report the tuned score either way"),
    ("tuning_optimism", {**_OPTIMISM, "ci_low": float("nan"), "ci_high": float("nan")},
     _OPTIMISM_HEAD + ", 0.0247 higher, with too few folds to say how sure that is (" + _MIXES
     + "): report the tuned score"),
    ("tuning_metric_differs", {"model": "svc", "metric": "roc_auc", "tuning_metric": "accuracy"},
     "svc: its grid search chose the setting by accuracy while the optimism compares roc_auc, "
     "so part of the gap comes from choosing for another metric, not from the folds alone"),
    ("alo_optimum", {"model": "lr", "notes": [Note("alo_best_at_min_c", fields={"C_min": 0.01}),
                                             Note("alo_single_row_class",
                                                  fields={"class_code": 2})]},
     "lr: ALO is best at C_min=0.01: the features add little beyond the class frequencies. "
     "Lower C_min to search further. class 2 has a single row; its ALO term is unreliable and "
     "exact LOO is undefined."),
    ("result_folder_leftover", {"folder": "/r", "name": "x.csv.tmp", "problem": "not ours",
                                "shown_name": "'x.csv.tmp'", "shown_folder": "/r"},
     "left 'x.csv.tmp' in /r alone: it looks like a leftover of this app but is not exactly "
     "its own (not ours); remove it yourself if you do not need it"),
]


@pytest.mark.parametrize("code, fields, text", NOTE_CASES)
def test_a_notes_long_form_is_made_from_its_fields(code, fields, text):
    note = Note(code, fields=fields)
    assert str(note) == note.message == text


@pytest.mark.parametrize("code, fields, text", CASES)
def test_an_errors_long_form_is_made_from_its_fields(code, fields, text):
    error = EngineError(code, fields)
    assert str(error) == error.message == text
    assert error.code == code and dict(error.fields) == {
        k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}


def test_every_code_of_the_block_is_an_error_or_note_code_with_one_example():
    assert {case[0] for case in CASES} <= set(CODES)
    assert {case[0] for case in NOTE_CASES} <= set(NOTE_CODES)
    assert {case[0] for case in CASES + NOTE_CASES} == set(LONG_EVALUATION)
    assert all(LONG[code] is LONG_EVALUATION[code] for code in LONG_EVALUATION)


def _dict_keys(path: str, name: str) -> list:
    """The literal keys of the dict assigned to ``name`` in the module at ``path``."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    for node in ast.walk(tree):
        targets = getattr(node, "targets", None) or [getattr(node, "target", None)]
        if any(getattr(t, "id", "") == name for t in targets) and \
                isinstance(node.value, ast.Dict):
            return [k.value for k in node.value.keys if isinstance(k, ast.Constant)]
    raise AssertionError(f"no dict {name} in {path}")


def test_no_code_is_listed_twice_where_several_areas_add_codes():
    """A code added twice (two areas merging their blocks) would silently take one
    wording: the codes, and the block's codes beside the catalogue's own, are distinct."""
    codes = _dict_keys("engine/foundation/errors.py", "CODES")
    assert len(codes) == len(set(codes))
    own = _dict_keys("engine/foundation/messages.py", "LONG")
    assert not set(own) & set(LONG_EVALUATION)
    assert len(own) == len(set(own))
