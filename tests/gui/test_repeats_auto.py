"""The Cross-validation tab's "auto" repeats (issue #41): the default of new data, a
choice of the repeats box, a plan that counts the most repeats, a run that stops early."""
from dataclasses import replace

import pytest

from engine.evaluation.experiment import load_experiment
from engine.input.data import load_builtin
from tests.gui.helpers import SEED
from tests.gui.waiting import run_succeeds


def seed_state(state):
    state.apply_experiment(load_experiment(SEED), load_builtin(
        "moons", n_samples=100, noise=0.352, random_state=1))


def test_new_data_runs_auto_and_the_box_says_so(tab):
    assert (tab.state.cv.n_repeats, tab.state.cv.auto_precision) == (10, 0.02)
    assert tab.repeats_box.value() == 0
    assert tab.repeats_box.text() == "auto (stop at 2% precision, at most 10)"
    tab.state.reset()                                   # File → New: auto again
    assert tab.state.cv.auto_precision == 0.02


def test_a_number_is_a_fixed_run_and_auto_comes_back(tab):
    tab.repeats_box.setValue(3)
    assert (tab.state.cv.n_repeats, tab.state.cv.auto_precision) == (3, None)
    tab.repeats_box.setValue(0)
    assert (tab.state.cv.n_repeats, tab.state.cv.auto_precision) == (10, 0.02)
    assert tab.state.cv.to_json()["n_repeats"] == "auto"


def test_an_experiment_file_keeps_its_number(tab):
    seed_state(tab.state)
    assert tab.repeats_box.value() == 10 and tab.state.cv.auto_precision is None
    assert "may stop" not in tab.size_label.text()


def test_the_plan_counts_the_most_repeats_and_says_it_may_stop_early(tab):
    seed_state(tab.state)
    tab.repeats_box.setValue(0)
    text = tab.size_label.text()
    assert "4 models × 10 folds × 10 repeats = 400 fits" in text
    assert '"auto" may stop before 10 repeats' in text


@pytest.mark.slow
def test_an_auto_run_stops_early_and_the_bar_ends_full(tab, qtbot):
    """The seed example at most 10 repeats: the widths' noise bound falls to 1.088 times
    the width at 10 after 9 repeats (the formula alone would have stopped after 2 at 10%)."""
    seed_state(tab.state)
    state = tab.state
    state.set_cv(replace(state.cv, n_repeats=10, auto_precision=0.1), state.metrics)
    assert tab.repeats_box.text() == "auto (stop at 10% precision, at most 10)"
    with run_succeeds(qtbot, tab):
        tab.run_button.click()
    result = state.result
    assert (result.cv.auto_stop.n_repeats, result.cv.auto_stop.reason) == (9, "precision")
    assert result.experiment.cv.n_repeats == 9 and len(result.cv.scores) == 4 * 90
    assert tab.progress_bar.value() == tab.progress_bar.maximum() == 400
    assert any(note.code == "repeats_auto_stopped" for note in result.notes)


def test_the_window_says_the_stop_in_its_own_words():
    from engine.evaluation.auto_repeats import AutoStop
    from gui.note_words import note_words
    note = AutoStop(5, "precision", 0.983, 10, 0.02).note()
    assert note_words(note) == (
        'Repeats "auto" stopped after 5 of at most 10: one more would have narrowed no '
        "interval by 2% of its width. The results are those of 5 repeats; set the repeats to "
        "5 to run the same again.")
    capped = AutoStop(3, "max_repeats", 0.9, 3, 0.02).note()
    assert "the most repeats were reached" in note_words(capped)
