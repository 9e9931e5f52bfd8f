"""Attacks on RunMatches over real loopback gRPC: what a client without the admin token can hold."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator

import grpc
import pytest

from tests.security.siege import ADMIN, peak_unauthenticated, siege_arena
from tests.server.bots import RecordingBot
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
        # Each ends well before the client's own deadline: refused past the cap, or cut at the deadline.
        finished, most = peak_unauthenticated(harness.arena, lambda: all(call.done() for call in calls), WAIT_S / 2)
        assert finished
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


@pytest.mark.timeout(120)
def test_a_cut_runmatches_stream_leaves_no_match_unfinished_and_no_seat_claimed() -> None:
    # The attack: the organiser's client cuts its stream with matches in flight. They are played out
    # (as a RunMatch whose caller hung up is), kept for GetMatch, and every seat they claimed is free again.
    harness = siege_arena(good_bot=False)
    try:
        harness.bot("slow", RecordingBot(seed=3, delay_s=0.1), max_concurrent_matches=4)
        release = threading.Event()

        def asks() -> Iterator[pb.RunMatchRequest]:
            for i in range(4):
                yield pb.RunMatchRequest(admin_token=ADMIN, game="sticks", seats=["remote:slow", "random"],
                                         seed=10 + i, match_id=f"cut-{i}")
            release.wait(WAIT_S)  # the stream stays open until it is cut

        kept = [f"cut-{i}" for i in range(4)]
        call = harness.stub.RunMatches(asks(), timeout=WAIT_S)
        assert wait_for(lambda: all(harness.arena.find_live(m) is not None for m in kept))  # all four started
        assert harness.arena.live_match_ids()  # the premise: some are still being played when the stream is cut
        call.cancel()
        release.set()
        assert wait_for(lambda: all(harness.arena.get_match(m) is not None for m in kept))
        assert not harness.arena.live_match_ids()
        assert [s.active for s in harness.arena.connected("slow")] == [0]
    finally:
        harness.close()
