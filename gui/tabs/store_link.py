"""The Cross-validation tab's result store: where it is, checking it before a run, what a
run reused or kept, the offer to resume, and the Earlier runs list.

Every run keeps its fits in the store of the current experiment
(:func:`gui.store_location.store_path`): the path goes to the run's child process, which
opens the file (:mod:`engine.runs.store`). The file is checked on the run's check thread
before the run starts (a refused file stops the run with a dialog, and the bar offers to
run without keeping results) and read on a worker thread after it ends (how many fits
were reused, or kept after Cancel). The GUI thread never reads or writes the file.
"""
from __future__ import annotations

from typing import Callable, Optional

from PySide6.QtCore import QObject

from engine.foundation.errors import EngineError, is_store_error

from .. import store_runs
from ..jobs import Job, JobSlot
from ..plain_text import plain_tip, warn
from ..store_location import store_path
from ..views.runs_view import RunsView
from ..views.store_bar import StoreBar


def checked_store(path: Optional[str]) -> tuple:
    """On the run's check thread: ``(path, last run id, problem)``; ``problem`` is the
    :class:`~engine.foundation.errors.EngineError` (a ``store_`` code) of a refused file, None when
    it can be used (None ``path``: no store)."""
    if path is None:
        return None, 0, None
    try:
        return path, store_runs.last_run_id(path), None
    except EngineError as exc:
        if not is_store_error(exc):
            raise
        return path, 0, exc


