"""Experiment files with several data sets: the "datasets" list, its names, its errors."""
import json

import pytest

from engine.input.readers import load_dataset
from engine.input.dataset_names import default_name, name_problem
from engine.evaluation.experiment import experiment_json_text, load_experiment, parse_experiment

MODELS = [{"name": "nb", "estimator": "GaussianNB"}]


def parse(**data):
    return parse_experiment({"models": MODELS, **data})


def test_one_dataset_stays_as_it_was():
    experiment = parse(dataset={"builtin": "iris"})
    assert experiment.dataset == {"builtin": "iris"} and experiment.datasets == ()
    assert experiment.n_datasets == 1 and experiment.dataset_blocks == ({"builtin": "iris"},)
    assert experiment.for_dataset(0) is experiment
    saved = experiment.to_json()
    assert "datasets" not in saved and saved["dataset"] == {"builtin": "iris"}
    assert list(saved)[:2] == ["dataset", "models"]


def test_names_default_to_the_file_stem_or_builtin_and_are_made_unique(tmp_path):
    experiment = parse(datasets=[
        {"builtin": "moons"}, {"builtin": "moons", "noise": 0.1},
        {"csv": "data/diabetes.csv", "target": "y"}, {"builtin": "circles", "name": "moons (2)"},
        {"builtin": "iris", "name": "Flowers"}, {"csv": "other/diabetes.csv"}])
    names = [block["name"] for block in experiment.datasets]
    assert names == ["moons", "moons (3)", "diabetes", "moons (2)", "Flowers", "diabetes (2)"]
    assert experiment.n_datasets == 6 and experiment.dataset == experiment.datasets[0]
    assert experiment.datasets[1] == {"builtin": "moons", "noise": 0.1, "name": "moons (3)"}


def test_saving_round_trips_the_list(tmp_path):
    (tmp_path / "data").mkdir()
    path = tmp_path / "exp.json"
    path.write_text(json.dumps({"datasets": [
        {"csv": "data/a.csv", "target": "label"}, {"builtin": "wine", "name": "wine 2"}],
        "models": MODELS}))
    experiment = load_experiment(str(path))
    again = parse_experiment(experiment.to_json())
    assert again == experiment and again.datasets == experiment.datasets
    text = experiment_json_text(experiment, path=str(path))
    saved = json.loads(text)
    assert "dataset" not in saved
    assert saved["datasets"] == [{"csv": "data/a.csv", "target": "label", "name": "a"},
                                 {"builtin": "wine", "name": "wine 2"}]
    absolute = parse_experiment({**saved, "datasets": [
        {**saved["datasets"][0], "csv": str(tmp_path / "data" / "a.csv")}]})
    relative = json.loads(experiment_json_text(absolute, path=str(path)))
    assert relative["datasets"][0]["csv"] == "data/a.csv"     # made relative, like "dataset"


def test_for_dataset_gives_a_single_dataset_experiment():
    experiment = parse(datasets=[{"builtin": "iris"}, {"builtin": "wine"}],
                       cv={"n_splits": 3, "n_repeats": 1})
    second = experiment.for_dataset(1)
    assert second.dataset == {"builtin": "wine", "name": "wine"} and second.datasets == ()
    assert second.models == experiment.models and second.cv == experiment.cv
    assert second.notes == ()                    # the experiment's notes stay with the run
    dataset = load_dataset(second.dataset)
    assert dataset.name == "wine" and dataset.source["name"] == "wine"
    assert dataset.n_rows == 178


def test_a_name_in_a_single_dataset_block_names_the_dataset():
    experiment = parse(dataset={"builtin": "iris", "name": "Iris flowers"})
    assert load_dataset(experiment.dataset).name == "Iris flowers"
    assert load_dataset({"builtin": "iris"}).name == "iris"


@pytest.mark.parametrize("data, message", [
    ({"dataset": {"builtin": "iris"}, "datasets": [{"builtin": "wine"}]},
     'the experiment: give "dataset" or "datasets", not both'),
    ({}, 'the experiment: missing the key "dataset" or "datasets"'),
    ({"datasets": []}, "datasets: expected at least one data set block, got an empty list"),
    ({"datasets": {"builtin": "iris"}}, "datasets: expected a list of data set blocks"),
    ({"datasets": [{"builtin": "iris"}, {"builtin": "wine", "nmae": "w"}]},
     "datasets[1]: unknown key(s) nmae; allowed with a shipped built-in data set"),
    ({"datasets": [{"builtin": "iris", "name": "same"}, {"builtin": "wine", "name": "same"}]},
     'datasets[1].name: the name "same" is already the name of datasets[0]; give every '
     "data set a name of its own"),
    ({"datasets": [{"builtin": "iris", "name": "Same"}, {"builtin": "wine", "name": "same"}]},
     'datasets[1].name: the name "same" is already the name of datasets[0] ("Same": case '
     "does not count)"),
    ({"datasets": [{"builtin": "iris", "name": 7}]},
     "datasets[0].name: expected a data set name (non-empty text of at most 100 characters), got 7"),
    ({"datasets": [{"builtin": "iris", "name": ""}]}, "datasets[0].name: expected a data set"),
    ({"datasets": [{"builtin": "iris", "name": "a/b"}]},
     'datasets[0].name: "a/b" cannot name a data set: it holds /, which a file name cannot '
     "hold"),
    ({"datasets": [{"builtin": "iris", "name": "=SUM(A1)"}]},
     "it starts with =, which a spreadsheet reads as a formula"),
    ({"datasets": [{"builtin": "iris", "name": "x\ny"}]}, "it holds \\n"),
    ({"datasets": [{"builtin": "iris", "name": "COM1"}]}, "Windows reserves this name"),
    ({"datasets": [{"builtin": "iris", "name": "trailing."}]}, "end with one"),
    ({"datasets": [{"builtin": "iris", "name": "x" * 101}]}, "datasets[0].name: expected"),
    ({"datasets": [{"csv": "a.csv", "encoding": "rot13"}]},
     'datasets[0].encoding: "rot13" is not a text encoding Python knows'),
    ({"dataset": {"builtin": "iris", "name": "a|b"}}, 'dataset.name: "a|b" cannot name'),
])
def test_errors_name_the_place_and_what_to_change(data, message):
    with pytest.raises(ValueError) as caught:
        parse(**data)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_default_names_are_safe_whatever_the_file_is_called():
    for stem in ("=cmd|calc", "-1", "a:b*c", "con", ".hidden", "x" * 300, "tab\there", "..."):
        name = default_name({"csv": f"folder/{stem}.csv"})
        assert name_problem(name) is None, (stem, name)
    assert default_name({"csv": "C:\\data\\survey 2024.csv"}) == "survey 2024"
    assert default_name({"file": "tables/diabetes.xlsx", "sheet": "a"}) == "diabetes"
    assert default_name({"builtin": "digits"}) == "digits"
    experiment = parse(datasets=[{"csv": "=a.csv"}, {"csv": "a.csv"}, {"csv": "A.csv"}])
    assert [b["name"] for b in experiment.datasets] == ["a", "a (2)", "A (3)"]
