"""Coin: a stand-in game for the ladder benchmark (bench/hosted.py), as cheap as a match can be.

Two seats each name a number 0-9 at once; seat a wins with probability (1 + a) / (2 + a + b),
drawn from the match's seeded chance, so a bot that names a higher number is stronger and a
ladder's ratings have something true to find. Its bot `level:n=K` always names K.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tourney.engine.core import Action, Chance, Game, Inject, Observation, Outcome, State, register

NUMBERS = 10


@dataclass(frozen=True, slots=True)
class Name(Action):
    n: int

    @property
    def label(self) -> str:
        return str(self.n)


CHOICES = tuple(Name(n) for n in range(NUMBERS))


class CoinState(State):
    def __init__(self, game: Game, chance: Chance) -> None:
        self.game = game
        self.num_players = 2
        self.chance = chance
        self.named: tuple[int, int] | None = None
        self.winner = 0

    def to_act(self) -> Sequence[int]:
        return [] if self.named is not None else [0, 1]

    def legal_actions(self, seat: int) -> Sequence[Action]:
        return CHOICES

    def apply(self, actions: Mapping[int, Action]) -> None:
        a, b = actions[0], actions[1]
        assert isinstance(a, Name) and isinstance(b, Name)
        self.named = (a.n, b.n)
        self.winner = 0 if self.chance.roll("coin", (2 + a.n + b.n) * 1000) <= (1 + a.n) * 1000 else 1

    def observe(self, seat: int) -> Observation:
        return {"named": list(self.named) if self.named else None}

    def public_view(self) -> Observation:
        return self.observe(0)

    def is_over(self) -> bool:
        return self.named is not None

    def outcome(self) -> Outcome:
        return Outcome(((self.winner,), (1 - self.winner,)), (float(self.winner == 0), float(self.winner == 1)), "coin")

    def clone(self) -> CoinState:
        twin = CoinState(self.game, self.chance.clone())
        twin.named, twin.winner = self.named, self.winner
        return twin

    def determinize(self, seat: int, rng: random.Random) -> CoinState:
        return self.clone()


class Level:
    """Always names the same number."""

    def __init__(self, n: int) -> None:
        self.n = max(0, min(NUMBERS - 1, n))

    def act(self, request: Any) -> int:
        return self.n


def level(seed: int, n: int = 5) -> Level:
    return Level(n)


class Coin(Game):
    id = "coin"
    name = "Coin (benchmark stand-in)"
    min_players = 2
    max_players = 2

    def new_state(self, seed: int, players: int | None = None, config: Mapping[str, Any] | None = None,
                  inject: Inject | None = None) -> CoinState:
        return CoinState(self, Chance(seed, inject))

    def bots(self) -> Mapping[str, Callable[..., Any]]:
        return {"level": level}


GAME = Coin()
register(GAME)
