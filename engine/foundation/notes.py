"""Notes: what the engine tells the user, as a sentence and as data.

A :class:`Note` carries the plain-English sentence (``message``; ``str(note)`` is that
sentence, so the headless runner prints and ``notes.txt`` holds exactly the text it
always did), a stable ``code`` saying what kind of note it is, and the ``fields`` the
sentence was made from (the model, the column, the share, ...). People read the
sentence; programs (the GUI) decide on ``code`` and ``fields`` and never parse the
English.

Every code is listed in :data:`CODES` with a one-line meaning; a :class:`Note` with any
other code is refused, so a typo fails at once. Codes are part of the engine's
interface: add new ones, never rename or reuse one.

Notes are values: frozen, hashable (on ``code`` and ``message``), comparable and
picklable (results travel from the GUI's run process), with read-only ``fields``.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.foundation.caller_errors import CallerError
from engine.foundation.messages import has_long_form, long_form

#: Every note code, with what a note of that code says. The ``fields`` of each are
#: named in brackets.
CODES = {
    # ---- reading a CSV file (engine.input.csv_values, engine.input.data)
    "encoding": "the file's text encoding was detected (not plain UTF-8) "
                "[encoding, how: 'bom', 'no_bom' or 'not_utf8'; with 'not_utf8' from "
                "engine.input.csv_values also name (shown), ambiguous, alternative: the encoding "
                "the bytes also fit, or None, alternative_name (shown), and starts_like: the "
                "encoding (shown) the first bytes fit when the whole file did not]",
    "separator": "the column separator was detected [separator, name]",
    "decimal_comma": "numbers are read with a decimal comma "
                     "[column, example, value, certain: False when only assumed]",
    "decimal_comma_as_text": "a column looks like decimal-comma numbers but was kept as "
                             "text [column, examples]",
    "numbers_as_text": "a column looks like numbers but too many cells are not: kept as "
                       "text categories [column, n_bad, n_cells, examples]",
    "thousands_grouped": "digits grouped by thousands were read as one number "
                         "[column, example, value, separator]",
    "stray_cells_missing": "a number column's few text cells count as missing "
                           "[column, n_bad, lines: ((line, text), ...)]",
    "spaces_removed": "spaces around text cells were removed [columns]",
    "trailing_separator": "empty cells after the last column (lines ending with a "
                          "separator) were ignored []",
    # ---- reading ARFF files and Excel workbooks (engine.input.arff, engine.input.excel)
    "sparse_rows": "rows written sparsely; the values they leave out are 0 [n_rows]",
    "instance_weights_ignored": "every row has the same instance weight, which changes "
                                "nothing [weight, n_rows]",
    "string_attributes": "ARFF string attributes (free text) are read as text categories "
                         "[columns]",
    "dates_as_numbers": "date columns are read as numbers of seconds "
                        "[columns, unit: 'seconds', origin]",
    "sheet_read": "which sheet of a workbook with several was read [sheet, sheets]",
    # ---- making a data set (engine.input.data, engine.input.data_checks)
    "builtin_data": "which built-in data set this is [name, description: the data set's "
                    "entry in engine.input.data.BUILTINS]",
    "positive_class": "which class is the positive one and why "
                      "[label, reason: 'second_class', 'asked', 'zero_one', "
                      "'smaller_class' or 'same_size']",
    "control_characters": "column names or class labels held invisible control "
                          "characters, shown written out [what: 'column_names' or "
                          "'class_labels', names]",
    "target_chosen": "no target was named; the column chosen "
                     "[column, last_column, problem: why the last column was not "
                     "used, or None; weka: True for an ARFF file's last attribute; rule: "
                     "'named' or 'only' (engine.input.target_choice); reasons: the column's "
                     "reasons as a candidate]",
    "target_not_chosen": "the column to predict is not chosen yet (the app shows the best "
                         "candidate until it is) [candidates, reasons, shown]",
    "after_outcome": "a column beside the target looks like a time to the event or the "
                     "event's status, known only with or after the outcome "
                     "[column, target, kind: 'time' or 'status', left_out]",
    "rows_dropped": "rows without a target value were dropped [n_rows, target, test_file: "
                    "True for the held-out test file's rows]",
    "empty_classes": "classes declared for the target (ARFF) but without rows were left "
                     "out [target, classes]",
    "infinite_values": "infinite numbers count as missing [column, n_values]",
    "many_categories": "a text column has many categories [column, n_categories]",
    "empty_columns_left_out": "empty columns were left out [columns]",
    "identifier_columns_left_out": "identifier-like columns were left out [columns]",
    "index_columns_left_out": "index-like columns (row numbers, row names, unique id numbers) "
                              "were left out; \"features\" keeps them "
                              "[columns, reasons: 'row_numbers', 'index_name' or 'id_name']",
    "identifier_feature": "a whole-number column named like an identifier is used as a "
                          "feature [column, n_values]",
    "groups_suggested": "a column looks like an identifier with repeated values: naming it "
                        "as \"groups\" keeps its rows together in the folds "
                        "[column, n_values, rows_per_value, n_rows]",
    "groups_pair_suggested": "an identifier restarts within another identifier-like column "
                             "(centre, site): the pair names the groups "
                             "[columns: (outer, inner), n_values, n_pairs, rows_per_pair, "
                             "n_rows]",
    "class_imbalance": "the smallest class is a small share of the rows (or has few rows): "
                       "accuracy can mislead; class weights and resampling are offered "
                       "[class, count, share: a fraction, n_rows, majority_share, "
                       "n_classes]",
    "possible_leak": "a column alone predicts the target almost perfectly "
                     "[column, target, share: percent of the rows judged, rule, rows_judged, "
                     "n_rows, left_out: True for a column the user left out]",
    "one_hot_encoded": "categorical columns are one-hot encoded inside each model [columns]",
    "missing_imputed": "missing values are imputed inside each model [n_missing]",
    # ---- the experiment (engine.evaluation.experiment)
    "default_metric": "no metric was given: the default for the target is used "
                      "[metric, n_classes]",
    "default_metric_imbalanced": "no metric was given and the classes are imbalanced: "
                                 "balanced_accuracy is reported beside the primary metric "
                                 "[metrics, class, share: a fraction, dataset: None for one]",
    "random_state_given": "models got the cross-validation's seed [random_state, models]",
    "unscaled_models": "scale-sensitive models run without scaling [models]",
    # ---- the folds (engine.evaluation.cv)
    "weka_small_classes": "with Weka's fold assignment, classes have fewer rows than folds "
                          "[classes, counts, n_splits]",
    "grouped_small_classes": "with grouped folds, classes occur in fewer groups than folds "
                             "[classes, counts, n_splits]",
    # ---- the held-out test (engine.runs.heldout)
    "heldout_failed": "a model could not be fitted on all training rows or scored on the "
                      "test file, or one metric could not be computed there "
                      "[model, metric (None: the whole model), reason]",
    "heldout_shared_rows": "rows of the test file are also rows of the training data, so "
                           "their scores are not held out [n_shared, n_rows, rows: the "
                           "first of them, numbered from 1 among the test file's data rows]",
    "heldout_not_calibrated": "the held-out test scores the models as compared, without the "
                              "calibrated variants of the calibration block [methods]",
    "models_saved": "the final models were written to the result folder; load only files "
                    "you trust [files, not_saved: the models skops could not write]",
    # ---- "n_repeats": "auto" (engine.evaluation.auto_repeats)
    "repeats_auto_stopped": "\"n_repeats\": \"auto\" stopped: how many repeats ran and why "
                            "[n_repeats, reason: 'precision', 'max_repeats' or 'time_budget', "
                            "ratio: the smallest ratio of an interval's width with one "
                            "more repeat to its width now, "
                            "max_repeats, precision, bound: the widths' bound at "
                            "max_repeats, or None; tolerance, bound_level]",
    # ---- the grouping gap (engine.runs.grouping_gap)
    "grouping_gap": "the same models run with and without groups: what grouping changes, "
                    "in words [metric, model (largest gap), grouped_mean, ungrouped_mean, gap, "
                    "groups_column, kind: 'optimistic', 'small', 'lower' or 'no_scores'; "
                    "with 'optimistic' best_grouped, best_ungrouped, grouped_half_width]",
    "grouping_gap_no_groups": "the gap without groups was asked for, but the data set has no "
                              "\"groups\" column [dataset]",
    # ---- several data sets (engine.runs.benchmark; their other notes carry a [dataset] field)
    "default_metric_datasets": "no metric was given and the data sets differ in their "
                               "number of classes: one metric that fits them all is used "
                               "[metric, n_classes: per data set]",
    # ---- the cross-validation run (engine.evaluation.advice)
    "folds_failed": "a model failed on some folds [model, n_folds_hit, n_folds, example, "
                    "advice, fix: a code of what to change, e.g. 'not_converged', or '']",
    "folds_warned": "a model raised warnings on some folds [model, n_folds_hit, n_folds, "
                    "example, advice, fix]",
    "unranked_models": "models without any valid score have no rank [models]",
    "partial_ranks": "models are ranked on the folds every ranked model completed "
                     "[rank_note]",
    # ---- choices made inside the folds (engine.evaluation.tuning)
    "tuning_optimism": "a tuned model's nested score against the best of its grid settings "
                       "scored as plain models on the same folds (what choosing on the scoring "
                       "folds would report), with the corrected-t interval of the paired fold "
                       "differences; optimism only when that interval excludes 0 [model, "
                       "metric, n_members, best_member, best_plain_score, nested_score, "
                       "optimism, ci_low, ci_high, p_value_two_sided, n_folds, tuning_metric, "
                       "shown, level]",
    "interval_past_bound": "a summary interval passes the metric's possible range (above "
                           "its largest or below its smallest value); read that end as the "
                           "bound [metric, side, bound, models]",
    "default_rope": "no ROPE was given: the primary metric's family default is used, with "
                    "its unit and reason [metric, rope, family, unit, reason: the "
                    "family's in engine.evaluation.stats.ROPE_DEFAULTS]",
    "tuning_metric_differs": "a tuned model's grid search chose by another metric than the "
                             "one its optimism compares [model, metric, tuning_metric]",
    # ---- costs of the outcomes (engine.evaluation.costs)
    "costs_borrowed": "the expected-cost metric uses the costs of the models' thresholds, "
                      "no top-level costs being given [costs]",
    "costs_not_compared": "costs were given but the primary metric is another one "
                          "[metric, threshold_free, costs]",
    # ---- ALOOCV (engine.evaluation.aloocv)
    "alo_best_at_max_c": "ALO keeps improving up to the largest C searched [C_max]",
    "alo_best_at_min_c": "ALO is best at the smallest C searched [C_min]",
    "alo_single_row_class": "a class has a single row: ALO unreliable, exact LOO undefined "
                            "[class_code]",
    "alo_constant_columns": "constant columns get coefficient 0 [columns]",
    "alo_not_applicable": "ALO does not apply to a model [model, reason: 'estimator', "
                          "'l1_ratio', 'penalty', 'no_intercept', 'class_weight' "
                          "or 'resample', value: the value that rules it out or None]",
    "alo_solver_warnings": "the Newton solver warned while tracing a model's curve "
                           "[model, n_warnings, example]",
    "alo_unreliable": "ALO falls far below guessing the class frequencies at some C "
                      "[model, n_unreliable, n_C, C_from]",
    "alo_grouped_rows": "the data set has groups, but ALO leaves out one row at a time: rows "
                        "of the same group stay in training, so the curve is optimistic; "
                        "choose C by the grouped cross-validation [model, groups_column, "
                        "n_groups]",
    "alo_optimum": "what to know about a model's ALO optimum "
                   "[model, notes: the optimum's own notes, alo_best_at_* ...]",
    # ---- calibration (engine.evaluation.calibration)
    "calibration_method": "how the calibrated variants were fitted and tested "
                          "[inner_splits, grouped: True when the inner folds keep groups "
                          "together]",
    "calibration_no_predictions": "a model kept no out-of-fold predictions: not calibrated "
                                  "[model]",
    "calibration_decision_values": "a model's decision values were put on the probability "
                                   "scale [model, transform: 'logistic' or 'softmax']",
    "calibration_labels_only": "a model gives labels only: its probabilities are 0/1 [model]",
    "calibration_folds_failed": "a calibrated variant failed on some folds "
                                "[model, method, n_failed, examples]",
    "calibration_warning": "scikit-learn warned while calibrating "
                           "[model, method, category, text]",
    "crowded_buckets": "most probabilities fall in the first or last bucket of the "
                       "uniform map [model, share: a fraction]",
    "calibration_map_failed": "no calibration map for a class [model, method, class_label, "
                              "error]",
    # ---- curves from out-of-fold predictions (engine.evaluation.curves)
    "decision_two_class_only": "decision curves need two classes: none drawn [n_classes]",
    "decision_no_probabilities": "a model gives no probabilities: no decision curve [model]",
    "learning_class_missing": "a learning-curve training subset lacks a class: its score is "
                              "NaN [model, fraction, n_train, n_folds, n_splits, shuffled]",
    "learning_failed": "learning-curve fits failed: their scores are NaN [model, n_failed, "
                       "examples]",
    "learning_flattened": "whether a learning curve may have flattened [model, metric, gain, "
                          "se, flattened, n_from, n_to]",
    "learning_sizes_merged": "fractions that give the same training size were merged "
                             "[fractions, n_train]",
    # ---- comparing models across several data sets (engine.runs.across)
    "across_dataset_left_out": "a data set is left out of the comparison across data sets: "
                               "some models have no valid mean on it [dataset, models]",
    "across_model_left_out": "a model is left out of the comparison across data sets: it has "
                             "no valid mean on some data sets [model, datasets, n_datasets: "
                             "how many data sets were compared]",
    "across_too_few": "fewer than 2 models or 2 data sets to compare: only the ranks are given "
                      "[n_models, n_datasets]",
    "across_two_models": "two models: no Friedman or Nemenyi test, only the Wilcoxon and the "
                         "Bayesian signed-rank tests [models]",
    "across_few_datasets": "few data sets: the tests across data sets have little power "
                           "[n_datasets, min_wilcoxon_p: the smallest possible Wilcoxon "
                           "p-value, alpha]",
    "across_friedman_approximate": "the Friedman and Iman-Davenport p-values are rough "
                                   "approximations with few data sets or models "
                                   "[n_datasets, n_models]",
    "across_tied_ranks": "models tie on some data sets and share the average rank [datasets]",
    "across_all_tied": "every model has the same mean on every data set: nothing to tell "
                       "apart, Friedman undefined [datasets]",
    "across_wilcoxon_undefined": "two models have the same mean on every data set: no "
                                 "Wilcoxon test for them [pairs: ((model_1, model_2), ...)]",
    "across_wilcoxon_method": "how the Wilcoxon p-values were computed when not all exactly "
                              "[exact, permutation, asymptotic: the pairs of each]",
    "across_no_decision": "too few data sets to decide anything: the numbers are shown, no "
                          "model is called better [n_datasets, min_datasets, alpha]",
    "across_posthoc_not_interpretable": "the omnibus test (Iman-Davenport) does not reject: "
                                        "the Nemenyi pairs are not read as differences "
                                        "[iman_davenport_p_value, alpha]",
    "across_wilcoxon_multiplicity": "no Wilcoxon p-value can be significant after the "
                                    "correction with this many data sets and pairs "
                                    "[n_datasets, n_pairs, correction, min_adjusted_p, alpha]",
    "across_failed_folds": "models failed on some folds of some data sets; every model's "
                           "mean there is over the common folds [models, datasets: per "
                           "model; folds: per model, ((dataset, n_failed), ...)]",
    "across_no_common_folds": "no fold was completed by every model on some data sets: "
                              "there each model's own mean is used [datasets]",
    # ---- the pre-run check (engine.runs.preflight): Problem notes, with fixes
    "metric_not_for_target": "a metric does not fit the target's number of classes "
                             "[dataset, datasets, metric, n_classes, suggested, reason: "
                             "'two_classes_only', 'always_one' or 'no_costs']",
    "too_few_rows": "a class or the groups are too small for the folds "
                    "[dataset, datasets, n_splits, possible: the most folds possible or None, "
                    "reason: the folds check's sentence, reason_code: its code]",
    "no_probabilities": "a model gives no probabilities (or decision values) that a metric "
                        "needs [dataset, datasets, model, entry, metric, where: 'metric' or "
                        "'tune', needs: 'proba' or 'score']",
    "threshold_many_classes": "a model chooses a decision threshold on more than two classes "
                              "[dataset, datasets, model, entry, n_classes, by: 'costs' or "
                              "'metric']",
    "tune_metric_not_for_target": "a tuned model's own metric does not fit the target "
                                  "[dataset, datasets, model, entry, metric, n_classes]",
    "inner_folds_too_few": "a tuned or thresholded model's inner folds need more rows than a "
                           "training part has [dataset, datasets, model, entry, block, "
                           "inner_splits, rows]",
    "unscaled_model": "a scale-sensitive model runs unscaled on features of very different "
                      "spreads [dataset, datasets, model, entry, estimator, ratio, shown_ratio: "
                      "as the sentence rounds it]",
    # ---- AUC intervals and tests (engine.evaluation.curves.auc_tables)
    "auc_pooled_test": "DeLong's test of two models' AUCs runs on the pooled out-of-fold "
                       "predictions of each repeat, which come from different fold models: "
                       "the p-values are approximate [n_pairs, n_repeats, alpha]",
    "auc_grouped_rows": "the data set has groups: DeLong's interval and test treat the rows "
                        "as independent (too sure); LeDell's interval counts each group once "
                        "[n_groups, n_rows]",
    "auc_not_computed": "no AUC interval or test for a model, class and repeat "
                        "[model, positive_class, repeat, reason: 'missing_predictions', "
                        "'one_class_fold' or 'no_score']",
    # ---- the nested-CV interval (engine.runs.nested_cv)
    "nested_interval": "each model's nested-CV interval (Bates et al.) and what it is for "
                       "[metric, level, n_splits, nested_repeats, n_rows]",
    "nested_not_computed": "no nested-CV interval for a model: some of its nested fits failed "
                           "or gave no predictions the metric needs [model, failed, fits, "
                           "metric]",
    # ---- the result folder (engine.output.result_folder, engine.output.folder_entries)
    "result_folder_leftover": "an entry of the result folder that looks like a leftover of "
                              "this app but is not exactly its own was left alone "
                              "[folder, name, problem, shown_name, shown_folder]",
    # ---- subgroups (engine.evaluation.subgroups)
    "subgroup_small": "subgroups with fewer than min_rows rows or min_events rows of a "
                      "class get no verdict [subgroups: [column, subgroup, n_rows], "
                      "min_rows, min_events]",
    "subgroup_columns": "which subgroup columns the models learn from [features, left_out]",
}


def _frozen(value: Any) -> Any:
    """A read-only, picklable copy of a field value: lists and tuples become tuples,
    mappings :class:`Fields`, numpy scalars Python numbers."""
    if isinstance(value, Note) or isinstance(value, (str, bytes, int, float, bool)) \
            or value is None:
        return value
    if isinstance(value, Mapping):
        return Fields(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        return tuple(_frozen(item) for item in value)
    item = getattr(value, "item", None)          # numpy scalars
    if callable(item) and getattr(value, "ndim", None) == 0:  # getattr: numpy values
        return item()
    return value


class Fields(Mapping):
    """The read-only mapping of a note's fields (a dict underneath; picklable)."""

    __slots__ = ("_data",)
    _data: dict[str, Any]

    def __init__(self, data: Mapping | Iterable[tuple[Any, Any]] = ()):
        object.__setattr__(self, "_data", {str(k): _frozen(v) for k, v in dict(data).items()})

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __setattr__(self, name, value):
        raise AttributeError("note fields are read-only")

    def __reduce__(self):
        return Fields, (self._data,)

    def __repr__(self) -> str:
        return repr(self._data)


