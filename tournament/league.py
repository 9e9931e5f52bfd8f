"""Leagues: seasons of scheduled rounds, divisions with promotion and relegation, ratings carried over.

A league plays one round per tick of its cron schedule (croniter). The ticks are numbered
slots; slot k is round k % R of some season, where R is the season's round count. Each season
is a set of ordinary tournaments (one per division, stored like any other tournament), so
pairing, results, byes and standings are the tournament code's; a league round is one round of
each of its division tournaments.

`run_due` plays every slot whose time has passed, in order, and is safe to run from cron
every minute and from several processes at once: a slot is claimed by inserting its
LeagueRound row, whose (league, slot) pair is unique, so exactly one caller wins each slot
and the others move on. The claim is a lease: the caller renews it while the round plays
(every third of `lease_s`), and gives it back when it is stopped (SIGTERM, an exception), so
another caller takes the round over at once. A caller that dies without a word leaves a claim
that expires after `lease_s`; whoever reclaims it replays the round, and matches already
stored are skipped. After downtime only the latest `catch_up` due rounds are played; the
older ones are recorded as one "missed" slot. The clock is a parameter, so tests step through
months of schedule without sleeping.

The league tables live in their own SQLAlchemy metadata, and are made by the store's Alembic
migrations like every other table (`open_store`).
"""

from __future__ import annotations

import math
import os
import socket
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from croniter import croniter
from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from engine.core import ConfigError, Termination, get_game
from engine.core import forfeit as forfeit_outcome
from engine.core.chance import stream_start
from engine.server.launcher import command_name, is_command
from engine.server.metrics import LEAGUE_MATCHES, LEAGUE_ROUNDS
from tournament.entrants import Entrant
from tournament.formats import default_swiss_rounds, next_round
from tournament.pairing import Pairing
from tournament.ratings import Skill, initial_skill, openskill_ratings
from tournament.round_robin import berger_rounds
from tournament.runner import Executor, InProcess, TournamentPlan, load_plan
from tournament.standings import SeatResult, Standing
from tournament.store.codec import dumps
from tournament.store.league_tables import League, LeagueDivision, LeagueMember, LeagueRound, LeagueSeason
from tournament.store.reads import load_history, load_standings
from tournament.store.records import MatchRecord, Played, SeatRecord
from tournament.store.tables import Match, MatchSeat
from tournament.store.writes import create_tournament, record_matches, save_ratings

LEAGUE_FORMATS = ("swiss", "round-robin")
REMOTE = "remote:"
OFFLINE = Termination.DISCONNECTION  # the fault of a seat that is not there

DEFAULT_LEASE_S = 300.0  # a claim not renewed for this long belongs to a dead caller
DEFAULT_CATCH_UP = 3  # due rounds played after downtime; older ones are recorded as missed
MISSED = "missed"

Clock = Callable[[], datetime]
Presence = Callable[[str], bool]
RoundHook = Callable[["RoundReport"], None]

def _id(league: League) -> int:
    assert league.id is not None
    return league.id


def utc_now() -> datetime:
    return datetime.now(UTC)


# ---------------------------------------------------------------------------------------- setup


@dataclass
class LeagueSettings:
    name: str
    game: str
    format: str = "swiss"
    schedule: str = "0 * * * *"
    rounds_per_season: int | None = None
    divisions: int = 1
    promote: int = 0
    games_per_pair: int = 2
    players: int = 2
    move_ms: int | None = None
    config: dict[str, Any] = field(default_factory=dict)
    seed: int = 1

    def check(self) -> None:
        """One sentence for each setting a user can get wrong."""
        game = get_game(self.game)
        if self.format not in LEAGUE_FORMATS:
            raise ConfigError(f"a league's format is swiss or round-robin, not '{self.format}': fix --format.")
        if not croniter.is_valid(self.schedule):
            raise ConfigError(f"'{self.schedule}' is not a cron schedule: write five fields, e.g. --schedule "
                              "'0 20 * * *' for every day at 20:00 UTC.")
        if self.rounds_per_season is not None and self.rounds_per_season < 1:
            raise ConfigError(f"--rounds-per-season must be at least 1, not {self.rounds_per_season}.")
        if self.divisions < 1:
            raise ConfigError(f"--divisions must be at least 1, not {self.divisions}.")
        if self.promote < 0 or (self.divisions > 1 and self.promote < 1):
            raise ConfigError("--promote must be at least 1 when there are several divisions: pass e.g. --promote 2.")
        if self.games_per_pair < 1:
            raise ConfigError(f"--games-per-pair must be at least 1, not {self.games_per_pair}.")
        if self.players != 2 or not game.min_players <= 2 <= game.max_players:
            raise ConfigError(f"leagues pair two players per match and {self.game} is not a two-player game: "
                              "pick another --game.")
        game.new_state(0, players=2, config=self.config)


