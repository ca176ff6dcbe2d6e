"""The report's list of the run's intervals: each with its method, its estimand and the
coverage the study measured (:func:`engine.evaluation.coverage_record.interval_label`)."""
from __future__ import annotations

from engine.evaluation.coverage_record import coverage_words, interval_label
from engine.output.document import BulletList, Strong

__all__ = ["TABLE_INTERVALS", "coverage_sentence", "interval_ids", "intervals_list"]

#: Result table -> the interval ids it carries, in the order the report lists them (the
#: AUC's corrected t first: the one the app shows first).
TABLE_INTERVALS = {
    "summary.csv": ("summary_mean",),
    "pairwise.csv": ("pairwise_difference",),
    "credible_intervals.csv": ("credible_difference",),
    "auc_intervals.csv": ("auc_corrected_t", "auc_delong_pooled", "auc_ledell"),
    "calibration_curve.csv": ("calibration_band",),
    "decision_summary.csv": ("decision_curve_band",),
    "test_scores.csv": ("heldout_bootstrap", "heldout_delong"),
    "nested_intervals.csv": ("nested_cv",),
    "subgroup_scores.csv": ("subgroup_score",),
}
#: ``test_scores.csv``'s ``interval`` value of each held-out interval id.
_HELDOUT = {"heldout_bootstrap": "bootstrap", "heldout_delong": "delong"}


def interval_ids(tables: dict) -> list:
    """``[(table, interval id)]`` of the intervals the run's tables hold."""
    out = []
    for table, ids in TABLE_INTERVALS.items():
        frame = tables.get(table)
        if frame is None or len(frame) == 0:
            continue
        for interval in ids:
            kind = _HELDOUT.get(interval)
            if kind is None or ("interval" in frame and (frame["interval"] == kind).any()):
                out.append((table, interval))
    return out


def intervals_list(tables: dict, level: float, *, record=None) -> BulletList:
    """A list: per interval of the run, its table and label; without items when the run
    has none."""
    return BulletList(tuple((Strong((table,)), ": ", interval_label(i, level, record=record))
                            for table, i in interval_ids(tables)))


def coverage_sentence(interval: str, *, record=None) -> str:
    """"This interval covered 94.1% in the study (…)." or, without a row in the record,
    "The coverage study has not yet measured this interval's coverage." (plain text)."""
    words = coverage_words(interval, record=record)
    if words.startswith(("covered", "erred")):
        return f"This interval {words}."
    return "The coverage study has not yet measured this interval's coverage."
