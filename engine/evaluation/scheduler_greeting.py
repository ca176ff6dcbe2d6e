"""Is a Dask scheduler what answers at an address?  Checked before Dask's client connects.

Dask's client reads the first 8 bytes of any answer as the length of a message and
allocates it: a web server's ``HTTP/1.1 400`` becomes 3.07 EiB and a MemoryError after
seconds.  A Dask scheduler greets first, at once, without waiting for the client: 8 bytes
of length, then its frames (the count, their lengths, then a msgpack handshake that names
``pickle-protocol``).  :func:`check_greeting` connects with a timeout, reads at most
:data:`MAX_GREETING_BYTES` and refuses anything else in one line.
"""
from __future__ import annotations

import socket
import struct
import time

from engine.foundation.errors import EngineError

#: A scheduler's greeting is about 60 bytes; anything longer is not one.
MAX_GREETING_BYTES = 4096
#: The frames of a greeting (one in Dask 2021 to 2026).
MAX_GREETING_FRAMES = 16
_MARK = b"pickle-protocol"
_ADVICE = ("check the host name and port (the scheduler prints its address, "
           "tcp://HOST:PORT, when it starts)")


def check_greeting(address: str, timeout: float) -> None:
    """Connect to ``address`` (``tcp://HOST:PORT``) and check that a Dask scheduler greets.

    Parameters
    ----------
    address : str
    timeout : float
        Seconds for the connection and again for the greeting.

    Raises
    ------
    ValueError
        Nothing answers within ``timeout`` (:func:`unreachable`), or what answers sends no
        greeting in time or another one ("... is not a Dask scheduler").
    """
    host, port = address.split("://", 1)[1].rsplit(":", 1)
    try:
        with socket.create_connection((host, int(port)), timeout=timeout) as connection:
            received = _greeting(connection, timeout)
    except socket.timeout:
        raise EngineError("cluster_unreachable",
                          {"address": address, "timeout": timeout, "why": "TimeoutError"},
                          unreachable(address, timeout, "TimeoutError")) from None
    except OSError as exc:
        raise EngineError("cluster_unreachable",
                          {"address": address, "timeout": timeout,
                           "why": type(exc).__name__},
                          unreachable(address, timeout, type(exc).__name__)) from None
    problem = greeting_problem(received)
    if received is None:
        problem += f" within {timeout:g} s"
    if problem:
        raise EngineError("cluster_not_scheduler", {"address": address, "problem": problem},
                          f"{address} is not a Dask scheduler: {problem}; {_ADVICE}")


def unreachable(address: str, timeout: float, why: str) -> str:
    """The message of a scheduler that cannot be reached (``why``: the exception's name)."""
    return (f"cannot reach the Dask scheduler at {address} within {timeout:g} s ({why}): "
            "check that the scheduler is running (dask scheduler), that the host name and "
            "port are right (the scheduler prints its address when it starts), and that no "
            "firewall blocks the port")


def _greeting(connection: socket.socket, timeout: float):
    """The bytes of the greeting as announced by its first 8 (at most
    :data:`MAX_GREETING_BYTES`), or None when nothing came within ``timeout``."""
    end = time.monotonic() + timeout
    data, wanted = b"", 8
    while len(data) < wanted:
        left = end - time.monotonic()
        if left <= 0:
            return None if not data else data
        connection.settimeout(left)
        try:
            chunk = connection.recv(MAX_GREETING_BYTES)
        except socket.timeout:
            return None if not data else data
        if not chunk:
            return data
        data += chunk
        if len(data) >= 8 and wanted == 8:
            announced = struct.unpack("<Q", data[:8])[0]
            if announced > MAX_GREETING_BYTES:
                return data
            wanted = 8 + announced
    return data[:wanted]


def greeting_problem(received) -> str:
    """What is wrong with ``received`` as a scheduler's greeting, or ``""`` when it is one.

    Parameters
    ----------
    received : bytes or None
        What came (None: nothing within the time).

    Returns
    -------
    str
        Says what came, never its content (plain text, whatever answered).
    """
    if received is None:
        return "what answers there accepted the connection but sent no Dask greeting"
    if len(received) < 8:
        return f"what answers there sent {len(received)} byte(s), not a Dask greeting"
    announced = struct.unpack("<Q", received[:8])[0]
    body = received[8:]
    if announced > MAX_GREETING_BYTES or len(body) < announced or announced < 16:
        return "what answers there speaks another protocol (its first bytes are not a Dask " \
               "message's length)"
    n_frames = struct.unpack("<Q", body[:8])[0]
    if not 1 <= n_frames <= MAX_GREETING_FRAMES or 8 + 8 * n_frames > announced:
        return "what answers there speaks another protocol (not Dask's frames)"
    lengths = struct.unpack(f"<{n_frames}Q", body[8:8 + 8 * n_frames])
    if 8 + 8 * n_frames + sum(lengths) != announced or _MARK not in body:
        return "what answers there speaks another protocol (not Dask's handshake)"
    return ""
