"""Interval labels on the Results views' tables: each interval column's header tooltip
names the method, the estimand and the coverage the study measured
(:func:`engine.evaluation.coverage_record.interval_label`), and an ``estimand`` column shows
its sentence instead of its code."""
from __future__ import annotations

from engine.evaluation.coverage_record import interval_label
from engine.evaluation.estimands import estimand_words

__all__ = ["label_intervals"]


def label_intervals(panel, interval_ids, level: float, columns=("ci_low", "ci_high"),
                    record=None) -> None:
    """Label ``panel``'s interval ``columns`` (a :class:`gui.table_panel.TablePanel`) with
    the labels of ``interval_ids`` at ``level``, and show its estimand codes as words."""
    tip = "\n".join(interval_label(i, level, record=record) for i in interval_ids)
    panel.model.set_header_tips({c: tip for c in (*columns, "estimand")})
    panel.model.show_column_as("estimand", estimand_words)
