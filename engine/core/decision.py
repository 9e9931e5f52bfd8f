"""What a seat is given when it must decide, and what a seat is.

Bots see a DecisionRequest, never the state: its observation holds only what their seat
may know, and `determinize` draws a full state consistent with it for search bots.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.core.game import Action, Game, Observation, State
from engine.core.termination import Termination


@dataclass(frozen=True)
class DecisionRequest:
    """One decision for one seat.

    deadline_s is the time the seat may think, in seconds (None: no limit). A seat answers
    with an index into `legal`.
    """

    game: Game
    seat: int
    observation: Observation
    legal: Sequence[Action]
    deadline_s: float | None
    _state: State

    def determinize(self, rng: random.Random) -> State:
        """A full state consistent with this seat's observation, hidden parts sampled by rng."""
        return self._state.determinize(self.seat, rng)


class Seat(Protocol):
    """Anything that can play a seat: a built-in bot, or a bot program behind a stream."""

    def act(self, request: DecisionRequest) -> int:
        """The index, into request.legal, of the chosen action."""
        ...


class SeatFault(Exception):
    """A seat could not give a usable answer; the referee turns it into a typed fault."""

    kind: Termination = Termination.CRASH


class SeatTimeout(SeatFault):
    """The seat did not answer before its deadline (raised by seats that enforce it themselves)."""

    kind = Termination.TIMEOUT


class SeatDisconnected(SeatFault):
    """The bot behind the seat went away."""

    kind = Termination.DISCONNECTION
