"""Grouped rows (issue #14): the "groups" column, StratifiedGroupKFold folds, checks, notes."""
import json

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import StratifiedGroupKFold, cross_val_score

from engine.evaluation.catalogue import expand_models, make_pipeline
from engine.foundation.errors import error_code, error_fields
from engine.evaluation.cv import CVConfig, fold_notes, make_splits, run_cv
from engine.input.data import dataset_from_frame
from engine.input.readers import load_dataset
from engine.input.groups import groups_per_class
from engine.foundation.notes import CODES
from engine.foundation.progress import run_to_end
from engine.foundation.schema import check_experiment_schema
from tests.helpers import assert_one_error_line, run_main, visits


@pytest.fixture(scope="module")
def grouped():
    return dataset_from_frame(visits(), "label", name="visits", groups="subject",
                              source={"csv": "visits.csv", "groups": "subject"})


def test_groups_column_is_kept_as_codes_and_is_not_a_feature(grouped):
    frame = visits()
    assert list(grouped.X.columns) == ["x1", "x2"]
    _, codes = np.unique(frame["subject"], return_inverse=True)    # scikit-learn's order
    np.testing.assert_array_equal(grouped.groups, codes)
    assert len(np.unique(grouped.groups)) == 30
    assert grouped.source["groups"] == "subject"
    assert not any(n.code == "groups_suggested" for n in grouped.notes)


@pytest.mark.parametrize("seed", [0, 7])
def test_grouped_folds_equal_stratified_group_kfold_per_repeat(grouped, seed):
    config = CVConfig(n_splits=4, n_repeats=3, random_state=seed)
    ours = make_splits(grouped.y, config, grouped.groups)
    assert len(ours) == 12
    for repeat in range(3):
        splitter = StratifiedGroupKFold(n_splits=4, shuffle=True, random_state=seed + repeat)
        theirs = list(splitter.split(grouped.X, grouped.y, grouped.groups))
        for fold, (train, test) in enumerate(theirs):
            our_train, our_test = ours[repeat * 4 + fold]
            np.testing.assert_array_equal(np.sort(our_train), np.sort(train))
            np.testing.assert_array_equal(our_test, np.sort(test))
    repeats = [frozenset(map(tuple, (np.sort(t) for _, t in ours[r * 4:(r + 1) * 4])))
               for r in range(3)]
    assert len(set(repeats)) > 1                  # the repeats differ


def test_no_group_is_ever_in_both_training_and_test(grouped):
    for train, test in make_splits(grouped.y, CVConfig(5, 4, 2), grouped.groups):
        assert not set(grouped.groups[train]) & set(grouped.groups[test])
        assert len(train) + len(test) == grouped.n_rows


@pytest.mark.slow
def test_fold_scores_equal_cross_val_score_with_groups(grouped):
    specs = expand_models([{"name": "tree", "estimator": "DecisionTreeClassifier",
                            "params": {"random_state": 0, "max_depth": 3}},
                           {"name": "logistic", "estimator": "LogisticRegression"}])
    config = CVConfig(n_splits=5, n_repeats=3, random_state=11)
    result = run_to_end(run_cv(grouped, specs, config, ["accuracy", "roc_auc"]))
    X = grouped.X.to_numpy()
    for spec in specs:
        for metric in ("accuracy", "roc_auc"):
            expected = np.concatenate([
                cross_val_score(make_pipeline(spec, dataset=grouped), X, grouped.y,
                                groups=grouped.groups,
                                cv=StratifiedGroupKFold(5, shuffle=True, random_state=11 + i),
                                scoring=metric) for i in range(3)])
            ours = result.scores.query("model == @spec.name and metric == @metric")["score"]
            np.testing.assert_allclose(ours.to_numpy(), expected, rtol=1e-12, atol=1e-12)


def test_corrected_test_uses_the_realized_mean_fold_sizes(grouped):
    specs = expand_models([{"name": "nb", "estimator": "GaussianNB"}])
    config = CVConfig(n_splits=4, n_repeats=2, random_state=0)
    result = run_to_end(run_cv(grouped, specs, config, ["accuracy"]))
    splits = [s for i in range(2) for s in StratifiedGroupKFold(4, shuffle=True, random_state=i)
              .split(grouped.X, grouped.y, grouped.groups)]
    sizes = np.array([(len(train), len(test)) for train, test in splits])
    assert len(set(sizes[:, 1])) > 1                  # grouped folds are uneven here
    np.testing.assert_allclose(result.train_test_sizes(), sizes.mean(axis=0), rtol=0, atol=0)


