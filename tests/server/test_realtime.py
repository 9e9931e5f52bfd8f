"""Ninja Arena in real time over loopback gRPC: open offers, arrivals ordered by the server clock."""

from __future__ import annotations

import concurrent.futures
import json

import grpc
import pytest

from tests.server.bots import DesertingBot, OutOfRangeBot, RecordingBot
from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tourney.engine.core import available_games
from tourney.engine.server.generated import arena_pb2 as pb

FAST = json.dumps({"min_action_interval_ms": 20, "reaction_timeout_ms": 200, "grace_ms": 20,
                   "wall_clock_cap_s": 4})


def _run(harness: ArenaHarness, seats: list[str], seed: int = 1, config: str = FAST) -> pb.MatchRecord:
    record: pb.MatchRecord = harness.stub.RunMatch(pb.RunMatchRequest(
        game="ninja-arena", seats=seats, seed=seed, config_json=config, realtime=True), timeout=WAIT_S * 2)
    return record


@pytest.fixture(autouse=True)
def _needs_ninja_arena() -> None:
    if "ninja-arena" not in {g.id for g in available_games()}:
        pytest.fail("ninja-arena is not built")


def test_two_network_bots_play_in_real_time(harness: ArenaHarness) -> None:
    a, b = RecordingBot(seed=1), RecordingBot(seed=2)
    ca = harness.bot("rt-a", a)
    harness.bot("rt-b", b)
    record = _run(harness, ["remote:rt-a", "remote:rt-b"])
    assert record.termination in ("normal", "adjudication"), record.reason
    log = json.loads(record.replay_json)["realtime_log"]
    assert log and {seat for _, seat, _ in log} == {0, 1}
    assert [ms for ms, _, _ in log] == sorted(ms for ms, _, _ in log)  # the server clock orders arrivals
    assert wait_for(lambda: len(ca.ended) == 1)
    assert ca.ended[0].termination == record.termination
    # Each bot only ever saw its own seat.
    assert all(req.seat == 0 for req, _ in a.requests) and all(req.seat == 1 for req, _ in b.requests)


def test_network_bot_against_a_builtin_and_illegal_indices_are_mistakes(harness: ArenaHarness) -> None:
    harness.bot("rt-net")
    harness.bot("rt-oob", OutOfRangeBot())
    record = _run(harness, ["remote:rt-net", "random"], seed=2)
    assert record.termination in ("normal", "adjudication"), record.reason
    # Out-of-range answers do not forfeit in real time: the game treats them as Mistakes.
    record = _run(harness, ["remote:rt-oob", "random"], seed=3)
    assert record.termination in ("normal", "adjudication"), record.reason
    assert "illegal" in record.replay_json


def test_realtime_is_refused_for_games_without_it(harness: ArenaHarness) -> None:
    with pytest.raises(grpc.RpcError) as err:
        harness.stub.RunMatch(pb.RunMatchRequest(game="sticks", seats=["random", "random"], realtime=True),
                              timeout=WAIT_S)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    games = {g.id: g for g in harness.stub.ListGames(pb.ListGamesRequest(), timeout=WAIT_S).games}
    assert "realtime" in games["ninja-arena"].time_controls
    assert "realtime" not in games["sticks"].time_controls


def test_a_stream_closed_mid_match_forfeits_in_real_time(harness: ArenaHarness) -> None:
    deserter = DesertingBot(moves=3)
    deserter.client = harness.bot("rt-gone", deserter)
    harness.bot("rt-stay")
    record = _run(harness, ["remote:rt-stay", "remote:rt-gone"],
                  config=json.dumps({"min_action_interval_ms": 20, "wall_clock_cap_s": 30}))
    assert (record.termination, record.forfeit_seat) == ("disconnection", 1)


def test_a_watcher_follows_a_realtime_match_as_it_moves(harness: ArenaHarness) -> None:
    """The match plays on the loop; each event a watcher gets is the match's own state at that point."""
    harness.bot("rt-watched")

    def start() -> pb.MatchRecord:
        record: pb.MatchRecord = harness.stub.RunMatch(pb.RunMatchRequest(
            game="ninja-arena", seats=["remote:rt-watched", "random"], seed=6, config_json=FAST, realtime=True,
            match_id="rt-live"), timeout=WAIT_S * 2)
        return record

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        running = pool.submit(start)
        events: list[pb.MatchEvent] = []
        for _ in range(500):  # bounded: until the arena knows the id
            try:
                events = list(harness.stub.Watch(pb.WatchRequest(match_id="rt-live"), timeout=WAIT_S * 2))
                break
            except grpc.RpcError as exc:
                if exc.code() != grpc.StatusCode.NOT_FOUND:
                    raise
                wait_for(lambda: False, 0.01)
        record = running.result(WAIT_S * 2)
    assert events and events[-1].finished and events[-1].record.termination == record.termination
    views = [e.public_view_json for e in events[:-1]]
    assert len(set(views)) > 2  # the views move with the match, not the first state over and over
    assert [e.step for e in events] == sorted(e.step for e in events)
