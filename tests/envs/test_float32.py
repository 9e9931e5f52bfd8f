"""The training environments' float32 observation (`envs.float32.float32_array`) is numpy's own cast of
the tensor, bit for bit, writable and the caller's own: over every game's tensors along random play, and
over hypothesis-drawn numbers that round, underflow to subnormals or sit at float32's edges."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.engine.core import get_game
from tourney.envs.float32 import float32_array

from .playouts import decisions

CASES = [("tiny-ninjas", None, {"mode": "champion"}), ("tiny-ninjas", None, {"mode": "solo"}),
         ("ninja-versus-ninja", None, None), ("maitre-ninja", 4, None), ("ninja-arena", 3, None)]


def _same(numbers: list[float]) -> None:
    made = float32_array(numbers)
    expected = np.asarray(numbers, np.float32)
    assert made.dtype == np.float32 and made.shape == expected.shape
    assert made.tobytes() == expected.tobytes()  # bit for bit: -0.0 and every rounding alike
    assert made.flags.writeable
    made[...] = 7.0  # the caller's own: a later call is untouched
    assert float32_array(numbers).tobytes() == expected.tobytes()


@pytest.mark.parametrize(("game_id", "players", "config"), CASES, ids=[f"{g}-{c}" for g, _, c in CASES])
def test_a_games_tensors_cast_as_numpy_casts_them(game_id, players, config):
    encoding = get_game(game_id).encoding()
    seen = 0
    for state, seat, _ in decisions(game_id, players, config, seeds=2):
        _same(encoding.encode_state(state, seat))
        _same(encoding.encode(state.observe(seat)))
        seen += 1
    assert seen > 20


@given(st.lists(st.floats(min_value=-3.4e38, max_value=3.4e38, allow_nan=False) | st.integers(-2**24, 2**24)
                | st.sampled_from([0.1, 1 / 3, 2 / 3, 1e-40, -0.0, 1.0 - 2**-30]), max_size=300))
def test_any_numbers_cast_as_numpy_casts_them(numbers):
    _same(numbers)
