"""Writing results: a tournament and its entrants, batches of finished matches, final ratings and streaks.

A batch (the chunk an executor hands back) is one transaction, written as soon as it arrives,
so a driver that dies loses nothing that finished and a resumed tournament skips what is
stored. The rows of a batch are built by one converter (`match_rows`) as plain tuples and inserted
with one executemany each (tournament.store.bulk): the matches (their ids are then read back by
number), all their seats, all their achievements; no ORM unit of work. A tournament's entrant ids never
change once it is created, so they are read once per store and tournament, not per batch.
"""

from __future__ import annotations

import json
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, delete, insert, update
from sqlalchemy.engine import Connection, CursorResult, Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from tourney.engine.core import MatchResult
from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.formats.seeding import new_seed_key
from tourney.tournament.rating.achievements import streak_achievements
from tourney.tournament.rating.standings import MatchLog, Standing
from tourney.tournament.store.bulk import insert_many, plain_rows
from tourney.tournament.store.codec import dumps, loads
from tourney.tournament.store.reads import load_match_log, streak_results
from tourney.tournament.store.records import Played, SeatValues, bye_match, seat_values
from tourney.tournament.store.retry import guard
from tourney.tournament.store.tables import (
    ACHIEVEMENTS,
    BOTS,
    ENTRANTS,
    MATCHES,
    RATINGS,
    SEATS,
    SKILLS,
    TOURNAMENTS,
    Match,
    MatchSeat,
    Tournament,
    now,
)

if TYPE_CHECKING:
    from tourney.tournament.runner import TournamentPlan

# store -> tournament id -> alias -> entrant id (weak: a store that is dropped takes its entry with it)
_ENTRANT_IDS: weakref.WeakKeyDictionary[Engine, dict[int, dict[str, int]]] = weakref.WeakKeyDictionary()


def create_tournament(engine: Engine, plan: TournamentPlan, runner: str = "") -> int:
    """Store a new tournament and its entrants; return its id. A `runner` holds it from the start (its lease:
    tournament/lease.py), so that no `resume` takes it up before that runner plays it.

    A plan without a seed key gets a fresh secret one here, stored with the tournament so that
    resume and replay reproduce its matches exactly. Written with core statements, not the ORM: a run's first
    use of the ORM configures every mapper (~10 ms of the ~16 a run spent here, issue 32), and nothing else a
    run does needs it.
    """
    if plan.seed_key is None:
        plan.seed_key = new_seed_key()
    key = plan.seed_key

    def write() -> int:
        with engine.begin() as conn:
            tournament_id = _new_id(conn.execute(insert(TOURNAMENTS).values(
                name=plan.name, game=plan.game, format=plan.format, players=plan.players, seed=plan.seed,
                seed_key=key, config_json=dumps(plan.config), settings_json=dumps(plan.settings()),
                status="running", runner=runner, heartbeat_ts=time.time() if runner else 0.0, created_at=now())))
            entrants = [{"tournament_id": tournament_id, "bot_id": _bot_id(conn, e.spec), "alias": e.alias,
                         "position": i} for i, e in enumerate(plan.entrants)]
            conn.execute(insert(ENTRANTS), entrants)
            return tournament_id
    return guard(write)


def _bot_id(conn: Connection, spec: str) -> int:
    """The id of the Bot row named `spec`, created the first time a tournament enters it."""
    found = conn.execute(select(BOTS.c.id).where(BOTS.c.name == spec)).scalar()
    return int(found) if found is not None else _new_id(conn.execute(insert(BOTS).values(name=spec, spec=spec)))


def _new_id(inserted: CursorResult[Any]) -> int:
    """The id the database gave the one row `inserted` wrote."""
    key = inserted.inserted_primary_key
    assert key is not None  # an INSERT of one row always has it
    return int(key[0])


def entrant_ids(conn: Connection, tournament_id: int) -> dict[str, int]:
    """alias -> entrant id of a tournament (read from the store the first time only)."""
    per_store = _ENTRANT_IDS.setdefault(conn.engine, {})
    ids = per_store.get(tournament_id)
    if ids is None:
        ids = {alias: eid for alias, eid in conn.execute(
            select(ENTRANTS.c.alias, ENTRANTS.c.id).where(ENTRANTS.c.tournament_id == tournament_id))}
        per_store[tournament_id] = ids
    return ids


# The columns of a batch's rows, in the order MatchRows holds their values (the match id, which the
# database assigns, goes first in a seat's and an achievement's row once it is known).
MATCH_COLUMNS = ("tournament_id", "number", "round", "game", "seed", "players", "config_json", "termination",
                 "reason", "plies", "duration_s", "replay_json", "details_json", "finished_at")
SEAT_COLUMNS = ("match_id", "seat", "entrant_id", "alias", "tier", "points", "score", "decisions", "think_s",
                "faults_json")
ACHIEVEMENT_COLUMNS = ("match_id", "tournament_id", "alias", "number", "name", "opponent")
NO_FAULTS = dumps({})


