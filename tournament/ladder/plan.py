"""Playing one ladder match: what a Ray worker is handed (a plan and a chunk of pairings).

A ladder match is played exactly like a tournament's (tournament.plan.play_and_record): the
same bot specs (built-in, `cmd:`, and whatever else `tourney run` accepts), the same seeding of
the bots, the same stored record. Its seed is a keyed hash of the match number under the
ladder's secret key, so a match is a pure function of (game, config, number, seats): a match
replayed after a crash, or retried by Ray, gives the same result. Except where a seat remembers, in
a game with hidden information: such a table gets a deal of its own, keyed by the count of earlier
`ladder run`s too (as a tournament's by its resumes), so a match a crash left unrated is dealt anew.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tourney.tournament.entrants import Entrant
from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.formats.seeding import keyed_match_seed
from tourney.tournament.plan import TournamentPlan, play_and_record

LADDER_SEED = 0  # the "tournament seed" beside the key: the key alone makes the seeds secret


@dataclass(frozen=True)
class LadderPairing:
    """A scheduled ladder match: its number and the entrants in its seats."""

    number: int
    seats: tuple[Entrant, ...]


@dataclass
class LadderPlan:
    """Everything that decides a ladder match's result besides its pairing."""

    game: str
    seed_key: str
    players: int = 2
    config: dict[str, Any] = field(default_factory=dict)
    move_ms: int | None = None
    store: str = ""  # the database hosted seats' bundles are read from (every worker opens it)
    restarts: int = 0  # how many `ladder run`s came before this one (see the module docstring)

    def seed_of(self, number: int) -> int:
        """The seed of match `number`."""
        return keyed_match_seed(self.seed_key, LADDER_SEED, number)

    def play(self, pairing: LadderPairing) -> tuple[LadderPairing, Any, float]:
        """Play one ladder match and reduce it to its stored form (what executors call)."""
        plan = TournamentPlan(game=self.game, entrants=list(pairing.seats), seed=LADDER_SEED, players=self.players,
                              config=self.config, move_ms=self.move_ms, name="ladder", seed_key=self.seed_key,
                              store=self.store, resumes=self.restarts)
        seats = tuple(range(len(pairing.seats)))
        _pairing, record, seconds = play_and_record(plan, Pairing(pairing.number, 0, seats, pairing.number))
        return pairing, record, seconds
