"""League rounds on a running arena: connected remote bots play, absent ones forfeit."""

from __future__ import annotations

import threading
from datetime import timedelta

from sqlmodel import Session, select

from tests.ops.test_league import START, FakeClock
from tourney.engine.server.client import BotClient, RandomBot
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.local import LocalArena
from tourney.tournament.league.forfeits import OFFLINE
from tourney.tournament.league.members import LeagueSettings, create_league, join_league
from tourney.tournament.league.rounds import run_due
from tourney.tournament.store.database import open_store
from tourney.tournament.store.tables import Match, MatchSeat
from tourney.workers.league_arena import ArenaExecutor


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


def test_the_serve_leagues_loop_plays_due_rounds_in_the_background(tmp_path) -> None:
    from tourney.tournament.league.arena_loop import LeagueLoop

    db = str(tmp_path / "l.db")
    engine = open_store(db)
    create_league(engine, LeagueSettings(name="bg", game="sticks", format="swiss", schedule="0 20 * * *",
                                         rounds_per_season=2), now=START)
    for alias in ("a", "b", "c", "d"):
        join_league(engine, "bg", "random", alias=alias, now=START)
    clock = FakeClock(START + timedelta(days=1, hours=21))  # two rounds due
    with LocalArena(ArenaConfig(allow_anonymous=True)) as local:
        loop = LeagueLoop(local.arena, local._loop, db, interval_s=0.05, clock=clock).start()
        try:
            deadline = threading.Event()
            for _ in range(400):  # at most ~20 s
                with Session(engine) as session:
                    if len(session.exec(select(Match).where(Match.players == 2)).all()) == 8:
                        break
                deadline.wait(0.05)
        finally:
            loop.stop()
        assert loop.tick() == 0  # nothing more is due
    with Session(engine) as session:
        assert len(session.exec(select(Match).where(Match.players == 2)).all()) == 8  # 2 rounds x 2 pairs x 2 games


def test_run_due_with_arena_plays_over_grpc_and_absent_bots_forfeit(tmp_path) -> None:
    import json

    from typer.testing import CliRunner

    import tourney.tournament.cli.league  # noqa: F401
    from tourney.tournament.cli import app

    db = str(tmp_path / "l.db")
    engine = open_store(db)
    create_league(engine, LeagueSettings(name="grpc", game="sticks", format="round-robin", schedule="0 20 * * *"),
                  now=START)
    for alias, spec in [("alice", "remote:alice"), ("bob", "remote:bob"), ("r", "random"), ("g", "greedy")]:
        join_league(engine, "grpc", spec, alias=alias, now=START)
    with LocalArena(ArenaConfig(allow_anonymous=True, default_move_ms=5000, seat_wait_s=1)) as local:
        client = BotClient(local.address, RandomBot(seed=5), name="alice", games=["sticks"])
        thread = threading.Thread(target=client.run, daemon=True)
        thread.start()
        try:
            assert client.connected.wait(30)
            done = CliRunner().invoke(app, ["league", "run-due", "grpc", "--db", db, "--arena", local.address,
                                            "--now", (START + timedelta(days=2, hours=21)).isoformat(), "--json"])
        finally:
            client.cancel()
            thread.join(30)
    assert done.exit_code == 0, done.output
    rounds = json.loads(done.stdout)["rounds"]
    assert len(rounds) == 3
    assert sum(r["forfeits"] for r in rounds) == 6 and sum(r["matches"] for r in rounds) == 6
    assert len(client.ended) == 4  # alice's four games against r and g were played over gRPC
    with Session(engine) as session:
        rows = session.exec(select(MatchSeat, Match).where(MatchSeat.match_id == Match.id)).all()
    assert all(seat.points == 0 for seat, _ in rows if seat.alias == "bob")
    assert all(match.termination == OFFLINE for seat, match in rows if seat.alias == "bob")


