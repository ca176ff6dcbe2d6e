"""The measured-coverage record: a strict read of engine/evaluation/measured_coverage.csv,
and the words that label each interval with its method, estimand and measured coverage
(never a figure the record does not hold)."""
import pytest

from engine.evaluation import coverage_record
from engine.evaluation.coverage_record import (
    COLUMNS,
    coverage_words,
    interval_label,
    level_words,
    read_record,
)
from engine.evaluation.estimands import ESTIMANDS, INTERVALS
from engine.foundation.errors import EngineError

HEADER = ",".join(COLUMNS)
ROW = ("auc_delong_pooled,DeLong,fold_models_mean,0.95,0.828,0.918,0.88,15,500,2026-11-27,"
       "python tests/benchmarks/coverage_study.py")
GOOD = ("summary_mean,corrected t,expected_score_at_training_size,0.95,0.938,0.959,0.946,15,"
        "500,2026-11-27,python tests/benchmarks/coverage_study.py")


def _write(tmp_path, *lines):
    path = tmp_path / "measured_coverage.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_shipped_record_reads_and_every_interval_has_an_estimand():
    record = read_record(coverage_record.PATH)
    assert set(record) <= set(INTERVALS)
    for interval, kind in INTERVALS.items():
        assert kind.estimand is None or kind.estimand in ESTIMANDS, interval
    assert INTERVALS["across_tests_null"].estimand is None


def test_a_measured_row_gives_its_range_and_replaces_95_when_outside(tmp_path):
    record = read_record(_write(tmp_path, HEADER, ROW, GOOD))
    low = record["auc_delong_pooled"]
    assert (low.coverage_min, low.coverage_max, low.n_cells) == (0.828, 0.918, 15)
    assert coverage_words("auc_delong_pooled", record=record) == (
        "covered 82.8–91.8% in the study (15 cells, 500 repetitions per cell, at 95%)")
    assert level_words("auc_delong_pooled", 0.95, record=record) == "82.8–91.8% measured"
    assert level_words("summary_mean", 0.95, record=record) == "95%"
    # measured at 95% only: another level keeps its own name
    assert level_words("auc_delong_pooled", 0.9, record=record) == "90%"
    assert interval_label("summary_mean", 0.95, record=record) == (
        "95% interval: corrected t of the mean fold score (Nadeau and Bengio); estimand: "
        "the expected score of a model trained on this many rows by this procedure; "
        "covered 93.8–95.9% in the study (15 cells, 500 repetitions per cell, at 95%).")


def test_a_missing_row_says_not_measured_and_invents_nothing(tmp_path):
    record = read_record(_write(tmp_path, HEADER))
    assert record == {}
    assert coverage_words("auc_corrected_t", record=record) == "coverage not yet measured"
    assert level_words("auc_corrected_t", 0.95, record=record) == "95%"
    label = interval_label("decision_curve_band", 0.95, record=record)
    assert label.startswith("Band: lowest to highest repeat's net benefit")
    assert "%" not in label


@pytest.mark.parametrize("lines, detail", [
    (("interval,method",), "its columns are not"),
    ((HEADER, ROW.replace("auc_delong_pooled", "made_up")), "unknown interval id"),
    ((HEADER, ROW, ROW), "listed twice"),
    ((HEADER, ROW.replace("0.918", "1.2")), ("coverage_max of auc_delong_pooled is not "
                                             "between 0 and 1")),
    ((HEADER, ROW.replace("0.918", "nan")), "not between 0 and 1"),
    ((HEADER, ROW.replace(",15,", ",-3,")), "n_cells of auc_delong_pooled is not a positive"),
    ((HEADER, ROW.replace("0.88", "0.95")), "not min <= mean <= max"),
    ((HEADER, ROW + ",extra"), "a row has 12 fields, not 11"),
])
def test_a_broken_record_is_refused_whole(tmp_path, lines, detail):
    with pytest.raises(EngineError) as caught:
        read_record(_write(tmp_path, *lines))
    assert caught.value.code == "coverage_record" and detail in caught.value.fields["detail"]


def test_a_large_record_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "measured_coverage.csv"
    path.write_bytes(b"x" * (coverage_record.MAX_BYTES + 1))
    with pytest.raises(EngineError, match="larger than"):
        read_record(path)


def test_no_text_tells_the_reader_to_read_95_as_90():
    """The corrected t over the folds is the AUC interval shown first; no help, doc or
    README page asks the reader to discount a 95% interval any more."""
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[1]
    pages = [root / "README.md", *sorted((root / "resources" / "help").glob("*.html")),
             *sorted((root / "docs").glob("*.md"))]
    for page in pages:
        words = " ".join(page.read_text(encoding="utf-8").split())
        assert "as roughly a 90" not in words and "read 95% as 90%" not in words, page


@pytest.mark.parametrize("interval", ["subgroup_score", "nested_cv"])
def test_the_shipped_record_labels_subgroup_and_nested_intervals_with_their_study(interval):
    """The study measured these two (docs/coverage.md, "Subgroup scores and nested CV"):
    the words of the app and the report are the record's row, read independently here."""
    import csv

    from engine.output.report.intervals import coverage_sentence

    with open(coverage_record.PATH, encoding="utf-8", newline="") as handle:
        (row,) = [r for r in csv.DictReader(handle) if r["interval"] == interval]
    low, high = float(row["coverage_min"]), float(row["coverage_max"])
    span = (f"{low:.1%}" if low == high else f"{low * 100:.1f}–{high:.1%}")
    cells = f"{row['n_cells']} cell" + ("" if row["n_cells"] == "1" else "s")
    words = (f"covered {span} in the study ({cells}, {row['repetitions_per_cell']} "
             f"repetitions per cell, at 95%)")
    assert coverage_words(interval) == words
    assert coverage_sentence(interval) == f"This interval {words}."
    assert words in interval_label(interval, 0.95)
    inside = 0.93 <= low and high <= 0.97
    assert level_words(interval, 0.95) == ("95%" if inside else f"{span} measured")
