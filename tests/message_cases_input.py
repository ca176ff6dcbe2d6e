"""The catalogue's examples of the errors of engine.input, engine.foundation and
engine.runs: (code, fields, long form), one or more per code the catalogue words.

Shared by tests/test_messages_input.py (which pins each sentence) and tests/test_messages.py
(which checks that every worded code has an example).
"""

#: The advice every dataset_name_bad error ends with.
NAME_ADVICE = "; use letters, digits, spaces and signs such as _ ( ) . ,"

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

ERROR_CASES_INPUT += [
    ("file_missing", {"path": "d.csv"}, "cannot open d.csv: the file does not exist"),
    ("file_unopenable", {"path": "d.csv", "detail": "Too many levels of symbolic links"},
     "cannot open d.csv: Too many levels of symbolic links"),
    ("file_not_regular", {"path": "/tmp", "kind": "a folder", "what": "a data file"},
     "cannot open /tmp: it is a folder, not a data file; give the path of a data file"),
    ("file_of_system", {"path": "/proc/x", "root": "/proc", "what": "a data file"},
     "cannot open /proc/x: it is one of the system's own files (under /proc), whose reads "
     "can block or never end, not a data file; give the path of a data file"),
    ("file_unreadable", {"path": "d.csv", "detail": "Permission denied"},
     "cannot open d.csv: Permission denied; check that you may read it (its permissions)"),
    ("file_memory", {"path": "d.csv", "size": 3 * 10 ** 9, "available": 10 ** 9},
     "cannot read d.csv: the file is 3.0 GB and its table would take more memory than the "
     "1.0 GB available; use a sample of its rows or a computer with more memory"),
    ("table_memory", {"path": "d.arff", "n_values": 4_000_000_000, "how": "2 x 3",
                      "need": 64 * 10 ** 9, "copies": 2, "available": 10 ** 9,
                      "advice": "use fewer rows"},
     "cannot read d.arff: its table of about 4,000,000,000 values (2 x 3) would take "
     "about 64.0 GB of memory while it is read (8 bytes a value, 2 copies), more than the "
     "1.0 GB available; use fewer rows"),
    ("table_memory", {"path": "d.arff", "n_values": 1000, "how": "", "need": 16000,
                      "copies": 2, "available": 100, "advice": "x"},
     "cannot read d.arff: its table of about 1,000 values would take about 16.0 KB of "
     "memory while it is read (8 bytes a value, 2 copies), more than the 100 bytes "
     "available; x"),
    ("experiment_file_size", {"path": "e.json", "size": 5 * 10 ** 6},
     "cannot open e.json: it is 5.0 MB, far more than an experiment file (a few KB of JSON); "
     "is it the right file?"),
    ("builtin_memory", {"name": "moons", "rows": 10 ** 9, "columns": 2, "need": 16 * 10 ** 9,
                        "copies": 4, "available": 10 ** 9, "knob": "n_samples",
                        "most": 30_000_000},
     "built-in data set 'moons': 1,000,000,000 rows x 2 columns would take 16.0 GB of memory "
     "(8 bytes a value), about 4 times that while it is generated, but 1.0 GB is available: "
     "lower n_samples to at most 30,000,000"),
    ("file_kind_unknown", {"path": "d.txt", "extension": ".txt",
                           "extensions": [".csv", ".arff"]},
     "cannot tell what kind of file d.txt is from its extension (.txt); the app reads .csv, "
     '.arff (give a CSV file of another name as "csv")'),
    ("file_kind_unknown", {"path": "d", "extension": "", "extensions": [".csv"]},
     "cannot tell what kind of file d is from its extension (none); the app reads .csv "
     '(give a CSV file of another name as "csv")'),
    ("dataset_file_and_csv", {},
     'dataset: give either "file" or "csv", not both ("csv" reads a CSV file, "file" any '
     "supported file by its extension)"),
    ("dataset_option_of_kind", {"key": "sheet", "kinds": ["excel"], "path": "d.csv",
                                "kind": "csv"},
     'dataset: "sheet" applies to Excel workbooks only, and d.csv is a CSV file; leave it '
     "out"),
    ("dataset_unknown_keys", {"keys": ["colour", "x"], "with": "csv",
                              "allowed": ["sep", "target"]},
     "dataset: unknown key(s) colour, x; allowed with csv: sep, target"),
    ("read_option_unknown", {"options": ["sep"], "kind": "arff"},
     "sep: not an option for an ARFF file"),
    ("builtin_no_groups", {"name": "iris"},
     'dataset: "groups" names a column of a data file saying which rows belong together; '
     "the built-in data set 'iris' has no such column: remove \"groups\" (or use a data "
     "file with one)"),
    ("dataset_no_source", {},
     'dataset: give either {"builtin": NAME} or {"file": PATH, "target": COLUMN} (or '
     '{"csv": PATH, ...})'),
    ("test_unknown_keys", {"where": "test", "keys": ["sheet"], "path": "t.csv",
                           "allowed": ["file", "sep"]},
     "test: sheet cannot be used with t.csv; allowed: file, sep"),
]

