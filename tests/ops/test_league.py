"""Leagues: scheduled rounds, three seasons of promotion and relegation, carried ratings, forfeits, concurrency."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from openskill.models import PlackettLuce
from sqlmodel import Session, select

from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.league.forfeits import OFFLINE
from tourney.tournament.league.members import LeagueSettings, create_league, join_league
from tourney.tournament.league.rounds import run_due
from tourney.tournament.league.season import league_standings
from tourney.tournament.runner import TournamentPlan
from tourney.tournament.store.database import open_store
from tourney.tournament.store.league_tables import LeagueMember, LeagueRound
from tourney.tournament.store.tables import Match, MatchSeat
from tourney.workers import LocalExecutor

START = datetime(2026, 1, 1, tzinfo=UTC)


class FakeClock:
    def __init__(self, when: datetime = START) -> None:
        self.when = when

    def __call__(self) -> datetime:
        return self.when

    def to_day(self, day: int, hour: int = 21) -> None:
        """Move to `day` days after START at hour:00 (rounds are due at 20:00 each day)."""
        self.when = START + timedelta(days=day, hours=hour)


class CountingExecutor(LocalExecutor):
    """Plays in this process and counts how often each match (tournament name, number) was played."""

    def __init__(self, delay_s: float = 0.0) -> None:
        super().__init__(chunk_s=0)  # a chunk a match, as the test counts them
        self.plays: Counter[tuple[str, int]] = Counter()
        self.lock = threading.Lock()
        self.delay_s = delay_s

    def run(self, plan: TournamentPlan, pairings: list[Pairing], more=None):  # type: ignore[no-untyped-def, override]
        for chunk in super().run(plan, pairings, more):
            with self.lock:
                for p, _, _ in chunk:
                    self.plays[(plan.name, p.number)] += 1
            if self.delay_s:
                threading.Event().wait(self.delay_s)  # let a concurrent caller try to take over
            yield chunk

    def close(self) -> None:
        pass


def members(engine, league_id: int | None = None) -> dict[str, LeagueMember]:
    with Session(engine) as session:
        return {m.alias: m for m in session.exec(select(LeagueMember))}


def make_league(tmp_path, name="l", divisions=2, promote=1, fmt="round-robin", bots=None, rounds=None):
    engine = open_store(str(tmp_path / "league.db"))
    create_league(engine, LeagueSettings(name=name, game="sticks", format=fmt, schedule="0 20 * * *",
                                         divisions=divisions, promote=promote, games_per_pair=2,
                                         rounds_per_season=rounds), now=START)
    # Strong bots join last, so they start at the bottom (equal ratings: earlier joiners rank higher).
    for alias, spec in bots or [("r1", "random"), ("r2", "random"), ("r3", "random"), ("g1", "greedy"),
                                ("g2", "greedy"), ("r4", "random")]:
        join_league(engine, name, spec, alias=alias, now=START)
    return engine


def test_one_round_per_tick_and_nothing_before_it_is_due(tmp_path) -> None:
    engine = make_league(tmp_path)
    clock = FakeClock(START + timedelta(hours=19, minutes=59))
    assert run_due(engine, clock=clock) == []
    clock.when = START + timedelta(hours=20)
    first = run_due(engine, clock=clock)
    assert [(r.season, r.round, r.status) for r in first] == [(0, 0, "done")]
    assert run_due(engine, clock=clock) == []  # idempotent: the same tick is not played twice
    clock.to_day(3)  # three more ticks passed (days 1, 2 and 3): catch up in order
    caught_up = run_due(engine, clock=clock, catch_up=None)
    assert [(r.season, r.round) for r in caught_up] == [(0, 1), (0, 2), (1, 0)]
    assert [r.due for r in caught_up] == [START + timedelta(days=d, hours=20) for d in (1, 2, 3)]


def test_three_seasons_with_promotion_relegation_and_carried_ratings(tmp_path) -> None:
    engine = make_league(tmp_path)
    clock = FakeClock()
    placements: list[dict[int, set[str]]] = []
    finals: list[list[list[str]]] = []
    for season in range(3):
        for rnd in range(3):  # three members per division: three round-robin rounds (one bye each)
            clock.to_day(season * 3 + rnd)
            played = run_due(engine, clock=clock)
            assert [(r.season, r.round) for r in played] == [(season, rnd)]
        table = league_standings(engine, "l", season)
        placements.append({d: {s.alias for s in rows} for d, rows in table.divisions})
        finals.append([[s.alias for s in rows] for _, rows in table.divisions])
        assert all(s.games == 4 for _, rows in table.divisions for s in rows)  # 2 opponents x 2 games
    for season in (1, 2):
        top, bottom = finals[season - 1]
        promoted, relegated = bottom[0], top[-1]
        assert placements[season][0] == (set(top) - {relegated}) | {promoted}
        assert placements[season][1] == (set(bottom) - {promoted}) | {relegated}
    # The strong bots started at the bottom and climbed: by the third season both are on top.
    assert placements[0][1] >= {"g1", "g2"}
    assert placements[2][0] >= {"g1", "g2"}
    # Ratings carried across seasons: exactly an OpenSkill pass over every played match in order.
    model = PlackettLuce()
    expected = {a: model.rating() for a in ("r1", "r2", "r3", "g1", "g2", "r4")}
    with Session(engine) as session:
        rounds = session.exec(select(LeagueRound).order_by(LeagueRound.slot)).all()
        for rd in rounds:
            matches = session.exec(select(Match).where(Match.round == rd.round).where(Match.players == 2)
                                   .order_by(Match.tournament_id, Match.number)).all()
            from tourney.tournament.store.league_tables import LeagueDivision
            tids = {d.tournament_id for d in session.exec(select(LeagueDivision)
                                                          .where(LeagueDivision.season == rd.season))}
            for match in matches:
                if match.tournament_id not in tids:
                    continue
                seats = sorted(session.exec(select(MatchSeat).where(MatchSeat.match_id == match.id)).all(),
                               key=lambda s: s.seat)
                rated = model.rate([[expected[s.alias]] for s in seats], ranks=[float(s.tier) for s in seats])
                for s, team in zip(seats, rated, strict=True):
                    expected[s.alias] = team[0]
    carried = members(engine)
    for alias, rating in expected.items():
        assert abs(carried[alias].mu - rating.mu) < 1e-9 and abs(carried[alias].sigma - rating.sigma) < 1e-9
    assert min(carried[g].mu for g in ("g1", "g2")) > max(carried[r].mu for r in ("r1", "r2", "r3", "r4"))


def test_an_offline_bot_forfeits_without_blocking_the_round(tmp_path) -> None:
    engine = make_league(tmp_path, divisions=1, promote=0,
                         bots=[("a", "random"), ("b", "greedy"), ("ghost", "remote:ghost"), ("c", "random")])
    clock = FakeClock()
    clock.to_day(0)
    online = {"remote:ghost": False}
    report = run_due(engine, clock=clock, presence=lambda spec: online.get(spec, True))
    assert len(report) == 1 and report[0].forfeits == 2 and report[0].matches == 2  # 4 bots: 2 pairs x 2 games
    with Session(engine) as session:
        forfeits = session.exec(select(Match).where(Match.termination == OFFLINE)).all()
        assert len(forfeits) == 2
        for match in forfeits:
            seats = {s.alias: s for s in session.exec(select(MatchSeat).where(MatchSeat.match_id == match.id))}
            assert seats["ghost"].points == 0 and sum(s.points for s in seats.values()) == 1
    table = league_standings(engine, "l")
    ghost = next(s for _, rows in table.divisions for s in rows if s.alias == "ghost")
    assert ghost.points == 0 and ghost.faults == 2


def test_a_dead_callers_claim_expires_and_is_taken_over(tmp_path) -> None:
    engine = make_league(tmp_path, divisions=1, promote=0)
    clock = FakeClock()
    clock.to_day(0)
    with Session(engine) as session:
        session.add(LeagueRound(league_id=1, slot=0, season=0, round=0, due_ts=(START + timedelta(hours=20))
                                .timestamp(), status="running", owner="dead:1", claimed_ts=clock().timestamp()))
        session.commit()
    assert run_due(engine, clock=clock, lease_s=600) == []  # still within the lease: someone may be playing
    clock.when += timedelta(minutes=11)
    report = run_due(engine, clock=clock, lease_s=600)
    assert [(r.season, r.round, r.status) for r in report] == [(0, 0, "done")]
    assert report[0].matches == 6  # 6 bots, 3 pairs x 2 games


def test_two_concurrent_run_due_calls_play_each_round_once(tmp_path) -> None:
    make_league(tmp_path, divisions=2, promote=1)
    clock = FakeClock()
    clock.to_day(5)  # six rounds are due: two whole seasons
    executor = CountingExecutor(delay_s=0.01)
    barrier = threading.Barrier(2)
    reports: dict[str, list] = {}
    errors: list[BaseException] = []

    # Each caller with its own engine (connections), as two processes would have.
    engines = [open_store(str(tmp_path / "league.db")) for _ in range(2)]

    def caller(owner: str) -> None:
        try:
            engine = engines[int(owner[-1])]
            barrier.wait(30)
            reports[owner] = run_due(engine, clock=clock, executor=executor, owner=owner, catch_up=None)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=caller, args=(f"caller-{i}",)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    slots = [r.slot for rs in reports.values() for r in rs]
    assert sorted(slots) == list(range(6))  # every round played, none twice
    assert all(n == 1 for n in executor.plays.values())
    engine = open_store(str(tmp_path / "league.db"))
    with Session(engine) as session:
        stored = session.exec(select(Match).where(Match.players == 2)).all()
        assert len(stored) == len(executor.plays) == 6 * 2 * 2  # 6 rounds x 2 divisions x (1 pair x 2 games)
        assert {r.status for r in session.exec(select(LeagueRound))} == {"done"}
    assert run_due(engine, clock=clock) == []


RUN_CLI = "import sys, tests.sticks, tourney.tournament.cli.league; from tourney.tournament.cli import app; app()"


def test_two_run_due_processes_at_once_play_each_round_once(tmp_path) -> None:
    """Two `tourney league run-due` processes started together (as two overlapping cron jobs)."""
    import json
    import os
    import subprocess
    import sys

    db = str(tmp_path / "league.db")
    make_league(tmp_path, divisions=2, promote=1,
                bots=[("a", "ismcts"), ("b", "random"), ("c", "greedy"), ("d", "ismcts"), ("e", "random"),
                      ("f", "greedy")])
    now = (START + timedelta(days=8, hours=21)).isoformat()  # nine rounds due: three seasons
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    cmd = [sys.executable, "-c", RUN_CLI, "league", "run-due", "--db", db, "--local", "--now", now, "--json",
           "--catch-up", "all"]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=root, env=env)
             for _ in range(2)]
    outputs = [p.communicate(timeout=240) for p in procs]
    for p, (_out, errs) in zip(procs, outputs, strict=True):
        assert p.returncode == 0, errs
    slots = [r["slot"] for out, _ in outputs for r in json.loads(out)["rounds"]]
    assert sorted(slots) == list(range(9))
    engine = open_store(db)
    with Session(engine) as session:
        assert len(session.exec(select(Match).where(Match.players == 2)).all()) == 9 * 2 * 2
        rounds = session.exec(select(LeagueRound).order_by(LeagueRound.slot)).all()
        assert [(r.season, r.round, r.status) for r in rounds] == [(s, k, "done") for s in range(3) for k in range(3)]


def test_concurrent_run_due_on_postgresql_plays_each_round_once(postgres_url) -> None:
    from tourney.tournament.store.league_tables import LeagueDivision

    engines = [open_store(postgres_url) for _ in range(3)]
    create_league(engines[0], LeagueSettings(name="pg-league", game="sticks", format="swiss", schedule="*/5 * * * *",
                                             rounds_per_season=2, divisions=2, promote=1), now=START)
    for i in range(8):
        join_league(engines[0], "pg-league", "greedy" if i % 2 else "random", alias=f"bot{i}", now=START)
    clock = FakeClock(START + timedelta(minutes=31))  # six ticks: three seasons of two Swiss rounds
    executor = CountingExecutor(delay_s=0.01)
    barrier = threading.Barrier(3)
    slots: list[int] = []
    errors: list[BaseException] = []

    def caller(i: int) -> None:
        try:
            barrier.wait(30)
            slots.extend(r.slot for r in run_due(engines[i], "pg-league", clock=clock, executor=executor,
                                                 owner=f"pg-{i}", catch_up=None))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=caller, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    assert sorted(slots) == list(range(6))
    assert executor.plays and all(n == 1 for n in executor.plays.values())
    with Session(engines[0]) as session:
        league_id = _league_id(session)
        league_tids = [d.tournament_id for d in session.exec(select(LeagueDivision)
                                                             .where(LeagueDivision.league_id == league_id))]
        stored = session.exec(select(Match).where(Match.tournament_id.in_(league_tids))  # type: ignore[union-attr]
                              .where(Match.players == 2)).all()
    # 3 seasons x 2 divisions of 4 x 2 rounds x 2 pairs x 2 games
    assert len(stored) == len(executor.plays) == 3 * 2 * 2 * 2 * 2


def _league_id(session: Session) -> int:
    from tourney.tournament.store.league_tables import League

    league = session.exec(select(League).where(League.name == "pg-league")).one()
    assert league.id is not None
    return league.id
