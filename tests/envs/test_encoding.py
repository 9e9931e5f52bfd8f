"""Each game's declared encoding over random play: a fixed tensor size, values in [0, 1], and distinct
fixed indices inside the action space (two legal actions sharing an index would lose one from the mask)."""

from __future__ import annotations

import pytest

from tourney.engine.core import get_game
from tourney.engine.games.ninja_arena.actions import Activate
from tourney.engine.games.ninja_arena.tensor import ENCODING

from .playouts import decisions

CASES = [("tiny-ninjas", None, {"mode": m}) for m in ("standard", "blitz", "survivor", "champion", "solo")] + [
    ("ninja-versus-ninja", None, None),
    ("maitre-ninja", 4, None),
    ("ninja-arena", 6, {"genin_pack": True}),
    ("ninja-arena", 2, {"mode": "duel"}),
]


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("game_id", "players", "config"), CASES, ids=[f"{g}-{c}" for g, _, c in CASES])
def test_tensors_and_action_indices_keep_their_declared_shape(game_id, players, config):
    encoding = get_game(game_id).encoding()
    for state, seat, legal in decisions(game_id, players, config, seeds=4):
        indices = encoding.action_indices(legal)
        assert len(set(indices)) == len(legal)
        assert all(0 <= i < encoding.action_count for i in indices)
        tensor = encoding.encode(state.observe(seat))
        assert len(tensor) == encoding.size and all(0.0 <= x <= 1.0 for x in tensor)


def test_the_arena_index_tells_apart_splits_of_the_same_dice():
    """Two activations of one technique with the same dice (different targets) get different indices."""
    a = Activate("T2", (1, 2, 3), allocation=((1, 6),))
    b = Activate("T2", (1, 2, 3), allocation=((1, 3), (2, 3)))
    first, second = ENCODING.action_indices([a, b])
    assert first != second
    assert ENCODING.action_indices([b, a]) == [first, second]  # the variant is the place among its kind
