"""The catalogue's examples of the errors of engine.input, engine.foundation and
engine.runs: (code, fields, long form), one or more per code the catalogue words.

Shared by tests/test_messages_input.py (which pins each sentence) and tests/test_messages.py
(which checks that every worded code has an example).
"""

ERROR_CASES_INPUT = [
    ("heldout_unreadable", {"path": "t.csv", "detail": "the file is empty", "cause": ""},
     "the test file t.csv cannot be read: the file is empty"),
    ("heldout_no_target", {"path": "t.csv", "target": "y"},
     "the test file t.csv has no column 'y' (the target of the training data): give it the "
     "same columns as the training file"),
    ("heldout_no_rows", {"path": "t.csv", "target": "y"},
     "the test file t.csv has no row with a value in 'y': a held-out test needs at least "
     "one row"),
    ("heldout_missing_columns", {"path": "t.csv", "columns": ["a"]},
     "the test file t.csv lacks 1 feature column(s) of the training data: 'a'; give it the "
     "same columns as the training file"),
    ("heldout_missing_columns", {"path": "t.csv", "columns": list("abcdef")},
     "the test file t.csv lacks 6 feature column(s) of the training data: 'a', 'b', 'c', "
     "'d', 'e' ...; give it the same columns as the training file"),
    ("heldout_text_column", {"path": "t.csv", "column": "w"},
     "the test file t.csv: column 'w' holds numbers in the training data but text in the "
     "test file; check the decimal mark (\"decimal\"), the separator and the encoding of the "
     "test file"),
    ("heldout_unseen_classes", {"path": "t.csv", "target": "y", "classes": ["cyst"]},
     "the test file t.csv has class(es) the training data does not have in 'y': 'cyst'; a "
     "model cannot predict a class it never saw: remove those rows or add them to the "
     "training data"),
    ("heldout_missing_values", {"path": "t.csv", "columns": ["a", "b"]},
     "the test file t.csv has missing values in 'a', 'b', but the training data has none, "
     "so the models were built without filling in missing values; fill them in or remove "
     "those rows"),
]

ERROR_CASES_INPUT += [
    ("skops_missing", {},
     'saving and loading models needs skops: pip install "honest-eval[models]" (or pip '
     "install skops)"),
    ("no_valid_score", {"metric": "roc_auc", "reason": "ValueError: boom", "advice": ""},
     "no model gave a valid roc_auc score on any fold: ValueError: boom"),
    ("no_valid_score", {"metric": "roc_auc", "reason": "x", "advice": "use fewer folds"},
     "no model gave a valid roc_auc score on any fold: x; use fewer folds"),
    ("grouping_gap_needs_groups", {},
     'the grouping gap needs a data set with "groups" (the column of rows that belong '
     'together); name one, or leave "compare_ungrouped" out'),
    ("dataset_problem", {"dataset": "diabetes", "index": 1,
                         "place": 'data set "diabetes" (datasets[1])',
                         "detail": "the file is empty", "cause": "", "cause_fields": {}},
     'data set "diabetes" (datasets[1]): the file is empty'),
]

ERROR_CASES_INPUT += [
    ("experiment_invalid", {"place": "models[0].scale", "keyword": "type",
                            "problem": 'expected true or false, got "no"'},
     'models[0].scale: expected true or false, got "no"'),
    ("experiment_not_finite", {"place": "comparison.rope", "value": "Infinity"},
     "comparison.rope: expected a finite number, got Infinity"),
    ("experiment_huge_number", {"place": "aloocv.C_max", "value": "10000000000000000",
                                "limit": 2 ** 53},
     "aloocv.C_max: expected a number of a usual size (at most 9,007,199,254,740,992), got "
     "10000000000000000"),
    ("experiment_too_deep", {"place": "metrics[0][0]", "depth": 32},
     "metrics[0][0]: nested more than 32 levels deep; an experiment file needs only a few "
     "levels"),
]
