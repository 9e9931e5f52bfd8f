"""Each game's tensor from the state (`Encoding.encode_state`, what the training environments use) is
the tensor of the seat's view (`encode(observe(seat))`), number for number, for every seat at every
decision of random playouts in every mode and player count, and in determinized worlds."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tourney.engine.core import get_game

SEEDS = 30  # about 2,000 to 10,000 comparisons a case
CASES: list[tuple[str, int, dict[str, Any]]] = [
    *[("tiny-ninjas", 2, {"mode": mode}) for mode in get_game("tiny-ninjas").modes],
    ("tiny-ninjas", 2, {"use_expansion": True, "mulligan": 2}),
    ("tiny-ninjas", 2, {"reveal_hand": [False, True], "max_health": [12, 10], "hand_limit": [6, 4]}),
    ("tiny-ninjas", 2, {"mode": "solo", "difficulty": "easy", "ai_health": 6}),
    *[("maitre-ninja", n, {}) for n in (2, 3, 4)],
    ("maitre-ninja", 4, {"fight_cap": 15, "elements": ["Feu", "Air", "Eau", "Terre"]}),
    ("maitre-ninja", 3, {"parry_supply": {"DO": 6, "BL": 5, "JU": 4}}),
    ("ninja-versus-ninja", 2, {}),
    ("ninja-versus-ninja", 2, {"target_score": 2, "turn_cap": 30}),
    ("ninja-arena", 2, {}),  # no tensor of its own from the state: the view's
]


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("game_id", "players", "config"), CASES,
                         ids=[f"{g}-{n}-{sorted(c.items())}" for g, n, c in CASES])
def test_the_tensor_from_the_state_is_the_tensor_of_the_view(game_id: str, players: int,
                                                              config: dict[str, Any]) -> None:
    game = get_game(game_id)
    encoding = game.encoding()
    assert encoding is not None
    compared = 0
    for seed in range(SEEDS):
        state = game.new_state(seed, players=players, config=config)
        rng = random.Random(seed)
        step = 0
        while True:
            worlds = [state]
            if step % 7 == 3:  # a world as one seat imagines it (search bots build these)
                worlds.append(state.determinize(step % players, random.Random(step)))
            for world in worlds:
                for seat in range(players):
                    expected = encoding.encode(world.observe(seat))
                    assert encoding.encode_state(world, seat) == expected, (seed, step, seat)
                    compared += 1
            if state.is_over():
                break
            state.apply({s: rng.choice(list(state.legal_actions(s))) for s in state.to_act()})
            step += 1
    assert compared > 20 * SEEDS  # not vacuous: every playout lasts a while