@dataclass
class MatchRows:
    """One finished match as rows of plain values (MATCH_COLUMNS; SEAT_COLUMNS and ACHIEVEMENT_COLUMNS without
    their first, the match id, which the database assigns on insert and `insert_rows` puts in front)."""

    match: tuple[Any, ...]
    seats: list[tuple[Any, ...]]
    achievements: list[tuple[Any, ...]]

    @property
    def number(self) -> int:
        """The match's number in its tournament's schedule."""
        return int(self.match[1])


def match_rows(tournament_id: int, plan: TournamentPlan, played: Sequence[Played], byes: Sequence[Pairing],
               entrants: dict[str, int], finished_at: datetime) -> list[MatchRows]:
    """The rows of a batch of finished matches and byes (the one converter from records to rows).

    A number that occurs twice in the batch (a duplicated chunk) is written once: its first record.
    """
    config = dumps(plan.config)
    stored = [*played, *bye_records(plan, byes)]
    out: list[MatchRows] = []
    seen: set[int] = set()
    game = plan.game
    for pairing, rec, duration_s in stored:
        number = pairing.number
        if number in seen:
            continue
        seen.add(number)
        # The record's plain values, read directly (issue 32: a property costs a call each).
        match = (tournament_id, number, pairing.round, game, rec.seed, len(rec.seat_values), config,
                 rec.termination_text, rec.reason, rec.plies, duration_s, rec.replay, rec.details_json, finished_at)
        # A solo match stores its entrants' seats only: the game's own AI holds the ones after them.
        seats = [_seat_row(i, alias, values, entrants.get(alias))
                 for i, (alias, values) in enumerate(zip(rec.aliases, rec.seat_values, strict=False))]
        earned = [(tournament_id, alias, n, name, None) for alias, n, name in rec.achievements]
        out.append(MatchRows(match, seats, earned))
    return out


def bye_records(plan: TournamentPlan, byes: Sequence[Pairing]) -> list[Played]:
    """The byes' records as stored. A bye is worth a win for every game the pairing would have played (two
    players), or the average share of the table (more players: a win would be worth k times that)."""
    value = float(plan.games_per_pair / (1 if plan.players == 2 else plan.players))
    return [(bye, bye_match(plan.game, plan.entrants[bye.seats[0]].alias, value), 0.0) for bye in byes]


def _seat_row(seat: int, alias: str, values: SeatValues, entrant_id: int | None) -> tuple[Any, ...]:
    """A MatchSeat row's values (SEAT_COLUMNS but the match id) for seat number `seat`, held by `alias`."""
    tier, _, score, points, decisions, think_s, faults = values
    return (seat, entrant_id, alias, tier, points, score, decisions, think_s, dumps(faults) if faults else NO_FAULTS)


# A batch's match ids, read back by their (tournament, number) key, which is unique. Not RETURNING
# in parameter order: SQLite cannot promise that order for a multi-row insert, so SQLAlchemy sent
# it one row per statement, a fifth of the cost of writing a short match (issue 32).
_MATCH_IDS = (select(MATCHES.c.number, MATCHES.c.id)
              .where(MATCHES.c.tournament_id == bindparam("tournament_id"))
              .where(MATCHES.c.number.between(bindparam("low"), bindparam("high"))))


def insert_rows(conn: Connection, rows: Sequence[MatchRows]) -> None:
    """Insert a batch's rows: three executemany statements (matches, seats, achievements) and one read of the
    new matches' ids."""
    if not rows:
        return
    insert_many(conn, MATCHES, MATCH_COLUMNS, [r.match for r in rows])
    numbers = [r.number for r in rows]
    key = {"tournament_id": rows[0].match[0], "low": min(numbers), "high": max(numbers)}
    found = dict(plain_rows(conn, _MATCH_IDS, key))
    seats: list[tuple[Any, ...]] = []
    earned: list[tuple[Any, ...]] = []
    for r, number in zip(rows, numbers, strict=True):
        match_id = found[number]
        seats += [(match_id, *seat) for seat in r.seats]
        earned += [(match_id, *e) for e in r.achievements]
    insert_many(conn, SEATS, SEAT_COLUMNS, seats)
    insert_many(conn, ACHIEVEMENTS, ACHIEVEMENT_COLUMNS, earned)


def record_matches(engine: Engine, tournament_id: int, plan: TournamentPlan, played: Sequence[Played],
                   byes: Sequence[Pairing] = ()) -> None:
    """Write a batch of finished matches (and byes) in one transaction, skipping any already stored.

    Skipping keeps a retried or duplicated chunk, or a league round another caller took over,
    from ever writing a match twice. The batch is inserted as it is; only when the store refuses
    a number it already holds is the transaction redone without the stored ones, so the common
    case reads nothing back.
    """
    if not played and not byes:
        return
    finished_at = now()

    def write() -> None:
        rows: list[MatchRows] = []
        try:
            with engine.begin() as conn:
                rows = match_rows(tournament_id, plan, played, byes, entrant_ids(conn, tournament_id), finished_at)
                insert_rows(conn, rows)
            return
        except IntegrityError:
            pass  # some of these numbers are stored already
        with engine.begin() as conn:
            numbers = [r.number for r in rows]
            stored = set(conn.execute(select(MATCHES.c.number).where(MATCHES.c.tournament_id == tournament_id)
                                      .where(MATCHES.c.number.in_(numbers))).scalars())
            insert_rows(conn, [r for r in rows if r.number not in stored])
    guard(write)


