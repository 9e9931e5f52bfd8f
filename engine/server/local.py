"""An arena in a background thread of this process, on a free loopback port (local play, tests)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from types import TracebackType

import grpc

from tourney.engine.server.arena import Arena
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.server import start_server, start_unix_listener


class LocalArena:
    """`with LocalArena() as arena:` serves on arena.address until the block ends."""

    def __init__(self, config: ArenaConfig | None = None, host: str = "127.0.0.1", port: int = 0,
                 tls: tuple[bytes, bytes] | None = None, unix_paths: Sequence[str] = ()) -> None:
        self.arena = Arena(config or ArenaConfig(allow_anonymous=True))
        self.tls = tls
        self.host = host
        self.port = port
        # Unix sockets served too, each its own listener (sandboxed bots reach the arena through them).
        self.unix_paths = list(unix_paths)
        self.address = ""
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stopping: asyncio.Event | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._serve, name="local-arena", daemon=True)

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)

        async def main() -> None:
            self._stopping = asyncio.Event()
            servers: list[grpc.aio.Server] = []
            try:
                server, self.port = await start_server(self.arena, self.host, self.port, self.tls)
                servers.append(server)
                for path in self.unix_paths:
                    servers.append(await start_unix_listener(self.arena, path))
            except BaseException as exc:  # reported to start()
                self._error = exc
                self._ready.set()
                for server in servers:
                    await server.stop(None)
                return
            self.address = f"{self.host}:{self.port}"
            self._ready.set()
            await self._stopping.wait()
            self.arena.shutdown()
            await asyncio.gather(*(server.stop(1.0) for server in servers))

        self._loop.run_until_complete(main())
        self._loop.close()

    def start(self, timeout_s: float = 30.0) -> LocalArena:
        """Start serving; returns once the port is bound."""
        self._thread.start()
        if not self._ready.wait(timeout_s):
            raise RuntimeError("the local arena did not start")
        if self._error is not None:
            raise self._error
        return self

    def run_match(self, game_id: str, seats: Sequence[str], seed: int, timeout_s: float = 600.0) -> pb.MatchRecord:
        """Play one match on the arena's own loop (no RunMatch call needed in-process)."""
        future = asyncio.run_coroutine_threadsafe(self.arena.run_match(game_id, seats, seed), self._loop)
        return future.result(timeout_s)

    def stop(self, timeout_s: float = 30.0) -> None:
        """Disconnect every bot and stop the server."""
        if self._stopping is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stopping.set)
        self._thread.join(timeout_s)

    def __enter__(self) -> LocalArena:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
