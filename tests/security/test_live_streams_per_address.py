"""Attack on the web app's live relay (web/live.py): one client opens every live stream (MAX_WATCHERS)
of a running match and keeps them, so every other spectator is told the streams are busy. One client
address may hold only MAX_WATCHERS_PER_ADDRESS of them; another address still watches."""

from __future__ import annotations

import concurrent.futures
import socket
import time
from pathlib import Path

import pytest

from tests.ops.prom import free_port
from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tests.web.test_cli import running
from tests.web.test_live import GATED_MOVE_MS, GatedBot
from tourney.tournament.store.database import open_store
from tourney.web.live import MAX_WATCHERS, MAX_WATCHERS_PER_ADDRESS

pytestmark = pytest.mark.timeout(180)


def open_stream(port: int, source: str) -> tuple[socket.socket, str]:
    """A live stream of match 'held' from `source`, and the name of its first server-sent event."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT_S, source_address=(source, 0))
    sock.sendall(b"GET /api/live/held/events HTTP/1.1\r\nHost: x\r\n\r\n")
    seen = b""
    deadline = time.monotonic() + WAIT_S
    while b"event: " not in seen or b"\n" not in seen.split(b"event: ", 1)[1]:
        assert time.monotonic() < deadline, f"no event in {seen!r}"
        chunk = sock.recv(65536)
        assert chunk, f"closed after {seen!r}"
        seen += chunk
    return sock, seen.split(b"event: ", 1)[1].split(b"\n", 1)[0].decode()


def test_one_address_cannot_take_every_live_stream(tmp_path: Path) -> None:
    open_store(str(tmp_path / "store.db")).dispose()  # an empty store: the web app needs one to start
    harness = ArenaHarness()
    bot = GatedBot()
    held: list[socket.socket] = []
    try:
        harness.bot("gated", bot)
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            match = pool.submit(harness.run_match, "tiny-ninjas", ["remote:gated", "greedy"], 3, GATED_MOVE_MS,
                                "", "", 0, "held")
            assert wait_for(lambda: "held" in harness.arena._live)  # noqa: SLF001  (the arena's own table)
            port = free_port()
            with running("web", "--db", str(tmp_path / "store.db"), "--arena", harness.address, "--port", str(port),
                         ready="tourney web on"):
                kinds = []
                for _ in range(MAX_WATCHERS):  # the attacker asks for every stream there is, from one address
                    sock, kind = open_stream(port, "127.0.0.1")
                    held.append(sock)
                    kinds.append(kind)
                assert kinds.count("frame") == MAX_WATCHERS_PER_ADDRESS, kinds
                assert set(kinds) == {"frame", "busy"}
                # Another spectator, at another address, still watches the match.
                sock, kind = open_stream(port, "127.0.0.2")
                held.append(sock)
                assert kind == "frame"
                for sock in held:
                    sock.close()
                held.clear()
                # Closed streams give the address its share back.
                deadline = time.monotonic() + WAIT_S
                while True:
                    sock, kind = open_stream(port, "127.0.0.1")
                    sock.close()
                    if kind == "frame":
                        break
                    assert time.monotonic() < deadline, "the closed streams were never given back"
            bot.gate.set()
            match.result(WAIT_S * 4)
    finally:
        for sock in held:
            sock.close()
        bot.gate.set()
        harness.close()
