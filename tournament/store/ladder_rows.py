"""Reads and writes of the ladder tables (ladder_tables.py), each a short transaction through retry.guard.

The ladder loop writes in batches: the matches it schedules in one insert, and a chunk of
results in one transaction that completes the match rows and sets their players' ratings (the
absolute values the loop holds, so a transaction retried after a lost connection writes the same
thing again). Only rows still "scheduled" are completed, so a result is never stored twice.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, bindparam, column, func, insert, select, update, values
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.elements import ColumnElement

from tourney.engine.core import ConfigError
from tourney.tournament.formats.seeding import new_seed_key
from tourney.tournament.store.codec import dumps, loads
from tourney.tournament.store.ladder_tables import DONE, SCHEDULED, Ladder, LadderBot, LadderMatch
from tourney.tournament.store.retry import guard
from tourney.tournament.store.tables import now

LADDERS = Ladder.__table__  # type: ignore[attr-defined]
BOTS = LadderBot.__table__  # type: ignore[attr-defined]
MATCHES = LadderMatch.__table__  # type: ignore[attr-defined]
RECENT = 50  # matches a standings read lists
RUNS = "runs"  # the count of `ladder run`s, kept in the ladder's settings (count_run)


@dataclass(frozen=True)
class LadderEntry:
    """A ladder entrant as stored."""

    id: int
    alias: str
    spec: str
    mu: float
    sigma: float
    matches: int
    wins: int
    active: bool = True

    @property
    def conservative(self) -> float:
        """μ − 3σ: the rating the standings sort by (a bot with few matches is not ranked above its evidence)."""
        return self.mu - 3.0 * self.sigma


@dataclass(frozen=True)
class ScheduledMatch:
    """A match fixed by the scheduler: its number, seed and seats' aliases."""

    number: int
    seed: int
    aliases: tuple[str, ...]


@dataclass(frozen=True)
class FinishedMatch:
    """A finished ladder match as a standings read lists it: its seats as (alias, tier) in seat order."""

    number: int
    termination: str
    seats: tuple[tuple[str, int], ...]
    finished_at: str | None  # ISO 8601


@dataclass(frozen=True)
class MatchOutcome:
    """What a finished match stores: the result, its replay, and each seat's rating after it."""

    number: int
    rated: int
    termination: str
    reason: str
    plies: int
    duration_s: float
    seats: tuple[dict[str, Any], ...]  # alias, tier, points, mu, sigma
    replay: str


def ladder_of(engine: Engine, game: str, create: bool) -> tuple[int, str] | None:
    """The game's ladder (id, seed key); made with a fresh seed key when `create`, else None if absent."""
    def read(conn: Connection) -> tuple[int, str] | None:
        row = conn.execute(select(LADDERS.c.id, LADDERS.c.seed_key).where(LADDERS.c.game == game)).first()
        return (int(row.id), str(row.seed_key)) if row is not None else None

    def write() -> tuple[int, str] | None:
        with engine.begin() as conn:
            found = read(conn)
            if found is not None or not create:
                return found
            try:
                with conn.begin_nested():
                    conn.execute(insert(LADDERS).values(game=game, seed_key=new_seed_key(), settings_json="", runner="",
                                                        heartbeat_ts=0.0, created_at=now()))
            except IntegrityError:
                made = read(conn)  # made meanwhile by another command, or a real refusal to pass on
                if made is None:
                    raise
                return made
            return read(conn)
    return guard(write)


def add_entry(engine: Engine, ladder_id: int, alias: str, spec: str, mu: float, sigma: float) -> None:
    """Enter a bot under `alias`; an alias already on the ladder is refused with one sentence, but the
    same spec that had left the ladder comes back with its rating."""
    def write() -> None:
        with engine.begin() as conn:
            taken = conn.execute(select(BOTS.c.spec, BOTS.c.active).where(BOTS.c.ladder_id == ladder_id)
                                 .where(BOTS.c.alias == alias)).first()
            if taken is not None and taken.spec == spec and not taken.active:
                conn.execute(update(BOTS).where(BOTS.c.ladder_id == ladder_id).where(BOTS.c.alias == alias)
                             .values(active=True))
                return
            if taken is not None:
                raise ConfigError(f"'{alias}' is already on the ladder (as {taken.spec}): add it under another "
                                  f"name, e.g. {spec}@{alias}2.")
            conn.execute(insert(BOTS).values(ladder_id=ladder_id, alias=alias, spec=spec, mu=mu, sigma=sigma,
                                             matches=0, wins=0, active=True, added_at=now()))
    guard(write)


