"""The result store in the engine: fits kept exactly, reused by key, runs recorded and
rebuilt; files that are not a store refused and left as they were."""
import dataclasses
import os
import sqlite3

import numpy as np
import pandas as pd
import pytest

from engine.runs.analysis import run_experiment
from engine.runs.benchmark import run_benchmark
from engine.evaluation.cv import CVConfig, FoldFit, fit_and_score, make_splits
from engine.input.data import load_builtin
from engine.evaluation.experiment import parse_experiment
from engine.runs.fingerprint import data_fingerprint, fit_keys
from engine.foundation.progress import run_to_end
from engine.evaluation.catalogue import ModelSpec, make_pipeline
from engine.runs.analysis import load_run
from engine.runs.store import ResultStore
from tests.helpers import (STORE_MODELS as MODELS, assert_same_tables, damaged, foreign,
                           not_sqlite, run_with_store as run, store_experiment as experiment)


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "store.sqlite")


def test_a_fit_comes_back_field_by_field(path):
    data = load_builtin("iris")
    train, test = make_splits(data.y, CVConfig(3, 1, 0))[0]
    fits = [fit_and_score(make_pipeline(ModelSpec("lr", "LogisticRegression",
                                                  {"max_iter": 3}), dataset=data),
                          data.X.to_numpy(), data.y, train, test,
                          ["accuracy", "neg_log_loss"], [0, 1, 2]),
            FoldFit((np.nan, np.float64(0.1)), error="ValueError: no", errors=("x",))]
    with ResultStore(path) as store:
        for number, fit in enumerate(fits):
            store.save(f"k{number}", fit)
    with ResultStore(path) as store:
        back = store.lookup(["k0", "missing", "k1"])
    assert sorted(back) == [0, 2]
    for fit, again in zip(fits, (back[0], back[2])):
        for item in dataclasses.fields(FoldFit):
            one, two = getattr(fit, item.name), getattr(again, item.name)
            if isinstance(one, np.ndarray):
                assert one.dtype == two.dtype and np.array_equal(one, two)
            else:
                assert type(one) is type(two) or isinstance(one, tuple)
                assert repr(np.asarray(one).tolist()) == repr(np.asarray(two).tolist())
    assert fits[0].warnings and "ConvergenceWarning" in back[0].warnings[0]


def test_reused_fits_give_identical_tables_and_the_run_is_recorded(path):
    exp = experiment()
    fresh = run(exp)
    with ResultStore(path) as store:
        first = run(exp, store)
        assert (store.reused, store.computed) == (0, 12)
    with ResultStore(path) as store:
        again = run(exp, store)
        assert (store.reused, store.computed) == (12, 0)
        runs = store.runs()
        rebuilt = run_to_end(load_run(store, runs[0].id))
        assert store.computed == 0
    for other in (first, again, rebuilt):
        assert_same_tables(fresh, other)
    assert [(r.complete, r.fits, r.reused, r.computed) for r in runs] == [
        (True, 12, 0, 12), (True, 12, 12, 0)]
    assert runs[0].models == ("nb", "tree") and runs[0].primary_metric == "accuracy"
    assert runs[0].data["name"] == "iris" and runs[0].experiment == exp.to_json()
    with ResultStore(path) as store:
        assert len(store.run(runs[1].id).keys) == 12 and store.count_fits() == 12


@pytest.mark.slow
def test_only_what_changed_is_computed(path):
    with ResultStore(path) as store:
        run(experiment(), store)
    changes = [  # (experiment, fits computed): 3 folds x 2 repeats per model
        (experiment(MODELS + [{"name": "lr", "estimator": "LogisticRegression"}]), 6),
        (experiment([{**MODELS[0], "name": "bayes"}, MODELS[1]]), 0),
        (experiment([MODELS[0], {**MODELS[1], "params": {"max_depth": 2,
                                                         "random_state": 0}}]), 6),
        (experiment(n_repeats=3), 6),
        (experiment(metrics=["accuracy"]), 12),
    ]
    for exp, computed in changes:
        with ResultStore(path) as store:
            result = run(exp, store)
            assert store.computed == computed, exp.models
            assert store.reused == len(exp.models) * 3 * exp.cv.n_repeats - computed
        assert_same_tables(run(exp), result)


