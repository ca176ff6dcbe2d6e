"""The Cross-validation tab's repeats box with its "auto" choice (issue #41).

The box's lowest value, 0, is shown as ``auto (stop at 2% precision, at most 10)``: the
experiment's ``"n_repeats": "auto"`` (:mod:`engine.evaluation.auto_repeats`), the default
for new data. Its most repeats and precision are the state's (an experiment file may set
others), else the defaults.
"""
from __future__ import annotations

from dataclasses import replace

from engine.evaluation.auto_repeats import DEFAULT_MAX_REPEATS, DEFAULT_PRECISION
from engine.evaluation.cv import CVConfig

#: The repeats box's value that stands for "auto".
AUTO = 0


def auto_text(cv: CVConfig) -> str:
    """``auto (stop at 2% precision, at most 10)`` for ``cv``'s, or the default, settings."""
    precision = cv.auto_precision or DEFAULT_PRECISION
    most = cv.n_repeats if cv.auto_precision is not None else DEFAULT_MAX_REPEATS
    return f"auto (stop at {precision:.0%} precision, at most {most})"


def show_repeats(box, cv: CVConfig) -> None:
    """Show ``cv``'s repeats in ``box``: its "auto" choice, or the number."""
    box.setSpecialValueText(auto_text(cv))
    box.setValue(AUTO if cv.auto_precision is not None else cv.n_repeats)


def with_repeats(cv: CVConfig, value: int) -> CVConfig:
    """``cv`` with the repeats the box shows: "auto" keeps ``cv``'s most repeats and
    precision (the defaults when it had none); a number is a fixed run."""
    if value != AUTO:
        return replace(cv, n_repeats=value, auto_precision=None)
    if cv.auto_precision is not None:
        return cv
    return replace(cv, n_repeats=DEFAULT_MAX_REPEATS, auto_precision=DEFAULT_PRECISION)


def plan_words(cv: CVConfig) -> str:
    """What the count means with "auto": the most, since the run may stop early."""
    if cv.auto_precision is None:
        return ""
    return (f' ("auto" may stop before {cv.n_repeats} repeats, when one more would narrow '
            f"no interval by {cv.auto_precision:.0%}: these are the most)")
