"""Subgroup performance (issue #42): the tables against scikit-learn, fairlearn and
statsmodels on real data (R's kyphosis: age in months; the Palmer penguins: sex), the
words, and the errors that say what to change."""
import json
import os

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

from engine.evaluation.curves.predictions import predictions_table
from engine.evaluation.experiment import parse_experiment
from engine.evaluation.stats import corrected_std
from engine.evaluation.subgroups import check_subgroups
from engine.evaluation.subgroups.calibration import calibration_pair
from engine.evaluation.subgroups.spec import MAX_LEVELS
from engine.evaluation.subgroups.tables import GAP_COLUMNS, SCORE_COLUMNS
from engine.foundation.errors import EngineError, error_code, error_fields
from engine.foundation.progress import run_to_end
from engine.input.readers import load_dataset
from engine.runs.analysis import run_experiment
from tests.helpers import assert_one_error_line, run_main
from tests.peers import peer

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
KYPHOSIS = {"csv": os.path.join(DATA, "kyphosis.csv"), "target": "Kyphosis",
            "exclude": ["Number"]}
MODELS = [{"name": "logistic", "estimator": "LogisticRegression", "scale": True},
          {"name": "tree", "estimator": "DecisionTreeClassifier", "params": {"max_depth": 2}}]


def _experiment(dataset=KYPHOSIS, subgroups=None, **more):
    data = {"dataset": dataset, "models": MODELS, "cv": {"n_splits": 3, "n_repeats": 3},
            "metrics": ["roc_auc", "accuracy", "f1"],
            "subgroups": subgroups or [{"column": "Age", "cuts": [40, 100]}, "Number"]}
    data.update(more)
    return parse_experiment(data)


@pytest.fixture(scope="module")
def kyphosis():
    experiment = _experiment()
    return run_to_end(run_experiment(experiment))


def _labels(result, column):
    """Each data row's subgroup label, as the table names it."""
    (grouping,) = check_subgroups(parse_experiment({**result.experiment.to_json(),
                                                    "subgroups": [column]}), result.dataset)
    return np.asarray(grouping.labels, dtype=object)[grouping.codes]


def test_scores_equal_sklearn_on_each_subgroups_rows_per_repeat_then_mean(kyphosis):
    scores = kyphosis.subgroups.scores
    assert list(scores.columns) == SCORE_COLUMNS
    table = predictions_table(kyphosis.cv, kyphosis.dataset)
    column = {"column": "Age", "cuts": [40, 100]}
    table["subgroup"] = _labels(kyphosis, column)[table["row"]]
    assert set(table["subgroup"]) == {"<= 40", "(40, 100]", "> 100"}
    checked = 0
    for (model, subgroup), part in table.groupby(["model", "subgroup"]):
        per_repeat = {"roc_auc": [], "accuracy": [], "f1": []}
        for _, rows in part.groupby("repeat"):
            truth = rows["true_class"] == "present"
            per_repeat["f1"].append(skm.f1_score(rows["true_class"], rows["predicted"],
                                                 pos_label="present"))
            per_repeat["accuracy"].append(skm.accuracy_score(rows["true_class"],
                                                             rows["predicted"]))
            per_repeat["roc_auc"].append(skm.roc_auc_score(truth, rows["p_present"])
                                         if truth.nunique() == 2 else np.nan)
        for metric, values in per_repeat.items():
            row = scores[(scores["model"] == model) & (scores["column"] == "Age")
                         & (scores["subgroup"] == subgroup) & (scores["metric"] == metric)]
            assert len(row) == 1
            assert row["score"].iloc[0] == pytest.approx(np.mean(values), abs=1e-12)
            checked += 1
    assert checked == 18


