"""The spec's golden scenarios N1-N13 (shared/rules/ninja-versus-ninja.md §10)."""

from __future__ import annotations

from tourney.engine.core import Inject
from tourney.engine.games.ninja_versus_ninja import GAME
from tourney.engine.games.ninja_versus_ninja.rules import dice_stream

from .helpers import find, keys, play, pos


def test_n1_opening_mission_start() -> None:
    state = GAME.new_state(1, config={"first_player": 0}, inject=Inject(dice=[2, 2]))
    assert state.to_move == 0 and state.roll == (2, 2)
    move = find(state, "b1", ["b2", "b3", "b4", "b5"])
    assert move is not None and move.label == "b1→b5"
    play(state, "b1", ["b2", "b3", "b4", "b5"])
    assert state.mission(0) == {"square": "b5", "turns_used": 1, "reversal_used": False, "depth": 0}
    assert state.shadow[0] == 0 and state.score == [0, 0]
    assert state.to_move == 1


def test_n2_turn_one_dash() -> None:
    state = pos(["b4", "a1", "c1", "d1"], ["a11", "b11"], dice=(4, 4))
    path = ["b5", "b6", "b7", "b8", "b7", "b6", "b5", "b4"]
    move = find(state, "b4", path)
    assert move is not None and move.uses_reversal and move.depth == 1
    assert move.label == "b4⤴b8→b4 (+1)"
    # The straight run north would end on b12, off the board: no move from b4 goes only north.
    assert all(not all(q[0] == "b" for q in m.path) or m.uses_reversal for m in state.legal_moves() if m.frm == "b4")
    play(state, "b4", path)
    assert state.score[0] == 1 and state.shadow[0] == 0 and state.mission(0) is None


def test_n3_reversal_needs_the_turning_square_in_the_enemy_dojo() -> None:
    missions = {0: {"square": "b5", "turns_used": 1, "reversal_used": False, "depth": 0}}
    state = pos(["b5", "a1"], dice=(2, 2), missions=missions, inject=[1, 1, 1, 2])
    # REV a=2 would turn on b7 (neutral) and end on b5 at depth 0: not offered.
    assert ("b5", "b5", True, 0) not in keys(state)
    assert ("b5", "b7", True, 1) in keys(state)
    play(state, "b5", ["b6", "b7", "b8", "b7"])
    assert state.mission(0) == {"square": "b7", "turns_used": 2, "reversal_used": True, "depth": 1}
    # Red (dice 1,1) moves; then Black (1,2) may not reverse again in this mission.
    state.apply({1: state.legal_moves()[0]})
    assert state.to_move == 0 and state.roll == (1, 2)
    assert state.legal_moves() and not any(m.uses_reversal for m in state.legal_moves())


def test_n4_safe_return_scores_depth() -> None:
    missions = {0: {"square": "c8", "turns_used": 1, "depth": 3}}
    state = pos(["c8", "a1"], dice=(2, 3), missions=missions)
    play(state, "c8", ["c7", "c6", "c5", "c4", "c3"])
    assert state.score[0] == 3 and state.shadow[0] == 0 and state.mission(0) is None


def test_n5_capture() -> None:
    missions = {0: {"square": "a5", "turns_used": 1}}
    state = pos(["a5", "b1"], ["a8", "d11"], dice=(1, 2), missions=missions)
    play(state, "a5", ["a6", "a7", "a8"])
    assert state.public_view()["ninjas"] == [["a8", "b1"], ["d11"]]
    assert state.mission(0) == {"square": "a8", "turns_used": 2, "reversal_used": False, "depth": 1}
    assert state.shadow[0] == 1 and state.score == [0, 0]


def test_n6_capturing_the_opponents_mission_ninja() -> None:
    red_mission = {1: {"square": "b6", "turns_used": 1, "depth": 2}}
    state = pos(["b4", "a1"], ["b6", "d11"], dice=(1, 1), missions=red_mission)
    assert state.shadow[1] == 2
    play(state, "b4", ["b5", "b6"])
    assert state.public_view()["ninjas"][1] == ["d11"]
    assert state.mission(1) is None and state.shadow[1] == 0
    assert state.mission(0) == {"square": "b6", "turns_used": 1, "reversal_used": False, "depth": 0}
    # With a Black mission already out, the same capture would start a second mission: illegal.
    both = {**red_mission, 0: {"square": "d6", "turns_used": 1}}
    busy = pos(["b4", "d6"], ["b6", "d11"], dice=(1, 1), missions=both)
    assert find(busy, "b4", ["b5", "b6"]) is None


