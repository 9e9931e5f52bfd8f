"""Move generation: each path shape, blocked paths, the reversal rules, dedup and order (§3.3, §4)."""

from __future__ import annotations

import random

import pytest

from tourney.engine.core import IllegalAction
from tourney.engine.games.ninja_versus_ninja import GAME, Move
from tourney.engine.games.ninja_versus_ninja.data import square_index

from .helpers import find, keys, play, pos, reference_moves


def _mission(square: str, **extra: object) -> dict[int, dict[str, object]]:
    return {0: {"square": square, "turns_used": 1, **extra}}


def test_straight_moves_in_every_direction() -> None:
    state = pos(["b6", "a1"], dice=(1, 1), missions=_mission("b6"))
    for path in (["b7", "b8"], ["b5", "b4"]):
        assert find(state, "b6", path) is not None
    # Sideways: b6 -> d6 east; two steps west would leave the board after a6.
    assert find(state, "b6", ["c6", "d6"]) is not None
    assert not any(m.frm == "b6" and m.path[0] == "a6" and m.to[1:] == "6" for m in state.legal_moves())
    assert ("b6", "b8", False, 1) in keys(state)


def test_l_moves_have_exactly_one_turn() -> None:
    state = pos(["b6", "a1"], dice=(2, 1), missions=_mission("b6"))
    # b6 -> c8: north twice then east once, or east then north twice; "NNE" < "ENN" is canonical.
    move = find(state, "b6", ["b7", "b8", "c8"])
    assert move is not None and move.label == "b6→b8→c8 (+1)"
    assert find(state, "b6", ["c6", "c7", "c8"]) is None  # same key: only the canonical path is listed
    # Two turns (b6 -> b7 -> c7 -> c8) are never a path: c8 is only reachable as above.
    assert sum(1 for m in state.legal_moves() if m.frm == "b6" and m.to == "c8") == 1


def test_rev_s_and_s_rev_share_a_key_and_the_smaller_direction_string_wins() -> None:
    # a6 -> b7 with n=4: REV-S a7,a8,a7,b7 ("NNSE") and S-REV b6,b7,b8,b7 ("ENNS"); N < E.
    state = pos(["a6", "c1"], dice=(2, 2), missions=_mission("a6"))
    move = find(state, "a6", ["a7", "a8", "a7", "b7"])
    assert move is not None and move.uses_reversal and move.label == "a6⤴a8→a7→b7 (+1)"
    # Block a7 with Red's mission Ninja: only the S-REV path is clear and it becomes canonical.
    red = {1: {"square": "a7", "turns_used": 1}}
    blocked = pos(["a6", "c1"], ["a7", "d11"], dice=(2, 2), missions={**_mission("a6"), **red})
    move = find(blocked, "a6", ["b6", "b7", "b8", "b7"])
    assert move is not None and move.label == "a6→b6⤴b8→b7 (+1)"


def test_rev_s_turn_after_the_back_leg() -> None:
    state = pos(["c7", "a1"], dice=(1, 2), missions=_mission("c7"))
    # c7 -> c8 (turn) -> c7 -> b7: "NSW" beats the S-REV "WNS".
    move = find(state, "c7", ["c8", "c7", "b7"])
    assert move is not None and move.uses_reversal and move.depth == 1


def test_a_reversal_may_pass_back_over_its_start_square() -> None:
    state = pos(["b7", "a1"], dice=(1, 2), missions=_mission("b7"))
    move = find(state, "b7", ["b8", "b7", "b6"])
    assert move is not None and move.label == "b7⤴b8→b6 (+1)"


def test_no_reversal_turning_outside_the_enemy_dojo() -> None:
    # From the start nothing reaches row 8 and back in 5 steps: no reversal at all.
    state = pos(["a1", "b1", "c1", "d1", "a2", "d2"], ["a11", "b11"], dice=(2, 3))
    assert state.legal_moves() and not any(m.uses_reversal for m in state.legal_moves())
    # A mission Ninja in the neutral zone: every offered reversal turns on row 8 or beyond.
    state = pos(["b5", "a1"], dice=(4, 4), missions=_mission("b5"))
    for m in state.legal_moves():
        if m.uses_reversal:
            turn = next(i for i in range(len(m.path) - 1) if int(m.path[i + 1][1:]) < int(m.path[i][1:]))
            assert int(m.path[turn][1:]) >= 8, m.label


