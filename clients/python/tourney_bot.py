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
import threading
from pathlib import Path

# Inside the repository the SDK and the generated stubs are importable from its root.
_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

try:
    import grpc

    from tourney.engine.server.client import (
        Bot,
        BotClient,
        RandomBot,
        SessionRefused,
        action_dict,
        observation_dict,
        rpc_detail,
    )
    from tourney.engine.server.generated import arena_pb2
except ModuleNotFoundError as missing:
    # The usual first mistake: the system's Python, which has no grpc. Name the one that has it.
    _VENV = _ROOT / ".venv" / "bin" / "python"
    _USE = str(_VENV) if _VENV.exists() else "the Python tourney is installed in (bash scripts/setup.sh makes .venv)"
    print(f"error: {sys.executable} cannot import {missing.name} (the SDK needs grpc and protobuf): run this bot "
          f"with {_USE}.", file=sys.stderr, flush=True)
    raise SystemExit(2) from None


def run_bot(bot: Bot, name: str | None = None, address: str | None = None, token: str | None = None,
            games: list[str] | None = None, max_concurrent_matches: int = 4,
            max_matches: int | None = None) -> BotClient:
    """Connect `bot` and play until the arena closes the stream (or max_matches have ended).

    Defaults come from the environment a launcher sets: TOURNEY_ARENA (host:port),
    TOURNEY_BOT_NAME, TOURNEY_TOKEN, TOURNEY_GAMES (comma-separated), TOURNEY_MATCHES.
    Says on stderr when the arena has welcomed the bot; an arena that refuses the bot (wrong
    token) or cannot be reached ends the program with one sentence and exit status 2.
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
    threading.Thread(target=_say_when_connected, args=(client,), name="tourney-sdk-welcome", daemon=True).start()
    try:
        if max_matches is not None:
            client.run(max_matches=max_matches)
        else:
            client.run_forever()
    except SessionRefused as exc:
        why = str(exc).rstrip(".")
        _give_up(f"the arena at {client.address} refused bot '{client.name}' ({why}): set TOURNEY_TOKEN to the "
                 "token `tourney bots add NAME` printed, or serve with --allow-anonymous.")
    except grpc.RpcError as exc:
        _give_up(f"cannot play on the arena at {client.address} ({rpc_detail(exc)}): start it with "
                 "`tourney serve` or set TOURNEY_ARENA to its host:port.")
    return client


def _say_when_connected(client: BotClient) -> None:
    """One line on stderr once the arena has welcomed the bot: its author sees it is in."""
    client.connected.wait()
    games = ", ".join(client.welcome.games) if client.welcome is not None and client.welcome.games else "any game"
    print(f"bot '{client.name}' connected to the arena at {client.address} ({games}); waiting for matches.",
          file=sys.stderr, flush=True)


def _give_up(message: str) -> None:
    print(f"error: {message}", file=sys.stderr, flush=True)
    raise SystemExit(2)


__all__ = ["Bot", "BotClient", "RandomBot", "SessionRefused", "action_dict", "arena_pb2", "observation_dict",
           "run_bot"]
