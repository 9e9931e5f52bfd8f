"""The web server's connections are bounded (web/connections.py): one client cannot hold every socket
of `tourney web` by opening connections and trickling request heads (a slowloris)."""

from __future__ import annotations

import contextlib
import socket
import time

import httpx
import pytest

from tests.ops.prom import free_port
from tests.web.conftest import Filled
from tests.web.test_cli import WAIT_S, running
from tourney.web.connections import HEAD_S, MAX_PER_ADDRESS

pytestmark = pytest.mark.timeout(180)


def closed_by_server(sock: socket.socket, deadline: float) -> bool:
    """Whether the server closed `sock` (or reset it) before `deadline`."""
    while time.monotonic() < deadline:
        sock.settimeout(max(0.05, min(1.0, deadline - time.monotonic())))
        try:
            if sock.recv(1024) == b"":
                return True
        except TimeoutError:
            continue
        except ConnectionResetError:
            return True
    return False


def test_one_address_holds_at_most_its_share_and_a_slow_head_is_dropped(filled: Filled) -> None:
    port = free_port()
    with running("web", "--db", str(filled.path), "--port", str(port), ready="tourney web on"):
        held = []
        try:
            for _ in range(MAX_PER_ADDRESS):
                sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT_S)
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # a head that never ends
                held.append(sock)
            extra = socket.create_connection(("127.0.0.1", port), timeout=WAIT_S)
            held.append(extra)
            # One more than the address's share is closed at once; its request is never read.
            assert closed_by_server(extra, time.monotonic() + WAIT_S)
            # The trickled heads are dropped once HEAD_S has passed, even though bytes keep coming.
            deadline = time.monotonic() + HEAD_S + WAIT_S
            for sock in held[:MAX_PER_ADDRESS]:
                with contextlib.suppress(OSError):  # one the server already dropped
                    sock.sendall(b"X-Slow: 1\r\n")
            assert all(closed_by_server(sock, deadline) for sock in held[:MAX_PER_ADDRESS])
        finally:
            for sock in held:
                sock.close()
        # The same address is served again once its connections are gone.
        answer = httpx.get(f"http://127.0.0.1:{port}/api/tournaments", timeout=WAIT_S)
        assert answer.status_code == 200 and answer.json()["tournaments"]


def test_a_slow_but_honest_client_and_keep_alive_requests_are_served(filled: Filled) -> None:
    port = free_port()
    with running("web", "--db", str(filled.path), "--port", str(port), ready="tourney web on"):
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=WAIT_S) as client:
            for _ in range(3):  # one kept-alive connection, several requests
                assert client.get("/api/tournaments").status_code == 200
        sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT_S)
        with sock:
            for piece in (b"GET /api/tournaments HTTP/1.1\r\n", b"Host: x\r\n", b"Connection: close\r\n\r\n"):
                sock.sendall(piece)  # a head in three writes, well within HEAD_S
            reply = b""
            while chunk := sock.recv(65536):
                reply += chunk
        assert reply.startswith(b"HTTP/1.1 200")
