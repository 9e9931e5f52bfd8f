"""Attack by several seats of one private arena acting together on its arena-wide buckets: each hosted seat
has a Unix socket of its own and its per-address limits held, but the arena's overall buckets (failed tokens,
unauthenticated calls in flight and a second) were shared by every socket: five hostile seats of a six-player
Ninja Arena match spend the 50 failed tokens at once, two seats of three their share of tighter limits (here).
An honest seat connecting then was refused. Each socket now has buckets of its own (Arena.call_limits).
With sandboxed bots at the default limits the drain did not keep an honest seat out (it only lasts while the
attackers' bursts do; at a try a second each, five seats spend what the arena refills)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from tests.security.silent_streams import silent_streams
from tests.security.test_tokenless_lockout import ALICE_TOKEN, _hello, alice_arena
from tests.server.harness import wait_for
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.local import LocalArena
from tourney.engine.server.tokens import token_hash


@pytest.mark.timeout(120)
def test_wrong_tokens_on_other_seats_sockets_leave_an_honest_seat_its_token() -> None:
    # Two tries a socket, four for the whole arena, and almost no refill: two hostile sockets spend the four.
    config = alice_arena(per_address=2, per_address_per_s=0.001, overall=4, overall_per_s=0.001)
    with tempfile.TemporaryDirectory(prefix="tourney-t-") as folder:
        paths = [Path(folder) / f"{seat}.sock" for seat in range(3)]
        with LocalArena(config, unix_paths=[str(p) for p in paths]):
            for hostile in paths[:2]:
                assert [_hello(f"unix:{hostile}", "alice", f"guess-{i}") for i in range(3)] == \
                    ["UNAUTHENTICATED"] * 2 + ["RESOURCE_EXHAUSTED"]  # each locked out on its own socket
            assert _hello(f"unix:{paths[2]}", "alice", ALICE_TOKEN) == "OK"


@pytest.mark.timeout(120)
def test_calls_held_on_other_seats_sockets_leave_an_honest_seat_a_place() -> None:
    # Two unauthenticated calls in flight for the whole arena: one silent stream on each hostile socket holds
    # them (a socket may hold 8, as a seat's connection may).
    config = ArenaConfig(tokens={"alice": token_hash(ALICE_TOKEN)}, unauthenticated_calls=2)
    with tempfile.TemporaryDirectory(prefix="tourney-t-") as folder:
        paths = [Path(folder) / f"{seat}.sock" for seat in range(3)]
        with LocalArena(config, unix_paths=[str(p) for p in paths]) as local, \
                silent_streams([f"unix:{p}" for p in paths[:2]]):
            admitted = [local.arena.call_limits(f"unix:{p}")[0] for p in paths[:2]]
            assert wait_for(lambda: sum(a.unauthenticated for a in admitted) == 2)
            assert _hello(f"unix:{paths[2]}", "alice", ALICE_TOKEN) == "OK"
