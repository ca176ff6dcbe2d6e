"""ModelEntry: the app state's model entries as typed values that convert to and from the
experiment file's model blocks without losing or reordering a key."""
import json
import os

import pytest

from engine.evaluation.catalogue import expand_models
from engine.evaluation.experiment import load_experiment
from gui.model_entry import ModelEntry
from gui.state import AppState

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "resources", "examples")


def example_blocks():
    """Every model block of the shipped example experiments."""
    blocks = []
    for name in sorted(os.listdir(EXAMPLES)):
        if name.endswith(".json"):
            with open(os.path.join(EXAMPLES, name), encoding="utf-8") as stream:
                data = json.load(stream)
            blocks.extend(data.get("models", []) if isinstance(data, dict) else [])
    return blocks


def test_every_shipped_model_block_comes_back_as_it_was():
    blocks = example_blocks()
    assert len(blocks) >= 5
    for block in blocks:
        again = ModelEntry.from_dict(block).to_dict()
        assert again == block and list(again) == list(block)


def test_the_fields_read_the_block():
    block = {"name": "svm", "estimator": "SVC", "params": {"C": 2.0}, "scale": True,
             "grid": [{"kernel": ["rbf"]}, {"kernel": ["linear"], "C": [1, 10]}],
             "tune": {"grid": {"gamma": [0.1, 1]}, "inner_splits": 3},
             "resample": "over", "note": "kept"}
    entry = ModelEntry.from_dict(block)
    assert (entry.name, entry.estimator, entry.label, entry.scale, entry.resample) == (
        "svm", "SVC", "svm", True, "over")
    assert entry.params == {"C": 2.0} and entry.grid_params == {"kernel", "C"}
    assert len(entry.grids) == 2 and entry.is_tuned and entry.extra == {"note": "kept"}
    block["params"]["C"] = 5.0                      # a copy: the entry does not change
    assert entry.params == {"C": 2.0}
    nameless = ModelEntry.from_dict({"estimator": "GaussianNB"})
    assert nameless.label == "GaussianNB" and not nameless.is_tuned and nameless.grids == []


def test_an_entry_made_in_code_writes_only_what_it_holds():
    assert ModelEntry("GaussianNB").to_dict() == {"estimator": "GaussianNB", "params": {}}
    assert ModelEntry("SVC", name="s", scale=True).to_dict() == {
        "name": "s", "estimator": "SVC", "params": {}, "scale": True}


def test_the_state_keeps_typed_entries_and_gives_the_files_dicts(qapp):
    state = AppState()
    seen = []
    state.models_changed.connect(seen.append)
    blocks = [{"name": "lr", "estimator": "LogisticRegression", "params": {"C": 1.0},
               "grid": {"C": [0.1, 1.0]}}, {"estimator": "GaussianNB"}]
    state.set_model_entries(blocks)
    assert all(isinstance(entry, ModelEntry) for entry in state.models)
    assert state.model_entries == blocks and seen == [blocks]
    state.model_entries[0]["name"] = "changed"       # a copy: the state keeps its own
    assert state.models[0].name == "lr"
    assert [spec.name for spec in state.model_specs()] == \
        [spec.name for spec in expand_models(blocks)]
    state.set_model_entries(list(state.models))       # typed entries are taken as they are
    assert state.model_entries == blocks


@pytest.mark.parametrize("name", ["svc_kernels_nested_moons.json",
                                  "five_models_six_datasets.json"])
def test_an_opened_experiment_saves_the_same_model_blocks(qapp, name):
    experiment = load_experiment(os.path.join(EXAMPLES, name))
    state = AppState()
    state.set_model_entries(list(experiment.model_entries))
    assert state.model_entries == [dict(e) for e in experiment.model_entries]
