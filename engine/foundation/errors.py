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


def is_store_error(exc: BaseException, *, path: Optional[str] = None) -> bool:
    """True for an error about the result store (about the one at ``path`` when given)."""
    if not error_code(exc).startswith(STORE_PREFIX):
        return False
    return path is None or error_fields(exc).get("path") == path
