"""Engine work on worker threads: progress, result, error and cancel as Qt signals.

An engine job is a generator yielding :class:`engine.progress.Progress` and returning
its result (see ``engine/progress.py``). :class:`Job` runs one on a ``QThread``;
because the ``Job`` object itself lives in the GUI thread, its signals reach slots of
GUI objects through the event loop (queued), never directly from the worker.
Connect them to bound methods of QObjects (widgets), not to free functions.

Progress is throttled (``min_interval``) so thousands of folds never flood the loop;
the ``detail`` of every record (a fold's scores, for live plots) still arrives, in
batches, through ``details``.
``cancel()`` asks the generator to stop at its next ``yield`` (between folds).
"""
from __future__ import annotations

import sys
import time
import traceback
from typing import Callable

from PySide6.QtCore import QThread, Signal


class Job(QThread):
    """Run ``make_work()`` on a worker thread.

    ``make_work`` returns either an engine generator (progress records, then a result)
    or, for a plain function, any value directly.
    """

    progressed = Signal(object)   # engine.progress.Progress (the latest)
    details = Signal(list)        # the ``detail`` of every record since the last emission
    succeeded = Signal(object)    # the result
    failed = Signal(str)          # a message for the user
    cancelled = Signal()

    def __init__(self, make_work: Callable, name: str = "job", parent=None,
                 min_interval: float = 0.1):
        super().__init__(parent)
        self.setObjectName(name)
        self._make_work = make_work
        self._min_interval = min_interval
        self._cancel_requested = False

    def cancel(self) -> None:
        """Ask the work to stop at its next progress point."""
        self._cancel_requested = True

    @property
    def cancel_requested(self) -> bool:
        return self._cancel_requested

    def run(self) -> None:  # on the worker thread
        try:
            work = self._make_work()
            if not hasattr(work, "__next__"):
                self.succeeded.emit(work)
                return
            self._drive(work)
        except ValueError as exc:
            self.failed.emit(str(exc))
        except OSError as exc:
            self.failed.emit(f"cannot read or write a file: {exc}")
        except MemoryError:
            self.failed.emit("out of memory: try fewer rows, folds or models")
        except Exception as exc:  # noqa: BLE001 - shown in a dialog, never a crash
            traceback.print_exc(file=sys.stderr)
            self.failed.emit(f"unexpected failure ({type(exc).__name__}: {exc})")

    def _drive(self, work) -> None:
        last, pending = 0.0, []
        while True:
            if self._cancel_requested:
                work.close()
                self.cancelled.emit()
                return
            try:
                record = next(work)
            except StopIteration as stop:
                self.succeeded.emit(stop.value)
                return
            if record.detail is not None:
                pending.append(record.detail)
            now = time.monotonic()
            if now - last >= self._min_interval or record.done >= record.total:
                last = now
                if pending:
                    self.details.emit(pending)
                    pending = []
                self.progressed.emit(record)


class JobSlot:
    """Holds at most one running :class:`Job` of a kind and cleans up after it."""

    def __init__(self):
        self.job = None

    @property
    def running(self) -> bool:
        return self.job is not None and self.job.isRunning()

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
        """Cancel and wait for the job (on quit); True when it ended."""
        if not self.running:
            return True
        self.job.cancel()
        return self.job.wait(msecs)
