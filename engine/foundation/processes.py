"""Worker processes that never outlive the runner, and SIGTERM handled like Ctrl-C.

What was measured (Linux, ``--jobs 2``, joblib 1.6 / loky): a runner killed by SIGTERM
or SIGKILL left its two loky workers and loky's resource tracker running, reparented to
init; the workers finished the fits already queued and then waited for more work until
loky's idle timeout (300 s), holding their memory and the runner's stderr pipe (so a
caller reading that pipe waited as long).  Loky workers do not watch their parent.

Three measures, all used by the headless runner (:mod:`engine.cli`):

* :func:`worker_lifeline` makes joblib's loky workers call :func:`tie_to_parent` when
  they start (it registers a loky backend with that initializer as ``"loky"``): on Linux the kernel kills the worker (``PR_SET_PDEATHSIG``, SIGKILL) the
  moment the thread that started it ends -- the runner's main thread, so the runner --
  whatever the worker is doing, even inside a long C loop; elsewhere (and as a second
  line on Linux) a daemon thread polls ``os.getppid()`` twice a second and exits when
  the parent has gone.  With the workers gone, loky's resource tracker sees its pipe
  close and exits too (it deletes joblib's memory-mapped temporary files).
* :func:`terminate_like_interrupt` turns SIGTERM (and SIGHUP) into :class:`Terminated`,
  a ``KeyboardInterrupt``, so the runner stops exactly as on Ctrl-C: joblib's generator is
  closed (which kills the workers), nothing half-written stays, exit ``128 + signal``.
* :func:`end_workers` shuts loky's reusable executor down, killing its workers, when the
  runner is done (instead of leaving them to the interpreter's exit).

A group-leader approach (``os.setpgid`` and a kill of the group) was not used: it takes
the runner out of the terminal's foreground group, so Ctrl-C no longer reaches it, and a
SIGKILL of the runner alone still leaves the group alive.
"""
from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading

#: Seconds between two checks of the parent by a worker's watchdog thread.
WATCH_INTERVAL = 0.5
_PR_SET_PDEATHSIG = 1


class Terminated(KeyboardInterrupt):
    """The process was asked to stop by a signal other than SIGINT (``signum``)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        return 128 + self.signum


@contextlib.contextmanager
def terminate_like_interrupt(signals=("SIGTERM", "SIGHUP")):
    """Within the block, the named signals raise :class:`Terminated` in the main thread.

    A signal whose handler is not the default (ignored under ``nohup``, or set by the
    embedding program) is left alone, and so is everything outside the main thread.
    After the first such signal the others are ignored, so the clean-up that follows
    (closing workers, removing what was staged) is not cut short.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    for name in signals:
        number = getattr(signal, name, None)  # getattr: signal: POSIX names
        if number is not None and signal.getsignal(number) == signal.SIG_DFL:
            previous[number] = signal.signal(number, _raise_terminated)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _raise_terminated(signum, frame):
    for number in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):  # getattr: signal: POSIX only
        if number is not None:
            signal.signal(number, signal.SIG_IGN)
    raise Terminated(signum)


@contextlib.contextmanager
def worker_lifeline():
    """Within the block, joblib's loky workers die with this process (see the module).

    joblib's ``"loky"`` backend is replaced by one whose workers first call
    :func:`tie_to_parent`; nothing else changes (an explicit ``parallel_config`` would
    also turn the threads that scikit-learn asks for, ``prefer="threads"``, into
    processes).  Use it around code that starts workers from a thread that lives as long
    as the workers are wanted (a process's main thread): on Linux a worker is killed when
    the thread that started it ends.  Elsewhere than the main thread only the polling
    watchdog is installed.
    """
    try:
        from joblib import register_parallel_backend
        from joblib._parallel_backends import LokyBackend
    except ImportError:  # pragma: no cover - joblib comes with scikit-learn
        yield
        return
    main = threading.current_thread() is threading.main_thread()
    initargs = (os.getpid(), main)

    class TiedLokyBackend(LokyBackend):
        def __init__(self, *args, **kwargs):
            kwargs.setdefault("initializer", tie_to_parent)
            kwargs.setdefault("initargs", initargs)
            super().__init__(*args, **kwargs)

    register_parallel_backend("loky", TiedLokyBackend)
    try:
        yield
    finally:
        register_parallel_backend("loky", LokyBackend)


