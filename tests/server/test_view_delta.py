"""Hello.view_delta through a real arena: bots that set it get, request for request, views the SDK's
`SeatLogs` turns back into exactly what bots that did not set it get (which stay whole), in fewer
bytes where the game's view carries a log; a game without one (the test game Sticks; Ninja Arena shows only
the last tick's events) sends whole views either way."""

from __future__ import annotations

import json

import pytest
from tourney_bot.client import observation_dict
from tourney_bot.views import SeatLogs

from tests.faults.faultlib import RawBot, reply_bytes
from tests.server.harness import ArenaHarness, wait_for
from tourney.engine.server.generated import arena_pb2 as pb


def _first_legal(request: pb.ActionRequest) -> list[bytes]:
    return [reply_bytes(request.match_id, request.request_id, 0)]


def _play(harness: ArenaHarness, game: str, prefix: str, view_delta: bool) -> tuple[list[RawBot], str]:
    """One match of `game` (seed 11) between two bots that always play the first legal action."""
    bots = [RawBot(harness.address, f"{prefix}-{seat}", _first_legal, view_delta=view_delta) for seat in (0, 1)]
    record = harness.run_match(game, [f"remote:{prefix}-0", f"remote:{prefix}-1"], 11, move_ms=60_000)
    assert record.termination in ("normal", "adjudication"), record.reason
    assert wait_for(lambda: all(len(b.ended) == 1 for b in bots))
    return bots, record.match_id


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("game", "has_log"), [("tiny-ninjas", True), ("ninja-versus-ninja", True),
                                              ("maitre-ninja", True), ("sticks", False)])
def test_delta_views_rebuild_to_the_whole_views(harness: ArenaHarness, game: str, has_log: bool) -> None:
    whole_bots, _ = _play(harness, game, f"whole-{game}", False)
    delta_bots, match_id = _play(harness, game, f"delta-{game}", True)
    logs = SeatLogs()
    for seat in (0, 1):
        whole = [observation_dict(r.observation) for r in whole_bots[seat].requests]
        deltas = [observation_dict(r.observation) for r in delta_bots[seat].requests]
        assert len(whole) == len(deltas) > 0
        assert not any("view_delta" in view for view in whole), "a bot that did not ask gets whole views"
        assert all(("view_delta" in view) == has_log for view in deltas)
        rebuilt = [logs.whole(match_id, seat, json.loads(json.dumps(view))) for view in deltas]
        assert rebuilt == whole
        whole_bytes = sum(r.ByteSize() for r in whole_bots[seat].requests)
        delta_bytes = sum(r.ByteSize() for r in delta_bots[seat].requests)
        if has_log:
            assert delta_bytes < 0.9 * whole_bytes, (delta_bytes, whole_bytes)
        else:
            assert abs(delta_bytes - whole_bytes) < 64 * len(whole)  # only the bots' names differ
    for bot in whole_bots + delta_bots:
        bot.close()
