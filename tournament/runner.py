"""The tournament driver: plan each round, hand its matches to an executor, write results as they arrive.

An executor (workers/: Ray tasks, or this process with --local) plays chunks of pairings and
yields each chunk when it is done; the driver writes the chunk in one transaction at once
(tournament.store.writes). A match is a pure function of (game, config, seed, bots), so the
same plan always gives the same results whatever the executor, and a resumed tournament plays
only what is not stored. Standings and ratings are computed from stored matches in schedule
order, never arrival order (tournament.store.reads).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Engine

from tourney.engine.bots import make_bot
from tourney.engine.core import ConfigError, get_game
from tourney.engine.core.chance import stream_start
from tourney.engine.referee import MatchResult, TimeControl, play_match
from tourney.tournament.entrants import Entrant, remembers
from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.formats.registry import FORMATS, FormatSpec, next_round, sprt_state, total_estimate
from tourney.tournament.formats.seeding import keyed_match_seed
from tourney.tournament.rating.achievements import rules_for
from tourney.tournament.rating.played_numbers import PlayedNumbers
from tourney.tournament.rating.sprt import ELO_SCALES, SprtState
from tourney.tournament.rating.standings import Standing
from tourney.tournament.store.codec import loads
from tourney.tournament.store.database import url_of
from tourney.tournament.store.reads import (
    load_history,
    load_match_log,
    standings_of,
    stored_numbers,
    stored_tournament,
)
from tourney.tournament.store.records import BYE_SEED, Played, match_record
from tourney.tournament.store.writes import (
    create_tournament,
    mark_status,
    record_matches,
    save_ratings,
    save_streaks,
)
from tourney.workers.executor import Executor, Table
from tourney.workers.local import LocalExecutor
from tourney.workers.program_specs import is_program
from tourney.workers.realtime import play_realtime_match, wants_realtime


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
    # The organiser's secret behind every match seed (tournament.formats.seeding); None until the
    # tournament is stored, when create_tournament generates one if none was given.
    seed_key: str | None = None
    # The database hosted seats' bundles are read from (the run's --db; not stored with the plan).
    store: str = ""

    def match_seed(self, offset: int) -> int:
        """The seed of the offset-th game: a keyed hash of (tournament seed, offset) under seed_key."""
        return self._keyed_seed(offset, "match")

    def _keyed_seed(self, offset: int, kind: str) -> int:
        if self.seed_key is None:
            raise ValueError("a tournament's seed key is set when it is stored (create_tournament), before any match")
        return keyed_match_seed(self.seed_key, self.seed, offset, kind)

    def seed_of(self, pairing: Pairing) -> int:
        """The seed `pairing` is played with: its table's shared deal (duplicate pairs), except in a
        game with hidden information when a seat can remember (`remembers`): then every game of the
        table gets a deal of its own, keyed by the match number, so one game never tells a bot what
        it cannot see in the other. Seats still swap; only the luck no longer cancels out exactly.
        """
        if get_game(self.game).hidden_information and any(remembers(self.entrants[e].spec) for e in pairing.seats):
            return self._keyed_seed(pairing.number, "deal")
        return self.match_seed(pairing.seed_offset)

    def play(self, pairing: Pairing) -> Played:
        """Play one scheduled match and reduce it to its stored form (what executors call)."""
        return play_and_record(self, pairing)

    def table(self, pairing: Pairing) -> Table:
        """Who sits at `pairing`'s table (bot specs and aliases) and its seeds, as any executor plays it."""
        seed = self.seed_of(pairing)
        return Table([self.entrants[e].spec for e in pairing.seats], self.aliases_of(pairing), seed,
                     [bot_seed(seed, self.entrants[e].alias) for e in pairing.seats])

    def record(self, pairing: Pairing, result: MatchResult, seconds: float) -> Played:
        """A match played elsewhere (an arena) in its stored form, as executors hand it back."""
        return pairing, match_record(self.aliases_of(pairing), result), seconds

    def offline(self, pairing: Pairing, present: Sequence[bool]) -> Played:
        """The record of `pairing` not played because the bots of the seats not `present` were offline."""
        from tourney.tournament.league.forfeits import forfeit  # the league's rule, which imports this module

        return forfeit(self, pairing, dict(zip(pairing.seats, present, strict=True)))

    def aliases_of(self, pairing: Pairing) -> list[str]:
        """The aliases of the entrants in `pairing`'s seats."""
        return [self.entrants[e].alias for e in pairing.seats]

    def spec(self) -> FormatSpec:
        """The format settings, checked: one sentence for anything a user can get wrong."""
        n = len(self.entrants)
        if n < (1 if self.format == "solo" else 2):  # solo plays each bot against the rulebook AI
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
        if self.players > n and self.format != "solo":  # in solo the game's own AI fills the other seats
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
    table = plan.table(pairing)
    seed = table.seed
    if any(is_program(spec) for spec in table.specs):
        from tourney.tournament.hosted.seat import hosted_starter
        from tourney.workers.programs import play_with_programs  # only matches with programs need gRPC

        return play_with_programs(plan.game, table.specs, seed, plan.config, plan.move_ms, bot_seeds=table.bot_seeds,
                                  realtime=wants_realtime(plan.game, plan.config), hosted=hosted_starter(plan.store))
    seats = [make_bot(spec, game, seat_seed) for spec, seat_seed in zip(table.specs, table.bot_seeds, strict=True)]
    # Seats the game plays itself (Solo's scripted AI) are never asked: any bot holds them.
    seats += [make_bot("random", game, 0) for _ in range(plan.players - len(seats))]
    if wants_realtime(plan.game, plan.config):
        return play_realtime_match(plan.game, seats, seed, plan.config)
    return play_match(plan.game, seats, seed, config=plan.config, players=plan.players,
                      time_control=TimeControl.from_ms(plan.move_ms))