def create_league(engine: Engine, settings: LeagueSettings, now: datetime | None = None) -> int:
    """Store a new league; its first round is the schedule's first tick after `now`."""
    settings.check()
    when = now or utc_now()
    with Session(engine) as session:
        if session.exec(select(League).where(League.name == settings.name)).first() is not None:
            raise ConfigError(f"there is already a league named '{settings.name}': pick another name.")
        league = League(name=settings.name, game=settings.game, format=settings.format, schedule=settings.schedule,
                        rounds_per_season=settings.rounds_per_season, divisions=settings.divisions,
                        promote=settings.promote, games_per_pair=settings.games_per_pair, players=settings.players,
                        move_ms=settings.move_ms, config_json=dumps(settings.config), seed=settings.seed,
                        anchor_ts=when.timestamp())
        session.add(league)
        try:
            session.commit()
        except IntegrityError:
            raise ConfigError(f"there is already a league named '{settings.name}': pick another name.") from None
        assert league.id is not None
        return league.id


def get_league(session: Session, name: str) -> League:
    league = session.exec(select(League).where(League.name == name)).first()
    if league is None:
        raise ConfigError(f"there is no league named '{name}': create it with `tourney league create`.")
    return league


def join_league(engine: Engine, name: str, spec: str, alias: str | None = None, now: datetime | None = None) -> str:
    """Enter bot `spec`: a built-in bot, remote:NAME (a bot connected to the arena) or cmd:PROGRAM (a
    program started for each match where the round is played); returns its alias.

    A bot that joins during a season plays from the next season on, in the lowest division. A
    member that left may join again under the same alias (its rating is kept).
    """
    with Session(engine) as session:
        league = get_league(session, name)
        assert league.id is not None
        if is_command(spec):
            command_name(spec, 0)  # a spec naming no program fails here; the program runs where rounds are played
        elif not spec.startswith(REMOTE):
            from engine.bots import make_bot

            make_bot(spec, get_game(league.game), 0)  # an unknown bot fails here
        who = alias or spec
        existing = session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id)
                                .where(LeagueMember.alias == who)).first()
        if existing is not None and existing.left_ts is not None and existing.spec == spec:
            existing.left_ts = None
            session.add(existing)
            session.commit()
            return who
        if existing is not None:
            raise ConfigError(f"'{who}' is already in league '{name}': pass another --alias.")
        rating = initial_skill(who)
        session.add(LeagueMember(league_id=league.id, alias=who, spec=spec, mu=rating.mu, sigma=rating.sigma,
                                 joined_ts=(now or utc_now()).timestamp()))
        try:
            session.commit()
        except IntegrityError:
            raise ConfigError(f"'{who}' is already in league '{name}': pass another --alias.") from None
    return who


def leave_league(engine: Engine, name: str, alias: str, now: datetime | None = None) -> None:
    """Take `alias` out of the league: it forfeits its remaining matches of the season and is not
    placed in the next one. Its results so far stay in the standings."""
    with Session(engine) as session:
        league = get_league(session, name)
        member = session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id)
                              .where(LeagueMember.alias == alias)).first()
        if member is None or member.left_ts is not None:
            raise ConfigError(f"'{alias}' is not a member of league '{name}': see `tourney league list`.")
        member.left_ts = (now or utc_now()).timestamp()
        session.add(member)
        session.commit()


def set_paused(engine: Engine, name: str, paused: bool, now: datetime | None = None) -> datetime:
    """Pause or resume a league; returns when its next round is due.

    Resuming does not play the ticks that passed while it was paused: the schedule restarts
    from the time of resuming.
    """
    with Session(engine) as session:
        league = get_league(session, name)
        if league.paused == paused:
            state = "paused" if paused else "running"
            raise ConfigError(f"league '{name}' is already {state}: nothing to do.")
        league.paused = paused
        if not paused:
            league.anchor_ts = (now or utc_now()).timestamp()
        session.add(league)
        session.commit()
    return league_standings(engine, name).next_due or (now or utc_now())


@dataclass
class LeagueSummary:
    """One line of `tourney league list`."""

    name: str
    game: str
    format: str
    schedule: str
    members: int
    paused: bool
    season: int | None  # the latest started season
    next_due: datetime | None  # None while paused


