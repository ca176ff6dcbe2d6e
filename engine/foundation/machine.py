"""The machine a run is on: its usable cores and available memory, and how amounts are
worded (``1.5 GB``, ``about 12 minutes``).

The bottom of the engine's limits: :mod:`engine.input.file_checks`, :mod:`engine.foundation.param_caps`
and the run budget (:mod:`engine.runs.guards`) build on it; it imports no project module.
"""
from __future__ import annotations

import math
import os
from typing import Optional

#: Bytes of one value of a table or matrix (a float64).
BYTES_PER_VALUE = 8


def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity; ``os.cpu_count()`` elsewhere)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def cap_jobs(n_jobs: int, *, option: str = "--jobs ") -> tuple:
    """``(n_jobs, note)``: more workers than cores capped to the cores (note says so).

    Parameters
    ----------
    n_jobs : int
        Worker processes asked for; -1 means every core and is kept.
    option : str
        How the note names the option, before the number (``"--jobs "``; the cluster's
        local workers: ``"--cluster local:"``).

    Returns
    -------
    (int, str or None)
    """
    cores = usable_cores()
    if n_jobs > cores:
        return cores, (f"{option}{n_jobs} is more than the {cores} core(s) of this computer: "
                       f"using {cores}")
    return n_jobs, None


def workers_for(n_jobs: int) -> int:
    """The number of processes ``n_jobs`` gives (-1: every core)."""
    return usable_cores() if n_jobs < 0 else max(1, min(int(n_jobs), usable_cores()))


def available_memory() -> Optional[int]:
    """Bytes of memory available now: ``MemAvailable`` (``SC_AVPHYS_PAGES`` where there is
    no ``/proc/meminfo``), or less under a cgroup limit or an address-space limit
    (``ulimit -v``).

    Returns
    -------
    int or None
        None when the system does not say.
    """
    found = _meminfo_available()
    if found is None:
        try:
            found = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (AttributeError, ValueError, OSError):
            found = None
    for limit in (_cgroup_room(), _address_space_room()):
        if limit is not None:
            found = limit if found is None else min(found, limit)
    return found


def _meminfo_available() -> Optional[int]:
    try:
        with open("/proc/meminfo", encoding="ascii") as stream:
            for line in stream:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _cgroup_room() -> Optional[int]:
    """The cgroup's memory limit minus its usage (v2, then v1), or None without a limit."""
    for limit_file, usage_file in (("memory.max", "memory.current"),
                                   ("memory/memory.limit_in_bytes",
                                    "memory/memory.usage_in_bytes")):
        limit, usage = (_read_number(os.path.join("/sys/fs/cgroup", name))
                        for name in (limit_file, usage_file))
        if limit is not None and limit < 2 ** 60:
            return max(0, limit - (usage or 0))
    return None


def _address_space_room() -> Optional[int]:
    """Room left under this process's address-space limit (``ulimit -v``), or None."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError):
        return None
    if soft == resource.RLIM_INFINITY or soft < 0:
        return None
    used = 0
    try:
        with open("/proc/self/status", encoding="ascii") as stream:
            for line in stream:
                if line.startswith("VmSize:"):
                    used = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return max(0, soft - used)


def _read_number(path: str) -> Optional[int]:
    try:
        with open(path, encoding="ascii") as stream:
            return int(stream.read().strip())
    except (OSError, ValueError):
        return None


# ----------------------------------------------------------------------------- words

def format_bytes(n: float) -> str:
    """``1.5 GB``, ``320 MB``, ``12 KB`` (powers of 1000)."""
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= size:
            value = n / size
            return f"{value:.1f} {unit}" if value < 100 else f"{value:,.0f} {unit}"
    return f"{int(n)} bytes"


def format_seconds(seconds: Optional[float], *, about: bool = False) -> str:
    """A duration in words: the one wording of seconds for the CLI, the report and the app.

    Parameters
    ----------
    seconds : float or None
        The duration; None (not known) gives ``—``.
    about : bool
        An estimate, rounded to its leading unit and said as one: ``about 40 s``,
        ``about 12 min``, ``about 3.5 h``, ``about 5.0 days``. Without it, a measured
        duration to the second: ``0 s``, ``45 s``, ``1 min 05 s``, ``2 h 03 min``.

    Returns
    -------
    str
        The words.
    """
    if seconds is None or math.isnan(seconds):
        return "—"
    return _estimate_words(seconds) if about else _measured_words(seconds)


def _estimate_words(seconds: float) -> str:
    if seconds < 90:
        return f"about {max(1, round(seconds))} s"
    if seconds < 90 * 60:
        return f"about {round(seconds / 60)} min"
    if seconds < 48 * 3600:
        return f"about {seconds / 3600:.1f} h"
    return f"about {seconds / 86400:,.1f} days"


def _measured_words(seconds: float) -> str:
    whole = max(0, round(seconds))
    if whole < 60:
        return f"{whole} s"
    minutes, rest = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes} min {rest:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours:,} h {minutes:02d} min"


def count_text(n: float) -> str:
    """A count with thousands separators (``1,200``)."""
    return f"{int(n):,}"


def whole_number(value) -> Optional[float]:
    """A finite number (not a bool) as float, else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None
