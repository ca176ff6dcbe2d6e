"""Newton solver for L2-regularized logistic regression (numpy/scipy only).

Internal half of :mod:`engine.evaluation.aloocv`: the binary and symmetric-multinomial Newton
solvers on a :class:`~engine.evaluation.aloocv.design.Design`, and :func:`fit_logistic_l2`.  The
public names are re-exported by :mod:`engine.evaluation.aloocv`.

Conventions (scikit-learn's): the fit minimizes ``C * sum_i loss_i + ||W||^2 / 2``
with the intercepts not penalized.  Internally we minimize the equivalent
``sum_i loss_i + (lam / 2) ||W||^2`` with ``lam = 1 / C``.
"""
from __future__ import annotations

import warnings
from typing import Optional

import numpy as np
from scipy.linalg import lapack
from scipy.special import expit, logsumexp, softmax

from engine.evaluation.aloocv.design import (Design, LogisticFit, check_C, hessian_binary,
                                             hessian_multi)

#: Full Newton steps (no line search) once the Newton decrement is below this.
_TINY_DECREMENT = 1e-8
#: Keep reusing a Hessian factor while each step shrinks the gradient by this factor.
_REUSE_RATIO = 0.01


# --------------------------------------------------------------------------- objectives
def _objective_binary(u, y, theta, lam, pen):
    return float(np.sum(np.logaddexp(0.0, u) - y * u) + 0.5 * lam * np.sum(pen * theta ** 2))


def _objective_multi(U, y, Theta, lam, pen):
    nll = np.sum(logsumexp(U, axis=1) - U[np.arange(len(y)), y])
    return float(nll + 0.5 * lam * np.sum(pen[:, None] * Theta ** 2))


def chol(H: np.ndarray) -> np.ndarray:
    """Lower Cholesky factor of a positive definite H (LAPACK, no checks or copies)."""
    c, info = lapack.dpotrf(H, lower=1, clean=1)
    if info != 0:
        raise np.linalg.LinAlgError("Hessian is not positive definite (non-finite fit?).")
    return c


def inv_chol(H: np.ndarray) -> np.ndarray:
    """``L^{-1}`` for the lower Cholesky factor L of H (explicit: small d x d, and a GEMM
    with it is much faster than a triangular solve with many right-hand sides)."""
    Li, info = lapack.dtrtri(chol(H), lower=1)
    if info != 0:
        raise np.linalg.LinAlgError("singular Cholesky factor")
    return Li                                   # upper triangle is 0 (dpotrf clean=1)


def chol_solve(c: np.ndarray, b: np.ndarray) -> np.ndarray:
    return lapack.dpotrs(c, b, lower=1)[0]


class Stepper:
    """Newton steps that keep reusing a Cholesky factor while it works well.

    A factor (fresh, or one supplied from a neighbouring C) is reused as long as each
    full step cuts the largest gradient entry at least ``1 / _REUSE_RATIO``-fold;
    otherwise the Hessian is rebuilt.  Far from the solution this is Newton's method; in
    the end game (and right after a warm start) it saves Hessian builds.  After a solve,
    ``factor`` is the last factor used (None if no step was needed), e.g. for tangents.
    """

    def __init__(self, hessian: Optional[np.ndarray] = None):
        self.factor = None if hessian is None else chol(hessian)
        self.last_gnorm = np.inf

    def step(self, g: np.ndarray, gnorm: float, hessian) -> np.ndarray:
        if self.factor is None or gnorm > _REUSE_RATIO * self.last_gnorm:
            self.factor = chol(hessian())
        self.last_gnorm = gnorm
        return -chol_solve(self.factor, g)


def _newton(problem, theta, tol, max_iter, hessian, stepper=None):
    """Damped Newton loop shared by the binary and multinomial solvers.

    ``problem`` provides ``predict(theta) -> u``, ``gradient(theta, u) -> (g, state)``,
    ``hessian(state)``, ``objective(theta, u)``.  A full step is accepted when it halves
    the largest gradient entry (no objective needed); otherwise an Armijo search on the
    objective decides, except at rounding level (tiny Newton decrement: full step).
    Returns (theta, n_iter, converged).
    """
    u = problem.predict(theta)
    g, state = problem.gradient(theta, u)
    gnorm = np.abs(g).max()
    stepper = Stepper(hessian) if stepper is None else stepper
    for it in range(max_iter):
        if gnorm <= tol:
            return theta, it, True
        step = stepper.step(g, gnorm, lambda: problem.hessian(state))
        du = problem.predict(step)
        alpha = 1.0
        g1, state1 = problem.gradient(theta + step, u + du)
        gnorm1 = np.abs(g1).max()
        if not gnorm1 <= 0.5 * gnorm:
            alpha = _armijo(problem, theta, u, step, du, float(-g @ step))
            if alpha < 1.0:
                stepper.factor = None
                g1, state1 = problem.gradient(theta + alpha * step, u + alpha * du)
                gnorm1 = np.abs(g1).max()
        theta, u = theta + alpha * step, u + alpha * du
        g, state, gnorm = g1, state1, gnorm1
        if alpha * np.abs(step).max() <= 1e-15 * (1.0 + np.abs(theta).max()):
            return theta, it + 1, True  # rounding floor reached
    return theta, max_iter, bool(gnorm <= tol)


def _armijo(problem, theta, u, step, du, dec):
    """Step length by Armijo backtracking; 1 once the Newton decrement is tiny."""
    if not dec >= _TINY_DECREMENT:
        return 1.0
    f0 = problem.objective(theta, u)
    alpha = 1.0
    while alpha > 1e-10:
        if problem.objective(theta + alpha * step, u + alpha * du) <= f0 - 1e-4 * alpha * dec:
            break
        alpha *= 0.5
    return alpha


