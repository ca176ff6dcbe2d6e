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
        notes.append(Note("subgroup_small", fields={
            "subgroups": [[str(c), str(s), int(n)] for c, s, n in
                          zip(small["column"], small["subgroup"], small["n_rows"])],
            "min_rows": MIN_ROWS, "min_events": MIN_EVENTS}))
    features = [str(c) for c, f in zip(columns["column"], columns["is_feature"]) if f]
    others = [str(c) for c, f in zip(columns["column"], columns["is_feature"]) if not f]
    notes.append(Note("subgroup_columns", fields={"features": features, "left_out": others}))
    return tuple(notes)

