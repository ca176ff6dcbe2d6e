"""Running the fits on a Dask cluster (the optional ``[cluster]`` extra).

A run names its cluster with a :class:`ClusterSpec` (``"local:N"``: a
``distributed.LocalCluster`` of N one-thread worker processes started for the run and
closed after it; ``"tcp://HOST:PORT"``: an existing Dask scheduler).
:func:`open_cluster` connects (checking that every worker runs the client's
scikit-learn, since the numbers would differ otherwise) and yields a :class:`Cluster`,
which :func:`engine.evaluation.parallel.run_calls` uses in place of joblib's workers.

How the calls travel: Dask futures directly, not joblib's Dask backend. The arguments
several calls share (the data ``X`` and ``y``, each split's rows, each estimator) are
sent to the cluster once, in one bundle (``client.scatter``; a call names them by position,
:class:`engine.evaluation.batches.Shared`), and each worker fetches the bundle once, for its
first task, and keeps it for the others. (A broadcast at the scatter was no faster on 2
workers, and in one of about 20 test runs a worker then held two copies.)
The calls go in tasks of several calls each, sized from the calls' CPU times measured so
far to about :data:`engine.evaluation.batches.TARGET_SECONDS` of work (a task costs the
client, scheduler and worker 10-20 ms of CPU, which hundreds of small fits would add up),
a few tasks per worker submitted at a time. Results come back through
``distributed.as_completed`` (every task done gathered at once) and are yielded one call
at a time, so progress is per fit; a cancel (closing the generator) cancels the queued
tasks with one ``client.cancel`` and submits no more; the results of tasks still running
are discarded. A local cluster runs with :data:`LOCAL_CONFIG`, its workers forked from a
process that imported :data:`PRELOAD` once (:func:`forked_workers`).

Every worker must be able to import this project's ``engine`` package, at the client's
version, with the client's scikit-learn: install the same honest-eval (with the same
scikit-learn) on every worker machine.
"""
from __future__ import annotations

import contextlib
import logging
import re
import threading
from dataclasses import dataclass
from typing import Callable, Generator, Iterator, Optional, Sequence

from engine.evaluation.batches import Batches, Shared, run_batch
from engine.evaluation.scheduler_greeting import check_greeting, unreachable
from engine.foundation.errors import EngineError

#: Seconds to wait for a scheduler (``tcp://``) before giving up.
CONNECT_SECONDS = 10.0
#: What to install for the cluster backend.
INSTALL = 'pip install "honest-eval[cluster]"'
_ADDRESS = re.compile(r"^tcp://[^\s/:]+:\d{1,5}$")
#: Arguments of these types are sent with each call; any other argument object that
#: several calls share is sent to the workers once.
_PLAIN = (str, bytes, int, float, bool, type(None))
#: Tasks queued per worker: one running, one waiting, so a worker never idles on a reply.
IN_FLIGHT = 2
#: Where a LocalCluster's scheduler serves HTTP: this computer only, any free port.
_HTTP = "127.0.0.1:0"
#: Dask settings of a LocalCluster this program starts: no statistical profiler in the
#: workers (it samples the fitting thread's stack every 10 ms), event-loop checks and
#: system monitoring (psutil) less often, and no work stealing (the client keeps only
#: :data:`IN_FLIGHT` tasks per worker). Measured on 2 cores: idle workers' CPU 0.06 -> 0.014
#: cores, the client's 0.04 -> 0.016, cores the fits would otherwise share
#: (tests/benchmarks/bench_cluster.py).
LOCAL_CONFIG = {"distributed.worker.profile.enabled": False,
                "distributed.admin.tick.interval": "500ms",
                "distributed.admin.system-monitor.interval": "5s",
                "distributed.scheduler.work-stealing": False}
#: What a LocalCluster's worker processes start with: they are forked from one process
#: (multiprocessing's forkserver) that imported these once, instead of each starting a new
#: interpreter and importing them itself. Measured on 2 busy cores (load 11): start and
#: engine check 16.3-17.0 s -> 8.9-10.1 s, close 3.7-4.2 s -> 0.1-0.15 s (a forked worker
#: exits without tearing its modules down) (tests/benchmarks/bench_cluster.py).
PRELOAD = ("distributed", "engine.evaluation.cv")
#: The forkserver a LocalCluster of this process started (its workers' environment).
OUR_FORKSERVER: dict = {"pid": None}