def play_and_record(plan: TournamentPlan, pairing: Pairing) -> Played:
    """Play one pairing and reduce it to its stored form, with its duration."""
    started = time.perf_counter()
    result = play_pairing(plan, pairing)
    return plan.record(pairing, result, time.perf_counter() - started)


def load_plan(engine: Engine, tournament_id: int | None) -> tuple[int, TournamentPlan]:
    """The stored tournament's plan (no id: the most recent unfinished one), to resume it."""
    t, entered = stored_tournament(engine, tournament_id)
    settings = loads(t.settings_json)
    specs = {a: sp for a, sp in settings.get("entrants", [])}
    entrants = [Entrant(alias, specs.get(alias, spec)) for alias, spec in entered]
    sprt = settings.get("sprt")
    plan = TournamentPlan(game=t.game, entrants=entrants, seed=t.seed,
                          games_per_pair=int(settings.get("games_per_pair", 2)), players=t.players,
                          config=loads(t.config_json), move_ms=settings.get("move_ms"), name=t.name,
                          format=settings.get("format", t.format), cycles=int(settings.get("cycles", 1)),
                          rounds=settings.get("rounds"),
                          sprt=(float(sprt[0]), float(sprt[1]), float(sprt[2]), float(sprt[3])) if sprt else None,
                          seed_key=t.seed_key, sprt_elo=str(settings.get("sprt_elo", "logistic")),
                          store=url_of(engine))
    assert t.id is not None
    return t.id, plan


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
    runner = executor if executor is not None else LocalExecutor()
    if tournament_id is None:
        tournament_id = create_tournament(engine, plan)
    else:
        mark_status(engine, tournament_id, "running")  # resumed: no longer interrupted
    if on_start is not None:
        on_start(tournament_id)
    done = PlayedNumbers(stored_numbers(engine, tournament_id))
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
    log = load_match_log(engine, tournament_id)  # one read for standings, ratings and streaks
    standings = standings_of(aliases, log)
    save_ratings(engine, tournament_id, standings)
    game = get_game(plan.game)
    save_streaks(engine, tournament_id, rules_for(game.streak_achievements, plan.config, game.default_config()), log)
    verdict = sprt_state(spec, load_history(engine, tournament_id, aliases)) if spec.sprt else None
    return TournamentReport(tournament_id, standings, len(done), verdict)
