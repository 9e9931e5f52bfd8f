"""League scheduling as an unattended deployment needs it: the claim lease, giving a claim back,
catching up after downtime, pausing, leaving, and no bye for a bot that is not there."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import Session, select

import tests.ops.slow_bot  # noqa: F401  (registers the slowpoke bot here too)
from tests.ops.test_league import START, FakeClock, make_league
from tourney.engine.core import ConfigError
from tourney.engine.server import metrics as m
from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.league.forfeits import OFFLINE
from tourney.tournament.league.members import (
    LeagueSettings,
    create_league,
    join_league,
    leave_league,
    list_leagues,
    set_paused,
)
from tourney.tournament.league.rounds import run_due
from tourney.tournament.league.schedule import MISSED, parse_catch_up
from tourney.tournament.league.season import league_standings
from tourney.tournament.runner import TournamentPlan
from tourney.tournament.store.database import open_store
from tourney.tournament.store.league_tables import LeagueRound
from tourney.tournament.store.tables import Match, MatchSeat
from tourney.workers import LocalExecutor

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 120.0


def rounds(engine) -> list[LeagueRound]:
    with Session(engine) as session:
        return list(session.exec(select(LeagueRound).order_by(LeagueRound.slot)))


class GatedExecutor(LocalExecutor):
    """Plays in this process, but holds the first chunk until `go` is set (`started` says it got there)."""

    def __init__(self) -> None:
        super().__init__(chunk_s=0)  # a chunk a match, as the test counts them
        self.started = threading.Event()
        self.go = threading.Event()

    def run(self, plan: TournamentPlan, pairings: list[Pairing], more=None):  # type: ignore[no-untyped-def, override]
        for chunk in super().run(plan, pairings, more):
            self.started.set()
            assert self.go.wait(WAIT_S)
            yield chunk

    def close(self) -> None:
        pass


def test_the_claim_is_renewed_while_the_round_plays(tmp_path) -> None:
    engine = make_league(tmp_path, divisions=1, promote=0)
    base = START + timedelta(hours=21)
    ticks = [0.0]

    def clock():  # each reading is a second later: renewals push the claim forward
        ticks[0] += 1
        return base + timedelta(seconds=ticks[0])

    executor = GatedExecutor()
    result: list = []
    caller = threading.Thread(target=lambda: result.extend(run_due(engine, clock=clock, executor=executor,
                                                                   lease_s=0.3)))
    caller.start()
    try:
        assert executor.started.wait(WAIT_S)
        first = rounds(engine)[0].claimed_ts
        deadline = time.monotonic() + WAIT_S
        while rounds(engine)[0].claimed_ts == first and time.monotonic() < deadline:
            time.sleep(0.05)
        renewed = rounds(engine)[0]
        assert renewed.claimed_ts > first and renewed.status == "running" and renewed.owner.endswith(str(os.getpid()))
    finally:
        executor.go.set()
        caller.join(WAIT_S)
    assert [r.status for r in result] == ["done"]


def test_a_failing_round_gives_its_claim_back_at_once(tmp_path) -> None:
    engine = make_league(tmp_path, divisions=1, promote=0)
    clock = FakeClock()
    clock.to_day(0)

    class Broken(LocalExecutor):
        def run(self, plan, pairings, more=None):  # type: ignore[no-untyped-def, override]
            raise RuntimeError("worker lost")
            yield []

    with pytest.raises(RuntimeError):
        run_due(engine, clock=clock, executor=Broken(), lease_s=3600)
    (claim,) = rounds(engine)
    assert claim.status == "running" and claim.claimed_ts == 0.0  # released, not left for an hour
    # Within what would have been the lease, another caller takes the round over and plays it.
    report = run_due(engine, clock=clock, lease_s=3600, owner="other:1")
    assert [(r.season, r.round, r.status) for r in report] == [(0, 0, "done")]
    assert rounds(engine)[0].owner == "other:1"


def test_a_crashed_schedulers_round_is_picked_up_after_the_lease(tmp_path) -> None:
    engine = make_league(tmp_path, divisions=1, promote=0)
    clock = FakeClock()
    clock.to_day(0)
    with Session(engine) as session:  # a scheduler killed with -9 mid-round: its claim stays as it was
        session.add(LeagueRound(league_id=1, slot=0, season=0, round=0, due_ts=(START + timedelta(hours=20))
                                .timestamp(), status="running", owner="crashed:9", claimed_ts=clock().timestamp()))
        session.commit()
    assert run_due(engine, clock=clock, lease_s=120) == []
    clock.when += timedelta(seconds=121)
    assert [r.status for r in run_due(engine, clock=clock, lease_s=120)] == ["done"]


RUN_CLI = "import sys, tests.sticks, tourney.tournament.cli.league; from tourney.tournament.cli import app; app()"
SLOW_BOT = "tests.ops.slow_bot"


def test_sigterm_releases_the_round_in_play(tmp_path) -> None:
    """A real `tourney league run-due` process, stopped with SIGTERM mid-round, gives its claim back."""
    db = str(tmp_path / "league.db")
    engine = open_store(db)
    create_league(engine, LeagueSettings(name="slow", game="sticks", format="round-robin", schedule="0 20 * * *",
                                         games_per_pair=2), now=START)
    for alias in ("a", "b", "c", "d"):
        join_league(engine, "slow", "slowpoke", alias=alias, now=START)
    now = (START + timedelta(hours=21)).isoformat()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TOURNEY_SLOWPOKE_S": "0.2"}
    cli = f"import {SLOW_BOT}; " + RUN_CLI
    proc = subprocess.Popen([sys.executable, "-c", cli, "league", "run-due", "--db", db, "--local", "--now", now,
                             "--lease", "3600"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + WAIT_S
        while not rounds(engine) and time.monotonic() < deadline:  # wait until it has claimed the round
            time.sleep(0.1)
        (claim,) = rounds(engine)
        assert claim.status == "running" and claim.claimed_ts > 0
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=WAIT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
    assert proc.returncode == 143, err
    assert "SIGTERM" in err and "Traceback" not in err
    (claim,) = rounds(engine)
    assert claim.status == "running" and claim.claimed_ts == 0.0
    # The next scheduler plays it now, not an hour later.
    report = run_due(engine, "slow", clock=FakeClock(START + timedelta(hours=21, minutes=1)), lease_s=3600,
                     executor=LocalExecutor())
    assert [r.status for r in report] == ["done"] and report[0].matches == 4


def test_catch_up_plays_the_latest_rounds_and_records_the_rest_as_missed(tmp_path) -> None:
    engine = make_league(tmp_path, divisions=1, promote=0, fmt="swiss", rounds=20)
    clock = FakeClock()
    clock.to_day(12)  # thirteen daily ticks are due (days 0-12)
    seen: list[str] = []
    reports = run_due(engine, clock=clock, catch_up=2, on_round=lambda r: seen.append(r.line()))
    assert [r.status for r in reports] == [MISSED, "done", "done"]
    missed = reports[0]
    assert missed.round == 11 and missed.due == START + timedelta(days=10, hours=20)
    assert [r.due for r in reports[1:]] == [START + timedelta(days=d, hours=20) for d in (11, 12)]
    assert [(r.season, r.round) for r in reports[1:]] == [(0, 0), (0, 1)]  # missed ticks use no season round
    assert len(seen) == 3 and "missed 11 round(s)" in seen[0] and "season 1 round 2" in seen[2]
    assert run_due(engine, clock=clock, catch_up=2) == []
    clock.to_day(15)  # three more: "latest" plays only the last
    assert [r.status for r in run_due(engine, clock=clock, catch_up=1)] == [MISSED, "done"]
    clock.to_day(17)  # two more: "all" plays both
    assert [r.status for r in run_due(engine, clock=clock, catch_up=None)] == ["done", "done"]


def test_catch_up_policy_text() -> None:
    assert parse_catch_up("all") is None and parse_catch_up("latest") == 1 and parse_catch_up("5") == 5
    for bad in ("0", "-1", "some", ""):
        with pytest.raises(ConfigError, match="--catch-up is all, latest or a number"):
            parse_catch_up(bad)


def test_an_offline_bot_gets_no_bye(tmp_path) -> None:
    engine = make_league(tmp_path, divisions=1, promote=0, fmt="swiss", rounds=3,
                         bots=[("a", "random"), ("ghost", "remote:ghost"), ("c", "random")])
    clock = FakeClock()
    for day in range(3):  # three members, three Swiss rounds: each bot sits one out (a bye)
        clock.to_day(day)
        run_due(engine, clock=clock)
    with Session(engine) as session:
        byes = session.exec(select(MatchSeat, Match).where(MatchSeat.match_id == Match.id)
                            .where(Match.players == 1)).all()
    by_alias = {seat.alias: (seat, match) for seat, match in byes}
    assert set(by_alias) == {"a", "ghost", "c"}
    assert by_alias["ghost"][0].points == 0 and by_alias["ghost"][1].termination == OFFLINE
    assert by_alias["a"][0].points == 2 and by_alias["c"][0].points == 2  # connected bots keep their bye
    table = league_standings(engine, "l")
    assert {s.alias: s.points for _, rows in table.divisions for s in rows}["ghost"] == 0


def test_pause_resume_leave_and_list(tmp_path) -> None:
    engine = make_league(tmp_path, divisions=1, promote=0, fmt="swiss", rounds=1)
    clock = FakeClock()
    clock.to_day(0)
    assert [r.season for r in run_due(engine, clock=clock)] == [0]
    set_paused(engine, "l", True)
    (summary,) = list_leagues(engine)
    assert summary.paused and summary.next_due is None and summary.members == 6 and summary.season == 0
    clock.to_day(5)
    assert run_due(engine, clock=clock) == []  # paused: nothing is played
    with pytest.raises(ConfigError, match="already paused"):
        set_paused(engine, "l", True)
    due = set_paused(engine, "l", False, now=clock())
    assert due == START + timedelta(days=6, hours=20)  # the ticks of the pause are not played
    leave_league(engine, "l", "g1", now=clock())
    assert list_leagues(engine)[0].members == 5
    with pytest.raises(ConfigError, match="not a member"):
        leave_league(engine, "l", "g1")
    clock.to_day(6)
    (report,) = run_due(engine, clock=clock)
    assert report.season == 1
    table = league_standings(engine, "l")
    assert "g1" not in {s.alias for _, rows in table.divisions for s in rows}  # not placed after leaving


def test_a_program_can_join_and_play_a_league(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # the programs' logs go to ./bot-logs
    program = f"cmd:{sys.executable} {ROOT / 'clients/python/examples/random_bot.py'}"
    engine = make_league(tmp_path, divisions=1, promote=0, fmt="round-robin",
                         bots=[("prog", program), ("r", "random"), ("g", "greedy"), ("r2", "random")])
    with pytest.raises(ConfigError, match="names no program"):
        join_league(engine, "l", "cmd:  ", alias="empty")
    clock = FakeClock()
    clock.to_day(0)
    (report,) = run_due(engine, clock=clock)
    assert report.matches == 4 and report.forfeits == 0
    with Session(engine) as session:
        seats = session.exec(select(MatchSeat).where(MatchSeat.alias == "prog")).all()
    assert len(seats) == 2 and all(s.decisions > 0 for s in seats)  # it played over gRPC
    assert (tmp_path / "bot-logs").is_dir()


def test_stopping_the_arenas_scheduler_gives_its_round_back(tmp_path, monkeypatch) -> None:
    """`tourney serve --leagues` on SIGTERM stops its LeagueLoop: the round in play is released at once."""
    from tourney.engine.server.config import ArenaConfig
    from tourney.engine.server.local import LocalArena
    from tourney.tournament.league.arena_loop import LeagueLoop

    monkeypatch.setenv("TOURNEY_SLOWPOKE_S", "0.2")
    db = str(tmp_path / "l.db")
    engine = open_store(db)
    create_league(engine, LeagueSettings(name="slow", game="sticks", format="round-robin", schedule="0 20 * * *",
                                         games_per_pair=2), now=START)
    for alias in ("a", "b", "c", "d"):
        join_league(engine, "slow", "slowpoke", alias=alias, now=START)
    lines: list[str] = []
    active = m.REGISTRY.get_sample_value("tourney_active_matches", {"game": "sticks"}) or 0.0
    with LocalArena(ArenaConfig(allow_anonymous=True)) as local:
        loop = LeagueLoop(local.arena, local._loop, db, interval_s=0.05, clock=FakeClock(START + timedelta(hours=21)),
                          lease_s=3600, on_round=lambda r: lines.append(r.line())).start()
        try:
            deadline = time.monotonic() + WAIT_S
            while not rounds(engine) and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            loop.stop()
            # The matches already started on the arena finish there (their results are dropped).
            deadline = time.monotonic() + WAIT_S
            while (m.REGISTRY.get_sample_value("tourney_active_matches", {"game": "sticks"}) or 0.0) > active \
                    and time.monotonic() < deadline:
                time.sleep(0.05)
    (claim,) = rounds(engine)
    assert claim.status == "running" and claim.claimed_ts == 0.0
    assert lines == ["slow: season 1 round 1 (due 2026-01-01 20:00) stopped; claim released"]
