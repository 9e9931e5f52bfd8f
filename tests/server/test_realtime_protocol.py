"""Real time as clients/README.md writes it: requests carry no deadline (deadline_ms 0), and every
request that stops standing is announced with a RequestWithdrawn before the one replacing it."""

from __future__ import annotations

from tests.faults.faultlib import RawBot, reply_bytes
from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tests.server.test_realtime import FAST
from tourney.engine.server.generated import arena_pb2 as pb


def test_realtime_requests_have_no_deadline_and_superseded_ones_are_withdrawn(harness: ArenaHarness) -> None:
    watcher = RawBot(harness.address, "rt-watcher", lambda request: [])  # reads everything, never answers
    try:
        record: pb.MatchRecord = harness.stub.RunMatch(pb.RunMatchRequest(
            game="ninja-arena", seats=["remote:rt-watcher", "random"], seed=4, config_json=FAST, realtime=True),
            timeout=WAIT_S * 2)
        assert record.termination in ("normal", "adjudication"), record.reason
        assert wait_for(lambda: len(watcher.ended) == 1)
        stream = [m for m in watcher.received if m.WhichOneof("kind") in ("action_request", "withdrawn")]
        requests = [m.action_request for m in stream if m.WhichOneof("kind") == "action_request"]
        assert len(requests) >= 2, "the view changed while the match ran"
        assert {r.deadline_ms for r in requests} == {0}
        # Before each new request, the previous one was withdrawn (nothing was answered).
        open_request = None
        for message in stream:
            if message.WhichOneof("kind") == "action_request":
                assert open_request is None, f"request {open_request} was replaced without a RequestWithdrawn"
                open_request = message.action_request.request_id
            else:
                assert message.withdrawn.request_id == open_request and message.withdrawn.match_id == record.match_id
                open_request = None
        # Answering a withdrawn request changes nothing and says why.
        watcher.out.put(reply_bytes(record.match_id, requests[0].request_id, 0))
        assert wait_for(lambda: "unknown_request" in watcher.codes())
    finally:
        watcher.close()
