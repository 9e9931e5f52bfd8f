"""The web app streams at most MAX_EXPORTS downloads at once; a slot is given back when a download ends.

Driven through the app's ASGI interface with a client that stops reading after the first line, so the
downloads stay open exactly as long as the test says (no timing involved).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.export.conftest import Stored
from tourney.tournament.store.database import open_store
from tourney.web.app import MAX_EXPORTS, create_app


class SlowReader:
    """One GET whose client reads the headers and the first body chunk, then waits until `release` is set."""

    def __init__(self, app: Any, path: str) -> None:
        self.app, self.path = app, path
        self.release, self.gone = asyncio.Event(), asyncio.Event()
        self.status: int | None = None
        self.started, self.body = asyncio.Event(), b""
        self.asked = False

    async def receive(self) -> dict[str, Any]:
        if not self.asked:  # the request (no body) once; after that only a disconnect can come
            self.asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.gone.wait()  # the client stays until the test lets it go
        return {"type": "http.disconnect"}

    async def send(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
        elif message["type"] == "http.response.body":
            self.body += message.get("body", b"")
            if not self.started.is_set():
                self.started.set()
                await self.release.wait()

    async def run(self) -> None:
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
                 "scheme": "http", "path": self.path, "raw_path": self.path.encode(), "query_string": b"",
                 "root_path": "", "headers": [(b"host", b"test")], "client": ("127.0.0.1", 1),
                 "server": ("test", 80)}
        await self.app(scope, self.receive, self.send)


@pytest.mark.timeout(180)
def test_downloads_past_the_limit_are_refused_until_one_ends(stored: Stored) -> None:
    engine = open_store(str(stored.path))
    app = create_app(engine)
    path = f"/api/tournaments/{stored.by_game['tiny-ninjas']}/export.jsonl"

    async def scenario() -> None:
        held = [SlowReader(app, path) for _ in range(MAX_EXPORTS)]
        tasks = [asyncio.create_task(r.run()) for r in held]
        await asyncio.wait_for(asyncio.gather(*(r.started.wait() for r in held)), 60)
        assert [r.status for r in held] == [200] * MAX_EXPORTS
        refused = SlowReader(app, path)
        refused.release.set()
        await asyncio.wait_for(refused.run(), 60)
        assert refused.status == 429 and b"downloads are running" in refused.body
        held[0].release.set()  # one download reads to its end: its slot is free again
        await asyncio.wait_for(tasks[0], 60)
        assert held[0].body.count(b"\n") == 6  # all four matches and the two byes
        again = SlowReader(app, path)
        again.release.set()
        await asyncio.wait_for(again.run(), 60)
        assert again.status == 200
        for r in held:
            r.release.set()
            r.gone.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 60)

    try:
        asyncio.run(scenario())
    finally:
        engine.dispose()
