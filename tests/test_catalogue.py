"""The model catalogue: names, grids, parameter validation, and no code from files."""
import pytest

from engine.evaluation.catalogue import (CATALOGUE, estimator_class, expand_models, make_pipeline,
                                         parameter_specs, presets)
from engine.input.data import load_builtin
from engine.foundation.errors import error_code, error_fields

SEED_GRID = [{"estimator": "SVC", "params": {"random_state": 0},
              "grid": [{"kernel": ["linear"]}, {"kernel": ["poly"], "degree": [2, 3]},
                       {"kernel": ["rbf"]}]}]


def test_grid_expands_in_parameter_grid_order_with_the_seed_names():
    specs = expand_models(SEED_GRID)
    assert [s.name for s in specs] == ["linear", "2_poly", "3_poly", "rbf"]
    assert specs[1].params == {"random_state": 0, "kernel": "poly", "degree": 2}


def test_named_grid_gets_a_prefix():
    specs = expand_models([{"name": "svc", "estimator": "SVC", "grid": {"C": [0.1, 1]}}])
    assert [s.name for s in specs] == ["svc_0.1", "svc_1"]


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_every_catalogue_entry_builds(name):
    cls = estimator_class(name)
    assert cls.__name__ == name
    assert parameter_specs(name)
    expand_models([{"estimator": name}])


def test_parameter_specs_have_defaults_and_docs():
    specs = {p.name: p for p in parameter_specs("SVC")}
    assert specs["C"].default == 1.0 and specs["C"].kind == "float"
    assert specs["kernel"].default == "rbf" and "kernel" in specs["kernel"].doc.lower()


@pytest.mark.parametrize("entry, code, fields", [
    ({"estimator": "SVC", "params": {"C": -1}}, "parameter_invalid",
     {"parameter": "C", "estimator": "SVC", "got": "-1"}),
    ({"estimator": "SVC", "params": {"gama": 1}}, "unknown_parameter",
     {"parameter": "gama", "estimator": "SVC"}),
    ({"estimator": "os.system"}, "unknown_estimator", {"estimator": "os.system"}),
    ({"estimator": "sklearn.svm.SVC"}, "unknown_estimator", {"estimator": "sklearn.svm.SVC"}),
    ({"estimator": "SVC", "colour": 1}, "model_keys_unknown", {"unknown": ("colour",)}),
    ({"params": {}}, "model_no_estimator", {"place": "models[0]"}),
    ({"estimator": "SVC", "params": {"kernel": {"evil": 1}}}, "parameter_not_single",
     {"parameter": "kernel", "got": 'an object ({"evil": 1})'}),
])
def test_bad_models_have_clear_messages(entry, code, fields):
    with pytest.raises(ValueError) as caught:
        expand_models([entry])
    assert error_code(caught.value) == code
    assert {k: error_fields(caught.value)[k] for k in fields} == fields
    if code == "unknown_parameter":                     # it lists what the model takes
        assert error_fields(caught.value)["allowed"][:2] == ("C", "kernel")


def test_duplicate_names_rejected():
    with pytest.raises(ValueError) as caught:
        expand_models([{"name": "a", "estimator": "SVC"}, {"name": "a", "estimator": "GaussianNB"}])
    assert error_code(caught.value) == "model_name_twice"
    assert error_fields(caught.value)["name"] == "a"


def test_pipeline_scales_and_encodes():
    spec = expand_models([{"estimator": "LogisticRegression", "scale": True}])[0]
    pipe = make_pipeline(spec, dataset=load_builtin("iris"))
    assert [name for name, _ in pipe.steps] == ["scale", "model"]
    bare = make_pipeline(expand_models([{"estimator": "GaussianNB"}])[0],
                         dataset=load_builtin("iris"))
    assert type(bare).__name__ == "GaussianNB"


def test_presets_expand():
    for entries in presets().values():
        assert expand_models(entries)


def test_placeholder_defaults_show_the_effective_value():
    from engine.evaluation.catalogue import parameter_specs

    specs = {(name, s.name): s for name in ("LogisticRegression", "SVC")
             for s in parameter_specs(name)}
    assert specs["LogisticRegression", "penalty"].default == "l2"
    if specs["SVC", "probability"].doc.find("default=False") >= 0:
        assert specs["SVC", "probability"].default is False
        assert specs["SVC", "probability"].kind == "bool"
