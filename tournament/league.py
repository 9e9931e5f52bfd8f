"""Leagues: seasons of scheduled rounds, divisions with promotion and relegation, ratings carried over.

A league plays one round per tick of its cron schedule (croniter). The ticks are numbered
slots; slot k is round k % R of some season, where R is the season's round count. Each season
is a set of ordinary tournaments (one per division, stored like any other tournament), so
pairing, results, byes and standings are the tournament code's; a league round is one round of
each of its division tournaments.

`run_due` plays every slot whose time has passed, in order, and is safe to run from cron
every minute and from several processes at once: a slot is claimed by inserting its
LeagueRound row, whose (league, slot) pair is unique, so exactly one caller wins each slot
and the others move on. A caller that dies mid-round leaves a claim that expires after
`lease_s`; whoever reclaims it replays the round, and matches already stored are skipped.
The clock is a parameter, so tests step through months of schedule without sleeping.

The league tables live in their own SQLAlchemy metadata, and are made by the store's Alembic
migrations like every other table (`open_store`).
"""

from __future__ import annotations

import math
import os
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from croniter import croniter
from openskill.models import PlackettLuce
from sqlalchemy import UniqueConstraint, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import registry
from sqlmodel import Field, Session, SQLModel, select

from engine.core import ConfigError, Outcome, get_game
from engine.core.chance import stream_start
from tournament.entrants import Entrant
from tournament.formats import default_swiss_rounds, next_round
from tournament.round_robin import Pairing, berger_rounds
from tournament.runner import (
    Executor,
    InProcess,
    MatchRecord,
    Played,
    SeatRecord,
    TournamentPlan,
    create_tournament,
    load_history,
    load_plan,
    load_standings,
    record_matches,
    save_ratings,
)
from tournament.standings import Standing
from tournament.store import Match, MatchSeat, dumps

LEAGUE_FORMATS = ("swiss", "round-robin")
REMOTE = "remote:"
OFFLINE = "disconnection"  # the referee's fault kind for a seat that is not there

Clock = Callable[[], datetime]
Presence = Callable[[str], bool]

_registry = registry()


class LeagueModel(SQLModel, registry=_registry):
    """Base of the league tables (their own metadata; migration 0003 creates them)."""


