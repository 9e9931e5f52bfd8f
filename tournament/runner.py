"""The tournament driver: plan each round, hand its matches to an executor, write results as they arrive.

An executor (workers/: Ray tasks, or this process with --local) plays chunks of pairings and
yields each chunk when it is done; the driver writes the chunk in one transaction at once.
A match is a pure function of (game, config, seed, bots), so the same plan always gives the
same results whatever the executor, and a resumed tournament plays only what is not stored.
Standings and ratings are computed from stored matches in schedule order, never arrival order.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import time
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy.engine import Engine
from sqlalchemy.exc import InterfaceError, OperationalError, SQLAlchemyError
from sqlmodel import Session, select

from engine.bots import make_bot
from engine.core import ConfigError, get_game
from engine.core.chance import stream_start
from engine.referee import MatchResult, TimeControl, play_match
from engine.server.launcher import is_command
from tournament.achievements import Earned, match_achievements, rules_for, streak_achievements
from tournament.entrants import Entrant
from tournament.formats import FORMATS, FormatSpec, next_round, sprt_state, total_estimate
from tournament.pairing import Pairing, PlayedGame
from tournament.ratings import openskill_ratings
from tournament.seeding import keyed_match_seed, new_seed_key
from tournament.sprt import ELO_SCALES, SprtState
from tournament.standings import SeatResult, Standing, compute_standings
from tournament.store import (
    Achievement,
    Match,
    MatchSeat,
    Rating,
    SkillRating,
    StoreError,
    Tournament,
    dumps,
    get_or_create_bot,
)
from tournament.store import Bot as BotRow
from tournament.store import (
    Entrant as EntrantRow,
)

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SeatRecord:
    """One seat of a finished match, ready to store."""

    alias: str
    tier: int
    tier_size: int
    points: float
    score: float
    decisions: int
    think_s: float
    faults_json: str


BYE = "BYE"  # the termination of a stored bye
BYE_SEED = -1  # the seed offset of a bye pairing: it is recorded, never played


@dataclass(frozen=True)
class MatchRecord:
    """A finished match reduced to what is stored, built where it was played.

    Workers send this back instead of the MatchResult: the replay is already serialised and
    compressed, so the driver (the one serial part) only writes rows, and a task's return
    value stays small.
    """

    seed: int
    players: int
    termination: str
    reason: str
    plies: int
    replay: str
    details_json: str
    seats: tuple[SeatRecord, ...]


Played = tuple[Pairing, MatchRecord, float]


@dataclass
class TournamentPlan:
    """Everything that decides a tournament's results."""

    game: str
    entrants: list[Entrant]
    seed: int = 1
    games_per_pair: int = 2
    players: int = 2
    config: dict[str, Any] = field(default_factory=dict)
    move_ms: int | None = None
    name: str = "tournament"
    format: str = "round-robin"
    cycles: int = 1
    rounds: int | None = None
    sprt: tuple[float, float, float, float] | None = None  # elo0, elo1, alpha, beta
    sprt_elo: str = "logistic"  # the scale of elo0, elo1: logistic or normalized
    # The organiser's secret behind every match seed (tournament.seeding); None until the
    # tournament is stored, when create_tournament generates one if none was given.
    seed_key: str | None = None

    def match_seed(self, offset: int) -> int:
        """The seed of the offset-th game: a keyed hash of (tournament seed, offset) under seed_key."""
        if self.seed_key is None:
            raise ValueError("a tournament's seed key is set when it is stored (create_tournament), before any match")
        return keyed_match_seed(self.seed_key, self.seed, offset)

    def play(self, pairing: Pairing) -> Played:
        """Play one scheduled match and reduce it to its stored form (what executors call)."""
        return play_and_record(self, pairing)

    def spec(self) -> FormatSpec:
        """The format settings, checked: one sentence for anything a user can get wrong."""
        n = len(self.entrants)
        if n < 2:
            raise ConfigError("a tournament needs at least two bots: pass e.g. --bots random,greedy.")
        if self.format not in FORMATS:
            raise ConfigError(f"unknown format '{self.format}': choose one of {', '.join(FORMATS)}.")
        if self.games_per_pair < 1:
            raise ConfigError("--games-per-pair must be at least 1.")
        if self.cycles < 1:
            raise ConfigError(f"--cycles must be at least 1, not {self.cycles}.")
        if self.rounds is not None and self.rounds < 1:
            raise ConfigError(f"--rounds must be at least 1, not {self.rounds}.")
        if (str(self.config.get("mode", "")).lower() == "solo") != (self.format == "solo"):
            raise ConfigError("Solo mode pits each bot against the rulebook AI: pair --mode solo with --format solo "
                              "(tourney run --mode solo picks it).")
        if self.players != 2 and self.format == "gauntlet":
            raise ConfigError("a gauntlet pairs two players per match: pass --players 2 or another --format.")
        if self.players > n:
            raise ConfigError(f"{self.players}-player pods need at least {self.players} bots, not {n}.")
        if self.sprt is not None:
            if self.format != "gauntlet":
                raise ConfigError("--sprt tests a challenger against the field: add --format gauntlet.")
            elo0, elo1, alpha, beta = self.sprt
            if not elo0 < elo1 or not (0 < alpha < 1 and 0 < beta < 1):
                raise ConfigError("--sprt needs elo0 < elo1 and alpha, beta between 0 and 1, e.g. --sprt 0,5.")
        if self.sprt_elo not in ELO_SCALES:
            raise ConfigError(f"--sprt-elo '{self.sprt_elo}' is not an Elo scale: choose logistic or normalized.")
        return FormatSpec(self.format, self.players, self.games_per_pair, self.cycles, self.rounds, 0, self.sprt,
                          self.seed, self.sprt_elo)

    def schedule(self) -> list[Pairing]:
        """The whole schedule of a format planned up front (round 0 of round-robin or gauntlet)."""
        first = next_round(self.spec(), len(self.entrants), [], 0)
        return first or []

    def expected_matches(self) -> int | None:
        """How many matches the tournament plays; None when the SPRT decides when to stop."""
        if self.sprt is not None:
            return None
        return total_estimate(self.spec(), len(self.entrants))

    def settings(self) -> dict[str, Any]:
        """Everything besides game, seed, players and config needed to rebuild the plan on resume."""
        return {"games_per_pair": self.games_per_pair, "move_ms": self.move_ms, "format": self.format,
                "cycles": self.cycles, "rounds": self.rounds, "sprt": list(self.sprt) if self.sprt else None,
                "sprt_elo": self.sprt_elo,
                "entrants": [[e.alias, e.spec] for e in self.entrants]}


