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


def test_two_worlds_that_differ_only_in_future_dice_give_the_same_tensor() -> None:
    # What a seat must not know in Ninja Arena is chance still to come (each seat's dice stream):
    # two worlds reseeded apart hold the same table, so their tensors must not differ, while the
    # worlds themselves do (their next rolls differ).
    encoding = GAME.encoding()
    rng = random.Random(7)
    state = GAME.new_state(11, players=4)
    for _ in range(30):
        state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
    assert not state.is_over()
    one, two = state.determinize(0, random.Random(1)), state.determinize(0, random.Random(2))
    for seat in range(state.n):
        mine = encoding.encode_state(state, seat)
        assert encoding.encode_state(one, seat) == encoding.encode_state(two, seat) == mine
    roll_all = {s: next(a for a in one.legal_actions(s) if a.label == "roll 01234") for s in one.to_act()}
    one.apply(roll_all)
    two.apply(roll_all)
    assert one.public_view()["players"] != two.public_view()["players"]
