"""The pre-run check's fixes applied to the window's setup (:class:`gui.state.AppState`).

:func:`engine.runs.preflight.apply_fix` changes an experiment file's JSON object; here the
same change goes into the state, which tells every tab (the Models tab shows the new
model options, the Cross-validation tab the metrics and folds).
"""
from __future__ import annotations

from dataclasses import replace

from engine.runs.preflight import apply_fix


def apply_to_state(state, fix) -> None:
    """Apply ``fix`` (an :class:`engine.runs.preflight.Fix`) to ``state``."""
    setup = {"models": [dict(entry) for entry in state.model_entries],
             "metrics": list(state.metrics), "cv": {"n_splits": state.cv.n_splits}}
    fixed = apply_fix(setup, fix)
    if fix.kind == "metric":
        state.metrics_named = True            # chosen now: new data keep them
        state.set_cv(state.cv, tuple(fixed["metrics"]), state.n_jobs)
    elif fix.kind == "folds":
        state.set_cv(replace(state.cv, n_splits=fixed["cv"]["n_splits"]), state.metrics,
                     state.n_jobs)
    else:
        state.set_model_entries(fixed["models"])