@dataclass
class TournamentReport:
    tournament_id: int
    standings: list[Standing]
    matches: int
    sprt: SprtState | None = None


def bot_seed(match: int, alias: str) -> int:
    """The seed of entrant `alias`'s bot in the match seeded `match` (the same wherever it is played)."""
    return stream_start(match, f"bot/{alias}") >> 2


def play_pairing(plan: TournamentPlan, pairing: Pairing) -> MatchResult:
    """Play one scheduled match. Pure: the same plan and pairing give the same result."""
    game = get_game(plan.game)
    seed = plan.match_seed(pairing.seed_offset)
    specs = [plan.entrants[e].spec for e in pairing.seats]
    if any(is_command(spec) for spec in specs):
        from tournament.programs import play_with_programs  # only matches with programs need gRPC

        return play_with_programs(plan.game, specs, seed, plan.config, plan.move_ms,
                                  bot_seeds=[bot_seed(seed, plan.entrants[e].alias) for e in pairing.seats])
    seats = [make_bot(plan.entrants[e].spec, game, bot_seed(seed, plan.entrants[e].alias)) for e in pairing.seats]
    # Seats the game plays itself (Solo's scripted AI) are never asked: any bot holds them.
    seats += [make_bot("random", game, 0) for _ in range(plan.players - len(seats))]
    return play_match(plan.game, seats, seed, config=plan.config, players=plan.players,
                      time_control=TimeControl.from_ms(plan.move_ms))


def seat_results(aliases: Sequence[str], result: MatchResult) -> list[SeatResult]:
    """Each seat's place and points, for standings."""
    out = []
    for seat, alias in enumerate(aliases):
        tier = next(i for i, t in enumerate(result.ranking) if seat in t)
        faults = sum(result.seat_stats[seat].faults.values())
        out.append(SeatResult(alias, tier, len(result.ranking[tier]), result.points(seat), faults))
    return out


