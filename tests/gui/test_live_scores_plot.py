"""The live plot of a run: before the first fold its score axis is the metric's possible
range, not the rows of the last run's strip (which ran 0 to 4 for four models)."""
from types import SimpleNamespace

import numpy as np
import pandas as pd

from engine.evaluation.cv import CVConfig, FoldScores
from gui.plots.live_scores_plot import LiveScoresPlot, waiting_range


def y_range(plot) -> list:
    return plot.plot.getViewBox().viewRange()[1]


def test_a_new_run_starts_on_the_metric_range_not_the_last_strip(qtbot):
    plot = LiveScoresPlot()
    qtbot.addWidget(plot)
    plot.resize(800, 400)
    plot.show()
    qtbot.waitExposed(plot)
    scores = pd.DataFrame(np.full((4, 10), 0.8), index=["a", "b", "c", "d"])
    last = SimpleNamespace(score_matrix=lambda: scores, config=CVConfig(10, 1),
                           primary_metric="roc_auc")
    plot.show_fold_scores(last)
    qtbot.waitUntil(lambda: y_range(plot) == [-0.6, 3.6], timeout=5000)   # the strip's rows
    plot.start(["a", "b", "c", "d"], "roc_auc", 10, 3)
    low, high = y_range(plot)
    assert -0.05 < low < 0 and 1 < high < 1.05                           # 0 to 1, padded
    plot.add_fold_scores([FoldScores("a", 1, 1, {"roc_auc": 0.7}),
                          FoldScores("a", 1, 2, {"roc_auc": 0.75})])
    qtbot.waitUntil(lambda: y_range(plot)[1] < 0.9, timeout=5000)      # then the folds'
    assert waiting_range("neg_log_loss") == (-1.0, 0.0)
    assert waiting_range("matthews_corrcoef") == (-1.0, 1.0)
