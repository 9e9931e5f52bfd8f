"""League rounds on a running arena: connected remote bots play, absent ones forfeit."""

from __future__ import annotations

import threading
from datetime import timedelta

from sqlmodel import Session, select

from engine.server.arena import ArenaConfig
from engine.server.client import BotClient, RandomBot
from engine.server.local import LocalArena
from tests.ops.test_league import START, FakeClock
from tournament.league import OFFLINE, LeagueSettings, create_league, join_league, run_due
from tournament.league_arena import ArenaExecutor
from tournament.store import Match, MatchSeat, open_store


def test_league_round_on_the_arena_with_a_connected_and_an_absent_remote_bot(tmp_path) -> None:
    engine = open_store(str(tmp_path / "l.db"))
    create_league(engine, LeagueSettings(name="net", game="sticks", format="round-robin", schedule="0 20 * * *",
                                         games_per_pair=2), now=START)
    for alias, spec in [("alice", "remote:alice"), ("bob", "remote:bob"), ("r", "random"), ("g", "greedy")]:
        join_league(engine, "net", spec, alias=alias, now=START)
    with LocalArena(ArenaConfig(allow_anonymous=True, default_move_ms=5000)) as local:
        client = BotClient(local.address, RandomBot(seed=3), name="alice", games=["sticks"])
        thread = threading.Thread(target=client.run, daemon=True)
        thread.start()
        try:
            assert client.connected.wait(30)
            executor = ArenaExecutor(local.arena, local._loop)
            clock = FakeClock(START + timedelta(days=2, hours=21))  # three rounds due: the whole round robin
            reports = run_due(engine, clock=clock, executor=executor, presence=executor.online)
        finally:
            client.cancel()
            thread.join(30)
    assert [(r.season, r.round) for r in reports] == [(0, 0), (0, 1), (0, 2)]
    # bob never connected: his 3 pairings (2 games each) are forfeits; the other 3 pairings were played.
    assert sum(r.forfeits for r in reports) == 6 and sum(r.matches for r in reports) == 6
    with Session(engine) as session:
        rows = session.exec(select(MatchSeat, Match).where(MatchSeat.match_id == Match.id)).all()
    alice = [(seat, match) for seat, match in rows if seat.alias == "alice"]
    assert len(alice) == 6
    played = [(seat, match) for seat, match in alice if match.termination != OFFLINE]
    assert len(played) == 4 and all(seat.decisions > 0 for seat, _ in played)  # alice answered over gRPC
    assert all(seat.points == 0 for seat, match in rows if seat.alias == "bob")
    assert len(client.ended) == 4
