"""Tests for engine.evaluation.aloocv.path: the batched binary ALO curve and its warm starts.

The batched values are checked against the per-C formula (``L^{-1} x_i`` leverages),
which the other ALO tests check against scikit-learn refits and finite differences.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.special import softmax
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression

import engine.evaluation.aloocv.design as design_module
import engine.evaluation.aloocv.path as path
from engine.evaluation.aloocv import alo_curve, alo_log_likelihood
from engine.evaluation.aloocv.design import Design, hessian_multi, pair_products
from engine.foundation.progress import run_to_end


pytestmark = pytest.mark.usefixtures("one_blas_thread")


@pytest.fixture(scope="module")
def collinear():
    """30 redundant features of 40: H is ill-conditioned at large C."""
    return make_classification(300, 40, n_informative=5, n_redundant=30, random_state=0)


def _curve(X, y, Cs):
    return run_to_end(alo_curve(X, y, Cs))["alo_log_likelihood"].to_numpy()


def test_pair_products_order():
    X = np.arange(12.0).reshape(4, 3)
    Q = pair_products(X)
    rows, cols = np.triu_indices(3)
    np.testing.assert_array_equal(Q, (X[:, rows] * X[:, cols]).T)


def test_batched_curve_equals_per_C_formula(cancer, monkeypatch):
    X, y = cancer
    Cs = np.logspace(-3, 3, 13)
    assert path.batched(Design(X, y))
    batched = _curve(X, y, Cs)
    monkeypatch.setattr(design_module, "MAX_PAIR_ELEMENTS", 0)  # force one C at a time
    assert not path.batched(Design(X, y))
    np.testing.assert_allclose(batched, _curve(X, y, Cs), rtol=1e-9)
    for C, value in zip(Cs[::4], batched[::4]):
        assert value == pytest.approx(alo_log_likelihood(X, y, C), rel=1e-9)


def test_ill_conditioned_C_values_fall_back(collinear, monkeypatch):
    X, y = collinear
    Cs = np.logspace(-3, 5, 9)
    design = Design(X, y)
    thetas = np.array(list(path.fits_along(design, Cs)))
    batched = path.alo_batch(design, Cs, thetas)
    assert np.isnan(batched[-2:]).all() and np.isfinite(batched[:5]).all()  # large C rejected
    curve = _curve(X, y, Cs)
    reference = [alo_log_likelihood(X, y, C) for C in Cs]
    np.testing.assert_allclose(curve, reference, rtol=1e-8)
    monkeypatch.setattr(path, "MIN_RCOND", 1.0)               # reject every C: all per C
    assert np.isnan(path.alo_batch(design, Cs, thetas)).all()
    np.testing.assert_allclose(_curve(X, y, Cs), reference, rtol=1e-8)


def test_fits_along_match_sklearn(cancer):
    X, y = cancer
    Cs = [0.01, 0.1, 1.0, 10.0]
    design = Design(X, y)
    for C, theta in zip(Cs, path.fits_along(design, np.array(Cs))):
        ref = LogisticRegression(C=C, tol=1e-12, max_iter=10000,
                                 solver="newton-cholesky").fit(X, y)
        np.testing.assert_allclose(theta[:-1], ref.coef_[0], rtol=1e-6, atol=1e-8)
        assert theta[-1] == pytest.approx(ref.intercept_[0], rel=1e-6, abs=1e-8)


def test_cubic_predictor_beats_quadratic(cancer):
    """Hermite (values and tangents at two points) predicts the next fit better than the
    tangent-plus-secant-curvature Taylor step it replaced."""
    X, y = cancer
    design = Design(X, y)
    Cs = np.logspace(-2, 1, 13)                           # steps of 0.58 in log C
    points, errors = [], []
    for C, theta in zip(Cs, path.fits_along(design, Cs)):
        t, lam = float(np.log(C)), 1.0 / C
        p = 1.0 / (1.0 + np.exp(-design.Xb @ theta))
        H = path.hessian_binary(design.Xb, p * (1.0 - p), lam, design.pen)
        tangent = lam * np.linalg.solve(H, design.pen * theta)
        if len(points) >= 2:
            before, last = points[-2], points[-1]
            cubic, _ = path.predict_start(design, t, path.path_point(before, last.t, last.theta,
                                                                     last.tangent))
            dt = t - last.t
            secant = (last.tangent - before.tangent) / (last.t - before.t)
            quadratic = last.theta + last.tangent * dt + 0.5 * secant * dt ** 2
            errors.append((np.abs(cubic - theta).max(), np.abs(quadratic - theta).max()))
        points.append(path.PathPoint(t, theta, tangent=tangent))
    cubic, quadratic = np.array(errors).T
    assert np.median(quadratic / cubic) > 2.0 and (cubic < quadratic).mean() > 0.8


def test_separable_curve_is_finite():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    X[:, 0] += np.where(y == 1, 1.0, -1.0)
    Cs = np.logspace(-3, 8, 12)
    curve = _curve(X, y, Cs)
    assert np.isfinite(curve).all() and (curve <= 0).all()
    reference = [alo_log_likelihood(X, y, C) for C in Cs]     # fits to gradient 1e-10:
    np.testing.assert_allclose(curve, reference, rtol=1e-6, atol=1e-8)  # ALO ~1e-6 at C=1e8


def test_multinomial_hessian_from_pair_products(request):
    X, y = request.getfixturevalue("wine")
    design = Design(X, y)
    P = softmax(design.Xb @ np.random.default_rng(0).normal(size=(design.d, 3)), axis=1)
    plain = hessian_multi(design.Xb, P, 0.5, design.pen)
    fast = hessian_multi(design.Xb, P, 0.5, design.pen, design.pairs)
    np.testing.assert_allclose(fast, plain, rtol=0, atol=1e-12 * np.abs(plain).max())
    np.testing.assert_array_equal(fast, fast.T)


def test_fits_fall_back_to_the_damped_solver(cancer, monkeypatch):
    X, y = cancer
    Cs = np.logspace(-3, 3, 9)
    design = Design(X, y)
    far = np.full(design.d, 50.0)                             # full steps diverge from here
    theta, factor, converged = path.full_steps(design, design.Xb.T.copy(),
                                                design.y.astype(float), 1.0, far, 1e-10)
    assert not converged and factor is None and np.isfinite(theta).all()
    lean = np.array(list(path.fits_along(design, Cs)))
    monkeypatch.setattr(path, "MAX_FULL_STEPS", 1)          # every fit hands over
    damped = np.array(list(path.fits_along(design, Cs)))
    np.testing.assert_allclose(damped, lean, rtol=1e-8, atol=1e-10)