# ----------------------------------------------------------------------------- errors

def test_missing_group_values_are_a_clear_error():
    frame = visits()
    frame.loc[[3, 8], "subject"] = np.nan
    with pytest.raises(ValueError, match=r"'subject' has 2 missing value\(s\) \(data row\(s\) "
                                         r"4, 9\).*fill them in"):
        dataset_from_frame(frame, "label", groups="subject")


def test_groups_cannot_be_the_target_or_a_missing_column():
    with pytest.raises(ValueError, match="is the target"):
        dataset_from_frame(visits(), "label", groups="label")
    with pytest.raises(ValueError, match="no column 'patient'"):
        dataset_from_frame(visits(), "label", groups="patient")


def test_builtin_data_with_groups_is_a_clear_error():
    with pytest.raises(ValueError) as caught:
        load_dataset({"builtin": "iris", "groups": "x"})
    assert error_code(caught.value) == "builtin_no_groups"
    assert error_fields(caught.value)["name"] == "iris"


def test_fewer_groups_than_folds_is_a_clear_error():
    ds = dataset_from_frame(visits(n_subjects=6, label_every=2), "label", groups="subject")
    with pytest.raises(ValueError, match=r"only 6 group\(s\).*lower the number of folds to 6"):
        make_splits(ds.y, CVConfig(n_splits=10, n_repeats=1), ds.groups)


def test_a_class_in_one_group_only_is_a_clear_error():
    frame = visits(n_subjects=12)
    frame["label"] = np.where(frame["subject"] == "S00", "yes", "no")
    ds = dataset_from_frame(frame, "label", groups="subject")
    with pytest.raises(ValueError, match="class with code 1 occurs in only one group"):
        make_splits(ds.y, CVConfig(n_splits=3, n_repeats=1), ds.groups)
    specs = expand_models([{"estimator": "GaussianNB"}])
    with pytest.raises(ValueError, match="class 'yes' occurs in only one group.*add data"):
        run_to_end(run_cv(ds, specs, CVConfig(3, 1, 0), ["accuracy"]))


def test_weka_scheme_with_groups_is_a_clear_error(grouped):
    with pytest.raises(ValueError, match='"weka" cannot keep rows that belong together.*'
                                         '"sklearn" scheme'):
        make_splits(grouped.y, CVConfig(5, 1, 1, scheme="weka"), grouped.groups)


def test_class_in_fewer_groups_than_folds_gets_a_note():
    ds = dataset_from_frame(visits(n_subjects=12, label_every=4), "label", groups="subject")
    assert list(groups_per_class(ds.y, ds.groups)) == [9, 3]   # no: 9 subjects, yes: 3
    notes = fold_notes(ds.y, ds.classes, CVConfig(5, 1, 0), ds.groups)
    assert [n.code for n in notes] == ["grouped_small_classes"]
    fields = notes[0].fields
    assert (list(fields["classes"]), list(fields["counts"]), fields["n_splits"]) == (["yes"], [3], 5)
    assert fold_notes(ds.y, ds.classes, CVConfig(3, 1, 0), ds.groups) == []
    assert "grouped_small_classes" in CODES


# ----------------------------------------------------------------------------- the note

def test_identifier_with_repeats_is_suggested_as_groups():
    frame = visits()
    frame["visit_no"] = frame.groupby("subject").cumcount() + 1   # integer, not an id name
    frame["patient_id"] = pd.factorize(frame["subject"])[0] + 100   # integer, id name
    frame["SiteID"] = pd.factorize(frame["subject"])[0] // 3        # camel-case id name
    ds = dataset_from_frame(frame, "label")
    suggested = {n.fields["column"]: n for n in ds.notes if n.code == "groups_suggested"}
    assert set(suggested) == {"subject", "patient_id", "SiteID"}
    per_value = len(frame) / 30
    assert suggested["subject"].fields["n_values"] == 30
    assert suggested["subject"].fields["rows_per_value"] == round(per_value, 2)
    assert '"groups"' in str(suggested["subject"])
    assert "subject" in ds.X.columns                      # never automatic
    assert "groups_suggested" in CODES


