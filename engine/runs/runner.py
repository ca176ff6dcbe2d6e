"""Long engine work in a child process, driven like an engine generator.

:func:`run_in_process` runs an engine job -- a picklable module-level function that
returns an engine generator (yielding :class:`engine.foundation.progress.Progress` records and
returning a result) or a plain value -- in a child process, and is itself such a
generator: the records stream back as the child yields them and its return value is the
job's result.  A caller therefore drives it exactly like the job itself (``for`` /
``next``, :func:`engine.foundation.progress.run_to_end`), while the work never competes with the
caller's threads for the GIL and can be stopped at once.

What the child does
-------------------
* It runs at a lower priority (``os.nice``) and caps the BLAS / OpenMP threads of the
  fits at one core less than the machine has, so the calling program (a window) stays
  responsive on a busy machine.
* It ends when the calling process ends, even a killed one
  (:func:`engine.foundation.processes.tie_to_process`: a forkserver child's parent is the server,
  which outlives the caller while any of its children lives, so watching the parent is
  not enough).
* It is **not daemonic**: loky starts no workers in a daemonic process, so ``n_jobs``
  would silently be 1.  Joblib's loky workers it starts die with it
  (:func:`engine.foundation.processes.worker_lifeline`) and are shut down, with their
  shared-memory folders, when the job ends (:func:`engine.foundation.processes.end_workers`).
* An optional ``prepare`` hook (a picklable callable, e.g. :class:`Precompute`) is
  applied to the result before it is pickled back, so that what the caller would
  otherwise compute from it (cached properties) is computed off the caller's threads.
* A ``ValueError`` (the engine's way of saying "this input cannot be used", with a
  message for the user) is raised again in the caller as a ``ValueError`` with the same
  message -- an :class:`engine.foundation.errors.EngineError` with the same code and fields when it
  was one, so that the caller decides on the code, never on the wording; any other
  exception, or a child that dies, as :class:`JobFailed` (its ``code``: the exception's
  code when it had one, ``"process_died"`` for a child that died, else "").

Cancelling
----------
Closing the generator (``close()``, or dropping it) ends the child immediately: it is
terminated, not asked to stop at its next progress point, so a long fit or a long C loop
in a library does not delay it.  While it waits for the child, the generator yields a
:class:`Heartbeat` every ``heartbeat`` seconds, so that a consumer that only acts between
records (a worker thread checking a cancel flag) sees a request quickly.

Start methods
-------------
``forkserver`` on Linux (a warm server forks each child in milliseconds, with the engine
already imported; ``fork`` is not used: forking a multithreaded program -- a Qt window --
is unsafe), ``spawn`` elsewhere (Windows and macOS have no forkserver, or none that is
reliable; the child starts a fresh interpreter and imports what the job needs).  Both
re-import the calling program's main module in the child as ``__mp_main__``: it must
guard its start-up code with ``if __name__ == "__main__":``.  The forkserver preloads
engine modules only (:data:`PRELOAD`), never a GUI toolkit.
"""
from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import os
import sys
import traceback
from dataclasses import dataclass
from multiprocessing.connection import wait as wait_for_any
from typing import Callable, Generator, Optional

from engine.foundation.caller_errors import CALLER_CODES, CallerError
from engine.foundation.errors import CODES, EngineError, error_code, error_fields
from engine.foundation.processes import end_workers, tie_to_process, worker_lifeline
from engine.foundation.progress import Progress

#: Seconds between two :class:`Heartbeat` records while the child is quiet.
HEARTBEAT = 0.02
#: Niceness added to the child's priority (where ``os.nice`` exists).
NICE = 4
#: Seconds a child that sent its result may take to end by itself before it is terminated.
JOIN_SECONDS = 5.0
#: Modules the forkserver imports once, so that each child starts with them loaded (the
#: engine's jobs, and what :func:`engine.foundation.processes.worker_lifeline` needs: joblib's loky
#: backend alone takes 0.1 s or more to import).  Engine modules only, never a toolkit.
PRELOAD = ("engine.runs.analysis", "engine.evaluation.aloocv", "engine.evaluation.calibration",
           "engine.runs.runner", "engine.run_service", "engine.foundation.processes",
           "joblib._parallel_backends", "threadpoolctl")
#: Modules that load the thread pools the child caps: NumPy's and SciPy's OpenBLAS,
#: scikit-learn's OpenMP.
THREAD_POOL_MODULES = ("numpy", "scipy.linalg", "sklearn.utils._openmp_helpers")


@dataclass(frozen=True)
class Heartbeat(Progress):
    """Yielded by :func:`run_in_process` while the child is quiet: the last record's
    numbers again, without its ``detail`` (before the first record: ``0`` of ``0``,
    labelled ``"starting"``).  It reports nothing new; a consumer that shows progress
    may skip it."""