class StoreLink(QObject):
    """The store of the tab's runs.

    Parameters
    ----------
    tab : CVTab
        Its ``state``, ``time_label``, ``start_run`` and ``running``.
    prepare : callable
        The display preparation of a result (applied to reopened runs too).
    """

    def __init__(self, tab, prepare: Callable):
        super().__init__(tab)
        self.tab, self.state = tab, tab.state
        self.bar = StoreBar(tab)
        self.runs_view = RunsView(self.state, self.path, prepare, tab)
        self.runs_view.loaded.connect(self._on_loaded)
        self.runs_view.load_failed.connect(self._on_load_failed)
        self.runs_view.resume_requested.connect(self.resume)
        #: The experiment file whose store the runs use (None: unsaved work); the main
        #: window replaces it (:meth:`gui.main_window.MainWindow.store_experiment_path`).
        self.experiment_of: Callable = lambda: self.state.experiment_path
        self.without_store = False   # the next Run keeps nothing (chosen after a problem)
        self._launched: Optional[tuple] = None   # (path, last run id before it)
        self._ended: Optional[tuple] = None      # (how, text) of the run ended, until read
        self._copy_job = JobSlot()                # copying the store after Save As
        self._stored = (None, None)               # (setup, fits kept per data set)
        #: The fits the launched run keeps (its engine.runs.run_plan count), for Cancel's words.
        self.planned_fits: Optional[int] = None
        self.state.result_store = lambda: self.launched_path() or self.path()

    def path(self) -> str:
        """The store file of the current experiment (saved or not)."""
        return store_path(self.experiment_of())

    def path_for_run(self) -> Optional[str]:
        """The store of the next Run (None: run without keeping results)."""
        return None if self.without_store else self.path()

    def refresh(self) -> None:
        """Read the store again soon, unless a run is using it."""
        if not self.tab.running:
            self.runs_view.schedule_refresh()

    # ------------------------------------------------------------------ a run
    def accept(self, checked: tuple) -> bool:
        """After the check: True when the run may start (else the problem is shown)."""
        path, last_id, problem = checked
        if problem is not None:
            self.show_problem(path, problem)
            return False
        self.bar.dismiss()
        self._launched = (path, last_id) if path else None
        self.without_store = False
        return True

    def launched_path(self) -> Optional[str]:
        """The store file of the run being launched (None: none)."""
        return self._launched[0] if self._launched else None

    def ended(self, how: str, text: str) -> None:
        """The run ended (``how``: done, cancelled, failed) with ``text`` on screen: the
        store is read and the text completed with what was reused or kept."""
        self._ended = (how, text) if self._launched else None
        if self._launched is not None and how == "cancelled":
            self.runs_view.cancelled_after = self._launched[1]
        if self._launched is None and how == "done":
            self.tab.time_label.setText(f"{text} The fits were not kept (run without the "
                                        "result store).")
        self.runs_view.schedule_refresh()

    def stored_for(self, setup) -> Optional[tuple]:
        """Per data set, the fits of ``setup`` (the window's experiment JSON) that the
        store held when last read; None when not known for this setup."""
        kept_setup, counts = self._stored
        return counts if counts is not None and kept_setup == setup else None

    def _on_loaded(self, snapshot) -> None:
        self._stored = (snapshot.setup, snapshot.stored)
        self.tab.show_size()
        if self._ended is not None and self._launched is not None:
            (how, text), (path, before) = self._ended, self._launched
            self._ended = self._launched = None
            if snapshot.path == path:
                self._show_counts(how, text, snapshot.runs_after(before))
        if self.tab.running:
            return
        if snapshot.offer is not None:
            if self.bar.kind != "offer" or self.bar.label.text() != snapshot.offer.text():
                self.state.status_message.emit(
                    f"{snapshot.offer.summary()}: Resume it on the Cross-validation tab.")
            self.bar.show_message("offer", snapshot.offer.text(), "Resume", self.resume)
        elif self.bar.kind == "offer":
            self.bar.dismiss()

    def _show_counts(self, how: str, text: str, runs: list) -> None:
        if how == "done":
            self.tab.time_label.setText(text.rstrip(".") + store_runs.counts_text(runs) + ".")
        elif how == "cancelled":
            self.tab.time_label.setText(f"{text} "
                                        f"{store_runs.kept_text(runs, self.planned_fits)}")

    def _on_load_failed(self, path: str, error) -> None:
        self._ended = self._launched = None
        if not self.tab.running:
            self._show_problem_bar(path, error)

    # ------------------------------------------------------------------ actions
    def resume(self) -> None:
        """Start the run: the store gives back the fits kept, only the missing ones are
        computed."""
        self.bar.dismiss()
        self.tab.start_run()

    def run_without_store(self) -> None:
        self.without_store = True
        self.bar.dismiss()
        self.tab.start_run()

    def show_problem(self, path: str, problem) -> None:
        """A refused store file (``problem``: its EngineError): a dialog saying what it is
        and what to do, and the bar's way out (the file is left as it is)."""
        self.tab.time_label.setText("Not started: the result store cannot be used.")
        warn(self.tab, "Cannot use the result store", store_runs.problem_text(path, problem))
        self._show_problem_bar(path, problem)

    def _show_problem_bar(self, path: str, problem) -> None:
        """The bar: the headline of :func:`store_runs.problem_text`, the whole as its tip."""
        self.bar.show_message("problem", store_runs.problem_headline(path, problem),
                              "Run without keeping results", self.run_without_store)
        self.bar.setToolTip(plain_tip(store_runs.problem_text(path, problem)))

    def took_problem(self, error) -> bool:
        """A run failed with ``error``: True when its code says it is about this store
        file (shown here, with the way out), else False."""
        path = self.launched_path() or self.path()
        if not is_store_error(error, path=path):
            return False
        self._ended = self._launched = None
        self.show_problem(path, error)
        return True

    @property
    def copying(self) -> bool:
        """The store is being copied after Save As."""
        return self._copy_job.running

    def follow_save(self, path: str) -> None:
        """The experiment is being saved as ``path`` (called before it becomes the
        experiment's file): the fits of the store used so far are copied to the new
        file's store (when that has none yet), on a worker thread, then the list is read
        again."""
        source, target = self.path(), store_path(path)
        if source == target or self._copy_job.running:
            self.refresh()
            return
        job = Job(lambda: store_runs.copy_store(source, target), name="store-copy")
        job.finished.connect(self.refresh)
        self._copy_job.start(job)

    def shutdown(self, msecs: int = 30000) -> bool:
        return self._copy_job.wait(msecs) and self.runs_view.shutdown(msecs)
