"""Reading results back: what is stored, the history the pairers see, standings, streaks, achievements.

The end of a run reads every match of a tournament; it streams only the seat columns it needs
(number, alias, tier, points, faults), in schedule order, never the replays, so its memory
does not grow with the number of matches stored. OpenSkill and streaks depend on that order,
which makes a resumed or parallel tournament rate exactly like a sequential one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any, cast

from sqlalchemy import Row
from sqlalchemy import select as select_columns  # any number of plain columns (sqlmodel's select takes four)
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session, col, func, select

from tourney.tournament.formats.pairing import PlayedGame
from tourney.tournament.rating.ratings import openskill_ratings
from tourney.tournament.rating.standings import MatchLog, Standing, StandingSeat, compute_standings
from tourney.tournament.store.codec import loads
from tourney.tournament.store.database import StoreError
from tourney.tournament.store.league_tables import League, LeagueDivision
from tourney.tournament.store.records import BYE, FORFEIT_DETAILS
from tourney.tournament.store.retry import guard
from tourney.tournament.store.tables import (
    ACHIEVEMENTS,
    MATCHES,
    TOURNAMENTS,
    Bot,
    Entrant,
    Match,
    MatchSeat,
    SkillRating,
    Tournament,
)

LEAGUES = League.__table__  # type: ignore[attr-defined]
DIVISIONS = LeagueDivision.__table__  # type: ignore[attr-defined]

STREAM_ROWS = 2000  # seat rows fetched at a time while streaming a tournament's results
EXPORT_ROWS = 200  # whole matches (replays included) read at a time by an export

# The columns the end of a run reads, one row per seat (never the replay); `forfeit`: a league recorded the match
# without playing it (worked out by the database, so the details never leave it).
_SEAT_COLUMNS = (col(Match.number), col(Match.round), col(Match.seed), col(Match.termination), col(MatchSeat.alias),
                 col(MatchSeat.tier), col(MatchSeat.points), col(MatchSeat.faults_json),
                 (col(Match.details_json) == FORFEIT_DETAILS).label("forfeit"))


def stored_numbers(engine: Engine, tournament_id: int) -> set[int]:
    """Schedule numbers of the matches already stored for a tournament."""
    def read() -> set[int]:
        with engine.connect() as conn:
            return set(conn.execute(select_columns(MATCHES.c.number).where(MATCHES.c.tournament_id == tournament_id))
                       .scalars())
    return guard(read)


def match_seats(conn: Connection, tournament_id: int) -> Iterator[list[Row[Any]]]:
    """Each stored match's seat rows (the _SEAT_COLUMNS), in schedule order, streamed from the database."""
    query = (select_columns(*_SEAT_COLUMNS).join(MatchSeat, col(MatchSeat.match_id) == col(Match.id))
             .where(col(Match.tournament_id) == tournament_id)
             .order_by(col(Match.number), col(MatchSeat.seat)))
    rows: Iterator[Row[Any]] = iter(conn.execution_options(yield_per=STREAM_ROWS).execute(query))
    for _, seats in groupby(rows, key=itemgetter(0)):  # the number (a Row's name lookup costs ~10x more)
        yield list(seats)


def round_seats(conn: Connection, tournament_ids: Sequence[int], rnd: int) -> Iterator[list[Row[Any]]]:
    """The seat rows (players, details_json, alias, tier, points) of round `rnd` of several tournaments
    (a league season's divisions), match by match in (tournament, schedule) order."""
    query = (select_columns(col(Match.tournament_id), col(Match.number), col(Match.players), col(Match.details_json),
                    col(MatchSeat.alias), col(MatchSeat.tier), col(MatchSeat.points))
             .join(MatchSeat, col(MatchSeat.match_id) == col(Match.id))
             .where(col(Match.tournament_id).in_(tournament_ids)).where(col(Match.round) == rnd)
             .order_by(col(Match.tournament_id), col(Match.number), col(MatchSeat.seat)))
    rows: Iterator[Row[Any]] = iter(conn.execute(query))
    for _, seats in groupby(rows, key=lambda row: (row.tournament_id, row.number)):
        yield list(seats)


