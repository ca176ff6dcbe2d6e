"""The catalogue's examples of the notes of engine.input, engine.foundation and engine.runs
that moved in from their call sites (engine.foundation.messages_notes): (code, fields,
long form), one or more per code and per branch of its wording.

Shared by tests/test_messages_notes.py (which pins each sentence) and
tests/test_messages.py (which checks that every worded code has an example). The sentences
are those the call sites wrote before the move.
"""

#: Comparing across data sets (engine.runs.across.compare).
NOTE_CASES_ACROSS = [
    ("across_dataset_left_out", {"dataset": "a", "models": ["x"]},
     "data set 'a' is left out of the comparison across data sets: x has no valid mean on it "
     "(every fold failed); leaving out the data set loses fewer results than leaving out the "
     "model"),
    ("across_dataset_left_out", {"dataset": "a", "models": ["x", "y"]},
     "data set 'a' is left out of the comparison across data sets: x, y have no valid mean on "
     "it (every fold failed); leaving out the data set loses fewer results than leaving out "
     "those models"),
    ("across_model_left_out", {"model": "m1", "datasets": ["data0", "data2", "data4"],
                               "n_datasets": 6},
     "model 'm1' is left out of the comparison across data sets: it has no valid mean on data "
     "set(s) 'data0', 'data2', 'data4' (every fold failed); leaving out the model loses fewer "
     "results than leaving out those data sets"),
    ("across_model_left_out", {"model": "m1", "datasets": ["a", "b"], "n_datasets": 2},
     "model 'm1' is left out of the comparison across data sets: it has no valid mean on any "
     "data set (every fold failed); leaving out the model loses fewer results than leaving "
     "out those data sets"),
    ("across_failed_folds", {"models": ["flaky_nb", "svc"],
                             "datasets": {"flaky_nb": ["cats"], "svc": ["a", "b"]},
                             "folds": {"flaky_nb": [("cats", 3)], "svc": [("a", 1), ("b", 2)]}},
     "models failed on some folds: flaky_nb on 'cats' (3 folds); svc on 'a' (1 folds), 'b' "
     "(2 folds). On each such data set every model's mean is over the folds every model "
     "completed there (as the ranking within a data set), so a model that fails on hard folds "
     "is not flattered"),
    ("across_no_common_folds", {"datasets": ["a", "b"]},
     "no fold was completed by every model on 'a', 'b': there each model's mean is over its "
     "own folds, which can flatter a model that failed on hard folds"),
    ("across_too_few", {"n_models": 1, "n_datasets": 6},
     "1 model(s) on 6 data set(s) left to compare: a comparison across data sets needs at "
     "least 2 models and 2 data sets; only the ranks are given"),
    ("across_no_decision", {"n_datasets": 5, "min_datasets": 6, "alpha": 0.05},
     "only 5 data sets: nothing is decided (no model is called better and no pair "
     "significant) with fewer than 6 data sets. The exact two-sided Wilcoxon test cannot "
     "reach p < 0.05 with 5 data sets even when one model wins on every one, and the Bayesian "
     "signed-rank test weighs only these 5 differences, so its probabilities come close to 1 "
     "whenever they all lie on one side. The numbers are shown; compare the models on more "
     "data sets to decide"),
    ("across_two_models", {"models": ["a", "b"]},
     "two models: no Friedman or Nemenyi test (they compare three or more); the Wilcoxon "
     "signed-rank test and the Bayesian signed-rank test compare the pair"),
    ("across_few_datasets", {"n_datasets": 5, "min_wilcoxon_p": 0.0625, "alpha": 0.05},
     "only 5 data sets: the tests across data sets have little power; with 5 data sets no "
     "Wilcoxon p-value can be smaller than 0.0625, so no pair can be significant at alpha = "
     "0.05"),
    ("across_few_datasets", {"n_datasets": 6, "min_wilcoxon_p": 0.03125, "alpha": 0.05},
     "only 6 data sets: the tests across data sets have little power; with 6 data sets no "
     "Wilcoxon p-value can be smaller than 0.0312"),
    ("across_friedman_approximate", {"n_datasets": 14, "n_models": 4},
     "the Friedman and Iman-Davenport p-values use the chi-square and F approximations, which "
     "are rough with 14 data sets and 4 models (rule of thumb: more than 10 data sets and "
     "more than 5 models, Demšar 2006); read them as approximate"),
    ("across_posthoc_not_interpretable", {"iman_davenport_p_value": 0.2, "alpha": 0.05},
     "the Friedman test (Iman-Davenport) does not reject at alpha = 0.05, so the Nemenyi "
     "pairs are not read as differences (a post-hoc test is interpreted only after the "
     "omnibus test rejects)"),
    ("across_wilcoxon_multiplicity", {"n_datasets": 9, "n_pairs": 15, "correction": "holm",
                                      "min_adjusted_p": 15 * 2.0 / 2 ** 9, "alpha": 0.05},
     "with 9 data sets and 15 pairs, no Wilcoxon p-value can be below 0.05 after the holm "
     "correction (the smallest possible is 0.0586): compare fewer models or add data sets"),
    ("across_all_tied", {"datasets": ["a", "b"]},
     "every model has the same mean on every data set: the models cannot be told apart, and "
     "the Friedman test is undefined"),
    ("across_tied_ranks", {"datasets": ["iris", "lung cancer", "mushroom", "primary tumor"]},
     "models tie on 4 data set(s) ('iris', 'lung cancer', 'mushroom', 'primary tumor'): tied "
     "models share the average of their ranks"),
    ("across_tied_ranks", {"datasets": list("abcdef")},
     "models tie on 6 data set(s) ('a', 'b', 'c', 'd', 'e', ...): tied models share the "
     "average of their ranks"),
    ("across_wilcoxon_undefined", {"pairs": [("m0", "m2"), ("m1", "m3")]},
     "the Wilcoxon test is undefined for m0 and m2; m1 and m3: they have the same mean on "
     "every data set"),
    ("across_wilcoxon_method", {"exact": [("a", "b")], "permutation": [],
                                "asymptotic": [("a", "c"), ("b", "c")]},
     "Wilcoxon p-values: 1 pair exactly; 2 pairs by the normal approximation (ties, zero "
     "differences or more than 50 data sets) (the method column of the Wilcoxon table names "
     "each)"),
    ("across_wilcoxon_method", {"exact": [], "permutation": [("a", "b"), ("a", "c")],
                                "asymptotic": []},
     "Wilcoxon p-values: 2 pairs exactly, over all sign flips (ties or zero differences) (the "
     "method column of the Wilcoxon table names each)"),
]

