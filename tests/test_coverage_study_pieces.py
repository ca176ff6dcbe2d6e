"""The coverage study's extra pieces (``subgroup_score``, ``nested_cv``), its reuse of the
fold models, and its packed stores, on a tiny synthetic population."""
from __future__ import annotations

import contextlib
import dataclasses
import gzip
import json

import numpy as np
import pandas as pd
import pytest

from engine.evaluation.catalogue import expand_models
from tests.benchmarks.coverage import repetition
from tests.benchmarks.coverage.populations import synthetic
from tests.benchmarks.coverage.runner import LEARNERS, Study, pending, run_study
from tests.benchmarks.coverage.store import done_keys, pack, read_lines, results_stores
from tests.benchmarks.coverage.tables import coverage_table, merged_record, record_table


def _grouped(n_rows=1500, seed=1) -> pd.DataFrame:
    frame = synthetic(n_rows, seed=seed)
    frame["group"] = np.where(np.random.default_rng(seed + 99).random(n_rows) < 0.4, "a", "b")
    return frame


@pytest.fixture(scope="module")
def toy():
    return Study({"toy": (_grouped(), "target")}, sizes=(60,), reps=2, truth_draws=3,
                 folds=3, repeats=2, version="test", subgroup_columns={"toy": "group"},
                 nested_folds=3, nested_repeats=1)


def test_subgroup_pieces_measure_each_subgroup_against_its_own_truth(toy, tmp_path):
    study = dataclasses.replace(toy, intervals=("subgroup",), reps=1)
    store = tmp_path / "sub.jsonl"
    assert run_study(study, store, say=lambda _: None) == 2
    lines = read_lines(store)
    assert [(x["kind"], x["rep"]) for x in lines] == [("subgroup_truth", None),
                                                      ("subgroup", 0)]
    assert lines[0]["cell"] == study.cell("toy", 60)       # the main cell, a kind of its own
    names = {f"{m} | group={g}" for m in ("logistic_regression", "naive_bayes")
             for g in ("a", "b")}
    assert set(lines[0]["values"]) == names
    for mean, se in lines[0]["values"].values():
        assert 0.55 < mean < 0.85 and 0 < se < 0.1          # AUC of a 0.5 shift, 5 dims
    rows = lines[1]["rows"]
    assert {r["model"] for r in rows} == names
    assert all(r["interval"] == "subgroup_score" and r["method"] == "corrected_t_folds"
               and r["estimand"] == "expected_score_at_training_size"
               and r["low"] <= r["estimate"] <= r["high"] for r in rows)
    table = coverage_table(lines)
    assert set(table["model"]) == names and set(table["reps"]) == {1}
    assert set(record_table(table, "d", "c")["interval"]) == {"subgroup_score"}
    assert run_study(study, store, say=lambda _: None) == 0         # resumes: nothing new


def test_nested_piece_has_its_own_cell_and_the_model_on_all_rows(toy, tmp_path):
    study = dataclasses.replace(toy, intervals=("nested",), reps=1)
    store = tmp_path / "nested.jsonl"
    assert run_study(study, store, say=lambda _: None) == 1
    (line,) = read_lines(store)
    assert line["kind"] == "nested" and line["cell"] == "toy|n=60|lr|nested3x1|vtest"
    (row,) = line["rows"]
    assert (row["interval"], row["method"], row["estimand"]) == (
        "nested_cv", "nested_cv", "model_on_all_rows")
    assert row["low"] < row["high"] and 0.5 < row["truths"]["model_on_all_rows"] < 0.9
    table = coverage_table([line])
    assert table["interval"].tolist() == ["nested_cv"] and table["reps"].tolist() == [1]


def test_the_main_pieces_are_unchanged_by_the_new_kinds(toy):
    assert [p[0] for p in pending(toy, set())] == ["truth", "rep", "rep"]
    both = dataclasses.replace(toy, intervals=("main", "subgroup", "nested"))
    assert [p[0] for p in pending(both, set())] == [
        "truth", "subgroup_truth", "rep", "subgroup", "nested", "rep", "subgroup", "nested"]


