"""The one way the GUI runs long work: a :class:`Job`, with progress, result, error and
cancel as Qt signals.

An engine job is a generator yielding :class:`engine.foundation.progress.Progress` and returning
its result (see ``engine/foundation/progress.py``).  A :class:`Job` drives one on a ``QThread``:

* :meth:`Job.in_process` -- engine computations (the cross-validation, ALOOCV curves,
  calibration): the thread drives :func:`engine.runs.runner.run_in_process`, so the work
  runs in a child process (lower priority, tied to this one, its own ``n_jobs``
  workers) and the thread only waits on a pipe.  The fits never hold this process's
  GIL, and Cancel ends the child at once.
* ``Job(make_work)`` -- work that needs this process: reading and writing files
  (loading data, saving, exporting tables and images) and the few timed fits of a run's
  estimate.  It runs on the thread itself; Cancel stops it at its next ``yield``.

Both are driven by the same code and emit the same signals.  Because the ``Job`` object
itself lives in the GUI thread, its signals reach slots of GUI objects through the event
loop (queued), never directly from the worker.  Connect them to bound methods of
QObjects (widgets), not to free functions.

Progress is throttled (``min_interval``) so thousands of folds never flood the loop;
the ``detail`` of every record (a fold's scores, for live plots) still arrives, in
batches, through ``details``.
"""
from __future__ import annotations

import sys
import time
import traceback
import warnings
from typing import Callable, Optional

from PySide6.QtCore import QThread, Signal

from engine.runs.runner import Heartbeat, JobFailed, run_in_process
from engine.foundation.errors import error_code, is_caller_error


def sentence(text: str) -> str:
    """A message that starts a dialog or the status bar, with a capital (the engine's and
    the jobs' messages start in lower case so that they can follow a colon)."""
    return text[:1].upper() + text[1:] if text else text


def failure_message(exc: BaseException) -> str:
    """What the user is told about an exception of a job (a ValueError is for them, but
    a CallerError is the app's own bug: reported with its code, as an unexpected one)."""
    if is_caller_error(exc):
        return f"unexpected failure (CallerError {error_code(exc)}: {exc})"
    if isinstance(exc, ValueError):
        return str(exc)
    if isinstance(exc, OSError):
        return f"cannot read or write a file: {exc}"
    if isinstance(exc, MemoryError):
        return "out of memory: try fewer rows, folds or models"
    return f"unexpected failure ({type(exc).__name__}: {exc})"


