"""The gRPC Arena: one service hosts every game; bots in any language connect and play.

The contract is proto/tourney/v1/arena.proto; its generated Python code lives in
engine/server/generated/ (regenerate with `python -m tourney.engine.server.codegen`).

The rest of tourney (workers, tournament, web, envs) uses the server only through the names below,
`from tourney.engine.server import LocalArena`; its modules are its own (tests/test_layers.py checks).
Each name is imported on first use: a tournament that never meets the network never loads gRPC or
the metrics (Ray workers and `tourney run --local` import the entrants' spec helpers, nothing more).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tourney.engine.server.arena import REMOTE_PREFIX, Arena, ArenaError
    from tourney.engine.server.client import Bot, BotClient, SessionRefused, action_dict, rpc_detail
    from tourney.engine.server.config import ArenaConfig
    from tourney.engine.server.generated import arena_pb2 as pb
    from tourney.engine.server.generated import arena_pb2_grpc as pb_grpc
    from tourney.engine.server.launcher import BotProcess, check_program, command_name, is_command
    from tourney.engine.server.local import LocalArena
    from tourney.engine.server.metrics import (
        LEAGUE_MATCHES,
        LEAGUE_ROUNDS,
        REGISTRY,
        REMAINING,
        WORKER_BUSY,
        WORKER_SLOTS,
        game_label,
        observe_match,
        serve_metrics,
    )
    from tourney.engine.server.realtime import play_realtime, supports_realtime
    from tourney.engine.server.remote import RUN_MATCH, ArenaUnavailable, finished_match, run_remote_match
    from tourney.engine.server.results import result_of, seat_of
    from tourney.engine.server.server import start_admin_listener, start_server, start_unix_listener
    from tourney.engine.server.tokens import add_bot, default_path, load_tokens, token_hash

# Each public name -> (the module of ours it lives in, its name there).
_ENTRY_POINTS: dict[str, tuple[str, str]] = {
    **{n: ("arena", n) for n in ("REMOTE_PREFIX", "Arena", "ArenaError")},
    **{n: ("client", n) for n in ("Bot", "BotClient", "SessionRefused", "action_dict", "rpc_detail")},
    "ArenaConfig": ("config", "ArenaConfig"),
    "pb": ("generated.arena_pb2", ""),
    "pb_grpc": ("generated.arena_pb2_grpc", ""),
    **{n: ("launcher", n) for n in ("BotProcess", "check_program", "command_name", "is_command")},
    "LocalArena": ("local", "LocalArena"),
    **{n: ("metrics", n) for n in ("LEAGUE_MATCHES", "LEAGUE_ROUNDS", "REGISTRY", "REMAINING", "WORKER_BUSY",
                                   "WORKER_SLOTS", "game_label", "observe_match", "serve_metrics")},
    **{n: ("realtime", n) for n in ("play_realtime", "supports_realtime")},
    **{n: ("remote", n) for n in ("RUN_MATCH", "ArenaUnavailable", "finished_match", "run_remote_match")},
    **{n: ("results", n) for n in ("result_of", "seat_of")},
    **{n: ("server", n) for n in ("start_admin_listener", "start_server", "start_unix_listener")},
    **{n: ("tokens", n) for n in ("add_bot", "default_path", "load_tokens", "token_hash")},
}

# The keys of _ENTRY_POINTS, spelled out for the type checker (tests/test_layers.py compares them).
__all__ = ["Arena", "ArenaConfig", "ArenaError", "ArenaUnavailable", "Bot", "BotClient", "BotProcess",
           "LEAGUE_MATCHES", "LEAGUE_ROUNDS", "LocalArena", "REGISTRY", "REMAINING", "REMOTE_PREFIX", "RUN_MATCH",
           "SessionRefused", "WORKER_BUSY", "WORKER_SLOTS", "action_dict", "add_bot", "check_program",
           "command_name", "default_path", "finished_match", "game_label", "is_command", "load_tokens",
           "observe_match", "pb", "pb_grpc", "play_realtime", "result_of", "rpc_detail", "run_remote_match",
           "seat_of", "serve_metrics", "start_admin_listener", "start_server", "start_unix_listener",
           "supports_realtime", "token_hash"]


def __getattr__(name: str) -> Any:
    """The entry point `name`, imported from its module the first time it is asked for."""
    if name not in _ENTRY_POINTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module_name, attribute = _ENTRY_POINTS[name]
    module = importlib.import_module(f"{__name__}.{module_name}")
    return getattr(module, attribute) if attribute else module