def save_ratings(engine: Engine, tournament_id: int, standings: Sequence[Standing]) -> None:
    """Store the final performance and OpenSkill ratings and mark the tournament finished (core statements, like
    create_tournament: no ORM in a run)."""
    def write() -> None:
        with engine.begin() as conn:
            for table in (RATINGS, SKILLS):
                conn.execute(delete(table).where(table.c.tournament_id == tournament_id))
            if standings:
                conn.execute(insert(RATINGS), [
                    {"tournament_id": tournament_id, "alias": s.alias, "rating": s.rating, "low": s.low,
                     "high": s.high, "games": s.games} for s in standings])
                conn.execute(insert(SKILLS), [
                    {"tournament_id": tournament_id, "alias": s.alias, "mu": s.mu, "sigma": s.sigma,
                     "buchholz": s.buchholz, "sonneborn_berger": s.sonneborn_berger, "direct": s.direct}
                    for s in standings])
            conn.execute(update(TOURNAMENTS).where(TOURNAMENTS.c.id == tournament_id)
                         .where(TOURNAMENTS.c.status != "finished").values(status="finished"))
    guard(write)


def mark_status(engine: Engine, tournament_id: int, status: str, me: str) -> None:
    """Mark an unfinished tournament `running` (again, when resumed) or `interrupted` (its driver was
    stopped: Ctrl-C or SIGTERM); a finished tournament stays finished. Written only while runner `me` holds
    the tournament, or no one does: a driver that lost it never overwrites what the new one wrote."""
    def write() -> None:
        with engine.begin() as conn:
            conn.execute(update(TOURNAMENTS).where(TOURNAMENTS.c.id == tournament_id)
                         .where(TOURNAMENTS.c.status != "finished").where(TOURNAMENTS.c.status != status)
                         .where(TOURNAMENTS.c.runner.in_(("", me))).values(status=status))
    guard(write)


def save_setting(engine: Engine, tournament_id: int, key: str, value: Any) -> None:
    """Set one entry of a tournament's settings (e.g. the arena it is played on); no tournament: nothing."""
    def write() -> None:
        with Session(engine) as session:
            row = session.get(Tournament, tournament_id)
            if row is None:
                return
            settings = loads(row.settings_json or "{}")
            if settings.get(key) == value:
                return
            settings[key] = value
            row.settings_json = json.dumps(settings)
            session.add(row)
            session.commit()
    guard(write)


def save_streaks(engine: Engine, tournament_id: int, rules: Sequence[tuple[int, int, str]],
                 log: MatchLog | None = None) -> None:
    """Recount the streak achievements from the stored results (idempotent, so resumes agree); `log`: those
    results already read (load_match_log), so the end of a run reads the store once."""
    results = log if log is not None or not rules else load_match_log(engine, tournament_id)  # no rules: no read
    earned = streak_achievements(streak_results(results or []), rules)

    def write() -> None:
        with engine.begin() as conn:
            conn.execute(delete(ACHIEVEMENTS).where(ACHIEVEMENTS.c.tournament_id == tournament_id)
                         .where(ACHIEVEMENTS.c.match_id.is_(None)))
            if earned:
                conn.execute(insert(ACHIEVEMENTS), [{"tournament_id": tournament_id, "match_id": None, "alias": e.alias,
                                                    "number": e.number, "name": e.name, "opponent": e.opponent}
                                                   for e in earned])
    guard(write)


def record_arena_match(engine: Engine, match_id: str, names: Sequence[str], result: MatchResult,
                       seconds: float) -> None:
    """Store a match the arena played outside any tournament (number 0, its arena id in the details).

    Retried with backoff while the database is unreachable: a restart must not lose a match.
    """
    def write() -> None:
        with Session(engine) as session:
            row = Match(
                tournament_id=None, number=0, game=result.game_id, seed=result.seed, players=result.players,
                config_json=dumps(result.replay.config), termination=result.termination,
                reason=result.reason, plies=len(result.replay.steps), duration_s=seconds,
                replay_json=dumps(result.replay.to_dict()),
                details_json=dumps({"arena_match_id": match_id, **dict(result.details)}),
            )
            session.add(row)
            session.flush()
            assert row.id is not None
            for seat, (alias, sr) in enumerate(zip(names, result.seats, strict=True)):  # no tournament: no entrant
                values = (row.id, *_seat_row(seat, alias, seat_values(sr), None))
                session.add(MatchSeat(**dict(zip(SEAT_COLUMNS, values, strict=True))))
            session.commit()
    guard(write)
