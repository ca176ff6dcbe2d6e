"""The Cross-validation tab's default run for the user's own data: sized to about two
minutes on this computer (:mod:`engine.runs.run_size`, from fits timed on a worker
thread), said next to the run's time, and left alone once the user sets the folds or
repeats.

What is sized: the user's own data (not a built-in or shipped example) with models that
parse, while no experiment file is open (a file keeps the folds and repeats it says, as
the seed example keeps its published 10 x 10) and the user has not set the folds or
repeats since File → New. Data, models, calibration or curves that change size it again,
each time down from the published 10 x 10 (unticking calibration gives the repeats back).
"""
from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, QTimer

from engine.evaluation.cv import CVConfig
from engine.foundation.machine import format_seconds
from engine.runs import run_size

from ..jobs import Job, JobSlot
from ..views.start_panel import own_data_path

#: Seconds the default run aims at (None: never sized; the GUI tests' default, since the
#: timing runs on a thread and would change the repeats at a moment a test does not choose).
TARGET_SECONDS = run_size.TARGET_SECONDS


def sized_words(sized) -> str:
    """What the sizing did, as a sentence for the tab: ``Sized to about 2 min on this
    computer: 10 folds × 4 repeats, 1 min 50 s by timed fits (10 × 10: 4 min 35 s). Raise
    the repeats for more.``"""
    cv = sized.cv
    most = "at most " if cv.auto_precision is not None else ""     # "auto" may stop early
    design = f"{cv.n_splits} folds × {most}{cv.n_repeats} repeats"
    if not sized.smaller:
        return f"{design}: {format_seconds(sized.seconds)} on this computer, by timed fits."
    target = format_seconds(run_size.TARGET_SECONDS, about=True)
    return (f"Sized to {target} on this computer: {design}, "
            f"{format_seconds(sized.seconds)} by timed fits (10 × 10: "
            f"{format_seconds(sized.asked_seconds)}). Raise the repeats for more.")


class DefaultSize(QObject):
    """Sizes the state's folds and repeats in the background; ``say`` gets the sentence
    (see the module's docstring)."""

    def __init__(self, state, running, say, parent=None):
        super().__init__(parent)
        self.state, self._running, self._say = state, running, say
        self.chosen = False          # the user set the folds or repeats
        self._slot = JobSlot()
        self._generation = 0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(300)        # a burst of changes sizes once
        self._timer.timeout.connect(self._start)
        for signal in (state.dataset_changed, state.models_changed):
            signal.connect(lambda *_: self.schedule())
        state.settings_changed.connect(self._on_settings)

    def user_set(self) -> None:
        """The user set the folds or repeats: they stay as set."""
        self.chosen = True
        self._generation += 1

    def schedule(self) -> None:
        """Size again shortly (after the change at hand has settled)."""
        self._generation += 1
        if TARGET_SECONDS is not None and not self.chosen:
            self._timer.start()

    def _on_settings(self) -> None:
        if not self.state.datasets:
            self.chosen = False                  # File → New: the next data is sized
        extras = (self.state.calibration, self.state.curves)
        if extras != getattr(self, "_extras", None):
            self._extras = extras
            self.schedule()

    def wanted(self) -> bool:
        """True when the state's run is one to size now."""
        state = self.state
        if TARGET_SECONDS is None or self.chosen or state.experiment_path is not None:
            return False
        if self._running() or not state.datasets:
            return False
        if any(own_data_path(one) is None for one in state.datasets):
            return False
        try:
            return bool(state.model_specs())
        except ValueError:
            return False

    def _start(self) -> None:
        if not self.wanted() or self._slot.running:
            if self._slot.running:
                self._timer.start()              # again when the running one is done
            return
        try:
            experiment = self.state.to_experiment()
        except ValueError:
            return
        default = CVConfig()                     # sized down from 10 x 10, every time
        experiment = replace(experiment, cv=replace(experiment.cv, n_splits=default.n_splits,
                                                    n_repeats=default.n_repeats))
        datasets, n_jobs = list(self.state.datasets), self.state.n_jobs
        generation = self._generation
        job = Job(lambda: run_size.sized_run(experiment, datasets, n_jobs=n_jobs,
                                             target=TARGET_SECONDS),
                  name="run-size")
        job.succeeded.connect(lambda sized: self._apply(sized, generation))
        self._slot.start(job)

    def _apply(self, sized, generation: int) -> None:
        self._slot.job.wait()
        if generation != self._generation or not self.wanted():
            return
        state = self.state
        cv = replace(state.cv, n_splits=sized.cv.n_splits, n_repeats=sized.cv.n_repeats)
        if cv != state.cv:
            state.set_cv(cv, state.metrics, state.n_jobs)
        self._say(sized_words(replace(sized, cv=cv)))      # "auto" or not: the state's

    def shutdown(self, msecs: int = 30000) -> bool:
        """Wait for a sizing under way (on quit)."""
        self._timer.stop()
        return self._slot.wait(msecs)
