"""RunMatches: RunMatch for many matches on one stream (the organiser's token on every request, records as
matches end, at most RUN_MATCHES_IN_FLIGHT matches at once, a refused request ends the stream)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

import grpc
import pytest

from tests.server.bots import RecordingBot
from tests.server.harness import ArenaHarness
from tourney.engine.server import servicer
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb

TOKEN = "organiser-secret"


@pytest.fixture
def organised() -> Iterator[ArenaHarness]:
    h = ArenaHarness(ArenaConfig(allow_anonymous=True, default_move_ms=5000, admin_token=TOKEN))
    try:
        yield h
    finally:
        h.close()


def _ask(match_id: str, seats: list[str], seed: int, game: str = "tiny-ninjas",
         token: str = TOKEN) -> pb.RunMatchRequest:
    return pb.RunMatchRequest(admin_token=token, game=game, seats=seats, seed=seed, match_id=match_id)


def _moves(record: pb.MatchRecord) -> list[list[tuple[int, int]]]:
    """The (seat, action index) of every decision of a record's replay (its think times left out)."""
    return [[(seat, index) for seat, index, *_ in step] for step in json.loads(record.replay_json)["steps"]]


@pytest.mark.timeout(120)
def test_every_match_asked_for_comes_back_as_runmatch_would_record_it(organised: ArenaHarness) -> None:
    organised.bot("net", RecordingBot(seed=1), max_concurrent_matches=4)
    asks = [_ask(f"m{i}", ["remote:net", "random"] if i % 2 else ["random", "greedy"], 100 + i) for i in range(6)]
    records = list(organised.stub.RunMatches(iter(asks), timeout=60))
    assert sorted(r.match_id for r in records) == [f"m{i}" for i in range(6)]
    for record in records:
        assert record.finished and record.full_replay and record.termination in ("normal", "adjudication")
        kept = organised.stub.GetMatch(pb.GetMatchRequest(match_id=record.match_id, admin_token=TOKEN), timeout=30)
        assert kept == record
    # The same match asked with RunMatch plays the same (a match is a pure function of its inputs).
    again = organised.stub.RunMatch(_ask("again", ["random", "greedy"], 100), timeout=60)
    first = next(r for r in records if r.match_id == "m0")
    assert (again.ranks, again.scores, _moves(again)) == (first.ranks, first.scores, _moves(first))


@pytest.mark.timeout(60)
def test_a_wrong_token_is_refused_and_plays_nothing(organised: ArenaHarness) -> None:
    with pytest.raises(grpc.RpcError) as refused:
        list(organised.stub.RunMatches(iter([_ask("x", ["random", "random"], 1, token="guess")]), timeout=30))
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert organised.arena.find_live("x") is None
    # A right first token does not let a later request of the stream through without one.
    asks = [_ask("y", ["random", "random"], 1), _ask("z", ["random", "random"], 2, token="")]
    with pytest.raises(grpc.RpcError) as later:
        list(organised.stub.RunMatches(iter(asks), timeout=30))
    assert later.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert organised.arena.find_live("z") is None


@pytest.mark.timeout(60)
def test_a_request_runmatch_would_refuse_ends_the_stream_with_its_status(organised: ArenaHarness) -> None:
    asks = [_ask("fine", ["random", "random"], 1), _ask("odd", ["random", "random"], 2, game="chess")]
    with pytest.raises(grpc.RpcError) as refused:
        list(organised.stub.RunMatches(iter(asks), timeout=30))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "chess" in str(refused.value.details())
    bad_config = pb.RunMatchRequest(admin_token=TOKEN, game="tiny-ninjas", seats=["random", "random"],
                                    config_json="[1]")
    with pytest.raises(grpc.RpcError) as config:
        list(organised.stub.RunMatches(iter([bad_config]), timeout=30))
    assert config.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "config_json is not a JSON object" in str(config.value.details())


@pytest.mark.timeout(120)
def test_at_most_the_cap_of_matches_are_in_flight(organised: ArenaHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the cap at 2, a stream of 6 slow matches never has more than 2 being played."""
    monkeypatch.setattr(servicer, "RUN_MATCHES_IN_FLIGHT", 2)
    organised.bot("slow", RecordingBot(seed=2, delay_s=0.01), max_concurrent_matches=8)
    most = [0]
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.005):  # stops with the stream; the test's timeout bounds it otherwise
            most[0] = max(most[0], len(organised.arena.live_match_ids()))

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        asks = [_ask(f"s{i}", ["remote:slow", "random"], 300 + i) for i in range(6)]
        records = list(organised.stub.RunMatches(iter(asks), timeout=90))
    finally:
        done.set()
        watcher.join(10)
    assert sorted(r.match_id for r in records) == [f"s{i}" for i in range(6)]
    assert 1 <= most[0] <= 2
