"""Every table with a 95% interval says what the interval is about (its ``estimand``), one
of the catalogue's codes, as the last column."""
import numpy as np
import pandas as pd

from engine.evaluation.calibration.maps import with_interval
from engine.evaluation.curves.decision import decision_summary
from engine.evaluation.estimands import ESTIMANDS
from engine.evaluation.stats import compare_models, summary_table
from engine.runs.heldout.words import with_cv_estimates


def _scores():
    rng = np.random.default_rng(0)
    rows = [{"model": m, "repeat": 1, "fold": f, "metric": "accuracy",
             "score": 0.7 + 0.1 * (m == "b") + rng.normal(0, 0.02), "n_train": 80,
             "n_test": 20, "fit_seconds": 0.01} for m in ("a", "b") for f in range(1, 6)]
    return pd.DataFrame(rows)


def test_cross_validation_tables_name_the_expected_score_at_training_size():
    scores = _scores()
    summary = summary_table(scores, ("a", "b"), ("accuracy",))
    matrix = scores.pivot(index="model", columns=["repeat", "fold"], values="score")
    comparison = compare_models(matrix, 80.0, 20.0, metric="accuracy")
    for table in (summary, comparison.pairwise, comparison.intervals):
        assert table.columns[-1] == "estimand"
        assert set(table["estimand"]) == {"expected_score_at_training_size"}


def test_fold_model_and_heldout_tables_name_theirs():
    diagram = with_interval(pd.DataFrame({"fraction_positive": [0.2, 0.8],
                                          "count": [10, 10]}))
    curves = pd.DataFrame({"model": "a", "repeat": [1, 2], "threshold": 0.2,
                           "net_benefit": [0.1, 0.12]})
    heldout = with_cv_estimates(pd.DataFrame({"model": ["a"], "metric": ["accuracy"],
                                              "score": [0.8], "ci_low": [0.7],
                                              "ci_high": [0.9], "interval": ["bootstrap"],
                                              "level": [0.95], "n_test": [100],
                                              "n_resamples": [2000]}))
    assert list(diagram["estimand"]) == ["fold_models_mean"] * 2
    assert list(decision_summary(curves)["estimand"]) == ["fold_models_mean"]
    assert list(heldout["estimand"]) == ["fixed_model_on_new_data"]
    for code in ("fold_models_mean", "fixed_model_on_new_data"):
        assert code in ESTIMANDS


def test_nested_and_subgroup_tables_use_the_catalogues_ids_and_codes():
    from engine.evaluation.estimands import INTERVALS
    from engine.evaluation.nested_interval import ESTIMAND, METHOD
    from engine.evaluation.subgroups import tables as subgroup_tables

    nested = INTERVALS[METHOD]                       # the method column holds the id
    assert (METHOD, ESTIMAND) == ("nested_cv", "model_on_all_rows")
    assert (nested.estimand, nested.table) == (ESTIMAND, "nested_intervals.csv")
    subgroup = INTERVALS[subgroup_tables.INTERVAL_ID]
    assert subgroup_tables.ESTIMAND in ESTIMANDS
    assert (subgroup.estimand, subgroup.table) == (subgroup_tables.ESTIMAND,
                                                   "subgroup_scores.csv")
    for kind in INTERVALS.values():
        assert kind.estimand is None or kind.estimand in ESTIMANDS
