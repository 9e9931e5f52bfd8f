"""Attack on the web app's streamed download (a tournament's export, MAX_EXPORTS at once): four
requests whose client never reads the answer. Each response blocks once the socket buffers fill and,
with nothing to end it, kept its place for good, so every other export was refused (429). A client
that takes no bytes for STALL_S is now dropped and its place given back."""

from __future__ import annotations

import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.export.conftest import match_copies
from tests.web.browser import served
from tourney.tournament.store.database import open_store
from tourney.web.app import MAX_EXPORTS, create_app
from tourney.web.stalled import STALL_S

WAIT_S = 30.0


def _export(url: str) -> tuple[int, int]:
    """The status of a GET of `url` and the length of its body."""
    try:
        with urllib.request.urlopen(url, timeout=WAIT_S) as answer:
            return int(answer.status), len(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, 0


@pytest.mark.timeout(240)
def test_clients_that_never_read_do_not_keep_the_download_places(tmp_path: Path) -> None:
    # Megabytes of export: far more than the socket buffers and uvicorn's write buffer hold. A short match
    # stored many times: its lines cost the least time each to replay (a line's frames are played again).
    tournament = match_copies(tmp_path / "t.db", 400, bot="random", seed=5)
    engine = open_store(str(tmp_path / "t.db"))
    held = []
    with served(create_app(engine)) as base:
        url = f"{base}/api/tournaments/{tournament}/export.jsonl"
        status, size = _export(url)
        assert status == 200 and size > 6 << 20, size
        port = int(base.rsplit(":", 1)[1])
        try:
            for _ in range(MAX_EXPORTS):
                sock = socket.socket()
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window, never read
                sock.connect(("127.0.0.1", port))
                sock.sendall(f"GET /api/tournaments/{tournament}/export.jsonl HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                held.append(sock)
            deadline = time.monotonic() + STALL_S + WAIT_S * 2
            while (status := _export(url)[0]) == 429 and time.monotonic() < deadline:
                time.sleep(1.0)
            assert status == 200, "the readers that never read kept every download place"
        finally:
            for sock in held:
                sock.close()