def leave(engine: Engine, spec_prefix: str) -> None:
    """Every ladder entry whose spec starts with `spec_prefix` leaves its ladder."""
    def write() -> None:
        with engine.begin() as conn:
            conn.execute(update(BOTS).where(BOTS.c.spec.startswith(spec_prefix, autoescape=True)).values(active=False))
    guard(write)


def keep_only(engine: Engine, spec_prefix: str, keep: ColumnElement[str]) -> None:
    """Every ladder entry whose spec starts with `spec_prefix` is on its ladder if its spec is `keep` and has
    left it otherwise. `keep` is SQL, read by the same statement that writes: two callers deciding at once
    cannot leave the earlier one's choice behind."""
    def write() -> None:
        with engine.begin() as conn:
            conn.execute(update(BOTS).where(BOTS.c.spec.startswith(spec_prefix, autoescape=True))
                         .values(active=func.coalesce(BOTS.c.spec == keep, False)))
    guard(write)


def departed(engine: Engine, ladder_id: int) -> set[str]:
    """The aliases of the entries that have left the ladder."""
    def read() -> set[str]:
        with engine.connect() as conn:
            return {str(a) for (a,) in conn.execute(select(BOTS.c.alias).where(BOTS.c.ladder_id == ladder_id)
                                                    .where(BOTS.c.active.is_(False)))}
    return guard(read)


def entries_of(engine: Engine, spec_prefix: str) -> list[tuple[str, int, LadderEntry]]:
    """(game, ladder id, entry) for every ladder entry whose spec starts with `spec_prefix`, by game then when added."""
    def read() -> list[tuple[str, int, LadderEntry]]:
        with engine.connect() as conn:
            rows = conn.execute(select(LADDERS.c.game, BOTS).join(LADDERS, LADDERS.c.id == BOTS.c.ladder_id)
                                .where(BOTS.c.spec.startswith(spec_prefix, autoescape=True))
                                .order_by(LADDERS.c.game, BOTS.c.id)).all()
        return [(str(r.game), int(r.ladder_id), _entry(r)) for r in rows]
    return guard(read)


def rating_history(engine: Engine, ladder_id: int, alias: str, limit: int = RECENT) -> list[float]:
    """The conservative rating μ − 3σ of `alias` after each of its last `limit` rated matches, oldest first."""
    quoted = dumps([alias])[1:-1]  # as it is written inside a stored match's aliases_json
    def read() -> list[float]:
        with engine.connect() as conn:
            rows = conn.execute(select(MATCHES.c.seats_json).where(MATCHES.c.ladder_id == ladder_id)
                                .where(MATCHES.c.status == DONE)
                                .where(MATCHES.c.aliases_json.contains(quoted, autoescape=True))
                                .order_by(MATCHES.c.rated.desc()).limit(limit)).all()
        after = [seat for r in rows for seat in _seats(r.seats_json) if seat["alias"] == alias]
        return [float(seat["mu"]) - 3.0 * float(seat["sigma"]) for seat in reversed(after)]
    return guard(read)


def _entry(r: Any) -> LadderEntry:
    return LadderEntry(r.id, r.alias, r.spec, r.mu, r.sigma, r.matches, r.wins, bool(r.active))


def entries(engine: Engine, ladder_id: int, after_id: int = 0) -> list[LadderEntry]:
    """The ladder's entrants with an id above `after_id` (0: all), in the order they were added."""
    def read() -> list[LadderEntry]:
        with engine.connect() as conn:
            rows = conn.execute(select(BOTS).where(BOTS.c.ladder_id == ladder_id).where(BOTS.c.id > after_id)
                                .order_by(BOTS.c.id)).all()
        return [_entry(r) for r in rows]
    return guard(read)