ERROR_CASES_INPUT += [
    ("builtin_unknown", {"name": "irs", "builtins": ["iris", "wine"]},
     "unknown built-in data set 'irs'; choose one of: iris, wine"),
    ("builtin_options", {"name": "iris", "options": ["noise"], "allowed": []},
     "built-in data set 'iris' takes no option(s) noise; allowed: none"),
    ("builtin_options", {"name": "moons", "options": ["x", "y"], "allowed": ["noise", "n"]},
     "built-in data set 'moons' takes no option(s) x, y; allowed: noise, n"),
    ("builtin_generator", {"name": "moons", "detail": "n_samples must be positive"},
     "built-in data set 'moons': n_samples must be positive"),
    ("file_empty", {"path": "d.csv"}, "cannot read d.csv: the file is empty"),
    ("one_column", {"path": "d.csv"},
     "the file d.csv has only one column: a data set needs at least one feature column and "
     "a target column (is the separator right?)"),
    ("data_no_rows", {"path": "d.csv", "kind": "csv"},
     "the file d.csv has a header but no rows of data"),
    ("data_no_rows", {"path": "d.arff", "kind": "arff"},
     "cannot read d.arff: it has no rows of data after '@data'"),
    ("read_stopped", {"path": "d.csv", "reason": "row_too_long", "line": 3,
                      "row_bytes": 1 << 20},
     "cannot read d.csv: the row that starts on line 3 is longer than 1.0 MB (a cell can "
     "have at most 32,767 characters): is it the right file? (A quote that never closes "
     "makes the rest of the file one cell.)"),
    ("decimal_option", {"decimal": ";"}, '"decimal" must be "." or ","; got \';\''),
    ("thousands_option", {"thousands": "_"},
     '"thousands" must be one of ",", ".", " ", "\'" or "" (none); got \'_\''),
    ("thousands_is_decimal", {"thousands": ","},
     "the thousands separator ',' cannot also be the decimal mark"),
    ("no_features", {},
     "no feature columns are left besides the target: a model needs at least one column to "
     "learn from"),
    ("target_one_class", {"target": "y", "classes": ["a"]},
     "the target 'y' has only one class (a): a classifier needs at least two classes; pick "
     "another target column"),
    ("target_one_class", {"target": "y", "classes": []},
     "the target 'y' has only one class (nothing): a classifier needs at least two classes; "
     "pick another target column"),
    ("target_not_classes", {"target": "id", "n_classes": 90, "n_rows": 100},
     "the target 'id' has 90 different values in 100 rows: it looks like a number or an "
     "identifier, not a class; pick a column of categories as the target"),
    ("columns_missing", {"wanted": ["q"], "role": "leave_out", "columns": ["a", "b"]},
     "cannot leave out missing column(s) 'q'; the columns are: a, b"),
    ("columns_missing", {"wanted": ["q", "r"], "role": "keep", "columns": ["a"]},
     "\"features\": cannot keep missing column(s) 'q', 'r'; the columns are: a"),
    ("kept_and_left_out", {"columns": ["a"]},
     "column(s) 'a' are both in \"features\" (kept) and in \"exclude\" (left out); remove "
     "them from one"),
    ("kept_not_feature", {"column": "y", "what": "the target"},
     "\"features\": 'y' is the target, not a feature; remove it from \"features\""),
    ("target_undeclared", {"target": "y", "values": list("abcdefg")},
     "the target 'y' holds value(s) not declared for it: 'a', 'b', 'c', 'd', 'e'"),
    ("pos_label_not_binary", {"classes": ["a", "b", "c"]},
     "\"pos_label\" applies to two classes only; the target has 3: 'a', 'b', 'c'; leave "
     "\"pos_label\" out"),
    ("pos_label_unknown", {"pos_label": "z", "classes": ["a", "b"]},
     "\"pos_label\" 'z' is not one of the classes: 'a', 'b'"),
    ("column_unknown", {"column": "q", "columns": ["a", "b"]},
     "there is no column 'q'; the columns are: a, b"),
]