def list_leagues(engine: Engine) -> list[LeagueSummary]:
    """Every league, by name."""
    out = []
    with Session(engine) as session:
        leagues = session.exec(select(League).order_by(League.name)).all()
        for lg in leagues:
            members = session.exec(select(LeagueMember).where(LeagueMember.league_id == lg.id)
                                   .where(LeagueMember.left_ts == None)).all()  # noqa: E711  (SQL IS NULL)
            seasons = [s.season for s in session.exec(select(LeagueSeason).where(LeagueSeason.league_id == lg.id))]
            out.append(LeagueSummary(lg.name, lg.game, lg.format, lg.schedule, len(members), lg.paused,
                                     max(seasons) if seasons else None,
                                     None if lg.paused else _next_due(session, lg)))
    return out


def _next_due(session: Session, league: League) -> datetime:
    last = session.exec(select(LeagueRound).where(LeagueRound.league_id == league.id)
                        .order_by(LeagueRound.slot.desc())).first()  # type: ignore[attr-defined]
    return datetime.fromtimestamp(_due_after(league, last), UTC)


def _due_after(league: League, last: LeagueRound | None) -> float:
    """When the slot after `last` is due: the schedule's next tick after the last slot (or after
    the league's anchor: its creation, or its last resume)."""
    anchor = league.anchor_ts if last is None else max(last.due_ts, league.anchor_ts)
    return float(croniter(league.schedule, anchor).get_next(float))


def parse_catch_up(text: str) -> int | None:
    """--catch-up: `all` (None), `latest` (1) or a positive number of rounds."""
    value = text.strip().lower()
    if value == "all":
        return None
    if value == "latest":
        return 1
    if value.isdigit() and int(value) >= 1:
        return int(value)
    raise ConfigError(f"--catch-up is all, latest or a number of rounds (at least 1), not '{text}'.")


# ---------------------------------------------------------------------------------------- running


@dataclass
class RoundReport:
    league: str
    slot: int
    season: int
    round: int  # for a missed slot: how many ticks were passed over
    due: datetime
    matches: int
    forfeits: int
    status: str  # done | skipped | missed | released (stopped mid-round, claim given back)

    def line(self) -> str:
        """The one line `run-due` (and the arena) print for this slot."""
        due = f"{self.due:%Y-%m-%d %H:%M}"
        if self.status == MISSED:
            return (f"{self.league}: missed {self.round} round(s) due up to {due} (catch-up policy); "
                    "playing the latest")
        if self.status == "skipped":
            return (f"{self.league}: round due {due} skipped: too few bots for its divisions (each needs two); "
                    "add bots with `tourney league join` or create the league with fewer --divisions.")
        if self.status == "released":
            return f"{self.league}: season {self.season} round {self.round} (due {due}) stopped; claim released"
        return (f"{self.league}: season {self.season} round {self.round} (due {due}) {self.status}, "
                f"{self.matches} matches, {self.forfeits} forfeits")


class RoundStopped(Exception):  # noqa: N818  (a request, not an error)
    """Raised inside a round when the caller was asked to stop (the claim is then released)."""


def default_owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def run_due(
    engine: Engine,
    name: str | None = None,
    clock: Clock = utc_now,
    executor: Executor | None = None,
    presence: Presence | None = None,
    owner: str | None = None,
    lease_s: float = DEFAULT_LEASE_S,
    max_rounds: int | None = None,
    catch_up: int | None = DEFAULT_CATCH_UP,
    on_round: RoundHook | None = None,
    stop: threading.Event | None = None,
) -> list[RoundReport]:
    """Play every round (of league `name`, or of every league not paused) whose scheduled time has passed.

    presence(spec) tells whether a remote bot is connected; an offline bot forfeits its
    matches of the round and gets no bye. Without it, remote bots count as offline (they can
    only play on an arena: `tourney serve --leagues`). catch_up: how many of the due rounds
    are played when several are (None: all); the older ones become one missed slot.
    on_round(report) runs as each slot ends. Setting `stop` ends the call between matches,
    giving the round's claim back. Returns the slots this call handled.
    """
    if lease_s <= 0:
        raise ConfigError(f"the claim lease must be a positive number of seconds, not {lease_s}.")
    with Session(engine) as session:
        if name is not None:
            ids = [get_league(session, name).id]
        else:
            ids = [lg.id for lg in session.exec(select(League).where(League.paused == False)  # noqa: E712
                                                .order_by(League.id))]  # type: ignore[arg-type]
    played: list[RoundReport] = []
    me = owner or default_owner()
    for league_id in ids:
        assert league_id is not None
        while max_rounds is None or len(played) < max_rounds:
            if stop is not None and stop.is_set():
                return played
            report = _run_next(engine, league_id, clock, executor or InProcess(), presence or _builtin_only, me,
                               lease_s, catch_up, stop)
            if report is None:
                break
            played.append(report)
            count_round(report)
            if on_round is not None:
                on_round(report)
            if report.status == "released":
                return played
    return played