@dataclass(frozen=True)
class Note:
    """One thing the engine tells the user.

    Parameters
    ----------
    code : str
        What kind of note this is: a key of :data:`CODES`.
    message : str, optional
        The sentence for people (``str(note)``); left empty, the catalogue's long form
        made from ``fields`` (:mod:`engine.foundation.messages`), for the codes it words.
    fields : mapping, optional
        The values the sentence was made from, by name (see :data:`CODES`); stored
        read-only, lists as tuples.

    Examples
    --------
    >>> note = Note("crowded_buckets", "nb: 62% of the ...", {"model": "nb", "share": 0.62})
    >>> str(note), note.code, note.fields["share"]
    ('nb: 62% of the ...', 'crowded_buckets', 0.62)
    >>> str(Note("unranked_models", fields={"models": ["svc"]}))
    'no rank for svc: no fold gave a valid score'
    """

    code: str
    message: str = ""
    fields: Mapping = field(default_factory=dict)

    def __post_init__(self):
        if self.code not in CODES:
            raise CallerError("code_unregistered",
                              f"unknown note code {self.code!r}; "
                              "add it to engine.foundation.notes.CODES", {"code": self.code})
        object.__setattr__(self, "fields", Fields(self.fields))
        message = str(self.message)
        if not message and has_long_form(self.code):
            message = long_form(self.code, self.fields)
        object.__setattr__(self, "message", message)

    def __str__(self) -> str:
        return self.message

    def __hash__(self) -> int:
        return hash((self.code, self.message))


def note_code(note) -> str:
    """The code of a :class:`Note`; "" for anything else (a plain string)."""
    return note.code if isinstance(note, Note) else ""


def note_fields(note) -> Mapping:
    """The fields of a :class:`Note`; an empty mapping for anything else."""
    return note.fields if isinstance(note, Note) else Fields()
