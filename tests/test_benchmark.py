"""engine.runs.benchmark: several data sets run like single ones, stacked tables, progress over
all fits, checks before any fit, cancelling; the guards and the result folder for them."""
import json
import math

import numpy as np
import pandas as pd
import pytest

import engine.evaluation.cv
from engine.runs import guards
from engine.runs.across import TABLE_FILES, compare_across
from engine.runs.analysis import run_experiment
from engine.runs.benchmark import (DatasetStep, load_datasets, run_benchmark,
                                   stack_tables)
from engine.evaluation.experiment import parse_experiment
from engine.foundation.errors import error_code, error_fields
from engine.foundation.progress import run_to_end
from engine.output.result_folder import KNOWN_TABLES, read_manifest, write_result_folder
from engine.runs.run_plan import plan_run

BLOCKS = [{"builtin": "moons", "n_samples": 80, "noise": 0.3, "random_state": 2},
          {"builtin": "iris", "name": "Iris flowers"},
          {"builtin": "circles", "n_samples": 90, "random_state": 1}]
MODELS = [{"name": "nb", "estimator": "GaussianNB"},
          {"name": "tree", "estimator": "DecisionTreeClassifier",
           "params": {"max_depth": 3, "random_state": 0}},
          {"name": "logistic", "estimator": "LogisticRegression", "scale": True}]
SETTINGS = {"cv": {"n_splits": 3, "n_repeats": 2, "random_state": 4},
            "metrics": ["accuracy", "balanced_accuracy"],
            "comparison": {"rope": 0.02, "alpha": 0.1}}
NAMES = ["moons", "Iris flowers", "circles"]


def several(blocks=BLOCKS, **overrides):
    data = {"datasets": blocks, "models": MODELS, **SETTINGS, **overrides}
    return parse_experiment({k: v for k, v in data.items() if v is not None})


@pytest.fixture(scope="module")
def ran():
    records = []
    result = run_to_end(run_benchmark(several()), on_progress=records.append)
    return result, records


@pytest.fixture
def fits(monkeypatch):
    """Counts the cross-validation's fits (in this process: n_jobs=1)."""
    count = []
    original = engine.evaluation.cv.fit_and_score

    def counted(*args, **kwargs):
        count.append(1)
        return original(*args, **kwargs)
    monkeypatch.setattr(engine.evaluation.cv, "fit_and_score", counted)
    return count


def alone(block, **overrides):
    """The single-data-set experiment of one block, run on its own."""
    block = {k: v for k, v in block.items() if k != "name"}
    data = {"dataset": block, "models": MODELS, **SETTINGS, **overrides}
    experiment = parse_experiment({k: v for k, v in data.items() if v is not None})
    return run_to_end(run_experiment(experiment))


def test_every_dataset_gives_the_numbers_it_gives_alone(ran):
    result, _ = ran
    assert result.names == tuple(NAMES)
    tables = result.tables()
    for name, block in zip(NAMES, BLOCKS):
        single = alone(block).tables()
        for file_name, frame in single.items():
            stacked = tables[file_name]
            if file_name == "correlation.csv":
                part = stacked.loc[name][list(frame.columns)].dropna(axis=1, how="all")
                pd.testing.assert_frame_equal(part, frame, check_exact=True)
                continue
            part = stacked[stacked["dataset"] == name].drop(columns="dataset")
            part = part.reset_index(drop=True)
            if file_name == "fold_scores.csv":
                part, frame = part.drop(columns="fit_seconds"), frame.drop(columns="fit_seconds")
            pd.testing.assert_frame_equal(part, frame.reset_index(drop=True), check_exact=True,
                                          check_dtype=False)