@pytest.mark.parametrize("positive", [0, 1])
def test_counted_metrics_equal_sklearn(positive):
    """Precision, recall, F1 and Jaccard from the counts, 0 where undefined, as sklearn."""
    from engine.evaluation.subgroups.scoring import COUNTED, counted_score

    rng = np.random.default_rng(positive)
    cases = [(rng.integers(0, 2, 40), rng.integers(0, 2, 40)),
             (np.zeros(6, int), np.zeros(6, int)), (np.ones(6, int), 1 - np.ones(6, int)),
             (np.array([0, 1, 1]), np.array([1, 1, 1]))]
    functions = {"precision": skm.precision_score, "recall": skm.recall_score,
                 "f1": skm.f1_score, "jaccard": skm.jaccard_score}
    import warnings

    for truth, predicted in cases:
        for metric in COUNTED:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected = functions[metric](truth, predicted, pos_label=positive,
                                             labels=[0, 1])
            assert counted_score(metric, truth, predicted, positive) == pytest.approx(expected,
                                                                                 abs=1e-15)


def test_sizes_verdicts_and_interval_bounds(kyphosis):
    scores = kyphosis.subgroups.scores
    age = scores[(scores["column"] == "Age") & (scores["model"] == "logistic")
                 & (scores["metric"] == "accuracy")].set_index("subgroup")
    ages = kyphosis.dataset.X["Age"]
    present = kyphosis.dataset.y == kyphosis.dataset.pos_label
    assert age.loc["<= 40", "n_rows"] == (ages <= 40).sum() == 26
    assert age.loc["> 100", "n_positive"] == (present & (ages > 100).to_numpy()).sum() == 9
    # 26 and 20 rows are under 30: no verdict; 35 rows with 9 and 26 per class: a verdict
    assert age["verdict_allowed"].to_dict() == {"<= 40": False, "(40, 100]": False,
                                                "> 100": True}
    assert (age["ci_low"] <= age["score"]).all() and (age["score"] <= age["ci_high"]).all()
    assert set(scores["method"]) == {"corrected_t_folds"}
    assert set(scores["estimand"]) == {"expected_score_at_training_size"}
    assert set(scores["level"]) == {0.95}


def test_interval_is_corrected_t_of_the_fold_scores(kyphosis):
    """The half-width by hand: t(0.975, J-1) * corrected std of the per-fold scores."""
    from scipy.stats import t

    table = predictions_table(kyphosis.cv, kyphosis.dataset)
    rows = table[(table["model"] == "logistic") & (kyphosis.dataset.X["Age"].to_numpy()[
        table["row"]] > 100)]
    folds = [skm.accuracy_score(part["true_class"], part["predicted"])
             for _, part in rows.groupby(["repeat", "fold"])]
    n_train, n_test = kyphosis.cv.train_test_sizes()
    half = t.ppf(0.975, len(folds) - 1) * corrected_std(folds, n_train, n_test)
    scores = kyphosis.subgroups.scores
    row = scores[(scores["model"] == "logistic") & (scores["subgroup"] == "> 100")
                 & (scores["metric"] == "accuracy")].iloc[0]
    assert row["score"] + half > 1                       # passes 1: cut at the range
    assert row["ci_high"] == 1.0
    assert row["score"] - row["ci_low"] == pytest.approx(half, abs=1e-12)


