"""The Bayesian signed-rank test with a region of practical equivalence (ROPE).

Benavoli, Corani, Demšar and Zaffalon, "Time for a change: a tutorial for comparing
multiple classifiers through Bayesian analysis", JMLR 18 (2017), section 5, with the
definition baycomp uses (``baycomp.SignedRankTest``): the differences ``z_1 .. z_N`` of
two models' scores on ``N`` data sets, and a prior pseudo-observation ``z_0 = 0`` of
weight ``s`` (:data:`PRIOR_STRENGTH`), get Dirichlet(s, 1, ..., 1) weights ``w``; one draw
of the posterior is

    theta_better = sum_ij w_i w_j H(z_i + z_j - 2 rope)
    theta_worse  = sum_ij w_i w_j H(-z_i - z_j - 2 rope)
    theta_equiv  = 1 - theta_better - theta_worse

over every pair ``(i, j)`` including ``i = j`` (the Walsh averages ``(z_i + z_j) / 2``
against ``[-rope, rope]``; ``H`` is the step function with ``H(0) = 1/2``). Two numbers
are computed per region: its **posterior probability**, the mean of ``theta`` over the
draws (baycomp's ``SignedRankTest.sample(...).mean(axis=0)``), and the **share of draws in
which it is the most probable region** (``argmax``, the first on a tie), as baycomp's
``Posterior.probs`` computes it (except that with ``rope = 0`` an exact tie of the two
sides, which all-zero differences give, counts half to each). The second is not a
probability of the region: with every difference on one side it is near 1 even when the
posterior probability of that side is 0.7.

The Dirichlet weights do not depend on the data, so one draw of ``n_samples`` weights
serves every pair; it is the draw baycomp makes with the same ``random_state``
(``numpy.random.RandomState(random_state).dirichlet``), so the probabilities agree with
baycomp's to the last sample. Each quadratic form ``w' A w`` is a dot product of the
pairwise weight products ``w_i w_j`` (upper triangle, computed once per chunk of draws)
with the step values, so all pairs cost one matrix product per chunk. The products and sums are in single
precision (errors near 1e-7, far below the Monte Carlo error of about 1/sqrt(n_samples));
a draw's region can differ from baycomp's only when two regions' probabilities are that
close. The products run on one BLAS thread: they are small, and on a busy machine more
threads only wait for each other (ten times slower, measured).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from threadpoolctl import threadpool_limits

from engine.foundation.caller_errors import CallerError

#: Weight of the prior pseudo-observation at 0 (baycomp's ``SignedRankTest`` default,
#: Benavoli et al. 2017).
PRIOR_STRENGTH = 0.5
#: Bytes of pairwise weight products (or of posterior draws) held at once: chunks of draws.
CHUNK_BYTES = 8 * 2**20


def _step(values: np.ndarray, threshold: float) -> np.ndarray:
    """``H(values - threshold)`` with ``H(0) = 1/2``, as baycomp's ``heaviside``."""
    return (values > threshold).astype(float) + 0.5 * (values == threshold)


def _step_columns(differences: np.ndarray, rope: float) -> np.ndarray:
    """For every pair (rows of ``differences``), the step values of "better" and "worse"
    over the upper triangle of (i, j), off-diagonal ones counted twice.

    Returns an array of shape ``(n_pairs_of_indices, 2 * n_pairs)``: columns
    ``2p`` (better) and ``2p + 1`` (worse) for pair ``p``.
    """
    n_pairs, n = differences.shape
    z = np.hstack([np.zeros((n_pairs, 1)), differences])
    upper_i, upper_j = np.triu_indices(n + 1)
    twice = np.where(upper_i == upper_j, 1.0, 2.0)
    sums = z[:, upper_i] + z[:, upper_j]                  # Walsh sums, (n_pairs, n_tri)
    columns = np.empty((len(upper_i), 2 * n_pairs))
    columns[:, 0::2] = (_step(sums, 2 * rope) * twice).T
    columns[:, 1::2] = (_step(-sums, 2 * rope) * twice).T
    return columns


