"""A fair, reproducible comparison: scores that fail loudly, ranks on common ground,
two-sided p-values, seeded models, the positive class, warnings counted and kept whole."""
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from sklearn.metrics import f1_score, make_scorer, precision_score, recall_score, roc_auc_score
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.naive_bayes import GaussianNB

from engine.foundation.errors import error_code, error_fields
from engine.runs.analysis import run_experiment
from engine.evaluation.catalogue import ModelSpec, seed_entry
from engine.evaluation.cv import CVConfig, run_cv
from engine.input.data import dataset_from_frame, load_builtin
from engine.evaluation.experiment import parse_experiment
from engine.evaluation.metrics import FAST_METRICS, FoldScorer, default_metric, metrics_for
from engine.foundation.progress import run_to_end
from engine.evaluation.stats import compare_models, summary_table


def _frame(X, y):
    columns = [f"x{i}" for i in range(X.shape[1])]
    return dataset_from_frame(pd.DataFrame(np.column_stack([X, y]), columns=columns + ["t"]),
                              "t")


# ------------------------------------------------------------------ scores fail loudly
@pytest.mark.parametrize("score", [
    np.array([0.1, np.nan, 0.3, 0.4]), np.array([0.1, np.inf, 0.3, 0.4]),
    np.array([-np.inf, 0.2, 0.3, 0.4])])
def test_fast_roc_auc_rejects_non_finite_scores_as_scikit_learn_does(score):
    y = np.array([0, 1, 0, 1])
    with pytest.raises(ValueError):
        roc_auc_score(y, score)
    with pytest.raises(ValueError):
        FAST_METRICS["roc_auc"][1](y, score)


@pytest.mark.parametrize("score", [np.array([0.5, 0.5, 0.5, 0.5, 0.5, 0.5]),
                                   np.array([0.1, 0.1, 0.4, 0.4, 0.4, 0.9]),
                                   np.array([3.0, -1.0, 3.0, 2.0, -1.0, 2.0])])
def test_fast_roc_auc_equals_scikit_learn_on_ties_and_constants(score):
    y = np.array([0, 1, 1, 0, 1, 0])
    assert FAST_METRICS["roc_auc"][1](y, score) == pytest.approx(roc_auc_score(y, score),
                                                                  abs=1e-15)