#: Reading files and making a data set (engine.input).
NOTE_CASES_DATA = [
    ("encoding", {"encoding": "utf-16-le", "how": "bom"},
     "the file is UTF-16-LE (it starts with a byte order mark)"),
    ("encoding", {"encoding": "utf-16-be", "how": "no_bom"},
     "the file is UTF-16-BE without a byte order mark; read it as such"),
    ("encoding", {"encoding": "latin-1", "how": "not_utf8"},
     "the file is not UTF-8; read it as latin-1"),
    ("encoding", {"encoding": "cp1252", "how": "not_utf8", "name": "Windows-1252 (cp1252)",
                  "ambiguous": False, "alternative": None, "alternative_name": None},
     "the file is not UTF-8; read it as Windows-1252 (cp1252)"),
    ("encoding", {"encoding": "cp1252", "how": "not_utf8", "name": "Windows-1252 (cp1252)",
                  "ambiguous": True, "alternative": "cp932",
                  "alternative_name": "Shift JIS (cp932)"},
     "the file is not UTF-8; read it as Windows-1252 (cp1252); its bytes also fit Shift JIS "
     "(cp932): set \"encoding\" to \"cp932\" if the text looks wrong"),
    ("encoding", {"encoding": "latin-1", "how": "not_utf8", "name": "latin-1",
                  "ambiguous": False, "alternative": None,
                  "starts_like": "Windows-1252 (cp1252)"},
     "the file is not UTF-8; read it as latin-1 (it starts like Windows-1252 (cp1252) but "
     "holds bytes that are not)"),
    ("positive_class", {"label": "b", "reason": "second_class"},
     "positive class: 'b' (the second class)"),
    ("positive_class", {"label": "yes", "reason": "asked"}, "positive class: 'yes' (as asked)"),
    ("positive_class", {"label": 1, "reason": "zero_one"},
     "positive class: 1 (of 0 and 1; set \"pos_label\" to change)"),
    ("positive_class", {"label": "sick", "reason": "smaller_class"},
     "positive class: 'sick' (the smaller class; set \"pos_label\" to change)"),
    ("positive_class", {"label": "b", "reason": "same_size"},
     "positive class: 'b' (the classes are the same size; set \"pos_label\" to change)"),
    ("control_characters", {"what": "column_names", "names": ["a\\t", "b\\x00"]},
     "column name(s) with invisible control characters, shown written out: a\\t, b\\x00"),
    ("control_characters", {"what": "class_labels", "names": ["yes\\r"]},
     "class label(s) with invisible control characters, shown written out: yes\\r"),
    ("target_chosen", {"column": "class", "last_column": "class", "problem": None,
                       "weka": True},
     "target column not given; using the last attribute, 'class', as Weka does (name the "
     "target to choose another)"),
    ("target_chosen", {"column": "y", "last_column": None, "problem": None, "rule": "named",
                       "reasons": ["named like a target"]},
     "target column not given; using 'y', the one column named as a target (name the target "
     "to choose another)"),
    ("target_chosen", {"column": "y", "last_column": None, "problem": None, "rule": "only",
                       "reasons": []},
     "target column not given; using 'y', the only column that looks like classes (name the "
     "target to choose another)"),
    ("target_not_chosen", {"candidates": ["a", "b"], "reasons": [["2 values"], ["x", "y"]],
                           "shown": "a"},
     "the column to predict is not chosen yet; candidates: 'a' (2 values); 'b' (x, y)"),
    ("after_outcome", {"column": "time_to_death", "target": "death", "kind": "time",
                       "left_out": False},
     "column 'time_to_death' looks like a time to the event beside the target 'death': known "
     "only with or after the outcome, it would give the answer away; exclude it (\"exclude\": "
     "[\"time_to_death\"]) unless it is known before"),
    ("after_outcome", {"column": "Censor", "target": "death", "kind": "status",
                       "left_out": True},
     "column 'Censor' looks like the status of an event beside the target 'death': known only "
     "with or after the outcome, it would give the answer away; it is left out, as asked"),
    ("possible_leak", {"column": "x", "target": "y", "share": 99.5, "rule": "x > 3",
                       "rows_judged": 200, "n_rows": 200, "left_out": False},
     "possible leak: column 'x' alone predicts 'y' for 99.5% of rows (x > 3); if it is "
     "recorded after the outcome or computed from it, exclude it (\"exclude\": [\"x\"])"),
    ("possible_leak", {"column": "x", "target": "y", "share": 100.0, "rule": "x > 3",
                       "rows_judged": 5000, "n_rows": 12000, "left_out": True},
     "possible leak: column 'x' alone predicts 'y' for 100.0% of a random sample of 5,000 of "
     "its 12,000 rows (x > 3); it is left out, as asked"),
    ("class_imbalance", {"class": "yes", "count": 12, "share": 0.1, "n_rows": 120,
                         "majority_share": 0.9, "n_classes": 2},
     "the classes are imbalanced: class 'yes' has 12 of 120 rows (10.0%). Always guessing the "
     "other class is 90.0% accurate, so accuracy can look good for a model that never finds "
     "'yes': read balanced accuracy and the recall of each class (reported by default when no "
     "metric is named). The Models tab offers \"Balance classes\" (class_weight \"balanced\") "
     "for the models that take it and \"Resample training folds\" (over, under or SMOTE; "
     "\"resample\" in the experiment file), applied inside the training folds only"),
    ("class_imbalance", {"class": 3, "count": 4, "share": 0.04, "n_rows": 100,
                         "majority_share": 0.6, "n_classes": 3},
     "the classes are imbalanced: class 3 has 4 of 100 rows (4.0%). Always guessing the "
     "largest class is 60.0% accurate, so accuracy can look good for a model that never finds "
     "3: read balanced accuracy and the recall of each class (reported by default when no "
     "metric is named). The Models tab offers \"Balance classes\" (class_weight \"balanced\") "
     "for the models that take it and \"Resample training folds\" (over, under or SMOTE; "
     "\"resample\" in the experiment file), applied inside the training folds only"),
    ("groups_suggested", {"column": "patient", "n_values": 40, "rows_per_value": 2.5,
                          "n_rows": 100},
     "column 'patient' looks like an identifier with repeated values (40 values, 2.5 rows "
     "each on average): if rows with the same value belong together (one patient, one "
     "subject), name it as \"groups\" of the data set so that they are never split between "
     "training and test folds; otherwise the scores can be too optimistic"),
    ("groups_pair_suggested", {"columns": ["centre", "patient"], "n_values": 56,
                               "n_pairs": 111, "rows_per_pair": 3.0, "n_rows": 333},
     "column 'patient' looks like an identifier whose values restart within 'centre' (56 "
     "values but 111 different pairs, 3.0 rows each on average): the same number in two "
     "places is two cases, so if rows of one case belong together, name the pair as "
     "\"groups\" (\"groups\": [\"centre\", \"patient\"]); 'patient' alone would join "
     "different cases"),
    ("identifier_feature", {"column": "subject_id", "n_values": 30},
     "column 'subject_id' looks like an identifier (whole numbers, 30 values, named like one) "
     "but is used as a feature: a model reads its numbers as amounts; if rows with the same "
     "value belong together, name it as \"groups\", else exclude it (\"exclude\": "
     "[\"subject_id\"])"),
    ("index_columns_left_out", {"columns": ["", "id"], "reasons": ["index_name", "id_name"]},
     "left out index-like column(s): '' (a row index as R or pandas write it), 'id' (a "
     "different identifier in every row). A row number or identifier says where a row sits "
     "in the file, not anything about it, and in a file sorted by class it gives the answer "
     "away; to use it as a feature anyway, list it under \"features\" (\"features\": [\"\", "
     "\"id\"])"),
    ("index_columns_left_out", {"columns": ["n"], "reasons": ["row_numbers"]},
     "left out index-like column(s): 'n' (the row numbers in file order). A row number or "
     "identifier says where a row sits in the file, not anything about it, and in a file "
     "sorted by class it gives the answer away; to use it as a feature anyway, list it under "
     "\"features\" (\"features\": [\"n\"])"),
]

