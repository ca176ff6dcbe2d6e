"""Words for people: what the window shows names no experiment-file key and no scorer id,
and value lists accept the user's decimal comma."""
import os
import re

import pytest

from engine.runs.analysis import run_experiment
from engine.evaluation.catalogue import expand_models
from engine.evaluation.experiment import parse_experiment
from engine.foundation.notes import Note, note_code, note_fields
from engine.foundation.progress import run_to_end
from engine.evaluation.messages_app import SHORT
from gui.note_words import note_words, plain_ids
from gui.tabs.cv_tab import log_text
from gui.tabs.models_tab import entries_problem, parse_field

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PENGUINS = os.path.join(ROOT, "tests", "data", "penguins.csv")
#: What a window's text must not hold: a quoted key, a key-value pair, a scorer id.
JSON_KEY = re.compile(r'"\w+"\s*:|"(scale|compare_ungrouped|decimal|pos_label|exclude|'
                      r'target|groups)"')
SCORER_ID = re.compile(r"\b(roc_auc\w*|neg_\w+|balanced_accuracy|f1_\w+)\b")


@pytest.fixture(scope="module")
def penguin_run():
    """Three species, models that fail (SVC without probabilities under ROC AUC), warn (a
    logistic regression stopped after 5 iterations) and run unscaled."""
    experiment = parse_experiment({
        "dataset": {"csv": PENGUINS, "target": "species"},
        "models": [{"name": "svc", "estimator": "SVC"},
                   {"name": "knn", "estimator": "KNeighborsClassifier"},
                   {"name": "lr", "estimator": "LogisticRegression", "params": {"max_iter": 5}}],
        "cv": {"n_splits": 3, "n_repeats": 1}})
    return run_to_end(run_experiment(experiment))


def test_the_run_log_names_no_key_and_no_scorer_id(penguin_run):
    codes = {note_code(n) for n in penguin_run.notes}
    assert {"unscaled_models", "default_metric", "folds_failed", "folds_warned"} <= codes
    engine_text = "\n".join(map(str, penguin_run.notes))
    assert JSON_KEY.search(engine_text) and SCORER_ID.search(engine_text)   # the runner's words
    text = log_text(penguin_run)
    assert not JSON_KEY.search(text), text
    assert not SCORER_ID.search(text), text
    assert "Scale features" in text and "ROC AUC, one vs rest" in text


def test_fold_notes_keep_their_numbers_and_say_the_fix_with_controls(penguin_run):
    failed = next(n for n in penguin_run.notes if note_code(n) == "folds_failed")
    warned = next(n for n in penguin_run.notes if note_code(n) == "folds_warned")
    assert note_fields(failed)["fix"] == "no_probabilities"
    assert note_fields(warned)["fix"] == "not_converged"
    errors = penguin_run.cv.failures
    hit = errors[(errors.model == "svc") & (errors.kind == "error")]
    n_hit = hit.drop_duplicates(["repeat", "fold"]).shape[0]
    assert (failed.fields["model"], failed.fields["n_folds_hit"], failed.fields["n_folds"]) \
        == ("svc", n_hit, 3)
    assert (warned.fields["model"], warned.fields["n_folds_hit"], warned.fields["n_folds"]) \
        == ("lr", 3, 3)
    for note in (failed, warned):           # the window's words: the catalogue's short form
        assert note_words(note) == SHORT[note.code](note.fields) != str(note)


def test_notes_without_words_of_their_own_get_metric_names():
    note = Note("tuning_optimism", "svc: tuned inside each training fold it scores 0.9 "
                "roc_auc_ovr; ...", {"model": "svc", "metric": "roc_auc_ovr"})
    assert "ROC AUC, one vs rest" in note_words(note) and "roc_auc" not in note_words(note)
    assert plain_ids("neg_log_loss and f1_macro, not my_f1_macro") == \
        "log loss (negated) and F1, mean over classes, not my_f1_macro"


def test_the_grouping_gap_without_groups_is_said_with_the_checkbox():
    note = Note("grouping_gap_no_groups", '"compare_ungrouped" is on, but this data set has '
                'no "groups" column', {"dataset": None})
    text = note_words(note)
    assert "Also run without groups" in text and not JSON_KEY.search(text)


@pytest.mark.parametrize("typed, values", [
    ("0,01; 0,1; 1", [0.01, 0.1, 1]),
    ("0.01, 0.1, 1", [0.01, 0.1, 1]),
    ("1,5e-3; 2", [0.0015, 2]),
    ("linear; rbf", ["linear", "rbf"]),
    ("2, 3", [2, 3]),
])
def test_value_lists_accept_decimal_commas(typed, values):
    assert parse_field(typed) == values


def test_a_european_grid_makes_the_models_it_says(qtbot):
    """``0,01; 0,1; 1`` typed for C gives the three models of C = 0.01, 0.1 and 1 (it was
    read as 0, 01; 0, ... and refused with "models[0].grid.C ... got 0")."""
    from gui.state import AppState
    from gui.tabs.models_tab import ModelsTab

    state = AppState()
    tab = ModelsTab(state)
    qtbot.addWidget(tab)
    state.set_model_entries([{"name": "svc", "estimator": "SVC", "scale": True}])
    tab.entry_list.setCurrentRow(0)
    box = tab.editor.editors["C"]
    box.setText("0,01; 0,1; 1")
    box.committed.emit()
    entry = state.model_entries[0]
    assert entry["grid"] == {"C": [0.01, 0.1, 1]}
    assert [s.params["C"] for s in expand_models(state.model_entries)] == [0.01, 0.1, 1]
    assert tab.expanded_list.count() == 3


def test_a_models_tab_problem_names_the_model_not_the_file_place():
    text = entries_problem([{"name": "rbf", "estimator": "SVC", "grid": {"C": [0, 1]}}])
    assert text.startswith("model 'rbf_0': the 'C' parameter of SVC")
    assert "models[" not in text and "grid" not in text


def test_too_many_models_is_said_without_the_files_place(monkeypatch):
    """Decided on the error's code (too_many_models), not by cutting "models: " off."""
    from engine.evaluation import catalogue

    monkeypatch.setattr(catalogue, "MAX_MODELS", 3)
    entries = [{"name": n, "estimator": "GaussianNB",
                "grid": {"var_smoothing": [1e-9, 1e-8]}} for n in ("a", "b")]
    with pytest.raises(ValueError) as caught:
        expand_models(entries)
    assert (caught.value.code, dict(caught.value.fields)) == (
        "too_many_models", {"n_models": 4, "limit": 3})
    assert entries_problem(entries) == note_words(caught.value)
    assert not entries_problem(entries).startswith("models")