class League(LeagueModel, table=True):
    """A league: its game, format, schedule and division settings."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True)
    game: str
    format: str
    schedule: str
    rounds_per_season: int | None = None  # None: a full round robin, or ceil(log2 n)+1 Swiss rounds
    divisions: int = 1
    promote: int = 0
    games_per_pair: int = 2
    players: int = 2
    move_ms: int | None = None
    config_json: str = "{}"
    seed: int = 1
    anchor_ts: float  # the schedule's first tick is the first one after this time


class LeagueMember(LeagueModel, table=True):
    """A bot in a league, with the rating it carries from round to round and season to season."""

    __table_args__ = (UniqueConstraint("league_id", "alias"),)
    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(index=True)
    alias: str
    spec: str
    mu: float
    sigma: float
    division: int | None = None  # None until the member's first season starts
    joined_ts: float


class LeagueSeason(LeagueModel, table=True):
    """One season: how many rounds it has."""

    __table_args__ = (UniqueConstraint("league_id", "season"),)
    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(index=True)
    season: int
    rounds: int
    started_ts: float


class LeagueDivision(LeagueModel, table=True):
    """The tournament that holds one division of one season."""

    __table_args__ = (UniqueConstraint("league_id", "season", "division"),)
    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(index=True)
    season: int
    division: int
    tournament_id: int


class LeagueRound(LeagueModel, table=True):
    """A schedule slot: claimed by exactly one run-due caller (unique league+slot), then done."""

    __table_args__ = (UniqueConstraint("league_id", "slot"),)
    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(index=True)
    slot: int
    season: int  # -1: the slot passed without a season (too few members)
    round: int
    due_ts: float
    status: str  # running | done | skipped
    owner: str
    claimed_ts: float
    matches: int = 0
    forfeits: int = 0


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
    """Enter bot `spec` (a built-in bot, or remote:NAME for a bot connected to the arena); returns its alias.

    A bot that joins during a season plays from the next season on, in the lowest division.
    """
    with Session(engine) as session:
        league = get_league(session, name)
        assert league.id is not None
        if not spec.startswith(REMOTE):
            from engine.bots import make_bot

            make_bot(spec, get_game(league.game), 0)  # an unknown bot fails here
        who = alias or spec
        if session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id)
                        .where(LeagueMember.alias == who)).first() is not None:
            raise ConfigError(f"'{who}' is already in league '{name}': pass another --alias.")
        rating = PlackettLuce().rating()
        session.add(LeagueMember(league_id=league.id, alias=who, spec=spec, mu=float(rating.mu),
                                 sigma=float(rating.sigma), joined_ts=(now or utc_now()).timestamp()))
        try:
            session.commit()
        except IntegrityError:
            raise ConfigError(f"'{who}' is already in league '{name}': pass another --alias.") from None
    return who


# ---------------------------------------------------------------------------------------- running


@dataclass
class RoundReport:
    league: str
    slot: int
    season: int
    round: int
    due: datetime
    matches: int
    forfeits: int
    status: str


def default_owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def run_due(
    engine: Engine,
    name: str | None = None,
    clock: Clock = utc_now,
    executor: Executor | None = None,
    presence: Presence | None = None,
    owner: str | None = None,
    lease_s: float = 3600.0,
    max_rounds: int | None = None,
) -> list[RoundReport]:
    """Play every round (of league `name`, or of every league) whose scheduled time has passed.

    presence(spec) tells whether a remote bot is connected; an offline bot forfeits its
    matches of the round. Without it, remote bots count as offline (they can only play on an
    arena: `tourney serve --leagues`). Returns the rounds this call played.
    """
    with Session(engine) as session:
        if name is not None:
            ids = [get_league(session, name).id]
        else:
            ids = [lg.id for lg in session.exec(select(League).order_by(League.id))]  # type: ignore[arg-type]
    played: list[RoundReport] = []
    me = owner or default_owner()
    for league_id in ids:
        assert league_id is not None
        while max_rounds is None or len(played) < max_rounds:
            report = _run_next(engine, league_id, clock, executor or InProcess(), presence or _builtin_only, me,
                               lease_s)
            if report is None:
                break
            played.append(report)
    return played


def _builtin_only(spec: str) -> bool:
    return not spec.startswith(REMOTE)


def _claim(engine: Engine, league: League, now: float, owner: str, lease_s: float) -> LeagueRound | None:
    """Claim the next slot that is due (or a dead caller's stale claim); None when there is none to take."""
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
        anchor = league.anchor_ts if last is None else last.due_ts
        due = float(croniter(league.schedule, anchor).get_next(float))
        if due > now:
            return None
        season, rnd = _next_position(session, league, last)
        claim = LeagueRound(league_id=_id(league), slot=0 if last is None else last.slot + 1, season=season,
                            round=rnd, due_ts=due, status="running", owner=owner, claimed_ts=now)
        session.add(claim)
        try:
            session.commit()
        except IntegrityError:  # another caller claimed this slot first
            session.rollback()
            return None
        session.refresh(claim)
        return claim


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
              lease_s: float) -> RoundReport | None:
    with Session(engine) as session:
        league = session.get(League, league_id)
        assert league is not None
        session.expunge(league)
    claim = _claim(engine, league, clock().timestamp(), owner, lease_s)
    if claim is None:
        return None
    status = "done"
    matches = forfeits = 0
    if claim.round == 0 and not _season_started(engine, league, claim.season) \
            and not _start_season(engine, league, claim.season, clock().timestamp()):
        status = "skipped"
    if status == "done":
        matches, forfeits = _play_round(engine, league, claim.season, claim.round, executor, presence)
    _finish(engine, league, claim, status, matches, forfeits)
    return RoundReport(league.name, claim.slot, claim.season if status == "done" else -1, claim.round,
                       datetime.fromtimestamp(claim.due_ts, UTC), matches, forfeits, status)


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
                presence: Presence) -> tuple[int, int]:
    """Round `rnd` of every division; offline bots forfeit. Returns (matches played, forfeits)."""
    played = forfeits = 0
    for _division, tid in _divisions(engine, league, season):
        tid, plan = load_plan(engine, tid)
        spec = plan.spec()
        n = len(plan.entrants)
        aliases = [e.alias for e in plan.entrants]
        if plan.format == "swiss":
            pairings = next_round(spec, n, load_history(engine, tid, aliases), rnd) or []
        else:
            pairings = [p for p in next_round(spec, n, [], 0) or [] if p.round == rnd]
        byes = [p for p in pairings if len(p.seats) == 1]
        online = {i: presence(e.spec) for i, e in enumerate(plan.entrants)}
        absent = [p for p in pairings if len(p.seats) > 1 and not all(online[s] for s in p.seats)]
        games = [p for p in pairings if len(p.seats) > 1 and all(online[s] for s in p.seats)]
        record_matches(engine, tid, plan, [forfeit(plan, p, online) for p in absent], byes)
        forfeits += len(absent)
        for chunk in executor.run(plan, games):
            record_matches(engine, tid, plan, chunk)
            # An executor that finds a bot gone only when it asks for the match returns a forfeit.
            absent_now = sum(1 for _, rec, _ in chunk if is_forfeit(rec))
            played += len(chunk) - absent_now
            forfeits += absent_now
    return played, forfeits


