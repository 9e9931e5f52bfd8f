"""Attack on the web app's per-address places: connections that pipeline thousands of GETs and never read an
answer. Once the socket buffers filled, uvicorn's next answer waited for the client to read, with no end: each
connection kept its place for good (64 such connections held the address's share for over 90 s, and would
have held it forever). A connection whose client takes no bytes for STALL_S is now dropped."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from tourney.tournament.store.database import open_store
from tourney.web import stalled
from tourney.web.app import create_app
from tourney.web.connections import server_config

pytestmark = pytest.mark.timeout(240)
WAIT_S = 60.0
PIPELINED = 2000  # GETs a connection sends at once: answers far past what the socket buffers hold
CONNECTIONS = 4
TCP_ESTABLISHED = 1  # linux/tcp_states.h


@contextlib.contextmanager
def bounded_web(tmp_path: Path) -> Iterator[tuple[uvicorn.Server, int]]:
    """The web app as `tourney web` serves it (web/connections.py's protocol), in a thread; its server and port."""
    sock = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(server_config(create_app(open_store(str(tmp_path / "t.db"))), lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_S
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "the web app did not start"
    try:
        yield server, sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(WAIT_S)
        sock.close()


def established(sock: socket.socket) -> bool:
    """Whether `sock` is still an open connection for the kernel, asked without reading it (TCP_INFO's state)."""
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0] == TCP_ESTABLISHED


def test_pipelined_requests_never_read_do_not_hold_their_places(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stalled, "STALL_S", 2.0)  # the test waits 2 s of stall, not 30
    requests = b"GET /static/viewer.js HTTP/1.1\r\nHost: x\r\n\r\n" * PIPELINED
    with bounded_web(tmp_path) as (server, port):
        held = []
        try:
            for _ in range(CONNECTIONS):
                sock = socket.socket()
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window, never read
                sock.connect(("127.0.0.1", port))
                sock.settimeout(WAIT_S)
                with contextlib.suppress(OSError):  # the server may stop reading first, or drop it already
                    sock.sendall(requests)
                held.append(sock)
            # Every connection is dropped by the server, though no client ever read a byte nor closed its socket.
            deadline = time.monotonic() + stalled.STALL_S + WAIT_S
            while any(map(established, held)) and time.monotonic() < deadline:
                time.sleep(0.2)
            assert not any(map(established, held)), "connections that never read kept their places"
            while server.server_state.connections and time.monotonic() < deadline:
                time.sleep(0.2)
            assert not server.server_state.connections
            answer = httpx.get(f"http://127.0.0.1:{port}/static/viewer.js", timeout=WAIT_S)
            assert answer.status_code == 200 and len(answer.content) > 4096
        finally:
            for sock in held:
                sock.close()
