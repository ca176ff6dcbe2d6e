"""The declared schema of experiment files: valid files pass, wrong types are one clear line.

Every case of the "Hardening" issue (wrong types were crashes, strings were taken as true)
is a separate case here, through ``parse_experiment`` and, for a few, through the runner.
"""
import copy
import glob
import json
import os
import re
import subprocess
import sys

import pytest

from engine.foundation import schema
from engine.evaluation.catalogue import CATALOGUE, presets
from engine.input.data import BUILTINS, load_builtin, load_csv
from engine.evaluation.experiment import TOP_LEVEL_KEYS, load_experiment, parse_experiment
from engine.evaluation.stats import CORRECTIONS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "resources", "examples", "*.json")))
PENGUINS = os.path.join(ROOT, "tests", "data", "penguins.csv")
BASE = {"dataset": {"builtin": "moons"}, "models": [{"estimator": "GaussianNB"}]}


def with_(**changes) -> dict:
    data = copy.deepcopy(BASE)
    data.update(changes)
    return data


def assert_one_clear_line(message: str, place: str) -> None:
    assert message.startswith(place + ":") or message.startswith(place + "["), message
    assert len(message.splitlines()) == 1 and message[0].isalnum(), message
    assert "Traceback" not in message and "TypeError" not in message
    assert not re.search(r"\['|'\]|\{'", message), message       # no Python reprs


# ----------------------------------------------------------------------------- the document

def test_the_schema_is_valid_draft_2020_12_and_shipped_as_package_data():
    from jsonschema import Draft202012Validator

    document = schema.experiment_schema()
    Draft202012Validator.check_schema(document)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as handle:
        pyproject = handle.read()
    assert re.search(r'\[tool\.setuptools\.package-data\]\s*engine = \[[^\]]*'
                     r'"experiment\.schema\.json"', pyproject)
    assert re.search(r'"jsonschema>=4\.18[^"]*"', pyproject)


def test_the_schema_names_what_the_engine_knows():
    document = schema.experiment_schema()
    defs = document["$defs"]
    assert set(document["properties"]) == set(TOP_LEVEL_KEYS) | {"$schema"}
    assert defs["model"]["properties"]["estimator"]["enum"] == list(CATALOGUE)
    assert defs["dataset"]["properties"]["builtin"]["enum"] == list(BUILTINS)
    assert document["properties"]["comparison"]["properties"]["correction"]["enum"] == \
        list(CORRECTIONS)
    forms = {}
    for rule in defs["dataset"]["allOf"]:
        builtin = rule["if"].get("properties", {}).get("builtin", {})
        for name in builtin.get("enum", [builtin.get("const")]):
            forms[name] = set(rule["then"]["properties"]) - {"builtin"}
        assert "name" in rule["then"]["properties"]          # every block may be named
    for name, (_, options) in BUILTINS.items():
        assert forms[name] == set(options) | {"name"}, name
    assert document["properties"]["datasets"]["items"] == {"$ref": "#/$defs/dataset"}


# ----------------------------------------------------------------------------- valid files

def documented_examples() -> list:
    """The JSON example of docs/experiment-format.md and of the shared contract."""
    with open(os.path.join(ROOT, "docs", "experiment-format.md"), encoding="utf-8") as handle:
        text = handle.read()
    found = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text, re.S)]
    contract = os.path.join(ROOT, "..", "shared", "EXPERIMENT.md")
    if os.path.exists(contract):
        with open(contract, encoding="utf-8") as handle:
            block = re.search(r"\n    (\{\n.*?\n    \})\n", handle.read(), re.S)
        if block:
            found.append(json.loads(block.group(1)))
    return found


def test_every_example_and_documented_file_is_accepted():
    for path in EXAMPLES:
        assert load_experiment(path).models
    examples = documented_examples()
    assert examples
    for data in examples:
        schema.check_experiment_schema(data)


def test_experiments_built_by_the_tests_are_accepted():
    from tests import test_analysis, test_cli, test_fold_numbering

    built = [test_analysis.EXPERIMENT, test_fold_numbering.EXPERIMENT,
             with_(cv={"n_splits": 3, "n_repeats": 1, "random_state": 0},
                   metrics=["accuracy"]),
             with_(dataset={"csv": "d.csv", "target": "label"},
                   models=[{"name": "=evil()", "estimator": "GaussianNB"}])]
    built += [with_(models=models) for models in presets().values()]
    assert callable(test_cli.write_experiment)
    for data in built:
        parse_experiment(data)