class JobFailed(RuntimeError):
    """The job in the child process raised something other than a ``ValueError``, or the
    child ended without a result.

    Attributes
    ----------
    type_name : str
        The exception's class name (``"MemoryError"``), or ``"ProcessDied"``.
    exception : BaseException or None
        The child's exception itself when it could be pickled back.
    child_traceback : str
        The traceback as the child printed it ("" when the child died).
    code : str
        The exception's code (:func:`engine.foundation.errors.error_code`) when it had one,
        ``"process_died"`` for a child that died, else "".
    """

    def __init__(self, type_name: str, message: str, exception: Optional[BaseException] = None,
                 child_traceback: str = "", code: str = ""):
        super().__init__(f"{type_name}: {message}" if message else type_name)
        self.type_name = type_name
        self.message = message
        self.exception = exception
        self.child_traceback = child_traceback
        self.code = code


class Precompute:
    """A ``prepare`` hook: evaluate attributes of the result in the child, so that their
    cached values travel with it.

    Parameters
    ----------
    *names : str
        Attribute paths, dotted (``"cv.score_matrix"``); an attribute that is callable is
        called without arguments (a method that caches what it computes).

    Examples
    --------
    >>> prepare = Precompute("notes", "cv.score_matrix")   # doctest: +SKIP
    """

    def __init__(self, *names: str):
        self.names = tuple(names)

    def __call__(self, result):
        for name in self.names:
            value = result
            for part in name.split("."):
                value = getattr(value, part)
            if callable(value):
                value()
        return result

    def __repr__(self) -> str:
        return f"Precompute{self.names!r}"


def default_start_method() -> str:
    """``"forkserver"`` on Linux where it is available, ``"spawn"`` elsewhere."""
    if sys.platform.startswith("linux") and "forkserver" in multiprocessing.get_all_start_methods():
        return "forkserver"
    return "spawn"


def process_context(start_method: Optional[str] = None, preload=PRELOAD):
    """The ``multiprocessing`` context that :func:`run_in_process` starts children with.

    Parameters
    ----------
    start_method : {"forkserver", "spawn"}, optional
        Default: :func:`default_start_method`.
    preload : sequence of str
        For the forkserver: modules it imports when it starts (it starts once per calling
        process, with the list given at that time).

    Returns
    -------
    multiprocessing.context.BaseContext
    """
    method = start_method or default_start_method()
    if method == "fork":
        # internal: a caller's mistake (the start method is the engine's own choice)
        raise CallerError("argument_choice",
                          "the fork start method is unsafe in a multithreaded program; "
                          "use forkserver or spawn")
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(list(preload))
    return context


def warm_up(start_method: Optional[str] = None) -> None:
    """Start the forkserver now, so that the first job does not wait for it.

    The server imports :data:`PRELOAD` in the background (seconds: scikit-learn, SciPy);
    this returns at once.  Nothing to do for ``spawn``.  Best effort: a server that
    cannot start raises when a job is started, not here.
    """
    context = process_context(start_method)
    if context.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        with contextlib.suppress(Exception):
            forkserver.ensure_running()


def run_in_process(function: Callable, args: tuple = (), kwargs: Optional[dict] = None, *,
                   prepare: Optional[Callable] = None, start_method: Optional[str] = None,
                   heartbeat: Optional[float] = HEARTBEAT, name: Optional[str] = None,
                   owner_pid: Optional[int] = None, nice: int = NICE,
                   threads: Optional[int] = None,
                   join_seconds: float = JOIN_SECONDS) -> Generator[Progress, None, object]:
    """Run ``function(*args, **kwargs)`` in a child process; a generator like the job.

    Nothing starts before the first ``next()``.

    Parameters
    ----------
    function : callable
        A module-level function (pickled by reference: the child imports its module)
        returning an engine generator or a plain value.
    args : tuple
        Positional arguments; pickled to the child.
    kwargs : dict, optional
        Keyword arguments; pickled to the child.
    prepare : callable, optional
        A picklable callable applied in the child to the result before it is sent back
        (for example :class:`Precompute`); it returns what is sent.
    start_method : {"forkserver", "spawn"}, optional
        Default: :func:`default_start_method`.
    heartbeat : float or None
        Seconds between two :class:`Heartbeat` records while the child is quiet; None
        yields none (the generator then blocks until the next record).
    name : str, optional
        The child's process name, also used in messages (default: the function's name).
    owner_pid : int, optional
        The process the child must not outlive (default: this one).
    nice : int
        Added to the child's niceness (0: the same priority as this process).
    threads : int, optional
        Cap on the BLAS / OpenMP threads of the child (default: the cores less one, at
        least one).

    Yields
    ------
    Progress
        The job's records, as the child yields them, and :class:`Heartbeat` records.

    Returns
    -------
    object
        The job's result (after ``prepare``).

    Raises
    ------
    ValueError
        The job raised a ``ValueError``: its message, for the user.
    JobFailed
        The job raised anything else, or the child ended without a result.
    """
    context = process_context(start_method)
    # getattr: any callable (a partial has none)
    name = name or str(getattr(function, "__name__", "job"))
    reader, writer = context.Pipe(duplex=False)
    settings = {"owner_pid": os.getpid() if owner_pid is None else owner_pid, "nice": nice,
                "threads": threads}
    # not daemonic: loky starts no workers in a daemonic process (n_jobs would be 1)
    child = context.Process(target=_child_main, name=name, daemon=False,
                            args=(function, tuple(args), dict(kwargs or {}), prepare, writer,
                                  settings))
    finished = started = False
    try:
        child.start()
        started = True
        writer.close()                 # the child holds the only writing end: EOF = its end
        last = None
        while True:
            ready = wait_for_any([reader, child.sentinel], heartbeat)
            if not ready:
                yield (Heartbeat(last.done, last.total, last.label, last.elapsed)
                       if last is not None else Heartbeat(0, 0, "starting"))
                continue
            if reader not in ready and not reader.poll(0):
                raise _died(child, name)
            try:
                kind, payload = reader.recv()
            except (EOFError, OSError):
                raise _died(child, name) from None
            if kind == "progress":
                last = payload
                yield payload
            elif kind == "done":
                finished = True
                return payload
            elif kind == "value_error":
                finished = True
                raise _value_error(*payload)
            else:
                finished = True
                raise JobFailed(*payload)
    finally:
        writer.close()
        if started:
            _stop(child, join_seconds if finished else 0.0)
        reader.close()


