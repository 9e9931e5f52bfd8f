"""Bots that never read hold, together, no more than the arena's overall cap on waiting messages.

Each stream's queue has its own cap, but before this cap they added up: max_sessions streams that never
read, each answered at the allowed junk rate, could make the arena hold max_sessions times a stream's
32 MiB. Past the overall cap the stream holding the most is cut off as a slow reader (how several streams
share the cap: tests/server/test_outbox.py), and the matches of bots that read play on.
"""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable

import h2.config
import h2.connection
import h2.exceptions
import h2.settings
import pytest

from tests.faults.conftest import Stored
from tests.faults.faultlib import hello_bytes, reply_bytes, with_good_matches
from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb

pytestmark = pytest.mark.timeout(240)
OVERALL = 128 * 1024
JUNK = 20_000  # replies to no request, ~300 bytes of ErrorReport each: 6 MB if nothing cut the stream off


def _framed(message: bytes) -> bytes:
    return b"\x00" + len(message).to_bytes(4, "big") + message  # gRPC framing: uncompressed, length


class NeverReadingBot:
    """A Play stream on a raw HTTP/2 connection that grants a window of 4 KB once and never again: the
    Welcome and a few answers leave the arena, the rest waits in it."""

    def __init__(self, address: str, name: str) -> None:
        host, port = address.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=5.0)
        self.conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
        self.conn.initiate_connection()
        self.conn.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 4096})
        self.stream = self.conn.get_next_available_stream_id()
        self.conn.send_headers(self.stream, [(":method", "POST"), (":scheme", "http"),
                                             (":path", "/tourney.v1.Arena/Play"), (":authority", address),
                                             ("content-type", "application/grpc"), ("te", "trailers")])
        self.conn.send_data(self.stream, _framed(hello_bytes(name)))
        self.sock.sendall(self.conn.data_to_send())
        self.sent = 0

    def _read(self) -> None:
        """Take the arena's window updates and settings (and whatever else it sent), granting nothing."""
        self.sock.settimeout(0.2)
        try:
            data = self.sock.recv(65536)
        except (TimeoutError, ConnectionError):
            return
        try:
            self.conn.receive_data(data)
            self.sock.sendall(self.conn.data_to_send())
        except (h2.exceptions.ProtocolError, ConnectionError):
            pass  # the arena reset or closed it: the test asks the arena how it ended

    def flood(self, messages: int, cut: Callable[[], bool], deadline_s: float) -> None:
        """Send junk replies as fast as the arena's window lets, until `messages` are sent or `cut()`."""
        deadline = time.monotonic() + deadline_s
        while self.sent < messages and not cut() and time.monotonic() < deadline:
            if self.conn.local_flow_control_window(self.stream) < 200:
                self._read()
                continue
            self.conn.send_data(self.stream, _framed(reply_bytes("m" * 100, self.sent + 1, 0)))
            self.sent += 1
            if self.sent % 50 == 0:
                self.sock.sendall(self.conn.data_to_send())
        with contextlib.suppress(ConnectionError):
            self.sock.sendall(self.conn.data_to_send())

    def close(self) -> None:
        self.sock.close()


def test_a_stream_that_never_reads_is_cut_at_the_overall_cap_and_good_matches_play_on() -> None:
    # The stream's own caps far above what it is sent, and junk allowed: only the overall cap can cut it.
    harness = ArenaHarness(ArenaConfig(allow_anonymous=True, default_move_ms=5000, bad_message_burst=1_000_000,
                                       max_queued_messages=1_000_000, max_queued_bytes_overall=OVERALL))
    harness.stored = Stored()  # type: ignore[attr-defined]
    harness.arena.on_result = harness.stored  # type: ignore[attr-defined]
    bot = NeverReadingBot(harness.address, "hoarder")
    try:
        assert wait_for(lambda: bool(harness.arena.connected("hoarder")))

        def attack() -> pb.MatchRecord:
            bot.flood(JUNK, lambda: not harness.arena.connected("hoarder"), WAIT_S * 4)
            assert bot.sent < JUNK, "the stream was not cut off before the whole flood was answered"
            assert wait_for(lambda: not harness.arena.connected("hoarder"))
            return harness.run_match("tiny-ninjas", ["random", "random"], 3)

        with_good_matches(harness, attack, good=2)
        assert wait_for(lambda: harness.arena.queued.total == 0), harness.arena.queued.total
    finally:
        bot.close()
        harness.close()