def test_every_documented_key_is_accepted():
    full_csv = {"csv": "data/penguins.csv", "target": "species", "exclude": ["island"],
                "drop": "year", "sep": ";", "encoding": "latin-1", "decimal": ",",
                "thousands": ".", "pos_label": "Adelie"}
    full = {"$schema": "../engine/experiment.schema.json", "dataset": full_csv,
            "models": [{"name": "svc", "estimator": "SVC", "scale": True,
                        "params": {"random_state": 0},
                        "grid": [{"kernel": ["linear"]}, {"kernel": ["rbf"], "C": [1, 10]}]},
                       {"estimator": "MLPClassifier",
                        "params": {"hidden_layer_sizes": [10, 5], "max_iter": 50},
                        "grid": {"alpha": [0.001, 0.01]}}],
            "cv": {"n_splits": 5, "n_repeats": 2, "random_state": None},
            "metrics": ["roc_auc", "accuracy"],
            "comparison": {"rope": 0.01, "alpha": 0.05, "correction": "holm",
                           "credible_levels": [0.9]},
            "aloocv": {"C_min": 0.01, "C_max": 100, "n_C": 10, "exact_loo": True},
            "calibration": {"methods": ["sigmoid"], "n_bins": 5, "strategy": "quantile",
                            "map_buckets": 10}}
    assert len(parse_experiment(full).models) == 5
    for form in ({"sep": "\t", "thousands": "", "pos_label": 1}, {"sep": "\\s+"},
                 {"target": None, "sep": None, "encoding": None, "decimal": None,
                  "thousands": None, "pos_label": None}, {"pos_label": True}):
        parse_experiment(with_(dataset={"csv": "d.csv", **form}))
    parse_experiment(with_(metrics="accuracy", cv=None, comparison=None, aloocv=None,
                           calibration=None))
    parse_experiment(with_(models=[{"estimator": "SVC", "name": None, "params": None,
                                    "grid": None}]))


def test_what_the_app_writes_is_accepted():
    """The dataset blocks the app records (every built-in with its options, a CSV with the
    reader's options) and an experiment saved and read again."""
    for name in BUILTINS:
        schema.check_experiment_schema(with_(dataset=load_builtin(name).source))
    source = load_csv(PENGUINS, target="species", sep=",", encoding="utf-8",
                      exclude=["island"], drop=["year"]).source
    schema.check_experiment_schema(with_(dataset=source))
    saved = parse_experiment(json.loads(open(EXAMPLES[0], encoding="utf-8").read()))
    again = parse_experiment(json.loads(json.dumps(saved.to_json())))
    assert again.to_json() == saved.to_json()


# ----------------------------------------------------------------------------- wrong files

MODEL = {"estimator": "GaussianNB"}
WRONG = {
    "estimator as a list": (with_(models=[{"estimator": ["SVC"]}]), "models[0].estimator",
                            'expected an estimator (text), got a list (["SVC"])'),
    "builtin as a list": (with_(dataset={"builtin": ["moons", "iris"]}), "dataset.builtin",
                          "got a list"),
    "builtin as an object": (with_(dataset={"builtin": {"name": "moons"}}), "dataset.builtin",
                             "got an object"),
    "target as a list": (with_(dataset={"csv": "d.csv", "target": ["a", "b"]}),
                         "dataset.target", "expected a column name (text of at most 1000 characters) or null"),
    "drop as a number": (with_(dataset={"csv": "d.csv", "drop": 3}), "dataset.drop",
                         "got 3"),
    "exclude of numbers": (with_(dataset={"csv": "d.csv", "exclude": [1]}),
                           "dataset.exclude[0]", "got 1"),
    "csv null": (with_(dataset={"csv": None}), "dataset.csv",
                 "expected a file name (non-empty text), got null"),
    "csv a number": (with_(dataset={"csv": 3}), "dataset.csv", "got 3"),
    "csv a list": (with_(dataset={"csv": ["a.csv"]}), "dataset.csv", 'got a list (["a.csv"])'),
    "sep a number": (with_(dataset={"csv": "d.csv", "sep": 5}), "dataset.sep", "got 5"),
    "sep two characters": (with_(dataset={"csv": "d.csv", "sep": ";;"}), "dataset.sep",
                           "one character"),
    "encoding unknown": (with_(dataset={"csv": "d.csv", "encoding": "klingon"}),
                         "dataset.encoding", '"klingon" is not a text encoding'),
    "encoding a transform": (with_(dataset={"csv": "d.csv", "encoding": "rot13"}),
                             "dataset.encoding", "is not a text encoding"),
    "scale as text": (with_(models=[{"estimator": "SVC", "scale": "no"}]), "models[0].scale",
                      'expected true or false, got "no"'),
    "scale as a number": (with_(models=[{"estimator": "SVC", "scale": 0}]), "models[0].scale",
                          "expected true or false, got 0"),
    "exact_loo as text": (with_(aloocv={"exact_loo": "no"}), "aloocv.exact_loo",
                          'expected true or false, got "no"'),
    "params value of a wrong type": (
        with_(models=[MODEL, MODEL | {"name": "b"}, {"estimator": "RandomForestClassifier",
                                                     "params": {"n_estimators": "lots"}}]),
        "models[2].params.n_estimators", 'must be an int in the range [1, inf), got "lots"'),
    "params in a grid": (with_(models=[{"estimator": "SVC", "grid": [{"C": [1, -1]}]}]),
                         "models[0].grid[0].C", "got -1"),
    "grid values not a list": (with_(models=[{"estimator": "SVC", "grid": {"C": 1}}]),
                               "models[0].grid.C", "expected a list of values to try"),
    "params a list": (with_(models=[{"estimator": "SVC", "params": ["C", 1]}]),
                      "models[0].params", "got a list"),
    "models an object": (with_(models={"estimator": "SVC"}), "models", "got an object"),
    "n_splits a fraction": (with_(cv={"n_splits": 5.0}), "cv.n_splits",
                            "expected an integer ≥ 2, got 5.0"),
    "n_repeats true": (with_(cv={"n_repeats": True}), "cv.n_repeats", "got true"),
    "seed negative": (with_(cv={"random_state": -1}), "cv.random_state", "got -1"),
    "rope not finite": (with_(comparison={"rope": float("inf")}), "comparison.rope",
                        "expected a finite number, got Infinity"),
    "alpha out of range": (with_(comparison={"alpha": 1}), "comparison.alpha",
                           "expected a number > 0 and < 1, got 1"),
    "levels not a list": (with_(comparison={"credible_levels": 0.9}),
                          "comparison.credible_levels", "got 0.9"),
    "methods unknown": (with_(calibration={"methods": ["platt"]}), "calibration.methods[0]",
                        'unknown calibration method "platt"'),
    "a huge number": (with_(aloocv={"C_max": 10 ** 400}), "aloocv.C_max",
                      "an integer of more than 30 digits"),
    "unknown top-level key": (with_(colour="blue"), "the experiment",
                              "unknown key(s) colour"),
    "unknown dataset key": (with_(dataset={"builtin": "moons", "colour": 3}), "dataset",
                            "allowed with the built-in data set moons"),
    "both builtin and csv": (with_(dataset={"builtin": "iris", "csv": "d.csv"}), "dataset",
                             "builtin"),
    "no data": (with_(dataset={}), "dataset", 'missing the key "builtin", "file" or "csv"'),
    "nested 100,000 deep": (with_(models=[{"estimator": "SVC", "params": {"C": 1}}],
                                 metrics=None), "metrics", "nested more than 32 levels"),
    "not an object": ([BASE], "the experiment", "expected an experiment file (an object)"),
}


