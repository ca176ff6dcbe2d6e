"""The report's TRIPOD+AI table does not call a held-out test external: a test file may
be rows split off the same data (internal validation)."""
from types import SimpleNamespace

from engine.evaluation.experiment import parse_experiment
from engine.input.data import load_builtin
from engine.output.report.methods import tripod_rows


def rows(tables: dict) -> dict:
    experiment = parse_experiment({"dataset": {"builtin": "iris"},
                                   "models": [{"estimator": "GaussianNB"}]})
    result = SimpleNamespace(dataset=load_builtin("iris"), experiment=experiment, subgroups=None)
    return dict(tripod_rows(result, tables))


def test_a_held_out_test_is_not_called_external():
    scored = rows({"test_scores.csv": None})
    assert "Held-out (external) test" not in scored
    assert scored["Held-out test"].startswith("test_scores.csv (external validation only if")
    assert "split off the same data are internal validation" in scored["Held-out test"]
    assert rows({})["Held-out test"] == "not assessed"