def test_keys_follow_the_data_the_split_and_the_model():
    data = load_builtin("iris")
    config = CVConfig(3, 2, 0)
    splits = make_splits(data.y, config)
    models = [ModelSpec("a", "GaussianNB"), ModelSpec("b", "GaussianNB"),
              ModelSpec("c", "GaussianNB", scale=True)]
    tasks = [(m, s) for s in range(len(splits)) for m in range(3)]
    keys = fit_keys(data, models, config, ["accuracy"], splits, tasks)
    assert keys[0] == keys[1] != keys[2] and len(set(keys)) == 2 * len(splits)
    moved = dataclasses.replace(data, X=data.X.assign(**{data.X.columns[0]:
                                                         data.X.iloc[:, 0] + 1e-12}))
    assert data_fingerprint(moved) != data_fingerprint(data)
    assert data_fingerprint(dataclasses.replace(data, X=data.X.copy())) == \
        data_fingerprint(data)
    other_seed = CVConfig(3, 2, 1)
    assert set(fit_keys(data, models, other_seed, ["accuracy"], make_splits(data.y, other_seed),
                        tasks)).isdisjoint(keys)


def test_several_data_sets_share_one_store(path):
    exp = parse_experiment({"datasets": [{"builtin": "iris"}, {"builtin": "wine"}],
                            "models": MODELS, "cv": {"n_splits": 3, "n_repeats": 1},
                            "metrics": ["accuracy"]})
    with ResultStore(path) as store:
        first = run_to_end(run_benchmark(exp, store=store))
        assert (store.computed, len(store.runs())) == (12, 2)
    with ResultStore(path) as store:
        again = run_to_end(run_benchmark(exp, store=store))
        assert (store.reused, store.computed) == (12, 0)
        assert len({r.batch for r in store.runs()}) == 2
    for name, table in first.tables().items():
        keep = [c for c in table.columns if "seconds" not in str(c)]
        pd.testing.assert_frame_equal(table[keep], again.tables()[name][keep])


def test_fresh_reads_nothing_and_replaces(path):
    exp = experiment()
    with ResultStore(path) as store:
        run(exp, store)
    with ResultStore(path, fresh=True) as store:
        result = run(exp, store)
        assert (store.reused, store.computed, store.count_fits()) == (0, 12, 12)
    assert_same_tables(run(exp), result)


def test_an_interrupted_run_is_incomplete_and_cannot_be_rebuilt(path):
    exp = experiment()
    with ResultStore(path) as store:
        job = run_experiment(exp, store=store)
        for _ in range(5):
            next(job)
        job.close()
        stored = store.runs()[0]
        assert not stored.complete and stored.finished is None and stored.computed == 5
        with pytest.raises(ValueError, match="7 of the run's 12 fits are not in the store"):
            run_to_end(load_run(store, stored.id))
        resumed = run(exp, store)
        assert (store.reused, store.computed) == (5 + 5, 5 + 7)
    assert_same_tables(run(exp), resumed)


@pytest.mark.parametrize("make, fragment", [(foreign, "another program's database"),
                                            (not_sqlite, "not an SQLite database"),
                                            (damaged, "damaged")])
def test_files_that_are_not_a_store_are_refused_untouched(path, make, fragment):
    make(path)
    before = open(path, "rb").read()
    with pytest.raises(ValueError, match=fragment) as caught:
        with ResultStore(path) as store:
            run(experiment(n_repeats=1), store)
    assert "--store" in str(caught.value) and open(path, "rb").read() == before


def test_a_locked_store_is_refused(path):
    ResultStore(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        before = open(path, "rb").read()
        with pytest.raises(ValueError, match="locked by another program"):
            ResultStore(path, timeout=0.2)
        assert open(path, "rb").read() == before
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_store_needs_a_file(tmp_path):
    with pytest.raises(ValueError, match="is a folder"):
        ResultStore(str(tmp_path))
    with pytest.raises(ValueError, match="cannot use the result store"):
        ResultStore(str(tmp_path / "missing" / "store.sqlite"))
    assert not os.path.exists(tmp_path / "missing")


def test_a_closed_store_says_so_with_its_code(path):
    """A store used after close() raises its coded store error naming SQLite's reason, not an
    AttributeError on a missing connection."""
    from engine.foundation.errors import EngineError, error_code

    store = ResultStore(path)
    assert store.count_fits() == 0
    store.close()
    with pytest.raises(EngineError) as caught:
        store.count_fits()
    assert error_code(caught.value) == "store_unusable"
    assert "closed database" in str(caught.value)
