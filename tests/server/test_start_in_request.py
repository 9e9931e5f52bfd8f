"""Hello.start_in_request: a bot that asks for it gets each match's MatchStarted inside its seat's first
ActionRequest (one message fewer a match); a bot that does not gets the message on its own, as before;
a seat the match never asks still hears the match started, just before it hears it ended."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tests.faults.faultlib import RawBot, reply_bytes
from tests.server.bots import RecordingBot
from tests.server.harness import ArenaHarness, wait_for
from tourney.engine.core import get_game
from tourney.engine.server.generated import arena_pb2 as pb

MATCHES = 4


def _first_legal(request: pb.ActionRequest) -> list[bytes]:
    return [reply_bytes(request.match_id, request.request_id, 0)]


def _silent(request: pb.ActionRequest) -> list[bytes]:
    return []


def _play(harness: ArenaHarness, name: str) -> list[pb.MatchRecord]:
    records = [harness.run_match("tiny-ninjas", [f"remote:{name}", "random"], 40 + i, move_ms=60_000)
               for i in range(MATCHES)]
    assert all(r.termination in ("normal", "adjudication") for r in records), [r.reason for r in records]
    return records


def _starts_in_requests(bot: RawBot) -> dict[str, list[pb.MatchStarted]]:
    """Each match's MatchStarted carried by requests, by match id."""
    out: dict[str, list[pb.MatchStarted]] = {}
    for request in list(bot.requests):
        out.setdefault(request.match_id, [])
        if request.HasField("started"):
            out[request.match_id].append(request.started)
    return out


@pytest.mark.timeout(120)
def test_a_bot_that_asks_gets_match_started_inside_its_first_request(harness: ArenaHarness) -> None:
    new = RawBot(harness.address, "compact", _first_legal, start_in_request=True)
    old = RawBot(harness.address, "classic", _first_legal)
    try:
        compact_records = _play(harness, "compact")
        classic_records = _play(harness, "classic")
        assert wait_for(lambda: len(new.ended) == MATCHES and len(old.ended) == MATCHES)

        kinds = [m.WhichOneof("kind") for m in list(new.received)]
        assert "match_started" not in kinds  # every seat was asked, so no MatchStarted on its own
        starts = _starts_in_requests(new)
        assert sorted(starts) == sorted(r.match_id for r in compact_records)
        for record in compact_records:
            mid = record.match_id
            first = next(r for r in new.requests if r.match_id == mid)
            assert first.HasField("started"), "the first request of each match carries its MatchStarted"
            assert len(starts[mid]) == 1, "and no later request does"
            started = starts[mid][0]
            assert (started.match_id, started.game, started.seat, started.players, list(started.seat_names),
                    started.seed) == (mid, "tiny-ninjas", 0, 2, ["compact", "random"], 0)

        # The bot that did not ask: MatchStarted on its own before each match's first request, none inside.
        assert not any(r.HasField("started") for r in old.requests)
        for record in classic_records:
            about = [m for m in list(old.received) if m.WhichOneof("kind") in ("match_started", "action_request")
                     and getattr(m, str(m.WhichOneof("kind"))).match_id == record.match_id]
            assert about[0].WhichOneof("kind") == "match_started"
            assert [m.WhichOneof("kind") for m in about].count("match_started") == 1
        # Both kinds of bot are told the same thing about a match, whichever way it travels.
        shown_new = {(s.game, s.seat, s.players, s.config_json, s.move_ms, s.realtime)
                     for ss in starts.values() for s in ss}
        shown_old = {(m.match_started.game, m.match_started.seat, m.match_started.players,
                      m.match_started.config_json, m.match_started.move_ms, m.match_started.realtime)
                     for m in list(old.received) if m.WhichOneof("kind") == "match_started"}
        assert shown_new == shown_old
    finally:
        new.close()
        old.close()


@pytest.mark.timeout(120)
def test_a_seat_never_asked_hears_the_start_just_before_the_end(harness: ArenaHarness) -> None:
    """The other seat acts first and never answers: the match ends before this seat's first request."""
    seed = 3
    first_to_act = get_game("tiny-ninjas").new_state(seed, players=2).to_act()
    assert len(first_to_act) == 1
    silent_seat = first_to_act[0]
    compact = RawBot(harness.address, "waiting", _first_legal, start_in_request=True)
    silent = RawBot(harness.address, "silent", _silent)
    try:
        seats = ["remote:silent", "remote:waiting"] if silent_seat == 0 else ["remote:waiting", "remote:silent"]
        record = harness.run_match("tiny-ninjas", seats, seed, move_ms=300)
        assert record.termination == "timeout"
        assert wait_for(lambda: len(compact.ended) == 1)
        assert compact.requests == []
        about = [m for m in list(compact.received) if m.WhichOneof("kind") in ("match_started", "match_ended")]
        assert [m.WhichOneof("kind") for m in about] == ["match_started", "match_ended"]
        assert about[0].match_started.match_id == record.match_id
        assert about[0].match_started.seat == 1 - silent_seat
    finally:
        compact.close()
        silent.close()


class _StartCountingBot(RecordingBot):
    """Counts every on_match_started, and notes a request of a match it had not heard start."""

    def __init__(self) -> None:
        super().__init__(seed=3)
        self.starts: list[str] = []
        self.unannounced: list[str] = []

    def on_match_started(self, message: pb.MatchStarted) -> None:
        self.starts.append(message.match_id)
        super().on_match_started(message)

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
            request: pb.ActionRequest) -> int | None:
        if request.match_id not in self.starts:
            self.unannounced.append(request.match_id)
        return super().act(observation, legal_actions, request)


@pytest.mark.timeout(120)
def test_the_python_sdk_hears_every_start_once_before_acting(harness: ArenaHarness) -> None:
    """The SDK asks for start_in_request and still calls on_match_started once a match, before act."""
    bot = _StartCountingBot()
    client = harness.bot("sdk", bot)
    records = [harness.run_match("tiny-ninjas", ["remote:sdk", "random"], 70 + i, move_ms=60_000)
               for i in range(3)]
    assert wait_for(lambda: len(client.ended) == 3)
    assert bot.starts == [r.match_id for r in records]
    assert bot.requests and bot.unannounced == []


@pytest.mark.timeout(120)
def test_a_bot_in_both_seats_gets_each_seats_own_start_in_that_seats_request(harness: ArenaHarness) -> None:
    both = RawBot(harness.address, "twin", _first_legal, slots=2, start_in_request=True)
    try:
        record = harness.run_match("tiny-ninjas", ["remote:twin", "remote:twin"], 5, move_ms=60_000)
        assert record.termination in ("normal", "adjudication")
        assert wait_for(lambda: len(both.ended) == 2)
        carried = [(r.seat, r.started.seat) for r in both.requests if r.HasField("started")]
        assert sorted(carried) == [(0, 0), (1, 1)]  # one each, never the other seat's
        firsts = {}
        for request in both.requests:
            firsts.setdefault(request.seat, request)
        assert all(request.HasField("started") for request in firsts.values())
    finally:
        both.close()
