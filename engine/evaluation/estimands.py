"""What each interval the app prints is about: its estimand, in a code and in words.

Every table that carries a 95% interval has an ``estimand`` column holding one of the
codes of :data:`ESTIMANDS`; :data:`INTERVALS` names, per interval id (the ids of the
coverage study, ``engine/evaluation/measured_coverage.csv``), the method, the estimand and
the table. docs/experiment-format.md ("What each interval estimates") says why each
interval has the estimand it has.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ESTIMANDS", "INTERVALS", "IntervalKind", "estimand_words"]

#: Estimand code -> the plain sentence the report and the app show.
ESTIMANDS = {
    "expected_score_at_training_size": "the expected score of a model trained on this many "
                                       "rows by this procedure",
    "fold_models_mean": "the mean true score of the k fold models",
    "model_on_all_rows": "the model fitted on all the rows, scored on new data from the "
                         "same source",
    "fixed_model_on_new_data": "this fitted model, scored on new rows like the test file",
}


@dataclass(frozen=True)
class IntervalKind:
    """One kind of interval the app prints.

    Attributes
    ----------
    method : str
        The method, in words.
    estimand : str or None
        A key of :data:`ESTIMANDS`; None for an error rate (``across_tests_null``).
    table : str
        The result table that carries it.
    nominal : bool
        False for a band that claims no level (the decision curve's min–max band) and for
        an error rate.
    """

    method: str
    estimand: str | None
    table: str
    nominal: bool = True


_EXPECTED, _FOLDS = "expected_score_at_training_size", "fold_models_mean"
_HELDOUT = "fixed_model_on_new_data"

#: Interval id -> what it is (the ids are shared with the coverage study).
INTERVALS = {
    "summary_mean": IntervalKind("corrected t of the mean fold score (Nadeau and Bengio)",
                                 _EXPECTED, "summary.csv"),
    "pairwise_difference": IntervalKind("corrected paired t of the mean difference "
                                        "(Nadeau and Bengio)", _EXPECTED, "pairwise.csv"),
    "credible_difference": IntervalKind("Bayesian correlated t (Benavoli et al.), credible "
                                        "interval of the difference", _EXPECTED,
                                        "credible_intervals.csv"),
    "auc_corrected_t": IntervalKind("corrected t over the per-fold AUCs of all k × r folds",
                                    _EXPECTED, "auc_intervals.csv"),
    "auc_delong_pooled": IntervalKind("DeLong's interval of the AUC of the pooled "
                                      "out-of-fold predictions", _FOLDS,
                                      "auc_intervals.csv"),
    "auc_ledell": IntervalKind("LeDell's influence-curve interval of the fold-averaged AUC",
                               _FOLDS, "auc_intervals.csv"),
    "calibration_band": IntervalKind("Jeffreys interval of each bin's observed share",
                                     _FOLDS, "calibration_curve.csv"),
    "decision_curve_band": IntervalKind("lowest to highest repeat's net benefit (a spread, "
                                        "not a confidence interval)", _FOLDS,
                                        "decision_summary.csv", nominal=False),
    "heldout_bootstrap": IntervalKind("percentile bootstrap of the test rows", _HELDOUT,
                                      "test_scores.csv"),
    "heldout_delong": IntervalKind("DeLong's interval on the test rows", _HELDOUT,
                                   "test_scores.csv"),
    "nested_cv": IntervalKind("nested cross-validation (Bates, Hastie and Tibshirani)",
                              "model_on_all_rows", "nested_intervals.csv"),
    "subgroup_score": IntervalKind("corrected t of a subgroup's mean fold score",
                                   _EXPECTED, "subgroup_scores.csv"),
    "across_tests_null": IntervalKind("share of the across-data-set tests below α when no "
                                      "model is better (an error rate)", None,
                                      "wilcoxon.csv", nominal=False),
}


def estimand_words(code: str) -> str:
    """The sentence of an estimand code; the code itself when it is not one of ours."""
    return ESTIMANDS.get(code, str(code))
