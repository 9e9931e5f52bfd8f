"""The tourney bot SDK for Python: subclass `Bot`, override `act`, call `run_bot`.

    from tourney_bot import Bot, run_bot

    class First(Bot):
        def act(self, observation, legal_actions, request):
            return 0                      # index into legal_actions

    run_bot(First())                      # reads TOURNEY_ARENA / TOURNEY_BOT_NAME / TOURNEY_TOKEN

`observation` is the full observation as a dict (the typed proto is `request.observation`, whose
typed fields a bot that sets `typed_observation = False` does without: the arena then skips them);
each entry of `legal_actions` is a proto Action with `.label` and the game's typed fields.
Return None to skip answering (the arena then rules a timeout).

The package needs only grpcio and protobuf: it carries its own code generated from
proto/tourney/v1/arena.proto (`tourney_bot.arena_pb2`).
"""

import importlib
import sys
from pathlib import Path

try:
    # Checked first, grpc before protobuf: the dependencies a system Python usually lacks.
    for _needed in ("grpc", "google.protobuf"):
        importlib.import_module(_needed)
except ModuleNotFoundError as missing:
    # The usual first mistake: a Python without grpc. Inside a checkout, name the project's own.
    _VENV = Path(__file__).resolve().parents[3] / ".venv" / "bin" / "python"
    _FIX = (f"run this bot with {_VENV}." if _VENV.exists()
            else "install the SDK into this Python with `pip install ./clients/python` (it brings both).")
    print(f"error: {sys.executable} cannot import {missing.name} (the SDK needs grpc and protobuf): {_FIX}",
          file=sys.stderr, flush=True)
    raise SystemExit(2) from None

from tourney_bot.client import Bot, BotClient, RandomBot, SessionRefused, action_dict, observation_dict  # noqa: E402
from tourney_bot.generated import arena_pb2  # noqa: E402
from tourney_bot.run import run_bot  # noqa: E402

__all__ = ["Bot", "BotClient", "RandomBot", "SessionRefused", "action_dict", "arena_pb2", "observation_dict",
           "run_bot"]
