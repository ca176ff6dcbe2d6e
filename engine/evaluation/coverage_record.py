"""The coverage each interval reached in the coverage study, and the words that say so.

``engine/evaluation/measured_coverage.csv`` is written by the study
(``tests/benchmarks/coverage_study.py --write-record``) and shipped with the app. Columns
(exactly these, in this order): ``interval, method, estimand, level, coverage_min,
coverage_max, coverage_mean, n_cells, repetitions_per_cell, study_date, command``; one row
per interval id of :data:`engine.evaluation.estimands.INTERVALS`. A missing row means "not
measured": the words then say so and never invent a figure.

The file is ours, but it is read strictly all the same: at most :data:`MAX_BYTES`, the exact
header, known interval ids once each, coverages and level in [0, 1] with min ≤ mean ≤ max,
positive whole counts. A file that breaks a rule is refused whole (``coverage_record``).
"""
from __future__ import annotations

import csv
import functools
import io
import math
from dataclasses import dataclass
from pathlib import Path

from engine.evaluation.estimands import INTERVALS, estimand_words
from engine.foundation.errors import EngineError

__all__ = ["COLUMNS", "MAX_BYTES", "PATH", "Coverage", "coverage_words", "interval_label",
           "level_words", "measured", "read_record"]

PATH = Path(__file__).with_name("measured_coverage.csv")
COLUMNS = ["interval", "method", "estimand", "level", "coverage_min", "coverage_max",
           "coverage_mean", "n_cells", "repetitions_per_cell", "study_date", "command"]
#: The largest record read (a row per interval id is a few kilobytes).
MAX_BYTES = 256 * 1024
#: A measured coverage inside this range may be called by its nominal level (95%).
NOMINAL_BAND = (0.93, 0.97)
_MAX_TEXT = 1000


@dataclass(frozen=True)
class Coverage:
    """One interval's row of the record."""

    interval: str
    method: str
    estimand: str
    level: float
    coverage_min: float
    coverage_max: float
    coverage_mean: float
    n_cells: int
    repetitions_per_cell: int
    study_date: str
    command: str

    def inside_nominal(self) -> bool:
        """True when every cell covered between 93% and 97%."""
        low, high = NOMINAL_BAND
        return low <= self.coverage_min and self.coverage_max <= high


def _refuse(path, detail: str) -> EngineError:
    return EngineError("coverage_record", {"path": str(path), "detail": detail},
                       f"The coverage record {path} cannot be used: {detail}.")


def _share(path, row: dict, name: str) -> float:
    try:
        value = float(row[name])
    except ValueError:
        raise _refuse(path, f"{name} of {row['interval']} is not a number") from None
    if not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise _refuse(path, f"{name} of {row['interval']} is not between 0 and 1")
    return value


def _count(path, row: dict, name: str) -> int:
    text = row[name]
    if not (text.isdigit() and 0 < int(text) <= 10 ** 9):
        raise _refuse(path, f"{name} of {row['interval']} is not a positive whole number")
    return int(text)


def _coverage(path, row: dict) -> Coverage:
    if row["interval"] not in INTERVALS:
        raise _refuse(path, f"unknown interval id {row['interval'][:40]!r}")
    if any(len(value) > _MAX_TEXT for value in row.values()):
        raise _refuse(path, f"a field of {row['interval']} is longer than {_MAX_TEXT}")
    shares = {n: _share(path, row, n) for n in
              ("level", "coverage_min", "coverage_max", "coverage_mean")}
    if not shares["coverage_min"] <= shares["coverage_mean"] <= shares["coverage_max"]:
        raise _refuse(path, f"coverage of {row['interval']} is not min <= mean <= max")
    return Coverage(interval=row["interval"], method=row["method"],
                    estimand=row["estimand"], **shares,
                    n_cells=_count(path, row, "n_cells"),
                    repetitions_per_cell=_count(path, row, "repetitions_per_cell"),
                    study_date=row["study_date"], command=row["command"])


def read_record(path=PATH) -> dict:
    """``{interval id: Coverage}`` of a record file.

    Raises
    ------
    EngineError
        Code ``coverage_record``: unreadable, too large, another header, an unknown or
        repeated id, a number out of bounds.
    """
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as error:
        raise _refuse(path, f"it cannot be read ({error.strerror})") from None
    if len(raw) > MAX_BYTES:
        raise _refuse(path, f"it is larger than {MAX_BYTES} bytes")
    try:
        reader = csv.reader(io.StringIO(raw.decode("utf-8")))
        header, rows = next(reader, []), list(reader)
    except (UnicodeDecodeError, csv.Error):
        raise _refuse(path, "it is not a UTF-8 CSV file") from None
    if header != COLUMNS:
        raise _refuse(path, "its columns are not " + ", ".join(COLUMNS))
    out = {}
    for values in rows:
        if len(values) != len(COLUMNS):
            raise _refuse(path, f"a row has {len(values)} fields, not {len(COLUMNS)}")
        coverage = _coverage(path, dict(zip(COLUMNS, values)))
        if coverage.interval in out:
            raise _refuse(path, f"interval {coverage.interval} is listed twice")
        out[coverage.interval] = coverage
    return out


@functools.lru_cache(maxsize=1)
def measured() -> dict:
    """The shipped record, read once (:func:`read_record`)."""
    return read_record(PATH)


def _record(record) -> dict:
    return measured() if record is None else record


def coverage_words(interval: str, *, record=None) -> str:
    """"covered 93.8–95.9% in the study (15 cells, 500 repetitions per cell)", or
    "coverage not yet measured" when the record has no row for ``interval``."""
    row = _record(record).get(interval)
    if row is None:
        return "coverage not yet measured"
    span = _percent_span(row.coverage_min, row.coverage_max)
    what = "erred" if INTERVALS[interval].estimand is None else "covered"
    cells = f"{row.n_cells} cell" + ("" if row.n_cells == 1 else "s")
    return (f"{what} {span} in the study ({cells}, "
            f"{row.repetitions_per_cell} repetitions per cell, at {row.level:.0%})")


def level_words(interval: str, level: float, *, record=None) -> str:
    """What to call the interval's level: ``"95%"`` when the study measured it between 93%
    and 97% at that level, or when it was not measured; else the measured figure
    (``"88.0–91.8% measured"``); a band that claims no level says so."""
    kind = INTERVALS[interval]
    row = _record(record).get(interval)
    if not kind.nominal:
        return "no stated level"
    if row is None or not math.isclose(row.level, level) or row.inside_nominal():
        return f"{level:.0%}"
    return f"{_percent_span(row.coverage_min, row.coverage_max)} measured"


def interval_label(interval: str, level: float, *, record=None) -> str:
    """One line for a report or a tooltip: method, estimand and measured coverage."""
    kind = INTERVALS[interval]
    about = (f"estimand: {estimand_words(kind.estimand)}" if kind.estimand
             else "an error rate under the null")
    what = (f"{level_words(interval, level, record=record)} interval" if kind.nominal
            else "Band" if kind.estimand else "Error rate")
    return f"{what}: {kind.method}; {about}; {coverage_words(interval, record=record)}."


def _percent_span(low: float, high: float) -> str:
    if math.isclose(low, high):
        return f"{low:.1%}"
    return f"{low * 100:.1f}–{high:.1%}"
