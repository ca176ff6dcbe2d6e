"""The nested-CV interval (Bates, Hastie and Tibshirani 2024) against mlr3inferr's formulas.

``ci_ncv`` below transcribes ``R/MeasureCiNestedCV.R`` (mlr3inferr, commit f8401a9, its
``.ci`` and ``MeasureAbstractCi$aggregate``'s ``within_range``) line by line, in plain
Python (lists, loops, :mod:`statistics`), independent of the engine's code (moments per
fit, combined).
"""
import math
import statistics
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from engine import run_service
from engine.evaluation.cv import CVConfig, run_cv
from engine.evaluation.experiment import parse_experiment
from engine.evaluation.nested_interval import (
    Moments,
    combined,
    metric_range,
    nested_interval,
    row_scores,
)
from engine.foundation.errors import EngineError
from engine.foundation.progress import run_to_end
from engine.input.data import load_builtin
from engine.output.report import build_report
from engine.output.report.intervals import coverage_sentence
from engine.output.report.sections import nested_sentence
from engine.runs import nested_cv
from engine.runs.analysis import load_run, run_experiment
from engine.runs.guards import check_run as check_budget
from engine.runs.nested_cv import check_nested, nested_splits, run_nested, training_rows
from engine.runs.run_plan import plan_run
from engine.runs.store import ResultStore
from tests.helpers import assert_one_error_line, run_main, write_experiment

LR = {"name": "lr", "estimator": "LogisticRegression", "scale": True,
      "params": {"max_iter": 500}}
NB = {"name": "nb", "estimator": "GaussianNB"}
TREE = {"name": "tree", "estimator": "DecisionTreeClassifier",
        "params": {"max_depth": 3, "random_state": 0}}


def ci_ncv(rows, n, folds, alpha=0.05, bias=True, value_range=(-math.inf, math.inf)):
    """mlr3inferr's ``MeasureCiNestedCV$.ci`` and ``within_range``, line by line.

    ``rows``: (rep, outer, inner, loss), ``inner`` None for an outer iteration."""
    tbl_outer = [r for r in rows if r[2] is None]
    tbl_inner = [r for r in rows if r[2] is not None]
    groups_outer, groups_inner = {}, {}
    for rep, outer, _, loss in tbl_outer:
        groups_outer.setdefault((rep, outer), []).append(loss)
    for rep, outer, _, loss in tbl_inner:
        groups_inner.setdefault((rep, outer), []).append(loss)
    # b_list = tbl_outer[, list(b = var(loss) / .N), by = c("rep", "outer")][["b"]]
    b_list = [statistics.variance(v) / len(v) for v in groups_outer.values()]
    # tmp1, tmp2, merge, a_list = (avg_inner - avg_outer)^2
    tmp1 = {k: statistics.fmean(v) for k, v in groups_outer.items()}
    tmp2 = {k: statistics.fmean(v) for k, v in groups_inner.items()}
    a_list = [(tmp2[k] - tmp1[k]) ** 2 for k in sorted(set(tmp1) & set(tmp2))]
    err_ncv = statistics.fmean([r[3] for r in tbl_inner])
    mse = statistics.fmean([a - b for a, b in zip(a_list, b_list)])
    err_cv = statistics.fmean([r[3] for r in tbl_outer])
    mse = (folds - 1) / folds * mse
    sigma_in = statistics.stdev([r[3] for r in tbl_inner])
    se_low = sigma_in / math.sqrt(n)
    se_up = se_low * math.sqrt(folds)
    se = max(se_low, min(math.sqrt(max(0, mse)), se_up))
    s = statistics.NormalDist().inv_cdf(1 - alpha / 2) * se
    if bias:
        bias_term = (1 + (folds - 2) / folds) * (err_ncv - err_cv)
        ci = [err_ncv - bias_term, err_ncv - bias_term - s, err_ncv - bias_term + s]
    else:
        ci = [err_cv, err_cv - s, err_cv + s]
    low, high = value_range
    return [min(max(c, low), high) for c in ci], se, err_cv


