"""Validated data for the ALO solvers: checks, the design matrix and the Hessians.

Internal to :mod:`engine.evaluation.aloocv`: input validation with plain messages, the design matrix
(with its intercept column and, when there are more features than rows, the n x n dual
reduction, plus its pairwise column products for batched Hessians) and the binary and
symmetric-multinomial Hessians.  The Newton solvers are in :mod:`engine.evaluation.aloocv.solver`.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Optional

import numpy as np
from scipy import linalg

from engine.foundation.caller_errors import CallerError

#: Largest matrix of pairwise column products (elements) kept with a design: 32 MiB.
MAX_PAIR_ELEMENTS = 1 << 22


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
def check_C(C, *, name: str = "C") -> float:
    """Return ``C`` as a float, or raise ValueError unless it is finite and > 0."""
    try:
        value = float(C)
    except (TypeError, ValueError):
        # the caller's arrays (run_aloocv passes the prepared matrix, class codes)
        raise CallerError("argument_value",
                          f"{name} must be a positive number; got {C!r}.") from None
    if not np.isfinite(value) or value <= 0:
        # the caller's arrays (run_aloocv passes the prepared matrix, class codes)
        raise CallerError("argument_value",
                          f"{name} must be a finite number > 0 (inverse regularization "
                          f"strength); got {C!r}. Use e.g. {name}=1.0.")
    return value


def check_Xy(X, y):
    """Validate ``X`` (finite 2-D floats) and ``y`` (class codes 0..K-1, all present)."""
    try:
        X = np.asarray(X, dtype=float)
    except (TypeError, ValueError):
        # the caller's arrays (run_aloocv passes the prepared matrix, class codes)
        raise CallerError("argument_array",
                          "X must be numeric; encode or drop non-numeric columns first.") from None
    if X.ndim != 2:
        # the caller's arrays (run_aloocv passes the prepared matrix, class codes)
        raise CallerError("argument_array",
                          f"X must be 2-D (rows x features); got a {X.ndim}-D array. "
                          "Use X.reshape(-1, 1) for a single feature.")
    if X.shape[1] == 0 or X.shape[0] == 0:
        # the caller's arrays (run_aloocv passes the prepared matrix, class codes)
        raise CallerError("argument_array",
                          f"X must have at least one row and one column; got shape {X.shape}.")
    bad = ~np.isfinite(X)
    if bad.any():
        r, c = np.argwhere(bad)[0]
        # the caller's arrays (run_aloocv passes the prepared matrix, class codes)
        raise CallerError("argument_array",
                          f"X contains {int(bad.sum())} NaN or infinite value(s) (first at row "
                          f"{r}, column {c}); impute or drop them before fitting.")
    y = np.asarray(y)
    if y.ndim != 1:
        # the caller's arrays (run_aloocv passes the prepared matrix, class codes)
        raise CallerError("argument_array",
                          f"y must be 1-D (one class code per row); got shape {y.shape}.")
    if len(y) != X.shape[0]:
        # the caller's arrays (run_aloocv passes the prepared matrix, class codes)
        raise CallerError("argument_array",
                          f"X has {X.shape[0]} rows but y has {len(y)} entries; they must match.")
    if y.dtype.kind == "f" and np.all(np.isfinite(y)) and np.all(y == np.round(y)):
        y = y.astype(np.int64)
    if y.dtype.kind not in "iub" or (len(y) and y.min() < 0):
        # the caller's arrays (run_aloocv passes the prepared matrix, class codes)
        raise CallerError("argument_array",
                          "y must hold integer class codes 0..K-1; encode labels with "
                          "sklearn.preprocessing.LabelEncoder first.")
    counts = np.bincount(y.astype(np.int64))
    present = np.flatnonzero(counts)
    if len(present) < 2:
        # the caller's arrays (run_aloocv passes the prepared matrix, class codes)
        raise CallerError("argument_array",
                          f"y has fewer than 2 classes (only class {present.tolist()} occurs); "
                          "logistic regression needs at least two.")
    if len(present) < len(counts):
        absent = np.flatnonzero(counts == 0).tolist()
        # the caller's arrays (run_aloocv passes the prepared matrix, class codes)
        raise CallerError("argument_array",
                          f"class code(s) {absent} have no rows; y must use codes 0..K-1 with "
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
        self.pen_full = self.pen if self.K == 2 else np.tile(self.pen, self.K)
        self.Y = np.eye(self.K)[self.y] if self.K > 2 else None

    @property
    def binary(self) -> bool:
        return self.K == 2

    @cached_property
    def pairs(self) -> Optional[np.ndarray]:
        """:func:`pair_products` of ``Xb``, or None when larger than
        :data:`MAX_PAIR_ELEMENTS` (computed on first use)."""
        if self.n * self.d * (self.d + 1) // 2 > MAX_PAIR_ELEMENTS:
            return None
        return pair_products(self.Xb)

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
            # the caller's arrays (run_aloocv passes the prepared matrix, class codes)
            raise CallerError("argument_array",
                              f"warm start has coef shape {coef.shape} / intercept shape "
                              f"{icpt.shape}; this data needs {want} and "
                              f"({1 if self.binary else self.K},).")
        w = coef if self.binary else coef.T
        if self.basis is not None:
            w = self.basis.T @ w
        return np.concatenate([w, icpt[None, :] if w.ndim == 2 else icpt], axis=0)


# --------------------------------------------------------------------------- Hessians
def gram(Xb: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``Xb' diag(weights) Xb`` via symmetric products (positive and negative weights
    separately), which halves the work of a general matrix product."""
    pos = weights > 0
    if pos.all():
        A = Xb * np.sqrt(weights)[:, None]
        return A.T @ A
    A = Xb[pos] * np.sqrt(weights[pos])[:, None]
    B = Xb[~pos] * np.sqrt(-weights[~pos])[:, None]
    return A.T @ A - B.T @ B


