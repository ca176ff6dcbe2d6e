"""The catalogue's wording of the errors of engine/evaluation and engine/output
(engine.foundation.messages_evaluation): one pinned sentence per code. Other tests
assert codes and fields; these pin the sentences made from them."""
import pytest

from engine.foundation.errors import CODES, EngineError
from engine.foundation.messages import LONG
from engine.foundation.messages_evaluation import LONG_EVALUATION

#: (code, fields, long form): one example per code (two where the wording branches).
CASES = [
    ("experiment_missing", {"path": "e.json"}, "cannot open e.json: the file does not exist"),
    ("experiment_is_folder", {"path": "d"},
     "cannot open d: it is a folder, not an experiment file"),
    ("experiment_unreadable", {"path": "e.json", "detail": "Permission denied"},
     "cannot open e.json: Permission denied"),
    ("experiment_long_number", {"path": "e.json"},
     "the experiment file e.json holds a number of more than 4300 digits; write numbers of a "
     "usual size"),
    ("experiment_not_json", {"path": "e.json", "detail": "Expecting value: line 1"},
     "the experiment file e.json is not valid JSON: Expecting value: line 1"),
    ("experiment_too_deep", {"path": "e.json"},
     "the experiment file e.json is nested too deeply to read: an experiment file needs only "
     "a few levels of lists and objects"),
    ("section_invalid", {"section": "cv", "detail": "bad keyword"}, "cv: bad keyword"),
    ("setting_invalid", {"place": "aloocv.n_C", "problem": "at most 200"},
     "aloocv.n_C: at most 200"),
    ("aloocv_c_range", {"C_min": 2.0, "C_max": 1.0},
     "aloocv: need 0 < C_min < C_max (got C_min=2.0, C_max=1.0)"),
    ("calibration_methods", {"unknown": ["platt", "beta"]},
     "calibration: unknown method(s) platt, beta; choose from: isotonic, sigmoid"),
    ("calibration_strategy", {"strategy": "kmeans"},
     "calibration: strategy must be 'uniform' or 'quantile' (got 'kmeans')"),
    ("learning_fraction", {"value": 1.5},
     "curves.learning: 1.5 is not a fraction of the training fold; give numbers above 0 and "
     "at most 1, e.g. [0.1, 0.55, 1.0]"),
    ("learning_fraction_twice", {},
     "curves.learning: a fraction is listed twice; list each once"),
    ("subgroups_with_datasets", {},
     'subgroups: a subgroup column belongs to one data set, and this experiment has a '
     '"datasets" list; run the data set with its subgroups as an experiment of its own '
     '("dataset" and "subgroups")'),
    ("save_models_without_test", {},
     'save_models: the final models are fitted for the held-out test; add "test": {"file": '
     'PATH} or leave "save_models" out'),
    ("test_with_datasets", {},
     'test: a held-out test file belongs to one data set, and this experiment has a '
     '"datasets" list; run the data set with its test file as an experiment of its own '
     '("dataset" and "test")'),
    ("dataset_file", {"detail": "no such option", "inner_code": ""},
     "dataset.file: no such option"),
    ("unknown_encoding", {"place": "datasets[1]", "got": '"klingon"'},
     'datasets[1].encoding: "klingon" is not a text encoding Python knows; use one such as '
     '"utf-8", "utf-8-sig", "latin-1" or "cp1252", or leave "encoding" out to detect it'),
    ("unknown_estimator", {"estimator": "Foo", "known": ["SVC", "LogisticRegression"],
                           "place": None},
     "unknown estimator 'Foo'; the catalogue has: SVC, LogisticRegression"),
    ("unknown_estimator", {"estimator": "Foo", "known": ["SVC"], "place": "models[0].estimator"},
     "models[0].estimator: unknown estimator 'Foo'; the catalogue has: SVC"),
    ("unknown_keys", {"place": "models[1]", "unknown": ["x", "y"], "allowed": ["name", "scale"]},
     "models[1]: unknown key(s) x, y; allowed: name, scale"),
    ("model_no_estimator", {"place": "models[0]"},
     "models[0]: missing 'estimator' (a catalogue name such as 'SVC')"),
    ("params_not_object", {"place": "models[0].params"},
     "models[0].params: 'params' must be an object of name: value"),
    ("bad_grid", {"place": "models[0].grid", "detail": "Parameter grid is not a dict"},
     "models[0].grid: bad grid: Parameter grid is not a dict"),
    ("grid_too_large", {"place": "model SVC", "n_models": 30_000, "limit": 20_000},
     "model SVC: the grid makes 30,000 models; at most 20,000 can be compared in one "
     "experiment"),
    ("inner_splits_invalid", {"place": "tune.inner_splits", "problem": "at least 2"},
     "tune.inner_splits: at least 2 (the inner folds)"),
    ("not_an_object", {"place": "threshold", "example": '{"scoring": "f1"}', "got": "3"},
     'threshold: expected an object such as {"scoring": "f1"}, got 3'),
    ("tune_grid_not_object", {"place": "tune", "got": "an empty list"},
     "tune.grid: expected an object of parameter names and lists of values to try, got an "
     "empty list"),
    ("tuned_and_grid", {"place": "models[0].tune", "parameters": ["C", "gamma"]},
     'models[0].tune.grid: C, gamma is both in the model\'s "grid" (separate models) and '
     "tuned inside the folds: keep it in one"),
    ("expected_boolean", {"place": "tune.optimism", "got": '"yes"'},
     'tune.optimism: expected true or false, got "yes"'),
    ("expected_seed", {"place": "threshold.random_state", "got": "1.5"},
     "threshold.random_state: expected a whole number or null, got 1.5"),
    ("threshold_scoring_or_cost", {"place": "threshold"},
     'threshold: give either "scoring" (such as "balanced_accuracy") or "cost" (a 2x2 matrix '
     "[[c_tn, c_fp], [c_fn, c_tp]]), not both or neither"),
    ("threshold_scoring", {"place": "threshold.scoring", "got": '"roc_auc"',
                           "allowed": ["accuracy", "f1"]},
     'threshold.scoring: a threshold is chosen by a metric of predicted classes; got '
     '"roc_auc", use one of: accuracy, f1'),
    ("unknown_parameter", {"place": "models[0].params.Q", "estimator": "SVC", "parameter": "Q",
                           "allowed": ["C", "kernel"]},
     "models[0].params.Q: SVC has no parameter 'Q'; allowed: C, kernel"),
    ("parameter_not_single", {"place": "model 'a'", "parameter": "C", "got": "a list ([1])"},
     "model 'a': parameter 'C' must be a single value, not a list ([1])"),
    ("parameter_not_finite", {"place": "model 'a'", "parameter": "C"},
     "model 'a': parameter 'C' must be a finite number"),
    ("parameter_invalid", {"model": "a", "place": "models[0].params.C", "parameter": "C",
                           "estimator": "SVC", "expected": "a float in the range (0.0, inf)",
                           "got": "-1", "detail": "..."},
     "models[0].params.C: the 'C' parameter of SVC must be a float in the range (0.0, inf), "
     "got -1"),
    ("parameter_invalid", {"model": "a", "place": None, "parameter": None, "estimator": None,
                           "expected": None, "got": None, "detail": "bad\\ncombination"},
     "model 'a': bad\\ncombination"),
    ("model_name_long", {"start": "x" * 40, "n_chars": 5000, "limit": 200},
     "the model name " + "x" * 40 + "… is 5,000 characters long, more than the 200 a name "
     "can have (it is written in every row of the result tables): give the model a shorter "
     "name"),
    ("model_name_control", {"shown": "a\\nb"},
     "the model name 'a\\nb' holds a control character (a line break, a tab or an invisible "
     "Unicode control or format character, shown written out): rename the model"),
    ("model_name_twice", {"name": "svc"}, "two models are named 'svc'; give each model its own "
     "name"),
    ("no_models", {}, "the experiment has no models: add at least one"),
    ("staging_unusable", {"path": "/r/.staging", "detail": "its run.json cannot be used (x)"},
     "/r/.staging: its run.json cannot be used (x)"),
]


@pytest.mark.parametrize("code, fields, text", CASES)
def test_an_errors_long_form_is_made_from_its_fields(code, fields, text):
    error = EngineError(code, fields)
    assert str(error) == error.message == text
    assert error.code == code and dict(error.fields) == {
        k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}


def test_every_code_of_the_block_is_an_error_code_with_one_example():
    assert set(LONG_EVALUATION) <= set(CODES)
    assert {case[0] for case in CASES} == set(LONG_EVALUATION)
    assert all(LONG[code] is LONG_EVALUATION[code] for code in LONG_EVALUATION)
