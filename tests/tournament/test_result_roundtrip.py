"""The one MatchResult written to a real SQLite store and read back (tournament/store/results.py) is the
result that was played: every seat's tier, tier size, score, points, decisions, thinking time and faults,
the termination, reason, forfeit seat, details and replay."""

from __future__ import annotations

import pickle
import pickletools
from dataclasses import replace

import pytest

import tests.sticks  # noqa: F401  (registers the fast test game)
from tourney.engine.bots import make_bot
from tourney.engine.core import DecisionRequest, MatchResult, SeatStats, Termination, forfeit, get_game, jsonable
from tourney.engine.referee import play_match
from tourney.tournament.entrants import Entrant
from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.runner import TournamentPlan
from tourney.tournament.store.database import open_store
from tourney.tournament.store.reads import stored_matches
from tourney.tournament.store.records import BYE_SEED, match_record, unplayed
from tourney.tournament.store.results import stored_result
from tourney.tournament.store.writes import create_tournament, record_matches


class Illegal:
    """Answers one past the end of the legal list: an illegal move, a forfeit."""

    def act(self, request: DecisionRequest) -> int:
        return len(request.legal)


def as_stored(result: MatchResult) -> MatchResult:
    """The result with its details in the JSON form they are stored in (tuples as lists)."""
    return replace(result, details=jsonable(result.details))


def results() -> list[MatchResult]:
    sticks, tiny = get_game("sticks"), get_game("tiny-ninjas")
    return [
        play_match("sticks", [make_bot("random", sticks, 1), make_bot("greedy", sticks, 2)], seed=11),
        play_match("sticks", [make_bot("random", sticks, 3), Illegal()], seed=12),  # type: ignore[list-item]
        play_match("tiny-ninjas", [make_bot("greedy", tiny, 4), make_bot("random", tiny, 5)], seed=13),
    ]


@pytest.mark.parametrize("index", [0, 1, 2])
def test_a_result_reads_back_from_the_store_as_it_was_played(tmp_path, index: int) -> None:
    result = results()[index]
    plan = TournamentPlan(game=result.game_id, entrants=[Entrant("a", "random"), Entrant("b", "greedy")],
                          seed=1, seed_key="roundtrip-key")
    engine = open_store(str(tmp_path / "t.db"))
    tid = create_tournament(engine, plan)
    record_matches(engine, tid, plan, [(Pairing(0, 0, (0, 1), 0), match_record(["a", "b"], result), 0.5)])
    [(match, _)] = stored_matches(engine, tid)
    assert match.id is not None
    back = stored_result(engine, match.id)
    assert back is not None
    aliases, read = back
    assert aliases == ["a", "b"]
    assert read == as_stored(result)
    if index == 1:  # the forfeit: the culprit, its fault and its place come back
        assert read.forfeit_seat == 1 and read.termination is Termination.ILLEGAL_MOVE
        assert read.seats[1].faults == {Termination.ILLEGAL_MOVE: 1} and read.seats[1].tier == 1
    assert [s.tier_size for s in read.seats] == [len(t) for t in result.ranking for _ in t]


def test_a_bye_reads_back_as_a_bye_termination(tmp_path) -> None:
    plan = TournamentPlan(game="sticks", entrants=[Entrant("a", "random"), Entrant("b", "greedy"),
                                                   Entrant("c", "random")], seed=1, seed_key="roundtrip-key")
    engine = open_store(str(tmp_path / "t.db"))
    tid = create_tournament(engine, plan)
    record_matches(engine, tid, plan, [], [Pairing(0, 0, (2,), BYE_SEED)])
    [(match, _)] = stored_matches(engine, tid)
    assert match.id is not None and match.termination == "BYE"  # spelled as every store has it
    back = stored_result(engine, match.id)
    assert back is not None
    aliases, read = back
    assert aliases == ["c"] and read.termination is Termination.BYE and read.seed == BYE_SEED
    # alone in first place, worth a win for every game of the pairing it did not play
    assert (read.seats[0].tier, read.seats[0].tier_size, read.seats[0].points) == (0, 1, float(plan.games_per_pair))


def test_a_missing_match_reads_as_none(tmp_path) -> None:
    assert stored_result(open_store(str(tmp_path / "t.db")), 12345) is None


def test_an_unplayed_forfeit_reads_back_with_its_culprit(tmp_path) -> None:
    """A league match not played because seat 1's bot was offline: recorded, never played, read back whole."""
    plan = TournamentPlan(game="sticks", entrants=[Entrant("a", "random"), Entrant("b", "greedy")], seed=1,
                          seed_key="roundtrip-key")
    offline = SeatStats(faults={Termination.DISCONNECTION: 1})
    record = unplayed("sticks", ("a", "b"), forfeit(2, (1,), "offline: seat 1"), Termination.DISCONNECTION,
                      (SeatStats(), offline), (1.0, 0.0), '{"forfeit":true}')
    assert record.result.forfeit_seat == 1
    engine = open_store(str(tmp_path / "t.db"))
    tid = create_tournament(engine, plan)
    record_matches(engine, tid, plan, [(Pairing(0, 0, (0, 1), 0), record, 0.0)])
    [(match, _)] = stored_matches(engine, tid)
    assert match.id is not None
    back = stored_result(engine, match.id)
    assert back is not None
    assert back[1] == replace(record.result, details={"forfeit": True})


@pytest.mark.parametrize("index", [0, 1, 2])
def test_a_record_travels_from_a_worker_as_plain_values_and_keeps_its_result(index: int) -> None:
    """What a Ray worker pickles is the record's plain values (no result object to rebuild in the driver),
    and the record unpickled gives back the same result: every seat (the forfeit's fault included), the
    termination, forfeit seat and the replay's inputs; only the steps and details live in their stored form."""
    result = results()[index]
    record = match_record(["a", "b"], result)
    packed = pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)
    names = {arg for _, arg, _ in pickletools.genops(packed) if isinstance(arg, str)}  # the globals' names among them
    assert not names & {"MatchResult", "SeatResult", "Replay", "Termination"}
    back = pickle.loads(packed)  # noqa: S301  (our own bytes)
    assert back == record and back is not record
    assert back.result == replace(result, replay=replace(result.replay, steps=[]), details={})
    assert back.termination is result.termination and back.seats == result.seats
    assert back.plies == len(result.replay.steps) and back.players == len(result.seats)