FORFEIT_DETAILS = dumps({"forfeit": True})


def is_forfeit(record: MatchRecord) -> bool:
    """A match not played because a bot was offline (made by `forfeit`)."""
    return record.details_json == FORFEIT_DETAILS


def forfeit(plan: TournamentPlan, pairing: Pairing, online: dict[int, bool]) -> Played:
    """The record of a match not played because a seat's bot was offline: the present seats win."""
    present = tuple(i for i, e in enumerate(pairing.seats) if online[e])
    away = tuple(i for i, e in enumerate(pairing.seats) if not online[e])
    n = len(pairing.seats)
    seats = []
    if present:
        outcome = Outcome((present, away), tuple(1.0 if i in present else 0.0 for i in range(n)), OFFLINE)
        for i, e in enumerate(pairing.seats):
            tier = 0 if i in present else 1
            seats.append(SeatRecord(plan.entrants[e].alias, tier, len(present) if tier == 0 else len(away),
                                    outcome.points(i), float(tier == 0), 0, 0.0,
                                    "{}" if tier == 0 else dumps({OFFLINE: 1})))
    else:  # nobody came: a double forfeit, no points for anyone
        seats = [SeatRecord(plan.entrants[e].alias, 0, n, 0.0, 0.0, 0, 0.0, dumps({OFFLINE: 1}))
                 for e in pairing.seats]
    reason = "offline: " + ", ".join(f"seat {i}" for i in away) if away else ""
    record = MatchRecord(seed=-1, players=n, termination=OFFLINE, reason=reason, plies=0, replay="",
                         details_json=FORFEIT_DETAILS, seats=tuple(seats))
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
    model = PlackettLuce()
    members = {m.alias: m for m in session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id))}
    tids = [d.tournament_id for d in session.exec(select(LeagueDivision).where(LeagueDivision.league_id == league.id)
                                                  .where(LeagueDivision.season == season))]
    matches = session.exec(select(Match).where(Match.tournament_id.in_(tids))  # type: ignore[union-attr]
                           .where(Match.round == rnd)
                           .order_by(Match.tournament_id, Match.number)).all()  # type: ignore[arg-type]
    for match in matches:
        if match.players < 2 or match.details_json == FORFEIT_DETAILS:
            continue  # byes and forfeits say nothing about strength
        seats = sorted(session.exec(select(MatchSeat).where(MatchSeat.match_id == match.id)).all(),
                       key=lambda s: s.seat)
        ratings = [[model.rating(mu=members[s.alias].mu, sigma=members[s.alias].sigma)] for s in seats]
        rated = model.rate(ratings, ranks=[float(s.tier) for s in seats])
        for s, team in zip(seats, rated, strict=True):
            members[s.alias].mu, members[s.alias].sigma = float(team[0].mu), float(team[0].sigma)
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
    anchor = league.anchor_ts if last is None else last.due_ts
    next_due = datetime.fromtimestamp(float(croniter(league.schedule, anchor).get_next(float)), UTC)
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