def test_parity_differences_equal_fairlearn(kyphosis):
    fairlearn = peer("fairlearn.metrics")
    table = predictions_table(kyphosis.cv, kyphosis.dataset)
    fairness = kyphosis.subgroups.fairness
    assert len(fairness) == 4
    for column in ({"column": "Age", "cuts": [40, 100]}, "Number"):
        name = column if isinstance(column, str) else column["column"]
        groups = _labels(kyphosis, column)
        for model, part in table.groupby("model"):
            dpd, eod, rates = [], [], []
            for _, rows in part.groupby("repeat"):
                truth = (rows["true_class"] == "present").astype(int)
                predicted = (rows["predicted"] == "present").astype(int)
                sensitive = groups[rows["row"]]
                dpd.append(fairlearn.demographic_parity_difference(
                    truth, predicted, sensitive_features=sensitive))
                eod.append(fairlearn.equalized_odds_difference(
                    truth, predicted, sensitive_features=sensitive))
                frame = fairlearn.MetricFrame(metrics=fairlearn.selection_rate, y_true=truth,
                                              y_pred=predicted, sensitive_features=sensitive)
                rates.append(frame.difference())
            row = fairness[(fairness["model"] == model) & (fairness["column"] == name)].iloc[0]
            assert row["demographic_parity_difference"] == pytest.approx(np.mean(dpd),
                                                                         abs=1e-12)
            assert row["demographic_parity_difference"] == pytest.approx(np.mean(rates),
                                                                         abs=1e-12)
            assert row["equalized_odds_difference"] == pytest.approx(np.mean(eod), abs=1e-12)
            assert row["n_repeats"] == 3


def test_calibration_equals_statsmodels_logistic_fits():
    sm = peer("statsmodels.api")
    rng = np.random.default_rng(3)
    p = rng.uniform(0.05, 0.95, 200)
    y = (rng.uniform(size=200) < p ** 1.5).astype(float)
    lp = np.log(p / (1 - p))
    citl, slope = calibration_pair(y, p)
    offset = sm.GLM(y, np.ones((200, 1)), family=sm.families.Binomial(), offset=lp).fit()
    full = sm.GLM(y, sm.add_constant(lp), family=sm.families.Binomial()).fit()
    assert citl == pytest.approx(offset.params[0], abs=1e-8)
    assert slope == pytest.approx(full.params[1], abs=1e-8)
    assert np.isnan(calibration_pair(np.zeros(5), np.full(5, 0.3))).all()


def test_calibration_table_per_subgroup(kyphosis):
    calibration = kyphosis.subgroups.calibration
    assert len(calibration) == 2 * (3 + 4)     # every model has probabilities
    row = calibration[(calibration["model"] == "logistic")
                      & (calibration["subgroup"] == "> 100")].iloc[0]
    table = predictions_table(kyphosis.cv, kyphosis.dataset)
    rows = table[(table["model"] == "logistic")
                 & (kyphosis.dataset.X["Age"].to_numpy()[table["row"]] > 100)]
    pairs = [calibration_pair((r["true_class"] == "present").to_numpy(float),
                              r["p_present"].to_numpy()) for _, r in rows.groupby("repeat")]
    assert row["calibration_in_the_large"] == pytest.approx(np.mean(pairs, axis=0)[0],
                                                            abs=1e-12)
    assert row["calibration_slope"] == pytest.approx(np.mean(pairs, axis=0)[1], abs=1e-12)


def test_gap_is_between_subgroups_with_a_verdict_and_tested_on_shared_folds():
    """Penguins, sex by species on 4 folds: every species has a verdict, so the gap is the
    largest difference of scores; p and interval from the fold-wise differences."""
    from scipy.stats import t

    dataset = {"csv": os.path.join(DATA, "penguins.csv"), "target": "sex",
               "exclude": ["year"]}
    experiment = _experiment(dataset, ["species"], cv={"n_splits": 4, "n_repeats": 2},
                             metrics=["accuracy"])
    result = run_to_end(run_experiment(experiment))
    scores, gaps = result.subgroups.scores, result.subgroups.gaps
    assert list(gaps.columns) == GAP_COLUMNS
    assert scores["verdict_allowed"].all()
    for model in ("logistic", "tree"):
        mine = scores[scores["model"] == model].set_index("subgroup")["score"]
        gap = gaps[gaps["model"] == model].iloc[0]
        assert gap["subgroup_high"] == mine.idxmax() and gap["subgroup_low"] == mine.idxmin()
        assert gap["gap"] == pytest.approx(mine.max() - mine.min(), abs=1e-12)
        table = predictions_table(result.cv, result.dataset)
        table = table[table["model"] == model]
        species = result.dataset.X["species"].to_numpy()[table["row"]]
        diffs = []
        for _, part in table.groupby(["repeat", "fold"]):
            kinds = species[part.index - table.index[0]]
            accuracy = {s: skm.accuracy_score(part["true_class"][kinds == s],
                                              part["predicted"][kinds == s])
                        for s in (gap["subgroup_high"], gap["subgroup_low"])}
            diffs.append(accuracy[gap["subgroup_high"]] - accuracy[gap["subgroup_low"]])
        std = corrected_std(diffs, *result.cv.train_test_sizes())
        p = min(1.0, 3 * 2 * t.sf(abs(gap["gap"]) / std, len(diffs) - 1))
        assert gap["p_value"] == pytest.approx(p, abs=1e-12)
        half = t.ppf(1 - 0.05 / 3 / 2, 7) * std           # Bonferroni over the 3 pairs
        assert gap["ci_high"] - gap["gap"] == pytest.approx(half, abs=1e-12)
        assert (gap["ci_low"] > 0) == (gap["p_value"] < 0.05)
    assert not len(result.subgroups.fairness) or set(result.subgroups.fairness["column"]) == \
        {"species"}


