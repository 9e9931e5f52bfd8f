"""The tourney bot SDK for Python: subclass `Bot`, override `act`, call `run_bot`.

    from tourney_bot import Bot, run_bot

    class First(Bot):
        def act(self, observation, legal_actions, request):
            return 0                      # index into legal_actions

    run_bot(First())                      # reads TOURNEY_ARENA / TOURNEY_BOT_NAME / TOURNEY_TOKEN

`observation` is the full observation as a dict (the typed proto is `request.observation`);
each entry of `legal_actions` is a proto Action with `.label` and the game's typed fields.
Return None to skip answering (the arena then rules a timeout).

The implementation lives in the repository's `engine/server/client.py` (typed and tested
there); this module re-exports it and adds `run_bot`, which reconnects with backoff.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Inside the repository the SDK and the generated stubs are importable from its root.
_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from engine.server.client import (  # noqa: E402
    Bot,
    BotClient,
    RandomBot,
    SessionRefused,
    action_dict,
    observation_dict,
)
from engine.server.generated import arena_pb2  # noqa: E402


def run_bot(bot: Bot, name: str | None = None, address: str | None = None, token: str | None = None,
            games: list[str] | None = None, max_concurrent_matches: int = 4,
            max_matches: int | None = None) -> BotClient:
    """Connect `bot` and play until the arena closes the stream (or max_matches have ended).

    Defaults come from the environment a launcher sets: TOURNEY_ARENA (host:port),
    TOURNEY_BOT_NAME, TOURNEY_TOKEN, TOURNEY_GAMES (comma-separated), TOURNEY_MATCHES.
    """
    if max_matches is None and os.environ.get("TOURNEY_MATCHES"):
        max_matches = int(os.environ["TOURNEY_MATCHES"])
    client = BotClient(
        address or os.environ.get("TOURNEY_ARENA", "127.0.0.1:50051"),
        bot,
        name=name or os.environ.get("TOURNEY_BOT_NAME", type(bot).__name__.lower()),
        token=token if token is not None else os.environ.get("TOURNEY_TOKEN", ""),
        games=games if games is not None else [g for g in os.environ.get("TOURNEY_GAMES", "").split(",") if g],
        max_concurrent_matches=max_concurrent_matches,
    )
    if max_matches is not None:
        client.run(max_matches=max_matches)
    else:
        client.run_forever()
    return client


__all__ = ["Bot", "BotClient", "RandomBot", "SessionRefused", "action_dict", "arena_pb2", "observation_dict",
           "run_bot"]
