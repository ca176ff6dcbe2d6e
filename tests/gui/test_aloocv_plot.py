"""The ALO curve plot keeps an unreliable extreme point from flattening the curve."""
import numpy as np

from gui.plots.aloocv_plot import AloocvPlot


def test_unreliable_points_are_marked_and_left_out_of_the_scale(qtbot):
    plot = AloocvPlot()
    qtbot.addWidget(plot)
    plot.resize(700, 450)
    C = np.geomspace(1e-3, 1e3, 7)
    alo = np.array([-60.0, -45.0, -38.0, -36.0, -37.0, -40.0, -150_000.0])
    reliable = alo > -1000
    plot.show_curve(C, alo, best_C=C[3], best_value=alo[3], reliable=reliable)
    x, y = plot.alo_item.getData()
    assert np.isnan(y[-1]) and np.allclose(y[:-1], alo[:-1])
    xu, yu = plot.unreliable_item.getData()
    assert list(yu) == [-150_000.0]
    plot.plot.getViewBox().updateAutoRange()
    low, high = plot.plot.getViewBox().viewRange()[1]
    assert low > -100 and high < 0                   # the scale is set by the good points
    plot.show_curve(C, alo[:-1].tolist() + [-41.0])  # without flags: one plain line
    assert len(plot.unreliable_item.getData()[1] or []) == 0
