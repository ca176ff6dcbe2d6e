"""The notes of the subgroup tables: which subgroups get no verdict, which columns the
models learn from. No sentence calls a model fair."""
from __future__ import annotations

import pandas as pd

from engine.evaluation.subgroups.tables import MIN_EVENTS, MIN_ROWS
from engine.foundation.notes import Note


def subgroup_notes(scores: pd.DataFrame, columns: pd.DataFrame) -> tuple:
    """``subgroup_small`` naming the subgroups without a verdict, and
    ``subgroup_columns`` saying which columns the models learn from."""
    notes = []
    small = scores[~scores["verdict_allowed"].astype(bool)].drop_duplicates(
        ["column", "subgroup"])
    if len(small):
        named = [f"{row.column} {row.subgroup} ({row.n_rows} rows)"
                 for row in small.itertuples()]
        notes.append(Note("subgroup_small", f"subgroups with fewer than {MIN_ROWS} rows or "
                          f"fewer than {MIN_EVENTS} rows of a class get no verdict, their "
                          "scores are shown but too uncertain to rank: " + "; ".join(named),
                          {"subgroups": [[str(c), str(s), int(n)] for c, s, n in
                                         zip(small["column"], small["subgroup"],
                                             small["n_rows"])],
                           "min_rows": MIN_ROWS, "min_events": MIN_EVENTS}))
    features = [str(c) for c, f in zip(columns["column"], columns["is_feature"]) if f]
    others = [str(c) for c, f in zip(columns["column"], columns["is_feature"]) if not f]
    parts = []
    if features:
        parts.append(", ".join(features) + " (a feature the models learn from)")
    if others:
        parts.append(", ".join(others) + " (left out of the models)")
    notes.append(Note("subgroup_columns", "subgroups by " + "; ".join(parts),
                      {"features": features, "left_out": others}))
    return tuple(notes)