def as_rows(table):
    return [(int(r), int(o), None if int(i) == 0 else int(i), float(v)) for r, o, i, v in
            table[["repeat", "outer", "inner", "value"]].itertuples(index=False)]


def nested_run(name, models, metric, folds=3, repeats=2, **kwargs):
    dataset = load_builtin(name)
    config = CVConfig(n_splits=folds, n_repeats=1, interval="nested", nested_repeats=repeats)
    experiment = parse_experiment({"dataset": {"builtin": name}, "models": models,
                                   "metrics": [metric]})
    result = run_to_end(run_nested(dataset, list(experiment.models), config, [metric],
                                   **kwargs))
    return dataset, config, result


CASES = [("iris", [NB, TREE], "accuracy"), ("breast_cancer", [NB], "accuracy"),
         ("wine", [NB], "neg_brier_score"),
         pytest.param("breast_cancer", [LR], "neg_brier_score", marks=pytest.mark.slow),
         pytest.param("wine", [LR, NB], "neg_log_loss", marks=pytest.mark.slow)]


@pytest.mark.parametrize("name, models, metric", CASES)
def test_equals_the_transcription_of_mlr3inferr(name, models, metric):
    dataset, config, result = nested_run(name, models, metric)
    bounds = metric_range(metric, len(dataset.classes))
    assert list(result.table["model"]) == [m["name"] for m in models]
    for _, row in result.table.iterrows():
        (point, low, high), se, err_cv = ci_ncv(as_rows(result.rows[row["model"]]),
                                                len(dataset.y), 3, value_range=bounds)
        assert row["bias_corrected"] == pytest.approx(point, abs=1e-12)
        assert row["ci_low"] == pytest.approx(low, abs=1e-12)
        assert row["ci_high"] == pytest.approx(high, abs=1e-12)
        assert row["se"] == pytest.approx(se, abs=1e-12)
        assert row["estimate"] == pytest.approx(err_cv, abs=1e-12)
        assert low < point < high and row["se"] > 0


def test_the_sign_of_the_score_does_not_matter():
    """Bates' formulas are written for a loss; on the negated values every bound mirrors."""
    _, _, result = nested_run("breast_cancer", [NB], "neg_log_loss")
    table = result.rows["nb"]
    mine = nested_interval(table, 569, 3)
    (point, low, high), se, _ = ci_ncv([(r, o, i, -v) for r, o, i, v in as_rows(table)], 569, 3)
    assert (mine.corrected, mine.ci_low, mine.ci_high) == pytest.approx(
        (-point, -high, -low), abs=1e-12)
    assert mine.se == pytest.approx(se, abs=1e-12)


@pytest.mark.parametrize("name, model, metric", [
    ("iris", TREE, "accuracy"), ("wine", NB, "neg_brier_score"),
    ("wine", NB, "neg_log_loss"), ("breast_cancer", NB, "neg_brier_score"),
    ("breast_cancer", NB, "neg_log_loss"),
    pytest.param("breast_cancer", LR, "neg_log_loss", marks=pytest.mark.slow)])
def test_row_values_average_to_the_fold_scores(name, model, metric):
    """Repeat 1's outer fits are the run's folds: the mean of their per-row values is the
    fold score scikit-learn's scorer gave (two and three classes)."""
    dataset, config, result = nested_run(name, [model], metric)
    cv = run_to_end(run_cv(dataset, list(parse_experiment(
        {"dataset": {"builtin": name}, "models": [model]}).models), config, [metric]))
    rows = result.rows[model["name"]]
    outer = rows[(rows["repeat"] == 1) & (rows["inner"] == 0)].groupby("outer")["value"].mean()
    scores = cv.scores.set_index("fold")["score"].sort_index()
    np.testing.assert_allclose(outer.to_numpy(), scores.to_numpy(), rtol=0, atol=1e-12)


