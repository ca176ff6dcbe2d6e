"""ALOOCV on data as users have it: unscaled columns, three classes, separable data."""
import os
import warnings

import numpy as np
import pytest

from engine.evaluation.aloocv import alo_log_likelihood, exact_loo_log_likelihood
from engine.evaluation.aloocv import prepared_matrix, reliable_points, run_aloocv
from engine.evaluation.catalogue import ModelSpec
from engine.input.data import load_csv
from engine.evaluation.experiment import AloocvSettings
from engine.foundation.progress import run_to_end

PENGUINS = os.path.join(os.path.dirname(__file__), "data", "penguins.csv")


@pytest.mark.parametrize("scale", [False, True])
def test_three_class_penguins_curve_is_finite_and_quiet(scale):
    data = load_csv(PENGUINS, target="species")
    spec = ModelSpec("logistic", "LogisticRegression", {}, scale)
    with warnings.catch_warnings():
        warnings.simplefilter("error")              # nothing reaches the terminal
        result = run_to_end(run_aloocv(data, [spec], AloocvSettings(n_C=30)))
    curve = result.curve
    assert np.isfinite(curve["alo_log_likelihood"]).all() and curve["alo_reliable"].all()
    best = result.optimum.iloc[0]
    X = prepared_matrix(data, spec)
    # the optimum's value is ALO recomputed from a fresh fit, and beats the curve's grid
    assert best["alo_log_likelihood"] == pytest.approx(alo_log_likelihood(X, data.y, best["C"]),
                                                       rel=1e-6)
    assert best["alo_log_likelihood"] >= curve["alo_log_likelihood"].max() - 1e-6
    # the curve's points equal single fits (no drift carried along the path)
    for C, value in curve.iloc[[0, 12, 29]][["C", "alo_log_likelihood"]].to_numpy():
        assert value == pytest.approx(alo_log_likelihood(X, data.y, C), rel=1e-6)


def test_alo_tracks_exact_loo_on_penguins():
    data = load_csv(PENGUINS, target="species")
    X = prepared_matrix(data, ModelSpec("logistic", "LogisticRegression", {}, True))
    for C in (0.01, 1.0):
        alo, loo = alo_log_likelihood(X, data.y, C), exact_loo_log_likelihood(X, data.y, C)
        assert alo == pytest.approx(loo, rel=0.02)


def test_points_far_below_the_class_frequency_baseline_are_unreliable():
    y = np.array([0] * 30 + [1] * 10)
    baseline = 30 * np.log(0.75) + 10 * np.log(0.25)            # about -22.49
    alo = np.array([-20.0, -10.0, 2 * baseline + 0.1, 2 * baseline - 0.1, -150_000, np.nan])
    assert reliable_points(alo, y).tolist() == [True, True, True, False, False, False]