#: The held-out test and nested CV (engine.runs).
NOTE_CASES_RUNS = [
    ("heldout_failed", {"model": "svc", "metric": None, "reason": "ValueError: boom"},
     "held-out test: svc could not be fitted on all training rows or scored on the test "
     "file: ValueError: boom"),
    ("heldout_failed", {"model": "svc", "metric": "roc_auc", "reason": "one class"},
     "held-out test: roc_auc of svc could not be computed on the test file: one class"),
    ("heldout_not_calibrated", {"methods": ["sigmoid", "isotonic"]},
     "held-out test: the models are scored as the cross-validation compared them, without "
     "the calibrated variants (sigmoid, isotonic)"),
    ("heldout_shared_rows", {"n_shared": 1, "n_rows": 1500, "rows": [7]},
     "test file: 1 of its 1,500 rows is also a row of the training data (data row 7), so its "
     "score is not held out; remove it from one of the two files for an honest held-out "
     "estimate"),
    ("heldout_shared_rows", {"n_shared": 12, "n_rows": 40, "rows": list(range(10))},
     "test file: 12 of its 40 rows are also rows of the training data (data rows 0, 1, 2, 3, "
     "4, 5, 6, 7, 8, 9 ...), so their scores are not held out; remove them from one of the "
     "two files for an honest held-out estimate"),
    ("models_saved", {"files": ["lr.skops", "svc.skops"], "not_saved": []},
     "saved 2 final model(s) fitted on all training rows (lr.skops, svc.skops; see "
     "models_README.txt); use model files only from people you trust"),
    ("models_saved", {"files": ["lr.skops"], "not_saved": ["knn (TypeError: x)"]},
     "saved 1 final model(s) fitted on all training rows (lr.skops; see models_README.txt); "
     "1 could not be saved: knn (TypeError: x); use model files only from people you trust"),
    ("nested_not_computed", {"model": "svc", "failed": 3, "fits": 50, "metric": "roc_auc"},
     "no nested-CV interval for svc: 3 of its 50 nested fits failed or gave no probabilities "
     "for roc_auc"),
    ("nested_not_computed", {"model": "svc", "failed": 1, "fits": 50, "metric": "accuracy"},
     "no nested-CV interval for svc: 1 of its 50 nested fits failed or gave no predicted "
     "classes for accuracy"),
    ("nested_interval", {"metric": "accuracy", "level": 0.95, "n_splits": 5,
                         "nested_repeats": 2, "n_rows": 1200},
     "nested CV (Bates, Hastie and Tibshirani 2024): 2 repeat(s) of 5 x 5 fits per model give "
     "a 95% interval for accuracy of the model fitted on all 1,200 rows, around a "
     "bias-corrected estimate (nested_intervals.csv)"),
]