def test_tables_lead_with_the_dataset_column(ran):
    result, _ = ran
    tables = result.tables()
    single = set(alone(BLOCKS[0]).tables())
    assert single == {"fold_scores.csv", "summary.csv", "correlation.csv", "pairwise.csv",
                      "credible_intervals.csv", "confusion.csv", "per_class.csv"}
    for file_name in single - {"correlation.csv"}:
        frame = tables[file_name]
        assert list(frame.columns)[0] == "dataset", file_name
        assert list(dict.fromkeys(frame["dataset"])) == NAMES, file_name
    correlation = tables["correlation.csv"]
    assert correlation.index.names == ["dataset", "model"]
    assert list(correlation.columns) == ["nb", "tree", "logistic"]     # the models' order
    assert len(tables["fold_scores.csv"]) == 3 * 3 * 6 * 2
    confusion = tables["confusion.csv"]
    assert set(confusion[confusion["dataset"] == "Iris flowers"]["true_class"]) == \
        {"setosa", "versicolor", "virginica"}


def test_the_across_comparison_is_that_of_the_dataset_means(ran):
    result, _ = ran
    means = result.means()
    assert list(means.columns) == ["dataset", "model", "mean", "n_folds", "n_failed",
                                   "common"] and len(means) == 9
    for name, block in zip(NAMES, BLOCKS):
        summary = alone(block).summary       # the mean on the folds every model completed
        expected = summary[summary["metric"] == "accuracy"].set_index("model")["rank_mean"]
        got = means[means["dataset"] == name].set_index("model")["mean"]
        assert got.to_dict() == expected.to_dict()
    again = compare_across(means, metric="accuracy", alpha=0.1, rope=0.02, random_state=4,
                           correction="bonferroni")
    tables = result.tables()
    for file_name, frame in again.tables().items():
        pd.testing.assert_frame_equal(tables[file_name], frame)
    assert result.texts() == {"report.md": again.report()}
    assert result.across.notes == again.notes


def test_progress_counts_every_fit_of_every_dataset(ran):
    result, records = ran
    assert [r.done for r in records] == list(range(1, 55))
    assert {r.total for r in records} == {54} and records[-1].fraction == 1.0
    assert all(isinstance(r.detail, DatasetStep) for r in records)
    assert [r.detail.index for r in records] == [0] * 18 + [1] * 18 + [2] * 18
    assert records[20].label.startswith("data set 2 of 3: Iris flowers — model ")
    assert records[20].detail.record.detail.model in ("nb", "tree", "logistic")
    assert all(a.elapsed <= b.elapsed for a, b in zip(records, records[1:]))


def test_the_time_left_adds_the_later_data_sets_at_the_mean_step(ran):
    _, records = ran
    for record in records[3:18]:                    # the first data set, its models timed
        own = record.detail.record.left
        assert record.left == pytest.approx(own + 36 * record.elapsed / record.done)
    assert math.isnan(records[0].left)              # one model timed of three
    assert records[-1].left == 0.0


def test_progress_with_the_extras_reaches_its_total_exactly():
    experiment = parse_experiment({
        "datasets": [BLOCKS[0], BLOCKS[2]], "models": [MODELS[0], MODELS[2]],
        "cv": {"n_splits": 3, "n_repeats": 1}, "metrics": ["roc_auc"],
        "aloocv": {"n_C": 4}, "calibration": {"methods": ["sigmoid"], "map_buckets": 10}})
    assert plan_run(experiment).datasets[0].steps == 2 * 3 + 2 * 3 + (4 + 1)
    records = []
    result = run_to_end(run_benchmark(experiment), on_progress=records.append)
    assert [r.done for r in records] == list(range(1, 35)) and records[-1].total == 34
    tables = result.tables()
    for file_name in ("aloocv_curve.csv", "calibration_scores.csv", "calibration_map.csv"):
        assert list(dict.fromkeys(tables[file_name]["dataset"])) == ["moons", "circles"]


def test_notes_name_their_dataset(ran):
    result, _ = ran
    notes = result.notes
    assert notes[0].code == "random_state_given" and notes[0].fields["random_state"] == 4
    assert notes[0].fields["models"][0].startswith("logistic")
    assert sum(n.code == "random_state_given" for n in notes) == 1      # once, not per set
    data_notes = [n for n in notes if n.code == "builtin_data"]
    assert [n.fields["dataset"] for n in data_notes] == NAMES
    assert str(data_notes[1]) == "Iris flowers: Iris flowers, 150 x 4, three classes"