ERROR_CASES_INPUT += [
    ("column_name_long", {"position": 2, "length": 5000, "start": "'xxx…'", "limit": 1000},
     "column 2 has a name of 5,000 characters ('xxx…'), more than the 1,000 a column name "
     "can have: is it the right file? Shorten the name in the first row"),
    ("cell_text_long", {"column": "'notes'", "row": 7, "length": 40000, "limit": 32767},
     "column 'notes', row 7 of the data holds a text of 40,000 characters, more than the "
     "32,767 a cell can have (Excel's own limit): is it the right file? Shorten that cell or "
     "leave the column out of the file"),
    ("class_label_long", {"target": "'y'", "row": 3, "length": 2000, "limit": 1000},
     "the target 'y', row 3 of the data holds a class label of 2,000 characters, more than "
     "the 1,000 a class label can have: pick a column of short categories as the target, or "
     "shorten the labels"),
    ("groups_is_target", {"column": "y"},
     "\"groups\": the column 'y' is the target; name the column that says which rows belong "
     "together (a subject or patient identifier)"),
    ("groups_missing", {"column": "id", "n_missing": 2, "rows": [3, 9]},
     "\"groups\": the column 'id' has 2 missing value(s) (data row(s) 3, 9): every row needs "
     "its group; fill them in, or remove those rows, or leave \"groups\" out"),
    ("groups_missing", {"column": "id", "n_missing": 6, "rows": [1, 2, 3, 4, 5]},
     "\"groups\": the column 'id' has 6 missing value(s) (data row(s) 1, 2, 3, 4, 5 ...): "
     "every row needs its group; fill them in, or remove those rows, or leave \"groups\" "
     "out"),
    ("id_column_is_target", {"column": "y"},
     "\"id_column\": 'y' is the target; an id column says which row is which, choose another "
     "column (or leave \"id_column\" out)"),
    ("id_column_kept", {"column": "id"},
     "\"id_column\": 'id' is also in \"features\"; a column used as the id is not a feature, "
     "remove it from one of them"),
    ("resample_unknown", {"where": "models[0].resample", "value": "smoe",
                          "samplers": ["smote", "under"]},
     "models[0].resample: unknown resampling 'smoe'; choose \"smote\", \"under\" or leave it "
     "out"),
    ("imblearn_missing", {"where": "models[0].resample"},
     "models[0].resample: resampling needs the imbalanced-learn package, which is not "
     "installed: install it (pip install \"honest-eval[imbalance]\" or pip install "
     "imbalanced-learn), or remove \"resample\""),
    ("dataset_name_bad", {"where": "datasets[0].name", "name": '"=x"', "problem": "formula",
                          "first": "="},
     'datasets[0].name: "=x" cannot name a data set: it starts with =, which a spreadsheet '
     "reads as a formula; use letters, digits, spaces and signs such as _ ( ) . ,"),
    # the other problems of a data set name (engine.input.dataset_names.name_problem)
    ("dataset_name_bad", {"where": "w", "name": "7", "problem": "empty"},
     "w: 7 cannot name a data set: a name is non-empty text" + NAME_ADVICE),
    ("dataset_name_bad", {"where": "w", "name": '"x"', "problem": "too_long", "length": 101,
                          "max_length": 100},
     'w: "x" cannot name a data set: a name has at most 100 characters (this one has 101)'
     + NAME_ADVICE),
    ("dataset_name_bad", {"where": "w", "name": '"a|b"', "problem": "forbidden",
                          "characters": ["\\t", "|"]},
     'w: "a|b" cannot name a data set: it holds \\t |, which a file name cannot hold'
     + NAME_ADVICE),
    ("dataset_name_bad", {"where": "w", "name": '"x."', "problem": "dot_or_space"},
     'w: "x." cannot name a data set: a name cannot start with a dot or a space, or end with '
     "one" + NAME_ADVICE),
    ("dataset_name_bad", {"where": "w", "name": '"COM1"', "problem": "reserved"},
     'w: "COM1" cannot name a data set: Windows reserves this name for a device'
     + NAME_ADVICE),
    # no target named (engine.input.target_choice.not_named_error)
    ("target_not_named", {"candidates": [], "reasons": [], "max_listed": 5},
     'no column looks like classes to predict; name the target column ("target": COLUMN)'),
    ("target_not_named", {"candidates": ["y", 'o"dd'], "reasons": [["r0"], ["r1", "few"]],
                          "max_listed": 5},
     "the column to predict is not named and 2 columns could be it: 'y' (r0); 'o\"dd' (r1, "
     'few); name it ("target": "y" or another)'),
    ("target_not_named", {"candidates": ["a", "b", "c"], "reasons": [["x"], ["y"], ["z"]],
                          "max_listed": 2},
     "the column to predict is not named and 3 columns could be it: 'a' (x); 'b' (y) and 1 "
     'more; name it ("target": "a" or another)'),
    ("dataset_name_taken", {"index": 1, "name": '"same"', "other_index": 0, "other": ""},
     'datasets[1].name: the name "same" is already the name of datasets[0]; give every data '
     "set a name of its own"),
    ("dataset_name_taken", {"index": 1, "name": '"same"', "other_index": 0, "other": '"Same"'},
     'datasets[1].name: the name "same" is already the name of datasets[0] ("Same": case '
     "does not count); give every data set a name of its own"),
]

