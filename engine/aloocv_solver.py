"""Newton solver for L2-regularized logistic regression (numpy/scipy only).

Internal half of :mod:`engine.aloocv`: input validation, the design matrix
(with its intercept column and, when there are more features than rows, the
n x n dual reduction), Hessians and the binary / symmetric-multinomial Newton
solvers.  The public names are re-exported by :mod:`engine.aloocv`.

Conventions (scikit-learn's): the fit minimizes ``C * sum_i loss_i + ||W||^2 / 2``
with the intercepts not penalized.  Internally we minimize the equivalent
``sum_i loss_i + (lam / 2) ||W||^2`` with ``lam = 1 / C``.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Optional

import numpy as np
from scipy import linalg
from scipy.linalg import lapack
from scipy.special import expit, logsumexp, softmax

#: Full Newton steps (no line search) once the Newton decrement is below this.
_TINY_DECREMENT = 1e-8
#: Reuse the previous Hessian factor once the gradient is this small.
_CHORD_GRAD = 1e-5


@dataclass(frozen=True)
class LogisticFit:
    """Result of :func:`fit_logistic_l2`.

    Attributes
    ----------
    coef : ndarray
        ``(n_features,)`` for two classes, ``(K, n_features)`` for K > 2 classes.
    intercept : ndarray
        ``(1,)`` or ``(K,)``.  Multinomial intercepts are defined up to a common
        shift; ours sum to the sum of the warm start's (0 from a cold start).
    n_iter : int
        Newton iterations taken.
    C : float
        Inverse regularization strength the model was fitted at.
    """

    coef: np.ndarray
    intercept: np.ndarray
    n_iter: int
    C: float


# --------------------------------------------------------------------------- validation
def check_C(C, name: str = "C") -> float:
    """Return ``C`` as a float, or raise ValueError unless it is finite and > 0."""
    try:
        value = float(C)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a positive number; got {C!r}.") from None
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0 (inverse regularization "
                         f"strength); got {C!r}. Use e.g. {name}=1.0.")
    return value


def check_Xy(X, y):
    """Validate ``X`` (finite 2-D floats) and ``y`` (class codes 0..K-1, all present)."""
    try:
        X = np.asarray(X, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("X must be numeric; encode or drop non-numeric columns first.") from None
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (rows x features); got a {X.ndim}-D array. "
                         "Use X.reshape(-1, 1) for a single feature.")
    if X.shape[1] == 0 or X.shape[0] == 0:
        raise ValueError(f"X must have at least one row and one column; got shape {X.shape}.")
    bad = ~np.isfinite(X)
    if bad.any():
        r, c = np.argwhere(bad)[0]
        raise ValueError(f"X contains {int(bad.sum())} NaN or infinite value(s) (first at row "
                         f"{r}, column {c}); impute or drop them before fitting.")
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-D (one class code per row); got shape {y.shape}.")
    if len(y) != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {len(y)} entries; they must match.")
    if y.dtype.kind == "f" and np.all(np.isfinite(y)) and np.all(y == np.round(y)):
        y = y.astype(np.int64)
    if y.dtype.kind not in "iub" or (len(y) and y.min() < 0):
        raise ValueError("y must hold integer class codes 0..K-1; encode labels with "
                         "sklearn.preprocessing.LabelEncoder first.")
    counts = np.bincount(y.astype(np.int64))
    present = np.flatnonzero(counts)
    if len(present) < 2:
        raise ValueError(f"y has fewer than 2 classes (only class {present.tolist()} occurs); "
                         "logistic regression needs at least two.")
    if len(present) < len(counts):
        absent = np.flatnonzero(counts == 0).tolist()
        raise ValueError(f"class code(s) {absent} have no rows; y must use codes 0..K-1 with "
                         "every class present. Re-encode y with LabelEncoder.")
    return np.ascontiguousarray(X), y.astype(np.int64)


# --------------------------------------------------------------------------- design matrix
class Design:
    """Validated data ready for the solvers.

    ``Xb`` is ``X`` with a trailing column of ones.  When ``p + 1 > n`` the features are
    replaced by the n x n dual coordinates ``Z = R'`` from ``X' = Q R``: the loss depends
    on the weights only through ``X w`` and the ridge pushes every weight component
    outside ``span(Q)`` to 0, so the fit, leverages, ALO and exact LOO are unchanged
    (the kernel / Woodbury form), while all matrices are at most (n + 1) x (n + 1).
    """

    def __init__(self, X, y):
        X, self.y = check_Xy(X, y)
        self.n, self.p = X.shape
        self.counts = np.bincount(self.y)
        self.K = len(self.counts)
        self.constant_columns = np.flatnonzero(np.ptp(X, axis=0) == 0)
        self.basis: Optional[np.ndarray] = None
        if self.p + 1 > self.n:
            self.basis, R = linalg.qr(X.T, mode="economic")
            X = R.T
        self.Xb = np.ascontiguousarray(np.hstack([X, np.ones((self.n, 1))]))
        self.d = self.Xb.shape[1]
        self.pen = np.ones(self.d)
        self.pen[-1] = 0.0
        self.Y = np.eye(self.K)[self.y] if self.K > 2 else None

    @property
    def binary(self) -> bool:
        return self.K == 2

    def zeros(self) -> np.ndarray:
        """Cold-start parameters: ``(d,)`` binary or ``(d, K)`` multinomial."""
        return np.zeros(self.d) if self.binary else np.zeros((self.d, self.K))

    def to_fit(self, theta: np.ndarray, C: float, n_iter: int) -> LogisticFit:
        """Map internal parameters back to the original feature space."""
        w = theta[:-1]
        if self.basis is not None:
            w = self.basis @ w
        coef = w.copy() if self.binary else np.ascontiguousarray(w.T)
        return LogisticFit(coef, np.atleast_1d(theta[-1]).copy(), int(n_iter), float(C))

    def from_fit(self, fit: LogisticFit) -> np.ndarray:
        """Internal parameters from a :class:`LogisticFit` (used for warm starts)."""
        coef = np.asarray(fit.coef, dtype=float)
        icpt = np.asarray(fit.intercept, dtype=float).ravel()
        want = (self.p,) if self.binary else (self.K, self.p)
        if coef.shape != want or icpt.shape != ((1,) if self.binary else (self.K,)):
            raise ValueError(f"warm start has coef shape {coef.shape} / intercept shape "
                             f"{icpt.shape}; this data needs {want} and "
                             f"({1 if self.binary else self.K},).")
        w = coef if self.binary else coef.T
        if self.basis is not None:
            w = self.basis.T @ w
        return np.concatenate([w, icpt[None, :] if w.ndim == 2 else icpt], axis=0)


# --------------------------------------------------------------------------- Hessians
def gram(Xb: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``Xb' diag(weights) Xb``; uses a symmetric product when the weights are >= 0."""
    if np.all(weights >= 0):
        A = Xb * np.sqrt(weights)[:, None]
        return A.T @ A
    return (Xb * weights[:, None]).T @ Xb


