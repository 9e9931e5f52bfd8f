"""A game's fixed-size view of one seat, for training environments (like OpenSpiel's observation tensor).

Each game declares one `Encoding` (its `tensor.py`, returned by `Game.encoding()`):
- `encode(view)` turns the seat's JSON view (`State.observe(seat)`) into `size` numbers in [0, 1].
  It reads only that view, so the tensor can hold nothing the seat may not know.
- `encode_state(state, seat)` is the same tensor, equal number for number, built straight from the
  state where a game declares a faster way (the training environments call it, so a trainer pays
  for no JSON view it does not read); by default it is `encode(state.observe(seat))`. A game's
  own version reads only what that seat's view holds (tests/security's two-worlds tests check it).
- `action_indices(legal)` maps a legal list to indices in a fixed space of `action_count`
  actions, so a policy's output unit means the same action in every position.
Both are fixed per game: the largest table and every mode share one shape.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from tourney.engine.core.game import Action, Observation, State


class Encoding(ABC):
    """A game's observation tensor and fixed action space (see the module docstring)."""

    size: ClassVar[int]  # numbers in every tensor
    action_count: ClassVar[int]  # indices in the fixed action space

    @abstractmethod
    def encode(self, view: Observation) -> list[float]:
        """`size` numbers in [0, 1] describing `view`, a seat's observation."""

    def encode_state(self, state: State, seat: int) -> list[float]:
        """`encode(state.observe(seat))`; a game may build the same numbers from the state directly."""
        return self.encode(state.observe(seat))

    @abstractmethod
    def action_indices(self, legal: Sequence[Action]) -> list[int]:
        """The fixed index of each legal action, in legal order (distinct, each below `action_count`)."""


def clipped(value: float, top: float) -> float:
    """`value / top`, clipped to [0, 1]: how every tensor scales a number."""
    return min(1.0, max(0.0, value / top))


def scaled(value: Any, top: float) -> float:
    """`clipped(value, top)` for a number; None or a non-number counts as 0."""
    return clipped(float(value), top) if isinstance(value, (int, float)) else 0.0


class Features:
    """A tensor built field by field, every number clipped to [0, 1].

    Plain loops rather than generator expressions: this module is compiled, and a loop appending to
    the list costs a fraction of a generator's frames."""

    def __init__(self) -> None:
        self.values: list[float] = []

    def scaled(self, value: Any, top: float) -> None:
        """`value / top`, clipped; None or a non-number counts as 0."""
        self.values.append(scaled(value, top))

    def flag(self, value: Any) -> None:
        """1 when `value` is truthy, else 0."""
        self.values.append(1.0 if value else 0.0)

    def one_hot(self, value: Any, choices: Sequence[Any]) -> None:
        """One slot per choice, 1 at `value`'s (all 0 when it is none of them)."""
        values = self.values
        for c in choices:
            values.append(1.0 if value == c else 0.0)

    def counts(self, items: Iterable[Any], choices: Sequence[Any], top: float) -> None:
        """How often each choice occurs in `items`, scaled by `top`."""
        tally = dict.fromkeys(choices, 0)
        for item in items:
            if item in tally:
                tally[item] += 1
        # The hot loop of most tensors (a count per card type or square): counts are never negative.
        values = self.values
        for n in tally.values():
            values.append(min(1.0, n / top))

    def done(self, size: int) -> list[float]:
        """The finished tensor; raises if the game's declared size and its features disagree."""
        if len(self.values) != size:
            raise ValueError(f"the encoding built {len(self.values)} numbers, but declares {size}")
        return self.values