ERROR_CASES_INPUT += [
    ("sep_option", {"sep": ";;"},
     '"sep" must be one character such as ",", ";", "|" or a tab (got \';;\')'),
    ("encoding_option", {"encoding": 3}, '"encoding" must be a name such as "utf-8" (got 3)'),
    ("encoding_unknown", {"encoding": "klingon"},
     "unknown encoding 'klingon': use utf-8, utf-8-sig, latin-1, cp1252, cp932 (Shift-JIS) "
     'or utf-16, or leave "encoding" out to detect it'),
    ("file_binary_kind", {"path": "a.csv", "kind": "a PNG image", "what": "a CSV text file",
                          "fix": ""},
     "cannot read a.csv: it is a PNG image (a binary file), not a CSV text file; give a CSV "
     "text file"),
    ("file_binary_kind", {"path": "a.csv", "kind": "a ZIP archive",
                          "what": "a CSV text file",
                          "fix": "archive"},
     "cannot read a.csv: it is a ZIP archive (a binary file), not a CSV text file; unpack it "
     "and give the CSV file inside"),
    ("file_binary", {"path": "a.csv", "encoding": None, "what": "a CSV text file"},
     "cannot read a.csv: it looks like a binary file, not a CSV text file (it holds zero "
     'bytes, which text files do not); give a CSV text file, or its encoding if it is text '
     '("encoding": "utf-16")'),
    ("file_binary", {"path": "a.csv", "encoding": "latin-1", "what": "a CSV text file"},
     "cannot read a.csv: it looks like a binary file, not a CSV text file (it holds zero "
     'bytes even when read as latin-1); give a CSV text file, or its encoding if it is text '
     '("encoding": "utf-16")'),
    ("csv_comment_first", {"path": "a.csv", "line": 1, "text": "# made by"},
     "cannot read a.csv: line 1 is a comment ('# made by') but the first line must hold the "
     "column names; delete the comment lines at the top of the file"),
    ("csv_not_encoding", {"path": "a.csv", "encoding": "utf-8", "detail": "byte 0xff"},
     "cannot read a.csv as utf-8: it holds bytes that are not utf-8 (byte 0xff); give the "
     "file's encoding as \"encoding\" (utf-8, utf-8-sig, latin-1, cp1252, cp932 (Shift-JIS) "
     "or utf-16), or save it as UTF-8"),
    ("csv_empty", {"path": "a.csv"}, "cannot read a.csv: it holds no columns or rows"),
    ("csv_ragged", {"path": "a.csv", "sep": ";", "line": 4, "saw": 3, "expected": 2},
     "cannot read a.csv: line 4 has 3 cells but the header has 2; put quotes around cells "
     "that contain the separator (a semicolon), delete stray comment lines, or set \"sep\" "
     "if the separator is not a semicolon"),
    ("csv_open_quote", {"path": "a.csv", "line": 8},
     "cannot read a.csv: a quote mark (\") near line 8 opens a cell that never closes; close "
     "or remove it"),
    ("csv_unparsed", {"path": "a.csv", "sep": "#", "detail": "Error tokenizing data"},
     "cannot read a.csv as CSV (Error tokenizing data); check the separator (now '#') and "
     "the encoding"),
]

