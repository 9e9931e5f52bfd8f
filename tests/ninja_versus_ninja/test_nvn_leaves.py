"""leaves.move_values scores each move's result exactly as playing it and calling evaluate does."""

from __future__ import annotations

import random

from tourney.engine.core import get_game
from tourney.engine.games.ninja_versus_ninja import rules
from tourney.engine.games.ninja_versus_ninja.evaluate import evaluate
from tourney.engine.games.ninja_versus_ninja.leaves import move_values
from tourney.engine.games.ninja_versus_ninja.state import NvnState

GAME = get_game("ninja-versus-ninja")


def _played_values(state: NvnState, seat: int) -> list[float]:
    out = []
    for group, move in zip(state.legal_groups(), state.legal_moves(), strict=True):
        child = state.clone()
        rules.play(child, group, move)
        out.append(evaluate(child, seat))
    return out


def test_leaf_values_equal_play_then_evaluate_over_random_games() -> None:
    rng = random.Random(7)
    checked = finished = 0
    # Short targets and caps so wins by points, eliminations and the cap all occur at the leaves.
    for k, config in enumerate([{}, {"target_score": 2}, {"turn_cap": 12}, {"target_score": 3, "turn_cap": 30}] * 15):
        state = GAME.new_state(k, config=config)
        assert isinstance(state, NvnState)
        while not state.is_over():
            if state.legal_moves():
                for seat in (0, 1):
                    expected = _played_values(state, seat)
                    assert move_values(state, seat) == expected
                    finished += sum(abs(v) == 1.0 for v in expected)
                    checked += len(expected)
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            state.apply_one(seat, legal[rng.randrange(len(legal))])
    assert checked > 10_000 and finished > 0