def test_missing_values_are_a_subgroup_and_quartiles_are_named():
    dataset = load_dataset({"csv": os.path.join(DATA, "penguins.csv"), "target": "species"},
                           base_dir=".")
    experiment = _experiment(subgroups=["sex", "body_mass_g"])
    sex, mass = check_subgroups(experiment, dataset)
    assert sex.labels == ("female", "male", "missing")
    assert (sex.codes == 2).sum() == dataset.X["sex"].isna().sum() == 11
    assert sex.is_feature and sex.cut == "categories"
    quartiles = np.nanquantile(dataset.X["body_mass_g"], [0.25, 0.5, 0.75])
    assert mass.cut == "quartiles"
    assert mass.labels[:4] == (f"Q1: <= {quartiles[0]:g}",
                               f"Q2: ({quartiles[0]:g}, {quartiles[1]:g}]",
                               f"Q3: ({quartiles[1]:g}, {quartiles[2]:g}]",
                               f"Q4: > {quartiles[2]:g}")
    assert mass.labels[4] == "missing"


def test_notes_name_small_subgroups_and_say_which_columns_are_features(kyphosis):
    notes = {note.code: note for note in kyphosis.notes}
    small = notes["subgroup_small"]
    assert ("Age", "<= 40", 26) in small.fields["subgroups"]
    assert ("Age", "> 100", 35) not in small.fields["subgroups"]
    assert dict(notes["subgroup_columns"].fields) == {"features": ("Age",), "left_out": ("Number",)}
    assert "fair" not in " ".join(str(n) for n in kyphosis.subgroups.notes).lower()


@pytest.mark.parametrize("subgroups, code", [
    (["Height"], "subgroup_column_unknown"),
    (["Kyphosis"], "subgroup_column_unknown"),
    ([{"column": "Age", "cuts": [1000]}], "subgroup_one_value"),
    ([{"column": "Age", "cuts": list(range(5, 5 + 10 * MAX_LEVELS, 10))[:19]}], None),
])
def test_columns_are_checked_with_codes(subgroups, code):
    dataset = load_dataset(KYPHOSIS, base_dir=".")
    experiment = _experiment(subgroups=subgroups)
    if code is None:
        assert len(check_subgroups(experiment, dataset)[0].labels) >= 2
        return
    with pytest.raises(EngineError) as caught:
        check_subgroups(experiment, dataset)
    assert caught.value.code == code


