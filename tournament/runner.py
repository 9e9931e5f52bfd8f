"""The tournament driver: plan the schedule, play each match, write each result as it ends.

Matches run one after another in this process. A match is a pure function of (game, config,
seed, bots), so the same schedule always gives the same results, and a tournament that is
resumed replays only the matches that are not stored yet.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session, select

from engine.bots import make_bot
from engine.core import ConfigError, get_game
from engine.core.chance import stream_start
from engine.referee import MatchResult, TimeControl, play_match
from tournament.entrants import Entrant
from tournament.round_robin import Pairing, round_robin
from tournament.standings import SeatResult, Standing, compute_standings
from tournament.store import (
    Entrant as EntrantRow,
)
from tournament.store import (
    Match,
    MatchSeat,
    Rating,
    StoreError,
    Tournament,
    dumps,
    get_or_create_bot,
)


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

    def schedule(self) -> list[Pairing]:
        if len(self.entrants) < 2:
            raise ConfigError("a tournament needs at least two bots: pass e.g. --bots random,greedy.")
        if self.games_per_pair < 1:
            raise ConfigError("--games-per-pair must be at least 1.")
        return round_robin(len(self.entrants), self.games_per_pair)


@dataclass
class TournamentReport:
    tournament_id: int
    standings: list[Standing]
    matches: int


def match_seed(tournament_seed: int, offset: int) -> int:
    """The seed of the offset-th game (duplicate pairs share one); kept below 2**62 for SQL."""
    return stream_start(tournament_seed, f"match/{offset}") >> 2


def play_pairing(plan: TournamentPlan, pairing: Pairing) -> MatchResult:
    """Play one scheduled match. Pure: the same plan and pairing give the same result."""
    game = get_game(plan.game)
    seed = match_seed(plan.seed, pairing.seed_offset)
    seats = [
        make_bot(plan.entrants[e].spec, game, stream_start(seed, f"bot/{plan.entrants[e].alias}") >> 2)
        for e in pairing.seats
    ]
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


def _guard(action: Callable[[], Any]) -> Any:
    try:
        return action()
    except SQLAlchemyError as exc:
        raise StoreError(
            f"the database stopped answering ({type(exc).__name__}): check it is up and writable, "
            "then resume the tournament."
        ) from None


def create_tournament(engine: Engine, plan: TournamentPlan) -> int:
    """Store a new tournament and its entrants; return its id."""
    def write() -> int:
        with Session(engine) as session:
            t = Tournament(name=plan.name, game=plan.game, format="round-robin", players=plan.players,
                           seed=plan.seed, config_json=dumps(plan.config),
                           settings_json=dumps({"games_per_pair": plan.games_per_pair, "move_ms": plan.move_ms}))
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
    def write() -> None:
        with Session(engine) as session:
            entrant_ids = {
                row.alias: row.id
                for row in session.exec(select(EntrantRow).where(EntrantRow.tournament_id == tournament_id))
            }
            m = Match(tournament_id=tournament_id, number=pairing.number, round=pairing.round, game=plan.game,
                      seed=result.seed, players=result.players, config_json=dumps(plan.config),
                      termination=result.termination, reason=result.reason,
                      plies=len(result.replay.steps), duration_s=duration_s,
                      replay_json=dumps(result.replay.to_dict()), details_json=dumps(_jsonable(result.details)))
            session.add(m)
            session.flush()
            assert m.id is not None
            aliases = [plan.entrants[e].alias for e in pairing.seats]
            for seat, sr in enumerate(seat_results(aliases, result)):
                st = result.seat_stats[seat]
                session.add(MatchSeat(match_id=m.id, seat=seat, entrant_id=entrant_ids.get(sr.alias), alias=sr.alias,
                                      tier=sr.tier, points=sr.points, score=result.scores[seat],
                                      decisions=st.decisions, think_s=st.think_s, faults_json=dumps(st.faults)))
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


def load_standings(engine: Engine, tournament_id: int, aliases: Sequence[str]) -> list[Standing]:
    """Standings from what is stored, so a resumed tournament counts every finished match."""
    def read() -> list[Standing]:
        with Session(engine) as session:
            rows = session.exec(
                select(MatchSeat, Match).where(MatchSeat.match_id == Match.id)
                .where(Match.tournament_id == tournament_id)
            ).all()
            by_match: dict[int, list[tuple[MatchSeat, Match]]] = {}
            for seat, match in rows:
                by_match.setdefault(match.id or 0, []).append((seat, match))
            matches = []
            for group in by_match.values():
                tiers: dict[int, int] = {}
                for seat, _ in group:
                    tiers[seat.tier] = tiers.get(seat.tier, 0) + 1
                matches.append([
                    SeatResult(seat.alias, seat.tier, tiers[seat.tier], seat.points,
                               sum(int(v) for v in _loads(seat.faults_json).values()))
                    for seat, _ in group
                ])
            return compute_standings(aliases, matches)
    result: list[Standing] = _guard(read)
    return result


def _loads(text: str) -> dict[str, Any]:
    import json
    value: dict[str, Any] = json.loads(text)
    return value


def save_ratings(engine: Engine, tournament_id: int, standings: Sequence[Standing]) -> None:
    def write() -> None:
        with Session(engine) as session:
            for old in session.exec(select(Rating).where(Rating.tournament_id == tournament_id)):
                session.delete(old)
            session.flush()  # the unit of work would otherwise insert before it deletes
            for s in standings:
                session.add(Rating(tournament_id=tournament_id, alias=s.alias, rating=s.rating, low=s.low,
                                   high=s.high, games=s.games))
            t = session.get(Tournament, tournament_id)
            if t is not None:
                t.status = "finished"
                session.add(t)
            session.commit()
    _guard(write)


def run_tournament(
    engine: Engine,
    plan: TournamentPlan,
    tournament_id: int | None = None,
    on_match: Callable[[int, int], None] | None = None,
) -> TournamentReport:
    """Play every scheduled match not yet stored, writing each as it ends; return the standings."""
    schedule = plan.schedule()
    if tournament_id is None:
        tournament_id = create_tournament(engine, plan)
    done = stored_numbers(engine, tournament_id)
    for pairing in schedule:
        if pairing.number in done:
            continue
        started = time.perf_counter()
        result = play_pairing(plan, pairing)
        record_match(engine, tournament_id, plan, pairing, result, time.perf_counter() - started)
        done.add(pairing.number)
        if on_match is not None:
            on_match(len(done), len(schedule))
    aliases = [e.alias for e in plan.entrants]
    standings = load_standings(engine, tournament_id, aliases)
    save_ratings(engine, tournament_id, standings)
    return TournamentReport(tournament_id, standings, len(schedule))
