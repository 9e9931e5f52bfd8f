"""Seasons: divisions placed by rating, promotion and relegation, the division tournaments, carried
ratings, and the standings of a season."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.engine.core import ConfigError
from tourney.engine.core.chance import stream_start
from tourney.tournament.entrants import Entrant
from tourney.tournament.formats.registry import default_swiss_rounds
from tourney.tournament.formats.round_robin import berger_rounds
from tourney.tournament.league.members import get_league
from tourney.tournament.league.schedule import due_after
from tourney.tournament.rating.ratings import Skill, openskill_ratings
from tourney.tournament.rating.standings import Standing, StandingSeat
from tourney.tournament.runner import TournamentPlan, load_plan
from tourney.tournament.store.league_tables import (
    League,
    LeagueDivision,
    LeagueMember,
    LeagueRound,
    LeagueSeason,
    league_id,
)
from tourney.tournament.store.reads import load_standings, round_seats
from tourney.tournament.store.records import FORFEIT_DETAILS
from tourney.tournament.store.writes import create_tournament


def season_started(engine: Engine, league: League, season: int) -> bool:
    with Session(engine) as session:
        return session.exec(select(LeagueSeason).where(LeagueSeason.league_id == league.id)
                            .where(LeagueSeason.season == season)).first() is not None


def division_sizes(members: int, divisions: int) -> list[int]:
    """Members per division, top first; lower divisions take the remainder."""
    base, extra = divmod(members, divisions)
    return [base + (1 if d >= divisions - extra else 0) for d in range(divisions)]


def start_season(engine: Engine, league: League, season: int, now: float) -> bool:
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
    existing = dict(division_tournaments(engine, league, season))
    for d, group in enumerate(placed):
        if d not in existing:
            tid = create_tournament(engine, _division_plan(league, season, d, group))
            with Session(engine) as session:
                session.add(LeagueDivision(league_id=league_id(league), season=season, division=d, tournament_id=tid))
                session.commit()
    with Session(engine) as session:
        for d, group in enumerate(placed):
            for m in group:
                row = session.get(LeagueMember, m.id)
                assert row is not None
                row.division = d
                session.add(row)
        rounds = max(_rounds_of(league, len(group)) for group in placed)
        session.add(LeagueSeason(league_id=league_id(league), season=season, rounds=rounds, started_ts=now))
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
    return [[by_alias[a] for a in div] for div in _none_short(new)]


def _none_short(divisions: list[list[str]]) -> list[list[str]]:
    """Divisions of two members at least (members who left can leave one with fewer, and a division's
    tournament needs two): the order top to bottom stays, and a short division takes the next members in
    it from the nearest division that can spare one, below first (a promotion rather than a relegation).
    There is always one: a season starts only with two members a division."""
    ranked = [alias for division in divisions for alias in division]
    sizes = [len(division) for division in divisions]
    while (short := next((d for d, n in enumerate(sizes) if n < 2), None)) is not None:
        donor = min((d for d, n in enumerate(sizes) if n > 2), key=lambda d: (abs(d - short), -d))
        sizes[short] += 1
        sizes[donor] -= 1
    out, start = [], 0
    for n in sizes:
        out.append(ranked[start:start + n])
        start += n
    return out


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
                          name=f"{league.name} season {season + 1} division {division + 1}", format=league.format,
                          cycles=cycles, rounds=rounds if league.format == "swiss" else None)


def division_tournaments(engine: Engine, league: League, season: int) -> list[tuple[int, int]]:
    with Session(engine) as session:
        rows = session.exec(select(LeagueDivision).where(LeagueDivision.league_id == league.id)
                            .where(LeagueDivision.season == season)
                            .order_by(LeagueDivision.division)).all()  # type: ignore[arg-type]
        return [(r.division, r.tournament_id) for r in rows]


def rate_round(session: Session, league: League, season: int, rnd: int) -> None:
    """OpenSkill update of every member from the round's matches (schedule order), from their carried ratings."""
    members = {m.alias: m for m in session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id))}
    tids = [d.tournament_id for d in session.exec(select(LeagueDivision).where(LeagueDivision.league_id == league.id)
                                                  .where(LeagueDivision.season == season))]
    results = []
    for seats in round_seats(session.connection(), tids, rnd):
        if seats[0].players < 2 or seats[0].details_json == FORFEIT_DETAILS:
            continue  # byes and forfeits say nothing about strength
        tiers = [s.tier for s in seats]
        results.append([StandingSeat(s.alias, s.tier, tiers.count(s.tier), s.points) for s in seats])
    carried = {a: Skill(a, m.mu, m.sigma) for a, m in members.items()}
    for alias, skill in openskill_ratings(list(members), results, carried).items():
        members[alias].mu, members[alias].sigma = skill.mu, skill.sigma
    for m in members.values():
        session.add(m)


def season_standings(engine: Engine, league: League, season: int) -> list[tuple[int, list[Standing]]]:
    """(division, standings) of one season, top division first."""
    out = []
    for division, tid in division_tournaments(engine, league, season):
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
    """The standings of a season (counted from 0; default: the latest started) and every member's carried rating."""
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
        raise ConfigError(f"league '{name}' has no season {season + 1}: it has played seasons "
                          f"{', '.join(str(s + 1) for s in sorted(seasons)) or 'none yet'}.")
    next_due = None if league.paused else datetime.fromtimestamp(due_after(league, last), UTC)
    return LeagueTable(league.name, league.game, season, season_standings(engine, league, season), ratings, next_due)