def match_record(plan: TournamentPlan, pairing: Pairing, result: MatchResult) -> MatchRecord:
    """Reduce a finished match to its stored form (pure)."""
    aliases = [plan.entrants[e].alias for e in pairing.seats]
    seats = []
    for seat, sr in enumerate(seat_results(aliases, result)):
        st = result.seat_stats[seat]
        seats.append(SeatRecord(sr.alias, sr.tier, sr.tier_size, sr.points, result.scores[seat], st.decisions,
                                st.think_s, dumps(st.faults)))
    return MatchRecord(result.seed, result.players, result.termination, result.reason, len(result.replay.steps),
                       pack_replay(result.replay.to_dict()), dumps(_jsonable(result.details)), tuple(seats))


def pack_replay(replay: Mapping[str, Any]) -> str:
    """A replay as compact JSON, zlib-compressed and base64-encoded ("z:" prefix): 5-10x smaller."""
    return "z:" + base64.b64encode(zlib.compress(dumps(replay).encode(), 6)).decode()


def unpack_replay(text: str) -> dict[str, Any]:
    """The replay dict from a stored replay column (compressed or plain JSON)."""
    if text.startswith("z:"):
        text = zlib.decompress(base64.b64decode(text[2:])).decode()
    return _loads(text)


def play_and_record(plan: TournamentPlan, pairing: Pairing) -> Played:
    """Play one pairing and reduce it to its stored form, with its duration."""
    started = time.perf_counter()
    result = play_pairing(plan, pairing)
    return pairing, match_record(plan, pairing, result), time.perf_counter() - started


# How long a read or write keeps retrying a database that went away (a PostgreSQL restart, a
# network blip) before the driver gives up; $TOURNEY_DB_RETRY_S overrides it.
DB_RETRY_S = 120.0


def _db_reason(exc: SQLAlchemyError) -> str:
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _transient(exc: SQLAlchemyError) -> bool:
    """A lost connection to a database server is worth retrying; a full disk, a constraint or a bug is not."""
    if getattr(exc, "connection_invalidated", False):
        return True
    orig = getattr(exc, "orig", None)
    if orig is None or type(orig).__module__.startswith("sqlite3"):
        return False  # SQLite is a local file: its errors do not heal by waiting
    return isinstance(exc, (OperationalError, InterfaceError))


def _guard(action: Callable[[], Any]) -> Any:
    """Run one store transaction; retry with backoff while the database server is unreachable.

    Every transaction here may run twice safely (matches already stored are skipped), so a
    retry after a connection lost at commit time never writes a match twice.
    """
    budget = float(os.environ.get("TOURNEY_DB_RETRY_S", DB_RETRY_S))
    deadline = time.monotonic() + budget
    delay = 0.1
    while True:
        try:
            return action()
        except SQLAlchemyError as exc:
            reason = _db_reason(exc)
            if _transient(exc) and time.monotonic() + delay < deadline:
                logger.warning("the database is unreachable (%s); retrying in %.1f s", reason, delay)
                time.sleep(delay)
                delay = min(delay * 2, 5.0)
                continue
            if "full" in reason.lower():
                raise StoreError(f"the database's disk is full ({reason}): free some space, then resume "
                                 "the tournament (`tourney resume`).") from None
            waited = f" for {budget:g} s" if _transient(exc) else ""
            raise StoreError(
                f"the database stopped answering{waited} ({reason}): check it is up and writable, "
                "then resume the tournament."
            ) from None


def create_tournament(engine: Engine, plan: TournamentPlan) -> int:
    """Store a new tournament and its entrants; return its id.

    A plan without a seed key gets a fresh secret one here, stored with the tournament so that
    resume and replay reproduce its matches exactly.
    """
    if plan.seed_key is None:
        plan.seed_key = new_seed_key()
    key = plan.seed_key

    def write() -> int:
        with Session(engine) as session:
            t = Tournament(name=plan.name, game=plan.game, format=plan.format, players=plan.players,
                           seed=plan.seed, seed_key=key, config_json=dumps(plan.config),
                           settings_json=dumps(plan.settings()))
            session.add(t)
            session.flush()
            assert t.id is not None
            for i, e in enumerate(plan.entrants):
                bot = get_or_create_bot(session, e.spec, e.spec)
                assert bot.id is not None
                session.add(EntrantRow(tournament_id=t.id, bot_id=bot.id, alias=e.alias, position=i))
            session.commit()
            return t.id
    result: int = _guard(write)
    return result


def record_match(engine: Engine, tournament_id: int, plan: TournamentPlan, pairing: Pairing,
                 result: MatchResult, duration_s: float) -> None:
    """Write one finished match and its seats in one transaction."""
    record_matches(engine, tournament_id, plan, [(pairing, match_record(plan, pairing, result), duration_s)])