def hessian_binary(Xb, w, lam, pen) -> np.ndarray:
    H = gram(Xb, w)
    H[np.diag_indices_from(H)] += lam * pen
    return H


def hessian_multi(Xb, P, lam, pen) -> np.ndarray:
    """Symmetric-softmax Hessian in class-major order, plus ``eps n n'`` along the
    "shift all intercepts" null direction (exact: gradients are orthogonal to it)."""
    n, d = Xb.shape
    K = P.shape[1]
    H = np.empty((K * d, K * d))
    for k in range(K):
        a = -P[:, k:k + 1] * P[:, k:]
        a[:, 0] += P[:, k]
        blk = Xb.T @ (a[:, :, None] * Xb[:, None, :]).reshape(n, -1)
        H[k * d:(k + 1) * d, k * d:] = blk
        H[k * d:, k * d:(k + 1) * d] = blk.T
    H[np.diag_indices_from(H)] += lam * np.tile(pen, K)
    icpt = np.arange(d - 1, K * d, d)
    eps = max(float(np.mean(H[icpt, icpt])), lam)
    H[np.ix_(icpt, icpt)] += eps
    return H


# --------------------------------------------------------------------------- objectives
def _objective_binary(u, y, theta, lam, pen):
    return float(np.sum(np.logaddexp(0.0, u) - y * u) + 0.5 * lam * np.sum(pen * theta ** 2))


def _objective_multi(U, y, Theta, lam, pen):
    nll = np.sum(logsumexp(U, axis=1) - U[np.arange(len(y)), y])
    return float(nll + 0.5 * lam * np.sum(pen[:, None] * Theta ** 2))


def _backtrack(obj, f0, dec, du, step, state):
    """Armijo backtracking; full steps once the Newton decrement is tiny."""
    theta, u = state
    if dec < _TINY_DECREMENT:
        return 1.0, None                      # objective recomputed only if needed later
    if f0 is None:
        f0 = obj(u, theta)
    alpha = 1.0
    while True:
        f1 = obj(u + alpha * du, theta + alpha * step)
        if f1 <= f0 - 1e-4 * alpha * dec or alpha < 1e-10:
            return alpha, f1
        alpha *= 0.5