def test_row_scores_of_two_classes():
    proba = np.array([[0.2, 0.8], [0.9, 0.1], [0.5, 0.5]])
    y = np.array([1, 1, 0])
    np.testing.assert_allclose(row_scores("neg_brier_score", y, "proba", proba, None),
                               [-0.04, -0.81, -0.25])
    np.testing.assert_allclose(row_scores("neg_log_loss", y, "proba", proba, None),
                               np.log([0.8, 0.1, 0.5]))
    np.testing.assert_array_equal(row_scores("accuracy", y, None, None, np.array([1, 0, 0])),
                                  [1.0, 0.0, 1.0])
    assert row_scores("neg_log_loss", y, "decision", proba, None) is None


def test_the_fold_layout_is_mlr3inferrs():
    """Per repeat K outer fits, then K(K-1) inner ones; an inner fit trains on the K-2
    folds left when its outer and inner folds are out, and the inner test folds of one
    outer fold cover its training rows once."""
    y = np.repeat([0, 1], [20, 25])
    config = CVConfig(n_splits=4, interval="nested", nested_repeats=3)
    splits = nested_splits(y, config)
    assert len(splits) == 3 * 16
    for repeat in (1, 2, 3):
        own = [s for s in splits if s[0] == repeat]
        outer = {s[1]: s for s in own if s[2] == 0}
        assert sorted(outer) == [1, 2, 3, 4]
        for k, (_, _, _, train, test) in outer.items():
            inner = [s for s in own if s[1] == k and s[2]]
            assert sorted(s[2] for s in inner) == [j for j in (1, 2, 3, 4) if j != k]
            assert np.array_equal(np.sort(np.concatenate([s[4] for s in inner])),
                                  np.sort(train))
            for _, _, j, outer_train, inner_test in inner:
                inner_train = training_rows(outer_train, inner_test, j)
                assert np.array_equal(inner_test, outer[j][4])
                assert not set(inner_train) & (set(test) | set(inner_test))
                assert len(inner_train) + len(test) + len(inner_test) == len(y)


def test_refusals_are_coded():
    iris = load_builtin("iris")
    with pytest.raises(EngineError) as caught:
        check_nested(iris, CVConfig(n_splits=3, interval="nested"), "roc_auc_ovr")
    assert caught.value.code == "nested_metric" and "neg_log_loss" in str(caught.value)
    with pytest.raises(EngineError) as caught:
        check_nested(iris, CVConfig(n_splits=2, interval="nested"), "accuracy")
    assert caught.value.code == "nested_folds"
    with pytest.raises(EngineError) as caught:
        check_nested(load_builtin("breast_cancer"), CVConfig(n_splits=101, interval="nested"),
                     "accuracy")
    assert caught.value.code == "nested_folds" and "at most 100" in str(caught.value)
    with pytest.raises(EngineError) as caught:
        check_nested(iris, CVConfig(n_splits=60, interval="nested"), "accuracy")
    assert caught.value.code == "nested_rows" and caught.value.fields["smallest"] == 50
    assert "lower n_splits to 50 or fewer" in str(caught.value)


@pytest.mark.slow
@pytest.mark.parametrize("cv, metrics, fragment", [
    ({"n_splits": 3, "interval": "nested"}, ["roc_auc_ovr"], "mean over rows"),
    ({"n_splits": 2, "interval": "nested"}, ["accuracy"], "at least 3 folds"),
    ({"n_splits": 3, "interval": "bates"}, ["accuracy"], "cv.interval"),
])
def test_headless_refusals_are_one_error_line(tmp_path, cv, metrics, fragment):
    exp = write_experiment(tmp_path / "exp.json", cv=cv, metrics=metrics)
    assert_one_error_line(run_main(exp, "--out", tmp_path / "out"), fragment)


