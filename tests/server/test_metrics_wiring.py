"""The arena feeds the shared metrics: matches, decisions, faults, connected bots, RPCs."""

from __future__ import annotations

import json

from tests.server.bots import SilentBot
from tests.server.harness import WAIT_S, ArenaHarness
from tourney.engine.server import metrics as m
from tourney.engine.server.generated import arena_pb2 as pb


def _value(name: str, **labels: str) -> float:
    return m.REGISTRY.get_sample_value(name, labels) or 0.0


def test_arena_matches_and_rpcs_are_counted(harness: ArenaHarness) -> None:
    matches = _value("tourney_matches_total", game="sticks", reason="normal")
    timeouts = _value("tourney_matches_total", game="sticks", reason="timeout")
    decisions = _value("tourney_decisions_total", game="sticks")
    runs = _value("grpc_server_handled_total", grpc_type="unary", grpc_service="tourney.v1.Arena",
                  grpc_method="RunMatch", grpc_code="OK")
    harness.bot("counted")
    harness.bot("mute", SilentBot())
    assert _value("tourney_connected_bots") >= 2
    record = harness.run_match("sticks", ["remote:counted", "random"], seed=1)
    harness.run_match("sticks", ["remote:mute", "random"], seed=2, move_ms=100)
    harness.stub.ListGames(pb.ListGamesRequest(), timeout=WAIT_S)
    plies = len(json.loads(record.replay_json)["steps"])
    assert _value("tourney_matches_total", game="sticks", reason="normal") == matches + 1
    assert _value("tourney_matches_total", game="sticks", reason="timeout") == timeouts + 1
    assert _value("tourney_decisions_total", game="sticks") >= decisions + plies
    assert _value("grpc_server_handled_total", grpc_type="unary", grpc_service="tourney.v1.Arena",
                  grpc_method="RunMatch", grpc_code="OK") == runs + 2
