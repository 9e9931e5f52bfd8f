"""A real arena on 127.0.0.1 (ephemeral port) in a background event loop, and bot helpers."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import grpc

from tourney.engine.server.arena import Arena
from tourney.engine.server.client import Bot, BotClient, RandomBot
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.generated import arena_pb2_grpc as pb_grpc
from tourney.engine.server.server import start_server

WAIT_S = 30.0


class ArenaHarness:
    """Start with `ArenaHarness(config)`; `close()` stops the server and every bot thread."""

    def __init__(self, config: ArenaConfig | None = None) -> None:
        self.arena = Arena(config or ArenaConfig(allow_anonymous=True, default_move_ms=5000))
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()
        assert self._ready.wait(WAIT_S), "arena did not start"
        self.address = f"127.0.0.1:{self.port}"
        self.channel = grpc.insecure_channel(self.address)
        self.stub = pb_grpc.ArenaStub(self.channel)
        self.clients: list[tuple[BotClient, threading.Thread]] = []

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)

        async def main() -> None:
            self._stopping = asyncio.Event()
            self.server, self.port = await start_server(self.arena, "127.0.0.1", 0)
            self._ready.set()
            await self._stopping.wait()
            await self.server.stop(0.5)

        self.loop.run_until_complete(main())

    def bot(self, name: str, bot: Bot | None = None, **kwargs: Any) -> BotClient:
        """Connect a Python SDK bot in its own thread; returns once the arena welcomed it."""
        client = BotClient(self.address, bot or RandomBot(seed=len(self.clients)), name=name, **kwargs)
        errors: list[BaseException] = []

        def run() -> None:
            try:
                client.run()
            except BaseException as exc:  # kept for the test to inspect
                errors.append(exc)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        client.thread_errors = errors  # type: ignore[attr-defined]
        self.clients.append((client, thread))
        assert client.connected.wait(WAIT_S), f"bot {name} was not welcomed"
        return client

    def run_match(self, game: str, seats: Sequence[str], seed: int = 1, move_ms: int = 0,
                  config_json: str = "", admin_token: str = "", wait_s: int = 0, match_id: str = "",
                  ) -> pb.MatchRecord:
        record: pb.MatchRecord = self.stub.RunMatch(pb.RunMatchRequest(
            admin_token=admin_token, game=game, seats=list(seats), seed=seed, move_ms=move_ms,
            config_json=config_json, wait_s=wait_s, match_id=match_id,
        ), timeout=120)
        return record

    def close(self) -> None:
        for client, _ in self.clients:
            client.cancel()
        for _, thread in self.clients:
            thread.join(WAIT_S)
        self.channel.close()
        self.loop.call_soon_threadsafe(self._stopping.set)
        self._thread.join(WAIT_S)
        assert not self._thread.is_alive(), "arena did not stop"
        self.arena.shutdown()


def wait_for(condition: Callable[[], bool], timeout_s: float = WAIT_S) -> bool:
    """Poll `condition` every 10 ms until it holds or timeout_s passes; its last value."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True
