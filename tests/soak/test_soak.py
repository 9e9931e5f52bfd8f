"""Soak: 200 concurrent scripted bot streams on loopback play Tiny Ninjas against an arena process.

Bounded for CI (TOURNEY_SOAK_S seconds of play, default 45); run longer with e.g.
TOURNEY_SOAK_S=1800. Asserts that no match is lost (every RunMatch returns a finished record,
every record reached the arena's storage, both bots hear MatchEnded); prints the arena's RSS at
start and end and the decision latency p99 (timings are reported, never asserted).
"""

from __future__ import annotations

import os

import pytest

from tests.soak.soaklib import soak, table

pytestmark = pytest.mark.slow  # ./test.sh leaves it to CI (.ci/run runs every test)


def test_two_hundred_streams_lose_no_match() -> None:
    seconds = float(os.environ.get("TOURNEY_SOAK_S", "45"))
    report = soak(streams=200, seconds=seconds)
    print("\n" + table(report))
    assert report.matches >= 100  # every pair played at least once
    assert report.rpc_failures == 0
    assert report.lost == 0
    assert report.ended_mismatch == 0
    assert report.rss_start_kb > 0 and report.rss_end_kb > 0
    # Well-behaved bots finish their matches; a timeout here would be an arena stall (10 s per move).
    assert set(report.terminations) <= {"normal", "adjudication", "timeout"}
