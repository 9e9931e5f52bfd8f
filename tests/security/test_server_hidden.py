"""Through the real arena: per game, what each connected bot receives over the wire is exactly its own
seat's observation (nothing of another seat's), and a spectator watching the running match gets
only the public view of each step.

The match is rebuilt from its stored replay to know the true state at every decision.
"""

from __future__ import annotations

import concurrent.futures
import json

import grpc
import pytest

from tests.security.hidden import invariant_under_determinization, keys, rebuild
from tests.server.bots import RecordingBot
from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tourney.engine.server.generated import arena_pb2 as pb

PRIVATE_KEYS = {"hand", "hand_ids", "mulligan_marked", "my_hidden", "role", "summary"}


def _watch(harness: ArenaHarness, match_id: str) -> list[pb.MatchEvent]:
    for _ in range(1000):
        try:
            return list(harness.stub.Watch(pb.WatchRequest(match_id=match_id), timeout=WAIT_S * 2))
        except grpc.RpcError as exc:
            if exc.code() != grpc.StatusCode.NOT_FOUND:
                raise
            wait_for(lambda: False, 0.005)
    raise AssertionError("the match never appeared")


@pytest.mark.parametrize(("game", "players"), [("tiny-ninjas", 2), ("ninja-versus-ninja", 2),
                                               ("maitre-ninja", 3), ("ninja-arena", 3)])
def test_bots_and_spectators_get_only_what_they_may_see(harness: ArenaHarness, game: str, players: int) -> None:
    bots = [RecordingBot(seed=s, delay_s=0.001) for s in range(players)]
    for i, bot in enumerate(bots):
        harness.bot(f"{game}-{i}", bot)
    match_id = f"watched-{game}"
    seats = [f"remote:{game}-{i}" for i in range(players)]
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        running = pool.submit(harness.run_match, game, seats, 5, 0, "", "", 0, match_id)
        events = _watch(harness, match_id)
        record = running.result(WAIT_S * 2)
    assert record.termination in ("normal", "adjudication"), record.reason
    logs, views = rebuild(json.loads(record.replay_json))
    # Each bot got exactly the observations of its own seat, in order, and nothing else.
    for seat, bot in enumerate(bots):
        wire = [obs for request, obs in bot.requests if request.match_id == match_id]
        truth = logs[seat]
        assert len(wire) == len(truth) > 0
        for got, shown in zip(wire, truth, strict=True):
            assert got == shown.observation
            assert invariant_under_determinization(shown, tries=1)
    # The spectator saw public views only, each the true public view of its step.
    live = [e for e in events if not e.finished]
    assert len(live) >= 2 and events[-1].finished
    for event in live:
        view = json.loads(event.public_view_json)
        assert view == views[event.step]
        assert not keys(view) & PRIVATE_KEYS