class Job(QThread):
    """Run ``make_work()`` on a worker thread.

    ``make_work`` returns either an engine generator (progress records, then a result)
    or, for a plain function, any value directly.  For engine computations use
    :meth:`in_process`.
    """

    progressed = Signal(object)   # engine.foundation.progress.Progress (the latest)
    details = Signal(list)        # the ``detail`` of every record since the last emission
    succeeded = Signal(object)    # the result
    failed = Signal(str)          # a message for the user
    failed_with = Signal(str, object)   # the same message, and the error (its ``code``)
    cancelled = Signal()

    def __init__(self, make_work: Callable, name: str = "job", parent=None,
                 min_interval: float = 0.1):
        super().__init__(parent)
        self.setObjectName(name)
        self._make_work = make_work
        self._min_interval = min_interval
        self._cancel_requested = False
        #: True once the outcome (succeeded, failed or cancelled) is sent: the work is over
        #: and only the thread's own ending is left (:attr:`JobSlot.running` is False).
        self.ended = False

    @classmethod
    def in_process(cls, function: Callable, args: tuple = (), kwargs: Optional[dict] = None, *,
                   name: str, prepare: Optional[Callable] = None, parent=None,
                   min_interval: float = 0.1, **options) -> "Job":
        """A job that runs ``function(*args, **kwargs)`` in a child process.

        Parameters
        ----------
        function : callable
            A module-level engine function (the child imports it by name) returning an
            engine generator or a value; it and the arguments must pickle.
        args, kwargs
            Its arguments (copied to the child).
        name : str
            The job's and the child process's name.
        prepare : callable, optional
            Applied to the result in the child (see :func:`engine.runs.runner.run_in_process`).
        **options
            More options of :func:`engine.runs.runner.run_in_process` (``start_method`` ...).
        """
        return cls(lambda: run_in_process(function, args, kwargs, prepare=prepare, name=name,
                                          **options),
                   name=name, parent=parent, min_interval=min_interval)

    def cancel(self) -> None:
        """Ask the work to stop: a child process ends at once, work on the thread at its
        next progress point."""
        self._cancel_requested = True

    @property
    def cancel_requested(self) -> bool:
        return self._cancel_requested

    def run(self) -> None:  # on the worker thread
        try:
            work = self._make_work()
            if not hasattr(work, "__next__"):
                self.ended = True
                self.succeeded.emit(work)
                return
            self._drive(work)
        except JobFailed as exc:          # in a child process: its traceback, then a message
            if exc.child_traceback:
                print(f"in the {self.objectName()} process:\n{exc.child_traceback}",
                      file=sys.stderr, end="")
            if exc.exception is not None:
                self._fail(failure_message(exc.exception), exc.exception)
            else:                         # it died (killed, out of memory) or did not pickle
                self._fail(exc.message if exc.type_name == "ProcessDied"
                           else f"unexpected failure ({exc})", exc)
        except Exception as exc:  # noqa: BLE001 - shown in a dialog, never a crash
            if is_caller_error(exc) or not isinstance(exc, (ValueError, OSError,
                                                              MemoryError)):
                traceback.print_exc(file=sys.stderr)
            self._fail(failure_message(exc), exc)

    def _fail(self, message: str, error: BaseException) -> None:
        """Tell the user's ``message``, and the ``error`` itself to those that decide on
        its code (:func:`engine.foundation.errors.error_code`), never on the message's words."""
        self.ended = True
        self.failed_with.emit(message, error)
        self.failed.emit(message)

    def _drive(self, work) -> None:
        last, pending = 0.0, []
        while True:
            if self._cancel_requested:
                work.close()              # a child process is terminated here
                self.ended = True
                self.cancelled.emit()
                return
            try:
                record = next(work)
            except StopIteration as stop:
                self.ended = True
                self.succeeded.emit(stop.value)
                return
            if isinstance(record, Heartbeat):
                continue                  # nothing new: only a chance to see a cancel
            if record.detail is not None:
                pending.append(record.detail)
            now = time.monotonic()
            if now - last >= self._min_interval or record.done >= record.total:
                last = now
                if pending:
                    self.details.emit(pending)
                    pending = []
                self.progressed.emit(record)


#: Jobs no one waits for any more (:meth:`JobSlot.abandon`), kept alive until their
#: threads end (a QThread must not be destroyed while it runs).
_ABANDONED: set = set()


class JobSlot:
    """Holds at most one running :class:`Job` of a kind and cleans up after it."""

    def __init__(self):
        self.job = None

    def abandon(self) -> None:
        """Stop waiting for the running job, so that another can start: it is asked to
        cancel (work on the thread stops at its next progress point), its signals are
        disconnected (whatever it still finishes is ignored) and it is kept alive until
        its thread ends."""
        job, self.job = self.job, None
        for old in [j for j in _ABANDONED if j.isFinished()]:
            old.wait()
            _ABANDONED.discard(old)
        if job is None or not job.isRunning():
            return
        job.cancel()
        with warnings.catch_warnings():          # PySide warns of signals never connected
            warnings.simplefilter("ignore", RuntimeWarning)
            for signal in (job.progressed, job.details, job.succeeded, job.failed,
                           job.failed_with, job.cancelled):
                try:
                    signal.disconnect()
                except (RuntimeError, TypeError):
                    pass
        _ABANDONED.add(job)

    @property
    def running(self) -> bool:
        """A job is at work: its thread runs and its outcome is not sent yet (a job whose
        outcome was handled is over, even if its thread has not quite ended; :meth:`start`
        waits for that thread)."""
        return self.job is not None and self.job.isRunning() and not self.job.ended

    def start(self, job: Job) -> Job:
        if self.running:
            raise RuntimeError("a job of this kind is already running")
        if self.job is not None:
            self.job.wait()
        self.job = job
        job.start()
        return job

    def cancel(self) -> None:
        if self.running:
            self.job.cancel()

    def wait(self, msecs: int = 30000) -> bool:
        """Cancel and wait for the job's thread (on quit); True when it ended."""
        if self.job is None or not self.job.isRunning():
            return True
        self.job.cancel()
        return self.job.wait(msecs)