@dataclass(frozen=True)
class ClusterSpec:
    """Where a run's fits go: ``n_workers`` local worker processes, or ``address``.

    Attributes
    ----------
    address : str or None
        A Dask scheduler, ``"tcp://HOST:PORT"`` (``tls://`` is refused: see
        :meth:`parse`).
    n_workers : int or None
        A ``LocalCluster`` of this many one-thread worker processes (``"local:N"``).
    timeout : float
        Seconds to wait for the scheduler.
    """

    address: Optional[str] = None
    n_workers: Optional[int] = None
    timeout: float = CONNECT_SECONDS

    @classmethod
    def parse(cls, text: str, timeout: Optional[float] = None) -> "ClusterSpec":
        """``"local:N"`` or ``"tcp://HOST:PORT"``; a ValueError says what is accepted.
        ``timeout`` defaults to :data:`CONNECT_SECONDS`.

        ``tls://`` is refused: a TLS connection needs certificates and keys, for which this
        program has no settings (Dask's client would fail later with a TypeError)."""
        text, timeout = str(text).strip(), CONNECT_SECONDS if timeout is None else timeout
        if text.lower().startswith("tls://"):
            raise EngineError("cluster_tls", {"cluster": text},
                              f"the cluster {text!r} asks for TLS, which this program does not "
                              "support (it has no settings for certificates): give "
                              "tcp://HOST:PORT on a network you trust, or reach the scheduler "
                              "through an SSH tunnel (ssh -L 8786:localhost:8786 HOST, then "
                              "tcp://localhost:8786)")
        local = re.fullmatch(r"local:(\d+)", text)
        if local and int(local.group(1)) >= 1:
            return cls(n_workers=int(local.group(1)), timeout=timeout)
        if _ADDRESS.match(text):
            return cls(address=text, timeout=timeout)
        raise EngineError("cluster_address", {"cluster": text},
                          f"the cluster {text!r} is not one this program can use: give "
                          "local:N (N worker processes on this computer, e.g. local:4) or a "
                          "Dask scheduler's address, tcp://HOST:PORT (e.g. "
                          "tcp://192.168.1.20:8786)")

    def __str__(self) -> str:
        return self.address or f"local:{self.n_workers}"