def _nested(depth: int) -> list:
    value = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("case", list(WRONG))
def test_wrong_types_are_one_line_naming_the_place(case):
    data, place, fragment = WRONG[case]
    if case == "nested 100,000 deep":
        data = dict(data, metrics=_nested(100_000))
    with pytest.raises(ValueError) as caught:
        parse_experiment(data)
    message = str(caught.value)
    assert_one_clear_line(message, place)
    assert fragment in message, message


def test_messages_read_as_words():
    assert schema.readable_path(["models", 2, "params", "n_estimators"]) == \
        "models[2].params.n_estimators"
    assert schema.readable_path(["models", 0, "params", "my key"]) == \
        'models[0].params["my key"]'
    assert schema.readable_path([]) == "the experiment"
    assert schema.readable_path(["$schema"]) == 'the key "$schema"'
    assert schema.show(["SVC"]) == 'a list (["SVC"])'
    assert schema.show({}) == "an empty object"
    assert schema.show("a\nb\u2028c") == r'"a\nb\u2028c"'
    assert schema.show(float("nan")) == "NaN" and schema.show(None) == "null"
    assert schema.show("x" * 500).endswith("…") and len(schema.show("x" * 500)) == 60
    assert schema.describe({"type": "integer", "minimum": 2, "maximum": 9}) == \
        "an integer from 2 to 9"
    assert schema.describe({"type": "boolean"}) == "true or false"
    assert schema.printable("a\r\nb\x85c") == r"a\r\nb\u0085c"


# ----------------------------------------------------------------------------- the runner

def run_main(path, out):
    return subprocess.run([sys.executable, os.path.join(ROOT, "main.py"), "run", str(path),
                           "--out", str(out)], capture_output=True, text=True, timeout=120)


@pytest.mark.slow
@pytest.mark.parametrize("case", ["estimator as a list", "csv null", "encoding unknown",
                                  "scale as text", "nested 100,000 deep"])
def test_the_runner_exits_2_with_one_error_line(tmp_path, case):
    data, place, fragment = WRONG[case]
    path = tmp_path / "exp.json"
    if case == "nested 100,000 deep":
        path.write_text('{"dataset": {"builtin": "moons"}, "models": '
                        + "[" * 100_000 + "]" * 100_000 + "}")
    else:
        path.write_text(json.dumps(data))
    done = run_main(path, tmp_path / "out")
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    message = lines[0][len("error: "):]
    assert "Traceback" not in done.stderr and message[0].isalnum(), message
    if case == "nested 100,000 deep":
        assert "nested too deeply" in message
    else:
        assert message.startswith(place) and fragment in message, message