_AUTO = {"n_repeats": 9, "max_repeats": 10, "precision": 0.02, "tolerance": 0.1,
         "bound_level": 0.95}

#: Repeats "auto" (engine.evaluation.auto_repeats): the fields keep every digit.
NOTE_CASES_AUTO = [
    ("repeats_auto_stopped", {**_AUTO, "reason": "precision", "ratio": 0.99406,
                              "bound": 1.087767},
     '"n_repeats": "auto" stopped after 9 of at most 10 repeats: one more repeat would have '
     "narrowed every interval on the primary metric by less than 2% of its width (by 0.6% at "
     "most), and none is likely to be more than 10% wider than with 10 repeats (at most 1.088 "
     "times, a 95% bound from the spread between repeats); the tables equal a fixed run with "
     '"n_repeats": 9'),
    ("repeats_auto_stopped", {**_AUTO, "n_repeats": 2, "reason": "precision", "ratio": None,
                              "bound": None},
     '"n_repeats": "auto" stopped after 2 of at most 10 repeats: one more repeat would have '
     "narrowed every interval on the primary metric by less than 2% of its width (no "
     "interval had a width: every fold value was equal); the tables equal a fixed run with "
     '"n_repeats": 2'),
    ("repeats_auto_stopped", {**_AUTO, "n_repeats": 10, "reason": "max_repeats",
                              "ratio": 0.9, "bound": None},
     '"n_repeats": "auto" stopped after 10 of at most 10 repeats: the cap of 10 repeats was '
     'reached; the tables equal a fixed run with "n_repeats": 10'),
    ("repeats_auto_stopped", {**_AUTO, "n_repeats": 4, "reason": "time_budget",
                              "ratio": 0.9, "bound": 1.3},
     '"n_repeats": "auto" stopped after 4 of at most 10 repeats: the time budget was '
     'reached; the tables equal a fixed run with "n_repeats": 4'),
]