def test_n7_mission_clock_expiry() -> None:
    missions = {0: {"square": "c9", "turns_used": 2, "depth": 2}}
    state = pos(["c9", "a1", "b1"], dice=(1, 1), missions=missions, score=(1, 0))
    play(state, "a1", ["a2", "a3"])
    assert state.public_view()["ninjas"][0] == ["a3", "b1"]
    assert state.mission(0) is None and state.shadow[0] == 0 and state.score == [1, 0]
    assert state.to_move == 1 and not state.is_over()
    assert "mission Ninja lost to the clock" in state.log()[-1][3]


def test_n7b_a_home_move_does_not_score_the_mission() -> None:
    missions = {0: {"square": "c9", "turns_used": 1, "depth": 2}}
    state = pos(["c9", "a1", "b1"], dice=(1, 1), missions=missions)
    play(state, "a1", ["a2", "a3"])
    assert state.score[0] == 0
    assert state.mission(0) == {"square": "c9", "turns_used": 2, "reversal_used": False, "depth": 2}
    assert state.shadow[0] == 2


def test_n8_one_mission_at_a_time() -> None:
    missions = {0: {"square": "a6", "turns_used": 1}}
    state = pos(["a6", "d4"], dice=(1, 1), missions=missions)
    assert find(state, "d4", ["d5", "d6"]) is None
    assert find(state, "d4", ["d3", "d2"]) is not None
    # Every move of the home Ninja stays home.
    assert all(int(m.to[1:]) <= 4 for m in state.legal_moves() if m.frm == "d4")


def test_n9_blocked_path() -> None:
    state = GAME.new_state(3, config={"first_player": 0}, inject=Inject(dice=[1, 1]))
    assert not any(m.frm == "a1" and m.to == "a3" for m in state.legal_moves())
    assert find(state, "b1", ["b2", "b3"]) is not None
    move = find(state, "b1", ["b2", "c2"])
    assert move is not None and move.label == "b1→b2→c2"
    assert find(state, "a2", ["a3", "a4"]) is not None


def test_n10_win_at_seven() -> None:
    missions = {0: {"square": "c8", "turns_used": 1, "depth": 2}}
    state = pos(["c8", "a1"], dice=(2, 2), missions=missions, score=(6, 0))
    play(state, "c8", ["c7", "c6", "c5", "c4"])
    assert state.score[0] == 8 and state.is_over()
    outcome = state.outcome()
    assert outcome.ranking == ((0,), (1,)) and outcome.reason == "points" and outcome.scores == (8.0, 0.0)
    assert state.to_act() == [] and state.legal_actions(0) == []


def test_n11_win_by_elimination() -> None:
    red_mission = {1: {"square": "c4", "turns_used": 1, "depth": 1}}
    state = pos(["c1", "a1"], ["c4"], dice=(1, 2), missions=red_mission)
    play(state, "c1", ["c2", "c3", "c4"])
    assert state.is_over()
    assert state.outcome().ranking == ((0,), (1,)) and state.outcome().reason == "elimination"


def test_n12_pass_advances_the_clock() -> None:
    # Black's only Ninja, on a mission in Red's corner, is boxed in: every 2-step path is blocked.
    missions = {0: {"square": "a11", "turns_used": 1, "depth": 4}}
    state = pos(["a11"], ["a10", "b11", "d11"], dice=(1, 1), missions=missions, inject=[1, 2])
    assert state.to_move == 1 and state.roll == (1, 2)  # Black passed; Red has rolled
    assert state.mission(0) == {"square": "a11", "turns_used": 2, "reversal_used": False, "depth": 4}
    assert state.log()[-1] == (0, (1, 1), "pass", "")
    # On its third turn the pass expires the mission: Black has no Ninja left and loses.
    late = {0: {"square": "a11", "turns_used": 2, "depth": 4}}
    lost = pos(["a11"], ["a10", "b11", "d11"], dice=(1, 1), missions=late)
    assert lost.is_over() and lost.outcome().ranking == ((1,), (0,))
    assert lost.outcome().reason == "elimination"


def test_n13_roll_off() -> None:
    assert GAME.new_state(0, inject=Inject(dice=[3, 2, 4, 4])).first_player == 1
    # (2,2) against (1,3) ties and is rerolled: then 4+1 beats 1+1.
    state = GAME.new_state(0, inject=Inject(dice=[2, 2, 1, 3, 4, 1, 1, 1]))
    assert state.first_player == 0 and state.to_move == 0
    # A hundred ties in a row: seat 0 starts without rolling again.
    stuck = GAME.new_state(0, inject=Inject(dice=[1] * 400 + [1, 1, 4, 4]))
    assert stuck.first_player == 0
    assert stuck.chance.inject is not None and stuck.chance.inject.dice == [4, 4]  # 1,1 was the first roll


def test_roll_off_draws_from_the_seats_dice_streams() -> None:
    firsts = set()
    for seed in range(40):
        state = GAME.new_state(seed)
        assert set(state.chance._state) == {dice_stream(0), dice_stream(1)}
        firsts.add(state.first_player)
    assert firsts == {0, 1}
