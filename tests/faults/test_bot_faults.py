"""Hostile and broken bots on a real loopback arena: each fault ends only the faulty bot's match,
with the referee's typed reason, while other matches in flight finish normally and every
finished match is stored once.

Builds on tests/server/test_faults.py (which covers a silent bot, index == len(legal), a
dropped stream and garbage before Hello on the test game) with Tiny Ninjas, concurrent good
matches, storage checks and the faults that file does not cover.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import pytest

from tests.faults.faultlib import GAME, RawBot, check_stored, reply_bytes, with_good_matches
from tests.server.bots import DesertingBot, RecordingBot, SilentBot
from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tourney.engine.server.client import Bot, BotClient
from tourney.engine.server.generated import arena_pb2 as pb


def test_a_bot_that_never_replies_forfeits_on_time_and_is_stored(harness: ArenaHarness) -> None:
    harness.bot("silent", SilentBot())
    bad, _ = with_good_matches(harness, lambda: harness.run_match(GAME, ["random", "remote:silent"], 1, 200))
    assert (bad.termination, bad.forfeit_seat, list(bad.ranks)) == ("timeout", 1, [1, 2])


class LateBot(Bot):
    """Answers every request, but only after sleeping `delay_s` (longer than the time limit)."""

    def __init__(self, delay_s: float) -> None:
        self.delay_s = delay_s

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
            request: pb.ActionRequest) -> int | None:
        time.sleep(self.delay_s)
        return 0


def test_a_late_reply_is_a_timeout_and_the_late_answer_is_refused(harness: ArenaHarness) -> None:
    late = harness.bot("late", LateBot(0.6), max_concurrent_matches=2)
    bad, _ = with_good_matches(harness, lambda: harness.run_match(GAME, ["remote:late", "random"], 2, 150))
    assert (bad.termination, bad.forfeit_seat) == ("timeout", 0)
    # The reply that came after the deadline is not applied anywhere: it is an unknown request.
    assert wait_for(lambda: any(e.code == "unknown_request" and e.match_id == bad.match_id for e in late.errors))
    assert [e.termination for e in late.ended] == ["timeout"]


# On the wire a negative int64 and a 40-bit value both arrive as uint32 0xFFFFFFFF (protobuf truncates).
@pytest.mark.parametrize(("label", "index"), [("one past the end", None), ("negative", -1),
                                              ("huge", 2**32 - 1), ("beyond uint32", 2**40 - 1)])
def test_out_of_range_indices_are_illegal_moves(harness: ArenaHarness, label: str, index: int | None) -> None:
    def answer(request: pb.ActionRequest) -> list[bytes]:
        chosen = len(request.legal_actions) if index is None else index
        return [reply_bytes(request.match_id, request.request_id, chosen)]

    raw = RawBot(harness.address, "wild", answer)
    try:
        bad, _ = with_good_matches(harness, lambda: harness.run_match(GAME, ["random", "remote:wild"], 3))
        assert (bad.termination, bad.forfeit_seat, list(bad.ranks)) == ("illegal_move", 1, [1, 2]), label
        assert wait_for(lambda: "illegal_move" in raw.codes())
        assert wait_for(lambda: [e.termination for e in raw.ended] == ["illegal_move"])
    finally:
        raw.close()


def test_ninja_arena_turns_a_huge_index_into_a_mistake_not_a_forfeit(harness: ArenaHarness) -> None:
    raw = RawBot(harness.address, "wild", lambda r: [reply_bytes(r.match_id, r.request_id, 2**32 - 1)])
    try:
        bad, _ = with_good_matches(harness, lambda: harness.run_match("ninja-arena", ["remote:wild", "random"], 4))
        # Ninja Arena rules on illegal actions itself (a Mistake): the match goes on to its end.
        assert bad.termination in ("normal", "adjudication") and bad.forfeit_seat == -1
        assert '"illegal_move"' in bad.replay_json
    finally:
        raw.close()


def test_replies_to_other_bots_requests_or_other_matches_change_nothing(harness: ArenaHarness) -> None:
    # Seven strays per decision would get the intruder cut off (rate_limited, see test_hostile_clients):
    # here the point is what a stray changes, so the budget is lifted.
    harness.arena.config.bad_message_burst = 1_000_000
    victim = RecordingBot(seed=5, delay_s=0.02)
    harness.bot("victim", victim)
    victim_matches: list[str] = []

    def answer(request: pb.ActionRequest) -> list[bytes]:
        # Before its own (legal) answer, the intruder answers for the victim's match with every
        # request id the victim could be waiting on, and for its own match with ids not yet issued.
        strays = [reply_bytes(m, i, 0) for m in victim_matches for i in range(1, 6)]
        strays += [reply_bytes(request.match_id, request.request_id + k, 0) for k in (1, 50)]
        return [*strays, reply_bytes(request.match_id, request.request_id, 0)]

    raw = RawBot(harness.address, "intruder", answer)
    try:
        import concurrent.futures

        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            victim_matches.append("victim-match")
            v = pool.submit(harness.run_match, GAME, ["remote:victim", "random"], 6, 0, "", "", 0, "victim-match")
            assert wait_for(lambda: bool(victim.requests))
            intruder = pool.submit(harness.run_match, GAME, ["remote:intruder", "random"], 7)
            v_record, i_record = v.result(WAIT_S * 2), intruder.result(WAIT_S * 2)
        # Both matches are played to their end: the strays were refused, not applied.
        assert v_record.termination in ("normal", "adjudication") and v_record.forfeit_seat == -1
        assert i_record.termination in ("normal", "adjudication") and i_record.forfeit_seat == -1
        assert wait_for(lambda: raw.codes().count("unknown_request") >= 2 * len(raw.requests))
        assert all(e.code == "unknown_request" for e in raw.errors)
        # Every decision of the victim in the replay is the one the victim itself sent.
        import json

        steps = json.loads(v_record.replay_json)["steps"]
        victim_decisions = [d for step in steps for d in step if d[0] == 0]
        assert len(victim_decisions) == len([r for r, _ in victim.requests if r.match_id == "victim-match"])
        check_stored(harness, [v_record, i_record])
    finally:
        raw.close()


def test_garbage_bytes_mid_match_get_error_reports_and_the_match_goes_on(harness: ArenaHarness) -> None:
    garbage = [b"\xff\xff\xff\xff", b"\x12\x05\x0a\x10", b"\x0a" + b"\x80" * 12]

    def answer(request: pb.ActionRequest) -> list[bytes]:
        return [garbage[request.request_id % len(garbage)], reply_bytes(request.match_id, request.request_id, 0)]

    raw = RawBot(harness.address, "noisy", answer)
    try:
        bad, _ = with_good_matches(harness, lambda: harness.run_match(GAME, ["remote:noisy", "random"], 8))
        assert bad.termination in ("normal", "adjudication") and bad.forfeit_seat == -1
        assert wait_for(lambda: raw.codes().count("malformed") == len(raw.requests))
    finally:
        raw.close()


def test_garbage_instead_of_a_reply_is_a_timeout(harness: ArenaHarness) -> None:
    raw = RawBot(harness.address, "babbler", lambda r: [b"\xde\xad\xbe\xef"])
    try:
        bad, _ = with_good_matches(harness, lambda: harness.run_match(GAME, ["remote:babbler", "random"], 9, 200))
        assert (bad.termination, bad.forfeit_seat) == ("timeout", 0)
        assert "malformed" in raw.codes()
    finally:
        raw.close()


def test_a_100_mb_message_cuts_only_that_bot_which_forfeits_by_disconnection(harness: ArenaHarness) -> None:
    huge = "x" * (100 * 1024 * 1024)
    sent: list[bool] = []

    def answer(request: pb.ActionRequest) -> list[bytes]:
        if sent:
            return [reply_bytes(request.match_id, request.request_id, 0)]
        sent.append(True)
        return [reply_bytes(huge, request.request_id, 0)]

    raw = RawBot(harness.address, "flooder", answer)
    try:
        bad, _ = with_good_matches(harness, lambda: harness.run_match(GAME, ["remote:flooder", "random"], 10))
        assert (bad.termination, bad.forfeit_seat) == ("disconnection", 0)
        assert raw.finished.wait(WAIT_S) and raw.failure is not None  # the arena refused the message
        assert not harness.arena.connected("flooder")
    finally:
        raw.close()


def test_a_bot_that_drops_mid_match_can_reconnect_and_play_on(harness: ArenaHarness) -> None:
    deserter = DesertingBot(moves=2)
    first = harness.bot("phoenix", deserter)
    deserter.client = first
    bad, _ = with_good_matches(harness, lambda: harness.run_match(GAME, ["remote:phoenix", "random"], 11))
    assert (bad.termination, bad.forfeit_seat) == ("disconnection", 0)
    assert wait_for(lambda: not harness.arena.connected("phoenix"))
    second = harness.bot("phoenix")
    again, _ = with_good_matches(harness, lambda: harness.run_match(GAME, ["random", "remote:phoenix"], 12))
    assert again.termination in ("normal", "adjudication") and again.forfeit_seat == -1
    assert len(harness.arena.connected("phoenix")) == 1 and [e.match_id for e in second.ended] == [again.match_id]


def test_a_bot_that_raises_in_act_is_ruled_out_on_time(harness: ArenaHarness) -> None:
    class Buggy(Bot):
        def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
                request: pb.ActionRequest) -> int | None:
            raise ZeroDivisionError("bot bug")

    client = BotClient(harness.address, Buggy(), name="buggy")
    harness.clients.append((client, _start(client)))
    assert client.connected.wait(WAIT_S)
    bad, _ = with_good_matches(harness, lambda: harness.run_match(GAME, ["remote:buggy", "random"], 13, 200))
    assert (bad.termination, bad.forfeit_seat) == ("timeout", 0)


def _start(client: BotClient) -> Any:
    import threading

    thread = threading.Thread(target=lambda: _quiet(client), daemon=True)
    thread.start()
    return thread


def _quiet(client: BotClient) -> None:
    import contextlib

    with contextlib.suppress(Exception):  # the stream may be cancelled at teardown
        client.run()