ERROR_CASES_INPUT += [
    ("excel_old_format", {"path": "a.xls"},
     "cannot read a.xls: it is in the old Excel 97-2003 format (.xls), which this app does "
     "not read; open it in Excel or LibreOffice and save it as an Excel workbook (.xlsx) or "
     "as CSV"),
    ("sheet_unreadable", {"path": "b.xlsx", "sheet": "S", "detail": "bad cell"},
     "cannot read sheet 'S' of b.xlsx: bad cell"),
    ("excel_not_zip", {"path": "b.xlsx"},
     "cannot read b.xlsx: it is not an Excel workbook (an .xlsx file is a ZIP archive, this "
     "one is not); save it from Excel as .xlsx, or give a CSV file"),
    ("openpyxl_missing", {"detail": "No module named 'openpyxl'"},
     "reading Excel workbooks needs the package openpyxl: No module named 'openpyxl'; "
     "install it (pip install -U openpyxl) or save the sheet as CSV"),
    ("excel_invalid", {"path": "b.xlsx", "detail": "KeyError: 'x'"},
     "cannot read b.xlsx: not a valid Excel workbook (KeyError: 'x'); save it again from "
     "Excel as .xlsx, or as CSV"),
    ("excel_part_large", {"path": "b.xlsx", "part": "xl/s.xml", "size": 3 * 10 ** 9,
                          "limit": 10 ** 9},
     "cannot read b.xlsx: its part 'xl/s.xml' unpacks to 3.0 GB, more than the 1.0 GB this "
     "app reads from a workbook (it would take many minutes); save the sheet as CSV"),
    ("excel_part_padding", {"path": "b.xlsx", "part": "xl/s.xml", "size": 2 * 10 ** 8,
                            "compressed": 10 ** 5},
     "cannot read b.xlsx: its part 'xl/s.xml' unpacks to 200 MB from 100 KB (2,000 "
     "times), far more than a sheet of data compresses: it is mostly padding; save the "
     "sheet again from Excel, or as CSV"),
    ("excel_strings_large", {"path": "b.xlsx", "part": "xl/sharedStrings.xml",
                             "size": 3 * 10 ** 8, "limit": 10 ** 8},
     "cannot read b.xlsx: its shared strings ('xl/sharedStrings.xml') unpack to 300 MB, "
     "more than the 100 MB this app reads (every one is parsed when the workbook opens, "
     "about 1 MB a second); save the sheet as CSV"),
    ("excel_part_memory", {"path": "b.xlsx", "part": "xl/s.xml", "size": 10 ** 9,
                           "need": 3 * 10 ** 9, "available": 10 ** 9},
     "cannot read b.xlsx: its part 'xl/s.xml' unpacks to 1.0 GB, which would take about "
     "3.0 GB of memory while it is read, more than the 1.0 GB available; save the sheet as "
     "CSV or use a computer with more memory"),
    ("excel_no_sheets", {"path": "b.xlsx"}, "cannot read b.xlsx: the workbook has no sheets"),
    ("sheet_unknown", {"sheet": "Data", "file": "book.xlsm", "sheets": ["Summary", "Data 2024"]},
     "there is no sheet 'Data' in book.xlsm; its sheets are: Summary, Data 2024"),
]

