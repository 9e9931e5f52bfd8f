"""The move list after a move is built only when asked for, and is then the full legal list."""

from __future__ import annotations

import random

from tourney.engine.core import get_game
from tourney.engine.games.ninja_versus_ninja import rules
from tourney.engine.games.ninja_versus_ninja.state import NvnState

GAME = get_game("ninja-versus-ninja")


def test_moves_are_listed_on_demand_and_match_a_full_listing() -> None:
    state = GAME.new_state(seed=5)
    assert isinstance(state, NvnState)
    rng = random.Random(5)
    checked = 0
    while not state.is_over() and checked < 60:
        state.apply_index(rng.randrange(len(state.legal_moves())))
        if state.is_over():
            break
        assert state._moves is None  # nobody asked yet: a search that only evaluates pays nothing
        moves, groups = rules.list_moves(state, sum(state.roll))
        assert moves and state.legal_moves() == moves and state.legal_groups() == groups
        twin = state.clone()
        assert twin.legal_moves() is state.legal_moves()  # the clone shares the listed moves
        checked += 1
    assert checked >= 10
