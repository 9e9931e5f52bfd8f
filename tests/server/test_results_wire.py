"""A finished match to the proto record and back (engine/server/results.py): nothing a tournament stores changes."""

from __future__ import annotations

from dataclasses import replace

import pytest

import tests.sticks  # noqa: F401  (registers the test game)
from tourney.engine.bots import make_bot
from tourney.engine.core import DecisionRequest, Termination, get_game, jsonable
from tourney.engine.referee import MatchResult, play_match
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.records import ended_message, ended_messages, without_replay
from tourney.engine.server.results import (
    ranks_of,
    record_of,
    result_of,
    seat_of,
    seat_points,
    termination_from,
    termination_message,
)

GAME = get_game("sticks")


class Illegal:
    def act(self, request: DecisionRequest) -> int:
        return len(request.legal)  # one past the end: an illegal move, a forfeit


def played(seed: int, *seats: object) -> MatchResult:
    return play_match("sticks", list(seats), seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_match_comes_back_from_the_wire_as_it_was_played(seed: int) -> None:
    result = played(seed, make_bot("random", GAME, seed), make_bot("greedy", GAME, seed + 1))
    back = result_of(record_of("m1", ["a", "b"], result))
    assert (back.ranking, back.scores, back.termination, back.reason, back.seed, back.players) == \
        (result.ranking, result.scores, result.termination, result.reason, result.seed, result.players)
    assert [back.points(s) for s in range(2)] == [result.points(s) for s in range(2)]
    assert back.replay.to_dict() == result.replay.to_dict()
    # the record is the result's image: every field comes back as it was, the arena's id added to the details
    assert back == replace(result, details={**jsonable(result.details), "arena_match_id": "m1"})


def test_every_termination_has_its_own_wire_value_and_comes_back() -> None:
    values = {termination_message(t) for t in Termination}
    assert len(values) == len(Termination) and pb.TERMINATION_UNSPECIFIED not in values
    for t in Termination:
        assert termination_from(pb.MatchRecord(termination_kind=termination_message(t))) is t
        assert termination_from(pb.MatchRecord(termination=str(t))) is t  # an older arena's string alone


def test_a_bot_is_told_every_seat_result_and_the_typed_termination() -> None:
    result = played(5, make_bot("random", GAME, 1), Illegal())
    record = record_of("m5", ["a", "b"], result)
    ended = ended_message(record, 0)
    # every seat's place, points and faults; the clocks stay the organiser's
    assert [seat_of(s) for s in ended.seats] == [replace(s, decisions=0, think_s=0.0) for s in result.seats]
    assert result.seats[0].decisions > 0
    assert ended.termination_kind == pb.TERMINATION_ILLEGAL_MOVE and ended.termination == "illegal_move"
    assert list(ended.ranks) == [1, 2] and ended.points == 1.0  # the older fields still say the same


def test_each_seat_is_sent_the_bytes_its_own_ended_message_had() -> None:
    # ended_messages builds what the seats share once: each message must still be what one built field by
    # field from the record gives, byte for byte (seat 0's zero seat and a seat's zero points included)
    result = played(6, make_bot("random", GAME, 1), Illegal())
    record = record_of("m7", ["a", "b"], result)
    for seat, ended in zip([1, 0, 1], ended_messages(record, [1, 0, 1]), strict=True):
        by_hand = pb.MatchEnded(match_id="m7", ranks=list(record.ranks), scores=list(record.scores),
                                reason=record.reason, seat=seat, termination=record.termination,
                                points=record.seats[seat].points, forfeit_seat=record.forfeit_seat,
                                seats=[pb.SeatResult(tier=s.tier, tier_size=s.tier_size, score=s.score, points=s.points,
                                                     faults=s.faults) for s in record.seats],
                                termination_kind=record.termination_kind)
        assert ended.SerializeToString(deterministic=True) == by_hand.SerializeToString(deterministic=True)
        assert ended.SerializeToString() == ended_message(record, seat).SerializeToString()
    assert [e.points for e in ended_messages(record, [0, 1])] == [1.0, 0.0]
    assert record.seats[0].decisions > 0  # the record keeps its clocks


def test_the_public_record_drops_the_details_with_the_seed_and_replay() -> None:
    result = play_match("tiny-ninjas", [make_bot("random", get_game("tiny-ninjas"), s) for s in (1, 2)], seed=3)
    record = record_of("m6", ["a", "b"], result)
    assert record.details_json
    public = without_replay(record)
    assert (public.details_json, public.replay_json, public.seed) == ("", "", 0)
    assert [(s.tier, s.tier_size, s.points, s.score, dict(s.faults)) for s in public.seats] == \
        [(s.tier, s.tier_size, s.points, s.score, dict(s.faults)) for s in record.seats]
    assert all(s.decisions == 0 and s.think_s == 0.0 for s in public.seats)
    assert any(s.think_s > 0.0 for s in record.seats)


def test_a_forfeit_keeps_its_kind_seat_and_fault_count() -> None:
    result = played(4, make_bot("random", GAME, 1), Illegal())
    back = result_of(record_of("m2", ["a", "b"], result))
    assert back.termination is Termination.ILLEGAL_MOVE and back.forfeit_seat == 1
    assert back.ranking == ((0,), (1,)) and back.seats[1].faults == {Termination.ILLEGAL_MOVE: 1}
    assert seat_points(record_of("m2", ["a", "b"], result), 0) == 1.0


def test_an_aborted_match_is_void_and_scores_nobody() -> None:
    record = pb.MatchRecord(match_id="m3", game="sticks", seat_names=["a", "b"], seed=9,
                            termination=Termination.ABORTED, reason="aborted: ValueError: bad")
    back = result_of(record)
    assert back.termination is Termination.ABORTED and back.ranking == ((0, 1),)
    assert [back.points(s) for s in range(2)] == [0.0, 0.0] == [seat_points(record, s) for s in range(2)]


def test_a_termination_this_version_does_not_know_makes_the_match_void_not_a_crash() -> None:
    record = pb.MatchRecord(match_id="m4", game="sticks", seat_names=["a", "b"], seed=9, ranks=[1, 2],
                            scores=[1.0, 0.0], termination="meteor_strike", reason="a kind from the future")
    back = result_of(record)
    assert back.termination is Termination.ABORTED and back.reason == "a kind from the future"
    assert [back.points(s) for s in range(2)] == [0.0, 0.0]


def test_the_older_ranks_are_read_from_the_tiers() -> None:
    # 1 + the seats placed strictly above: a shared place shares its rank, the next skips past it
    assert ranks_of(((0, 1), (2,)), 3) == [1, 1, 3]
    assert ranks_of(((2,), (0, 1)), 3) == [2, 2, 1]
    assert ranks_of(((1,), (0,)), 2) == [2, 1]
    result = played(6, make_bot("random", GAME, 1), Illegal())
    record = record_of("m7", ["a", "b"], result)
    assert list(record.ranks) == [1 + sum(t.tier < s.tier for t in record.seats) for s in record.seats] == [1, 2]
