"""What answers at a cluster's address is checked before Dask's client reads from it
(issue 36: a web server's answer became a 3.07 EiB allocation)."""
import logging
import socket
import struct
import threading

import pytest

from engine.evaluation.cluster import ClusterSpec, open_cluster
from engine.evaluation.scheduler_greeting import (MAX_GREETING_BYTES, check_greeting,
                                                  greeting_problem)


class FakeServer:
    """A server on a free local port that sends ``greeting`` to every connection (nothing
    when None) and keeps it open until closed."""

    def __init__(self, greeting=None):
        self.greeting, self.listener = greeting, socket.create_server(("127.0.0.1", 0))
        self.address = f"tcp://127.0.0.1:{self.listener.getsockname()[1]}"
        self.open, self.thread = [], threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.open.append(connection)
            if self.greeting:
                connection.sendall(self.greeting)

    def close(self):
        self.listener.close()
        for connection in self.open:
            connection.close()


def dask_greeting(mark=b"pickle-protocol"):
    """The bytes a Dask scheduler sends first (its length, one frame, a msgpack map)."""
    frame = b"\x83\xabcompression\xc0\xa6python\x93\x03\x0b\x07\xaf" + mark + b"\x05"
    body = struct.pack("<QQ", 1, len(frame)) + frame
    return struct.pack("<Q", len(body)) + body


@pytest.mark.parametrize("greeting, expected", [
    (b"HTTP/1.1 400 Bad Request\r\n\r\n", "its first bytes are not a Dask message's length"),
    (b"SSH-2.0-OpenSSH_9.6\r\n", "its first bytes are not a Dask message's length"),
    (None, "accepted the connection but sent no Dask greeting within 0.5 s"),
    (dask_greeting(b"pickle-protocok"), "not Dask's handshake"),
], ids=["http", "ssh", "silent", "other-handshake"])
def test_what_is_not_a_scheduler_is_refused_in_one_line(greeting, expected):
    server = FakeServer(greeting)
    try:
        with pytest.raises(ValueError) as caught:
            with open_cluster(ClusterSpec(server.address, timeout=0.5)):
                pass
    finally:
        server.close()
    message = str(caught.value)
    assert message.startswith(f"{server.address} is not a Dask scheduler: what answers there ")
    assert expected in message and message.endswith("when it starts)") and "\n" not in message
    assert "HTTP" not in message and "SSH" not in message        # its content is not echoed


def test_a_schedulers_greeting_passes_and_the_checks_of_its_parts():
    assert greeting_problem(dask_greeting()) == ""
    server = FakeServer(dask_greeting())
    try:
        check_greeting(server.address, 2)
    finally:
        server.close()
    whole = dask_greeting()
    assert "2 byte(s)" in greeting_problem(whole[:2])
    assert "not a Dask message's length" in greeting_problem(whole[:-1])      # cut short
    assert "not Dask's frames" in greeting_problem(
        struct.pack("<QQ", 16, 1000) + b"\0" * 8)
    assert "not a Dask message's length" in greeting_problem(
        struct.pack("<Q", MAX_GREETING_BYTES + 1) + b"\0" * 64)


def test_a_real_scheduler_greets_as_expected():
    distributed = pytest.importorskip("distributed")
    local = distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp://",
                                     dashboard_address=None, silence_logs=logging.CRITICAL)
    try:
        check_greeting(local.scheduler_address, 5)
    finally:
        local.close()


def test_nothing_listening_is_unreachable_as_before():
    with socket.create_server(("127.0.0.1", 0)) as placeholder:
        port = placeholder.getsockname()[1]
    with pytest.raises(ValueError, match=rf"^cannot reach the Dask scheduler at "
                                         rf"tcp://127.0.0.1:{port} within 1 s "
                                         r"\(ConnectionRefusedError\): check that"):
        check_greeting(f"tcp://127.0.0.1:{port}", 1)


@pytest.mark.parametrize("text", ["tls://10.0.0.2:8786", "TLS://host:1"])
def test_tls_is_refused_when_the_address_is_read(text):
    with pytest.raises(ValueError, match=r"asks for TLS, which this program does not support "
                                         r".*through an SSH tunnel"):
        ClusterSpec.parse(text)