def test_too_many_levels_and_text_cuts_are_refused():
    frame = pd.DataFrame({"site": [f"s{i % 25}" for i in range(100)],
                          "x": np.arange(100.0), "y": ["a", "b"] * 50})
    from engine.input.data import dataset_from_frame

    dataset = dataset_from_frame(frame, "y")
    with pytest.raises(EngineError) as caught:
        check_subgroups(_experiment(subgroups=["site"]), dataset)
    assert caught.value.code == "subgroup_too_many_levels"
    assert caught.value.fields["n_levels"] == 25
    with pytest.raises(EngineError) as caught:
        check_subgroups(_experiment(subgroups=[{"column": "site", "cuts": [1]}]), dataset)
    assert caught.value.code == "subgroup_cuts_not_numeric"


@pytest.mark.parametrize("subgroups, code, fields", [
    ([{"column": "Age", "cuts": [65, 40]}], "subgroup_cuts_order", {"index": 0, "cuts": (65, 40)}),
    (["Age", "Age"], "subgroup_column_twice", {"column": "Age"}),
])
def test_bad_entries_are_refused_when_parsed(subgroups, code, fields):
    with pytest.raises(ValueError) as caught:
        _experiment(subgroups=subgroups)
    assert error_code(caught.value) == code and dict(error_fields(caught.value)) == fields


def test_an_entry_the_schema_refuses_names_its_place():
    with pytest.raises(ValueError) as caught:
        _experiment(subgroups=[{"column": "Age", "bins": 3}])
    assert "subgroups[0]" in str(caught.value)


def test_round_trip_and_datasets_refused():
    experiment = _experiment()
    again = parse_experiment(json.loads(json.dumps(experiment.to_json())))
    assert again.subgroups == experiment.subgroups
    with pytest.raises(ValueError, match="one data set"):
        parse_experiment({"datasets": [KYPHOSIS, KYPHOSIS], "models": MODELS,
                          "subgroups": ["Age"]})


def test_no_subgroups_no_result():
    experiment = parse_experiment({"dataset": KYPHOSIS, "models": MODELS[:1],
                                   "cv": {"n_splits": 3, "n_repeats": 1}})
    result = run_to_end(run_experiment(experiment))
    assert result.subgroups is None
    assert not any(name.startswith("subgroup") for name in result.tables())


@pytest.mark.slow
def test_headless_run_writes_the_tables_and_refuses_a_bad_column(tmp_path):
    data = {"dataset": KYPHOSIS, "models": MODELS, "cv": {"n_splits": 3, "n_repeats": 2},
            "metrics": ["accuracy"], "subgroups": [{"column": "Age", "cuts": [40, 100]}],
            "curves": {"pr": False, "decision": False}}        # writes predictions.csv
    (tmp_path / "exp.json").write_text(json.dumps(data))
    done = run_main(tmp_path / "exp.json", "--out", tmp_path / "out", "--quiet")
    assert done.returncode == 0, done.stderr
    scores = pd.read_csv(tmp_path / "out" / "subgroup_scores.csv")
    assert list(scores.columns) == SCORE_COLUMNS
    assert len(scores) == 2 * 3
    # the files alone: predictions.csv's rows of each subgroup, by the data file's Age
    predictions = pd.read_csv(tmp_path / "out" / "predictions.csv")
    age = pd.read_csv(KYPHOSIS["csv"])["Age"].to_numpy()[predictions["row"]]
    bins = np.where(age <= 40, "<= 40", np.where(age <= 100, "(40, 100]", "> 100"))
    for (model, label), part in predictions.groupby([predictions["model"], bins]):
        expected = np.mean([skm.accuracy_score(r["true_class"], r["predicted"])
                            for _, r in part.groupby("repeat")])
        row = scores[(scores["model"] == model) & (scores["subgroup"] == label)]
        assert row["score"].iloc[0] == pytest.approx(expected, abs=1e-12)
    for name in ("subgroup_gaps.csv", "subgroup_fairness.csv", "subgroup_calibration.csv"):
        assert (tmp_path / "out" / name).exists()
    assert "Subgroups" in (tmp_path / "out" / "report.html").read_text()
    (tmp_path / "bad.json").write_text(json.dumps({**data, "subgroups": ["Height"]}))
    done = run_main(tmp_path / "bad.json", "--out", tmp_path / "bad")
    assert_one_error_line(done, 'no column "Height"', "Age")


