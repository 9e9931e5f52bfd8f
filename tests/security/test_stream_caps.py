"""Streams per connection, at the transport: a burst of calls on one connection is cut by gRPC before
the arena's Python code sees it, and the organiser's own listener has room for a tournament's calls.
Over real loopback gRPC, with a raw HTTP/2 client where the attack ignores the arena's settings."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import grpc

from tests.security.raw_h2 import WindowZeroClient
from tests.security.siege import ADMIN, GoodTournament, long_match_request, siege_arena
from tests.server.bots import SilentBot
from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.server import start_admin_listener

GET_MATCH = "/tourney.v1.Arena/GetMatch"
RUN_MATCH = "/tourney.v1.Arena/RunMatch"


def _outcomes(client: WindowZeroClient, calls: int) -> Counter[str]:
    """How each of the client's calls ended, once every call but the admitted ones ended (bounded wait)."""
    return Counter(client.read_until(answered=calls, timeout_s=WAIT_S).values())


def test_streams_past_the_connection_cap_are_reset_unseen_and_the_tournament_plays_on(tmp_path: Path) -> None:
    harness = siege_arena(streams_per_connection=4, calls_per_connection=2)
    clients: list[WindowZeroClient] = []
    try:
        body = long_match_request(harness)
        good = GoodTournament(harness, tmp_path)
        clients = [WindowZeroClient(harness.address, GET_MATCH, body, 12) for _ in range(2)]
        for client in clients:
            # 12 calls at once, ignoring the arena's limit of 4 streams: gRPC resets 8 of them before any
            # handler runs; of the 4 the arena sees, admission holds 2 and refuses 2 with a sentence.
            # Without the cap all 12 would reach admission: 2 held, 10 refused.
            assert _outcomes(client, 10) == {"reset": 8, "pending": 2, "refused:8": 2}
        with harness.arena.admission.lock:  # the arena's own count of what each connection holds
            assert [harness.arena.admission.in_flight.get(f"ipv4:127.0.0.1:{c.sock.getsockname()[1]}")
                    for c in clients] == [2, 2]
        for client in clients:
            client.close()
        assert good.terminations() == ["normal"] * 12
    finally:
        for client in clients:
            client.close()
        harness.close()


def _start_admin_listener(harness: ArenaHarness) -> tuple[grpc.aio.Server, str]:
    """The organiser's listener beside the harness's arena, on its loop; returns it and its address."""
    server, port = asyncio.run_coroutine_threadsafe(start_admin_listener(harness.arena), harness.loop).result(WAIT_S)
    assert port > 0
    return server, f"127.0.0.1:{port}"


def test_the_organisers_listener_runs_every_runmatch_of_one_connection_at_once() -> None:
    # One stream a connection for the bots: an organiser there could play one match at a time.
    harness = siege_arena(good_bot=False, streams_per_connection=1)
    harness.bot("quiet", SilentBot(), max_concurrent_matches=8)  # its matches stay live until the arena stops
    admin_server, admin_address = _start_admin_listener(harness)
    clients: list[WindowZeroClient] = []
    try:
        def run_matches(address: str, prefix: str) -> WindowZeroClient:
            """Three RunMatch calls with the admin token on one raw connection (no answer is ever read)."""
            client = WindowZeroClient(address, RUN_MATCH, b"", 0)
            for i in range(3):
                client.open(pb.RunMatchRequest(admin_token=ADMIN, game="sticks", seats=["remote:quiet", "random"],
                                               move_ms=int(WAIT_S * 1000), match_id=f"{prefix}-{i}"
                                               ).SerializeToString())
            clients.append(client)
            return client

        bots_side = run_matches(harness.address, "bots")
        assert _outcomes(bots_side, 2) == {"reset": 2, "pending": 1}
        assert wait_for(lambda: len(harness.arena.live_match_ids()) == 1)
        run_matches(admin_address, "organiser")
        assert wait_for(lambda: sorted(harness.arena.live_match_ids()) == [
            "bots-0", "organiser-0", "organiser-1", "organiser-2"])
    finally:
        for client in clients:
            client.close()
        asyncio.run_coroutine_threadsafe(admin_server.stop(0.5), harness.loop).result(WAIT_S)
        harness.close()