def test_fold_models_are_reused_and_give_the_same_rows(toy, monkeypatch):
    frame, target = toy.populations["toy"]
    specs = expand_models([dict(e) for e in LEARNERS])
    fits = []
    real_fit = repetition.fit_on
    monkeypatch.setattr(repetition, "fit_on", lambda *a: fits.append(a) or real_fit(*a))
    design = dict(toy.design("toy"), repeats=1)
    reused = repetition.one_repetition(frame, target, specs, 60, 11, design)
    assert fits == []                                  # every fold model was run_cv's own

    @contextlib.contextmanager
    def nothing_kept():
        yield {}

    monkeypatch.setattr(repetition, "kept_fold_models", nothing_kept)
    refitted = repetition.one_repetition(frame, target, specs, 60, 11, design)
    assert len(fits) == 2 * 3                          # models x folds refitted
    assert json.dumps(reused) == json.dumps(refitted)  # the very same numbers


def _lines(n=4):
    out = [{"cell": "p|n=10|x|3x1|v1", "kind": "truth", "rep": None, "population": "p",
            "n": 10, "values": {"m": [0.5, 0.01]}, "draws": 5}]
    out += [{"cell": "p|n=10|x|3x1|v1", "kind": "rep", "rep": r, "population": "p", "n": 10,
             "rows": [{"low": 0.1 * r, "high": float("nan")}], "cpu": 1.0} for r in range(n)]
    out += [{"cell": "q|n=10|x|3x1|v1", "kind": "subgroup", "rep": 0, "population": "q",
             "n": 10, "rows": []}]
    return out


def _write(path, lines):
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def test_gzipped_store_round_trip(tmp_path):
    lines = _lines()
    plain = _write(tmp_path / "s.jsonl", lines)
    packed = tmp_path / "s.jsonl.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    again = read_lines(packed)
    assert json.dumps(again) == json.dumps(read_lines(plain))
    assert np.isnan(again[1]["rows"][0]["high"])       # NaN survives
    counts = pack([plain], tmp_path / "results")
    assert counts == {"p.jsonl.gz": 5, "q.jsonl.gz": 1}
    back = [x for path in results_stores(tmp_path / "results") for x in read_lines(path)]
    assert done_keys(back) == done_keys(lines)


def test_pack_is_deterministic_deduplicated_and_accumulates(tmp_path):
    lines = _lines()
    first = _write(tmp_path / "a.jsonl", lines)
    shuffled = _write(tmp_path / "b.jsonl", lines[::-1] + lines[:2])     # other order, twice
    pack([first], tmp_path / "one")
    pack([shuffled], tmp_path / "two")
    one = {p.name: p.read_bytes() for p in results_stores(tmp_path / "one")}
    two = {p.name: p.read_bytes() for p in results_stores(tmp_path / "two")}
    assert one == two                                   # the same lines, the same bytes
    pack([first], tmp_path / "one")                     # packing again changes nothing
    assert {p.name: p.read_bytes() for p in results_stores(tmp_path / "one")} == one
    later = [_lines(6)[5],                              # a new repetition, and a rerun
             dict(lines[1], rows=[{"low": -1.0, "high": -1.0}])]    # of repetition 0
    pack([_write(tmp_path / "c.jsonl", later)], tmp_path / "one")
    kept = read_lines(tmp_path / "one" / "p.jsonl.gz")
    assert [(x["kind"], x["rep"]) for x in kept] == [("rep", r) for r in range(5)] + [
        ("truth", None)]
    assert kept[0]["rows"][0]["low"] == 0.0             # the packed line wins
    with pytest.raises(ValueError, match="not a name"):
        pack([_write(tmp_path / "d.jsonl", [dict(lines[1], population="../x")])],
             tmp_path / "bad")


def test_a_partial_record_keeps_the_other_intervals_rows():
    old = pd.DataFrame([["summary_mean", "corrected_t", "e", "0.95", "0.9", "0.9", "0.9", "1",
                         "100", "d0", "c0"],
                        ["nested_cv", "nested_cv", "m", "0.95", "0.5", "0.5", "0.5", "1", "9",
                         "d0", "c0"]], columns=record_table(pd.DataFrame(
                             columns=["main", "reps", "interval"]), "d", "c").columns)
    new = pd.DataFrame([dict(zip(old.columns, ["nested_cv", "nested_cv", "m", 0.95, 0.94,
                                               0.94, 0.94, 1, 120, "d1", "c1"]))])
    merged = merged_record(new, old)
    assert merged["interval"].tolist() == ["nested_cv", "summary_mean"]
    assert merged.iloc[0]["repetitions_per_cell"] == 120 and merged.iloc[1]["command"] == "c0"