#: A built-in data set (engine.input.data) and the default ROPE (engine.runs.analysis).
NOTE_CASES_DEFAULTS = [
    ("builtin_data", {"name": "breast_cancer",
                      "description": "Wisconsin breast cancer, 569 x 30, two classes"},
     "Wisconsin breast cancer, 569 x 30, two classes"),
    ("default_rope", {"metric": "roc_auc", "rope": 0.005, "family": "ranking",
                      "unit": "AUC points", "reason": "half a point"},
     "no ROPE given: equivalence within ±0.005 (AUC points) on roc_auc, the default for its "
     "family: half a point"),
]

NOTE_CASES_NOTES = (NOTE_CASES_ACROSS + NOTE_CASES_DATA + NOTE_CASES_RUNS + NOTE_CASES_AUTO
                    + NOTE_CASES_DEFAULTS)

#: The held-out test file's errors about a file given to predict (file "data"): the
#: sentence the test file's has, naming the data file.
ERROR_CASES_DATA_FILE = [
    ("heldout_missing_columns", {"path": "new.csv", "columns": ["a"], "file": "data"},
     "the data file new.csv lacks 1 feature column(s) of the training data: 'a'; give it the "
     "same columns as the training file"),
    ("heldout_text_column", {"path": "new.csv", "column": "w", "file": "data"},
     "the data file new.csv: column 'w' holds numbers in the training data but text in the "
     "data file; check the decimal mark (\"decimal\"), the separator and the encoding of the "
     "data file"),
    ("heldout_missing_values", {"path": "new.csv", "columns": ["a"], "file": "data"},
     "the data file new.csv has missing values in 'a', but the training data has none, so "
     "the models were built without filling in missing values; fill them in or remove those "
     "rows"),
    ("heldout_text_column", {"path": "t.csv", "column": "w", "file": "test"},
     "the test file t.csv: column 'w' holds numbers in the training data but text in the "
     "test file; check the decimal mark (\"decimal\"), the separator and the encoding of the "
     "test file"),
]


