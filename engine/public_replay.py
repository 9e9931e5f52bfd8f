"""What anyone may see of a finished match: the public view before the first step and after each.

A stored replay holds the seed and every decision, from which every hidden card can be rebuilt,
so it is for the organiser only. Spectators, `GetMatch` without the admin token and web pages get
these frames instead: each is exactly the game's `public_view()`, which shows only what the rules
reveal to a bystander at that moment.
"""

from __future__ import annotations

from typing import Any

from tourney.engine.core import Action, State
from tourney.engine.referee import Replay, new_match, replay_match


def public_frames(replay: Replay) -> list[dict[str, Any]]:
    """The public view of the first state, then one after every step the match played.

    The last frame is the final position (a forfeit adds no frame: nothing moved). Action labels
    are left out on purpose: a label can name a hidden choice (a Maître Ninja line, a card drawn).
    """
    frames: list[dict[str, Any]] = []

    def record(state: State, _joint: list[tuple[int, Action]]) -> None:
        frames.append(state.public_view())

    _game, first, _fresh = new_match(replay.game_id, replay.seed, replay.config, replay.players)
    frames.append(first.public_view())
    replay_match(replay, record)
    return frames