def test_the_run_check_refuses_before_any_fit():
    exp = parse_experiment({"dataset": {"builtin": "iris"}, "models": [NB],
                            "cv": {"n_splits": 3, "interval": "nested"},
                            "metrics": ["balanced_accuracy"]})
    with pytest.raises(EngineError) as caught:
        run_service.check_run(exp, run_service.read_datasets(exp))
    assert caught.value.code == "nested_metric"


def experiment(**cv):
    return parse_experiment({"dataset": {"builtin": "iris"}, "models": [NB, TREE],
                             "cv": {"n_splits": 3, "n_repeats": 2, **cv},
                             "metrics": ["accuracy", "neg_log_loss"]})


def test_the_plan_counts_the_nested_fits():
    plan = plan_run(experiment(interval="nested", nested_repeats=4))
    assert plan.nested_fits == 2 * 4 * 9
    assert plan.steps == plan.fits + plan.nested_fits == 12 + 72
    assert plan.budget[0] == 12 + 72
    assert "72 nested-CV fits" in plan.text()
    assert plan_run(experiment()).nested_fits == 0


def test_default_runs_no_nested_fits_and_writes_no_table():
    exp = experiment()
    assert exp.cv.interval == "corrected_t" and "interval" not in exp.cv.to_json()
    result = run_to_end(run_experiment(exp))
    assert result.nested is None and "nested_intervals.csv" not in result.tables()


def test_the_store_keeps_the_nested_fits(tmp_path):
    exp = experiment(interval="nested", nested_repeats=2)
    assert parse_experiment(exp.to_json()).cv == exp.cv           # saved and read again
    with ResultStore(str(tmp_path / "store.sqlite")) as store:
        first = run_to_end(run_experiment(exp, store=store))
        # the outer fits of nested repeats 1-2 are the run's fits: 12 shared, 36 inner new
        assert store.count_fits() == 12 + 2 * 2 * 6
    with ResultStore(str(tmp_path / "store.sqlite")) as store:
        again = run_to_end(run_experiment(exp, store=store))
        assert store.computed == 0
        rebuilt = run_to_end(load_run(store, store.runs()[0].id))
        assert store.computed == 0
        assert [(r.fits, r.reused) for r in store.runs()] == [(12, 0), (12, 12)]
    pd.testing.assert_frame_equal(first.tables()["nested_intervals.csv"],
                                  rebuilt.tables()["nested_intervals.csv"], check_exact=True)
    pd.testing.assert_frame_equal(first.tables()["nested_intervals.csv"],
                                  again.tables()["nested_intervals.csv"], check_exact=True)
    table = first.tables()["nested_intervals.csv"]
    assert list(table["method"].unique()) == ["nested_cv"]
    assert list(table["estimand"].unique()) == ["model_on_all_rows"]
    assert list(table["n_outer"].unique()) == [3] and list(table["n_repeats"].unique()) == [2]
    assert {n.code for n in first.notes} >= {"nested_interval"}


@pytest.fixture(scope="module")
def nested_result():
    return run_to_end(run_experiment(experiment(interval="nested", nested_repeats=2)))


def test_a_new_alpha_moves_the_level_not_the_estimate(nested_result):
    settings = replace(nested_result.experiment.comparison, alpha=0.2)
    wider, narrower = (nested_result.tables()["nested_intervals.csv"],
                       nested_result.with_comparison(settings).tables()["nested_intervals.csv"])
    assert list(narrower["level"].unique()) == [0.8]
    pd.testing.assert_series_equal(wider["bias_corrected"], narrower["bias_corrected"])
    for (_, a), (_, b) in zip(wider.iterrows(), narrower.iterrows()):
        (point, low, high), _, _ = ci_ncv(as_rows(nested_result.nested.rows[b["model"]]), 150,
                                          3, alpha=0.2, value_range=(0, 1))
        assert (b["ci_low"], b["ci_high"]) == pytest.approx((low, high), abs=1e-12)
        assert a["ci_high"] - a["ci_low"] > b["ci_high"] - b["ci_low"] > 0
    note = [n for n in nested_result.with_comparison(settings).notes
            if n.code == "nested_interval"]
    assert len(note) == 1 and note[0].fields["level"] == 0.8 and "80% interval" in str(note[0])


