"""`run_bot`: play with the settings a launcher puts in the environment, reconnecting with backoff."""

from __future__ import annotations

import os
import sys
import threading

import grpc

from tourney_bot.client import Bot, BotClient, SessionRefused, rpc_detail


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
