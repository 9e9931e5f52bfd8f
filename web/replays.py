"""The frames the replay viewer draws for a stored match.

Public viewers get `engine.public_replay.public_frames` and nothing else: the stored replay
(its seed and decisions) never leaves the server. The organiser, with the admin token, gets
the full replay: every seat's own observation after each step, and the action labels.
Stored matches never change, so frames are cached by store and match id.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Engine

from tourney.engine.core import Action, State
from tourney.engine.public_replay import public_frames
from tourney.engine.referee import Replay, new_match, replay_match
from tourney.tournament.store.codec import unpack_replay
from tourney.web.reads import LruCache, match_replay_text, store_key

MAX_FRAMES = 20_000  # a replay longer than this is cut (the viewer says so) rather than filling memory
_public = LruCache(64)
_full = LruCache(16)


def _replay(engine: Engine, match_id: int) -> Replay | None:
    data = unpack_replay(match_replay_text(engine, match_id))
    return Replay.from_dict(data) if data.get("game") else None  # a bye has no replay


def public_match_frames(engine: Engine, match_id: int) -> list[dict[str, Any]]:
    """The public view before the first step and after each step (empty for a bye)."""
    def make() -> list[dict[str, Any]]:
        replay = _replay(engine, match_id)
        return [] if replay is None else public_frames(replay)[:MAX_FRAMES]
    return _public.get((store_key(engine), match_id), make)


def full_match_frames(engine: Engine, match_id: int) -> list[dict[str, Any]]:
    """For the organiser: per step, the public view, every seat's observation and who did what."""
    def make() -> list[dict[str, Any]]:
        replay = _replay(engine, match_id)
        if replay is None:
            return []
        frames: list[dict[str, Any]] = []

        def frame(state: State, joint: list[tuple[int, Action]]) -> dict[str, Any]:
            return {"public": state.public_view(),
                    "seats": [state.observe(seat) for seat in range(replay.players)],
                    "actions": [{"seat": seat, "label": action.label} for seat, action in joint]}

        def record(state: State, joint: list[tuple[int, Action]]) -> None:
            if len(frames) < MAX_FRAMES:
                frames.append(frame(state, joint))

        _game, first, _fresh = new_match(replay.game_id, replay.seed, replay.config, replay.players)
        frames.append(frame(first, []))
        replay_match(replay, record)
        return frames
    return _full.get((store_key(engine), match_id), make)
