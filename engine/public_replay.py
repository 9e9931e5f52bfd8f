"""What anyone may see of a finished match: the public view before the first step and after each.

A stored replay holds the seed and every decision, from which every hidden card can be rebuilt,
so it is for the organiser only. Spectators, `GetMatch` without the admin token and web pages get
these frames instead: each is exactly the game's `public_view()`, which shows only what the rules
reveal to a bystander at that moment.

Sent over the wire (GetMatch) a public replay is `as_changes`: the first frame and then each step's
change (engine.view_diff), since a frame repeats most of the one before (a long Tiny Ninjas match:
19 MB of frames, 0.2 MB of changes); `frames_of` rebuilds the frames on the reader's side.
"""

from __future__ import annotations

from typing import Any

from tourney.engine.core import Action, State
from tourney.engine.referee import Replay, new_match, replay_match
from tourney.engine.view_diff import applied, change


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


def as_changes(game: str, players: int, frames: list[dict[str, Any]]) -> dict[str, Any]:
    """The public replay document: {"game", "players", "first": the first frame (None without frames),
    "changes": the change of every later frame from the one before}."""
    return {"game": game, "players": players, "first": frames[0] if frames else None,
            "changes": [change(before, after) for before, after in zip(frames, frames[1:], strict=False)]}


def frames_of(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Every frame of a public replay document (`as_changes`), rebuilt."""
    if doc.get("first") is None:
        return []
    frames = [doc["first"]]
    for step in doc.get("changes", []):
        frames.append(applied(frames[-1], step))
    return frames
