"""Attacks on RunMatches over real loopback gRPC: what a client without the admin token can hold."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator

import grpc
import pytest

from tests.security.siege import ADMIN, siege_arena
from tests.server.harness import WAIT_S, wait_for
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.generated import arena_pb2_grpc as pb_grpc

OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


def _silent(release: threading.Event) -> Iterator[pb.RunMatchRequest]:
    """A request stream that sends nothing until released (then ends)."""
    release.wait(WAIT_S)
    yield from ()


@pytest.mark.timeout(90)
def test_runmatches_streams_that_never_send_are_admitted_and_end_by_themselves() -> None:
    # Before: the arena waited for a RunMatches stream's first request before admitting it, with no
    # deadline, so streams that never sent one were never counted and never ended: a client without
    # the token held as many as its connections had streams, for as long as it liked.
    harness = siege_arena(good_bot=False, unauthenticated_calls=4, hello_timeout_s=1.0,
                          calls_per_connection=20, streams_per_connection=20)
    release = threading.Event()
    channel = grpc.insecure_channel(harness.address, options=OWN_CONNECTION)
    try:
        stub = pb_grpc.ArenaStub(channel)
        calls = [stub.RunMatches(_silent(release), timeout=WAIT_S) for _ in range(8)]
        most = 0

        def ended() -> bool:
            nonlocal most
            with harness.arena.admission.lock:
                most = max(most, harness.arena.admission.unauthenticated)
            return all(call.done() for call in calls)

        # Each ends well before the client's own deadline: refused past the cap, or cut at the deadline.
        assert wait_for(ended, WAIT_S / 2)
        codes = Counter(call.code().name for call in calls)
        assert set(codes) <= {"RESOURCE_EXHAUSTED", "DEADLINE_EXCEEDED"} and codes["RESOURCE_EXHAUSTED"] >= 1, codes
        assert most <= 4
        # The organiser still gets through, on a connection of its own, and nothing stays counted.
        with grpc.insecure_channel(harness.address, options=OWN_CONNECTION) as organiser:
            asks = [pb.RunMatchRequest(admin_token=ADMIN, game="sticks", seats=["random", "random"], seed=1)]
            records = list(pb_grpc.ArenaStub(organiser).RunMatches(iter(asks), timeout=WAIT_S))
        assert [r.termination for r in records] == ["normal"]
        assert wait_for(lambda: harness.arena.admission.unauthenticated == 0)
    finally:
        release.set()
        channel.close()
        harness.close()
