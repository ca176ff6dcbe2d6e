"""Waits that end at once when a run fails, instead of at their timeout.

``qtbot.waitSignal(tab.run_succeeded, timeout=...)`` waits out its whole timeout when the
run fails, and then says only that a signal did not come. ``run_succeeds`` ends on the
first of the tab's ``run_succeeded``, ``run_failed`` or ``run_cancelled`` and fails with
the run's own message.
"""
from contextlib import contextmanager

#: The longest a run in a GUI test may take on a busy machine (ms): runs take seconds on
#: an idle one; pytest-timeout ends a test that hangs for another reason.
RUN_TIMEOUT_MS = 300_000
#: What the app showed instead of running (a dialog the guard answered, the pre-run
#: check's list): tests/gui/conftest.py appends; a run that waits on it has not started.
SHOWN: list = []


class Outcome:
    """How a run ended: ``args`` as pytest-qt's blocker gives them (the result first)."""

    def __init__(self):
        self.args = None
        self.failure = None

    @property
    def ended(self) -> bool:
        return self.args is not None or self.failure is not None


@contextmanager
def run_succeeds(qtbot, tab, timeout=RUN_TIMEOUT_MS):
    """Run the block (which starts a run on the CV tab ``tab``) and wait for the run to
    succeed; fail at once with its message when it fails or is cancelled."""
    outcome = Outcome()

    def succeeded(*args):
        outcome.args = list(args)

    def failed(message="the run was cancelled"):
        outcome.failure = message

    connections = [(tab.run_succeeded, succeeded), (tab.run_failed, failed),
                   (tab.run_cancelled, failed)]
    shown = len(SHOWN)
    for signal, slot in connections:
        signal.connect(slot)
    try:
        yield outcome
        qtbot.waitUntil(lambda: outcome.ended or len(SHOWN) > shown, timeout=timeout)
        if not outcome.ended:
            outcome.failure = "the run did not start; the app showed: " + SHOWN[-1]
    finally:
        for signal, slot in connections:
            signal.disconnect(slot)
    assert outcome.failure is None, f"the run did not succeed: {outcome.failure}"
