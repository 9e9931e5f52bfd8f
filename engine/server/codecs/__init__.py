"""One codec per game: observation dict -> typed proto Observation, Action -> proto Action.

Games without a typed codec (test games, plugins) get the generic JSON codec.
"""

from __future__ import annotations

from tourney.engine.server.codecs.base import Codec, GenericCodec, action_fields, dumps
from tourney.engine.server.codecs.maitre_ninja import MaitreNinjaCodec
from tourney.engine.server.codecs.ninja_arena import NinjaArenaCodec
from tourney.engine.server.codecs.ninja_versus_ninja import NinjaVersusNinjaCodec
from tourney.engine.server.codecs.tiny_ninjas import TinyNinjasCodec

CODECS: dict[str, Codec] = {
    "tiny-ninjas": TinyNinjasCodec(),
    "ninja-versus-ninja": NinjaVersusNinjaCodec(),
    "maitre-ninja": MaitreNinjaCodec(),
    "ninja-arena": NinjaArenaCodec(),
}


def codec_for(game_id: str) -> Codec:
    """The codec of `game_id`; the generic JSON codec for a game without a typed one."""
    return CODECS.get(game_id) or GenericCodec(game_id)


__all__ = ["CODECS", "Codec", "GenericCodec", "action_fields", "codec_for", "dumps"]