def test_matched_sets_are_suggested_as_groups():
    """R's infert (a matched case-control study): each ``stratum`` is one case and two
    controls matched on age, parity and education, so its rows belong together."""
    rng = np.random.default_rng(2)
    frame = pd.DataFrame({"stratum": np.repeat(np.arange(1, 41), 3),
                          "age": np.repeat(rng.integers(21, 44, 40), 3),
                          "induced": rng.integers(0, 3, 120),
                          "case": np.tile([1, 0, 0], 40)})
    frame["pair"] = np.arange(120) // 2
    ds = dataset_from_frame(frame, "case")
    suggested = {n.fields["column"] for n in ds.notes if n.code == "groups_suggested"}
    assert suggested == {"stratum", "pair"}                  # not "age", a measurement


def test_no_suggestion_for_measurements_or_few_categories():
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"colour": rng.choice(["red", "blue", "green"], 90),
                          "size": rng.integers(1, 20, 90), "x": rng.normal(size=90),
                          "fluid": rng.integers(0, 30, 90), "arm_id": rng.choice(["A", "B"], 90),
                          "label": rng.choice(["a", "b"], 90)})
    ds = dataset_from_frame(frame, "label")
    assert not [n for n in ds.notes if n.code == "groups_suggested"]


# ----------------------------------------------------------------------------- headless

@pytest.mark.slow
def test_headless_run_with_groups_end_to_end(tmp_path):
    visits().to_csv(tmp_path / "visits.csv", index=False)
    experiment = {"dataset": {"csv": "visits.csv", "target": "label", "groups": "subject"},
                  "models": [{"name": "nb", "estimator": "GaussianNB"},
                             {"name": "tree", "estimator": "DecisionTreeClassifier",
                              "params": {"random_state": 0, "max_depth": 2}}],
                  "cv": {"n_splits": 5, "n_repeats": 2, "random_state": 4},
                  "metrics": ["accuracy"]}
    check_experiment_schema(experiment)
    path = tmp_path / "exp.json"
    path.write_text(json.dumps(experiment))
    done = run_main(path, "--out", tmp_path / "out", "--quiet")
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "out" / "run.json").read_text())
    assert record["data"]["groups"] == "subject" and record["data"]["n_groups"] == 30
    assert record["data"]["n_features"] == 2
    frame = visits()
    scores = pd.read_csv(tmp_path / "out" / "fold_scores.csv")
    ds = dataset_from_frame(frame, "label", groups="subject")
    expected = np.concatenate([cross_val_score(
        make_pipeline(expand_models([{"estimator": "GaussianNB"}])[0], dataset=ds), ds.X.to_numpy(),
        ds.y,
        groups=ds.groups, cv=StratifiedGroupKFold(5, shuffle=True, random_state=4 + i),
        scoring="accuracy") for i in range(2)])
    np.testing.assert_allclose(scores.query("model == 'nb'")["score"], expected, rtol=1e-12)
    file_form = {**experiment, "dataset": {"file": "visits.csv", "target": "label",
                                           "groups": "subject"}}
    path.write_text(json.dumps(file_form))
    done = run_main(path, "--out", tmp_path / "out2", "--quiet")
    assert done.returncode == 0, done.stderr
    again = pd.read_csv(tmp_path / "out2" / "fold_scores.csv")
    pd.testing.assert_series_equal(again["score"], scores["score"])


@pytest.mark.slow
def test_headless_errors_are_one_line(tmp_path):
    frame = visits()
    frame.loc[5, "subject"] = ""
    frame.to_csv(tmp_path / "visits.csv", index=False)
    path = tmp_path / "exp.json"
    path.write_text(json.dumps({"dataset": {"csv": "visits.csv", "target": "label",
                                            "groups": "subject"},
                                "models": [{"estimator": "GaussianNB"}],
                                "cv": {"n_splits": 3, "n_repeats": 1}}))
    assert_one_error_line(run_main(path, "--out", tmp_path / "o"), "'subject'", "missing")
    path.write_text(json.dumps({"dataset": {"builtin": "iris", "groups": "x"},
                                "models": [{"estimator": "GaussianNB"}]}))
    assert_one_error_line(run_main(path, "--out", tmp_path / "o2"), "groups")