def count_round(report: RoundReport) -> None:
    """The league series of the metrics registry (served by whichever process plays the rounds)."""
    LEAGUE_ROUNDS.labels(report.status).inc()
    LEAGUE_MATCHES.labels("played").inc(report.matches)
    LEAGUE_MATCHES.labels("forfeit").inc(report.forfeits)


def _builtin_only(spec: str) -> bool:
    return not spec.startswith(REMOTE)


def _claim(engine: Engine, league: League, now: float, owner: str, lease_s: float,
           catch_up: int | None = None) -> LeagueRound | None:
    """Claim the next slot that is due (or a dead or stopped caller's claim); None when there is none to take.

    When more than `catch_up` ticks are due, the older ones are claimed together as one missed slot.
    """
    with Session(engine) as session:
        last = session.exec(select(LeagueRound).where(LeagueRound.league_id == league.id)
                            .order_by(LeagueRound.slot.desc())).first()  # type: ignore[attr-defined]
        if last is not None and last.status == "running":
            if last.claimed_ts > now - lease_s:
                return None  # another caller is playing it
            # Reclaim atomically: only one caller's UPDATE matches the old owner and time.
            result = session.execute(update(LeagueRound).where(LeagueRound.id == last.id)  # type: ignore[arg-type]
                                     .where(LeagueRound.owner == last.owner)  # type: ignore[arg-type]
                                     .where(LeagueRound.claimed_ts == last.claimed_ts)  # type: ignore[arg-type]
                                     .values(owner=owner, claimed_ts=now))
            session.commit()
            if result.rowcount != 1:  # type: ignore[attr-defined]
                return None
            session.refresh(last)
            return last
        if league.paused:
            return None
        due = _due_after(league, last)
        if due > now:
            return None
        slot = 0 if last is None else last.slot + 1
        kept = _oldest_kept(league.schedule, now, catch_up)
        if kept is not None and due < kept:
            # Ticks from `due` to just before `kept` are passed over: one row stands for all of them.
            newest_missed = float(croniter(league.schedule, kept).get_prev(float))
            claim = LeagueRound(league_id=_id(league), slot=slot, season=-1, round=_ticks(league.schedule, due, kept),
                                due_ts=newest_missed, status=MISSED, owner=owner, claimed_ts=now)
        else:
            season, rnd = _next_position(session, league, last)
            claim = LeagueRound(league_id=_id(league), slot=slot, season=season, round=rnd, due_ts=due,
                                status="running", owner=owner, claimed_ts=now)
        session.add(claim)
        try:
            session.commit()
        except IntegrityError:  # another caller claimed this slot first
            session.rollback()
            return None
        session.refresh(claim)
        return claim


MAX_COUNTED_TICKS = 100_000  # counting missed ticks stops here (an every-minute league down for months)


def _oldest_kept(schedule: str, now: float, catch_up: int | None) -> float | None:
    """The earliest of the latest `catch_up` ticks at or before `now` (None: keep every tick)."""
    if catch_up is None:
        return None
    ticks = croniter(schedule, now + 1e-3)
    tick = now
    for _ in range(catch_up):
        tick = float(ticks.get_prev(float))
    return tick


def _ticks(schedule: str, first: float, until: float) -> int:
    """How many ticks fall in [first, until) (first is a tick)."""
    ticks = croniter(schedule, first)
    count, tick = 1, first
    while count < MAX_COUNTED_TICKS:
        tick = float(ticks.get_next(float))
        if tick >= until:
            break
        count += 1
    return count


