"""Tests for engine.evaluation.aloocv.exact: the vectorized multinomial exact LOO.

References: warm-started Newton refits row by row (``_rowwise`` below; the same refit
finishes rows the chord iteration does not), explicit leave-one-out Newton steps, the
ALO formula and scikit-learn refits without each row.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.special import logsumexp
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

import engine.evaluation.aloocv.exact as exact
from engine.evaluation.aloocv import alo_log_likelihood
from engine.evaluation.aloocv.design import Design, hessian_multi
from engine.evaluation.aloocv.solver import solve


pytestmark = pytest.mark.usefixtures("one_blas_thread")


@pytest.fixture(scope="module", params=["iris", "wine"])
def data(request):
    return request.getfixturevalue(request.param)


def _fitted(X, y, C, tol=1e-10):
    design, lam = Design(X, y), 1.0 / C
    return design, lam, solve(design, lam, design.zeros(), tol=tol)[0]


def _rowwise(design, lam, Theta, tol=1e-10):
    """Per-row exact LOO log-likelihoods from a warm-started Newton refit per row."""
    out = np.empty(design.n)
    for i in range(design.n):
        u = design.Xb[i] @ exact.refit_without(design, lam, Theta, i, tol)
        out[i] = u[design.y[i]] - logsumexp(u)
    return out


def _assert_matches_rows(design, lam, Theta):
    fast = exact.exact_loo_multi(design, lam, Theta)
    ref = _rowwise(design, lam, Theta)
    np.testing.assert_allclose(fast, ref, rtol=1e-8, atol=1e-11)


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0, 100.0])
def test_vectorized_matches_row_loop(data, C):
    _assert_matches_rows(*_fitted(*data, C))


def test_start_is_one_newton_step_of_each_loo_problem(iris):
    X, y = iris
    design, lam, Theta = _fitted(X, y, 1.0, tol=1e-13)      # full-data gradient ~0
    refits = exact.MultiRefits(design, lam, Theta, 1e-10)
    idx = np.array([0, 60, 77, 149])                      # 77: highest ALO correction
    start, steps, _, _ = refits.start(idx)
    theta = Theta.T.ravel()
    for j, i in enumerate(idx):
        keep = np.arange(design.n) != i
        P = refits.P[keep]
        grad = (design.Xb[keep].T @ (P - design.Y[keep])).T.ravel() + lam * design.pen_full * theta
        H = hessian_multi(design.Xb[keep], P, lam, design.pen)
        newton = theta - np.linalg.solve(H, grad)
        np.testing.assert_allclose(start[j].ravel(), newton, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(steps[j], newton - theta, rtol=1e-9, atol=1e-12)


def test_start_predictions_are_the_alo_estimate(iris):
    X, y = iris
    design, lam, Theta = _fitted(X, y, 3.0)
    start = exact.MultiRefits(design, lam, Theta, 1e-10).start(np.arange(design.n))[0]
    U = np.einsum("mkd,md->mk", start, design.Xb)
    alo = np.sum(U[np.arange(design.n), y] - np.logaddexp.reduce(U, axis=1))
    assert alo == pytest.approx(alo_log_likelihood(X, y, 3.0), rel=1e-12)


@pytest.mark.parametrize("max_chord", [0, 2])
def test_chunks_and_newton_fallback(iris, monkeypatch, max_chord):
    """Chunks of 7 rows (the last one short); few chord steps leave rows to Newton."""
    design, lam, Theta = _fitted(*iris, 10.0)
    monkeypatch.setattr(exact, "CHUNK_ELEMENTS", 7 * design.n * design.K)
    monkeypatch.setattr(exact, "MAX_CHORD", max_chord)
    _assert_matches_rows(design, lam, Theta)


def test_diverging_row_is_refitted_from_its_best_point(iris, monkeypatch):
    """A NaN gradient (e.g. softmax overflow) stops the row; Newton finishes it."""
    design, lam, Theta = _fitted(*iris, 1.0)
    gradients = exact.MultiRefits.gradients

    def nan_for_row_5(self, Th, left_out):
        G = gradients(self, Th, left_out)
        G[left_out == 5] = np.nan
        return G

    monkeypatch.setattr(exact.MultiRefits, "gradients", nan_for_row_5)
    _assert_matches_rows(design, lam, Theta)


def test_more_features_than_rows():
    """The dual (n x n) design of Design: chord and row loop agree there too."""
    rng = np.random.default_rng(1)
    X = rng.standard_normal((24, 40))
    y = np.repeat([0, 1, 2], 8)
    X[:, :3] += 1.5 * np.eye(3)[y]
    design, lam, Theta = _fitted(X, y, 1.0)
    assert design.basis is not None
    _assert_matches_rows(design, lam, Theta)


@pytest.mark.parametrize("solver, C, rtol", [
    ("lbfgs", 1.0, 1e-6),                 # lbfgs's own error reaches 1.5e-6 at C = 10
    ("newton-cholesky", 0.1, 1e-8),
    ("newton-cholesky", 1.0, 1e-8),
    ("newton-cholesky", 10.0, 1e-8),
])
def test_matches_sklearn_refits_on_iris_subset(iris, solver, C, rtol):
    X, y = iris
    idx = np.concatenate([np.flatnonzero(y == k)[:15] for k in range(3)])
    Xs, ys = StandardScaler().fit_transform(X[idx]), y[idx]
    ours = exact.exact_loo_multi(*_fitted(Xs, ys, C))
    ref = np.empty(len(ys))
    for i in range(len(ys)):
        keep = np.arange(len(ys)) != i
        model = LogisticRegression(C=C, tol=1e-12, max_iter=10000, solver=solver)
        model.fit(Xs[keep], ys[keep])
        ref[i] = np.log(model.predict_proba(Xs[i:i + 1])[0, ys[i]])
    np.testing.assert_allclose(ours, ref, rtol=rtol)