def test_tourney_serve_leagues_plays_due_rounds_and_exports_them(tmp_path) -> None:
    """`tourney serve --leagues --metrics-port` in its own process: due rounds get played and counted."""
    import os
    import signal
    import subprocess
    import sys
    import urllib.request
    from datetime import UTC, datetime
    from pathlib import Path

    from prometheus_client.parser import text_string_to_metric_families

    from tests.ops.prom import free_port, wait_for

    root = Path(__file__).resolve().parents[2]
    db = str(tmp_path / "serve.db")
    engine = open_store(db)
    # The ticks at the last two full hours are due (and the next one is up to an hour away).
    hour = datetime.now(UTC).replace(minute=0, second=0, microsecond=0)
    create_league(engine, LeagueSettings(name="hourly", game="sticks", format="round-robin", schedule="0 * * * *"),
                  now=hour - timedelta(hours=2) + timedelta(seconds=1))
    for alias in ("a", "b", "c", "d"):
        join_league(engine, "hourly", "random", alias=alias)
    metrics = free_port()
    code = "import tests.sticks, tourney.tournament.cli.league; from tourney.tournament.cli import app; app()"
    proc = subprocess.Popen([sys.executable, "-c", code, "serve", "--port", "0", "--allow-anonymous", "--db", db,
                             "--leagues", "--metrics-port", str(metrics)], cwd=root,
                            env={**os.environ, "PYTHONPATH": str(root), "TOURNEY_ADMIN_TOKEN": "Hv7-mQ2cXk9LpR4tWz8b"},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def stored() -> int:
        with Session(engine) as session:
            return len(session.exec(select(Match).where(Match.tournament_id.is_not(None))).all())  # type: ignore

    try:
        wait_for(lambda: stored() == 8, "the two due rounds (2 x 2 pairs x 2 games) to be stored")
        text = urllib.request.urlopen(f"http://127.0.0.1:{metrics}/metrics", timeout=10).read().decode()
        counted = sum(s.value for f in text_string_to_metric_families(text) for s in f.samples
                      if s.name == "tourney_matches_total" and s.labels.get("game") == "sticks")
        assert counted == 8
    finally:
        proc.send_signal(signal.SIGTERM)
        out, errs = proc.communicate(timeout=60)
    assert proc.returncode == 0, errs


class HeldBot(RandomBot):
    """Thinks until `release` is set: its one match slot stays taken while a league round asks for it."""

    def __init__(self) -> None:
        super().__init__(seed=1)
        self.thinking = threading.Event()
        self.release = threading.Event()

    def act(self, observation, legal_actions, request):  # type: ignore[no-untyped-def]
        self.thinking.set()
        self.release.wait(60)
        return super().act(observation, legal_actions, request)


def test_a_connected_bot_whose_slot_never_frees_forfeits_its_league_match(tmp_path, monkeypatch) -> None:
    """Connected but busy past the seat wait: the bot is there, so every seat looked present and the match was
    stored as a 0.5-0.5 draw with no reason, never played. The arena's refusal names the bot: it forfeits."""
    import asyncio

    from tourney.workers import league_arena

    monkeypatch.setattr(league_arena, "SEAT_WAIT_S", 0.2)
    engine = open_store(str(tmp_path / "l.db"))
    create_league(engine, LeagueSettings(name="busy", game="sticks", format="round-robin", schedule="0 20 * * *",
                                         games_per_pair=2), now=START)
    for alias, spec in [("held", "remote:held"), ("r", "random")]:
        join_league(engine, "busy", spec, alias=alias, now=START)
    bot = HeldBot()
    with LocalArena(ArenaConfig(allow_anonymous=True, default_move_ms=60_000)) as local:
        client = BotClient(local.address, bot, name="held", games=["sticks"])
        thread = threading.Thread(target=client.run, daemon=True)
        thread.start()
        try:
            assert client.connected.wait(30)
            elsewhere = asyncio.run_coroutine_threadsafe(local.arena.run_match("sticks", ["remote:held", "random"], 1),
                                                         local._loop)
            assert bot.thinking.wait(30)  # its one slot is taken until released
            executor = ArenaExecutor(local.arena, local._loop)
            (report,) = run_due(engine, clock=FakeClock(START + timedelta(hours=21)), executor=executor,
                                presence=executor.online)
            bot.release.set()
            elsewhere.result(60)
        finally:
            bot.release.set()
            client.cancel()
            thread.join(30)
    assert (report.status, report.matches, report.forfeits) == ("done", 0, 2)
    with Session(engine) as session:
        seats = session.exec(select(MatchSeat, Match).where(MatchSeat.match_id == Match.id)).all()
    assert len(seats) == 4
    for seat, match in seats:
        assert match.termination == OFFLINE and match.reason.startswith("offline: seat")
        assert seat.points == (0.0 if seat.alias == "held" else 1.0)