def standings_input(conn: Connection, tournament_id: int) -> Iterator[list[StandingSeat]]:
    """The stored matches as the standings and ratings read them, in schedule order.

    Equal seat results are one shared object (there are few distinct ones: entrants times
    places), so whatever the standings keep per match is a list of references.
    """
    shared: dict[tuple[Any, ...], StandingSeat] = {}
    faults: dict[str, int] = {}
    for rows in match_seats(conn, tournament_id):
        if len(rows) == 1 and rows[0].forfeit:
            continue  # the bye an absent bot did not get: neither a game nor a bye, worth nothing
        # Unpacked once (the _SEAT_COLUMNS in order): reading a Row's fields by name is a Python call each.
        seats = []
        for _, _, _, _, alias, tier, points, faults_json, _ in cast("list[tuple[Any, ...]]", rows):
            count = faults.get(faults_json)
            if count is None:
                count = faults[faults_json] = sum(int(v) for v in loads(faults_json).values())
            seats.append((alias, tier, points, count))
        yield standing_match(seats, rows[0].termination == BYE, shared)


def standing_match(seats: Sequence[tuple[str, int, float, int]], bye: bool,
                   shared: dict[tuple[Any, ...], StandingSeat]) -> list[StandingSeat]:
    """A match's StandingSeats from its seats' (alias, tier, points, fault count), in seat order: the one converter,
    for stored matches (standings_input) and for the ones a run keeps as it writes them (store.written_log).
    Equal seat results are one shared object, kept in `shared`."""
    tiers: dict[int, int] = {}
    for _, tier, _, _ in seats:
        tiers[tier] = tiers.get(tier, 0) + 1
    match = []
    for alias, tier, points, count in seats:
        key = (alias, tier, tiers[tier], points, count, bye)
        result = shared.get(key)
        if result is None:
            result = shared[key] = StandingSeat(*key)
        match.append(result)
    return match


def load_standings(engine: Engine, tournament_id: int, aliases: Sequence[str]) -> list[Standing]:
    """Standings and ratings from what is stored, in schedule order, so resumed runs match uninterrupted ones.

    A finished tournament's OpenSkill ratings are the final ones stored with it (computed here when
    it finished, from the same matches), so showing it again does not rate every match again.
    """
    def read() -> tuple[MatchLog, dict[str, tuple[float, float]] | None]:
        with engine.connect() as conn:
            return MatchLog(standings_input(conn, tournament_id)), _final_skills(conn, tournament_id, aliases)
    log, skills = guard(read)
    return standings_of(aliases, log, skills)


def load_match_log(engine: Engine, tournament_id: int) -> MatchLog:
    """Every stored match of a tournament as the standings, ratings and streaks read them: one read, a few bytes a
    match, in schedule order."""
    def read() -> MatchLog:
        with engine.connect() as conn:
            return MatchLog(standings_input(conn, tournament_id))
    return guard(read)


def standings_of(aliases: Sequence[str], log: MatchLog,
                 skills: dict[str, tuple[float, float]] | None = None) -> list[Standing]:
    """The standings of the matches in `log`, with OpenSkill ratings: `skills` if given (a finished
    tournament's stored ones), else rated from the log."""
    standings = compute_standings(aliases, log)
    if skills is None:
        skills = {a: (sk.mu, sk.sigma) for a, sk in openskill_ratings(aliases, log).items()}
    for s in standings:
        s.mu, s.sigma = skills[s.alias]
    return standings


def _final_skills(conn: Connection, tournament_id: int,
                  aliases: Sequence[str]) -> dict[str, tuple[float, float]] | None:
    """alias -> (mu, sigma) stored when the tournament finished; None while it runs (or if one is missing)."""
    status = conn.execute(select(Tournament.status).where(Tournament.id == tournament_id)).scalar()
    if status != "finished":
        return None
    stored = {alias: (mu, sigma) for alias, mu, sigma in conn.execute(
        select(SkillRating.alias, SkillRating.mu, SkillRating.sigma).where(SkillRating.tournament_id == tournament_id))}
    return stored if set(aliases) <= set(stored) else None


def streak_results(matches: Iterable[Sequence[StandingSeat]]) -> Iterator[list[tuple[str, int, int]]]:
    """Each played match (byes left out) as (alias, tier, tier size) per seat, in the order given (schedule order
    for a MatchLog)."""
    if isinstance(matches, MatchLog):  # each distinct match read once: a long run repeats a handful
        results = [None if seats[0].bye else [(st.alias, st.tier, st.tier_size) for st in seats]
                   for seats in matches.distinct]
        yield from (found for i in matches.order if (found := results[i]) is not None)
        return
    for seats in matches:
        if seats[0].bye:
            continue
        yield [(st.alias, st.tier, st.tier_size) for st in seats]


def load_history(engine: Engine, tournament_id: int, aliases: Sequence[str]) -> list[PlayedGame]:
    """Stored results as the pairing functions see them: entrants by seat, points by seat."""
    index = {a: i for i, a in enumerate(aliases)}

    def read() -> list[PlayedGame]:
        with engine.connect() as conn:
            return [PlayedGame(tuple(index[s.alias] for s in seats), tuple(s.points for s in seats),
                               seats[0].number, seats[0].round, seats[0].seed)
                    for seats in match_seats(conn, tournament_id)]
    return guard(read)