def test_report_section_and_tripod_items(kyphosis):
    import re

    from engine.output.report import build_report
    from engine.output.report.methods import tripod_rows

    page = build_report(kyphosis)
    start = page.index('id="subgroups"')
    body = page[start:page.index("<section", start + 1)]
    words = re.sub(r"<[^>]+>", " ", re.sub(r"<svg.*?</svg>", "", body, flags=re.S))
    assert "Age (a feature the models learn from" in words
    assert "Number (not a feature: left out of the models" in words
    assert body.count("<svg") == 2                   # one forest plot per column
    assert not re.search(r"\b(is|are|be|looks?|seems?) fair\b", words.lower())
    ids = re.findall(r'clipPath id="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    rows = dict(tripod_rows(kyphosis, kyphosis.tables()))
    assert rows["Performance in key subgroups"].startswith("subgroup_scores.csv")
    assert rows["Fairness across subgroups"].startswith("subgroup_fairness.csv")


def test_gap_words_never_call_a_model_fair():
    from types import SimpleNamespace

    from engine.output.report.subgroups import gap_sentence

    row = SimpleNamespace(model="m", metric="accuracy", column="sex", subgroup_high="f",
                          subgroup_low="m", gap=0.02, ci_low=-0.05, ci_high=0.09,
                          p_value=0.6)
    words = gap_sentence(row, 0.05)
    assert "does not show a difference" in words and "not evidence" in words
    shown = gap_sentence(SimpleNamespace(**{**vars(row), "p_value": 0.01}), 0.05)
    assert "would be unlikely" in shown
    assert "fair" not in (words + shown).lower()


def test_tripod_items_not_assessed_without_subgroups():
    from types import SimpleNamespace

    from engine.output.report.subgroups import tripod_subgroup_rows

    assert tripod_subgroup_rows(SimpleNamespace(subgroups=None)) == [
        ("Performance in key subgroups", "not assessed"),
        ("Fairness across subgroups", "not assessed")]


def test_a_stored_run_loads_with_its_subgroups_and_alpha_moves_the_intervals(tmp_path):
    """Nothing of the subgroups is stored: they are recomputed from the stored fits'
    predictions, so a loaded run has the same tables; another alpha gives other
    intervals around the same scores."""
    from engine.evaluation.stats import ComparisonSettings
    from engine.runs.analysis import load_run
    from engine.runs.store import ResultStore

    experiment = _experiment(subgroups=[{"column": "Age", "cuts": [100]}],
                             cv={"n_splits": 3, "n_repeats": 2})
    with ResultStore(str(tmp_path / "s.sqlite")) as store:
        first = run_to_end(run_experiment(experiment, store=store))
        loaded = run_to_end(load_run(store, store.runs()[0].id))
    pd.testing.assert_frame_equal(first.subgroups.scores, loaded.subgroups.scores)
    pd.testing.assert_frame_equal(first.subgroups.fairness, loaded.subgroups.fairness)
    wider = first.with_comparison(ComparisonSettings(alpha=0.01)).subgroups.scores
    assert (wider["score"].to_numpy() == first.subgroups.scores["score"].to_numpy()).all()
    assert set(wider["level"]) == {0.99}
    lows = first.subgroups.scores["ci_low"].to_numpy(dtype=float)
    inside = np.isfinite(lows) & (lows > 0)              # not already cut at 0
    assert inside.sum() >= 6
    assert (wider["ci_low"].to_numpy()[inside] < lows[inside]).all()
    assert (wider["ci_low"].to_numpy()[lows == 0] == 0).all()


def test_three_classes_scores_with_a_missing_subgroup_and_no_parity():
    """Penguins' species by sex (11 rows without a sex): accuracy per subgroup as
    scikit-learn's on predictions.csv; no parity or calibration for three classes."""
    dataset = {"csv": os.path.join(DATA, "penguins.csv"), "target": "species",
               "exclude": ["year"]}
    experiment = _experiment(dataset, ["sex"], metrics=["accuracy"],
                             models=MODELS[:1], cv={"n_splits": 3, "n_repeats": 2})
    result = run_to_end(run_experiment(experiment))
    scores = result.subgroups.scores.set_index("subgroup")
    assert list(scores.index) == ["female", "male", "missing"]
    assert scores.loc["missing", "n_rows"] == 11 and not scores.loc["missing", "verdict_allowed"]
    assert scores["n_positive"].isna().all()
    table = predictions_table(result.cv, result.dataset)
    sex = result.dataset.X["sex"].fillna("missing").to_numpy()[table["row"]]
    for label in ("female", "male", "missing"):
        part = table[sex == label]
        expected = np.mean([skm.accuracy_score(r["true_class"], r["predicted"])
                            for _, r in part.groupby("repeat")])
        assert scores.loc[label, "score"] == pytest.approx(expected, abs=1e-12)
    assert result.subgroups.fairness.empty and result.subgroups.calibration.empty
    assert set(result.subgroups.tables()) == {"subgroup_scores.csv", "subgroup_gaps.csv"}


def test_a_numeric_code_is_categories_and_tied_quartiles_are_plain_ranges():
    from engine.input.data import dataset_from_frame

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"sex": rng.integers(0, 2, 200), "x": rng.normal(size=200),
                          "skewed": np.r_[np.zeros(150), np.arange(50.0)],
                          "y": np.repeat(["a", "b"], 100)})
    dataset = dataset_from_frame(frame, "y")
    sex, skewed = check_subgroups(_experiment(subgroups=["sex", "skewed"]), dataset)
    assert sex.labels == ("0", "1") and sex.cut == "categories"
    assert (sex.codes == frame["sex"].to_numpy()).all()
    assert skewed.cut == "quartiles"
    quartiles = np.unique(np.quantile(frame["skewed"], [0.25, 0.5, 0.75]))
    assert len(quartiles) < 3 and skewed.labels[0] == f"<= {quartiles[0]:g}"