def hessian_binary(Xb, w, lam, pen) -> np.ndarray:
    H = gram(Xb, w)
    H.flat[::len(H) + 1] += lam * pen
    return H


def pair_products(Xb: np.ndarray) -> np.ndarray:
    """``Q[(a, b), i] = Xb[i, a] * Xb[i, b]`` for a <= b, rows in ``np.triu_indices`` order:
    ``Q @ w`` is the upper triangle of ``Xb' diag(w) Xb`` for any weights ``w``."""
    n, d = Xb.shape
    XT = np.ascontiguousarray(Xb.T)
    Q = np.empty((d * (d + 1) // 2, n))
    start = 0
    for a in range(d):
        np.multiply(XT[a:], XT[a], out=Q[start:start + d - a])
        start += d - a
    return Q


def hessian_multi(Xb, P, lam, pen, pairs: Optional[np.ndarray] = None) -> np.ndarray:
    """Symmetric-softmax Hessian in class-major order, plus ``eps n n'`` along the
    "shift all intercepts" null direction (exact: gradients are orthogonal to it).

    With ``pairs`` (:func:`pair_products` of ``Xb``) all K(K+1)/2 blocks come from one
    matrix product (half the arithmetic: each block is symmetric; 2.4x faster on digits).
    """
    n, d = Xb.shape
    K = P.shape[1]
    H = _softmax_blocks(Xb, P) if pairs is None else _softmax_blocks_from_pairs(pairs, P, d)
    H.flat[::len(H) + 1] += lam * np.tile(pen, K)
    icpt = np.arange(d - 1, K * d, d)
    eps = max(float(np.mean(H[icpt, icpt])), lam)
    H[np.ix_(icpt, icpt)] += eps
    return H


def _softmax_blocks(Xb, P) -> np.ndarray:
    """Blocks ``X' diag(delta_kl p_k - p_k p_l) X``, one block row at a time."""
    n, d = Xb.shape
    K = P.shape[1]
    H = np.empty((K * d, K * d))
    for k in range(K):
        a = -P[:, k:k + 1] * P[:, k:]
        a[:, 0] += P[:, k]
        blk = Xb.T @ (a[:, :, None] * Xb[:, None, :]).reshape(n, -1)
        H[k * d:(k + 1) * d, k * d:] = blk
        H[k * d:, k * d:(k + 1) * d] = blk.T
    return H


def _softmax_blocks_from_pairs(pairs, P, d) -> np.ndarray:
    """The same blocks from the pairwise products: ``vech(block_kl) = Q a_kl``."""
    K = P.shape[1]
    kk, ll = np.triu_indices(K)
    A = -P[:, kk] * P[:, ll]
    A[:, kk == ll] += P
    vech = (pairs @ A).T                                # (K(K+1)/2, d(d+1)/2)
    rows, cols = np.triu_indices(d)
    blocks = np.empty((len(kk), d, d))
    blocks[:, rows, cols] = vech
    blocks[:, cols, rows] = vech
    H = np.empty((K, d, K, d))
    H[kk, :, ll, :] = blocks
    H[ll, :, kk, :] = blocks                            # symmetric blocks
    return H.reshape(K * d, K * d)
