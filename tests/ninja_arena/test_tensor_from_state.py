"""Ninja Arena's training tensor read straight from the state is the tensor of the seat's view,
number for number, on every seat of every position of many random playouts (all tables of
`digests.py`: 2 to 6 players, Duel, the Genin Pack), the end of each match included."""

from __future__ import annotations

import random

import pytest

from tests.ninja_arena.digests import TABLES
from tourney.engine.games.ninja_arena import GAME


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("name", "players", "config"), TABLES, ids=[t[0] for t in TABLES])
def test_the_tensor_from_the_state_is_the_tensor_of_the_view(name: str, players: int,
                                                             config: dict[str, object]) -> None:
    encoding = GAME.encoding()
    checked = 0
    for seed in range(25):
        rng = random.Random(seed)
        state = GAME.new_state(seed, players=players, config=dict(config))
        while True:
            for seat in range(state.n):
                assert encoding.encode_state(state, seat) == encoding.encode(state.observe(seat)), (seed, seat)
                checked += 1
            if state.is_over():
                break
            state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
    assert checked > 1000
