"""The cross-validation run, live: every fold's score as it arrives, then a summary strip.

During a run each finished fold adds a point to its model's line (x: the fold in
split order, y: the primary metric), so a user sees the scores, and how they move
together across folds, while the run goes on. When the run is over the plot shows
every fold's score of each model as a strip of points with its mean ± one std.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from engine.verdict import metric_label

from .class_counts_plot import PlotHint
from .plot_panel import PlotPanel, colour


class LiveScoresPlot(PlotPanel):
    """Fold scores per model during a run; every fold's score per model after it."""

    IDLE_HINT = ("Press Run to cross-validate the models. Each fold's score is drawn here as "
                 "it arrives; afterwards every fold's score of every model.")

    def __init__(self, parent=None):
        super().__init__("Run", "cv_run.png", parent, x_label="CV test fold",
                         y_label="score")
        self.lines: dict = {}
        self.fold_points = pg.ScatterPlotItem(size=5, pen=pg.mkPen(None))
        self.mean_points = pg.ScatterPlotItem(size=11, symbol="d", brush=pg.mkBrush("#222"),
                                              pen=pg.mkPen("w"))
        self.spread = pg.ErrorBarItem(x=np.zeros(0), y=np.zeros(0), pen=pg.mkPen("#222", width=2))
        for item in (self.fold_points, self.spread, self.mean_points):
            self.plot.addItem(item)
            item.setVisible(False)
        self._points: dict = {}
        self._metric = ""
        self._n_splits = 1
        self._scores = None
        self.hint = PlotHint(self, self.IDLE_HINT)

    # -- during the run
    def start(self, models: list, metric: str, n_splits: int, n_repeats: int) -> None:
        """Empty lines for the models of a new run (line items are reused across runs)."""
        self._scores, self._metric, self._n_splits = None, metric, n_splits
        self._points = {name: ([], []) for name in models}
        self._set_score_items_visible(False)
        self.legend.clear()
        for line in self.lines.values():
            line.setData([], [])
            line.setVisible(False)
        for i, name in enumerate(models):
            line = self._line(i)
            line.setVisible(True)
            self.legend.addItem(line, name)
        self.title.setText(f"<b>Run in progress: {metric_label(metric)} on each fold as it "
                           "finishes</b>")
        self.plot.setLabel("bottom", f"CV test fold (in split order; {n_splits} folds × "
                                     f"{n_repeats} repeats)")
        self.plot.setLabel("left", f"{metric_label(metric)} (per fold)")
        self.plot.setXRange(0.5, n_splits * n_repeats + 0.5, padding=0.01)
        self.plot.enableAutoRange(axis="y")
        self.hint.hide()

    def _line(self, i: int):
        if i not in self.lines:
            # thin lines without markers: a run redraws this plot ten times a second
            self.lines[i] = self.plot.plot([], [], pen=pg.mkPen(colour(i), width=1))
        return self.lines[i]

    def add_fold_scores(self, details: list) -> None:
        """Add finished folds: dicts with ``model, repeat, fold, scores`` (engine.cv)."""
        changed = set()
        for detail in details:
            points = self._points.get(detail.get("model"))
            score = detail.get("scores", {}).get(self._metric)
            if points is None or score is None:
                continue
            points[0].append(detail["repeat"] * self._n_splits + detail["fold"] + 1)
            points[1].append(score)
            changed.add(detail["model"])
        for i, name in enumerate(self._points):
            if name in changed:
                x, y = self._points[name]
                order = np.argsort(x, kind="stable")
                self._line(i).setData(np.asarray(x)[order], np.asarray(y, dtype=float)[order])

    # -- after the run
    def show_fold_scores(self, cv_result) -> None:
        """Every fold's primary-metric score, one column of points per model, mean ± std."""
        matrix = cv_result.score_matrix()
        self._scores = matrix
        for line in self.lines.values():
            line.setData([], [])
            line.setVisible(False)
        self.legend.clear()
        x_all, y_all, brushes = [], [], []
        rng = np.random.default_rng(0)
        means, stds = [], []
        for i, (_, row) in enumerate(matrix.iterrows()):
            values = row.to_numpy(dtype=float)
            values = values[np.isfinite(values)]
            x_all.append(i + rng.uniform(-0.18, 0.18, len(values)))
            y_all.append(values)
            brushes += [pg.mkBrush(pg.mkColor(colour(i)).lighter(110))] * len(values)
            means.append(values.mean() if len(values) else np.nan)
            stds.append(values.std(ddof=1) if len(values) > 1 else 0.0)
        x = np.arange(len(matrix))
        self.fold_points.setData(np.concatenate(x_all) if x_all else [],
                                 np.concatenate(y_all) if y_all else [], brush=brushes)
        self.mean_points.setData(x, means)
        self.spread.setData(x=x, y=np.asarray(means), height=2 * np.asarray(stds), beam=0.25)
        self._set_score_items_visible(True)
        self.plot.getAxis("bottom").setTicks([[(i, str(n)) for i, n in enumerate(matrix.index)]])
        config = cv_result.config
        metric = cv_result.primary_metric
        self.title.setText(f"<b>Score on each fold: {metric_label(metric)}, {config.n_splits} folds × "
                           f"{config.n_repeats} repeats</b> — dots: folds; ◆ and bar: "
                           "mean ± 1 std")
        self.plot.setLabel("bottom", "model")
        self.plot.setLabel("left", f"{metric_label(metric)} (per fold)")
        self.plot.setXRange(-0.6, len(matrix) - 0.4, padding=0)
        self.plot.enableAutoRange(axis="y")
        self.hint.hide()

    def _set_score_items_visible(self, visible: bool) -> None:
        for item in (self.fold_points, self.mean_points, self.spread):
            item.setVisible(visible)
        if not visible:
            self.plot.getAxis("bottom").setTicks(None)

    def reset(self, hint: str = IDLE_HINT) -> None:
        self._set_score_items_visible(False)
        for line in self.lines.values():
            line.setData([], [])
        self.legend.clear()
        self.title.setText("<b>Run</b>")
        self.hint.show(hint)

    def describe_point(self, x: float, y: float) -> str:
        if self._scores is None:
            return (f"fold {x:.0f}: {metric_label(self._metric)} {y:.4f}" if self._points
                    else "")
        i = int(round(x))
        if not 0 <= i < len(self._scores):
            return ""
        values = self._scores.iloc[i].to_numpy(dtype=float)
        return (f"{self._scores.index[i]}: mean {np.nanmean(values):.4f}, "
                f"min {np.nanmin(values):.4f}, max {np.nanmax(values):.4f} "
                f"over {np.isfinite(values).sum()} folds")