def chol(H: np.ndarray) -> np.ndarray:
    """Lower Cholesky factor of a positive definite H (LAPACK, no copies of checks)."""
    c, info = lapack.dpotrf(H, lower=1, clean=1)
    if info != 0:
        raise np.linalg.LinAlgError("Hessian is not positive definite (non-finite fit?).")
    return c


def chol_solve(c: np.ndarray, b: np.ndarray) -> np.ndarray:
    return lapack.dpotrs(c, b, lower=1)[0]


class _Stepper:
    """Newton steps that reuse the last Cholesky factor in the end game.

    Once the gradient is below ``_CHORD_GRAD`` and fell tenfold since the factor was
    made, the old factor is accurate enough (the iterate barely moves), which saves
    building the Hessian for the final polishing step.
    """

    def __init__(self):
        self.factor, self.gnorm = None, np.inf

    def step(self, g: np.ndarray, gnorm: float, hessian) -> np.ndarray:
        if self.factor is None or gnorm > _CHORD_GRAD or gnorm > 0.1 * self.gnorm:
            self.factor, self.gnorm = chol(hessian()), gnorm
        return -chol_solve(self.factor, g)


def newton_binary(Xb, y, lam, pen, theta, tol=1e-10, max_iter=100):
    """Minimize ``sum loss + lam/2 theta' P theta``; return (theta, n_iter, converged)."""
    theta = np.array(theta, dtype=float)
    u = Xb @ theta
    obj = lambda uu, th: _objective_binary(uu, y, th, lam, pen)  # noqa: E731
    f, stepper = None, _Stepper()
    for it in range(max_iter + 1):
        p = expit(u)
        g = Xb.T @ (p - y) + lam * pen * theta
        gnorm = np.max(np.abs(g))
        if gnorm <= tol:
            return theta, it, True
        if it == max_iter:
            break
        step = stepper.step(g, gnorm, lambda: hessian_binary(Xb, p * (1.0 - p), lam, pen))
        dec = float(-g @ step)
        du = Xb @ step
        alpha, f = _backtrack(obj, f, dec, du, step, (theta, u))
        theta = theta + alpha * step
        u = u + alpha * du
        if np.max(np.abs(alpha * step)) <= 1e-15 * (1.0 + np.max(np.abs(theta))):
            return theta, it + 1, True  # rounding floor reached
    return theta, max_iter, False


def newton_multi(Xb, y, Y, lam, pen, Theta, tol=1e-10, max_iter=100):
    """Symmetric multinomial version of :func:`newton_binary` (Theta is d x K)."""
    Theta = np.array(Theta, dtype=float)
    d, K = Theta.shape
    U = Xb @ Theta
    obj = lambda UU, Th: _objective_multi(UU, y, Th.reshape(K, d).T, lam, pen)  # noqa: E731
    f, stepper = None, _Stepper()
    for it in range(max_iter + 1):
        P = softmax(U, axis=1)
        G = Xb.T @ (P - Y) + lam * pen[:, None] * Theta
        gnorm = np.max(np.abs(G))
        if gnorm <= tol:
            return Theta, it, True
        if it == max_iter:
            break
        g = G.T.ravel()
        step = stepper.step(g, gnorm, lambda: hessian_multi(Xb, P, lam, pen))
        dec = float(-g @ step)
        S = step.reshape(K, d).T
        dU = Xb @ S
        alpha, f = _backtrack(obj, f, dec, dU, step, (Theta.T.ravel(), U))
        Theta = Theta + alpha * S
        U = U + alpha * dU
        if np.max(np.abs(alpha * S)) <= 1e-15 * (1.0 + np.max(np.abs(Theta))):
            return Theta, it + 1, True
    return Theta, max_iter, False


def solve(design: Design, lam: float, theta0, tol=1e-10, max_iter=100, rows=None):
    """Run the right Newton solver on ``design`` (optionally on a subset of ``rows``)."""
    Xb, y = design.Xb, design.y
    Y = design.Y
    if rows is not None:
        Xb, y = Xb[rows], y[rows]
        Y = None if Y is None else Y[rows]
    if design.binary:
        out = newton_binary(Xb, y, lam, design.pen, theta0, tol, max_iter)
    else:
        out = newton_multi(Xb, y, Y, lam, design.pen, theta0, tol, max_iter)
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
    theta, n_iter, _ = solve(design, lam, theta0, tol, max_iter)
    return design.to_fit(theta, C, n_iter)