def test_nan_probabilities_make_the_fold_a_recorded_failure():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 4))
    X[:, 0] = 1.0                       # a constant feature: var_smoothing 0 -> NaN
    y = (X[:, 1] + rng.normal(size=120) > 0).astype(int)
    splitter = StratifiedKFold(5, shuffle=True, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected_auc = cross_val_score(GaussianNB(var_smoothing=0), X, y, cv=splitter,
                                       scoring="roc_auc")
        expected_acc = cross_val_score(GaussianNB(var_smoothing=0), X, y, cv=splitter,
                                       scoring="accuracy")
    assert np.isnan(expected_auc).all()
    result = run_to_end(run_cv(_frame(X, y), [ModelSpec("nb", "GaussianNB",
                                                        {"var_smoothing": 0.0})],
                               CVConfig(5, 1, 0), ["roc_auc", "accuracy"]))
    table = result.scores.pivot(index="fold", columns="metric", values="score")
    assert table["roc_auc"].isna().all()
    np.testing.assert_allclose(table["accuracy"], expected_acc, rtol=0, atol=0)
    errors = result.failures[result.failures.kind == "error"]
    assert len(errors) == 5
    assert errors.message.str.contains("roc_auc could not be computed").all()
    assert errors.message.str.contains("NaN or infinity").all()


def test_a_metric_the_model_cannot_give_is_recorded_not_lost():
    data = load_builtin("moons")
    result = run_to_end(run_cv(data, [ModelSpec("svc", "SVC", {})], CVConfig(5, 1, 0),
                               ["neg_log_loss", "accuracy"]))
    scores = result.scores.pivot(index="fold", columns="metric", values="score")
    assert scores["neg_log_loss"].isna().all() and scores["accuracy"].notna().all()
    errors = result.failures[result.failures.kind == "error"]
    assert len(errors) == 5 and errors.message.str.startswith("neg_log_loss").all()


def test_a_run_where_nothing_scored_stops_with_the_reason():
    experiment = parse_experiment({"dataset": {"builtin": "moons"},
                                   "models": [{"estimator": "SVC"}],
                                   "metrics": ["neg_log_loss"], "cv": {"n_repeats": 1}})
    with pytest.raises(ValueError) as caught:
        run_to_end(run_experiment(experiment))
    assert error_code(caught.value) == "no_valid_score"
    assert error_fields(caught.value)["metric"] == "neg_log_loss"
    assert "predict_proba" in error_fields(caught.value)["reason"]


# ------------------------------------------------------------------ warnings
def test_warnings_are_counted_per_model_and_kept_whole():
    experiment = parse_experiment({
        "dataset": {"builtin": "breast_cancer"}, "cv": {"n_splits": 5, "n_repeats": 1},
        "models": [{"name": "short", "estimator": "LogisticRegression",
                    "params": {"max_iter": 3}},
                   {"name": "tree", "estimator": "DecisionTreeClassifier"}]})
    result = run_to_end(run_experiment(experiment))
    summary = result.summary.set_index("model")
    assert summary.loc["short", "n_warned"] == 5 and summary.loc["tree", "n_warned"] == 0
    message = result.cv.failures.message.iloc[0]
    assert "Increase the number of iterations" in message and "\n" not in message
    warned = [n for n in result.notes if n.code == "folds_warned"]
    assert [(n.fields["model"], n.fields["n_folds_hit"], n.fields["n_folds"], n.fields["fix"])
            for n in warned] == [("short", 5, 5, "not_converged")]


# ------------------------------------------------------------------ ranks
def _scores(matrix: dict) -> pd.DataFrame:
    rows = []
    for model, values in matrix.items():
        for fold, value in enumerate(values):
            rows.append((model, 0, fold, "acc", value, 90, 10, 0.0))
    return pd.DataFrame(rows, columns=["model", "repeat", "fold", "metric", "score",
                                       "n_train", "n_test", "fit_seconds"])


def test_a_model_that_fails_the_hard_folds_is_ranked_on_common_ground():
    hard = [0.6, 0.6, 0.95, 0.95]
    scores = _scores({"steady": [0.7, 0.7, 0.96, 0.96],
                      "fragile": [np.nan, np.nan, 0.97, 0.97], "broken": [np.nan] * 4})
    summary = summary_table(scores, ("steady", "fragile", "broken"), ("acc",)).set_index("model")
    # on its own surviving folds 'fragile' (0.97) beats 'steady' (0.83): not a fair rank
    assert summary.loc["fragile", "mean"] > summary.loc["steady", "mean"]
    assert summary.loc["fragile", "rank"] == 1 and summary.loc["steady", "rank"] == 2
    assert summary.loc["fragile", "rank_mean"] == pytest.approx(0.97)
    assert summary.loc["steady", "rank_mean"] == pytest.approx(0.96)
    assert summary.loc["steady", "rank_n_folds"] == 2
    assert "2 of 4 folds" in summary.loc["steady", "rank_note"]
    assert pd.isna(summary.loc["broken", "rank"])
    assert summary.loc["broken", "rank_note"].startswith("no rank")
    del hard


def test_ranks_use_common_folds_when_the_survivors_differ():
    scores = _scores({"a": [0.9, 0.9, 0.5, 0.5], "b": [np.nan, np.nan, 0.6, 0.6]})
    summary = summary_table(scores, ("a", "b"), ("acc",)).set_index("model")
    assert summary.loc["b", "rank"] == 1       # 0.6 > 0.5 on the two folds both completed
    assert summary.loc["a", "rank"] == 2       # though a's own mean (0.7) is higher


# ------------------------------------------------------------------ p-values
def test_two_sided_p_values_against_scipy():
    rng = np.random.default_rng(3)
    matrix = pd.DataFrame(rng.normal(0.8, 0.05, size=(3, 50)) + [[0.02], [0.0], [-0.01]],
                          index=["a", "b", "c"])
    n_train, n_test = 90.0, 10.0
    comparison = compare_models(matrix, n_train, n_test)
    for _, row in comparison.pairwise.iterrows():
        d = matrix.loc[row.model_1].to_numpy() - matrix.loc[row.model_2].to_numpy()
        # plain two-sided paired t-test: scipy's ttest_rel
        expected = sps.ttest_rel(matrix.loc[row.model_1], matrix.loc[row.model_2]).pvalue
        assert min(1, 2 * row.p_value_uncorrected) == pytest.approx(expected, rel=1e-10)
        std = np.sqrt(np.var(d, ddof=1) * (1 / len(d) + n_test / n_train))
        t = d.mean() / std
        assert row.p_value_two_sided == pytest.approx(2 * sps.t.sf(abs(t), len(d) - 1),
                                                      rel=1e-12)
        assert row.p_value_two_sided == pytest.approx(min(1, 2 * row.p_value), rel=1e-12)
    adjusted = np.minimum(1, comparison.pairwise.p_value_two_sided * 3)
    np.testing.assert_allclose(comparison.pairwise.p_value_two_sided_adjusted, adjusted)


def test_identical_models_are_a_coin_flip():
    matrix = pd.DataFrame([[0.8, 0.9, 0.7], [0.8, 0.9, 0.7]], index=["a", "b"])
    row = compare_models(matrix, 90, 10).pairwise.iloc[0]
    assert row.p_mu_positive == 0.5 and row.p_equivalent == 1.0
    assert row.p_value_two_sided == 1.0


# ------------------------------------------------------------------ positive class
@pytest.mark.parametrize("metric, func", [("f1", f1_score), ("precision", precision_score),
                                          ("recall", recall_score)])
@pytest.mark.parametrize("pos_label", [0, 1])
def test_positive_class_metrics_equal_make_scorer(metric, func, pos_label):
    data = load_builtin("breast_cancer")
    X, y = data.X.to_numpy(), data.y
    model = GaussianNB().fit(X[::2], y[::2])
    expected = make_scorer(func, pos_label=pos_label)(model, X[1::2], y[1::2])
    scorer = FoldScorer(model, X[1::2], y[1::2], [0, 1], pos_label=pos_label)
    assert scorer.score(metric) == pytest.approx(expected, abs=1e-15)


def test_average_precision_for_the_first_class_equals_make_scorer():
    from sklearn.metrics import average_precision_score

    data = load_builtin("breast_cancer")
    X, y = data.X.to_numpy(), data.y
    model = GaussianNB().fit(X[::2], y[::2])
    expected = make_scorer(average_precision_score, response_method="predict_proba",
                           pos_label=0)(model, X[1::2], y[1::2])
    scorer = FoldScorer(model, X[1::2], y[1::2], [0, 1], pos_label=0)
    assert scorer.score("average_precision") == pytest.approx(expected, abs=1e-12)


# ------------------------------------------------------------------ defaults
def test_default_metric_follows_the_target():
    assert default_metric(2) == "roc_auc" and default_metric(3) == "roc_auc_ovr"
    assert "f1" in metrics_for(2) and "f1" not in metrics_for(3)
    assert "roc_auc" not in metrics_for(3) and "f1_macro" in metrics_for(3)
    experiment = parse_experiment({"dataset": {"builtin": "iris"},
                                   "models": [{"estimator": "GaussianNB"}],
                                   "cv": {"n_splits": 3, "n_repeats": 1}})
    assert experiment.metrics == () and "metrics" not in experiment.to_json()
    result = run_to_end(run_experiment(experiment))
    assert result.cv.metrics == ("roc_auc_ovr",)
    assert [dict(n.fields) for n in result.notes if n.code == "default_metric"] == [
        {"metric": "roc_auc_ovr", "n_classes": 3}]


def test_unseeded_random_models_get_the_cv_seed_and_repeat_exactly():
    data = {"dataset": {"builtin": "breast_cancer"},
            "models": [{"name": "forest", "estimator": "RandomForestClassifier",
                        "params": {"n_estimators": 10}},
                       {"name": "nb", "estimator": "GaussianNB"}],
            "cv": {"n_splits": 3, "n_repeats": 2, "random_state": 7}}
    experiment = parse_experiment(data)
    assert experiment.models[0].params["random_state"] == 7
    assert "random_state" not in experiment.models[1].params
    assert experiment.to_json()["models"][0]["params"]["random_state"] == 7
    assert [dict(n.fields) for n in experiment.notes if n.code == "random_state_given"] == [
        {"random_state": 7, "models": ("forest",)}]
    first = run_to_end(run_experiment(experiment)).tables()
    second = run_to_end(run_experiment(parse_experiment(data))).tables()
    for name, table in first.items():
        timing = [c for c in table.columns if c == "fit_seconds"]
        pd.testing.assert_frame_equal(table.drop(columns=timing),
                                      second[name].drop(columns=timing), check_exact=True)


def test_a_seed_the_user_gave_is_kept():
    entry = {"estimator": "RandomForestClassifier", "params": {"random_state": 3}}
    assert seed_entry(entry, 0) is entry
    grid = {"estimator": "SVC", "grid": {"random_state": [1, 2]}}
    assert seed_entry(grid, 0) is grid
    assert seed_entry({"estimator": "GaussianNB"}, 0) == {"estimator": "GaussianNB"}
    assert seed_entry({"estimator": "SVC"}, None) == {"estimator": "SVC"}


def test_unscaled_scale_sensitive_models_are_noted():
    experiment = parse_experiment({"dataset": {"builtin": "moons"},
                                   "models": [{"name": "knn", "estimator": "KNeighborsClassifier"},
                                              {"name": "svc", "estimator": "SVC",
                                               "scale": True}]})
    assert any(n.startswith("knn depends on the scale") for n in map(str, experiment.notes))
    assert not any("svc depend" in n for n in map(str, experiment.notes))


# ------------------------------------------------------------------ messy files
@pytest.mark.slow
def test_a_european_spreadsheet_gives_the_clean_files_scores(tmp_path):
    import os

    from engine.input.data import load_csv

    clean = os.path.join(os.path.dirname(__file__), "data", "penguins.csv")
    frame = pd.read_csv(clean)
    frame.loc[3, "bill_length_mm"] = np.nan
    frame.to_csv(tmp_path / "clean.csv", index=False)
    messy = frame.copy()
    messy["island"] = messy["island"].str.replace("Torgersen", "Torgérsen")
    messy.to_csv(tmp_path / "messy.csv", sep=";", decimal=",", na_rep="?", index=False,
                 encoding="latin-1")
    frame["island"] = frame["island"].str.replace("Torgersen", "Torgérsen")
    frame.to_csv(tmp_path / "clean.csv", index=False)
    models = [ModelSpec("logistic", "LogisticRegression", {"max_iter": 1000}, True),
              ModelSpec("forest", "RandomForestClassifier", {"n_estimators": 10,
                                                             "random_state": 0})]
    scores = []
    for name in ("clean.csv", "messy.csv"):
        data = load_csv(str(tmp_path / name), target="species")
        result = run_to_end(run_cv(data, models, CVConfig(3, 2, 0), ["roc_auc_ovr", "accuracy"]))
        scores.append(result.scores.drop(columns="fit_seconds"))
    text = " ".join(map(str, data.notes))
    assert "decimal comma" in text.lower() or "decimal" in text
    pd.testing.assert_frame_equal(scores[0], scores[1], check_exact=True)


def test_model_names_with_control_characters_are_refused():
    with pytest.raises(ValueError, match=r"model name .x\\r=cr. holds a control character"):
        parse_experiment({"dataset": {"builtin": "moons"},
                          "models": [{"name": "x\r=cr", "estimator": "GaussianNB"}]})