def stored_matches(engine: Engine, tournament_id: int) -> list[tuple[Match, list[MatchSeat]]]:
    """A tournament's stored matches with their seats (whole rows, replays included), in schedule order."""
    def read() -> list[tuple[Match, list[MatchSeat]]]:
        with Session(engine) as session:
            rows = session.exec(
                select(MatchSeat, Match).where(MatchSeat.match_id == Match.id)
                .where(Match.tournament_id == tournament_id)
                .order_by(Match.number, MatchSeat.seat)  # type: ignore[arg-type]
            ).all()
            out: list[tuple[Match, list[MatchSeat]]] = []
            for seat, match in rows:
                if not out or out[-1][0].id != match.id:
                    out.append((match, []))
                out[-1][1].append(seat)
            return out
    return guard(read)


def match_batches(engine: Engine, tournament_id: int, size: int = EXPORT_ROWS
                  ) -> Iterator[list[tuple[Match, list[MatchSeat]]]]:
    """A tournament's stored matches, whole rows (replays included) with their seats, in schedule order,
    `size` matches at a time: each batch is its own short query after the last number read, so a caller
    that handles a batch before asking for the next holds one batch in memory however many are stored."""
    after = -1
    while True:
        def read(after: int = after) -> list[tuple[Match, list[MatchSeat]]]:
            with Session(engine) as session:
                matches = list(session.exec(select(Match).where(Match.tournament_id == tournament_id)
                                            .where(Match.number > after)
                                            .order_by(col(Match.number)).limit(size)))
                seats = _seats_of(session, [m.id for m in matches if m.id is not None])
                session.expunge_all()
                return [(m, seats.get(m.id or 0, [])) for m in matches]
        batch = guard(read)
        if not batch:
            return
        yield batch
        after = batch[-1][0].number


def stored_match(engine: Engine, match_id: int) -> tuple[Match, list[MatchSeat]] | None:
    """One stored match and its seats, or None."""
    def read() -> tuple[Match, list[MatchSeat]] | None:
        with Session(engine) as session:
            m = session.get(Match, match_id)
            if m is None:
                return None
            seats = list(session.exec(select(MatchSeat).where(MatchSeat.match_id == match_id)
                                      .order_by(MatchSeat.seat)))  # type: ignore[arg-type]
            return m, seats
    return guard(read)


@dataclass(frozen=True)
class MatchPage:
    """Some of a tournament's stored matches, each as its columns but the replay (a Row) with its seats,
    and how many matches pass the filter in all."""

    matches: list[tuple[Row[Any], list[MatchSeat]]]
    total: int


_SUMMARY_COLUMNS = (col(Match.id), col(Match.number), col(Match.round), col(Match.seed), col(Match.termination),
                    col(Match.reason), col(Match.plies), col(Match.duration_s))


def match_page(engine: Engine, tournament_id: int, offset: int = 0, limit: int | None = None, bot: str | None = None,
               termination: str | None = None, seat: int | None = None) -> MatchPage:
    """A tournament's stored matches in schedule order, never their replays: from `offset` on, at most `limit`
    of them, only those with `termination` and with `bot` among the seats (in seat `seat`, when given)."""
    def read() -> MatchPage:
        with Session(engine) as session:
            query = select_columns(*_SUMMARY_COLUMNS).where(col(Match.tournament_id) == tournament_id)
            counting = select(func.count(col(Match.id))).where(Match.tournament_id == tournament_id)
            if termination:
                query = query.where(col(Match.termination) == termination)
                counting = counting.where(Match.termination == termination)
            if bot or seat is not None:
                # EXISTS per match of this tournament (the match_id index), not the bot's seats everywhere.
                sub = select(MatchSeat.id).where(col(MatchSeat.match_id) == col(Match.id))
                if bot:
                    sub = sub.where(MatchSeat.alias == bot)
                if seat is not None:
                    sub = sub.where(MatchSeat.seat == seat)
                query = query.where(sub.exists())
                counting = counting.where(sub.exists())
            rows: list[Row[Any]] = list(session.connection().execute(
                query.order_by(col(Match.number)).offset(offset).limit(limit)))
            total = session.exec(counting).one()
            seats = _seats_of(session, [r.id for r in rows])
        return MatchPage([(r, seats.get(r.id, [])) for r in rows], int(total))
    return guard(read)


