"""A `cmd:` member of a league whose rounds the arena plays (`serve --leagues`): its program is started
for each match, admitted with a one-match token on an arena that lets no unknown bot in, and plays."""

from __future__ import annotations

import sys
import threading
from datetime import timedelta
from pathlib import Path

from sqlmodel import Session, select

from tests.ops.test_league import START, FakeClock
from tourney.engine.server.client import BotClient, RandomBot
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.local import LocalArena
from tourney.engine.server.tokens import token_hash
from tourney.tournament.league.forfeits import OFFLINE
from tourney.tournament.league.members import LeagueSettings, create_league, join_league
from tourney.tournament.league.rounds import run_due
from tourney.tournament.store.database import open_store
from tourney.tournament.store.tables import Match, MatchSeat
from tourney.workers.league_arena import ArenaExecutor

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = f"cmd:{sys.executable} {ROOT / 'clients/python/examples/random_bot.py'}"


def test_a_program_member_plays_its_matches_on_the_arena(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # the programs' logs go to ./bot-logs
    engine = open_store(str(tmp_path / "l.db"))
    create_league(engine, LeagueSettings(name="mixed", game="sticks", format="round-robin", schedule="0 20 * * *",
                                         games_per_pair=2), now=START)
    for alias, spec in [("prog", PROGRAM), ("alice", "remote:alice"), ("g", "greedy"), ("broken", "cmd:/no/such")]:
        join_league(engine, "mixed", spec, alias=alias, now=START)
    tokens = {"alice": token_hash("alice-secret-token-1")}
    with LocalArena(ArenaConfig(tokens=tokens, default_move_ms=5000, seat_wait_s=5)) as local:
        client = BotClient(local.address, RandomBot(seed=3), name="alice", token="alice-secret-token-1",
                           games=["sticks"])
        thread = threading.Thread(target=client.run, daemon=True)
        thread.start()
        try:
            assert client.connected.wait(30)
            executor = ArenaExecutor(local.arena, local._loop, address=local.address)
            reports = run_due(engine, clock=FakeClock(START + timedelta(days=2, hours=21)), executor=executor,
                              presence=executor.online)
        finally:
            client.cancel()
            thread.join(30)
        assert dict(local.arena.config.tokens) == tokens  # the one-match tokens are gone again
    assert len(reports) == 3
    with Session(engine) as session:
        rows = session.exec(select(MatchSeat, Match).where(MatchSeat.match_id == Match.id)
                            .where(Match.players == 2)).all()
    prog = [(seat, match) for seat, match in rows if seat.alias == "prog"]
    played = [(seat, match) for seat, match in prog if match.termination != OFFLINE]
    assert len(prog) == 6
    # Against alice and g it plays over gRPC; against the program that cannot start it wins by forfeit.
    assert len(played) == 4 and all(seat.decisions > 0 for seat, _ in played)
    broken = [(seat, match) for seat, match in rows if seat.alias == "broken"]
    assert len(broken) == 6 and all(seat.points == 0 for seat, _ in broken)