_LINE = {"path": "w.arff", "line": 7}
ERROR_CASES_INPUT += [
    ("arff_line", {**_LINE, "problem": "split"}, "w.arff, line 7: cannot split this line into values"),
    ("arff_line", {**_LINE, "problem": "open_quote", "quote": "'"},
     "w.arff, line 7: a quote (') never closes on this line; close it, or write a quote "
     "inside a value as \\' or \\\""),
    ("arff_line", {"path": None, "line": None, "problem": "open_quote", "quote": '"'},
     "a quote (\") never closes on this line; close it, or write a quote inside a value as "
     "\\' or \\\""),
    ("arff_line", {**_LINE, "problem": "no_relation", "found": "'a,b'"},
     "w.arff, line 7: an ARFF file starts with '@relation NAME' (comments with % before "
     "it); found 'a,b': is it an ARFF file?"),
    ("arff_line", {**_LINE, "problem": "attribute_twice", "name": "x"},
     "w.arff, line 7: a second attribute named 'x'; attribute names must differ"),
    ("arff_line", {**_LINE, "problem": "data_first"},
     "w.arff, line 7: @data comes before any @attribute: the file declares no columns"),
    ("arff_line", {**_LINE, "problem": "unexpected", "found": "'@atribute x'"},
     "w.arff, line 7: expected @attribute or @data, found '@atribute x'"),
    ("arff_line", {**_LINE, "problem": "attribute_form"},
     "w.arff, line 7: write an attribute as '@attribute NAME TYPE' (TYPE: numeric, a list "
     "of values in braces, string or date)"),
    ("arff_line", {**_LINE, "problem": "nominal_brace", "name": "c"},
     "w.arff, line 7: the values of nominal attribute 'c' need a closing brace '}'"),
    ("arff_line", {**_LINE, "problem": "nominal_values", "name": "c"},
     "w.arff, line 7: nominal attribute 'c': list its values in braces, {a, b, c} (quote a "
     "value that holds ? or braces)"),
    ("arff_line", {**_LINE, "problem": "nominal_twice", "name": "c"},
     "w.arff, line 7: nominal attribute 'c' lists a value twice"),
    ("arff_line", {**_LINE, "problem": "date_format", "name": "d", "detail": "bad pattern"},
     "w.arff, line 7: attribute 'd': bad pattern"),
    ("arff_line", {**_LINE, "problem": "relational", "name": "bag"},
     "w.arff, line 7: attribute 'bag' is relational (multi-instance data), which this app "
     "does not read; flatten it in Weka first (filter MultiInstanceToPropositional)"),
    ("arff_line", {**_LINE, "problem": "unknown_type", "name": "x", "kind": "float"},
     "w.arff, line 7: attribute 'x' has the unknown type 'float'; use numeric, real, "
     "integer, string, date or a list of values in braces"),
    ("arff_line", {**_LINE, "problem": "dense_brace"},
     "w.arff, line 7: a brace in a dense row; a sparse row is written {index value, ...} "
     "and a weight {w} at the end"),
    ("arff_line", {**_LINE, "problem": "n_values", "n_values": 3, "n_attributes": 4},
     "w.arff, line 7: 3 value(s) where the header declares 4 attributes; quote values that "
     "hold spaces or commas, write ? for a missing one"),
    ("arff_line", {**_LINE, "problem": "weight", "weight": "-1"},
     "w.arff, line 7: the instance weight {-1} is not a number of 0 or more"),
    ("arff_line", {**_LINE, "problem": "sparse_form"},
     "w.arff, line 7: a sparse row is written {index value, index value, ...} on one line"),
    ("arff_line", {**_LINE, "problem": "sparse_pairs"},
     "w.arff, line 7: a sparse row needs pairs of an index and a value"),
    ("arff_line", {**_LINE, "problem": "sparse_index", "index": "9", "last": 3},
     "w.arff, line 7: '9' is not an attribute index (0 to 3) in a sparse row"),
    ("arff_line", {**_LINE, "problem": "sparse_twice", "index": "2"},
     "w.arff, line 7: index 2 appears twice in a sparse row"),
    ("arff_line", {**_LINE, "problem": "not_number", "name": "x", "value": "abc"},
     "w.arff, line 7: attribute 'x' is numeric but the value is 'abc'; write a number, or ? "
     "when missing"),
    ("arff_line", {**_LINE, "problem": "not_declared", "name": "c", "value": "z",
                   "declared": ["a", "b"]},
     "w.arff, line 7: 'z' is not a declared value of nominal attribute 'c' ({a, b}); add it "
     "to the @attribute line or correct the value"),
    ("arff_line", {**_LINE, "problem": "not_declared", "name": "c", "value": "z",
                   "declared": [str(i) for i in range(11)]},
     "w.arff, line 7: 'z' is not a declared value of nominal attribute 'c' ({0, 1, 2, 3, 4, "
     "5, 6, 7, 8, 9, ...}); add it to the @attribute line or correct the value"),
    ("arff_not_encoding", {"path": "w.arff", "encoding": "utf-8", "detail": "invalid start byte"},
     "cannot read w.arff: it is not utf-8 text (invalid start byte); give its encoding "
     '("encoding": "latin-1")'),
    ("arff_no_data", {"path": "w.arff"},
     "cannot read w.arff: no '@data' line; an ARFF file lists its attributes, then '@data' "
     "and the rows"),
    ("arff_weights", {"path": "w.arff", "weights": [1.0, 2.5]},
     "cannot use w.arff: its rows have different instance weights (1, 2.5, ...), which this "
     "app's cross-validation does not apply; remove the {weight} at the end of the rows (e.g. "
     "repeat each row as often as its weight says)"),
]

