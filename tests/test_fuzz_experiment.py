"""Fuzzing ``parse_experiment``: whatever JSON it is given, it returns an Experiment or
raises a ValueError with one line that does not start with punctuation (the runner turns
exactly that into ``error: ...`` and exit status 2).  Any other exception fails the test.

Random JSON values, and random mutations of valid files (a value replaced at a random
place, a key deleted, a key added), are parsed only: reading data is forbidden here.
"""
import copy
import glob
import json
import os
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.evaluation.experiment import Experiment, parse_experiment
from engine.foundation.schema import experiment_schema

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VALID = [json.load(open(path, encoding="utf-8"))
         for path in sorted(glob.glob(os.path.join(ROOT, "resources", "examples", "*.json")))]
VALID += [
    {"dataset": {"csv": "d.csv", "target": "y", "exclude": ["id"], "sep": ";",
                 "encoding": "latin-1", "decimal": ",", "thousands": ".", "pos_label": "yes"},
     "models": [{"name": "mlp", "estimator": "MLPClassifier", "scale": True,
                 "params": {"hidden_layer_sizes": [5], "max_iter": 20},
                 "grid": {"alpha": [0.1, 1.0]}},
                {"estimator": "LogisticRegression", "params": {"class_weight": {"0": 2}}}],
     "cv": {"n_splits": 3, "n_repeats": 1, "random_state": None}, "metrics": "accuracy"},
    {"dataset": {"builtin": "classification", "n_samples": 50, "n_features": 4,
                 "n_informative": 2, "n_classes": 3, "random_state": 0},
     "models": [{"estimator": "KNeighborsClassifier", "grid": [{"n_neighbors": [1, 3]}]}]},
]


def _schema_words() -> list:
    """Every key and word of the schema: random keys and texts hit its branches."""
    words, stack = set(), [experiment_schema()]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            words.update(k for k in node if not k.startswith("$"))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, str) and len(node) < 40:
            words.add(node)
    return sorted(words)


WORDS = _schema_words() + ["SVC", "C", "kernel", "rbf", "n_estimators", "r2", "f1_samples",
                           "accuracy", "roc_auc", "utf-8", "klingon"]
keys = st.sampled_from(WORDS) | st.text(max_size=8)
scalars = (st.none() | st.booleans() | st.integers() | st.integers(-3, 12)
           | st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(WORDS)
           | st.text(max_size=12))
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(keys, children, max_size=4),
    max_leaves=12)


def assert_parsed_or_one_line(data) -> None:
    forbidden = AssertionError("parse_experiment must not read data")
    with mock.patch("engine.input.readers.load_dataset", side_effect=forbidden), \
            mock.patch("engine.input.data.read_csv_table", side_effect=forbidden), \
            mock.patch("engine.input.data.load_builtin", side_effect=forbidden):
        try:
            result = parse_experiment(data)
        except ValueError as exc:
            message = str(exc)
            assert message and len(message.splitlines()) == 1, repr(message)
            assert message[0].isalnum(), repr(message)
            assert "Traceback" not in message
            return
    assert isinstance(result, Experiment)


# ----------------------------------------------------------------------------- mutations

def places(value, path=()):
    """Every place in a JSON value (the root included), as a path of keys and indexes."""
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from places(child, path + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from places(child, path + (index,))


def at(value, path):
    for part in path:
        value = value[part]
    return value


@st.composite
def mutated(draw):
    """A valid file with one to three random changes."""
    data = copy.deepcopy(draw(st.sampled_from(VALID)))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(places(data))))
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if not path:
            if action == "add" and isinstance(data, dict):
                data[draw(keys)] = draw(json_values)
            continue
        parent, last = at(data, path[:-1]), path[-1]
        if action == "replace":
            parent[last] = draw(json_values)
        elif action == "delete":
            del parent[last]
        elif isinstance(parent[last], dict):
            parent[last][draw(keys)] = draw(json_values)
        elif isinstance(parent[last], list):
            parent[last].append(draw(json_values))
    return data


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_random_json_values(data):
    assert_parsed_or_one_line(data)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values.map(lambda models: {"dataset": {"builtin": "iris"}, "models": models}))
def test_random_models(data):
    assert_parsed_or_one_line(data)


@pytest.mark.slow
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_valid_files(data):
    assert_parsed_or_one_line(data)


def test_the_valid_files_parse():
    for data in VALID:
        assert isinstance(parse_experiment(copy.deepcopy(data)), Experiment)