class LeaseKeeper:
    """Renews a round's claim every third of the lease while the round plays (a daemon thread).

    Only a claim still ours and still running is renewed; a caller that lost its claim (the
    lease ran out while it was stalled) finds out in `_finish`, which then leaves the round alone.
    """

    def __init__(self, engine: Engine, claim_id: int, owner: str, lease_s: float, clock: Clock) -> None:
        self.engine = engine
        self.claim_id = claim_id
        self.owner = owner
        self.interval_s = lease_s / 3
        self.clock = clock
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="league-lease", daemon=True)

    def renew(self) -> bool:
        """Push the claim's time to now; False when the claim is no longer ours."""
        with Session(self.engine) as session:
            result = session.execute(update(LeagueRound).where(LeagueRound.id == self.claim_id)  # type: ignore[arg-type]
                                     .where(LeagueRound.owner == self.owner)  # type: ignore[arg-type]
                                     .where(LeagueRound.status == "running")  # type: ignore[arg-type]
                                     .values(claimed_ts=self.clock().timestamp()))
            session.commit()
            return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    def _run(self) -> None:
        while not self._done.wait(self.interval_s):
            try:
                if not self.renew():
                    return
            except Exception:  # the database is away for a moment: the next beat tries again
                continue

    def __enter__(self) -> LeaseKeeper:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._done.set()
        self._thread.join(5.0)


def release(engine: Engine, claim_id: int, owner: str) -> bool:
    """Give a running claim back (its time goes to 0, so the next caller takes it over at once)."""
    with Session(engine) as session:
        result = session.execute(update(LeagueRound).where(LeagueRound.id == claim_id)  # type: ignore[arg-type]
                                 .where(LeagueRound.owner == owner)  # type: ignore[arg-type]
                                 .where(LeagueRound.status == "running")  # type: ignore[arg-type]
                                 .values(claimed_ts=0.0))
        session.commit()
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]


def _next_position(session: Session, league: League, last: LeagueRound | None) -> tuple[int, int]:
    """(season, round) of the slot after `last`: the next round, or round 0 of a new season."""
    played = session.exec(select(LeagueRound).where(LeagueRound.league_id == league.id)
                          .where(LeagueRound.season >= 0)
                          .order_by(LeagueRound.slot.desc())).first()  # type: ignore[attr-defined]
    if played is None:
        return 0, 0
    season = session.exec(select(LeagueSeason).where(LeagueSeason.league_id == league.id)
                          .where(LeagueSeason.season == played.season)).first()
    if season is not None and played.round + 1 < season.rounds:
        return played.season, played.round + 1
    return played.season + 1, 0


def _run_next(engine: Engine, league_id: int, clock: Clock, executor: Executor, presence: Presence, owner: str,
              lease_s: float, catch_up: int | None = None, stop: threading.Event | None = None
              ) -> RoundReport | None:
    with Session(engine) as session:
        league = session.get(League, league_id)
        assert league is not None
        session.expunge(league)
    claim = _claim(engine, league, clock().timestamp(), owner, lease_s, catch_up)
    if claim is None:
        return None
    due = datetime.fromtimestamp(claim.due_ts, UTC)
    if claim.status == MISSED:
        return RoundReport(league.name, claim.slot, -1, claim.round, due, 0, 0, MISSED)
    assert claim.id is not None
    status = "done"
    matches = forfeits = 0
    try:
        with LeaseKeeper(engine, claim.id, owner, lease_s, clock):
            if claim.round == 0 and not _season_started(engine, league, claim.season) \
                    and not _start_season(engine, league, claim.season, clock().timestamp()):
                status = "skipped"
            if status == "done":
                matches, forfeits = _play_round(engine, league, claim.season, claim.round, executor, presence,
                                                stop)
    except RoundStopped:
        release(engine, claim.id, owner)
        return RoundReport(league.name, claim.slot, claim.season, claim.round, due, matches, forfeits, "released")
    except BaseException:
        # SIGTERM (raised as an exception by the command line), Ctrl-C or a failure: whoever runs next
        # takes the round over at once instead of after the lease.
        release(engine, claim.id, owner)
        raise
    _finish(engine, league, claim, status, matches, forfeits)
    return RoundReport(league.name, claim.slot, claim.season if status == "done" else -1, claim.round,
                       due, matches, forfeits, status)


def _season_started(engine: Engine, league: League, season: int) -> bool:
    with Session(engine) as session:
        return session.exec(select(LeagueSeason).where(LeagueSeason.league_id == league.id)
                            .where(LeagueSeason.season == season)).first() is not None


def division_sizes(members: int, divisions: int) -> list[int]:
    """Members per division, top first; lower divisions take the remainder."""
    base, extra = divmod(members, divisions)
    return [base + (1 if d >= divisions - extra else 0) for d in range(divisions)]