def test_label_metrics_score_the_kept_classes_not_the_argmax():
    """A tuned threshold predicts otherwise than the probabilities' argmax: the expected
    cost and accuracy of a subgroup score the classes the run kept."""
    from engine.evaluation.subgroups.scoring import score_rows
    from engine.evaluation.kept_responses import KeptResponses

    proba = np.array([[0.8, 0.2], [0.7, 0.3], [0.4, 0.6], [0.9, 0.1]])
    kept = np.array([1, 1, 1, 0])                     # a threshold of 0.15
    y = np.array([1, 0, 1, 0])
    responses = KeptResponses(kept, proba, None, [0, 1])
    context = {"labels": [0, 1], "pos_label": 1, "costs": ((0, 1), (5, 0))}
    roc, cost, accuracy = score_rows(responses, np.arange(4), y,
                                     ["roc_auc", "neg_expected_cost", "accuracy"], context)
    assert roc == skm.roc_auc_score(y, proba[:, 1])
    assert accuracy == skm.accuracy_score(y, kept) == 0.75
    assert cost == -0.25                              # one false alarm of cost 1 in 4 rows


def test_another_rope_keeps_the_subgroups_as_they_are(kyphosis):
    from engine.evaluation.stats import ComparisonSettings

    again = kyphosis.with_comparison(ComparisonSettings(rope=0.02))
    assert again.subgroups is kyphosis.subgroups


def test_at_alpha_equals_scoring_again_at_that_alpha(kyphosis):
    from engine.evaluation.subgroups import run_subgroups

    fresh = run_subgroups(kyphosis.experiment, kyphosis.dataset, kyphosis.cv, alpha=0.2)
    moved = kyphosis.subgroups.at_alpha(0.2)
    pd.testing.assert_frame_equal(fresh.scores, moved.scores)
    pd.testing.assert_frame_equal(fresh.gaps, moved.gaps)