def tie_to_parent(parent_pid: int, death_signal: bool = True) -> None:
    """In a worker process: end this process when ``parent_pid`` (its parent) ends.

    Parameters
    ----------
    parent_pid : int
        The process that started this one.
    death_signal : bool
        On Linux, also ask the kernel for SIGKILL when the parent's starting thread ends.
    """
    if death_signal and sys.platform.startswith("linux"):
        _set_parent_death_signal(signal.SIGKILL)
    if os.getppid() != parent_pid:  # the parent died before the signal was asked for
        os._exit(1)
    watchdog = threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True,
                                name="parent-watchdog")
    watchdog.start()


def tie_to_process(pid: int) -> None:
    """In a helper process: end this process when process ``pid`` ends.

    For a process that is not ``pid``'s child -- one started through a fork server,
    whose parent is the server.  (The server itself outlives the process that started
    it as long as any process it forked is alive: each one inherits the server's
    "alive" pipe, so watching the parent is not enough.)  A watchdog thread waits on a
    Linux pidfd (no risk from a reused process id), on Windows on a process handle,
    elsewhere polls the process.

    Parameters
    ----------
    pid : int
        The process to live no longer than.
    """
    if sys.platform == "win32":        # there os.kill(pid, 0) would end the process
        _tie_to_windows_process(pid)
        return
    try:
        handle = os.pidfd_open(pid)
    except (AttributeError, OSError):
        handle = None
    if handle is None and not _exists(pid):
        os._exit(1)
    watchdog = threading.Thread(target=_watch_process, args=(pid, handle), daemon=True,
                                name="process-watchdog")
    watchdog.start()


def _tie_to_windows_process(pid: int) -> None:
    """Windows: a watchdog thread waits on a handle of the process (no polling, and no
    risk from a reused process id once the handle is open)."""
    import _winapi

    synchronize = 0x00100000           # the right to wait on the process
    try:
        # typeshed declares OpenProcess on Windows only, and mypy checks as on Linux
        handle = _winapi.OpenProcess(synchronize, False, pid)  # type: ignore[attr-defined]
    except OSError:                    # already gone
        os._exit(1)

    def watch():
        _winapi.WaitForSingleObject(handle, _winapi.INFINITE)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="process-watchdog").start()


def _watch_process(pid: int, handle) -> None:
    if handle is not None:
        import select

        poller = select.poll()
        poller.register(handle, select.POLLIN)
        while not poller.poll():
            pass
        os._exit(1)
    event = threading.Event()
    while _exists(pid):
        event.wait(WATCH_INTERVAL)
    os._exit(1)


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:          # exists, but belongs to someone else
        return True
    return is_running(pid) if sys.platform.startswith("linux") else True


def _set_parent_death_signal(signum: int) -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, int(signum), 0, 0, 0) == 0
    except (OSError, AttributeError):  # pragma: no cover - not glibc/musl
        return False


def _watch_parent(parent_pid: int) -> None:
    event = threading.Event()
    while os.getppid() == parent_pid:
        event.wait(WATCH_INTERVAL)
    os._exit(1)


def end_workers() -> None:
    """Shut down loky's reusable executor, if one was started, killing its workers and
    deleting joblib's shared-memory folders (which otherwise wait for the interpreter's
    exit handlers -- never run in a ``multiprocessing`` child)."""
    module = sys.modules.get("joblib.externals.loky.reusable_executor")
    # getattr: joblib's module
    executor = getattr(module, "_executor", None) if module is not None else None
    if executor is None:
        return
    with contextlib.suppress(Exception):
        stop = getattr(executor, "terminate", None)   # joblib's executor: also the folders
        if stop is not None:
            stop(kill_workers=True)
        else:
            executor.shutdown(wait=True, kill_workers=True)


def descendants(pid: int) -> list:
    """The living descendants of ``pid`` (Linux ``/proc``; empty elsewhere), for tests and
    diagnostics."""
    found, todo = [], [pid]
    while todo:
        for child in _children(todo.pop()):
            if child not in found:
                found.append(child)
                todo.append(child)
    return found


def _children(pid: int) -> list:
    children: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), \
                    open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as stream:
                children.extend(int(word) for word in stream.read().split())
    return children


def is_running(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie (Linux ``/proc``)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stream:
            state = stream.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")
