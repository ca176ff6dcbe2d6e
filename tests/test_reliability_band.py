"""The reliability diagram's band equals statsmodels' Jeffreys interval."""
import numpy as np
import pytest

from engine.evaluation.calibration import observed_interval, run_calibration
from engine.evaluation.catalogue import expand_models
from engine.evaluation.cv import CVConfig, run_cv
from engine.input.data import load_builtin
from engine.evaluation.experiment import CalibrationSettings
from engine.foundation.progress import run_to_end
from tests.peers import peer


@pytest.fixture(scope="module")
def cancer_calibration():
    dataset = load_builtin("breast_cancer")
    models = expand_models([{"name": "nb", "estimator": "GaussianNB"}])
    cv = run_to_end(run_cv(dataset, models, CVConfig(n_splits=5, n_repeats=2, random_state=0),
                           ["roc_auc"]))
    settings = CalibrationSettings(methods=("sigmoid",), n_bins=10, map_buckets=50)
    return cv, run_to_end(run_calibration(dataset, cv, models, settings, inner_splits=3))


def test_interval_equals_statsmodels_jeffreys():
    proportion = peer("statsmodels.stats.proportion")
    counts = np.array([1, 3, 10, 40, 7, 200])
    successes = np.array([0, 3, 4, 17, 7, 1])
    low, high = observed_interval(successes / counts, counts)
    their_low, their_high = proportion.proportion_confint(successes, counts, alpha=0.05,
                                                          method="jeffreys")
    # Brown, Cai & DasGupta's rule at the ends: 0 positives -> 0, all positive -> 1
    their_low = np.where(successes == 0, 0.0, their_low)
    their_high = np.where(successes == counts, 1.0, their_high)
    np.testing.assert_allclose(low, their_low, rtol=0, atol=1e-12)
    np.testing.assert_allclose(high, their_high, rtol=0, atol=1e-12)
    assert low[0] == 0.0 and high[1] == 1.0


def test_table_band_counts_rows_not_repeated_predictions(cancer_calibration):
    proportion = peer("statsmodels.stats.proportion")
    _, result = cancer_calibration
    curve = result.curve
    assert {"ci_low", "ci_high", "interval"} <= set(curve.columns)
    assert set(curve["interval"]) == {"jeffreys"}
    n = curve["count"].to_numpy() / 2            # two repeats: each row twice
    x = curve["fraction_positive"].to_numpy() * n
    low, high = proportion.proportion_confint(x, n, alpha=0.05, method="jeffreys")
    low, high = np.where(x <= 0, 0.0, low), np.where(x >= n, 1.0, high)
    np.testing.assert_allclose(curve["ci_low"], low, rtol=0, atol=1e-12)
    np.testing.assert_allclose(curve["ci_high"], high, rtol=0, atol=1e-12)
    inside = (curve["ci_low"] <= curve["fraction_positive"]) & \
             (curve["fraction_positive"] <= curve["ci_high"])
    assert inside.all()
