"""A hosted league member with nothing to play (retired) is absent from its rounds, as a member who left.

It used to be paired and "played": each of its matches was stored as a crash of a program that never started,
rated like a game (its rating fell, its opponents' rose for nothing), and it could take a round's bye and its
points. Now its matches are forfeits (unrated), it gets no bye, and the no-bye record that keeps Swiss from
giving it one is no game in the standings (it used to count as a won one-seat game).

No sandbox runs here: the retired bot never starts, and the others are built-in bots.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlmodel import Session, col, select

from tests.hosted.bundles import GAME, submit
from tourney.tournament.league.members import LeagueSettings, create_league, join_league
from tourney.tournament.league.rounds import run_due
from tourney.tournament.league.season import league_standings
from tourney.tournament.store.database import open_store
from tourney.tournament.store.hosted import retire
from tourney.tournament.store.records import FORFEIT_DETAILS
from tourney.tournament.store.tables import Match, MatchSeat
from tourney.workers.local import LocalExecutor

CREATED = datetime(2026, 3, 1, tzinfo=UTC)
RETIRED = "good"  # the bundle of tests/hosted/bundles.py, and its name


def test_a_retired_hosted_member_forfeits_gets_no_bye_and_is_not_rated(tmp_path: Path) -> None:
    engine = open_store(f"sqlite:///{tmp_path / 'league.db'}")
    submit(engine, tmp_path / "bundles", RETIRED)  # a well-behaved bot, validated
    # Three members, Swiss: each round one of them has the bye, the one with the fewest points when it can.
    create_league(engine, LeagueSettings(name="three", game=GAME, format="swiss", games_per_pair=2), now=CREATED)
    for spec in (f"hosted:{RETIRED}", "random", "greedy"):
        join_league(engine, "three", spec, now=CREATED)
    before = league_standings(engine, "three").ratings[f"hosted:{RETIRED}"]
    retire(engine, RETIRED)

    reports = run_due(engine, "three", clock=lambda: CREATED + timedelta(hours=3, minutes=30),
                      executor=LocalExecutor(chunk_s=0))
    assert [(r.round, r.status) for r in reports] == [(0, "done"), (1, "done"), (2, "done")]

    with Session(engine) as session:
        rows = session.exec(select(Match, MatchSeat).where(col(MatchSeat.match_id) == col(Match.id))
                            .where(MatchSeat.alias == f"hosted:{RETIRED}")).all()
    games = [match for match, _ in rows if match.players == 2]
    no_byes = [match for match, _ in rows if match.players == 1]
    assert len(no_byes) == 1 and len(games) == 4  # the bye it did not get, and two pairs of games forfeited
    assert sum(r.forfeits for r in reports) == len(games)
    assert all(match.details_json == FORFEIT_DETAILS for match, _ in rows)
    assert not any(match.termination == "crash" for match, _ in rows)
    assert all(seat.points == 0 for _, seat in rows)

    table = league_standings(engine, "three")
    standing = {s.alias: s for _, rows_ in table.divisions for s in rows_}[f"hosted:{RETIRED}"]
    assert (standing.games, standing.wins, standing.losses, standing.byes, standing.points) == (4, 0, 4, 0, 0)
    assert table.ratings[f"hosted:{RETIRED}"] == before  # forfeits say nothing about strength
