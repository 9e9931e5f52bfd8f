"""Real-time matches outside a long-running arena: `tourney run` and `tourney match` with
`--mode realtime` (Ninja Arena, §6) play on the server's clock, as `arena-match --realtime` does.

In real time a seat acts whenever it likes and actions apply in arrival order, so a match is
played by the real-time driver on an event loop (engine/server/realtime.py), never by the
turn-based referee: given the realtime mode, that referee would play it tick by tick.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from tourney.engine.core import Seat, get_game
from tourney.engine.referee import MatchResult

REALTIME_MODE = "realtime"


def wants_realtime(game_id: str, config: Mapping[str, Any]) -> bool:
    """True when `config` asks for real time and the game has a real-time driver."""
    if str(config.get("mode", "")).lower() != REALTIME_MODE:
        return False
    from tourney.engine.server import supports_realtime  # gRPC-side code: only when asked for

    return supports_realtime(game_id)


def play_realtime_match(game_id: str, seats: Sequence[Seat], seed: int, config: Mapping[str, Any]) -> MatchResult:
    """Play one real-time match between built-in bots in this thread (its own event loop)."""
    from tourney.engine.server import play_realtime

    return asyncio.run(play_realtime(get_game(game_id), seats, seed, config))
