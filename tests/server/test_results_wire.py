"""A finished match to the proto record and back (engine/server/results.py): nothing a tournament stores changes."""

from __future__ import annotations

import pytest

import tests.sticks  # noqa: F401  (registers the test game)
from tourney.engine.bots import make_bot
from tourney.engine.core import DecisionRequest, Termination, get_game
from tourney.engine.referee import MatchResult, play_match
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.results import ranking_of, ranks_of, record_of, result_of, seat_points

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
    for got, want in zip(back.seat_stats, result.seat_stats, strict=True):
        assert (got.decisions, got.faults) == (want.decisions, want.faults)
        assert got.think_s == pytest.approx(want.think_s, abs=1e-3 * max(1, want.decisions))


def test_a_forfeit_keeps_its_kind_seat_and_fault_count() -> None:
    result = played(4, make_bot("random", GAME, 1), Illegal())
    back = result_of(record_of("m2", ["a", "b"], result))
    assert back.termination is Termination.ILLEGAL_MOVE and back.forfeit_seat == 1
    assert back.ranking == ((0,), (1,)) and back.seat_stats[1].faults == {Termination.ILLEGAL_MOVE: 1}
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


def test_ranks_and_tiers_are_two_views_of_one_ranking() -> None:
    for ranking in (((0,), (1,)), ((1,), (0,)), ((0, 1), (2,)), ((2,), (0, 1)), ((0, 1, 2),)):
        players = sum(len(t) for t in ranking)
        assert ranking_of(ranks_of(ranking, players)) == tuple(tuple(sorted(t)) for t in ranking)
    assert ranks_of(((0, 1), (2,)), 3) == [1, 1, 3]