def _start_season(engine: Engine, league: League, season: int, now: float) -> bool:
    """Place members into divisions (promotion and relegation after season 0) and create the division
    tournaments. False when there are too few members for the league's divisions.

    Safe to repeat after a crash: divisions already created are kept, and the LeagueSeason row,
    written last, is what marks the season as started.
    """
    with Session(engine) as session:
        members = list(session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id)
                                    .where(LeagueMember.left_ts == None)  # noqa: E711  (SQL IS NULL)
                                    .order_by(LeagueMember.id)))  # type: ignore[arg-type]
        for m in members:
            session.expunge(m)
    divisions = league.divisions
    if len(members) < 2 * divisions:
        return False
    previous = _previous_order(engine, league, season - 1) if season > 0 else None
    if previous is None:
        # First season: strongest (conservative rating) on top, then who joined first.
        ranked = sorted(members, key=lambda m: (-(m.mu - 3 * m.sigma), m.id or 0))
        placed: list[list[LeagueMember]] = []
        start = 0
        for size in division_sizes(len(ranked), divisions):
            placed.append(ranked[start:start + size])
            start += size
    else:
        placed = _promote_and_relegate(previous, members, divisions, league.promote)
    existing = dict(_divisions(engine, league, season))
    for d, group in enumerate(placed):
        if d not in existing:
            tid = create_tournament(engine, _division_plan(league, season, d, group))
            with Session(engine) as session:
                session.add(LeagueDivision(league_id=_id(league), season=season, division=d, tournament_id=tid))
                session.commit()
    with Session(engine) as session:
        for d, group in enumerate(placed):
            for m in group:
                row = session.get(LeagueMember, m.id)
                assert row is not None
                row.division = d
                session.add(row)
        rounds = max(_rounds_of(league, len(group)) for group in placed)
        session.add(LeagueSeason(league_id=_id(league), season=season, rounds=rounds, started_ts=now))
        session.commit()
    return True


def _previous_order(engine: Engine, league: League, season: int) -> list[list[str]] | None:
    """Each division's final order (aliases, best first) of `season`."""
    tables = season_standings(engine, league, season)
    if not tables:
        return None
    return [[s.alias for s in table] for _, table in sorted(tables)]


