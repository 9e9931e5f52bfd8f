"""A finished match: the one result every layer passes on, stores and sends.

The referee (and every other path that ends a match: real time, a program that never started, an
offline league bot, a bye) builds it with `match_result`, which is the one place a seat's tier, tier
size and match points are worked out from the game's Outcome and the seat's clock is frozen. The
wire (`engine/server/results.py`) and the store (`tournament/store/`) carry exactly these fields.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tourney.engine.core.game import Outcome
from tourney.engine.core.replay import Replay
from tourney.engine.core.termination import FAULT_KINDS, Termination


@dataclass
class SeatStats:
    """A seat's running tally while its match is played: decisions, thinking time and faults."""

    decisions: int = 0
    think_s: float = 0.0
    faults: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished match: its place (0-based tier, shared by `tier_size` seats), the game's
    score, its match points, and its clock: decisions, thinking time, faults by kind.

    Points are in [0, 1] for a played match; a bye (recorded by a format, never played) is worth what
    its format says, e.g. a win for every game of the pairing it stands for.
    """

    tier: int
    tier_size: int
    score: float
    points: float
    decisions: int = 0
    think_s: float = 0.0
    faults: Mapping[str, int] = field(default_factory=dict)

    def stats(self) -> SeatStats:
        """This seat's clock as a running tally, to end its match again another way (a capped forfeit)."""
        return SeatStats(self.decisions, self.think_s, dict(self.faults))


@dataclass(frozen=True)
class MatchResult:
    """How a match ended, every seat's result, and the replay that reproduces it."""

    game_id: str
    seed: int
    termination: Termination
    reason: str  # the game's own reason, or the fault with the seat that caused it
    seats: tuple[SeatResult, ...]
    replay: Replay
    details: Mapping[str, Any] = field(default_factory=dict)
    forfeit_seat: int | None = None

    @property
    def players(self) -> int:
        """How many seats played."""
        return len(self.seats)

    @property
    def ranking(self) -> tuple[tuple[int, ...], ...]:
        """The tiers of seats, best first (seats in order within a tier)."""
        tiers = sorted({s.tier for s in self.seats})
        return tuple(tuple(i for i, s in enumerate(self.seats) if s.tier == t) for t in tiers)

    @property
    def scores(self) -> tuple[float, ...]:
        """The game's score of each seat."""
        return tuple(s.score for s in self.seats)

    @property
    def outcome(self) -> Outcome:
        """The ranking, scores and reason as the game's Outcome."""
        return Outcome(self.ranking, self.scores, self.reason)

    def points(self, seat: int) -> float:
        """Match points of `seat` in [0, 1] (Outcome.points; nobody scores in a void match)."""
        return self.seats[seat].points


def match_result(game_id: str, seed: int, outcome: Outcome, termination: Termination, stats: Sequence[SeatStats],
                 replay: Replay, details: Mapping[str, Any] | None = None,
                 forfeit_seat: int | None = None) -> MatchResult:
    """The result of a match that ended with `outcome`: each seat's tier, tier size and match points
    (none in a match the arena voided) next to its score and the clock `stats` kept."""
    seats = []
    for seat, st in enumerate(stats):
        tier = outcome.tier_of(seat)
        points = 0.0 if termination is Termination.ABORTED else outcome.points(seat)
        seats.append(SeatResult(tier, len(outcome.ranking[tier]), float(outcome.scores[seat]), points,
                                st.decisions, st.think_s, dict(st.faults)))
    return MatchResult(game_id, seed, termination, outcome.reason, tuple(seats), replay, dict(details or {}),
                       forfeit_seat)


def forfeit_seat_of(termination: Termination, seats: Sequence[SeatResult]) -> int | None:
    """The seat that forfeited a match, read from its seats: a seat's fault ended it and that seat
    alone holds the last place (a forfeit ranks the culprit below everyone else)."""
    if termination not in FAULT_KINDS or len(seats) < 2:
        return None
    last = max(s.tier for s in seats)
    alone = [i for i, s in enumerate(seats) if s.tier == last and s.tier_size == 1 and s.faults.get(termination)]
    return alone[0] if last > 0 and len(alone) == 1 else None
