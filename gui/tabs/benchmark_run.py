"""The Cross-validation tab's run of an experiment with several data sets.

The run itself goes through :mod:`gui.tabs.run_job` like a single data set's; here: every
data set's result prepared for display in the run's process (:class:`PrepareEach`), the
words of the fit count and of the progress, and the live plot of the progress, data set by
data set. The outcome goes into the state with ``AppState.set_benchmark``.
"""
from __future__ import annotations

from html import escape

from engine.runs.benchmark import DatasetStep
from engine.evaluation.verdict import metric_label


class PrepareEach:
    """A ``prepare`` hook for a :class:`~engine.runs.benchmark.BenchmarkResult`: its notes, and
    ``prepare`` (a single run's hook) on every data set's result."""

    def __init__(self, prepare):
        self.prepare = prepare

    def __call__(self, result):
        result.notes                               # noqa: B018 - a cached property
        for each in result.results:
            self.prepare(each)
        return result

    def __repr__(self) -> str:
        return f"PrepareEach({self.prepare!r})"


def fit_count_text(plan, k: int, r: int, datasets) -> str:
    """What Run computes, in words, from the run's :class:`engine.runs.run_plan.RunPlan`:
    ``Run computes: 4 models × 10 folds × 10 repeats = 400 fits on 100 rows``, with the
    grid members refitted as plain models, the searches' inner fits, the second run
    without the groups when there are any and the held-out test's final fits."""
    n, members = len(datasets), plan.datasets[0].fits // max(k * r, 1) - plan.n_models
    what = f"{plan.n_models} models"
    if members > 0:
        what = f"({what} + {members} grid members refitted as plain models)"
    rows = sum(dataset.n_rows for dataset in datasets)
    text = f"Run computes: {what} × {k} folds × {r} repeats"
    text += (f" × {n} data sets = {plan.fits:,} fits on {rows:,} rows in all" if n > 1 else
             f" = {plan.fits:,} fits on {rows:,} rows")
    if plan.inner_fits:
        text += f"; the searches inside the folds add {plan.inner_fits:,} smaller fits"
    if plan.ungrouped_fits:
        text += f"; then {plan.ungrouped_fits:,} fits again without the groups"
    if plan.final_fits:
        text += (f"; then {plan.final_fits:,} fits on all training rows for the held-out "
                 "test")
    return text


def progress_text(progress, elapsed: str, remaining: str) -> str:
    """``fit 120 of 400 — model …``: where a run is; for a run of several data sets
    (``progress.detail`` a :class:`~engine.runs.benchmark.DatasetStep`) first ``data set 2 of
    6: circles — ``."""
    step = progress.detail if isinstance(progress.detail, DatasetStep) else None
    where = (f"data set {step.index + 1} of {step.n_datasets}: {step.name} — "
             if step is not None else "")
    label = step.record.label if step is not None else progress.label
    return (f"{where}fit {progress.done:,} of {progress.total:,} — {label} — elapsed "
            f"{elapsed}, about {remaining} left")


class LivePlotFeed:
    """Feeds a :class:`~gui.plots.live_scores_plot.LiveScoresPlot` the fold scores of a run
    of several data sets: the plot starts again for each data set, its name in the title."""

    def __init__(self, plot, experiment, renderer=None):
        self.plot, self.experiment, self.renderer = plot, experiment, renderer
        self.index = None

    def add(self, steps: list) -> None:
        """Add a batch of :class:`~engine.runs.benchmark.DatasetStep` records."""
        batch = []
        for step in steps:
            if step.index != self.index:
                self._flush(batch)
                self._start(step)
            if step.record.detail is not None:
                batch.append(step.record.detail)
        self._flush(batch)

    def _flush(self, batch: list) -> None:
        if batch:
            self.plot.add_fold_scores(list(batch))
            batch.clear()

    def _start(self, step) -> None:
        experiment, metric = self.experiment, self.experiment.metrics[0]
        self.index = step.index
        self.plot.start([m.name for m in experiment.models], metric, experiment.cv.n_splits,
                        experiment.cv.n_repeats, renderer=self.renderer)
        self.plot.title.setText(f"<b>Data set {step.index + 1} of {step.n_datasets}, "
                                f"{escape(step.name)}: {metric_label(metric)} on each fold as "
                                "it finishes</b>")