def scheduled(engine: Engine, ladder_id: int) -> list[ScheduledMatch]:
    """The matches scheduled and not finished (in flight when the ladder stopped), in schedule order."""
    def read() -> list[ScheduledMatch]:
        with engine.connect() as conn:
            rows = conn.execute(select(MATCHES.c.number, MATCHES.c.seed, MATCHES.c.aliases_json)
                                .where(MATCHES.c.ladder_id == ladder_id).where(MATCHES.c.status == SCHEDULED)
                                .order_by(MATCHES.c.number)).all()
        return [ScheduledMatch(r.number, r.seed, tuple(json.loads(r.aliases_json))) for r in rows]
    return guard(read)


def counters(engine: Engine, ladder_id: int) -> tuple[int, int]:
    """(the next match number, the next rating order): one past the highest stored."""
    def read() -> tuple[int, int]:
        with engine.connect() as conn:
            row = conn.execute(select(func.max(MATCHES.c.number), func.max(MATCHES.c.rated))
                               .where(MATCHES.c.ladder_id == ladder_id)).one()
        return (0 if row[0] is None else row[0] + 1), (0 if row[1] is None else row[1] + 1)
    return guard(read)


def store_scheduled(engine: Engine, ladder_id: int, matches: Sequence[ScheduledMatch]) -> None:
    """Write newly scheduled matches in one insert, before any of them is handed to a worker."""
    if not matches:
        return
    at = now()
    rows = [{"ladder_id": ladder_id, "number": m.number, "seed": m.seed, "aliases_json": dumps(list(m.aliases)),
             "status": SCHEDULED, "rated": None, "termination": "", "reason": "", "plies": 0, "duration_s": 0.0,
             "seats_json": "[]", "replay_json": "", "scheduled_at": at, "finished_at": None} for m in matches]

    def write() -> None:
        with engine.begin() as conn:
            conn.execute(insert(MATCHES), rows)
    guard(write)


def store_results(engine: Engine, ladder_id: int, outcomes: Sequence[MatchOutcome],
                  ratings: Sequence[tuple[int, float, float, int, int]]) -> None:
    """Complete finished matches and set their players' ratings (bot id, mu, sigma, matches, wins): one transaction."""
    if not outcomes:
        return
    at = now()
    match_rows = [{"b_number": o.number, "rated": o.rated, "termination": o.termination, "reason": o.reason,
                   "plies": o.plies, "duration_s": o.duration_s, "seats_json": dumps(list(o.seats)),
                   "replay_json": o.replay} for o in outcomes]
    bot_rows = [{"b_id": i, "mu": mu, "sigma": sigma, "matches": n, "wins": w} for i, mu, sigma, n, w in ratings]

    def write() -> None:
        with engine.begin() as conn:
            bulk_update(conn, MATCHES, "number", match_rows, {"status": DONE, "finished_at": at},
                        (MATCHES.c.ladder_id == ladder_id, MATCHES.c.status == SCHEDULED))
            bulk_update(conn, BOTS, "id", bot_rows, {}, ())
    guard(write)


def bulk_update(conn: Connection, table: Any, key: str, rows: Sequence[dict[str, Any]], same: dict[str, Any],
                where: Sequence[Any]) -> None:
    """Update one row per entry of `rows` (its "b_" + key names the row; the rest are new values, `same` for all).

    PostgreSQL gets one UPDATE ... FROM (VALUES ...) statement: its driver sends an executemany as one
    round trip per row, which at a few hundred rows a second is most of a ladder's time. SQLite runs in
    this process, where an executemany costs no round trips.
    """
    if not rows:
        return
    names = [n for n in rows[0] if n != f"b_{key}"]
    if conn.dialect.name != "postgresql":
        conn.execute(update(table).where(table.c[key] == bindparam(f"b_{key}"), *where).values(**same), rows)
        return
    keyed = f"b_{key}"
    columns = [column(keyed, table.c[key].type), *(column(n, table.c[n].type) for n in names)]
    given = values(*columns, name="given").data([tuple(r[n] for n in [keyed, *names]) for r in rows])
    conn.execute(update(table).where(table.c[key] == given.c[keyed], *where)
                 .values(**same, **{n: given.c[n] for n in names}))


