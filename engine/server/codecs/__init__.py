"""One codec per game: observation dict -> typed proto Observation, Action -> proto Action.

A game names its typed codec (`Game.codec`, "module:Class", one of the modules beside this one);
it is imported the first time a match of that game needs it. Games without a typed codec (test
games, plugins) get the generic JSON codec.
"""

from __future__ import annotations

import importlib

from tourney.engine.core import UnknownGame, get_game
from tourney.engine.server.codecs.base import Codec, GenericCodec, TypedCodec, action_fields, dumps

_codecs: dict[str, Codec] = {}  # game id -> its codec, made once


def codec_for(game_id: str) -> Codec:
    """The codec of `game_id`; the generic JSON codec for a game without a typed one."""
    codec = _codecs.get(game_id)
    if codec is None:
        try:
            declared = get_game(game_id).codec
        except UnknownGame:
            declared = None
        if declared is None:
            codec = GenericCodec(game_id)
        else:
            module, _, name = declared.partition(":")
            codec = getattr(importlib.import_module(module), name)()
        _codecs[game_id] = codec
    return codec


__all__ = ["Codec", "GenericCodec", "TypedCodec", "action_fields", "codec_for", "dumps"]
