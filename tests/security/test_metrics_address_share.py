"""Attack on the metrics endpoint (engine/server/metrics_http.py): one client opens every connection slot
with requests it never finishes. Before, the endpoint had only its overall MAX_SCRAPES, so Prometheus'
scrape from another address was closed unanswered while the client held them; now one address holds at
most MAX_SCRAPES_PER_ADDRESS (counted by `address_key`, as the arena and the web app count), its surplus
connections are closed at once, and another address is served. Both clients are real sockets on
loopback: 127.0.0.2 is a loopback address of its own on Linux."""

from __future__ import annotations

import http.client
import socket

import pytest

from tests.ops.test_metrics_http import probed_server, unfinished
from tourney.engine.server.metrics_http import MAX_SCRAPES, MAX_SCRAPES_PER_ADDRESS

pytestmark = pytest.mark.timeout(120)


def _closed_already(sock: socket.socket) -> bool:
    """Whether the server has closed `sock` by now (its end of stream or reset is already here)."""
    sock.setblocking(False)
    try:
        return sock.recv(1024) == b""
    except BlockingIOError:
        return False
    except ConnectionResetError:
        return True


def test_one_address_cannot_hold_every_slot_and_another_is_served() -> None:
    server, thread = probed_server()
    port = server.server_address[1]
    held: list[socket.socket] = []
    try:
        held = unfinished(port, MAX_SCRAPES)
        # The scrape from the other address comes while every connection above is still open.
        scrape = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=("127.0.0.2", 0))
        scrape.request("GET", "/metrics")
        assert b"probe_total 1.0" in scrape.getresponse().read()
        scrape.close()
        # The server took the connections in order, so the surplus ones were closed before the scrape came.
        closed = [_closed_already(sock) for sock in held]
        assert closed == [False] * MAX_SCRAPES_PER_ADDRESS + [True] * (MAX_SCRAPES - MAX_SCRAPES_PER_ADDRESS)
    finally:
        for sock in held:
            sock.close()
        server.shutdown()
        thread.join(30)
