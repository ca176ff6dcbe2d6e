"""Learning curves equal scikit-learn's learning_curve on the same splits (1e-12)."""
import numpy as np
import pytest
from sklearn.model_selection import learning_curve

from engine.evaluation.catalogue import expand_models, make_pipeline
from engine.evaluation.curves.learning import (flattening, learning_summary, run_learning,
                                               training_sizes)
from engine.evaluation.cv import CVConfig, make_splits, run_cv
from engine.input.data import load_builtin
from engine.foundation.progress import run_to_end

FRACTIONS = (0.1, 0.325, 0.55, 0.775, 1.0)


def _run(name, entries, metric, fractions, config, n_jobs=1):
    dataset = load_builtin(name)
    models = expand_models(entries)
    cv = run_to_end(run_cv(dataset, models, config, [metric]))
    result = run_to_end(run_learning(dataset, cv, models, fractions, n_jobs=n_jobs))
    return dataset, models, result


def _sklearn(dataset, spec, metric, fractions, config):
    X = dataset.X.to_numpy(dtype=float)
    splits = make_splits(dataset.y, config)
    sizes, _, test = learning_curve(make_pipeline(spec, dataset=dataset), X, dataset.y, cv=splits,
                                    train_sizes=list(fractions), scoring=metric,
                                    shuffle=False)
    return sizes, test


def _ours(result, model):
    table = result.scores[result.scores["model"] == model]
    pivot = table.pivot_table(index="n_train", columns=["repeat", "fold"], values="score",
                              dropna=False)
    return pivot.index.to_numpy(), pivot.to_numpy()


@pytest.mark.parametrize("entries", [
    [{"name": "logistic", "estimator": "LogisticRegression", "scale": True,
      "params": {"max_iter": 1000}}],
    [{"name": "tree", "estimator": "DecisionTreeClassifier", "params": {"random_state": 0}}],
])
@pytest.mark.slow
def test_breast_cancer_equals_sklearn(entries):
    config = CVConfig(n_splits=5, n_repeats=2, random_state=0)
    dataset, models, result = _run("breast_cancer", entries, "roc_auc", FRACTIONS, config)
    sizes, theirs = _sklearn(dataset, models[0], "roc_auc", FRACTIONS, config)
    ours_sizes, ours = _ours(result, models[0].name)
    np.testing.assert_array_equal(ours_sizes, sizes)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
    assert result.scores["score"].notna().all()


@pytest.mark.slow
def test_multiclass_digits_equals_sklearn_with_two_jobs():
    config = CVConfig(n_splits=3, n_repeats=1, random_state=1)
    entries = [{"name": "nb", "estimator": "GaussianNB"}]
    fractions = (0.2, 0.6, 1.0)
    dataset, models, result = _run("digits", entries, "accuracy", fractions, config, n_jobs=2)
    sizes, theirs = _sklearn(dataset, models[0], "accuracy", fractions, config)
    ours_sizes, ours = _ours(result, "nb")
    np.testing.assert_array_equal(ours_sizes, sizes)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)


@pytest.mark.slow
def test_parts_without_a_class_score_nan_with_a_note():
    # iris is sorted by class: the first rows of a training fold are all setosa
    config = CVConfig(n_splits=5, n_repeats=1, random_state=0)
    entries = [{"name": "logistic", "estimator": "LogisticRegression",
                "params": {"max_iter": 1000}}]
    dataset, models, result = _run("iris", entries, "accuracy", (0.1, 0.8, 1.0), config)
    small = result.scores[result.scores["fraction"] == 0.1]
    assert small["score"].isna().all() and small["n_train"].eq(12).all()
    assert result.scores[result.scores["fraction"] == 1.0]["score"].notna().all()
    missing = [n for n in result.notes if n.code == "learning_class_missing"]
    assert [(n.fields["fraction"], n.fields["n_folds"]) for n in missing] == [(0.1, 5)]
    # the same fractions in scikit-learn: its fit fails there too (error_score=nan)
    from sklearn.exceptions import FitFailedWarning

    with pytest.warns(FitFailedWarning):
        _, theirs = _sklearn(dataset, models[0], "accuracy", (0.1, 0.8, 1.0), config)
    assert np.isnan(theirs[0]).all()
    np.testing.assert_allclose(_ours(result, "logistic")[1][1:], theirs[1:], atol=1e-12)


