"""Attack on the metrics endpoint (engine/server/metrics_http.py): every slot held by requests whose
bytes trickle in, each read well inside READ_S, so the per-read timeout never fires. A request must
arrive whole within REQUEST_S, or an honest Prometheus scrape is refused for as long as the
attacker likes."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import urllib.request

import pytest

from tests.ops.test_metrics_http import probed_server
from tourney.engine.server.metrics_http import MAX_SCRAPES, READ_S, REQUEST_S

pytestmark = pytest.mark.timeout(120)

TRICKLE_S = READ_S / 4  # a byte this often: every single read is far inside READ_S


def _scrape(port: int) -> bytes | None:
    """The endpoint's answer, or None when the connection was refused, closed or timed out."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
            return bytes(answer.read())
    except OSError:
        return None


def test_trickled_requests_cannot_hold_every_slot() -> None:
    server, thread = probed_server()
    port = server.server_address[1]
    stop = threading.Event()
    held = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(MAX_SCRAPES)]

    def trickle() -> None:  # one header byte on each held connection every TRICKLE_S, until told to stop
        for sock in held:
            sock.sendall(b"GET /metrics HTTP/1.1\r\nX-Slow: ")
        while not stop.wait(TRICKLE_S):
            for sock in held:
                with contextlib.suppress(OSError):  # the server dropped it
                    sock.sendall(b"a")

    trickler = threading.Thread(target=trickle, daemon=True)
    trickler.start()
    try:
        deadline = time.monotonic() + REQUEST_S + 30
        answer = None
        while answer is None and time.monotonic() < deadline:
            answer = _scrape(port)
            if answer is None:
                stop.wait(0.5)
        assert answer is not None and b"probe_total 1.0" in answer, "the trickled requests kept every slot"
    finally:
        stop.set()
        trickler.join(30)
        for sock in held:
            sock.close()
        server.shutdown()
        thread.join(30)
