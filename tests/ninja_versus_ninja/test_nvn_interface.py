"""Observations, determinize, configuration errors, rendering, bots and the referee."""

from __future__ import annotations

import json
import random

import pytest

from tourney.engine.bots import make_bot
from tourney.engine.core import ConfigError, DecisionRequest, get_game
from tourney.engine.games.ninja_versus_ninja import GAME, NvnState
from tourney.engine.games.ninja_versus_ninja.bots import ExpectimaxBot
from tourney.engine.referee import play_match

from .helpers import pos


def _midgame(seed: int = 8, turns: int = 9) -> NvnState:
    state = GAME.new_state(seed)
    rng = random.Random(seed)
    for _ in range(turns):
        state.apply_index(rng.randrange(len(state.legal_moves())))
    return state


def test_registered_under_its_id() -> None:
    assert get_game("ninja-versus-ninja") is GAME
    assert GAME.default_config() == {"target_score": 7, "first_player": "rolloff", "turn_cap": 300, "board": "4x11"}


def test_observations_show_everything_but_future_dice() -> None:
    state = _midgame()
    view = state.public_view()
    json.dumps(view)  # JSON-ready
    for seat in (0, 1):
        obs = state.observe(seat)
        assert obs["seat"] == seat
        assert {k: v for k, v in obs.items() if k != "seat"} == view
    assert view["roll"] == list(state.roll) and view["to_move"] == state.to_move
    assert sorted(view) == sorted(
        ["ninjas", "colors", "score", "shadow", "mission", "to_move", "turn_number", "roll",
         "first_player", "target_score", "turn_cap", "log", "result"]
    )
    assert len(view["log"]) == state.turn_number
    assert "chance" not in json.dumps(view) and "seed" not in view


def test_determinize_keeps_the_position_and_draws_fresh_dice() -> None:
    state = _midgame()
    futures = set()
    for k in range(8):
        world = state.determinize(state.to_move, random.Random(k))
        assert world.public_view() == state.public_view()
        assert [m.label for m in world.legal_moves()] == [m.label for m in state.legal_moves()]
        world.apply_index(0)
        futures.add(world.roll)
    assert len(futures) > 1  # the opponent's next roll is not the real one, it is resampled


def test_clone_is_independent() -> None:
    state = _midgame()
    before = state.public_view()
    twin = state.clone()
    while not twin.is_over():
        twin.apply_index(0)
    assert state.public_view() == before


@pytest.mark.parametrize(
    "config",
    [{"target_score": 0}, {"turn_cap": "many"}, {"first_player": 2}, {"board": "5x11"}, {"colour": "red"}],
)
def test_bad_config_is_one_clear_sentence(config: dict[str, object]) -> None:
    with pytest.raises(ConfigError) as err:
        GAME.new_state(0, config=config)
    assert str(err.value).endswith(".") and "\n" not in str(err.value)


def test_two_players_only() -> None:
    with pytest.raises(ConfigError):
        GAME.new_state(0, players=3)


def test_target_score_option() -> None:
    state = pos(["b4", "a1"], ["a11", "b11"], dice=(4, 4))
    low = GAME.position(["b4", "a1"], ["a11", "b11"], dice=(4, 4), config={"target_score": 1})
    for s in (state, low):
        s.apply({0: next(m for m in s.legal_moves() if m.label == "b4⤴b8→b4 (+1)")})
    assert not state.is_over() and low.is_over() and low.outcome().reason == "points"


def test_render_draws_the_board() -> None:
    state = GAME.new_state(2, config={"first_player": 0})
    text = GAME.render(state)
    board = [line for line in text.splitlines() if line.strip()[:2].strip().isdigit()]
    assert len(board) == 11
    cells = [cell for line in board for cell in line.split()[1:5]]
    assert cells.count("B") == 6 and cells.count("R") == 6 and cells.count(".") == 32
    assert "Black to move" in text and "Red dojo" in text and "Black dojo" in text
    missions = {0: {"square": "b6", "turns_used": 1, "depth": 0}}
    text = GAME.render(pos(["b6", "a1"], dice=(1, 1), missions=missions))
    row6 = next(line for line in text.splitlines() if line.strip().startswith("6 "))
    assert row6.split()[1:5] == [".", "b", ".", "."]  # lower case: on a mission
    assert "mission b6" in text


def _request(state: NvnState) -> DecisionRequest:
    seat = state.to_move
    return DecisionRequest(GAME, seat, state.observe(seat), state.legal_actions(seat), None, state)


def test_evaluate_likes_points_and_captures() -> None:
    ahead = pos(["a1", "b1"], score=(3, 0), dice=(1, 1))
    assert GAME.evaluate(ahead, 0) > 0 > GAME.evaluate(ahead, 1)
    assert GAME.evaluate(ahead, 1) > -1 and GAME.evaluate(ahead, 0) < 1
    # A mission deep in the enemy dojo with time to come home is worth more than one just begun.
    deep = pos(["b9", "a1"], dice=(1, 1), missions={0: {"square": "b9", "turns_used": 1, "depth": 2}})
    shallow = pos(["b5", "a1"], dice=(1, 1), missions={0: {"square": "b5", "turns_used": 1, "depth": 0}})
    assert GAME.evaluate(deep, 0) > GAME.evaluate(shallow, 0)


def test_expectimax_takes_the_dash_and_the_capture() -> None:
    # At 6 points the turn-one dash wins the game at once.
    dash = pos(["b4", "a1", "c1", "d1"], ["a11", "b11"], dice=(4, 4), score=(6, 0))
    bot = ExpectimaxBot(seed=1, depth=2)
    assert dash.legal_moves()[bot.act(_request(dash))].label == "b4⤴b8→b4 (+1)"
    # Red's mission Ninja, deep and about to score, can be captured from b4 with a 2.
    red = {1: {"square": "b6", "turns_used": 1, "depth": 3}}
    cap = pos(["b4", "a1"], ["b6", "d11"], dice=(1, 1), missions=red)
    assert cap.legal_moves()[bot.act(_request(cap))].to == "b6"
    deep = ExpectimaxBot(seed=2, depth=3, beam=2)
    assert dash.legal_moves()[deep.act(_request(dash))].label == "b4⤴b8→b4 (+1)"
    values = deep.move_values(cap, 0, 3)
    assert len(values) == len(cap.legal_moves()) and sum(v >= -1 for v in values) == 2  # the beam


def test_bots_through_the_referee() -> None:
    assert "expectimax" in GAME.bots()
    bots = [make_bot("expectimax:depth=2", GAME, 1), make_bot("greedy", GAME, 2)]
    result = play_match("ninja-versus-ninja", bots, seed=4)
    assert result.reason in ("points", "elimination") and len(result.replay.steps) > 4
    again = play_match(
        "ninja-versus-ninja", [make_bot("expectimax:depth=2", GAME, 1), make_bot("greedy", GAME, 2)], seed=4
    )
    assert again.ranking == result.ranking and again.scores == result.scores
    rnd = play_match("ninja-versus-ninja", [make_bot("random", GAME, 1), make_bot("ismcts:iterations=20", GAME, 2)], 5)
    assert rnd.reason in ("points", "elimination", "cap")
