"""What a learner on an arena is sent maps back to the engine: every legal action as the codec encodes it
gives the engine's action again, and the JSON view a bot receives gives the same tensor as `observe`."""

from __future__ import annotations

import pytest

from tourney.engine.core import get_game
from tourney.engine.server.client import observation_dict
from tourney.engine.server.codecs import codec_for
from tourney.envs.wire_actions import engine_action

from .playouts import decisions

CASES = [("tiny-ninjas", None, {"mode": "blitz"}), ("tiny-ninjas", None, {"mode": "solo"}),
         ("ninja-versus-ninja", None, None), ("maitre-ninja", 3, None),
         ("ninja-arena", 6, {"genin_pack": True}), ("ninja-arena", 2, {"mode": "duel"})]


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("game_id", "players", "config"), CASES, ids=[f"{g}-{c}" for g, _, c in CASES])
def test_actions_and_views_cross_the_wire_unchanged(game_id, players, config):
    game, codec = get_game(game_id), codec_for(game_id)
    encoding = game.encoding()
    for state, seat, legal in decisions(game_id, players, config, seeds=2):
        assert [engine_action(game, codec.action(a)) for a in legal] == list(legal)
        view = state.observe(seat)
        assert encoding.encode(observation_dict(codec.observation(view))) == encoding.encode(view)