def seats_of(engine: Engine, match_ids: Sequence[int]) -> dict[int, list[MatchSeat]]:
    """match id -> its stored seats in seat order, for several matches in one query."""
    def read() -> dict[int, list[MatchSeat]]:
        with Session(engine) as session:
            return _seats_of(session, match_ids)
    return guard(read)


def _seats_of(session: Session, match_ids: Sequence[int]) -> dict[int, list[MatchSeat]]:
    out: dict[int, list[MatchSeat]] = {}
    if match_ids:
        for st in session.exec(select(MatchSeat).where(col(MatchSeat.match_id).in_(match_ids))
                               .order_by(col(MatchSeat.match_id), col(MatchSeat.seat))):
            out.setdefault(st.match_id, []).append(st)
    return out


def achievement_counts(engine: Engine, tournament_id: int) -> dict[str, dict[str, int]]:
    """{bot: {achievement: times earned}} for a tournament, streaks included (a streak is named with its
    opponent: "name (opponent)"), bots and achievements in the order first earned.

    Counted by the database (GROUP BY): a long run earns an achievement in most matches, and
    reading those rows back (88,810 at 100,000 matches) was most of the end of a run's memory.
    """
    earned = ACHIEVEMENTS.c
    query = (select_columns(earned.alias, earned.name, earned.opponent, func.count(earned.id))
             .where(earned.tournament_id == tournament_id)
             .group_by(earned.alias, earned.name, earned.opponent)
             .order_by(func.min(earned.id)))

    def read() -> dict[str, dict[str, int]]:
        counts: dict[str, dict[str, int]] = {}
        with engine.connect() as conn:
            for alias, name, opponent, times in conn.execute(query):
                label = name if opponent is None else f"{name} ({opponent})"
                per_bot = counts.setdefault(alias, {})
                per_bot[label] = per_bot.get(label, 0) + int(times)
        return counts
    return guard(read)


def stored_setting(engine: Engine, tournament_id: int, key: str) -> Any:
    """One entry of a tournament's settings, or None (no such entry, or no such tournament)."""
    def read() -> Any:
        with Session(engine) as session:
            row = session.get(Tournament, tournament_id)
            return loads(row.settings_json or "{}").get(key) if row is not None else None
    return guard(read)


def stored_tournament(engine: Engine, tournament_id: int) -> tuple[Tournament, list[tuple[str, str]]]:
    """A stored tournament and its entrants as (alias, bot spec), in entry order; one sentence when there is none."""
    def read() -> tuple[Tournament, list[tuple[str, str]]]:
        with Session(engine) as session:
            t = session.get(Tournament, tournament_id)
            if t is None:
                raise StoreError(f"there is no tournament {tournament_id} in this database: check the id and --db.")
            rows = session.exec(select(Entrant.alias, Bot.spec).join(Bot, Bot.id == Entrant.bot_id)  # type: ignore[arg-type]
                                .where(Entrant.tournament_id == t.id)
                                .order_by(Entrant.position)).all()  # type: ignore[arg-type]
            session.expunge(t)
            return t, [(alias, spec) for alias, spec in rows]
    return guard(read)


def unfinished_runners(engine: Engine) -> list[tuple[int, str, float]]:
    """Every unfinished tournament but a league's divisions (their league plays them round by round), newest
    first, as (id, runner, heartbeat_ts): who plays it, if anyone."""
    divisions = select_columns(DIVISIONS.c.tournament_id)

    def read() -> list[tuple[int, str, float]]:
        with engine.connect() as conn:
            rows = conn.execute(select_columns(TOURNAMENTS.c.id, TOURNAMENTS.c.runner, TOURNAMENTS.c.heartbeat_ts)
                                .where(TOURNAMENTS.c.status != "finished")
                                .where(TOURNAMENTS.c.id.not_in(divisions))
                                .order_by(TOURNAMENTS.c.id.desc())).all()
        return [(int(r.id), str(r.runner), float(r.heartbeat_ts)) for r in rows]
    return guard(read)


def league_division(engine: Engine, tournament_id: int) -> tuple[str, int, int] | None:
    """(league name, season, division) when the tournament holds a league's division, else None (seasons and
    divisions counted from 1, as the league's commands print them)."""
    def read() -> tuple[str, int, int] | None:
        with engine.connect() as conn:
            row = conn.execute(select_columns(LEAGUES.c.name, DIVISIONS.c.season, DIVISIONS.c.division)
                               .join(LEAGUES, LEAGUES.c.id == DIVISIONS.c.league_id)
                               .where(DIVISIONS.c.tournament_id == tournament_id)).first()
        return None if row is None else (str(row.name), int(row.season) + 1, int(row.division) + 1)
    return guard(read)
