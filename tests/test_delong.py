"""DeLong's interval and paired test against a direct pair-by-pair computation."""
import numpy as np
import pytest
from scipy.stats import norm
from sklearn.metrics import roc_auc_score

from engine.evaluation.curves.delong import delong_covariance, delong_interval, delong_test


def _pair_components(y, s):
    """DeLong's components from the m×n pair matrix (the 1988 definition)."""
    x, z = s[y == 1], s[y == 0]
    psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
    return psi.mean(), psi.mean(axis=1), psi.mean(axis=0)


def _pair_covariance(y, a, b):
    auc_a, pa, na = _pair_components(y, a)
    auc_b, pb, nb = _pair_components(y, b)
    m, n = pa.size, na.size
    cov = np.cov(np.vstack([pa, pb])) / m + np.cov(np.vstack([na, nb])) / n
    return np.array([auc_a, auc_b]), cov


@pytest.fixture
def scores():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 150)
    a = y + rng.normal(size=150)
    b = np.round(0.6 * y + rng.normal(size=150), 1)   # ties, inside and across classes
    return y, a, b


def test_covariance_equals_pair_loop(scores):
    y, a, b = scores
    auc, cov = delong_covariance(y, np.vstack([a, b]))
    auc_ref, cov_ref = _pair_covariance(y, a, b)
    np.testing.assert_allclose(auc, auc_ref, rtol=0, atol=1e-14)
    np.testing.assert_allclose(cov, cov_ref, rtol=1e-12, atol=1e-16)
    np.testing.assert_allclose(auc, [roc_auc_score(y, a), roc_auc_score(y, b)], atol=1e-14)


def test_interval_and_test_from_pair_loop(scores):
    y, a, b = scores
    auc_ref, cov_ref = _pair_covariance(y, a, b)
    auc, low, high = delong_interval(y, b, level=0.9)
    half = norm.ppf(0.95) * np.sqrt(cov_ref[1, 1])
    assert (auc, low, high) == pytest.approx((auc_ref[1], auc_ref[1] - half,
                                              auc_ref[1] + half), abs=1e-12)
    auc_a, auc_b, diff, z, p = delong_test(y, a, b)
    z_ref = (auc_ref[0] - auc_ref[1]) / np.sqrt(cov_ref[0, 0] + cov_ref[1, 1]
                                                - 2 * cov_ref[0, 1])
    assert z == pytest.approx(z_ref, abs=1e-10)
    assert p == pytest.approx(2 * norm.sf(abs(z_ref)), abs=1e-12)
    assert diff == pytest.approx(auc_a - auc_b, abs=0)


def test_identical_scores_give_p_one(scores):
    y, a, _ = scores
    assert delong_test(y, a, a)[3:] == (0.0, 1.0)


def test_interval_clipped_to_unit_range():
    y = np.array([0, 0, 0, 1, 1, 1])
    auc, low, high = delong_interval(y, [0.1, 0.2, 0.3, 0.7, 0.8, 0.9])
    assert (auc, high) == (1.0, 1.0) and 0.0 <= low <= 1.0


def test_one_class_refused():
    with pytest.raises(ValueError, match="both positive and negative"):
        delong_interval([1, 1, 1], [0.2, 0.3, 0.4])


# ---- LeDell, Petersen & van der Laan's interval (engine.evaluation.curves.ledell)

def _ledell_loop(y, s, fold, groups=None, level=0.95):
    """ci.cvAUC / ci.pooled.cvAUC written out row by row (ties count 1/2)."""
    n = len(y)
    w1, w0 = n / np.sum(y == 1), n / np.sum(y == 0)
    ids = np.arange(n) if groups is None else np.asarray(groups)
    n_ids = len(set(ids.tolist()))
    taubar = n / n_ids
    aucs, moments = [], []
    for f in sorted(set(fold.tolist())):
        r = [i for i in range(n) if fold[i] == f]
        pos = [i for i in r if y[i] == 1]
        neg = [i for i in r if y[i] == 0]

        def beat(a, b):
            return 1.0 if s[a] > s[b] else 0.5 if s[a] == s[b] else 0.0
        auc = sum(beat(i, j) for i in pos for j in neg) / (len(pos) * len(neg))
        ic = {}
        for i in r:
            if y[i] == 1:
                ic[i] = w1 * (sum(beat(i, j) for j in neg) / len(neg) - auc)
            else:
                ic[i] = w0 * (sum(beat(j, i) for j in pos) / len(pos) - auc)
        per_id = {}
        for i in r:
            per_id[ids[i]] = per_id.get(ids[i], 0.0) + ic[i] / (taubar if groups is not None
                                                                 else 1.0)
        aucs.append(auc)
        moments.append(np.mean([v ** 2 for v in per_id.values()]))
    se = np.sqrt(np.mean(moments) / n_ids)
    z = norm.ppf(0.5 + level / 2)
    cv = np.mean(aucs)
    return cv, max(0, cv - z * se), min(1, cv + z * se), se


@pytest.fixture
def folded(scores):
    y, a, b = scores
    fold = np.arange(len(y)) % 5
    return y, b, fold


def test_ledell_equals_row_loop(folded):
    from engine.evaluation.curves.ledell import ledell_interval
    y, s, fold = folded
    assert ledell_interval(y, s, fold, level=0.9) == pytest.approx(
        _ledell_loop(y, s, fold, level=0.9), rel=1e-12, abs=1e-14)


def test_ledell_grouped_equals_row_loop(folded):
    from engine.evaluation.curves.ledell import ledell_interval
    y, s, fold = folded
    groups = np.arange(len(y)) // 10 * 10 + fold    # groups stay inside a fold
    ours = ledell_interval(y, s, fold, groups=groups)
    assert ours == pytest.approx(_ledell_loop(y, s, fold, groups=groups), rel=1e-12)
    assert ours[3] != pytest.approx(ledell_interval(y, s, fold)[3], rel=1e-3)


def test_ledell_one_row_groups_equal_ungrouped(folded):
    from engine.evaluation.curves.ledell import ledell_interval
    y, s, fold = folded
    assert ledell_interval(y, s, fold, groups=np.arange(len(y))) == pytest.approx(
        ledell_interval(y, s, fold), rel=1e-13)
