"""A Play stream that sends junk before its Hello is held to the same budget as one that sends it after.

Before: the arena answered every message before a Hello with an ErrorReport, without limit, for the
whole Hello wait: 10,000 empty messages (5 bytes each, 50 KB in one HTTP/2 window) cost it 10,000
parses and answers (650 KB written back), where the same junk after a Hello is cut off at the
stream's bad-message burst.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
from collections.abc import Sequence

import grpc
import pytest

from tests.faults.faultlib import hello_bytes
from tests.security.good_match import moves
from tests.server.harness import WAIT_S, ArenaHarness
from tourney.engine.server.client import RandomBot
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb

pytestmark = [pytest.mark.timeout(180)]
BURST = 4
# A rate so slow that no token comes back while a test runs: the counts below are exact.
CONFIG = ArenaConfig(allow_anonymous=True, default_move_ms=5000, bad_message_burst=BURST, bad_messages_per_s=0.001)
JUNK = 1000


def _session(harness: ArenaHarness, messages: Sequence[bytes]) -> tuple[list[str], grpc.StatusCode | None, str]:
    """Send `messages` on one Play stream: the codes of the ErrorReports, and how the stream ended."""
    play = harness.channel.stream_stream("/tourney.v1.Arena/Play", request_serializer=lambda b: b,
                                         response_deserializer=pb.ArenaMessage.FromString)
    call = play(iter(messages), timeout=WAIT_S)
    codes: list[str] = []
    with contextlib.suppress(grpc.RpcError):
        codes.extend(m.error.code for m in call if m.WhichOneof("kind") == "error")
    return codes, call.code(), call.details() or ""


def _good_match(harness: ArenaHarness, seed: int) -> pb.MatchRecord:
    """A well-behaved bot's match (its moves from a seeded random bot) against a built-in."""
    harness.bot(f"good{seed}", RandomBot(seed=seed))
    return harness.run_match("sticks", [f"remote:good{seed}", "random"], seed=seed)


def test_junk_before_a_hello_is_cut_off_at_the_burst_and_a_good_match_plays_on() -> None:
    quiet = ArenaHarness(CONFIG)
    try:
        expected = _good_match(quiet, 11)
    finally:
        quiet.close()
    harness = ArenaHarness(CONFIG)
    try:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            flood = pool.submit(_session, harness, [b""] * JUNK)
            good = pool.submit(_good_match, harness, 11)
            codes, status, details = flood.result(WAIT_S * 2)
            record = good.result(WAIT_S * 2)
        assert codes == ["bad_hello"] * BURST + ["rate_limited"], codes[:8]
        assert status == grpc.StatusCode.RESOURCE_EXHAUSTED and details.startswith("rate_limited")
        # The good bot's match is the one it plays on a quiet arena: same moves, same result.
        assert record.termination == "normal" and moves(record) == moves(expected)
        assert list(record.ranks) == list(expected.ranks) and list(record.scores) == list(expected.scores)
    finally:
        harness.close()


def test_junk_before_and_after_the_hello_spends_one_budget() -> None:
    harness = ArenaHarness(CONFIG)
    try:
        before = BURST - 1
        codes, status, details = _session(harness, [b""] * before + [hello_bytes("late")] + [b""] * 3)
        assert codes == ["bad_hello"] * before + ["malformed"], codes  # the 5th useless message cuts it off
        assert status == grpc.StatusCode.RESOURCE_EXHAUSTED and details.startswith("rate_limited")
    finally:
        harness.close()