def import_distributed():
    """The ``distributed`` module, or a ValueError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise EngineError("distributed_missing", {"install": INSTALL},
                          "running on a Dask cluster needs Dask's distributed scheduler, "
                          f"which is not installed here: install it with {INSTALL}") from None
    return distributed


class Cluster:
    """An open connection to a cluster: the ``client`` and the ``LocalCluster`` it
    started (None for a scheduler address). Made by :func:`open_cluster`."""

    def __init__(self, spec: ClusterSpec, client, local=None):
        self.spec, self.client, self.local = spec, client, local

    def run_calls(self, func: Callable, calls: Sequence[tuple]) -> Generator:
        """``func(*args)`` for every ``args`` of ``calls`` on the workers; yields
        ``(index, result)`` as each finishes. Closing the generator cancels every call
        not yet returned (see :func:`engine.evaluation.parallel.run_calls`).

        The calls go in tasks of several calls each (:class:`engine.evaluation.batches.Batches`,
        sized from the times measured so far), :data:`IN_FLIGHT` tasks per worker at a
        time; the shared arguments go once to each worker, in one bundle
        (:func:`send_shared`)."""
        if not calls:
            return
        distributed = import_distributed()
        client = self.client
        bundle, finished = None, None
        pending: dict = {}                          # the tasks not yet returned
        try:
            bundle, sent = send_shared(client, calls)
            workers = self.workers()
            batches = Batches([id(args[0]) if args else None for args in calls], workers)
            finished = distributed.as_completed(loop=client.loop, with_results=True)

            def submit():
                while batches.left and len(pending) < IN_FLIGHT * workers:
                    indices = batches.take()
                    future = client.submit(run_batch, func, indices, [sent[i] for i in indices],
                                           bundle, pure=False, retries=0)
                    pending[future.key] = future
                    finished.add(future)

            submit()
            for returned in finished.batches():     # the results of every task done, at once
                done = []
                for future, results in returned:
                    del pending[future.key]     # its results are no longer kept on a worker
                    done.extend(results)
                for index, seconds, _ in done:
                    batches.record(index, seconds)
                submit()                        # the workers stay busy while we yield
                for index, _, result in done:
                    yield index, result
        finally:
            if finished is not None:
                finished.clear()
            with contextlib.suppress(Exception):      # a closed client has nothing left
                client.cancel([*pending.values(), *([] if bundle is None else [bundle])],
                              force=True)

    def workers(self) -> int:
        """The worker threads of the cluster (at least 1)."""
        with contextlib.suppress(Exception):
            return max(1, sum(self.client.nthreads().values()))
        return 1

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.close()
        if self.local is not None:
            with contextlib.suppress(Exception):
                self.local.close()


def send_shared(client, calls: Sequence[tuple]) -> tuple:
    """Send the calls' shared arguments (:func:`shared_arguments`) to the cluster as one
    object (each worker fetches it once, for its first task); return its future and the
    calls with each shared argument replaced by its
    :class:`engine.evaluation.batches.Shared` position in it."""
    shared = shared_arguments(calls)
    position = {key: Shared(n) for n, key in enumerate(shared)}
    bundle = client.scatter([list(shared.values())], hash=False)[0]
    return bundle, [tuple(position.get(id(a), a) for a in args) for args in calls]


def shared_arguments(calls: Sequence[tuple]) -> dict:
    """``{id: object}`` of the arguments to scatter: every object (not a plain string or
    number) that two or more calls share, and every array or table even in one call."""
    seen, shared = {}, {}
    for args in calls:
        for arg in args:
            if isinstance(arg, _PLAIN):
                continue
            key = id(arg)
            if key in seen or hasattr(arg, "shape"):
                shared[key] = arg
            seen[key] = arg
    return shared


@contextlib.contextmanager
def open_cluster(spec: ClusterSpec) -> Iterator[Cluster]:
    """Connect to ``spec``'s cluster (starting a ``LocalCluster`` for ``local:N``), check
    its workers, and close what was opened on exit.

    Raises
    ------
    ValueError
        ``distributed`` is not installed; the scheduler cannot be reached within
        ``spec.timeout`` seconds; what answers is not a Dask scheduler
        (:func:`engine.evaluation.scheduler_greeting.check_greeting`); it has no workers;
        or a worker cannot import the engine
        or runs another scikit-learn than this computer.
    """
    import_distributed()
    cluster = _connect(spec)
    try:
        check_workers(cluster.client, str(spec))
        yield cluster
    finally:
        cluster.close()


def _connect(spec: ClusterSpec) -> Cluster:
    import dask
    from distributed import Client, LocalCluster   # first: it adds Dask's "distributed" keys

    if spec.address is None:
        # silent: a closing worker's lost connections are noise on the terminal (the fits'
        # own errors come back as results); the scheduler's HTTP server (health routes,
        # no dashboard) on a free local port: on Dask's 8787, taken by another cluster, it
        # warned on the terminal
        forked = forked_workers()
        with dask.config.set({**LOCAL_CONFIG, **forked}):   # read as they start
            local = LocalCluster(n_workers=spec.n_workers, threads_per_worker=1,
                                 processes=True, dashboard_address=None,
                                 silence_logs=logging.CRITICAL,
                                 scheduler_kwargs={"dashboard_address": _HTTP})
        if forked:
            OUR_FORKSERVER["pid"] = forkserver_pid()
        try:
            return Cluster(spec, Client(local, set_as_default=False), local)
        except BaseException:
            local.close()
            raise
    check_greeting(spec.address, spec.timeout)      # before Dask reads a length from it
    try:
        client = Client(spec.address, timeout=spec.timeout, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise EngineError("cluster_unreachable",
                          {"address": spec.address, "timeout": spec.timeout,
                           "why": type(exc).__name__},
                          unreachable(spec.address, spec.timeout, type(exc).__name__)) from None
    return Cluster(spec, client)


def forked_workers() -> dict:
    """The Dask setting that forks a LocalCluster's workers from a process that imported
    :data:`PRELOAD` (multiprocessing's forkserver, started with the first worker, after the
    nanny has set the workers' environment: one thread per BLAS); ``{}`` where there is no
    forkserver (Windows), whose workers start as new interpreters.

    The forkserver stays for the life of this process (one per process, for every later
    LocalCluster too) and exits with it; a worker exits when its nanny's pipe closes.
    ``{}`` too when this process already runs a forkserver (e.g. the run service's,
    :mod:`engine.runs.runner`): it was started without the workers' environment (one BLAS
    thread each) and the workers would inherit its."""
    import multiprocessing

    import dask
    from distributed.utils import get_mp_context

    if ("forkserver" not in multiprocessing.get_all_start_methods()
            or forkserver_pid() not in (None, OUR_FORKSERVER["pid"])):
        return {}
    setting = {"distributed.worker.multiprocessing-method": "forkserver"}
    with dask.config.set(setting):
        get_mp_context().set_forkserver_preload(list(PRELOAD))   # before it starts
    return setting


def forkserver_pid():
    """The process id of this process's forkserver, None when none runs."""
    from multiprocessing import forkserver

    # getattr: multiprocessing's own forkserver record (private, absent on some systems)
    return getattr(getattr(forkserver, "_forkserver", None), "_forkserver_pid", None)


