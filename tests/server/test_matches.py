"""Whole matches over real loopback gRPC: network bots against each other and against built-ins."""

from __future__ import annotations

import concurrent.futures
import json

import grpc
import pytest

from tests.server.bots import RecordingBot
from tests.server.harness import ArenaHarness, wait_for
from tourney.engine.core import available_games
from tourney.engine.referee import Replay, replay_match
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb

BUILT = [g.id for g in available_games()]


def test_two_network_bots_play_a_full_match(harness: ArenaHarness) -> None:
    alice = harness.bot("alice")
    bob = harness.bot("bob")
    record = harness.run_match("sticks", ["remote:alice", "remote:bob"], seed=3)
    assert record.termination == "normal"
    assert sorted(record.ranks) == [1, 2]
    assert list(record.seat_names) == ["alice", "bob"]
    assert alice.requests > 0 and bob.requests > 0
    # Both bots were told the result, each with its own seat.
    assert wait_for(lambda: len(alice.ended) == 1 and len(bob.ended) == 1)
    assert [(e.match_id, e.seat) for e in alice.ended] == [(record.match_id, 0)]
    assert [(e.match_id, e.seat) for e in bob.ended] == [(record.match_id, 1)]


@pytest.mark.parametrize("game", BUILT)
def test_network_bot_plays_every_built_game_against_a_builtin(harness: ArenaHarness, game: str) -> None:
    harness.bot("net", RecordingBot(seed=5))
    for seed, seats in ((1, ["remote:net", "random"]), (2, ["random", "net"])):
        record = harness.run_match(game, seats, seed=seed)
        assert record.termination in ("normal", "adjudication"), record.reason
        # The replay in the record reproduces the result without the bots.
        again = replay_match(Replay.from_dict(json.loads(record.replay_json)))
        assert list(record.scores) == [float(s) for s in again.scores]
        assert again.termination == record.termination


def test_get_match_returns_the_finished_record(harness: ArenaHarness) -> None:
    record = harness.run_match("sticks", ["random", "random"], seed=9)
    got = harness.stub.GetMatch(pb.GetMatchRequest(match_id=record.match_id), timeout=10)
    assert got == record
    with pytest.raises(grpc.RpcError) as err:
        harness.stub.GetMatch(pb.GetMatchRequest(match_id="nope"), timeout=10)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND


def test_list_games_lists_the_registry(harness: ArenaHarness) -> None:
    games = {g.id: g for g in harness.stub.ListGames(pb.ListGamesRequest(), timeout=10).games}
    assert set(BUILT) <= set(games)
    assert games["sticks"].min_players == 2 and games["sticks"].max_players == 3
    assert "random" in games["sticks"].builtin_bots


def test_many_matches_share_one_stream(harness: ArenaHarness) -> None:
    bot = harness.bot("multi", RecordingBot(seed=1), max_concurrent_matches=8)
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        # Four matches against built-ins, and four where the bot sits on both seats.
        seatings = [["remote:multi", "random"]] * 4 + [["remote:multi", "remote:multi"]] * 4
        records = list(pool.map(lambda i: harness.run_match("sticks", seatings[i], seed=i), range(8)))
    assert all(r.termination == "normal" for r in records)
    assert len({r.match_id for r in records}) == 8
    # One MatchEnded per seat the bot held: 4 + 2 * 4.
    assert wait_for(lambda: len(bot.ended) >= 12)
    assert len(bot.ended) == 12
    assert {e.match_id for e in bot.ended} == {r.match_id for r in records}


def test_fifty_concurrent_matches_finish() -> None:
    # The 50 RunMatch calls share this harness's one connection: a bots' listener resets streams past its
    # cap (tests/security/test_stream_caps.py), so here the cap allows them, as the organiser's listener does.
    harness = ArenaHarness(ArenaConfig(allow_anonymous=True, default_move_ms=5000, calls_per_connection=64,
                                       streams_per_connection=64))
    try:
        for name in ("p", "q"):
            harness.bot(name, max_concurrent_matches=50)
        with concurrent.futures.ThreadPoolExecutor(50) as pool:
            records = list(pool.map(
                lambda i: harness.run_match("sticks", ["remote:p", "remote:q" if i % 2 else "greedy"], seed=i),
                range(50),
            ))
        assert [r.termination for r in records] == ["normal"] * 50
    finally:
        harness.close()


def test_unknown_remote_bot_and_bad_requests_are_refused(harness: ArenaHarness) -> None:
    with pytest.raises(grpc.RpcError) as err:
        harness.run_match("sticks", ["remote:ghost", "random"], wait_s=1)
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    with pytest.raises(grpc.RpcError) as err:
        harness.run_match("no-such-game", ["random", "random"])
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.RpcError) as err:
        harness.run_match("sticks", ["random"] * 5)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.RpcError) as err:
        harness.run_match("sticks", ["random", "random"], config_json="[1]")
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT


class _CountingBot(RecordingBot):
    """Tracks how many matches it sits in at once."""

    def __init__(self) -> None:
        super().__init__(seed=3, delay_s=0.002)
        self.now = 0
        self.most = 0

    def on_match_started(self, message: pb.MatchStarted) -> None:
        super().on_match_started(message)
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)

    def on_match_ended(self, message: pb.MatchEnded) -> None:
        with self.lock:
            self.now -= 1


def test_max_concurrent_matches_is_respected(harness: ArenaHarness) -> None:
    bot = _CountingBot()
    client = harness.bot("one-at-a-time", bot, max_concurrent_matches=1)
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        records = list(pool.map(
            lambda i: harness.run_match("sticks", ["remote:one-at-a-time", "random"], seed=i, wait_s=60), range(3)))
    assert [r.termination for r in records] == ["normal"] * 3
    assert wait_for(lambda: len(client.ended) == 3)
    assert bot.most == 1


def test_a_caller_who_hangs_up_does_not_abort_the_match(harness: ArenaHarness) -> None:
    client = harness.bot("slowpoke", RecordingBot(seed=4, delay_s=0.05))
    with pytest.raises(grpc.RpcError) as err:
        harness.stub.RunMatch(pb.RunMatchRequest(game="sticks", seats=["remote:slowpoke", "random"], seed=1,
                                                 match_id="abandoned"), timeout=0.1)
    assert err.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert wait_for(lambda: len(client.ended) == 1)
    record = harness.stub.GetMatch(pb.GetMatchRequest(match_id="abandoned"), timeout=10)
    assert record.termination == "normal"
