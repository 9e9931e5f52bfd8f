"""A fight recognises the legal list's own objects by identity (no dataclass hash or __eq__ on the
common path), and that shortcut accepts and refuses exactly what equality does: an equal copy of a
legal line or parry plays the same match, and a known line of another rank is refused."""

from __future__ import annotations

import random

import pytest

from tourney.engine.core import IllegalAction
from tourney.engine.games.maitre_ninja import GAME, AttackLine, Parry
from tourney.engine.games.maitre_ninja.rules import LINES_BY_RANK


def copy_of(action: object) -> object:
    """An equal action that is not the same object."""
    if isinstance(action, AttackLine):
        return AttackLine(tuple(action.cards), tuple(action.ka_order))
    assert isinstance(action, Parry)
    return Parry(action.parry)


@pytest.mark.parametrize("players", [2, 4])
def test_equal_copies_play_the_same_match_as_the_listed_objects(players: int) -> None:
    for seed in range(6):
        listed = GAME.new_state(seed, players=players)
        copied = GAME.new_state(seed, players=players)
        rng = random.Random(seed)
        while not listed.is_over():
            joint = {s: rng.choice(list(listed.legal_actions(s))) for s in listed.to_act()}
            listed.apply(joint)
            copied.apply({s: copy_of(a) for s, a in joint.items()})
            assert copied.observe(0) == listed.observe(0)
        assert copied.outcome() == listed.outcome()


def test_a_known_line_of_another_rank_is_refused() -> None:
    state = GAME.new_state(0, players=2, config={"first_player": 0})
    defender_parry = state.legal_actions(1)[0]
    for rank in (2, 3, 4):
        with pytest.raises(IllegalAction, match="not a rank-1 attack line"):
            state.apply({0: LINES_BY_RANK[rank][0], 1: defender_parry})
    state.apply({0: LINES_BY_RANK[1][0], 1: defender_parry})  # its own rank's line is taken


def test_a_parry_not_offered_is_refused_though_equal_ones_exist() -> None:
    supply = {"DO": 1, "BL": 6, "JU": 6}  # 13 parries: enough for the longest row
    state = GAME.new_state(0, players=2, config={"first_player": 0, "parry_supply": supply})
    state.apply({0: LINES_BY_RANK[1][0], 1: Parry("DO")})  # the only DO of the supply
    assert Parry("DO") not in state.legal_actions(1)
    with pytest.raises(IllegalAction):
        state.apply({1: Parry("DO")})