def _value_error(message: str, code: str, fields: dict) -> ValueError:
    """The child's ``ValueError`` again: an :class:`~engine.foundation.errors.EngineError` or a
    :class:`~engine.foundation.caller_errors.CallerError` (a bug) with its code and fields,
    else a plain ``ValueError`` with its message (a foreign library's)."""
    if code in CALLER_CODES:
        return CallerError(code, message, fields)
    return EngineError(code, fields, message) if code in CODES else ValueError(message)


def _died(child, name: str) -> JobFailed:
    child.join(1.0)
    return JobFailed("ProcessDied", f"the {name} process ended unexpectedly "
                     f"(exit code {child.exitcode})", code="process_died")


def _stop(child, grace: float) -> None:
    """End the child: let one that finished end by itself within ``grace`` seconds, then
    terminate it (at once for a cancelled one); kill it if even that does not work."""
    if grace > 0:
        child.join(grace)
    if child.is_alive():
        child.terminate()
        child.join(5.0)
    if child.is_alive():               # pragma: no cover - SIGTERM blocked
        child.kill()
        child.join(5.0)


# ---------------------------------------------------------------------- in the child
def _child_main(function, args, kwargs, prepare, channel, settings) -> None:
    """In the child: set the process up, run the job, send its records and result."""
    try:
        try:
            _settle(settings)
            result = _run_job(function, args, kwargs, channel)
            if prepare is not None:
                result = prepare(result)
            channel.send(("done", result))
        except ValueError as exc:        # for the user: its message, code and fields
            channel.send(("value_error", (str(exc), error_code(exc),
                                          dict(error_fields(exc)))))
        except BaseException as exc:  # noqa: BLE001 - reported to the caller
            channel.send(("failed", _failure(exc)))
    except (OSError, EOFError):        # the caller has gone: nobody to tell
        pass
    finally:
        channel.close()


def _settle(settings: dict) -> None:
    """Lower priority, fewer BLAS threads, and an end with the owner's process."""
    tie_to_process(settings["owner_pid"])   # ends with the owner, even a killed one
    if settings["nice"] and hasattr(os, "nice"):
        os.nice(settings["nice"])
    threads = settings["threads"] or max(1, (os.cpu_count() or 2) - 1)
    # the cap applies to the libraries loaded now: load the engine's BLAS and OpenMP first
    # (a spawned child has not imported them yet; a forkserver child has)
    for module in THREAD_POOL_MODULES:
        with contextlib.suppress(ImportError):
            importlib.import_module(module)
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - comes with scikit-learn
        return
    threadpool_limits(threads)          # leave a core to the owner (a window)


def _run_job(function, args, kwargs, channel):
    with worker_lifeline():             # loky workers die with this process, even if killed
        try:
            work = function(*args, **kwargs)
            if not hasattr(work, "__next__"):
                return work
            while True:
                try:
                    record = next(work)
                except StopIteration as stop:
                    return stop.value
                channel.send(("progress", record))
        finally:
            end_workers()               # and their shared-memory folders go with them


def _failure(exc: BaseException) -> tuple:
    """``JobFailed`` arguments for ``exc``: the exception itself only if it pickles."""
    import pickle

    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    try:
        pickle.loads(pickle.dumps(exc))
        sent = exc
    except Exception:  # noqa: BLE001 - any pickling problem: send the words only
        sent = None
    if sent is not None:
        sent.__traceback__ = None
        sent.__context__ = sent.__cause__ = None
    return (type(exc).__name__, str(exc), sent, text, error_code(exc))