def test_a_bad_second_dataset_fails_before_any_fit(tmp_path, fits):
    blocks = [BLOCKS[0], {"csv": "missing.csv", "target": "y"}]
    experiment = parse_experiment({"datasets": blocks, "models": MODELS, **SETTINGS},
                                  base_dir=str(tmp_path))
    with pytest.raises(ValueError) as caught:
        next(run_benchmark(experiment))
    assert error_code(caught.value) == "dataset_problem"
    assert error_fields(caught.value)["dataset"] == "missing"
    assert error_fields(caught.value)["place"] == 'data set "missing" (datasets[1])'
    assert "does not exist" in error_fields(caught.value)["detail"]
    frame = pd.DataFrame({"x": np.arange(20.0), "y": ["a"] * 18 + ["b"] * 2})
    frame.to_csv(tmp_path / "tiny.csv", index=False)
    experiment = parse_experiment({"datasets": [BLOCKS[0], {"csv": "tiny.csv", "target": "y"}],
                                   "models": MODELS, **SETTINGS}, base_dir=str(tmp_path))
    with pytest.raises(ValueError) as caught:
        load_datasets(experiment)
    fields = error_fields(caught.value)
    assert (fields["dataset"], fields["index"]) == ("tiny", 1)
    assert fields["detail"].startswith("the smallest class has only 2 row(s), but 3 folds need")
    experiment = several(metrics=["roc_auc"])
    with pytest.raises(ValueError) as caught:
        next(run_benchmark(experiment))
    fields = error_fields(caught.value)
    assert (fields["dataset"], fields["index"]) == ("Iris flowers", 1)
    assert fields["detail"].startswith("metric 'roc_auc' works for two classes only")
    assert fits == []


def test_without_metrics_one_metric_fits_every_dataset():
    mixed = run_to_end(run_benchmark(several(metrics=None, cv={"n_splits": 3, "n_repeats": 1},
                                             blocks=BLOCKS[:2])))
    assert mixed.experiment.metrics == ("roc_auc_ovr",)
    note = next(n for n in mixed.notes if n.code == "default_metric_datasets")
    assert note.fields == {"metric": "roc_auc_ovr", "n_classes": (2, 3)}
    assert {r.cv.primary_metric for r in mixed.results} == {"roc_auc_ovr"}
    # on two classes roc_auc_ovr is the plain ROC AUC of the probabilities
    moons = mixed.results[0]
    binary = alone(BLOCKS[0], metrics=["roc_auc"], cv={"n_splits": 3, "n_repeats": 1})
    nb = lambda r: r.cv.scores.query("model == 'nb'")["score"].to_numpy()   # noqa: E731
    np.testing.assert_allclose(nb(moons), nb(binary), rtol=0, atol=1e-15)
    same = several(metrics=None, blocks=[BLOCKS[0], BLOCKS[2]])
    assert load_datasets(same) and run_to_end(run_benchmark(
        same, datasets=load_datasets(same))).experiment.metrics == ("roc_auc",)


def test_closing_the_run_stops_it_between_fits(fits):
    job = run_benchmark(several())
    record = next(job)
    while record.detail.index == 0:
        record = next(job)
    assert record.detail.index == 1 and record.done == 19
    done = len(fits)
    job.close()
    with pytest.raises(StopIteration):
        next(job)
    assert len(fits) == done == 19


def test_one_dataset_in_the_list_gives_its_ranks_only():
    result = run_to_end(run_benchmark(several(blocks=[BLOCKS[1]])))
    tables = result.tables()
    assert set(tables) == set(alone(BLOCKS[1]).tables()) | set(TABLE_FILES)
    assert tables["summary.csv"]["dataset"].unique().tolist() == ["Iris flowers"]
    assert tables["ranks.csv"]["n_datasets"].tolist() == [1, 1, 1]
    assert tables["wilcoxon.csv"].empty and "report.md" in result.texts()
    assert result.notes[-1].code == "across_too_few"


