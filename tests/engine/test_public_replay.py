"""Public frames of a finished match: one public view per step, and nothing the rules hide."""

from __future__ import annotations

import json

import pytest

from tourney.engine.bots import make_bot
from tourney.engine.core import get_game
from tourney.engine.public_replay import public_frames
from tourney.engine.referee import play_match


@pytest.mark.parametrize("game_id", ["tiny-ninjas", "ninja-versus-ninja", "maitre-ninja", "ninja-arena"])
def test_one_frame_per_step_each_the_public_view(game_id: str) -> None:
    game = get_game(game_id)
    players = game.min_players
    seen: list[str] = []
    result = play_match(game_id, [make_bot("random", game, seed=s) for s in range(players)], seed=11,
                        on_step=lambda state, _joint: seen.append(json.dumps(state.public_view(), sort_keys=True)))
    frames = public_frames(result.replay)
    assert len(frames) == len(result.replay.steps) + 1
    assert [json.dumps(f, sort_keys=True) for f in frames[1:]] == seen
    assert "seed" not in frames[0]