class _Binary:
    """Binary problem for :func:`_newton`: theta (d,), u (n,)."""

    def __init__(self, Xb, y, lam, pen):
        self.Xb, self.y, self.lam, self.pen, self.lp = Xb, y, lam, pen, lam * pen

    def predict(self, theta):
        return self.Xb @ theta

    def gradient(self, theta, u):
        p = expit(u)
        return self.Xb.T @ (p - self.y) + self.lp * theta, p

    def hessian(self, p):
        return hessian_binary(self.Xb, p * (1.0 - p), self.lam, self.pen)

    def objective(self, theta, u):
        return _objective_binary(u, self.y, theta, self.lam, self.pen)


class _Multi:
    """Symmetric multinomial problem for :func:`_newton`: theta flat class-major (K d,)."""

    def __init__(self, Xb, y, Y, lam, pen, pairs=None):
        self.Xb, self.y, self.Y, self.lam, self.pen, self.pairs = Xb, y, Y, lam, pen, pairs
        self.K, self.d = Y.shape[1], Xb.shape[1]
        self.lp = np.tile(lam * pen, self.K)

    def predict(self, theta):
        return self.Xb @ theta.reshape(self.K, self.d).T

    def gradient(self, theta, U):
        P = softmax(U, axis=1)
        return (self.Xb.T @ (P - self.Y)).T.ravel() + self.lp * theta, P

    def hessian(self, P):
        return hessian_multi(self.Xb, P, self.lam, self.pen, self.pairs)

    def objective(self, theta, U):
        return _objective_multi(U, self.y, theta.reshape(self.K, self.d).T, self.lam, self.pen)


def newton_binary(Xb, y, lam, pen, theta, *, tol=1e-10, max_iter=100, hessian=None,
                  stepper=None):
    """Minimize ``sum loss + lam/2 theta' P theta``; return (theta, n_iter, converged)."""
    theta = np.array(theta, dtype=float)
    return _newton(_Binary(Xb, y, lam, pen), theta, tol, max_iter, hessian, stepper)


def newton_multi(Xb, y, Y, lam, pen, Theta, *, tol=1e-10, max_iter=100, hessian=None,
                 pairs=None):
    """Symmetric multinomial version of :func:`newton_binary` (Theta is d x K);
    ``pairs`` are :func:`pair_products` of ``Xb`` for faster Hessians (optional)."""
    d, K = np.shape(Theta)
    theta = np.array(Theta, dtype=float).T.ravel()
    problem = _Multi(Xb, y, Y, lam, pen, pairs)
    theta, n_iter, ok = _newton(problem, theta, tol, max_iter, hessian)
    return theta.reshape(K, d).T.copy(), n_iter, ok


def solve(design: Design, lam: float, theta0, *, tol=1e-10, max_iter=100, rows=None,
          hessian=None, stepper=None):
    """Run the right Newton solver on ``design`` (optionally on a subset of ``rows``);
    ``hessian`` is an optional approximate Hessian to start with, ``stepper`` a
    :class:`Stepper` to keep (binary only; its ``factor`` is then the last one used)."""
    Xb, y = design.Xb, design.y
    Y = design.Y
    if rows is not None:
        Xb, y = Xb[rows], y[rows]
        Y = None if Y is None else Y[rows]
    if design.binary:
        out = newton_binary(Xb, y, lam, design.pen, theta0, tol=tol, max_iter=max_iter,
                            hessian=hessian, stepper=stepper)
    else:
        pairs = design.pairs if rows is None else None
        out = newton_multi(Xb, y, Y, lam, design.pen, theta0, tol=tol, max_iter=max_iter,
                           hessian=hessian, pairs=pairs)
    if not out[2]:
        warnings.warn(f"Newton solver did not reach gradient {tol:g} in {max_iter} iterations "
                      f"at C={1 / lam:g}; results may be inaccurate (raise max_iter, or lower "
                      "C if the data are separable).", RuntimeWarning, stacklevel=3)
    return out


def fit_logistic_l2(X, y, C, *, warm_start: Optional[LogisticFit] = None, tol: float = 1e-10,
                    max_iter: int = 100) -> LogisticFit:
    """Fit L2-regularized logistic regression by Newton's method.

    Minimizes scikit-learn's objective ``C * sum_i log_loss_i + ||W||^2 / 2`` (intercepts
    not penalized); two classes give the binary model, K > 2 the symmetric multinomial
    (softmax) model with all K coefficient vectors penalized.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Preprocessed numeric features, without an intercept column.
    y : ndarray of shape (n_samples,)
        Integer class codes 0..K-1, every class present.
    C : float
        Inverse regularization strength (> 0).
    warm_start : LogisticFit, optional
        Starting point, e.g. the fit at a nearby C.
    tol : float, default 1e-10
        Stop when the largest absolute gradient entry of ``sum loss + ||W||^2 / (2 C)``
        (scikit-learn's gradient divided by C) is at most ``tol``.
    max_iter : int, default 100
        Maximum Newton iterations (a RuntimeWarning is issued if reached).

    Returns
    -------
    LogisticFit

    Raises
    ------
    ValueError
        For C <= 0, NaN/inf in X, mismatched lengths, fewer than two classes or a class
        code without rows.

    Notes
    -----
    A constant (e.g. all-zero) column is harmless: the ridge keeps the Hessian positive
    definite, and a zero column gets coefficient 0.  With more features than rows the
    problem is solved in the n x n dual coordinates (see :class:`Design`).
    """
    lam = 1.0 / check_C(C)
    design = Design(X, y)
    theta0 = design.zeros() if warm_start is None else design.from_fit(warm_start)
    theta, n_iter, _ = solve(design, lam, theta0, tol=tol, max_iter=max_iter)
    return design.to_fit(theta, C, n_iter)