def test_the_report_states_each_interval(nested_result):
    sentence = nested_sentence(nested_result)
    for row in nested_result.tables()["nested_intervals.csv"].to_dict("records"):
        assert (f"{row['model']}: {row['bias_corrected']:.4g} (interval {row['ci_low']:.4g} "
                f"to {row['ci_high']:.4g})") in sentence
    assert "2 repeat(s) of 3 x 3 fits" in sentence and "all 150 rows" in sentence
    assert "95% interval" in sentence or "measured interval" in sentence
    assert sentence.endswith(coverage_sentence("nested_cv"))
    clamped = (nested_result.nested.table["ci_high"] >= 1).any()
    assert ("cut there" in sentence) == bool(clamped)
    page = build_report(nested_result)
    assert "Bates, S., Hastie, T. and Tibshirani, R. (2024)" in page
    assert nested_sentence(run_to_end(run_experiment(experiment()))) == ""


def test_moments_alone_give_the_same_interval(monkeypatch):
    """Beyond ROWS_KEPT no row is kept: the interval from the fits' moments equals the one
    from the rows."""
    _, _, with_rows = nested_run("wine", [NB], "neg_log_loss")
    monkeypatch.setattr(nested_cv, "ROWS_KEPT", 0)
    _, _, without = nested_run("wine", [NB], "neg_log_loss")
    assert without.rows == {} and list(with_rows.rows) == ["nb"]
    numbers = ["estimate", "bias_corrected", "ci_low", "ci_high", "se"]
    np.testing.assert_allclose(without.table[numbers].to_numpy(),
                               with_rows.table[numbers].to_numpy(), rtol=0, atol=1e-12)
    values = with_rows.rows["nb"]["value"].to_numpy()
    parts = [Moments.of(part) for part in np.array_split(values, 7)]
    total = parts[0]
    for part in parts[1:]:
        total = combined(total, part)
    assert (total.n, total.mean, total.variance()) == pytest.approx(
        (len(values), statistics.fmean(values), statistics.variance(values)), abs=1e-12)


def test_a_model_without_probabilities_gets_a_note_not_a_row():
    svc = {"name": "svc", "estimator": "SVC", "scale": True}
    _, _, result = nested_run("iris", [svc, NB], "neg_log_loss")
    assert list(result.table["model"]) == ["nb"]
    note = [n for n in result.notes if n.code == "nested_not_computed"]
    assert len(note) == 1 and note[0].fields["model"] == "svc"
    assert (note[0].fields["failed"], note[0].fields["fits"]) == (18, 18)


@pytest.mark.slow
def test_workers_give_the_same_intervals():
    _, _, here = nested_run("iris", [NB, TREE], "accuracy")
    _, _, workers = nested_run("iris", [NB, TREE], "accuracy", n_jobs=2)
    # The inner fits' moments are combined in the order the workers finish, so the last
    # bit can differ (seen: 0.9045665745728699 against ...698); the same to 1e-12.
    pd.testing.assert_frame_equal(here.table, workers.table, check_exact=False, rtol=0,
                                  atol=1e-12)


def test_the_budget_asks_before_many_nested_fits():
    exp = parse_experiment({"dataset": {"builtin": "iris"}, "models": [NB, TREE],
                            "cv": {"n_splits": 10, "n_repeats": 10, "interval": "nested",
                                   "nested_repeats": 100}, "metrics": ["accuracy"]})
    assessment = check_budget(exp, load_builtin("iris"), available=8 * 2 ** 30)
    assert assessment.n_cv_fits == 200 + 2 * 100 * 100
    assert assessment.ask == ("this run makes 20,200 fits (2 models x 10 folds x 10 repeats, "
                              "plus 20,000 nested-CV fits), more than the 20,000 that start "
                              "without asking")