def test_one_reversal_per_mission() -> None:
    state = pos(["b7", "a1"], dice=(2, 2), missions=_mission("b7", reversal_used=True))
    assert state.legal_moves() and not any(m.uses_reversal for m in state.legal_moves())


def test_home_ninjas_may_not_reverse_while_a_mission_is_out() -> None:
    state = pos(["b4", "d6"], dice=(4, 4), missions=_mission("d6"))
    assert not any(m.frm == "b4" and m.uses_reversal for m in state.legal_moves())
    free = pos(["b4", "d1"], dice=(4, 4))
    assert any(m.frm == "b4" and m.uses_reversal for m in free.legal_moves())


def test_red_dash_mirrors_black() -> None:
    state = pos(["a1", "d1"], ["c8", "a11"], to_move=1, dice=(4, 4))
    path = ["c7", "c6", "c5", "c4", "c5", "c6", "c7", "c8"]
    move = find(state, "c8", path)
    assert move is not None and move.label == "c8⤴c4→c8 (+1)"
    play(state, "c8", path)
    assert state.score == [0, 1] and state.mission(1) is None


def test_blocked_paths_and_destinations() -> None:
    # Own Ninja on the destination: not a move. Enemy on an intermediate square: blocked.
    red = {1: {"square": "b6", "turns_used": 1}}
    state = pos(["b4", "b2", "a1"], ["b6", "d11"], dice=(1, 1), missions=red)
    assert find(state, "b4", ["b3", "b2"]) is None
    assert find(state, "b4", ["b5", "b6"]) is not None  # capture on the destination
    state = pos(["b4", "a1"], ["b6", "d11"], dice=(2, 1), missions=red)
    assert find(state, "b4", ["b5", "b6", "b7"]) is None


def test_legal_list_is_deduplicated_and_sorted() -> None:
    state = GAME.new_state(11, config={"first_player": 0})
    rng = random.Random(4)
    for _ in range(60):
        if state.is_over():
            break
        moves = state.legal_moves()
        ks = [(square_index(m.frm), square_index(m.to), m.uses_reversal, m.depth) for m in moves]
        assert len(set(ks)) == len(ks) and ks == sorted(ks)
        state.apply_index(rng.randrange(len(moves)))


def test_generator_matches_a_naive_reading_of_the_spec() -> None:
    """On positions from random games, the engine lists exactly what the §4.2 pseudo-code yields."""
    checked = 0
    for seed in range(25):
        state = GAME.new_state(seed)
        rng = random.Random(seed)
        while not state.is_over():
            expected = reference_moves(state)
            got = {(m.frm, m.to, m.uses_reversal, m.depth): m.path for m in state.legal_moves()}
            assert got == expected, GAME.render(state)
            checked += 1
            state.apply_index(rng.randrange(len(state.legal_moves())))
    assert checked > 500


def test_any_clear_path_with_the_same_key_is_accepted() -> None:
    state = pos(["a6", "c1"], dice=(2, 2), missions=_mission("a6"))
    other = Move("a6", ("b6", "b7", "b8", "b7"), True, 1)  # the S-REV path, not the canonical one
    twin = state.clone()
    state.apply({0: other})
    play(twin, "a6", ["a7", "a8", "a7", "b7"])
    assert state.public_view() == twin.public_view()  # the canonical move was played and logged


def test_illegal_actions_are_rejected() -> None:
    state = pos(["a6", "c1"], dice=(2, 2), missions=_mission("a6"))
    with pytest.raises(IllegalAction):
        state.apply({0: Move("a6", ("a7", "a8", "a9", "a10", "a11"), False, 4)})  # 5 steps, n=4
    with pytest.raises(IllegalAction):
        state.apply({1: state.legal_moves()[0]})  # not Red's turn
    red = {1: {"square": "a7", "turns_used": 1}}
    blocked = pos(["a6", "c1"], ["a7", "d11"], dice=(2, 2), missions={**_mission("a6"), **red})
    with pytest.raises(IllegalAction):  # right key, but this path runs through Red's Ninja
        blocked.apply({0: Move("a6", ("a7", "a8", "a7", "b7"), True, 1)})