ERROR_CASES_INPUT += [
    ("date_unfit", {"text": "01/02/2021", "pattern": "yyyy-MM-dd"},
     "'01/02/2021' does not fit the date pattern 'yyyy-MM-dd'"),
    ("date_invalid", {"text": "2021-02-30", "pattern": "yyyy-MM-dd",
                      "detail": "day is out of range for month"},
     "'2021-02-30' is not a valid date for the pattern 'yyyy-MM-dd' (day is out of range for "
     "month)"),
    ("date_pattern_quote", {"pattern": "yyyy'T"},
     "the date pattern \"yyyy'T\" has a quote that never closes"),
    ("date_pattern_letter", {"pattern": "yyyy-ww", "letter": "w"},
     "the date pattern 'yyyy-ww' uses the letter 'w', which this app does not read; use y, M, "
     "d, H, h, k, K, m, s, S, a, E, D, z, Z or X (or quote text: 'T')"),
    ("date_at", {"place": "w.arff, line 5: attribute 'd'", "detail": "x", "cause": "",
                 "text": "2020"},
     "w.arff, line 5: attribute 'd': x"),
]

#: The advice every dataset_name_bad error ends with.

#: (code, fields, long form) of the notes of engine.input and engine.runs.heldout.
NOTE_CASES_INPUT = [
    ("sparse_rows", {"n_rows": 3},
     "3 row(s) written sparsely: the values they leave out are 0 (for a nominal attribute "
     "its first value, for a string attribute missing)"),
    ("instance_weights_ignored", {"weight": 2.0, "n_rows": 3},
     "every row has the same instance weight (2): weights that are all equal change nothing "
     "and are ignored"),
    ("string_attributes", {"columns": ["text", "note"]},
     "string attribute(s) 'text', 'note' hold free text: read as text categories (one-hot "
     "encoded, or left out when every row differs); a word-count filter in Weka "
     "(StringToWordVector) makes features of text"),
    ("dates_as_numbers", {"columns": ["d"], "unit": "seconds",
                          "origin": "1970-01-01T00:00:00Z"},
     "date attribute(s) 'd' read as numbers: seconds since 1970-01-01 00:00 UTC (a date "
     "without a time zone is taken as UTC; Weka stores milliseconds)"),
    ("dates_as_numbers", {"columns": ["when", "at"], "unit": "seconds",
                          "origin": "1970-01-01T00:00:00"},
     "date column(s) 'when', 'at' read as numbers: seconds since 1970-01-01 00:00 (times of "
     "day: seconds since midnight)"),
    ("sheet_read", {"sheet": "B", "sheets": ["A", "B"]},
     "read the sheet 'B' (the workbook has 2: A, B; set \"sheet\" to read another)"),
    ("rows_dropped", {"n_rows": 2, "target": "y", "test_file": False},
     "dropped 2 row(s) with no value in 'y'"),
    ("rows_dropped", {"n_rows": 1, "target": "y", "test_file": True},
     "test file: dropped 1 row(s) with no value in 'y'"),
    ("infinite_values", {"column": "x", "n_values": 4},
     "column 'x': 4 infinite value(s) (inf, -inf) count as missing"),
    ("empty_columns_left_out", {"columns": ["e", "f"]}, "left out empty column(s): e, f"),
]

NOTE_CASES_INPUT += [
    ("one_hot_encoded", {"columns": ["sex", "site"]},
     "categorical column(s) one-hot encoded inside each model: sex, site"),
    ("missing_imputed", {"n_missing": 12},
     "12 missing value(s) imputed inside each model, fitted on the training folds only "
     "(median for numbers, most frequent for categories)"),
    ("many_categories", {"column": "town", "n_categories": 412},
     "column 'town' has 412 categories: one-hot encoding makes many columns; consider "
     "dropping it"),
    ("identifier_columns_left_out", {"columns": ["name"]},
     "left out identifier-like column(s) (a different text in every row): name"),
    ("empty_classes", {"target": "y", "classes": ["c", "d"]},
     "class(es) declared for 'y' but without any row, left out: 'c', 'd'"),
]
