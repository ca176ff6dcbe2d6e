"""Issue #40: the app's fold schemes as scikit-learn cross-validators
(:mod:`engine.evaluation.splitters`).

``FROZEN`` holds digests of the folds :func:`engine.evaluation.cv.make_splits` gave before
the splitters became classes (computed with the functions of commit c6a6f94): the classes
must give exactly those folds, and scikit-learn's ``cross_validate`` and ``GridSearchCV``
given them as ``cv=`` must score exactly as the app's runs do.
"""
import hashlib
import warnings

import numpy as np
import pytest
import sklearn
from sklearn.model_selection import (
    GridSearchCV,
    RepeatedStratifiedKFold,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB

from engine.evaluation.catalogue import expand_models, make_pipeline
from engine.evaluation.cv import (
    CVConfig,
    feature_matrix,
    make_splits,
    run_cross_validator,
    run_cv,
)
from engine.evaluation.splitters import (
    RepeatedStratifiedGroupKFold,
    RepeatedWekaFold,
    inner_grouped_splits,
)
from engine.evaluation.weka_folds import weka_splits
from engine.foundation.progress import run_to_end
from engine.input.data import dataset_from_frame
from engine.input.readers import load_dataset
from tests.helpers import visits
from tests.test_weka_folds import CASES as WEKA_CASES
from tests.test_weka_folds import FOLDER as WEKA_FOLDER

# (data, rows, data seed, scheme, n_splits, n_repeats, random_state, grouped, digest)
FROZEN = [
    ('binary', 60, 0, 'sklearn', 5, 3, 0, False, 'c6364a7216c9e0b7'),
    ('binary', 60, 0, 'sklearn', 3, 2, 0, False, '0d732e9d51972808'),
    ('binary', 60, 0, 'sklearn', 5, 3, 7, False, '797313922a009ba9'),
    ('binary', 60, 0, 'sklearn', 3, 2, 7, False, '7b9d0c6b16a230b4'),
    ('binary', 60, 0, 'weka', 5, 3, 1, False, '626da942463bbf1b'),
    ('binary', 60, 0, 'weka', 3, 2, 1, False, '17233ad0cf245aee'),
    ('binary', 60, 0, 'weka', 5, 3, 42, False, 'bad5c8b90296c16a'),
    ('binary', 60, 0, 'weka', 3, 2, 42, False, '91bb4611046c4889'),
    ('binary', 60, 0, 'sklearn', 5, 3, 0, True, '5c7230153f27dae8'),
    ('binary', 60, 0, 'sklearn', 3, 2, 0, True, '46f993bccc152aea'),
    ('binary', 60, 0, 'sklearn', 5, 3, 11, True, 'a2a26ba9e4cc7277'),
    ('binary', 60, 0, 'sklearn', 3, 2, 11, True, '1a3a79962912e207'),
    ('three', 97, 1, 'sklearn', 5, 3, 0, False, '850b5c1be38bf2bd'),
    ('three', 97, 1, 'sklearn', 3, 2, 0, False, '0164f1ae7d59a06d'),
    ('three', 97, 1, 'sklearn', 5, 3, 7, False, '1d161b1a0eb8914d'),
    ('three', 97, 1, 'sklearn', 3, 2, 7, False, '9f55122e5029aaac'),
    ('three', 97, 1, 'weka', 5, 3, 1, False, 'eb5ddbc687cd467c'),
    ('three', 97, 1, 'weka', 3, 2, 1, False, '9a05315627bba451'),
    ('three', 97, 1, 'weka', 5, 3, 42, False, '116c683b12912078'),
    ('three', 97, 1, 'weka', 3, 2, 42, False, '97f73b78a62dd927'),
    ('three', 97, 1, 'sklearn', 5, 3, 0, True, '2fe47e9a1fb46318'),
    ('three', 97, 1, 'sklearn', 3, 2, 0, True, 'a3085d2e39a49ae1'),
    ('three', 97, 1, 'sklearn', 5, 3, 11, True, '53818905ffdbcd83'),
    ('three', 97, 1, 'sklearn', 3, 2, 11, True, '64e777c2cf4655c6'),
    ('binary', 203, 2, 'sklearn', 5, 3, 0, False, '07cb1b638e686ac0'),
    ('binary', 203, 2, 'sklearn', 3, 2, 0, False, '8b5bb1b534720f53'),
    ('binary', 203, 2, 'sklearn', 5, 3, 7, False, 'f8fa367d58c282e5'),
    ('binary', 203, 2, 'sklearn', 3, 2, 7, False, '4ad48900cbf5ce17'),
    ('binary', 203, 2, 'weka', 5, 3, 1, False, 'c14c4cd1289b4e68'),
    ('binary', 203, 2, 'weka', 3, 2, 1, False, 'ff05cd447789b6dd'),
    ('binary', 203, 2, 'weka', 5, 3, 42, False, 'e6de1df8059754e2'),
    ('binary', 203, 2, 'weka', 3, 2, 42, False, '782c16f0e7636ef9'),
    ('binary', 203, 2, 'sklearn', 5, 3, 0, True, 'b16bd113b739cf02'),
    ('binary', 203, 2, 'sklearn', 3, 2, 0, True, 'a5ff00dd647c968c'),
    ('binary', 203, 2, 'sklearn', 5, 3, 11, True, '30a5ddd467083cb1'),
    ('binary', 203, 2, 'sklearn', 3, 2, 11, True, '68a7694bed1a9423'),
]
# (data, rows, data seed, n_splits, random_state, digest) of inner_grouped_splits
FROZEN_INNER = [
    ('binary', 60, 0, 3, 0, '982f5a79c41df5d7'),
    ('binary', 60, 0, 4, 5, '5f3697f63bc0942e'),
    ('three', 97, 1, 3, 0, '4f103f78ae03d484'),
    ('three', 97, 1, 4, 5, 'aae29b7a8d945875'),
]


def _digest(splits) -> str:
    h = hashlib.sha256()
    for train, test in splits:
        h.update(np.asarray(train, np.int64).tobytes())
        h.update(b"|")
        h.update(np.asarray(test, np.int64).tobytes())
        h.update(b";")
    return h.hexdigest()[:16]


def _data(kind, n, seed):
    rng = np.random.RandomState(seed)
    y = (rng.rand(n) < 0.3).astype(int) if kind == "binary" else rng.randint(0, 3, n)
    return y, rng.randint(0, n // 4, n)


#: The scikit-learn the grouped digests were computed with: its StratifiedGroupKFold
#: shuffles differently from older releases (1.7 gives other folds for the same seed), so
#: under another release the grouped folds are checked against that class called directly,
#: as the functions before the change called it.
FROZEN_SKLEARN = "1.9.1"


def _before_grouped(y, groups, k, r, seed):
    """The grouped folds as the code before the change made them: one
    ``StratifiedGroupKFold(k, shuffle=True, random_state=seed + i)`` per repeat."""
    from sklearn.model_selection import StratifiedGroupKFold

    pairs = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for i in range(r):
            folds = StratifiedGroupKFold(k, shuffle=True,
                                         random_state=None if seed is None else seed + i)
            pairs += [(train, np.sort(test)) for train, test in
                      folds.split(np.zeros(len(y)), y, groups)]
    return pairs


def _expected_digest(digest, y, groups, k, r, seed):
    """``digest``, or under another scikit-learn the digest of :func:`_before_grouped`."""
    if groups is None or sklearn.__version__ == FROZEN_SKLEARN:
        return digest
    return _digest(_before_grouped(y, groups, k, r, seed))


def _sorted_tests(splits):
    return [(train, np.sort(test)) for train, test in splits]


@pytest.mark.parametrize("case", FROZEN, ids=lambda c: "-".join(map(str, c[:8])))
def test_the_classes_give_the_folds_of_before(case):
    kind, n, data_seed, scheme, k, r, seed, grouped, digest = case
    y, groups = _data(kind, n, data_seed)
    groups = groups if grouped else None
    config = CVConfig(n_splits=k, n_repeats=r, random_state=seed, scheme=scheme)
    digest = _expected_digest(digest, y, groups, k, r, seed)
    assert _digest(make_splits(y, config, groups)) == digest
    splitter = run_cross_validator(config, grouped=grouped)
    assert splitter.get_n_splits() == k * r
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)   # a class in fewer groups than folds
        pairs = list(splitter.split(np.zeros((n, 1)), y, groups))
    assert _digest(_sorted_tests(pairs)) == digest
    if scheme == "weka":
        assert _digest(_sorted_tests(weka_splits(y, k, r, seed))) == digest


@pytest.mark.parametrize("case", FROZEN_INNER, ids=lambda c: "-".join(map(str, c[:5])))
def test_inner_grouped_folds_are_those_of_before(case):
    kind, n, data_seed, k, seed, digest = case
    y, groups = _data(kind, n, data_seed)
    digest = _expected_digest(digest, y, groups, k, 1, seed)
    assert _digest(inner_grouped_splits(y, groups, k, random_state=seed)) == digest


def wekas_own_pairs(case) -> list:
    """Weka 3.6's own (train, test) pairs of a fixture case that keeps the training
    order (tests/data/weka/weka_folds.json), train in Weka's order, test ascending."""
    k = case["n_splits"]
    pairs = []
    for split, train in enumerate(case["train"]):
        fold = np.array(list(case["test_fold"][split // k]))
        pairs.append((train, np.flatnonzero(fold == np.base_repr(split % k, 36).lower())))
    return pairs


@pytest.mark.parametrize("case", [c for c in WEKA_CASES if "train" in c],
                         ids=lambda c: f"{c['data']}-k{c['n_splits']}-s{c['random_state']}")
def test_weka_class_gives_wekas_own_folds_in_wekas_training_order(case):
    y = load_dataset({"csv": f"{case['data']}.csv", "target": "class"}, base_dir=WEKA_FOLDER).y
    cv = RepeatedWekaFold(case["n_splits"], case["n_repeats"], case["random_state"])
    pairs = list(cv.split(None, y))
    expected = wekas_own_pairs(case)
    assert len(pairs) == len(expected) == cv.get_n_splits() == 9
    for (train, test), (their_train, their_test) in zip(pairs, expected):
        assert train.tolist() == list(their_train)              # Weka's order, not sorted
        assert sorted(test.tolist()) == their_test.tolist()


def _grouped():
    return dataset_from_frame(visits(), "label", name="visits", groups="subject",
                              source={"csv": "visits.csv", "groups": "subject"})


def _iris():
    return load_dataset({"builtin": "iris"})


def _app_scores(dataset, config, spec, metric):
    result = run_to_end(run_cv(dataset, [spec], config, [metric]))
    rows = result.scores.query("metric == @metric").sort_values(["repeat", "fold"])
    return rows["score"].to_numpy()


SCHEMES = [("sklearn", 3, False), ("weka", 1, False), ("sklearn", 5, True)]


@pytest.mark.parametrize("scheme,seed,grouped", SCHEMES, ids=["sklearn", "weka", "grouped"])
def test_cross_validate_with_the_classes_scores_as_the_app(scheme, seed, grouped):
    dataset = _grouped() if grouped else _iris()
    config = CVConfig(n_splits=3, n_repeats=2, random_state=seed, scheme=scheme)
    spec = expand_models([{"name": "logistic", "estimator": "LogisticRegression",
                           "scale": True}])[0]
    ours = _app_scores(dataset, config, spec, "neg_log_loss")
    theirs = cross_validate(make_pipeline(spec, dataset=dataset), feature_matrix(dataset),
                            dataset.y,
                            groups=dataset.groups, scoring="neg_log_loss",
                            cv=run_cross_validator(config, grouped=grouped))["test_score"]
    assert len(ours) == 6
    np.testing.assert_allclose(theirs, ours, rtol=0, atol=1e-12)


@pytest.mark.parametrize("scheme,seed,grouped", SCHEMES, ids=["sklearn", "weka", "grouped"])
def test_grid_search_with_the_classes_scores_as_the_app(scheme, seed, grouped):
    dataset = _grouped() if grouped else _iris()
    config = CVConfig(n_splits=3, n_repeats=2, random_state=seed, scheme=scheme)
    X = feature_matrix(dataset)
    search = GridSearchCV(GaussianNB(), {"var_smoothing": [1e-9, 0.1]},
                          scoring="neg_log_loss", cv=run_cross_validator(config, grouped=grouped))
    search.fit(X, dataset.y, groups=dataset.groups)
    app = []
    for member, smoothing in enumerate((1e-9, 0.1)):
        spec = expand_models([{"name": f"nb{member}", "estimator": "GaussianNB",
                               "params": {"var_smoothing": smoothing}}])[0]
        app.append(_app_scores(dataset, config, spec, "neg_log_loss"))
        theirs = [search.cv_results_[f"split{s}_test_score"][member] for s in range(6)]
        np.testing.assert_allclose(theirs, app[-1], rtol=0, atol=1e-12)
    assert np.abs(app[0] - app[1]).max() > 1e-3          # the members tell apart


def test_grouped_class_gets_the_groups_through_metadata_routing():
    dataset = _grouped()
    config = CVConfig(n_splits=3, n_repeats=2, random_state=5)
    cv = run_cross_validator(config, grouped=True)
    X = feature_matrix(dataset)
    plain = GridSearchCV(GaussianNB(), {"var_smoothing": [1e-9]}, cv=cv)
    plain.fit(X, dataset.y, groups=dataset.groups)
    with sklearn.config_context(enable_metadata_routing=True):
        routed = GridSearchCV(GaussianNB(), {"var_smoothing": [1e-9]}, cv=cv)
        routed.fit(X, dataset.y, groups=dataset.groups)
    scores = [plain.cv_results_[f"split{s}_test_score"][0] for s in range(6)]
    assert [routed.cv_results_[f"split{s}_test_score"][0] for s in range(6)] == scores


def test_the_classes_follow_scikit_learns_conventions():
    weka = RepeatedWekaFold(n_splits=4, n_repeats=3, random_state=7)
    grouped = RepeatedStratifiedGroupKFold(n_splits=4, n_repeats=3, random_state=7)
    assert (weka.get_n_splits(), grouped.get_n_splits()) == (12, 12)
    assert repr(weka) == "RepeatedWekaFold(n_repeats=3, n_splits=4, random_state=7)"
    assert repr(grouped) == ("RepeatedStratifiedGroupKFold(n_repeats=3, n_splits=4, "
                             "random_state=7)")
    assert grouped.get_metadata_routing().split.requests == {"groups": True}
    assert weka.get_metadata_routing().split.requests.get("groups") is not True
    y = np.array([0, 1] * 10)
    with pytest.raises(TypeError, match="integer random_state"):
        next(RepeatedWekaFold(random_state=None).split(None, y))
    with pytest.raises(ValueError, match="needs y"):
        next(weka.split(np.zeros((20, 1))))
    with pytest.raises(ValueError, match="n_repeats must be an integer of at least 1"):
        next(RepeatedWekaFold(n_repeats=0).split(None, y))
    with pytest.raises(ValueError):
        next(weka.split(np.zeros((19, 1)), y))                    # X and y lengths differ


def test_grouped_repeats_are_seeded_one_apart_and_keep_groups_whole():
    y, groups = _data("binary", 80, 3)
    pairs = list(RepeatedStratifiedGroupKFold(4, 2, random_state=10).split(y, y, groups))
    second = list(RepeatedStratifiedGroupKFold(4, 1, random_state=11).split(y, y, groups))
    assert _digest(pairs[4:]) == _digest(second)
    assert _digest(pairs[:4]) != _digest(second)
    for train, test in pairs:
        assert not set(groups[train]) & set(groups[test])
        assert sorted([*train, *test]) == list(range(80))


def test_sklearn_scheme_is_scikit_learns_own_class():
    config = CVConfig(n_splits=5, n_repeats=2, random_state=4)
    splitter = run_cross_validator(config)
    assert type(splitter) is RepeatedStratifiedKFold
    assert splitter.get_n_splits() == 10
