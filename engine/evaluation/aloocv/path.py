"""ALO along a grid of C for two-class data, batched over C (internal to :mod:`engine.evaluation.aloocv`).

For small problems (breast cancer: 569 x 31) ALO at one C spends its time on BLAS calls
with thin n x d matrices and on Python, not on arithmetic.  Here the fits run first,
warm-started along the grid, and then the Hessians ``X' W X`` and the leverages
``h_i = x_i' H^{-1} x_i`` of all C values come from two matrix products with the design's
d(d+1)/2 x n matrix of pairwise column products ``Q[(a, b), i] = x_ia x_ib`` (a <= b):

    vech(H_k) = Q w_k + lambda_k vech(P)             h_k = Q' vech2(H_k^{-1})

where ``vech2`` doubles the off-diagonal entries.  The explicit inverse is accurate while
H is well conditioned; where its condition number (after scaling to unit diagonal) says
it is not, the value is NaN and the caller recomputes that C with the per-C
formula (``L^{-1} x_i``).  Batching applies when the design keeps its pairwise products
(``n * d(d+1)/2`` at most :data:`~engine.evaluation.aloocv.design.MAX_PAIR_ELEMENTS`); larger
products keep BLAS busy enough one C at a time; ``tests/benchmarks/bench_aloocv.py``
times both ways.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional, overload

import numpy as np
from scipy.linalg import lapack
from scipy.special import expit

from engine.foundation.caller_errors import CallerError
from engine.evaluation.aloocv.design import Design, hessian_binary
from engine.evaluation.aloocv.solver import Stepper, chol, chol_solve, solve

#: Below this reciprocal (Frobenius) condition number of H, scaled to unit diagonal, a C
#: is recomputed one at a time: the explicit inverse may lose more than ~1e-8.
MIN_RCOND = 1e-8
#: Floor for ``1 - w_i h_i`` (rows of very high leverage).
S_MIN = 1e-12
_SMALL_ELEMENTS = 1 << 14      # (C, row) temporaries under glibc's 128 KiB mmap threshold
_LARGE_ELEMENTS = 1 << 21      # the most (C, row) pairs in one batch
_MIN_BATCH = 16                # C values per batch when rows are many (GEMM efficiency)
MAX_FULL_STEPS = 30           # undamped Newton steps before the damped solver takes over


@dataclass
class PathPoint:
    """One fit at ``t = log C`` with what the next warm start needs (internal)."""

    t: float
    theta: np.ndarray
    value: float = np.nan
    d1: float = np.nan
    d2: float = np.nan
    tangent: Optional[np.ndarray] = None    # d theta / d log C
    hessian: Optional[np.ndarray] = None    # Hessian at theta (multinomial warm starts)
    curvature: Optional[np.ndarray] = None  # d2 theta / d (log C)^2 (exact or estimated)
    jerk: Optional[np.ndarray] = None       # d3 theta / d (log C)^3 (estimated)
    span: float = 0.0                       # |t - previous t| behind the estimates


def path_point(prev: Optional[PathPoint], t: float, theta: np.ndarray, tangent: np.ndarray,
               curvature: Optional[np.ndarray] = None, **fields) -> PathPoint:
    """A :class:`PathPoint`; without an exact ``curvature``, the cubic through this point
    and ``prev`` (values and tangents, no more than 1 apart in log C) supplies curvature
    and jerk (Hermite: the predictor's error drops from O(dt^3) to O(dt^4), which saves
    a Newton step on most points of a curve)."""
    theta, tangent, curvature = centred(theta), centred(tangent), centred(curvature)
    jerk, span = None, 0.0
    if curvature is None and prev is not None and 0 < abs(t - prev.t) <= 1.0:
        span = t - prev.t
        slope = (tangent - prev.tangent) / span
        chord = (prev.theta - theta + tangent * span) / span ** 2
        curvature = 2.0 * (3.0 * chord - slope)
        jerk = 6.0 * (2.0 * chord - slope) / span
    return PathPoint(t, theta, tangent=tangent, curvature=curvature, jerk=jerk,
                     span=abs(span), **fields)


@overload
def centred(theta: np.ndarray) -> np.ndarray: ...
@overload
def centred(theta: None) -> None: ...


def centred(theta: Optional[np.ndarray]) -> Optional[np.ndarray]:
    """Multinomial parameters (d x K) with the intercepts summing to 0.

    Adding one constant to every class's intercept changes no probability: the
    likelihood is flat along that direction and the Newton steps never move along it.
    Without centring, the path predictor's error along it is extrapolated from point to
    point, grows about five-fold per step and ends in overflow (seen on the Palmer
    penguins from C = 1.5 on). Binary parameters (1-D) are returned as they are.
    """
    if theta is None or np.ndim(theta) != 2:
        return theta
    theta = np.array(theta, dtype=float)
    theta[-1] -= theta[-1].mean()
    return theta


def predict_start(design: Design, t: float, prev: Optional[PathPoint]):
    """Warm start at ``t`` (Taylor predictor in log C from ``prev``) and, for multinomial
    data, a starting Hessian; binary fits build a fresh one (quadratic convergence from
    the predictor beats reusing the neighbour's)."""
    if prev is None or prev.tangent is None:
        return design.zeros(), None
    dt = t - prev.t
    if abs(dt) > 1.0:
        return prev.theta + prev.tangent * np.clip(dt, -1.0, 1.0), None
    theta = prev.theta + prev.tangent * dt
    if prev.curvature is not None:
        theta = theta + 0.5 * prev.curvature * dt ** 2
    if prev.jerk is not None and abs(dt) <= 1.5 * prev.span:
        theta = theta + prev.jerk * dt ** 3 / 6.0
    theta = centred(theta)
    if design.binary or prev.hessian is None:
        return theta, None
    H = prev.hessian.copy()
    H.flat[::len(H) + 1] += (np.exp(-t) - np.exp(-prev.t)) * design.pen_full
    return theta, H


def batched(design: Design) -> bool:
    """Whether :func:`alo_batch` applies (two classes, small pairwise products)."""
    return design.binary and design.pairs is not None


def fits_along(design: Design, Cs: np.ndarray, *, tol: float = 1e-10) -> Iterator[np.ndarray]:
    """Binary Newton fits at each C in order, warm-started along the grid; yields theta.

    Each fit takes full Newton steps from the predicted start (:func:`full_steps`); if
    those stop converging it is finished by the damped solver.  The tangent
    ``d theta / d log C = lambda H^{-1} P theta`` comes from the last Cholesky factor used
    (a Hessian at or next to the solution: it only feeds the predictor).
    """
    XT, y = np.ascontiguousarray(design.Xb.T), design.y.astype(float)
    prev = None
    for C in Cs:
        t, lam = float(np.log(C)), 1.0 / C
        theta, _ = predict_start(design, t, prev)
        theta, factor, converged = full_steps(design, XT, y, lam, theta, tol)
        if not converged:
            stepper = Stepper()
            theta, _, _ = solve(design, lam, theta, tol=tol, stepper=stepper)
            factor = stepper.factor
        if factor is None:                       # the start was already converged
            w = expit(design.Xb @ theta)
            factor = chol(hessian_binary(design.Xb, w * (1.0 - w), lam, design.pen))
        tangent = lam * chol_solve(factor, design.pen * theta)
        prev = path_point(prev, t, theta, tangent)
        yield theta


def full_steps(design: Design, XT: np.ndarray, y: np.ndarray, lam: float, theta, tol):
    """Undamped Newton from a good start, the factor reused as :class:`Stepper` does;
    returns (theta, factor, converged) and gives up (converged False) as soon as a step
    fails to halve the largest gradient entry.  A lean loop, faster than the general
    solver on the small fits of a curve (``tests/benchmarks/bench_aloocv.py``)."""
    Xb, pen = design.Xb, design.pen
    lp = lam * pen
    stepper, before = Stepper(), theta
    for _ in range(MAX_FULL_STEPS):
        p = expit(Xb @ theta)
        g = XT @ (p - y) + lp * theta
        size = np.abs(g).max()
        if size <= tol:
            return theta, stepper.factor, True
        if not size <= 0.5 * stepper.last_gnorm:       # back to the point before the step
            return before, None, False
        before = theta
        theta = theta + stepper.step(g, size,
                                     lambda: hessian_binary(Xb, p * (1.0 - p), lam, pen))
    return before, None, False


def alo_batch(design: Design, Cs: np.ndarray, thetas: np.ndarray) -> np.ndarray:
    """ALO log-likelihood at each ``(Cs[k], thetas[k])`` (fits at those C), batched.

    Returns NaN for a C whose Hessian is too ill-conditioned for the explicit inverse
    (see :func:`_inverses`) or gives a negative leverage; the caller recomputes those
    with the per-C formula.
    """
    Xb, d = design.Xb, design.d
    y = design.y.astype(float)
    Q = design.pairs
    if Q is None:
        # the caller's arguments: a programming error
        raise CallerError("argument_missing",
                          "alo_batch needs the pairwise products (see batched)")
    upper = np.triu_indices(d)
    diagonal = np.flatnonzero(upper[0] == upper[1])
    off_diagonal = upper[0] != upper[1]
    out = np.empty(len(Cs))
    chunk = _batch_size(design.n)
    for start in range(0, len(Cs), chunk):
        rows = slice(start, start + chunk)
        U = thetas[rows] @ Xb.T
        P = expit(U)
        W = P * (1.0 - P)
        vech_H = W @ Q.T
        vech_H[:, diagonal] += design.pen[None, :] / Cs[rows, None]
        vech_Hinv, ok = _inverses(vech_H, d, upper)
        vech_Hinv[:, off_diagonal] *= 2.0
        h = vech_Hinv @ Q
        ok &= (h >= 0).all(axis=1)
        Ut = U + (P - y) * h / np.maximum(1.0 - W * h, S_MIN)
        values = Ut @ y - _log1p_exp(Ut).sum(axis=1)
        out[rows] = np.where(ok, values, np.nan)
    return out


def _batch_size(n: int) -> int:
    """C values per batch.  Temporaries of C x n floats below 128 KiB come from the heap;
    larger ones are mapped afresh and page-faulted in on every call, which cost 5 ms of a
    20 ms breast cancer curve (1160 page faults per call).  With many rows, at least
    :data:`_MIN_BATCH` C values keep the matrix products efficient."""
    return max(1, min(max(_SMALL_ELEMENTS // n, _MIN_BATCH), _LARGE_ELEMENTS // n))


def _log1p_exp(x: np.ndarray) -> np.ndarray:
    """``log(1 + e^x)`` without overflow (faster than ``np.logaddexp(0, x)``)."""
    return np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))


def _inverses(vech_H: np.ndarray, d: int, upper) -> tuple[np.ndarray, np.ndarray]:
    """Upper triangles of ``H^{-1}`` for each row of upper triangles ``vech_H``, and
    which of them are accurate enough to use.

    Each H is scaled to unit diagonal first (the inverse's accuracy depends on the scaled
    condition number, not on feature scales); a C is rejected when the Frobenius condition
    number ``||H||_F ||H^{-1}||_F`` (>= the 2-norm one) of the scaled H exceeds
    ``1 / MIN_RCOND`` or the Cholesky factorization fails.
    """
    k = len(vech_H)
    rows, cols = upper
    on_diagonal = rows == cols
    diagonal = vech_H[:, on_diagonal]
    out, ok = np.zeros_like(vech_H), np.zeros(k, bool)
    if not (diagonal > 0).all():
        return out, ok
    scale = 1.0 / np.sqrt(diagonal)
    pair_scale = scale[:, rows] * scale[:, cols]
    scaled = vech_H * pair_scale
    work = np.empty((k, d, d))
    work[:, cols, rows] = scaled      # C-order lower = upper of work[j].T (Fortran order:
    inverse = np.zeros_like(scaled)   # LAPACK works in place, no copies)
    for j in range(k):
        factor, info = lapack.dpotrf(work[j].T, lower=0, clean=0, overwrite_a=1)
        if info == 0:
            upper_inverse, info = lapack.dpotri(factor, lower=0, overwrite_c=1)
            if info == 0:
                inverse[j], ok[j] = upper_inverse[rows, cols], True
    weights = np.where(on_diagonal, 1.0, 2.0)            # ||A||_F^2 from the upper triangle
    condition = np.sqrt(((scaled ** 2) @ weights) * ((inverse ** 2) @ weights))
    ok &= np.isfinite(condition) & (condition * MIN_RCOND <= 1.0)
    out[ok] = (inverse * pair_scale)[ok]
    return out, ok