def check_workers(client, where: str) -> None:
    """Raise a ValueError unless ``client``'s cluster has a worker and every worker
    imports the engine with this computer's scikit-learn."""
    import sklearn

    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except (TimeoutError, OSError):
        raise EngineError("cluster_no_workers", {"address": where},
                          f"the Dask scheduler at {where} has no workers: start some with "
                          f"dask worker {where}") from None
    try:
        versions = client.run(worker_versions)
    except ImportError as exc:
        raise EngineError("cluster_worker_import", {"address": where, "detail": str(exc)},
                          f"a worker of {where} cannot import this program's engine "
                          f"({exc}): install the same honest-eval on every worker") from None
    other = {addr: v for addr, v in versions.items() if v != sklearn.__version__}
    if other:
        listed = ", ".join(f"{addr} has {v}" for addr, v in sorted(other.items()))
        raise EngineError("cluster_versions",
                          {"address": where, "version": sklearn.__version__,
                           "workers": dict(sorted(other.items()))},
                          f"the workers of {where} must run this computer's scikit-learn "
                          f"{sklearn.__version__}, or the numbers would differ: {listed}; "
                          "install the same versions on every worker")


def check_cluster(text: str) -> None:
    """Connect to the cluster ``text`` names and check it (:func:`open_cluster`), then
    disconnect; a ValueError says what is wrong (the GUI's run check)."""
    with open_cluster(ClusterSpec.parse(text)):
        pass


def worker_versions() -> str:
    """The scikit-learn version of the process (run on each worker), after importing the
    engine's fitting code, so that a worker's imports are done before its first task."""
    import sklearn

    import engine.evaluation.cv  # noqa: F401 - the imports of every fit

    return sklearn.__version__


class Opening:
    """:func:`open_cluster` of ``spec`` in a thread, so that a LocalCluster's workers start
    (and import the engine) while this process reads and checks the data;
    :meth:`result` waits for it. Made by :func:`opening_cluster`."""

    def __init__(self, spec: ClusterSpec):
        self._stack = contextlib.ExitStack()
        self._cluster: Optional[Cluster] = None
        self._error: Optional[BaseException] = None
        self._thread = threading.Thread(target=self._open, args=(spec,), daemon=True,
                                        name="open-cluster")
        self._thread.start()

    def _open(self, spec: ClusterSpec) -> None:
        try:
            self._cluster = self._stack.enter_context(open_cluster(spec))
        except BaseException as exc:  # noqa: BLE001 - raised in the caller by result()
            self._error = exc

    def result(self) -> Cluster:
        """The open cluster, once it is; the error of :func:`open_cluster` if it failed."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._cluster is not None
        return self._cluster

    def close(self) -> None:
        """Wait for the opening to end, then close what it opened."""
        self._thread.join()
        self._stack.close()


@contextlib.contextmanager
def opening_cluster(spec: ClusterSpec) -> Iterator[Opening]:
    """Start opening ``spec``'s cluster in a thread (:class:`Opening`); on exit wait for it
    and close it."""
    opening = Opening(spec)
    try:
        yield opening
    finally:
        opening.close()


class OnCluster:
    """``function(*args, cluster=..., **kwargs)`` (an engine job such as
    ``run_experiment``) with a cluster opened from ``spec`` for the job and closed
    after it; picklable, for :func:`engine.runs.runner.run_in_process` (the child process
    creates the client)."""

    def __init__(self, function: Callable, spec: str):
        self.function, self.spec = function, str(spec)

    def __call__(self, *args, **kwargs):
        with open_cluster(ClusterSpec.parse(self.spec)) as cluster:
            return (yield from self.function(*args, cluster=cluster, **kwargs))

    def __repr__(self) -> str:
        # getattr: any callable (a partial has none)
        return f"OnCluster({getattr(self.function, '__name__', self.function)}, {self.spec!r})"
