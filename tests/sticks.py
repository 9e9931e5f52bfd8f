"""A tiny game for testing the layers above the engines without depending on a real game.

Sticks: a pile of sticks; seats take 1-3 in turn; whoever takes the last stick wins. Each
seat also holds a secret number (hidden information) and rolls a die each turn from its own
stream, so determinism, hidden information and duplicate seeding can all be checked.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tourney.engine.core import Action, Chance, ConfigError, Game, Inject, Observation, Outcome, State, register


@dataclass(frozen=True, slots=True)
class Take(Action):
    n: int

    @property
    def label(self) -> str:
        return f"take {self.n}"


TAKES = (Take(1), Take(2), Take(3))


class SticksState(State):
    def __init__(self, game: Game, chance: Chance, pile: int, players: int) -> None:
        self.game = game
        self.num_players = players
        self.chance = chance
        self.pile = pile
        self.turn = 0
        self.secrets = [chance.roll(f"secret/{s}", 100) for s in range(players)]
        self.rolls: list[list[int]] = [[] for _ in range(players)]
        self.winner: int | None = None

    def to_act(self) -> Sequence[int]:
        return [] if self.winner is not None else [self.turn]

    def legal_actions(self, seat: int) -> Sequence[Action]:
        return TAKES[: min(3, self.pile)]

    def apply(self, actions: Mapping[int, Action]) -> None:
        action = actions[self.turn]
        assert isinstance(action, Take)
        self.rolls[self.turn].append(self.chance.roll(f"dice/{self.turn}", 6))
        self.pile -= action.n
        if self.pile == 0:
            self.winner = self.turn
        self.turn = (self.turn + 1) % self.num_players

    def observe(self, seat: int) -> Observation:
        return {"pile": self.pile, "secret": self.secrets[seat], "rolls": [list(r) for r in self.rolls]}

    def public_view(self) -> Observation:
        return {"pile": self.pile, "rolls": [list(r) for r in self.rolls]}

    def is_over(self) -> bool:
        return self.winner is not None

    def outcome(self) -> Outcome:
        assert self.winner is not None
        rest = tuple(s for s in range(self.num_players) if s != self.winner)
        return Outcome(((self.winner,), rest), tuple(float(s == self.winner) for s in range(self.num_players)),
                       "last_stick")

    def clone(self) -> SticksState:
        twin = SticksState.__new__(SticksState)
        twin.__dict__.update(self.__dict__)
        twin.chance = self.chance.clone()
        twin.secrets = list(self.secrets)
        twin.rolls = [list(r) for r in self.rolls]
        return twin

    def determinize(self, seat: int, rng: random.Random) -> SticksState:
        twin = self.clone()
        twin.chance.reseed(rng.getrandbits(63))
        twin.secrets = [v if s == seat else rng.randint(1, 100) for s, v in enumerate(self.secrets)]
        return twin


class Sticks(Game):
    id = "sticks"
    name = "Sticks (test game)"
    min_players = 2
    max_players = 3
    hidden_information = True  # each seat's secret number and its own dice stream

    def new_state(self, seed: int, players: int | None = None, config: Mapping[str, Any] | None = None,
                  inject: Inject | None = None) -> SticksState:
        n = players or 2
        if not self.min_players <= n <= self.max_players:
            raise ConfigError(f"sticks is for 2 or 3 players, not {n}: pass --players 2 or 3.")
        return SticksState(self, Chance(seed, inject), int((config or {}).get("pile", 10)), n)

    def evaluate(self, state: State, seat: int) -> float:
        assert isinstance(state, SticksState)
        if state.is_over():
            return super().evaluate(state, seat)
        # Leaving a multiple of 4 to the opponent wins in two-player Sticks.
        return 0.8 if state.pile % 4 == 0 and state.turn != seat else -0.2


GAME = Sticks()
register(GAME)


def private_sticks(game_id: str) -> Sticks:
    """Sticks registered under another id, for a test that reads the process-wide metrics by game:
    no other test (nor a match another test left running in this worker) plays that id, so its
    counters move only with this test's own matches."""
    game = type("PrivateSticks", (Sticks,), {"id": game_id, "name": f"Sticks ({game_id})", "__module__": __name__})()
    register(game)
    return game