def _promote_and_relegate(previous: list[list[str]], members: Sequence[LeagueMember], divisions: int,
                          promote: int) -> list[list[LeagueMember]]:
    """The top `promote` of each division go up one, the bottom `promote` go down one; newcomers
    start in the lowest division."""
    by_alias = {m.alias: m for m in members}
    order = [[a for a in div if a in by_alias] for div in previous]
    while len(order) < divisions:
        order.append([])
    new: list[list[str]] = [list(div) for div in order[:divisions]]
    for d in range(divisions - 1):
        upper, lower = order[d], order[d + 1]
        k = min(promote, len(upper) // 2, len(lower) // 2)
        if k == 0:
            continue
        down, up = upper[len(upper) - k:], lower[:k]
        new[d] = [a for a in new[d] if a not in down] + up
        new[d + 1] = down + [a for a in new[d + 1] if a not in up]
    seen = {a for div in new for a in div}
    new[-1].extend(m.alias for m in members if m.alias not in seen)
    return [[by_alias[a] for a in div] for div in new]


def _rounds_of(league: League, n: int) -> int:
    if league.format == "swiss":
        return league.rounds_per_season or default_swiss_rounds(n)
    one_cycle = len(berger_rounds(n))
    return league.rounds_per_season or one_cycle


def _division_plan(league: League, season: int, division: int, group: Sequence[LeagueMember]) -> TournamentPlan:
    import json

    n = len(group)
    rounds = _rounds_of(league, n)
    cycles = 1
    if league.format == "round-robin":
        cycles = max(1, math.ceil(rounds / len(berger_rounds(n))))
    seed = stream_start(league.seed, f"season/{season}/division/{division}") >> 2
    return TournamentPlan(game=league.game, entrants=[Entrant(m.alias, m.spec) for m in group], seed=seed,
                          games_per_pair=league.games_per_pair, players=league.players,
                          config=json.loads(league.config_json), move_ms=league.move_ms,
                          name=f"{league.name} season {season} division {division + 1}", format=league.format,
                          cycles=cycles, rounds=rounds if league.format == "swiss" else None)


def _divisions(engine: Engine, league: League, season: int) -> list[tuple[int, int]]:
    with Session(engine) as session:
        rows = session.exec(select(LeagueDivision).where(LeagueDivision.league_id == league.id)
                            .where(LeagueDivision.season == season)
                            .order_by(LeagueDivision.division)).all()  # type: ignore[arg-type]
        return [(r.division, r.tournament_id) for r in rows]


def _play_round(engine: Engine, league: League, season: int, rnd: int, executor: Executor,
                presence: Presence, stop: threading.Event | None = None) -> tuple[int, int]:
    """Round `rnd` of every division; offline bots (and members who left) forfeit, and get no bye.
    Returns (matches played, forfeits)."""
    played = forfeits = 0
    gone = _left(engine, league)
    for _division, tid in _divisions(engine, league, season):
        tid, plan = load_plan(engine, tid)
        spec = plan.spec()
        n = len(plan.entrants)
        aliases = [e.alias for e in plan.entrants]
        if plan.format == "swiss":
            pairings = next_round(spec, n, load_history(engine, tid, aliases), rnd) or []
        else:
            pairings = [p for p in next_round(spec, n, [], 0) or [] if p.round == rnd]
        online = {i: e.alias not in gone and presence(e.spec) for i, e in enumerate(plan.entrants)}
        byes = [p for p in pairings if len(p.seats) == 1 and online[p.seats[0]]]
        lost_byes = [no_bye(plan, p) for p in pairings if len(p.seats) == 1 and not online[p.seats[0]]]
        absent = [p for p in pairings if len(p.seats) > 1 and not all(online[s] for s in p.seats)]
        games = [p for p in pairings if len(p.seats) > 1 and all(online[s] for s in p.seats)]
        record_matches(engine, tid, plan, [forfeit(plan, p, online) for p in absent] + lost_byes, byes)
        forfeits += len(absent)
        chunks = executor.run(plan, games)
        try:
            for chunk in chunks:
                record_matches(engine, tid, plan, chunk)
                # An executor that finds a bot gone only when it asks for the match returns a forfeit.
                absent_now = sum(1 for _, rec, _ in chunk if is_forfeit(rec))
                played += len(chunk) - absent_now
                forfeits += absent_now
                if stop is not None and stop.is_set():
                    raise RoundStopped
            if stop is not None and stop.is_set():  # the executor stopped handing out matches early
                raise RoundStopped
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()  # a generator left early stops handing out matches now, not when collected
    return played, forfeits


def _left(engine: Engine, league: League) -> set[str]:
    with Session(engine) as session:
        return {m.alias for m in session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id)
                                              .where(LeagueMember.left_ts != None))}  # noqa: E711


FORFEIT_DETAILS = dumps({"forfeit": True})


def is_forfeit(record: MatchRecord) -> bool:
    """A match not played because a bot was offline (made by `forfeit`)."""
    return record.details_json == FORFEIT_DETAILS


def forfeit(plan: TournamentPlan, pairing: Pairing, online: dict[int, bool]) -> Played:
    """The record of a match not played because a seat's bot was offline: the present seats win."""
    n = len(pairing.seats)
    away = tuple(i for i, e in enumerate(pairing.seats) if not online[e])
    reason = "offline: " + ", ".join(f"seat {i}" for i in away) if away else ""
    outcome = forfeit_outcome(n, away, reason)
    nobody_came = len(away) == n  # a double forfeit: no points for anyone
    seats = []
    for i, e in enumerate(pairing.seats):
        tier = outcome.tier_of(i)
        seats.append(SeatRecord(plan.entrants[e].alias, tier, len(outcome.ranking[tier]),
                                0.0 if nobody_came else outcome.points(i), outcome.scores[i], 0, 0.0,
                                dumps({OFFLINE: 1}) if i in away else "{}"))
    record = MatchRecord(seed=-1, players=n, termination=OFFLINE, reason=reason, plies=0, replay="",
                         details_json=FORFEIT_DETAILS, seats=tuple(seats))
    return pairing, record, 0.0


def no_bye(plan: TournamentPlan, pairing: Pairing) -> Played:
    """The bye of a bot that is offline: stored (Swiss sees the bye was used), worth nothing."""
    alias = plan.entrants[pairing.seats[0]].alias
    seat = SeatRecord(alias, 0, 1, 0.0, 0.0, 0, 0.0, dumps({OFFLINE: 1}))
    record = MatchRecord(seed=-1, players=1, termination=OFFLINE, reason="offline: no bye", plies=0, replay="",
                         details_json=FORFEIT_DETAILS, seats=(seat,))
    return pairing, record, 0.0