def test_summary_band_and_flattening_rule():
    import pandas as pd

    scores = pd.DataFrame({"model": "m", "fraction": [0.5] * 4 + [1.0] * 4,
                           "n_train": [50] * 4 + [100] * 4, "metric": "accuracy",
                           "repeat": 1, "fold": [1, 2, 3, 4] * 2,
                           "score": [0.7, 0.72, 0.74, 0.76, 0.71, 0.75, 0.76, 0.78]})
    summary = learning_summary(scores)
    last = summary.iloc[1]
    values = np.array([0.71, 0.75, 0.76, 0.78])
    assert last["mean"] == pytest.approx(values.mean())
    assert last["se"] == pytest.approx(values.std(ddof=1) / 2)
    assert last["band_high"] == pytest.approx(min(values.mean() + values.std(ddof=1), 0.78))
    assert last["band_low"] == pytest.approx(max(values.mean() - values.std(ddof=1), 0.71))
    verdict = flattening(summary).iloc[0]
    assert verdict["gain"] == pytest.approx(values.mean() - 0.73)
    assert verdict["flattened"] == (verdict["gain"] < verdict["se"])


def test_training_sizes_follow_sklearn_rule():
    from sklearn.dummy import DummyClassifier

    X, y = np.zeros((25, 1)), np.tile([0, 1], 13)[:25]
    fractions, sizes = training_sizes([0.1, 0.101, 0.5, 1.0], 20)
    with pytest.warns(RuntimeWarning):        # scikit-learn merges 2 and 2 as well
        theirs, _, _ = learning_curve(DummyClassifier(), X, y,
                                      cv=[(np.arange(20), np.arange(20, 25))],
                                      train_sizes=[0.1, 0.101, 0.5, 1.0])
    np.testing.assert_array_equal(sizes, theirs)
    np.testing.assert_array_equal(fractions, [0.1, 0.5, 1.0])


def test_the_verdict_mentions_a_curve_that_may_still_rise():
    from types import SimpleNamespace

    import pandas as pd

    from engine.evaluation.curves.learning import LearningResult
    from engine.evaluation.verdict import learning_states, pair_verdict

    verdicts = pd.DataFrame({"model": ["a", "b"], "metric": "accuracy", "n_from": 50,
                             "n_to": 100, "gain": [0.05, 0.0], "se": [0.01, 0.01],
                             "flattened": [False, True]})
    curves = SimpleNamespace(learning=LearningResult(pd.DataFrame(), pd.DataFrame(), verdicts))
    states = learning_states(curves)
    assert states == {"a": False, "b": True}
    row = {"model_1": "a", "model_2": "b", "mean_difference": 0.02, "p_better": 0.9,
           "p_equivalent": 0.05, "p_worse": 0.05, "p_value": 0.01, "p_value_adjusted": 0.01,
           "p_value_two_sided": 0.02, "p_value_two_sided_adjusted": 0.02, "t_stat": 3.0}
    text = pair_verdict(row, "a", "b", 0.01, 0.05, learning=states).text
    assert "a's learning curve may still be rising" in text
    assert "b's learning curve" not in text
    assert "learning curve" not in pair_verdict(row, "a", "b", 0.01, 0.05).text
    assert learning_states(None) == {}


def test_progress_counts_the_planned_fits_and_closing_stops_between_fits():
    dataset = load_builtin("iris")
    models = expand_models([{"name": "nb", "estimator": "GaussianNB"}])
    config = CVConfig(n_splits=3, n_repeats=1, random_state=0)
    cv = run_to_end(run_cv(dataset, models, config, ["accuracy"]))
    records = []
    run_to_end(run_learning(dataset, cv, models, (0.05, 0.051, 0.5, 1.0)),
               on_progress=records.append)
    assert records[-1].done == records[-1].total == 4 * 3      # fractions x folds x models
    job = run_learning(dataset, cv, models, (0.8, 0.9, 1.0))
    first = next(job)
    job.close()                                                  # a cancel: no more fits
    assert first.done == 1 and first.total == 9


