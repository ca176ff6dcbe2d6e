"""The GUI decides on an error's code, never on its wording: each site behaves the same
when the engine's message is replaced by unrelated words, and a message that merely
looks like a store or grouping problem does not fool it."""
import numpy as np
import pytest

from engine.input.data import load_builtin
from engine.foundation.errors import EngineError
from gui import store_runs
from gui.views import groups_box

WORDS = "zz words the GUI must not read"


def test_a_refused_store_is_explained_by_its_code(tab, qtbot, warnings_shown, monkeypatch):
    path = tab.store.path()

    def refused(where):
        raise EngineError("store_foreign", {"path": where}, WORDS)

    monkeypatch.setattr(store_runs, "last_run_id", refused)
    tab.state.set_dataset(load_builtin("iris"))
    tab.state.set_model_entries([{"name": "nb", "estimator": "GaussianNB"}])
    tab.start_run()
    qtbot.waitUntil(lambda: bool(warnings_shown), timeout=60000)
    title, text = warnings_shown[0]
    assert title == "Cannot use the result store"
    assert text.startswith(f"The result store {path} is another program's database, not a "
                           "result store of this app.")
    assert WORDS not in text
    assert tab.store.bar.action_button.text() == "Run without keeping results"
    headline = store_runs.problem_headline(path, EngineError("store_foreign", {"path": path}))
    assert tab.store.bar.label.text() == headline          # the bar: the first sentence
    assert text.startswith(headline + "\n\n")


@pytest.mark.parametrize("code, words", sorted(
    (code, what) for code, (what, _todo) in store_runs.PROBLEM_WORDS.items()))
def test_the_problem_text_follows_the_code_alone(code, words):
    text = store_runs.problem_text("/s.sqlite", EngineError(code, {"path": "/s.sqlite"}, WORDS))
    assert text.startswith(f"The result store /s.sqlite {words}.") and WORDS not in text


def test_a_run_failing_on_its_store_is_taken_by_the_code(tab, warnings_shown):
    path = tab.store.path()
    assert tab.store.took_problem(EngineError("store_locked", {"path": path}, WORDS))
    assert "is in use by another program" in warnings_shown[-1][1]
    count = len(warnings_shown)
    # the old wording test would have taken this one: it names the store, has no code
    assert not tab.store.took_problem(ValueError(f"the result store {path} is locked"))
    assert not tab.store.took_problem(EngineError("store_locked", {"path": path + "x"}, path))
    assert not tab.store.took_problem(EngineError("groups_too_few", {}, f"result store {path}"))
    assert len(warnings_shown) == count


def test_the_earlier_runs_list_explains_an_unreadable_store_by_its_code(tab, qtbot,
                                                                         monkeypatch):
    def unreadable(path, *args, **kwargs):
        raise EngineError("store_format", {"path": path, "format": "9", "expected": "1"},
                          WORDS)

    monkeypatch.setattr(store_runs, "read_store", unreadable)
    with qtbot.waitSignal(tab.runs_view.load_failed, timeout=60000):
        tab.runs_view.refresh()
    qtbot.waitUntil(lambda: tab.store.bar.kind == "problem", timeout=10000)
    assert "was written by another version of this app" in tab.store.bar.label.text()
    assert WORDS not in tab.store.bar.toolTip()


def grouped(n_groups=3):
    data = load_builtin("iris")
    rows = len(data.y)
    return data, np.arange(rows) % n_groups


@pytest.mark.parametrize("error, pointed", [
    (EngineError("groups_too_few", {"n_groups": 3, "n_splits": 5, "possible": 3}, WORDS),
     True),
    (ValueError("the data has only 3 group(s) of rows that belong together, but 5 folds "
                "need at least 5"), False),
    (EngineError("groups_one_group_class", {"class": "a"}, "only group(s) folds"), False),
])
def test_the_groups_box_points_to_the_folds_by_the_code(monkeypatch, error, pointed):
    def refuse(*args, **kwargs):
        raise error

    monkeypatch.setattr(groups_box, "check_grouped_folds", refuse)
    data, groups = grouped()

    class WithGroups:
        def __init__(self):
            self.groups, self.y, self.classes = groups, data.y, data.classes

    text, problem = groups_box.groups_text(WithGroups(), 5)
    assert text.startswith("3 groups of 50 rows")
    assert problem.startswith(str(error)[:1].upper())
    assert problem.endswith("(Folds (k) is on the Cross-validation tab.)") is pointed


def test_a_caller_error_of_a_job_is_a_bug_report_with_its_code(qtbot):
    from engine.foundation.caller_errors import CallerError
    from gui.jobs import Job, failure_message

    def broken():
        raise CallerError("argument_array", "y has 3 rows but X has 4")

    job = Job(broken, name="broken")
    seen = []
    job.failed_with.connect(lambda message, error: seen.append((message, error)))
    with qtbot.waitSignal(job.finished, timeout=10000):
        job.start()
    message, error = seen[0]
    assert message == "unexpected failure (CallerError argument_array: y has 3 rows but X has 4)"
    assert error.code == "argument_array"
    assert failure_message(EngineError("no_models", {}, WORDS)) == WORDS   # input: as is
