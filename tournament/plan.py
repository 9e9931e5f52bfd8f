"""A tournament's plan (everything that decides its results) and how one of its matches is played.

This is what a Ray worker unpickles and runs, so it imports only what playing a match needs: the
engine, the entrants, the pairing and seeds, and the stored record a match is reduced to. The
formats (and the Swiss pairer's graph library) are imported when a plan is checked or scheduled,
which only the driver does; the store's database layer (SQLAlchemy, SQLModel) never. A worker
that imported the driver's module (tournament.runner) spent ~0.5 s and ~40 MB on them before its
first match (issue 32).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from tourney.engine.bots import make_bot
from tourney.engine.core import ConfigError, get_game
from tourney.engine.core.chance import stream_start
from tourney.engine.referee import MatchResult, TimeControl, play_match
from tourney.tournament.entrants import Entrant, remembers
from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.formats.seeding import keyed_match_seed
from tourney.tournament.rating.sprt import MAX_SPRT_ELO
from tourney.tournament.store.records import Played, match_record
from tourney.workers.executor import Table
from tourney.workers.program_specs import is_program
from tourney.workers.realtime import play_realtime_match, wants_realtime

if TYPE_CHECKING:
    from tourney.tournament.formats.registry import FormatSpec

RESUMES = "resumes"  # the key of the resume count in a tournament's stored settings


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
    # How many times the tournament was resumed: the deals of the tables that get their own (seed_of)
    # are keyed by it too.
    resumes: int = 0
    # Which replay of its chunk this copy of the plan plays, after the Ray workers of the earlier ones died
    # (RayExecutor; not stored): keyed into those deals too, as a resume is.
    retry: int = 0

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

        Such a table is dealt anew after each resume: a match the interruption left unstored is played
        again, and its bots may have seen its deal already, whole (an arena plays a match whose caller
        hung up to its end). So is a chunk a Ray worker died under, played again (`retried`).
        """
        if get_game(self.game).hidden_information and any(remembers(self.entrants[e].spec) for e in pairing.seats):
            kind = f"deal/resumed-{self.resumes}" if self.resumes else "deal"
            return self._keyed_seed(pairing.number, f"{kind}/retried-{self.retry}" if self.retry else kind)
        return self.match_seed(pairing.seed_offset)

    def retried(self, attempt: int) -> TournamentPlan:
        """This plan for the attempt-th replay of a chunk whose Ray worker died mid-way: a bot that remembers
        (a `cmd:` program may keep files) may have seen the lost attempt's deals, so its tables are dealt anew."""
        return replace(self, retry=attempt)

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

    def counts_rounds(self) -> bool:
        """Whether --rounds means anything to this format: Swiss rounds, pod rounds (3-6 players in a round
        robin) or an SPRT gauntlet's batch cap; other schedules are fixed by games per pair and cycles."""
        return (self.format == "swiss" or (self.format == "round-robin" and self.players > 2)
                or (self.format == "gauntlet" and self.sprt is not None))

    def spec(self) -> FormatSpec:
        """The format settings, checked: one sentence for anything a user can get wrong."""
        from tourney.tournament.formats.registry import (  # the driver's: see the module's doc
            FORMATS,
            MAX_MATCHES,
            FormatSpec,
            matches_at_most,
        )
        from tourney.tournament.rating.sprt import ELO_SCALES

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
            if not (abs(elo0) <= MAX_SPRT_ELO and abs(elo1) <= MAX_SPRT_ELO):
                raise ConfigError(f"the SPRT's elo0 and elo1 must lie within ±{MAX_SPRT_ELO:,.0f}, not {elo0:g} and "
                                  f"{elo1:g}: test a smaller difference (--sprt 0,5, or --elo0/--elo1 of `sprt`).")
        if self.sprt_elo not in ELO_SCALES:
            raise ConfigError(f"--sprt-elo '{self.sprt_elo}' is not an Elo scale: choose logistic or normalized.")
        spec = FormatSpec(self.format, self.players, self.games_per_pair, self.cycles, self.rounds, 0, self.sprt,
                          self.seed, self.sprt_elo)
        if (most := matches_at_most(spec, n)) > MAX_MATCHES:
            raise ConfigError(f"this tournament would play up to {most:,} matches, more than the {MAX_MATCHES:,} one "
                              "run holds: lower --games-per-pair, --cycles or --rounds, or split it into several runs.")
        return spec

    def schedule(self) -> list[Pairing]:
        """The whole schedule of a format planned up front (round 0 of round-robin or gauntlet)."""
        from tourney.tournament.formats.registry import next_round

        first = next_round(self.spec(), len(self.entrants), [], 0)
        return first or []

    def expected_matches(self) -> int | None:
        """How many matches the tournament plays; None when the SPRT decides when to stop."""
        if self.sprt is not None:
            return None
        from tourney.tournament.formats.registry import total_estimate

        return total_estimate(self.spec(), len(self.entrants))

    def settings(self) -> dict[str, Any]:
        """Everything besides game, seed, players and config needed to rebuild the plan on resume."""
        return {"games_per_pair": self.games_per_pair, "move_ms": self.move_ms, "format": self.format,
                "cycles": self.cycles, "rounds": self.rounds, "sprt": list(self.sprt) if self.sprt else None,
                "sprt_elo": self.sprt_elo, RESUMES: self.resumes,
                "entrants": [[e.alias, e.spec] for e in self.entrants]}



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


