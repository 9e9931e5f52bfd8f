"""A hosted member of a league whose rounds the arena plays (`serve --leagues`): its bundle is started in its
sandbox for each match, reaches the arena through a Unix socket of its own under a one-match name and token,
and plays, against a connected remote bot and a built-in one alike.

It used to be handed to the arena as a built-in bot's name, refused, and every one of its matches stored as a
0.5-0.5 draw with no reason, a match never played.
"""

from __future__ import annotations

import shutil
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import Session, select

from tests.hosted.bundles import GAME, submit
from tests.ops.test_league import START, FakeClock
from tourney.engine.server.client import BotClient, RandomBot
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.local import LocalArena
from tourney.engine.server.tokens import token_hash
from tourney.tournament.hosted.seat import hosted_starter
from tourney.tournament.league.members import LeagueSettings, create_league, join_league
from tourney.tournament.league.rounds import run_due
from tourney.tournament.store.database import open_store, url_of
from tourney.tournament.store.records import FORFEIT_DETAILS
from tourney.tournament.store.tables import Match, MatchSeat
from tourney.workers.league_arena import ArenaExecutor

pytestmark = [pytest.mark.timeout(300),
              pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")]

HOSTED = "good"  # the bundle of tests/hosted/bundles.py, and its name


def test_a_hosted_member_plays_its_league_matches_on_the_arena(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # the programs' logs go to ./bot-logs
    engine = open_store(str(tmp_path / "l.db"))
    submit(engine, tmp_path / "bundles", HOSTED)  # a well-behaved bot, validated
    create_league(engine, LeagueSettings(name="boxed", game=GAME, format="round-robin", schedule="0 20 * * *",
                                         games_per_pair=2), now=START)
    for alias, spec in [("boxed", f"hosted:{HOSTED}"), ("alice", "remote:alice"), ("g", "greedy")]:
        join_league(engine, "boxed", spec, alias=alias, now=START)
    tokens = {"alice": token_hash("alice-secret-token-1")}
    with LocalArena(ArenaConfig(tokens=tokens, default_move_ms=10_000, seat_wait_s=5)) as local:
        client = BotClient(local.address, RandomBot(seed=3), name="alice", token="alice-secret-token-1",
                           games=[GAME])
        thread = threading.Thread(target=client.run, daemon=True)
        thread.start()
        try:
            assert client.connected.wait(30)
            executor = ArenaExecutor(local.arena, local._loop, address=local.address,
                                     hosted=hosted_starter(url_of(engine)))
            reports = run_due(engine, clock=FakeClock(START + timedelta(days=2, hours=21)), executor=executor,
                              presence=executor.online)
        finally:
            client.cancel()
            thread.join(30)
        assert dict(local.arena.config.tokens) == tokens  # the one-match tokens are gone again
    assert [r.status for r in reports] == ["done"] * 3
    assert sum(r.forfeits for r in reports) == 0
    with Session(engine) as session:
        rows = session.exec(select(MatchSeat, Match).where(MatchSeat.match_id == Match.id)
                            .where(Match.players == 2).where(MatchSeat.alias == "boxed")).all()
    assert len(rows) == 4  # two games against alice, two against g
    for seat, match in rows:
        assert match.details_json != FORFEIT_DETAILS and match.reason, (match.termination, match.reason)
        assert match.termination == "normal" and seat.decisions > 0


def test_run_due_on_a_remote_arena_plays_hosted_members_here_and_says_when_it_cannot(tmp_path: Path,
                                                                                    monkeypatch) -> None:
    """`league run-due --arena`: a hosted member against built-in bots is played on this machine, sandboxed, as a
    worker would; against a bot connected to that other arena it cannot be seated (no network in its sandbox),
    which the round says in one sentence instead of storing the match as the arena's refusal."""
    from tourney.engine.core import TourneyError
    from tourney.workers.league_arena import RemoteLeagueExecutor

    monkeypatch.chdir(tmp_path)
    engine = open_store(str(tmp_path / "l.db"))
    submit(engine, tmp_path / "bundles", HOSTED)  # a well-behaved bot, validated
    for name, other in (("here", "greedy"), ("there", "remote:alice")):
        create_league(engine, LeagueSettings(name=name, game=GAME, format="round-robin", schedule="0 20 * * *",
                                             games_per_pair=2), now=START)
        join_league(engine, name, f"hosted:{HOSTED}", alias="boxed", now=START)
        join_league(engine, name, other, alias="other", now=START)
    with LocalArena(ArenaConfig(admin_token="organiser-secret-token")) as local:
        executor = RemoteLeagueExecutor(local.address, "organiser-secret-token", workers=2)
        (report,) = run_due(engine, "here", clock=FakeClock(START + timedelta(hours=21)), executor=executor,
                            presence=lambda spec: True)
        assert (report.status, report.matches, report.forfeits) == ("done", 2, 0)
        with pytest.raises(TourneyError, match="a hosted member cannot meet a remote bot through --arena"):
            run_due(engine, "there", clock=FakeClock(START + timedelta(hours=21)), executor=executor,
                    presence=lambda spec: True)
    with Session(engine) as session:
        boxed = session.exec(select(MatchSeat, Match).where(MatchSeat.match_id == Match.id)
                             .where(MatchSeat.alias == "boxed")).all()
    assert len(boxed) == 2  # the first league's two games; the second stored nothing
    assert all(match.termination == "normal" and seat.decisions > 0 for seat, match in boxed)


def test_a_hosted_member_holds_few_connections_to_the_leagues_arena(tmp_path: Path, monkeypatch) -> None:
    """Its socket is a listener of the arena every remote bot plays on: it used to take the arena's whole cap
    (4,096 connections, each a file and memory of that process), as many as the bot's files and processes could
    open. It now takes what a seat of a worker's private arena does, PROGRAM_CONNECTIONS, and still plays."""
    import re

    from tourney.workers.programs import PROGRAM_CONNECTIONS

    monkeypatch.chdir(tmp_path)  # the programs' logs go to ./bot-logs
    engine = open_store(str(tmp_path / "l.db"))
    submit(engine, tmp_path / "bundles", "hoarder")
    create_league(engine, LeagueSettings(name="hoard", game=GAME, format="round-robin", schedule="0 20 * * *",
                                         games_per_pair=1), now=START)
    join_league(engine, "hoard", "hosted:hoarder", alias="hoarder", now=START)
    join_league(engine, "hoard", "random", alias="r", now=START)
    with LocalArena(ArenaConfig(allow_anonymous=True, default_move_ms=10_000)) as local:
        executor = ArenaExecutor(local.arena, local._loop, address=local.address,
                                 hosted=hosted_starter(url_of(engine)))
        (report,) = run_due(engine, clock=FakeClock(START + timedelta(hours=21)), executor=executor,
                            presence=executor.online)
    assert (report.status, report.matches, report.forfeits) == ("done", 1, 0)
    said = [re.search(r"HOARDER: tried (\d+) answered (\d+)", log.read_text(errors="replace"))
            for log in (tmp_path / "bot-logs").glob("hoarder-*.log")]
    assert len(said) == 1 and said[0] is not None
    tried, answered = int(said[0][1]), int(said[0][2])
    assert tried > PROGRAM_CONNECTIONS  # the attack really asked for more than a seat's share
    assert 1 <= answered <= PROGRAM_CONNECTIONS
