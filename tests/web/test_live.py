"""The live relay: only public views and the result leave it, and the number of streams is bounded."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import threading
from collections.abc import Sequence
from typing import Any

from fastapi.testclient import TestClient

from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tests.web.conftest import Filled
from tourney.engine.server.client import RandomBot
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.web.app import create_app
from tourney.web.live import WatchLimit, watch_events


def _events(text: str) -> list[tuple[str, dict[str, object]]]:
    out = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        out.append((fields["event"], json.loads(fields["data"])))
    return out


def test_a_finished_arena_match_relays_its_last_view_and_result_only(filled: Filled) -> None:
    harness = ArenaHarness()
    try:
        harness.bot("b", max_concurrent_matches=2)
        record = harness.run_match("tiny-ninjas", ["remote:b", "remote:b"], seed=424_242_424, match_id="done")
        client = TestClient(create_app(filled.engine, arena=harness.address))
        text = client.get("/api/live/done/events").text
        events = _events(text)
        assert [kind for kind, _ in events] == ["frame", "end"]
        assert events[0][1]["view"]["phase"] == "over"  # type: ignore[index]
        assert set(events[1][1]) == {"seats", "termination", "reason"}
        assert events[1][1]["reason"] == record.reason and [s["bot"] for s in events[1][1]["seats"]] == ["b", "b"]
        assert [s["tier"] for s in events[1][1]["seats"]] == [s.tier for s in record.seats]
        assert "424242424" not in text and "steps" not in text and "replay" not in text
        missing = _events(client.get("/api/live/nothing-here/events").text)
        assert [kind for kind, _ in missing] == ["missing"]
        assert client.get("/api/live/bad%20id/events").status_code == 404
    finally:
        harness.close()


def test_live_streams_are_bounded() -> None:
    limit = WatchLimit(1)
    assert limit.take()  # one stream is open: the next is refused without calling the arena

    async def collect() -> list[str]:
        return [e async for e in watch_events("127.0.0.1:1", "x", limit)]

    events = asyncio.run(collect())
    assert len(events) == 1 and events[0].startswith("event: busy") and limit.open == 1
    limit.give()
    assert limit.open == 0


# A gated bot's move time: its match must still be running however long a loaded machine takes to start
# the web app and open the test's streams (the arena's 5 s default ended it with a timeout under load).
GATED_MOVE_MS = int(WAIT_S * 3 * 1000)


class GatedBot(RandomBot):
    """Plays at random, but only once the test opens the gate (bounded wait): its match runs until then.
    Give its match `move_ms=GATED_MOVE_MS`."""

    def __init__(self) -> None:
        super().__init__(seed=5)
        self.gate = threading.Event()

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
            request: pb.ActionRequest) -> int | None:
        self.gate.wait(GATED_MOVE_MS / 1000)
        return super().act(observation, legal_actions, request)


def test_a_running_match_names_its_players_in_every_event(filled: Filled) -> None:
    harness = ArenaHarness()
    bot = GatedBot()
    try:
        harness.bot("gated", bot)
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            running = pool.submit(harness.run_match, "tiny-ninjas", ["remote:gated", "greedy"], 3, GATED_MOVE_MS,
                                  "", "", 0,
                                  "named")
            assert wait_for(lambda: "named" in harness.arena._live)  # noqa: SLF001  (the arena's own table)
            # The arena's Watch names the seats while the match runs ...
            first = next(iter(harness.stub.Watch(pb.WatchRequest(match_id="named"), timeout=WAIT_S)))
            assert not first.finished and list(first.seat_names) == ["gated", "greedy"]

            # ... and so does every frame the web app relays, before the end.
            async def first_frame() -> str:
                stream = watch_events(harness.address, "named", WatchLimit())
                try:
                    return await anext(stream)
                finally:
                    await stream.aclose()

            kind, data = _events(asyncio.run(first_frame()))[0]
            assert kind == "frame" and data["seat_names"] == ["gated", "greedy"]
            assert not running.done()
            bot.gate.set()
            assert running.result(WAIT_S * 2).termination == "normal"
    finally:
        bot.gate.set()
        harness.close()
