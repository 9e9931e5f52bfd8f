"""A bot program for fault tests, run as `python -m tests.faults.procbot MODE`.

Modes: play (a well-behaved random bot), crash-first (connects, dies at its first request),
crash-start (dies before saying Hello), fork (forks: the child plays, the parent exits at once,
and a grandchild lingers as a stray helper process).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from tourney.engine.server.client import Bot, BotClient, RandomBot
from tourney.engine.server.generated import arena_pb2 as pb


class CrashFirst(Bot):
    """Dies hard (no goodbye on the stream) when asked its first move."""

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
            request: pb.ActionRequest) -> int | None:
        os._exit(3)


def _client(bot: Bot) -> BotClient:
    return BotClient(os.environ["TOURNEY_ARENA"], bot, name=os.environ["TOURNEY_BOT_NAME"],
                     token=os.environ.get("TOURNEY_TOKEN", ""), max_concurrent_matches=4)


def main(mode: str) -> None:
    if mode == "crash-start":
        sys.exit(5)
    if mode == "crash-first":
        _client(CrashFirst()).run()
        return
    if mode == "fork":
        if os.fork() != 0:
            os._exit(0)  # the launched process is gone at once; its child carries on
        if os.fork() == 0:
            time.sleep(3600)  # a stray helper that would outlive everything if nobody killed it
            os._exit(0)
    _client(RandomBot(seed=os.getpid())).run()


if __name__ == "__main__":
    main(sys.argv[1])
