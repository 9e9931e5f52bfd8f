"""An arena in its own process for soak runs: `python -m tests.soak.arena_process STORE_FILE`.

Prints its port on stdout, appends the id of every finished match to STORE_FILE (its
'storage', flushed per match), and serves until SIGTERM.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
from collections.abc import Sequence

from tourney.engine.referee import MatchResult
from tourney.engine.server.arena import Arena
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.server import start_admin_listener, start_server

ADMIN_ENV = "SOAK_ADMIN_TOKEN"


def main(store_path: str) -> None:
    lock = threading.Lock()
    store = open(store_path, "a", buffering=1)  # noqa: SIM115 (open for the process's life)

    def on_result(match_id: str, names: Sequence[str], result: MatchResult, _seconds: float) -> None:
        with lock:
            store.write(f"{match_id} {result.termination}\n")

    # Every soak bot connects from this one client process: lift the per-connection Hello limit.
    # Everything else is the default (the last 1,000 finished matches are kept for GetMatch/Watch).
    # $SOAK_ADMIN_TOKEN (the hostile benchmark sets it) gives the arena an admin token, so that
    # admission control applies to everyone else.
    arena = Arena(ArenaConfig(allow_anonymous=True, hello_burst=10_000, hello_per_s=1000.0,
                              admin_token=os.environ.get(ADMIN_ENV) or None), on_result=on_result)

    async def serve() -> None:
        server, port = await start_server(arena, "127.0.0.1", 0)
        # The bots' port, then the organiser's (`serve --admin-port`): its many RunMatch calls share one
        # connection, more than the bots' listener lets a connection have at once.
        admin, admin_port = await start_admin_listener(arena, 0)
        print(port, flush=True)
        print(admin_port, flush=True)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        await stop.wait()
        arena.shutdown()
        await admin.stop(1.0)
        await server.stop(1.0)

    asyncio.run(serve())
    store.close()


if __name__ == "__main__":
    main(sys.argv[1])
