"""What a seat is given when it must decide, and what a seat is.

Bots see a DecisionRequest, never the state: its observation holds only what their seat
may know, and `determinize` draws a full state consistent with it for search bots.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from tourney.engine.core.game import Action, Game, Observation, State
from tourney.engine.core.termination import Termination


class DecisionRequest:
    """One decision for one seat.

    deadline_s is the time the seat may think, in seconds (None: no limit). A seat answers
    with an index into `legal`.

    The observation is built on first read when none is given: most built-in bots use only
    `legal` and `determinize`, and a view costs more than the decision of a random bot. Once
    the referee has every answer of a step it calls `seal`: the state moves on after that, so
    an observation nobody read by then can no longer be read (it would show a later state).
    """

    __slots__ = ("game", "seat", "legal", "deadline_s", "_state", "_observation", "_sealed")

    def __init__(self, game: Game, seat: int, observation: Observation | None, legal: Sequence[Action],
                 deadline_s: float | None, state: State) -> None:
        """observation None: built from `state` when first read."""
        self.game = game
        self.seat = seat
        self.legal = legal
        self.deadline_s = deadline_s
        self._state = state
        self._observation = observation
        self._sealed = False

    @property
    def observation(self) -> Observation:
        """What this seat may know now (built on first read)."""
        observation = self._observation
        if observation is None:
            self._check_open()
            observation = self._observation = self._state.observe(self.seat)
        return observation

    def observation_since(self, mark: int) -> tuple[Observation, int]:
        """The observation with only the events logged since `mark`, and the next mark
        (`State.observe_since`): for a bot that keeps the earlier events itself."""
        self._check_open()
        return self._state.observe_since(self.seat, mark)

    def _check_open(self) -> None:
        if self._sealed:
            raise RuntimeError(f"seat {self.seat} read its observation after the step was played: "
                               "read it while deciding (in act).")

    def seal(self) -> None:
        """The step is answered and the state is about to move: an unread observation stays unread."""
        self._sealed = True

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
