"""Issue #43: a large file's scatter sample is styled a few thousand points a turn of the
event loop, and a preview's columns are fitted to their longest texts."""
import numpy as np
import pandas as pd

from gui.plots.scatter_plot import POINTS_PER_TURN, FeatureScatterPlot
from gui.render_queue import NEXT_TURN
from gui.table_panel import TablePanel


def sample(n=5000):
    rng = np.random.default_rng(0)
    return rng.normal(size=n), rng.normal(size=n), rng.integers(0, 2, size=n)


def test_the_scatter_of_5000_points_is_drawn_in_turns_and_shows_every_point(qtbot):
    plot = FeatureScatterPlot()
    qtbot.addWidget(plot)
    x, y, codes = sample()
    turns = list(plot.drawing_points(x, y, codes, ["no", "yes"], "x0", "x1"))
    assert turns and all(turn is NEXT_TURN for turn in turns)
    # each class: its first POINTS_PER_TURN points, then a turn for each further part
    per_class = [int(np.sum(codes == k)) for k in (0, 1)]
    assert len(turns) == sum(-(-n // POINTS_PER_TURN) - 1 for n in per_class)
    assert plot.points_shown() == 5000
    drawn = [item.getData() for item in plot.plot.listDataItems()[:2]]
    for k, (xs, ys) in enumerate(drawn):
        assert np.array_equal(xs, x[codes == k]) and np.array_equal(ys, y[codes == k])


def test_set_points_draws_the_same_points_at_once(qtbot):
    plot = FeatureScatterPlot()
    qtbot.addWidget(plot)
    x, y, codes = sample()
    x[3] = np.nan                                    # a missing value: left out
    plot.set_points(x, y, codes, ["no", "yes"], "x0", "x1")
    assert plot.points_shown() == 4999


def test_a_column_is_as_wide_as_its_longest_text(qtbot):
    panel = TablePanel("t", "t.csv")
    qtbot.addWidget(panel)
    words = ["ab"] * 30
    words[17] = "a much longer text than the others"
    panel.set_frame(pd.DataFrame({"c": words, "a long header": ["x"] * 30, "e": ["y"] * 30}))
    panel.fit_columns()
    metrics = panel.view.fontMetrics()
    assert panel.view.columnWidth(0) == metrics.horizontalAdvance(words[17]) + 24
    assert panel.view.columnWidth(1) == metrics.horizontalAdvance("a long header") + 24