def test_run_experiment_refuses_several_datasets():
    with pytest.raises(ValueError, match="this experiment has 3 data sets: run it with "
                                         "engine.runs.benchmark.run_benchmark"):
        next(run_experiment(several()))


def test_stacking_keeps_tables_that_only_some_datasets_have():
    a = {"failures.csv": pd.DataFrame({"model": ["x"], "kind": ["error"]}),
         "summary.csv": pd.DataFrame({"model": ["x"], "mean": [0.5]})}
    b = {"summary.csv": pd.DataFrame({"model": ["x"], "mean": [0.7]})}
    stacked = stack_tables(["a", "b"], [a, b])
    assert stacked["failures.csv"].to_dict("list") == {"dataset": ["a"], "model": ["x"],
                                                       "kind": ["error"]}
    assert stacked["summary.csv"].to_dict("list") == {"dataset": ["a", "b"],
                                                      "model": ["x", "x"], "mean": [0.5, 0.7]}


# ----------------------------------------------------------------------------- guards

def test_the_guards_count_every_dataset():
    experiment = several()
    datasets = load_datasets(experiment)
    each = [guards.check_run(experiment.for_dataset(i), d, n_jobs=1, available=10 ** 12)
            for i, d in enumerate(datasets)]
    together = guards.check_run(experiment, list(datasets), n_jobs=1, available=10 ** 12)
    assert together.n_datasets == 3 and together.n_fits == 3 * 3 * 6 == sum(a.n_fits for a in each)
    assert together.n_pairs == 3                                     # per data set
    assert together.data_bytes == sum(a.data_bytes for a in each)
    assert together.predictions_bytes == sum(a.predictions_bytes for a in each)
    assert max(a.needed_bytes for a in each) < together.needed_bytes < \
        sum(a.needed_bytes for a in each)
    refused = guards.check_run(experiment, list(datasets), n_jobs=1,
                               available=max(a.needed_bytes for a in each))
    assert refused.refuse.startswith("this run needs about ")


def test_more_than_20000_fits_over_all_datasets_asks():
    grid = {"var_smoothing": [1e-9 * (i + 1) for i in range(70)]}
    experiment = parse_experiment({"datasets": BLOCKS, "cv": {"n_splits": 10, "n_repeats": 10},
                                   "models": [{"estimator": "GaussianNB", "grid": grid}]})
    datasets = load_datasets(experiment)
    assert guards.check_run(experiment.for_dataset(0), datasets[0], n_jobs=1).ask is None
    assessment = guards.check_run(experiment, list(datasets), n_jobs=1)
    assert assessment.ask == ("this run makes 21,000 fits (3 data sets x 70 models x 10 folds x "
                              "10 repeats), more than the 20,000 that start without asking")
    seconds = guards.estimate_seconds(experiment, list(datasets), 1, budget=0.6)
    assert seconds > 0


# ----------------------------------------------------------------------------- the folder

def test_report_md_is_written_listed_and_removed_by_the_next_run(tmp_path):
    tables = {"summary.csv": pd.DataFrame({"dataset": ["a"], "x": [1]}),
              "friedman.csv": pd.DataFrame({"statistic": [1.5]})}
    write_result_folder(tables, tmp_path, {"run": 1}, ["a note"],
                        texts={"report.md": "# Across\n\ncells | stay\n"})
    assert (tmp_path / "report.md").read_text(encoding="utf-8") == "# Across\n\ncells | stay\n"
    manifest = read_manifest(str(tmp_path))
    assert manifest["tables"] == ["friedman.csv", "notes.txt", "report.md", "summary.csv"]
    write_result_folder({"summary.csv": pd.DataFrame({"x": [2]})}, tmp_path, {"run": 2}, [])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json", "summary.csv"]
    assert json.loads((tmp_path / "run.json").read_text())["removed"] == \
        ["friedman.csv", "notes.txt", "report.md"]
    assert set(TABLE_FILES) | {"report.md"} <= KNOWN_TABLES    # removed by a later run too
    with pytest.raises(ValueError, match="not a plain .md file name"):
        write_result_folder({}, tmp_path, {}, [], texts={"../report.md": "x"})
