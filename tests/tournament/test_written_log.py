"""The log a fresh run keeps as it writes (store.written_log) is the log the store gives back: the same seats, in
schedule order, whatever order the batches came in, with byes, duplicates, faults and solo matches."""

from __future__ import annotations

import random
from pathlib import Path

import tests.sticks  # noqa: F401  (registers the fast test game)
from tourney.tournament.entrants import Entrant
from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.runner import TournamentPlan
from tourney.tournament.store.database import open_store
from tourney.tournament.store.reads import load_match_log
from tourney.tournament.store.records import Played
from tourney.tournament.store.writes import bye_records, create_tournament, record_matches
from tourney.tournament.store.written_log import WrittenLog
from tourney.workers import LocalExecutor

KEY = "written-log-test-key"


def played_matches(plan: TournamentPlan) -> list[Played]:
    return [p for chunk in LocalExecutor().run(plan, plan.schedule()) for p in chunk]


def with_faults(item: Played) -> Played:
    """The same match with faults charged to its first seat (a bot that timed out twice, say)."""
    pairing, record, seconds = item
    first, *rest = record.seat_values
    record.seat_values = ((*first[:6], {"timeout": 2, "illegal": 1}), *rest)
    return pairing, record, seconds


def kept_and_stored(tmp_path: Path, plan: TournamentPlan, batches: list[list[Played]],
                    byes: list[Pairing] = ()) -> tuple[list[object], list[object]]:
    engine = open_store(str(tmp_path / "log.db"))
    tid = create_tournament(engine, plan)
    kept = WrittenLog()
    if byes:
        record_matches(engine, tid, plan, [], byes)
        kept.add(bye_records(plan, byes))
    for batch in batches:
        record_matches(engine, tid, plan, batch)
        kept.add(batch)
    return list(kept.log()), list(load_match_log(engine, tid))


def test_batches_out_of_order_with_a_duplicate_and_faults_keep_the_stored_log(tmp_path: Path) -> None:
    plan = TournamentPlan(game="tiny-ninjas", entrants=[Entrant("r", "random"), Entrant("g", "greedy"),
                                                        Entrant("r2", "random")], seed=3, games_per_pair=4,
                          seed_key=KEY)
    played = played_matches(plan)
    played[1] = with_faults(played[1])
    batches = [played[i:i + 3] for i in range(0, len(played), 3)]
    random.Random(7).shuffle(batches)  # as Ray's chunks arrive
    batches.append([played[4], played[0]])  # a chunk delivered twice: stored once, kept once
    kept, stored = kept_and_stored(tmp_path, plan, batches)
    assert len(stored) == len(played)
    assert kept == stored
    assert any(seat.faults == 3 for match in kept for seat in match)


def test_byes_and_solo_seats_are_kept_as_stored(tmp_path: Path) -> None:
    solo = TournamentPlan(game="tiny-ninjas", entrants=[Entrant("r", "random"), Entrant("g", "greedy")], seed=2,
                          games_per_pair=2, format="solo", config={"mode": "solo"}, seed_key=KEY)
    played = played_matches(solo)
    last = max(p.number for p, _, _ in played)
    byes = [Pairing(last + 1, 1, (0,), -1), Pairing(last + 2, 1, (1,), -1)]
    kept, stored = kept_and_stored(tmp_path, solo, [played], byes)
    assert kept == stored
    assert [seat.bye for seat in kept[-1]] == [True]
    assert kept[-1][0].points == stored[-1][0].points == float(solo.games_per_pair)