def record_matches(engine: Engine, tournament_id: int, plan: TournamentPlan, played: Sequence[Played],
                   byes: Sequence[Pairing] = ()) -> None:
    """Write a batch of finished matches (and byes) in one transaction, skipping any already stored.

    Skipping keeps a retried or duplicated chunk from ever writing a match twice. Matches are
    inserted together (one flush for all of them, then one for all their seats).
    """
    def write() -> None:
        with Session(engine) as session:
            entrant_ids = {
                row.alias: row.id
                for row in session.exec(select(EntrantRow).where(EntrantRow.tournament_id == tournament_id))
            }
            numbers = [p.number for p, _, _ in played] + [b.number for b in byes]
            stored = set(session.exec(select(Match.number).where(Match.tournament_id == tournament_id)
                                      .where(Match.number.in_(numbers))))  # type: ignore[attr-defined]
            config = dumps(plan.config)
            rows: list[tuple[Match, Sequence[SeatRecord]]] = []
            for pairing, rec, duration_s in played:
                if pairing.number in stored:
                    continue
                stored.add(pairing.number)
                rows.append((Match(tournament_id=tournament_id, number=pairing.number, round=pairing.round,
                                   game=plan.game, seed=rec.seed, players=rec.players, config_json=config,
                                   termination=rec.termination, reason=rec.reason, plies=rec.plies,
                                   duration_s=duration_s, replay_json=rec.replay, details_json=rec.details_json),
                             rec.seats))
            for bye in byes:
                if bye.number in stored:
                    continue
                stored.add(bye.number)
                alias = plan.entrants[bye.seats[0]].alias
                # A bye is worth a win for every game the pairing would have played (two players), or
                # the average share of the table (more players: a win would be worth k times that).
                value = plan.games_per_pair / (1 if plan.players == 2 else plan.players)
                seat = SeatRecord(alias, 0, 1, float(value), 0.0, 0, 0.0, "{}")
                rows.append((Match(tournament_id=tournament_id, number=bye.number, round=bye.round, game=plan.game,
                                   seed=-1, players=1, config_json=config, termination=BYE, reason="bye", plies=0,
                                   duration_s=0.0, replay_json="{}"), (seat,)))
            session.add_all([m for m, _ in rows])
            session.flush()
            for m, seats in rows:
                assert m.id is not None
                session.add_all([MatchSeat(match_id=m.id, seat=i, entrant_id=entrant_ids.get(sr.alias),
                                           alias=sr.alias, tier=sr.tier, points=sr.points, score=sr.score,
                                           decisions=sr.decisions, think_s=sr.think_s, faults_json=sr.faults_json)
                                 for i, sr in enumerate(seats)])
                session.add_all([Achievement(tournament_id=tournament_id, match_id=m.id, alias=e.alias,
                                             number=e.number, name=e.name)
                                 for e in match_achievements(m.details_json, [sr.alias for sr in seats])])
            session.commit()
    _guard(write)


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def stored_numbers(engine: Engine, tournament_id: int) -> set[int]:
    """Schedule numbers of the matches already stored for a tournament."""
    def read() -> set[int]:
        with Session(engine) as session:
            return set(session.exec(select(Match.number).where(Match.tournament_id == tournament_id)))
    result: set[int] = _guard(read)
    return result


def _stored_rows(engine: Engine, tournament_id: int) -> list[tuple[Match, list[MatchSeat]]]:
    """Every stored match with its seats, in schedule order."""
    def read() -> list[tuple[Match, list[MatchSeat]]]:
        with Session(engine) as session:
            rows = session.exec(
                select(MatchSeat, Match).where(MatchSeat.match_id == Match.id)
                .where(Match.tournament_id == tournament_id)
            ).all()
            by_match: dict[int, tuple[Match, list[MatchSeat]]] = {}
            for seat, match in rows:
                by_match.setdefault(match.id or 0, (match, []))[1].append(seat)
            out = sorted(by_match.values(), key=lambda mg: mg[0].number)
            for _, seats in out:
                seats.sort(key=lambda st: st.seat)
            return out
    result: list[tuple[Match, list[MatchSeat]]] = _guard(read)
    return result


def stored_matches(engine: Engine, tournament_id: int) -> list[tuple[Match, list[MatchSeat]]]:
    """A tournament's stored matches with their seats, in schedule order."""
    return _stored_rows(engine, tournament_id)