#: The reading errors that were classes worded where raised (engine.input.excel,
#: engine.input.csv_bounds).
ERROR_CASES_READING = [
    ("sheet_not_a_table", {"path": "b.xlsx", "sheet": "Read me", "sheets": ["Read me", "glass"],
                           "n_columns": 1, "n_rows": 0},
     "the sheet 'Read me' of b.xlsx has 1 column(s): a data set needs at least one feature "
     "column and a target column, with their names in the first row; the workbook's other "
     "sheet(s): 'glass' (set \"sheet\" to read one)"),
    ("sheet_not_a_table", {"path": "b.xlsx", "sheet": "A", "sheets": ["A"], "n_columns": 3,
                           "n_rows": 0},
     "the sheet 'A' of b.xlsx has no rows of data under its first row (the column names)"),
    ("sheet_too_large", {"path": "b.xlsx", "n_rows": 1_048_576, "n_columns": 16_384,
                         "last_column": "XFD", "need": 3_000_000_000,
                         "available": 2_500_000_000},
     "cannot read b.xlsx: its sheet reaches row 1,048,576 and column XFD (1,048,576 x 16,384 "
     "cells), which as a table would take about 3.0 GB of memory, more than the 2.5 GB "
     "available; delete the stray cells far below or to the right of the data (Ctrl+End in "
     "Excel shows the last one), or save the data as CSV"),
    ("read_stopped", {"path": "d.csv", "reason": "rows_too_many", "lines": 12_000_000,
                      "rows": 12_000_000, "width": 40, "need": 3_000_000_000, "copies": 3,
                      "available": 2_500_000_000},
     "cannot read d.csv: its first 12,000,000 lines already make 12,000,000 rows x 40 columns "
     "(every row has the header's columns), which would take 3.0 GB of memory while it is "
     "read (8 bytes a value, 3 copies), more than the 2.5 GB available; use a sample of its "
     "rows or a computer with more memory"),
]

#: file_binary_kind's other fixes (message_cases_input.py pins the archive's and the plain one).
ERROR_CASES_READING += [
    ("file_binary_kind", {"path": "a.csv", "kind": "an Excel workbook (.xlsx)",
                          "what": "a CSV text file", "fix": "workbook"},
     "cannot read a.csv: it is an Excel workbook (.xlsx) (a binary file), not a CSV text file; "
     "give it as \"file\" instead of \"csv\" (the app reads .xlsx workbooks), or save the "
     "sheet as CSV"),
    ("file_binary_kind", {"path": "a.csv", "kind": "an Excel 97-2003 workbook (or another old "
                          "Office file)", "what": "a CSV text file", "fix": "spreadsheet"},
     "cannot read a.csv: it is an Excel 97-2003 workbook (or another old Office file) (a "
     "binary file), not a CSV text file; save the sheet as CSV (File, Save as, CSV) and give "
     "that file"),
]
