"""Random play that stops at every decision, for tests that check each decision of a game."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from tourney.engine.core import Action, State, get_game


def decisions(game_id: str, players: int | None, config: Mapping[str, Any] | None,
              seeds: int) -> Iterator[tuple[State, int, Sequence[Action]]]:
    """(state, seat, legal) for every decision of `seeds` random matches; the choices are random."""
    game = get_game(game_id)
    for seed in range(seeds):
        state = game.new_state(seed, players=players, config=config)
        rng = random.Random(seed)
        while not state.is_over():
            joint = {}
            for seat in state.to_act():
                legal = state.legal_actions(seat)
                yield state, seat, legal
                joint[seat] = legal[rng.randrange(len(legal))]
            state.apply(joint)
