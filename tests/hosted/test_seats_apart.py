"""A hosted bot attacks the arena of its own match through its socket, to keep its opponent out.

Every connection over a Unix socket has the same gRPC peer ("unix:"), so while the seats of a match
shared one socket, the arena counted them all as one address and one connection: one seat's wrong
tokens locked the other out ("too many failed authentications from this address") and its silent
streams took the other's calls in flight. An honest opponent that took a moment to start then never
got in, and forfeited a match it should have played.
"""

from __future__ import annotations

import re

import pytest

from tests.hosted.conftest import Store
from tourney.engine.core import Termination
from tourney.workers import programs

pytestmark = [pytest.mark.timeout(120)]
PLAYED = (Termination.NORMAL, Termination.ADJUDICATION)


def test_wrong_tokens_from_one_seat_do_not_lock_out_its_opponent(hosted_store: Store) -> None:
    result = hosted_store.play("hosted:locker", "hosted:slow", move_ms=15_000)
    assert "ATTACK: refused too many failed authentications" in hosted_store.log("locker")  # it locked itself out
    assert result.termination in PLAYED, result.reason


def test_streams_held_by_one_seat_do_not_keep_its_opponent_out(hosted_store: Store) -> None:
    result = hosted_store.play("hosted:crowder", "hosted:slow", move_ms=15_000)
    assert "ATTACK: refused this connection has 8 calls in flight" in hosted_store.log("crowder")
    assert result.termination in PLAYED, result.reason


def test_a_seat_holds_few_connections_to_its_socket(hosted_store: Store) -> None:
    # Before: a private arena took 4,096 connections on each listener (as a public one does), about 17 KB
    # of the worker's memory each: one hosted bot, with its open files and processes, could make its match's
    # worker hold 70 MB of idle connections. A seat needs one; its socket now takes PROGRAM_CONNECTIONS.
    result = hosted_store.play("hosted:hoarder", "random")
    said = re.search(r"HOARDER: tried (\d+) answered (\d+)", hosted_store.log("hoarder"))
    assert said is not None, hosted_store.log("hoarder")
    tried, answered = int(said[1]), int(said[2])
    assert tried > programs.PROGRAM_CONNECTIONS  # the attack really asked for more than a seat's share
    assert 1 <= answered <= programs.PROGRAM_CONNECTIONS
    assert result.termination in PLAYED, result.reason
