"""Approximate leave-one-out cross-validation (ALO) for ridge logistic regression.

ALO (Rad & Maleki 2018; Burn, "Optimizing Approximate Leave-one-out
Cross-validation") estimates the leave-one-out log-likelihood from a single fit:
each row's left-out linear predictor is one Newton step away from the full-data
solution (Sherman-Morrison on the Hessian).  This module gives the ALO value, its
exact first and second derivatives in ``log C`` (binary), curves over a grid of C,
the ALO-optimal C, and exact LOO (warm-started refits) for comparison.

numpy / scipy only; ``docs/aloocv.md`` derives the formulas and names the code that
implements each.

Degenerate cases
----------------
* Separable data: ALO may keep improving as C grows; the search is bounded by
  ``C_max`` and :class:`AloOptimum` says so (``at_bound=True``).  ALO is optimistic at
  very large C.
* More features than rows: everything runs in the n x n dual coordinates.
* ``1 - w_i h_i`` (rows of very high leverage) is clipped at ``1e-12``.
* A constant / zero column: the ridge keeps the Hessian positive definite; a zero
  column gets coefficient 0 (reported in :class:`AloOptimum` ``message`` and ``notes``).
* A class code with no rows, or fewer than two classes: ValueError.  A class with a
  single row: ALO is finite (but unreliable, noted in the message); exact LOO raises
  ValueError because leaving that row out removes the class (LOO likelihood 0).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Generator, Iterable, Optional

import numpy as np
import pandas as pd
from scipy import optimize
from scipy.special import expit, logsumexp, softmax

from engine.evaluation.aloocv.design import (Design, LogisticFit, check_C, gram, hessian_binary,
                                             hessian_multi)
from engine.evaluation.aloocv.exact import check_loo, exact_loo_sum
from engine.evaluation.aloocv.path import (S_MIN, PathPoint, alo_batch, batched, fits_along,
                                           path_point, predict_start)
from engine.evaluation.aloocv.solver import fit_logistic_l2, inv_chol, solve
from engine.foundation.caller_errors import CallerError
from engine.foundation.notes import Note
from engine.foundation.progress import Progress, Stopwatch

__all__ = ["LogisticFit", "AloOptimum", "fit_logistic_l2", "alo_log_likelihood",
           "exact_loo_log_likelihood", "alo_curve", "optimize_alo", "alo_gradient"]

_MAX_LOG_STEP = 2.0     # largest Newton step in log C
_XTOL = 1e-7            # convergence in log C
_FINAL_STEP = 1e-3      # a Newton step this small is the last one (no further fit)


@dataclass(frozen=True)
class AloOptimum:
    """Result of :func:`optimize_alo`.

    Attributes
    ----------
    C : float
        The C maximizing the ALO log-likelihood within ``[C_min, C_max]``.
    alo_log_likelihood : float
        ALO log-likelihood (sum over rows) at ``C``.
    n_evaluations : int
        Number of fits + ALO evaluations used.
    at_bound : bool
        True if the optimum is at ``C_min`` or ``C_max`` (e.g. separable data).
    message : str
        Plain-language note ("" when there is nothing to say): the sentences of
        ``notes`` joined by spaces.
    notes : tuple of Note
        The same, one :class:`~engine.foundation.notes.Note` per sentence: codes
        ``alo_best_at_max_c``, ``alo_best_at_min_c``, ``alo_single_row_class``,
        ``alo_constant_columns``.
    """

    C: float
    alo_log_likelihood: float
    n_evaluations: int
    at_bound: bool
    message: str
    notes: tuple = ()


# --------------------------------------------------------------------------- ALO formulas
def _alo_binary(design: Design, lam: float, theta: np.ndarray, order: int = 0):
    """ALO value and (order >= 1, 2) its derivatives in t = log C; also d theta/dt."""
    Xb, y, pen = design.Xb, design.y, design.pen
    u = Xb @ theta
    p = expit(u)
    w, g = p * (1.0 - p), p - y
    H = hessian_binary(Xb, w, lam, pen)
    Li = inv_chol(H)
    Tt = Li @ Xb.T                                             # columns L^{-1} x_i
    h = np.einsum("ij,ij->j", Tt, Tt)
    s = np.maximum(1.0 - w * h, S_MIN)
    a = h / s
    ut = u + g * a
    value = float(np.sum(y * ut - np.logaddexp(0.0, ut)))
    v = lam * (Li.T @ (Li @ (pen * theta)))
    if order == 0:
        return value, np.nan, np.nan, (v, None), H
    r = expit(ut) - y                                          # dF/d ut, F = -ALO
    u1 = Xb @ v
    w3 = w * (1.0 - 2.0 * p)
    w1, g1 = w3 * u1, w * u1
    H1 = gram(Xb, w1)
    H1.flat[::len(H1) + 1] -= lam * pen
    B1 = Li @ H1 @ Li.T
    BT = B1 @ Tt
    h1 = -np.einsum("ij,ij->j", BT, Tt)
    a1 = (h1 + h * h * w1) / s ** 2
    ut1 = u1 + g1 * a + g * a1
    d1 = -float(r @ ut1)
    if order == 1:
        return value, d1, np.nan, (v, None), H
    v1 = -v + Li.T @ (Li @ (lam * pen * v - H1 @ v))
    u2 = Xb @ v1
    w2 = w * (1.0 - 6.0 * w) * u1 ** 2 + w3 * u2
    g2 = w1 * u1 + w * u2
    H2 = gram(Xb, w2)
    H2.flat[::len(H2) + 1] += lam * pen
    h2 = np.einsum("ij,ij->j", (2.0 * B1 @ B1 - Li @ H2 @ Li.T) @ Tt, Tt)
    a2 = ((h2 + 2.0 * h * h1 * w1 + h * h * w2) / s ** 2
          + 2.0 * (h1 + h * h * w1) * (w1 * h + w * h1) / s ** 3)
    ut2 = u2 + g2 * a + 2.0 * g1 * a1 + g * a2
    pt = r + y
    d2 = -float(np.sum(pt * (1.0 - pt) * ut1 ** 2 + r * ut2))
    return value, d1, d2, (v, v1), H


def _alo_multi(design: Design, lam: float, Theta: np.ndarray):
    """Symmetric multinomial ALO value and d Theta / d log C."""
    Xb, y, pen = design.Xb, design.y, design.pen
    n, d = Xb.shape
    K = design.K
    U = Xb @ Theta
    P = softmax(U, axis=1)
    H = hessian_multi(Xb, P, lam, pen, design.pairs)
    Li = inv_chol(H)
    Hinv = Li.T @ Li
    M = np.empty((n, K, K))
    for k in range(K):
        T = (Xb @ Hinv[k * d:(k + 1) * d, :]).reshape(n, K, d)
        M[:, k, :] = np.einsum("nld,nd->nl", T, Xb)
    A = P[:, :, None] * np.eye(K) - P[:, :, None] * P[:, None, :]
    step = np.linalg.solve(np.eye(K) - A @ M, (P - design.Y)[:, :, None])
    Ut = U + (M @ step)[:, :, 0]
    value = float(np.sum(Ut[np.arange(n), y] - logsumexp(Ut, axis=1)))
    v = lam * (Hinv @ (np.tile(pen, K) * Theta.T.ravel()))
    return value, v.reshape(K, d).T, H


def _evaluate(design: Design, t: float, prev: Optional[PathPoint] = None, order: int = 0,
              theta0: Optional[np.ndarray] = None) -> PathPoint:
    """Fit at ``t = log C`` (warm-started from ``prev`` or ``theta0``), then ALO."""
    lam = float(np.exp(-t))
    theta0, H0 = predict_start(design, t, prev) if theta0 is None else (theta0, None)
    theta, _, _ = solve(design, lam, theta0, hessian=H0)
    if design.binary:
        value, d1, d2, (v, v1), H = _alo_binary(design, lam, theta, order)
    else:
        (value, v, H), d1, d2, v1 = _alo_multi(design, lam, theta), np.nan, np.nan, None
    return path_point(prev, t, theta, v, v1, value=value, d1=d1, d2=d2, hessian=H)


def _start_from(design: Design, fit: Optional[LogisticFit]) -> np.ndarray:
    return design.zeros() if fit is None else design.from_fit(fit)


def alo_log_likelihood(X, y, C, *, fit: Optional[LogisticFit] = None) -> float:
    """ALO estimate of the leave-one-out log-likelihood at one C.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Preprocessed numeric features (no intercept column).
    y : ndarray of shape (n_samples,)
        Integer class codes 0..K-1.
    C : float
        Inverse regularization strength (> 0), scikit-learn's convention.
    fit : LogisticFit, optional
        A fit at this C (or nearby); used as the Newton warm start, so a converged fit
        costs no further iterations.

    Returns
    -------
    float
        ``sum_i log p~_i(y_i)`` where ``p~_i`` is the approximate leave-row-i-out
        predicted probability.
    """
    t = np.log(check_C(C))
    design = Design(X, y)
    return _evaluate(design, t, theta0=_start_from(design, fit)).value


def alo_gradient(X, y, C) -> tuple[float, float, float]:
    """ALO log-likelihood and its exact first and second derivatives w.r.t. ``log C``.

    Parameters
    ----------
    X, y, C
        As in :func:`alo_log_likelihood`.

    Returns
    -------
    (value, d_value / d log C, d2_value / d (log C)^2) : tuple of float

    Raises
    ------
    NotImplementedError
        For more than two classes: the multinomial optimum is found with a warm-started
        bounded Brent search on ``log C`` instead.
    """
    t = np.log(check_C(C))
    design = Design(X, y)
    if not design.binary:
        raise NotImplementedError("ALO derivatives are implemented for two classes only; "
                                  "optimize_alo uses Brent's method for multinomial data.")
    e = _evaluate(design, t, order=2)
    return e.value, e.d1, e.d2


# --------------------------------------------------------------------------- exact LOO
def exact_loo_log_likelihood(X, y, C, *, fit: Optional[LogisticFit] = None) -> float:
    """Exact leave-one-out log-likelihood, refitting without each row.

    Every refit starts at the one-step (ALO) estimate from the full-data solution and is
    finished by chord steps with the full-data Hessian corrected for the left-out row,
    many rows at once (see :mod:`engine.evaluation.aloocv.exact`), so this costs a few cheap
    iterations per row rather than n cold fits.  Each refit converges to gradient 1e-10.

    Parameters
    ----------
    X, y, C, fit
        As in :func:`alo_log_likelihood`.

    Returns
    -------
    float
        ``sum_i log p_{-i}(y_i)`` with ``p_{-i}`` the model fitted without row ``i``.

    Raises
    ------
    ValueError
        As :func:`fit_logistic_l2`, and if some class has a single row.
    """
    lam = 1.0 / check_C(C)
    design = Design(X, y)
    check_loo(design)
    theta, _, _ = solve(design, lam, _start_from(design, fit))
    return exact_loo_sum(design, lam, theta)


# --------------------------------------------------------------------------- curves
def _check_Cs(Cs) -> np.ndarray:
    try:
        Cs = np.asarray(Cs, dtype=float).ravel()
    except (TypeError, ValueError):
        # the caller's arguments (AloocvSettings checks the user's C range)
        raise CallerError("argument_value",
                          "Cs must be a sequence of positive numbers.") from None
    if Cs.size == 0:
        # the caller's arguments (AloocvSettings checks the user's C range)
        raise CallerError("argument_value",
                          "Cs is empty; pass at least one C, e.g. np.logspace(-3, 3, 50).")
    for C in Cs:
        check_C(C, name="every C in Cs")
    return Cs


def alo_curve(X, y, Cs: Iterable[float], *,
              exact_loo: bool = False) -> Generator[Progress, None, pd.DataFrame]:
    """ALO (and optionally exact LOO) log-likelihood along a grid of C.

    Fits run in the given order, each warm-started by the cubic through the previous two
    solutions and their tangents.  For two classes and small data (see
    :mod:`engine.evaluation.aloocv.path`) the ALO values of all C come afterwards from two matrix
    products; otherwise each C's value follows its fit.  Input is validated when this
    function is called (before the generator starts).

    Parameters
    ----------
    X, y
        As in :func:`alo_log_likelihood`.
    Cs : sequence of float
        C values (> 0), e.g. ``np.logspace(-3, 3, 50)``.
    exact_loo : bool, default False
        Also compute the exact LOO log-likelihood at every C (much slower).

    Yields
    ------
    Progress
        After each C's fit (and ALO value), and after each C's exact LOO.  Close the
        generator to cancel.

    Returns
    -------
    pandas.DataFrame
        Columns ``C``, ``alo_log_likelihood``, ``loo_log_likelihood`` (NaN where not
        computed), one row per C in the given order.
    """
    Cs = _check_Cs(Cs)
    design = Design(X, y)
    if exact_loo:
        check_loo(design)
    return _curve_gen(design, Cs, exact_loo)


def _curve_gen(design: Design, Cs: np.ndarray, exact_loo: bool):
    clock = Stopwatch(len(Cs) * (2 if exact_loo else 1))
    alo = np.full(len(Cs), np.nan)
    loo = np.full(len(Cs), np.nan)
    thetas, done = [], 0
    for j, (C, theta, value) in enumerate(_fits(design, Cs)):
        thetas.append(theta)
        alo[j] = value
        done += 1
        yield clock.progress(done, f"{'fit' if np.isnan(value) else 'ALO'} at C={C:.4g}")
        if exact_loo:
            loo[j] = exact_loo_sum(design, 1.0 / C, theta)
            done += 1
            yield clock.progress(done, f"exact LOO at C={C:.4g}")
    if batched(design):
        stacked = np.array(thetas)
        alo = alo_batch(design, Cs, stacked)
        for k in np.flatnonzero(np.isnan(alo)):          # ill-conditioned: one at a time
            alo[k] = _alo_binary(design, 1.0 / Cs[k], stacked[k])[0]
    return pd.DataFrame({"C": Cs, "alo_log_likelihood": alo, "loo_log_likelihood": loo})


def _fits(design: Design, Cs: np.ndarray):
    """(C, theta, ALO value) along the grid; the value is NaN when batched afterwards."""
    if batched(design):
        for C, theta in zip(Cs, fits_along(design, Cs)):
            yield C, theta, np.nan
        return
    prev = None
    for C in Cs:
        prev = _evaluate(design, float(np.log(C)), prev)
        yield C, prev.theta, prev.value


# --------------------------------------------------------------------------- optimum
def optimize_alo(X, y, *, C_min: float = 1e-3, C_max: float = 1e3,
                 C0: Optional[float] = None) -> AloOptimum:
    """Find the C maximizing the ALO log-likelihood within ``[C_min, C_max]``.

    Binary: safeguarded Newton on ``t = log C`` with exact first and second derivatives
    (steps limited to a factor e^2 in C, kept inside a bracket of sign changes of the
    derivative, bisection when Newton leaves it, an uphill step where the curvature is
    not negative).  A Newton step below 1e-3 in ``log C`` is taken as the last one
    without a further fit (quadratic convergence leaves an error ~1e-6 in log C); the
    reported ALO value is then the second-order Taylor value there (error ~1e-9
    relative or less).  Multinomial: warm-started bounded Brent on ``log C`` (``xatol``
    1e-5).  Every evaluation is warm-started from the previous fit.

    Parameters
    ----------
    X, y
        As in :func:`alo_log_likelihood`.
    C_min, C_max : float
        Search bounds (0 < C_min < C_max).  Separable data push the optimum to C_max.
    C0 : float, optional
        Starting C (binary).  Default 1, clipped into the bounds.

    Returns
    -------
    AloOptimum
    """
    C_min, C_max = check_C(C_min, name="C_min"), check_C(C_max, name="C_max")
    if C_min >= C_max:
        # the caller's arguments (AloocvSettings checks the user's C range)
        raise CallerError("argument_value",
                          f"C_min ({C_min:g}) must be smaller than C_max ({C_max:g}).")
    t0 = float(np.log(check_C(C0, name="C0"))) if C0 is not None else 0.0
    design = Design(X, y)
    lo, hi = np.log(C_min), np.log(C_max)
    t0 = min(max(t0, lo), hi)
    best, n_eval, side = (_newton_search if design.binary else _brent_search)(design, lo, hi, t0)
    notes = _notes(design, side, C_min, C_max)
    return AloOptimum(float(np.exp(best.t)), best.value, n_eval, side != 0,
                      " ".join(map(str, notes)), notes)


def _newton_search(design: Design, lo: float, hi: float, t: float):
    """Safeguarded Newton on the derivative of ALO; returns (eval, n_evals, side)."""
    t_min, t_max = lo, hi
    lo_known = hi_known = False           # has a derivative sign been seen at lo / hi?
    prev, n_eval = None, 0
    for _ in range(60):
        e = _evaluate(design, t, prev, order=2)
        prev, n_eval = e, n_eval + 1
        if (t >= t_max and e.d1 > 0) or (t <= t_min and e.d1 < 0):
            return e, n_eval, 1 if t >= t_max else -1
        if e.d1 > 0:
            lo, lo_known = t, True
        elif e.d1 < 0:
            hi, hi_known = t, True
        if e.d1 == 0 or hi - lo < _XTOL:
            break
        step = -e.d1 / e.d2 if e.d2 < 0 else np.sign(e.d1) * _MAX_LOG_STEP
        new = t + float(np.clip(step, -_MAX_LOG_STEP, _MAX_LOG_STEP))
        if new >= hi:
            new = 0.5 * (lo + hi) if hi_known else t_max
        elif new <= lo:
            new = 0.5 * (lo + hi) if lo_known else t_min
        if abs(new - t) < _XTOL:
            break
        if e.d2 < 0 and abs(new - t) < _FINAL_STEP and new == t + step:
            dt = new - t                       # quadratic convergence: error ~ dt^2
            value = e.value + e.d1 * dt + 0.5 * e.d2 * dt * dt
            return PathPoint(new, e.theta, value, 0.0, e.d2), n_eval, 0
        t = new
    return prev, n_eval, 0


def _brent_search(design: Design, lo: float, hi: float, t0: float):
    """Warm-started bounded Brent on log C (multinomial)."""
    cache: list[PathPoint] = []

    def evaluate(t: float) -> PathPoint:
        near = min(cache, key=lambda e: abs(e.t - t)) if cache else None
        cache.append(_evaluate(design, t, near))
        return cache[-1]

    res = optimize.minimize_scalar(lambda t: -evaluate(t).value, bounds=(lo, hi),
                                   method="bounded", options={"xatol": 1e-5})
    best = max(cache, key=lambda e: e.value)
    side = 0
    for bound, sgn in ((hi, 1), (lo, -1)):
        if abs(res.x - bound) < 1e-3:
            e = evaluate(bound)
            if e.value >= best.value:
                best, side = e, sgn
    return best, len(cache), side


def _notes(design: Design, side: int, C_min: float, C_max: float) -> tuple:
    """What to know about an optimum: at a bound, a single-row class, constant columns."""
    notes = []
    if side > 0:
        notes.append(Note("alo_best_at_max_c", fields={"C_max": C_max}))
    elif side < 0:
        notes.append(Note("alo_best_at_min_c", fields={"C_min": C_min}))
    if design.counts.min() < 2:
        k = int(np.argmin(design.counts))
        notes.append(Note("alo_single_row_class", fields={"class_code": k}))
    if len(design.constant_columns):
        cols = design.constant_columns.tolist()
        notes.append(Note("alo_constant_columns", fields={"columns": cols}))
    return tuple(notes)