def test_shuffled_parts_equal_sklearn_shuffle_on_sorted_wine():
    # wine is sorted by class: without a shuffle the small parts lack classes
    config = CVConfig(n_splits=5, n_repeats=1, random_state=3)
    dataset = load_builtin("wine")
    models = expand_models([{"name": "logistic", "estimator": "LogisticRegression",
                             "scale": True, "params": {"max_iter": 1000}}])
    cv = run_to_end(run_cv(dataset, models, config, ["accuracy"]))
    result = run_to_end(run_learning(dataset, cv, models, (0.1, 0.55, 1.0), shuffle=True))
    X = dataset.X.to_numpy(dtype=float)
    sizes, _, theirs = learning_curve(make_pipeline(models[0], dataset=dataset), X, dataset.y,
                                      cv=make_splits(dataset.y, config),
                                      train_sizes=[0.1, 0.55, 1.0], scoring="accuracy",
                                      shuffle=True, random_state=3)
    ours_sizes, ours = _ours(result, "logistic")
    np.testing.assert_array_equal(ours_sizes, sizes)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
    assert not [n for n in result.notes if n.code == "learning_class_missing"]


def test_learning_shuffle_key_round_trips():
    from engine.evaluation.experiment import parse_experiment

    block = {"dataset": {"builtin": "wine"}, "models": [{"estimator": "GaussianNB"}],
             "curves": {"learning": [0.5, 1.0], "learning_shuffle": True}}
    experiment = parse_experiment(block)
    assert experiment.curves.learning_shuffle is True
    assert experiment.to_json()["curves"]["learning_shuffle"] is True
    plain = parse_experiment({**block, "curves": {"learning": [0.5, 1.0]}})
    assert "learning_shuffle" not in plain.to_json()["curves"]
    with pytest.raises(ValueError, match="learning_shuffle"):
        parse_experiment({**block, "curves": {"learning_shuffle": "yes"}})


@pytest.mark.parametrize("shuffle", [False, True])
def test_the_missing_class_advice_matches_how_the_parts_were_taken(shuffle):
    """Parts of 3 rows cannot hold iris's three classes however they are taken: the note
    advises a shuffle only when the parts were the folds' first rows."""
    config = CVConfig(n_splits=5, n_repeats=1, random_state=0)
    dataset = load_builtin("iris")
    models = expand_models([{"name": "nb", "estimator": "GaussianNB"}])
    cv = run_to_end(run_cv(dataset, models, config, ["accuracy"]))
    result = run_to_end(run_learning(dataset, cv, models, (0.025, 1.0), shuffle=shuffle))
    assert result.shuffled is shuffle
    missing = [n for n in result.notes if n.code == "learning_class_missing"]
    assert missing and all(n.fields["shuffled"] is shuffle for n in missing)
    text = str(missing[0])
    if shuffle:
        assert "drawn at random" in text and "shuffle the training folds" not in text
        assert "leave out the small fractions" in text
    else:
        assert "first 3 training rows" in text and "shuffle the training folds" in text


def test_the_flattening_step_is_paired_and_corrected():
    """Issue #38: the step is compared with its own corrected SE over the same folds,
    not with one mean's SE; the note's numbers are the verdict's."""
    import re

    import pandas as pd

    from engine.evaluation.curves.learning import verdict_note

    before = np.array([0.70, 0.72, 0.74, 0.76])
    after = np.array([0.71, 0.75, 0.76, 0.78])
    scores = pd.DataFrame({"model": "m", "fraction": [0.5] * 4 + [1.0] * 4,
                           "n_train": [50] * 4 + [100] * 4, "metric": "accuracy",
                           "repeat": 1, "fold": [1, 2, 3, 4] * 2,
                           "score": np.concatenate([before, after])})
    verdict = flattening(learning_summary(scores), scores=scores, n_test=25).iloc[0]
    differences = after - before
    assert verdict["gain"] == pytest.approx(differences.mean())
    assert verdict["se"] == pytest.approx(np.sqrt((1 / 4 + 25 / 100)
                                                  * differences.var(ddof=1)))
    assert not verdict["flattened"] and verdict["gain"] >= verdict["se"]
    text = str(verdict_note(verdict))
    found = re.search(r"changed by ([+-][\d.]+), more than the standard error of that "
                      r"change over the same folds \(([\d.]+), widened", text)
    assert float(found.group(1)) == pytest.approx(verdict["gain"], abs=5e-5)
    assert float(found.group(2)) == pytest.approx(verdict["se"], abs=5e-5)