def _weight_products(weights_t: np.ndarray) -> np.ndarray:
    """``w_i w_j`` for ``i <= j`` (the order of ``numpy.triu_indices``), one column per
    draw: ``weights_t`` holds one row per weight (draws along the rows, contiguous)."""
    m, n_draws = weights_t.shape
    out = np.empty((m * (m + 1) // 2, n_draws), dtype=weights_t.dtype)
    start = 0
    for i in range(m):
        np.multiply(weights_t[i], weights_t[i:], out=out[start:start + m - i])
        start += m - i
    return out


def _winner_counts(better: np.ndarray, worse: np.ndarray, split_ties: bool) -> np.ndarray:
    """How often "better", "equivalent" and "worse" is the most probable region, per pair
    (rows; draws along the columns): shape ``(n_pairs, 3)``.

    Ties go to the first region (``numpy.argmax``, as baycomp). With ``split_ties`` (the
    ROPE is 0), an exact tie of "better" and "worse" counts half to each: all-zero
    differences give it in every draw, where baycomp would call model 1 better with
    probability 1. (With a ROPE such a tie has probability 0.)
    """
    equivalent = np.negative(better)
    equivalent -= worse
    equivalent += 1                                       # baycomp's -left - right + 1
    first = better >= equivalent
    first &= better >= worse
    third = worse > equivalent
    third &= ~first
    n_first = np.count_nonzero(first, axis=1).astype(float)
    n_third = np.count_nonzero(third, axis=1).astype(float)
    if split_ties:
        halves = 0.5 * np.count_nonzero(first & (better == worse), axis=1)
        n_first, n_third = n_first - halves, n_third + halves
    n_draws = better.shape[1]
    return np.stack([n_first, n_draws - n_first - n_third, n_third], axis=1)


def signed_rank_probabilities(differences, rope: float, *, n_samples: int = 50_000,
                              random_state=0, prior: float = PRIOR_STRENGTH) -> np.ndarray:
    """baycomp's probabilities of the Bayesian signed-rank test: for each region, the
    share of posterior draws in which it is the most probable one.

    Parameters
    ----------
    differences : array-like of shape (n_datasets,) or (n_pairs, n_datasets)
        Score of model 1 minus score of model 2 on each data set (no NaN).
    rope : float
        Half-width of the region of practical equivalence, in score units (0 or more).
    n_samples : int, default 50_000
        Monte Carlo draws of the Dirichlet weights.
    random_state : int or None, default 0
        Seed of ``numpy.random.RandomState`` (the draw baycomp makes with this seed).
    prior : float, default :data:`PRIOR_STRENGTH`
        Weight of the prior pseudo-observation at 0.

    Returns
    -------
    numpy.ndarray of shape (n_pairs, 3) (or (3,) for one pair)
        The share of draws in which model 1 better by more than ``rope``, the two within
        ``rope``, model 1 worse by more than ``rope``, is the most probable of the three.
        With ``rope = 0`` the middle one is 0. These are *not* the posterior
        probabilities of the regions (:func:`signed_rank_posterior` gives both).

    Examples
    --------
    ``signed_rank_probabilities(x - y, 0.01)`` equals baycomp's
    ``two_on_multiple(x, y, rope=0.01, random_state=0)`` (its ``p_left, p_rope, p_right``).
    """
    return signed_rank_posterior(differences, rope, n_samples=n_samples,
                                 random_state=random_state, prior=prior).most_probable


class SignedRankPosterior(NamedTuple):
    """The Bayesian signed-rank test of one or more pairs (rows; one row for one pair).

    ``probabilities``: the posterior probability of each region (better, equivalent,
    worse), the mean over the draws of the region's posterior mass (baycomp's
    ``SignedRankTest.sample(...).mean(axis=0)``). ``most_probable``: the share of draws
    in which each region is the most probable one (baycomp's ``probs``).
    """

    probabilities: np.ndarray
    most_probable: np.ndarray


def signed_rank_posterior(differences, rope: float, *, n_samples: int = 50_000,
                          random_state=0, prior: float = PRIOR_STRENGTH) -> SignedRankPosterior:
    """The Bayesian signed-rank test: posterior probabilities of the three regions and
    baycomp's shares of draws in which each is the most probable.

    Parameters are those of :func:`signed_rank_probabilities`.

    Returns
    -------
    SignedRankPosterior
        Arrays of shape (n_pairs, 3), or (3,) for a one-dimensional ``differences``:
        ``better, equivalent, worse`` (model 1 better by more than ``rope``, within
        ``rope``, worse by more than ``rope``).
    """
    d = np.asarray(differences, dtype=float)
    single = d.ndim == 1
    d = np.atleast_2d(d)
    if not np.isfinite(d).all():
        # internal: a caller's mistake (compare_across passes checked values)
        raise CallerError("argument_array",
                          "signed-rank test: the differences must be finite numbers (no NaN)")
    if not np.isfinite(rope) or rope < 0:
        # internal: a caller's mistake (compare_across passes checked values)
        raise CallerError("argument_value",
                          f"signed-rank test: the ROPE must be a number of 0 or more (got {rope})")
    if int(n_samples) != n_samples or n_samples < 1:
        # internal: a caller's mistake (compare_across passes checked values)
        raise CallerError("argument_value",
                          f"signed-rank test: n_samples must be a positive whole number "
                          f"(got {n_samples})")
    n_pairs, n = d.shape
    alpha = np.ones(n + 1)
    alpha[0] = prior
    weights = np.random.RandomState(random_state).dirichlet(alpha, int(n_samples))
    weights_t = weights.T.astype(np.float32, order="C")    # draws along the rows
    steps_t = _step_columns(d, rope).T.astype(np.float32, order="C")  # (2 pairs, n_tri)
    counts = np.zeros((n_pairs, 3))
    masses = np.zeros((n_pairs, 2))
    chunk = max(1, CHUNK_BYTES // (4 * max(steps_t.shape)))  # products and thetas
    with threadpool_limits(1, user_api="blas"):     # small products: threads only contend
        for start in range(0, int(n_samples), chunk):
            thetas = steps_t @ _weight_products(weights_t[:, start:start + chunk])
            masses[:, 0] += thetas[0::2].sum(axis=1, dtype=np.float64)
            masses[:, 1] += thetas[1::2].sum(axis=1, dtype=np.float64)
            counts += _winner_counts(thetas[0::2], thetas[1::2], split_ties=rope == 0)
    masses /= float(n_samples)
    probabilities = np.column_stack([masses[:, 0], 1.0 - masses.sum(axis=1), masses[:, 1]])
    probabilities = np.clip(probabilities, 0.0, 1.0)
    if rope == 0:                      # the two sides cover everything: no middle region
        probabilities[:, 1] = 0.0
        probabilities /= probabilities.sum(axis=1, keepdims=True)
    shares = counts / float(n_samples)
    if single:
        return SignedRankPosterior(probabilities[0], shares[0])
    return SignedRankPosterior(probabilities, shares)