def test_candidate_columns_are_features_then_left_out_columns():
    from engine.evaluation.subgroups import candidate_columns

    dataset = load_dataset({"csv": os.path.join(DATA, "penguins.csv"), "target": "species",
                            "exclude": ["year", "island"]}, base_dir=".")
    found = candidate_columns(dataset)
    assert found[-2:] == [("year", False, True), ("island", False, False)]
    assert ("sex", True, False) in found and ("body_mass_g", True, True) in found
    assert "species" not in [name for name, _, _ in found]


def test_clip_rules_keep_each_end_inside_the_metrics_range():
    from engine.evaluation.subgroups.tables import clip_gap, clip_score

    assert clip_score(0.9, 1.016, "roc_auc") == (0.9, 1.0)
    assert clip_score(-0.1, 0.4, "accuracy") == (0.0, 0.4)
    assert clip_score(-1.2, 0.3, "matthews_corrcoef") == (-1.0, 0.3)
    assert clip_score(-0.7, 0.05, "neg_log_loss") == (-0.7, 0.0)       # no lower limit
    assert clip_gap(-1.3, 1.2, "roc_auc") == (-1.0, 1.0)
    assert clip_gap(-2.5, 0.5, "matthews_corrcoef") == (-2.0, 0.5)      # width 2
    assert clip_gap(-3.0, 4.0, "neg_log_loss") == (-3.0, 4.0)           # open range
    low, high = clip_score(np.nan, np.nan, "roc_auc")
    assert np.isnan(low) and np.isnan(high)


def test_penguins_auc_intervals_are_clipped_at_one():
    """Penguins, sex by species, 4 folds x 2: the corrected t of four of the six subgroup
    AUCs passes 1 (up to 1.025 unclipped); the table cuts them at 1 and keeps the rest."""
    from scipy.stats import t

    dataset = {"csv": os.path.join(DATA, "penguins.csv"), "target": "sex",
               "exclude": ["year"]}
    experiment = _experiment(dataset, ["species"], cv={"n_splits": 4, "n_repeats": 2},
                             metrics=["roc_auc"])
    result = run_to_end(run_experiment(experiment))
    scores = result.subgroups.scores
    assert (scores["ci_high"] <= 1.0).all() and (scores["ci_low"] >= 0.0).all()
    table = predictions_table(result.cv, result.dataset)
    species = result.dataset.X["species"].to_numpy()
    n_train, n_test = result.cv.train_test_sizes()
    clipped = 0
    for row in scores.itertuples():
        part = table[(table["model"] == row.model) & (species[table["row"]] == row.subgroup)]
        folds = [skm.roc_auc_score(p["true_class"] == "male", p["p_male"])
                 for _, p in part.groupby(["repeat", "fold"])]
        half = t.ppf(0.975, len(folds) - 1) * corrected_std(folds, n_train, n_test)
        assert row.ci_low == pytest.approx(max(0.0, row.score - half), abs=1e-12)
        assert row.ci_high == pytest.approx(min(1.0, row.score + half), abs=1e-12)
        clipped += row.score + half > 1.0
    assert clipped == 4
    gaps = result.subgroups.gaps
    assert (gaps["ci_low"] >= -1.0).all() and (gaps["ci_high"] <= 1.0).all()


def test_score_tables_name_interval_and_estimand_by_the_catalogues_codes(kyphosis):
    from engine.evaluation.estimands import ESTIMANDS, INTERVALS
    from engine.evaluation.subgroups.tables import ESTIMAND, INTERVAL_ID

    assert set(kyphosis.subgroups.scores["estimand"]) == {ESTIMAND} <= set(ESTIMANDS)
    kind = INTERVALS[INTERVAL_ID]
    assert (kind.estimand, kind.table) == (ESTIMAND, "subgroup_scores.csv")