def _finish(engine: Engine, league: League, claim: LeagueRound, status: str, matches: int, forfeits: int) -> None:
    """Update carried ratings from the round's matches and mark the slot done, in one transaction;
    at a season's last round, store each division's final ratings and close its tournament."""
    with Session(engine) as session:
        row = session.get(LeagueRound, claim.id)
        assert row is not None
        if row.owner != claim.owner or row.status != "running":
            return  # our claim expired and another caller took the round over
        season_rounds = 0
        if status == "done":
            _rate_round(session, league, claim.season, claim.round)
            season = session.exec(select(LeagueSeason).where(LeagueSeason.league_id == league.id)
                                  .where(LeagueSeason.season == claim.season)).first()
            season_rounds = season.rounds if season is not None else 0
        else:
            row.season = -1
        row.status = status
        row.matches = matches
        row.forfeits = forfeits
        session.add(row)
        session.commit()
    if status == "done" and claim.round + 1 >= season_rounds:
        for _division, tid in _divisions(engine, league, claim.season):
            _, plan = load_plan(engine, tid)
            save_ratings(engine, tid, load_standings(engine, tid, [e.alias for e in plan.entrants]))


def _rate_round(session: Session, league: League, season: int, rnd: int) -> None:
    """OpenSkill update of every member from the round's matches (schedule order), from their carried ratings."""
    members = {m.alias: m for m in session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id))}
    tids = [d.tournament_id for d in session.exec(select(LeagueDivision).where(LeagueDivision.league_id == league.id)
                                                  .where(LeagueDivision.season == season))]
    matches = session.exec(select(Match).where(Match.tournament_id.in_(tids))  # type: ignore[union-attr]
                           .where(Match.round == rnd)
                           .order_by(Match.tournament_id, Match.number)).all()  # type: ignore[arg-type]
    results = []
    for match in matches:
        if match.players < 2 or match.details_json == FORFEIT_DETAILS:
            continue  # byes and forfeits say nothing about strength
        seats = sorted(session.exec(select(MatchSeat).where(MatchSeat.match_id == match.id)).all(),
                       key=lambda s: s.seat)
        tiers = [s.tier for s in seats]
        results.append([SeatResult(s.alias, s.tier, tiers.count(s.tier), s.points) for s in seats])
    carried = {a: Skill(a, m.mu, m.sigma) for a, m in members.items()}
    for alias, skill in openskill_ratings(list(members), results, carried).items():
        members[alias].mu, members[alias].sigma = skill.mu, skill.sigma
    for m in members.values():
        session.add(m)


# ---------------------------------------------------------------------------------------- reading


def season_standings(engine: Engine, league: League, season: int) -> list[tuple[int, list[Standing]]]:
    """(division, standings) of one season, top division first."""
    out = []
    for division, tid in _divisions(engine, league, season):
        _, plan = load_plan(engine, tid)
        out.append((division, load_standings(engine, tid, [e.alias for e in plan.entrants])))
    return out


@dataclass
class LeagueTable:
    league: str
    game: str
    season: int
    divisions: list[tuple[int, list[Standing]]]
    ratings: dict[str, tuple[float, float]]  # alias -> carried (mu, sigma)
    next_due: datetime | None


def league_standings(engine: Engine, name: str, season: int | None = None) -> LeagueTable:
    """The standings of a season (default: the latest started) and every member's carried rating."""
    with Session(engine) as session:
        league = get_league(session, name)
        session.expunge(league)
        seasons = [s.season for s in session.exec(select(LeagueSeason).where(LeagueSeason.league_id == league.id))]
        ratings = {m.alias: (m.mu, m.sigma)
                   for m in session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id))}
        last = session.exec(select(LeagueRound).where(LeagueRound.league_id == league.id)
                            .order_by(LeagueRound.slot.desc())).first()  # type: ignore[attr-defined]
    if season is None:
        season = max(seasons) if seasons else 0
    elif season not in seasons:
        raise ConfigError(f"league '{name}' has no season {season}: it has played seasons "
                          f"{', '.join(map(str, sorted(seasons))) or 'none yet'}.")
    next_due = None if league.paused else datetime.fromtimestamp(_due_after(league, last), UTC)
    return LeagueTable(league.name, league.game, season, season_standings(engine, league, season), ratings, next_due)


def parse_when(text: str | None) -> datetime | None:
    """An ISO time (UTC when no zone is given), for --now."""
    if text is None:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ConfigError(f"'{text}' is not an ISO time: write e.g. --now 2026-01-31T20:00.") from None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)
