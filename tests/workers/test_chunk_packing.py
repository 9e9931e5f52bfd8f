"""A Ray chunk's results travel as the records' plain values (marshalled) where they can, else pickled: either way
the driver gets back exactly the records that were played, each with its pairing and seconds."""

from __future__ import annotations

import pickle

from tourney.engine.core import Termination
from tourney.tournament.entrants import Entrant
from tourney.tournament.plan import TournamentPlan
from tourney.tournament.store.records import from_values
from tourney.workers.ray_tasks import pack_chunk, play_chunk, unpack_chunk


def plan_of(games: int) -> TournamentPlan:
    return TournamentPlan(game="tiny-ninjas", entrants=[Entrant("r", "random"), Entrant("g", "greedy")], seed=4,
                          games_per_pair=games, seed_key="chunk-packing-test-key")


def played_here(games: int = 6) -> tuple[list, list]:
    plan = plan_of(games)
    pairings = plan.schedule()
    return pairings, [plan.play(p) for p in pairings]


def test_a_chunk_comes_back_as_the_records_played_with_their_pairings_and_seconds():
    pairings, played = played_here()
    sent = [p[1:] for p in played]
    rebuild, _ = pickle.loads(pack_chunk(sent))
    assert rebuild is from_values  # the marshalled form: values and the function that rebuilds them
    back = unpack_chunk(pack_chunk(sent), pairings)
    assert back == played  # records equal by every value, the same seconds, each beside its own pairing
    assert [type(v) for v in back[0][1].values()] == [type(v) for v in played[0][1].values()]
    # A worker's chunk unpacks to the same matches (the clocks aside: think times are measured again).
    def outcome(p):
        return p[0], p[1].seed, p[1].reason, [s[:2] for s in p[1].seat_values], p[1].plies, p[1].achievements
    from_worker = unpack_chunk(play_chunk(plan_of(6), pairings), pairings)
    assert [outcome(p) for p in from_worker] == [outcome(p) for p in played]


def test_a_value_marshal_cannot_write_sends_the_chunk_pickled_and_keeps_its_type():
    pairings, played = played_here(2)
    odd = played[0][1].values()
    # A StrEnum where a str was: marshal writes only exact types, so this chunk must go as a pickle.
    strange = from_values(*odd[:4], Termination.NORMAL, *odd[5:])
    sent = [(strange, 0.25), played[1][1:]]
    rebuild, _ = pickle.loads(pack_chunk(sent))
    assert rebuild is None
    back = unpack_chunk(pack_chunk(sent), pairings[:2])
    assert back[0][1] == strange and type(back[0][1].reason) is Termination and back[0][2] == 0.25
    assert back[1] == (pairings[1], *played[1][1:])


def test_records_that_are_plain_tuples_are_pickled_as_they_are():
    sent = [((3, (0.5, 0.75, 41)), 0.25), ((4, (0.75, 1.0, 41)), 0.25)]  # what a stand-in plan's play returns
    rebuild, _ = pickle.loads(pack_chunk(sent))
    assert rebuild is None
    assert unpack_chunk(pack_chunk(sent), ["a", "b"]) == [("a", *sent[0]), ("b", *sent[1])]
