"""How big each ActionRequest is on the wire, encoded exactly as the arena encodes it."""

from __future__ import annotations

from typing import Any

from tourney.engine.bots import bot_names, make_bot
from tourney.engine.core import DecisionRequest, get_game
from tourney.engine.referee import play_match
from tourney.engine.server.codecs import codec_for
from tourney.engine.server.wire import LegalEncoder, observation_bytes, request_message

LIMIT = 64 * 1024  # no ActionRequest may be larger (issue 14)
MATCH_ID = "m" * 36  # as long as the arena's own match ids
CASES: list[tuple[str, dict[str, Any], int]] = [
    *[("tiny-ninjas", {"mode": m}, 2) for m in get_game("tiny-ninjas").modes],
    ("tiny-ninjas", {"use_expansion": True}, 2),
    ("maitre-ninja", {}, 2),
    ("maitre-ninja", {}, 4),
    ("ninja-versus-ninja", {}, 2),
    *[("ninja-arena", {"mode": m}, 2 if m == "duel" else 4) for m in get_game("ninja-arena").modes],
]


class MeasuringSeat:
    """Plays like `bot` and keeps the size of every request the arena would send it."""

    def __init__(self, bot: Any, game_id: str, sizes: list[int]) -> None:
        self.bot = bot
        self.codec = codec_for(game_id)
        self.encoder = LegalEncoder(self.codec)
        self.sizes = sizes

    def act(self, request: DecisionRequest) -> int:
        observation = observation_bytes(self.codec, request.observation)
        message = request_message(MATCH_ID, 1 << 40, request.seat, observation, 60_000,
                                  self.encoder.encode(request.legal))
        self.sizes.append(len(message))
        return int(self.bot.act(request))


def lineups(game_id: str, players: int) -> list[list[str]]:
    """Random play, and the game's own bots against random play."""
    names = [n for n in bot_names(get_game(game_id)) if n not in ("random", "ismcts")]
    return [["random"] * players] + [[name] + ["random"] * (players - 1) for name in names]


def largest_request(game_id: str, config: dict[str, Any], players: int, seeds: range) -> tuple[int, int]:
    """(largest request in bytes, requests measured) over matches of every lineup and seed."""
    game = get_game(game_id)
    sizes: list[int] = []
    for lineup in lineups(game_id, players):
        for seed in seeds:
            seats = [MeasuringSeat(make_bot(name, game, seed * 7 + i), game_id, sizes) for i, name in enumerate(lineup)]
            play_match(game_id, seats, seed, config, players=players)
    return max(sizes), len(sizes)
