"""Each Unix socket of an arena is an address of its own (gRPC names every Unix peer "unix:").

The fast check of what tests/hosted/test_seats_apart.py plays with real sandboxed bots: what one
socket's callers spend (failed tokens, calls in flight) the callers of another socket do not pay for.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from tests.security.silent_streams import silent_streams
from tests.security.test_tokenless_lockout import ALICE_TOKEN, _hello
from tests.server.harness import wait_for
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.local import LocalArena
from tourney.engine.server.tokens import token_hash

BOB_TOKEN = "bob-right-token-0123456789"


@pytest.mark.timeout(120)
def test_wrong_tokens_on_one_socket_lock_out_only_that_socket() -> None:
    config = ArenaConfig(tokens={"alice": token_hash(ALICE_TOKEN), "bob": token_hash(BOB_TOKEN)},
                         auth_failures_per_address=3, auth_failures_per_address_per_s=0.01)
    with tempfile.TemporaryDirectory(prefix="tourney-t-") as folder:
        hostile, honest = Path(folder) / "0.sock", Path(folder) / "1.sock"
        with LocalArena(config, unix_paths=[str(hostile), str(honest)]):
            assert [_hello(f"unix:{hostile}", "bob", f"guess-{i}") for i in range(4)] == \
                ["UNAUTHENTICATED"] * 3 + ["RESOURCE_EXHAUSTED"]
            assert _hello(f"unix:{hostile}", "alice", ALICE_TOKEN) == "RESOURCE_EXHAUSTED"  # locked out itself
            assert _hello(f"unix:{honest}", "bob", BOB_TOKEN) == "OK"


@pytest.mark.timeout(120)
def test_calls_held_on_one_socket_leave_another_sockets_places_free() -> None:
    config = ArenaConfig(allow_anonymous=True, calls_per_connection=2)
    with tempfile.TemporaryDirectory(prefix="tourney-t-") as folder:
        hostile, honest = Path(folder) / "0.sock", Path(folder) / "1.sock"
        with LocalArena(config, unix_paths=[str(hostile), str(honest)]) as local, \
                silent_streams([f"unix:{hostile}"] * 2):  # two connections, one address: its 2 calls in flight
            in_flight = local.arena.call_limits(f"unix:{hostile}")[0].in_flight
            assert wait_for(lambda: in_flight.get(f"unix:{hostile}", 0) == 2)
            assert _hello(f"unix:{hostile}", "third", "") == "RESOURCE_EXHAUSTED"
            assert _hello(f"unix:{honest}", "neighbour", "") == "OK"