def stored_match(engine: Engine, match_id: int) -> tuple[Match, list[MatchSeat]] | None:
    """One stored match and its seats, or None."""
    def read() -> tuple[Match, list[MatchSeat]] | None:
        with Session(engine) as session:
            m = session.get(Match, match_id)
            if m is None:
                return None
            seats = list(session.exec(select(MatchSeat).where(MatchSeat.match_id == match_id)))
            seats.sort(key=lambda st: st.seat)
            return m, seats
    result: tuple[Match, list[MatchSeat]] | None = _guard(read)
    return result


def load_history(engine: Engine, tournament_id: int, aliases: Sequence[str]) -> list[PlayedGame]:
    """Stored results as the pairing functions see them: entrants by seat, points by seat."""
    index = {a: i for i, a in enumerate(aliases)}
    return [PlayedGame(tuple(index[s.alias] for s in seats), tuple(s.points for s in seats), m.number, m.round,
                       m.seed)
            for m, seats in _stored_rows(engine, tournament_id)]


def load_standings(engine: Engine, tournament_id: int, aliases: Sequence[str]) -> list[Standing]:
    """Standings and ratings from what is stored, in schedule order, so resumed runs match uninterrupted ones."""
    matches = []
    for match, seats in _stored_rows(engine, tournament_id):
        tiers: dict[int, int] = {}
        for st in seats:
            tiers[st.tier] = tiers.get(st.tier, 0) + 1
        matches.append([
            SeatResult(st.alias, st.tier, tiers[st.tier], st.points,
                       sum(int(v) for v in _loads(st.faults_json).values()), bye=match.termination == BYE)
            for st in seats
        ])
    standings = compute_standings(aliases, matches)
    skills = openskill_ratings(aliases, matches)
    for s in standings:
        s.mu, s.sigma = skills[s.alias].mu, skills[s.alias].sigma
    return standings