def recent_matches(engine: Engine, ladder_id: int, limit: int = RECENT) -> list[FinishedMatch]:
    """The latest finished matches, newest first: number, seats with their tiers, termination."""
    def read() -> list[FinishedMatch]:
        with engine.connect() as conn:
            rows = conn.execute(select(MATCHES.c.number, MATCHES.c.termination, MATCHES.c.seats_json,
                                       MATCHES.c.finished_at)
                                .where(MATCHES.c.ladder_id == ladder_id).where(MATCHES.c.status == DONE)
                                .order_by(MATCHES.c.rated.desc()).limit(limit)).all()
        return [FinishedMatch(r.number, r.termination,
                              tuple((seat["alias"], seat["tier"]) for seat in _seats(r.seats_json)),
                              r.finished_at.isoformat() if r.finished_at else None) for r in rows]
    return guard(read)


def match_counts(engine: Engine, ladder_id: int) -> dict[str, int]:
    """How many of the ladder's matches are done and how many are scheduled (in flight)."""
    def read() -> dict[str, int]:
        with engine.connect() as conn:
            rows = conn.execute(select(MATCHES.c.status, func.count()).where(MATCHES.c.ladder_id == ladder_id)
                                .group_by(MATCHES.c.status)).all()
        found = {str(r[0]): int(r[1]) for r in rows}
        return {"done": found.get(DONE, 0), "scheduled": found.get(SCHEDULED, 0)}
    return guard(read)


def ranked(engine: Engine, ladder_id: int, limit: int | None = None) -> list[LadderEntry]:
    """The entrants on the ladder by conservative rating μ − 3σ, best first (then by name); `limit` caps how many."""
    def read() -> list[LadderEntry]:
        query = (select(BOTS).where(BOTS.c.ladder_id == ladder_id).where(BOTS.c.active.is_(True))
                 .order_by((BOTS.c.mu - 3.0 * BOTS.c.sigma).desc(), BOTS.c.alias))
        with engine.connect() as conn:
            rows = conn.execute(query.limit(limit) if limit is not None else query).all()
        return [_entry(r) for r in rows]
    return guard(read)


def _seats(text: str) -> list[dict[str, Any]]:
    """A stored match's seats (seats_json)."""
    seats: list[dict[str, Any]] = json.loads(text)
    return seats


def ladder_games(engine: Engine) -> list[dict[str, Any]]:
    """Every ladder in the store: its game and how many bots it has, by game."""
    def read() -> list[dict[str, Any]]:
        with engine.connect() as conn:
            rows = conn.execute(select(LADDERS.c.game, func.count(BOTS.c.id))
                                .select_from(LADDERS.outerjoin(BOTS, and_(BOTS.c.ladder_id == LADDERS.c.id,
                                                                          BOTS.c.active.is_(True))))
                                .group_by(LADDERS.c.game).order_by(LADDERS.c.game)).all()
        return [{"game": r[0], "bots": int(r[1])} for r in rows]
    return guard(read)


def count_run(engine: Engine, ladder_id: int) -> int:
    """Count one more `ladder run` (kept beside the settings its first run fixed) and return the count."""
    def write() -> int:
        with engine.begin() as conn:
            stored = conn.execute(select(LADDERS.c.settings_json).where(LADDERS.c.id == ladder_id)).scalar_one()
            settings = loads(stored) if stored else {}
            settings[RUNS] = int(settings.get(RUNS, 0)) + 1
            conn.execute(update(LADDERS).where(LADDERS.c.id == ladder_id).values(settings_json=dumps(settings)))
            return int(settings[RUNS])
    return guard(write)


def ladder_settings(engine: Engine, ladder_id: int, given: dict[str, Any]) -> dict[str, Any]:
    """The ladder's match settings: stored by its first run (from `given`), the same for every run after."""
    def write() -> dict[str, Any]:
        with engine.begin() as conn:
            stored = conn.execute(select(LADDERS.c.settings_json).where(LADDERS.c.id == ladder_id)).scalar_one()
            if stored:
                return loads(stored)
            conn.execute(update(LADDERS).where(LADDERS.c.id == ladder_id).values(settings_json=dumps(given)))
            return given
    return guard(write)
