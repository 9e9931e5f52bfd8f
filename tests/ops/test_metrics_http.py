"""The metrics endpoint is bounded (engine/server/metrics_http.py): connections that never finish their
request hold at most MAX_SCRAPES threads, and Prometheus' scrape is served again once they go (one
address's share of them: tests/security/test_metrics_address_share.py)."""

from __future__ import annotations

import socket
import threading
import time
import urllib.request
from wsgiref.simple_server import WSGIServer

import pytest
from prometheus_client import CollectorRegistry, Counter

from tests.web.test_connections import closed_by_server
from tourney.engine.server.metrics_http import MAX_SCRAPES, MAX_SCRAPES_PER_ADDRESS, start_metrics_http

pytestmark = pytest.mark.timeout(120)


def probed_server() -> tuple[WSGIServer, threading.Thread]:
    """A metrics endpoint on a free port serving one series, probe_total 1.0; the server and its thread."""
    registry = CollectorRegistry()
    Counter("probe_total", "a series to scrape", registry=registry).inc()
    return start_metrics_http(0, "127.0.0.1", registry)


def unfinished(port: int, count: int, source: str = "127.0.0.1") -> list[socket.socket]:
    """`count` connections from `source` (a loopback address) whose request never ends."""
    held = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
        sock.sendall(b"GET /metrics HTTP/1.1\r\n")
        held.append(sock)
    return held


def test_unfinished_requests_hold_at_most_max_scrapes_threads_and_scrapes_come_back() -> None:
    server, thread = probed_server()
    port = server.server_address[1]
    before = threading.active_count()
    held = []
    try:
        # From enough addresses (127.0.0.x: loopback on Linux) that the overall bound, not one address's
        # share, is what turns the extra ones away.
        for source in range(1, MAX_SCRAPES // MAX_SCRAPES_PER_ADDRESS + 1):
            held.extend(unfinished(port, MAX_SCRAPES_PER_ADDRESS, f"127.0.0.{source}"))
        extra = [socket.create_connection(("127.0.0.1", port), timeout=30, source_address=("127.0.0.99", 0))
                 for _ in range(8)]
        held.extend(extra)
        deadline = time.monotonic() + 30
        assert all(closed_by_server(sock, deadline) for sock in extra)
        assert threading.active_count() <= before + MAX_SCRAPES
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + 30
    while True:  # the held slots are given back as their connections close
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
                assert b"probe_total 1.0" in answer.read()
            break
        except OSError:
            assert time.monotonic() < deadline
    server.shutdown()
    thread.join(30)