def _loads(text: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(text)
    return value


def save_streaks(engine: Engine, tournament_id: int, rules: Sequence[tuple[int, int, str]]) -> None:
    """Recount the streak achievements from the stored results (idempotent, so resumes agree)."""
    results = []
    for match, seats in _stored_rows(engine, tournament_id):
        if match.termination == BYE:
            continue
        tiers = [st.tier for st in seats]
        results.append([(st.alias, st.tier, tiers.count(st.tier)) for st in seats])
    earned = streak_achievements(results, rules)

    def write() -> None:
        with Session(engine) as session:
            for old in session.exec(select(Achievement).where(Achievement.tournament_id == tournament_id)
                                    .where(Achievement.match_id == None)):  # noqa: E711  (SQL IS NULL)
                session.delete(old)
            session.flush()
            session.add_all([Achievement(tournament_id=tournament_id, alias=e.alias, number=e.number, name=e.name,
                                         opponent=e.opponent) for e in earned])
            session.commit()
    _guard(write)


def load_achievements(engine: Engine, tournament_id: int) -> list[Earned]:
    """Every achievement stored for a tournament, streaks included."""
    def read() -> list[Earned]:
        with Session(engine) as session:
            rows = session.exec(select(Achievement).where(Achievement.tournament_id == tournament_id)
                                .order_by(Achievement.id)).all()  # type: ignore[arg-type]
            return [Earned(r.alias, r.number, r.name, r.opponent) for r in rows]
    result: list[Earned] = _guard(read)
    return result


def save_ratings(engine: Engine, tournament_id: int, standings: Sequence[Standing]) -> None:
    """Store the final performance and OpenSkill ratings and mark the tournament finished."""
    def write() -> None:
        with Session(engine) as session:
            for table in (Rating, SkillRating):
                for old in session.exec(select(table).where(table.tournament_id == tournament_id)):
                    session.delete(old)
            session.flush()  # the unit of work would otherwise insert before it deletes
            for s in standings:
                session.add(Rating(tournament_id=tournament_id, alias=s.alias, rating=s.rating, low=s.low,
                                   high=s.high, games=s.games))
                session.add(SkillRating(tournament_id=tournament_id, alias=s.alias, mu=s.mu, sigma=s.sigma,
                                        buchholz=s.buchholz, sonneborn_berger=s.sonneborn_berger,
                                        direct=s.direct))
            t = session.get(Tournament, tournament_id)
            if t is not None:
                t.status = "finished"
                session.add(t)
            session.commit()
    _guard(write)


def load_plan(engine: Engine, tournament_id: int | None) -> tuple[int, TournamentPlan]:
    """The stored tournament's plan (no id: the most recent unfinished one), to resume it."""
    def read() -> tuple[int, TournamentPlan]:
        with Session(engine) as session:
            if tournament_id is None:
                t = session.exec(select(Tournament).where(Tournament.status != "finished")
                                 .order_by(Tournament.id.desc())).first()  # type: ignore[union-attr]
                if t is None:
                    raise StoreError("there is no unfinished tournament in this database: pass an id to resume.")
            else:
                t = session.get(Tournament, tournament_id)
                if t is None:
                    raise StoreError(f"there is no tournament {tournament_id} in this database: check the id and --db.")
            settings = _loads(t.settings_json)
            rows = session.exec(select(EntrantRow).where(EntrantRow.tournament_id == t.id)
                                .order_by(EntrantRow.position)).all()  # type: ignore[arg-type]
            bots = {b.id: b.spec for b in session.exec(select(BotRow))}
            specs = {a: sp for a, sp in settings.get("entrants", [])}
            entrants = [Entrant(r.alias, specs.get(r.alias, bots.get(r.bot_id, r.alias))) for r in rows]
            sprt = settings.get("sprt")
            plan = TournamentPlan(game=t.game, entrants=entrants, seed=t.seed,
                                  games_per_pair=int(settings.get("games_per_pair", 2)), players=t.players,
                                  config=_loads(t.config_json), move_ms=settings.get("move_ms"), name=t.name,
                                  format=settings.get("format", t.format), cycles=int(settings.get("cycles", 1)),
                                  rounds=settings.get("rounds"),
                                  sprt=(float(sprt[0]), float(sprt[1]), float(sprt[2]), float(sprt[3]))
                                  if sprt else None, seed_key=t.seed_key,
                                  sprt_elo=str(settings.get("sprt_elo", "logistic")))
            assert t.id is not None
            return t.id, plan
    result: tuple[int, TournamentPlan] = _guard(read)
    return result


class Executor(Protocol):
    """Plays pairings and yields finished chunks (see workers/)."""

    workers: int

    def run(self, plan: TournamentPlan, pairings: Sequence[Pairing]) -> Iterator[list[Played]]: ...


class InProcess:
    """The simplest executor: every match in this process, one at a time."""

    workers = 1

    def run(self, plan: TournamentPlan, pairings: Sequence[Pairing]) -> Iterator[list[Played]]:
        for p in pairings:
            yield [play_and_record(plan, p)]


def run_tournament(
    engine: Engine,
    plan: TournamentPlan,
    tournament_id: int | None = None,
    on_match: Callable[[int, int], None] | None = None,
    executor: Executor | None = None,
    on_start: Callable[[int], None] | None = None,
) -> TournamentReport:
    """Play every planned match not yet stored, writing each chunk as it arrives; return the standings."""
    spec = plan.spec()
    n = len(plan.entrants)
    aliases = [e.alias for e in plan.entrants]
    runner = executor if executor is not None else InProcess()
    if tournament_id is None:
        tournament_id = create_tournament(engine, plan)
    if on_start is not None:
        on_start(tournament_id)
    done = stored_numbers(engine, tournament_id)
    expected = plan.expected_matches()
    total = max(expected, len(done)) if expected is not None else 0  # 0: open-ended (SPRT)
    r = 0
    while True:
        history = load_history(engine, tournament_id, aliases) if r > 0 and spec.format != "round-robin" else []
        pairings = next_round(spec, n, history, r)
        if pairings is None:
            break
        todo = [p for p in pairings if p.number not in done]
        byes = [p for p in todo if p.seed_offset == BYE_SEED]
        if byes:
            record_matches(engine, tournament_id, plan, [], byes)
            done.update(b.number for b in byes)
        matches = [p for p in todo if p.seed_offset != BYE_SEED]
        for chunk in runner.run(plan, matches):
            record_matches(engine, tournament_id, plan, chunk)
            done.update(p.number for p, _, _ in chunk)
            if on_match is not None:
                on_match(len(done), total)
        r += 1
    standings = load_standings(engine, tournament_id, aliases)
    save_ratings(engine, tournament_id, standings)
    game = get_game(plan.game)
    save_streaks(engine, tournament_id, rules_for(game.streak_achievements, plan.config, game.default_config()))
    verdict = sprt_state(spec, load_history(engine, tournament_id, aliases)) if spec.sprt else None
    return TournamentReport(tournament_id, standings, len(done), verdict)
