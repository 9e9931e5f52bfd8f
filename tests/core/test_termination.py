"""The one way to rank a forfeit or an adjudication (engine.core.termination)."""

from __future__ import annotations

import pytest

from tourney.engine.core import Outcome, Termination, adjudicated_draw, fault_reason, forfeit, termination_of


def test_a_forfeit_puts_the_seats_at_fault_last_and_everyone_else_first_together() -> None:
    lost = forfeit(4, (2,), "seat 2 crash")
    assert lost.ranking == ((0, 1, 3), (2,))
    assert lost.scores == (1.0, 1.0, 0.0, 1.0)
    assert [lost.points(s) for s in range(4)] == [pytest.approx(2 / 3)] * 2 + [0.0, pytest.approx(2 / 3)]
    assert lost.reason == "seat 2 crash"


def test_several_seats_at_fault_share_last_place() -> None:
    lost = forfeit(3, (2, 0), "offline: seat 0, seat 2")
    assert lost.ranking == ((1,), (0, 2))
    assert lost.points(1) == 1.0 and lost.points(0) == lost.points(2) == 0.25


def test_when_every_seat_is_at_fault_nobody_is_ranked_above_anyone() -> None:
    lost = forfeit(2, (0, 1), "offline: seat 0, seat 1")
    assert lost.ranking == ((0, 1),) and lost.scores == (0.0, 0.0)


def test_a_seat_outside_the_match_is_refused() -> None:
    with pytest.raises(ValueError, match="not all among the 2 players"):
        forfeit(2, (2,), "seat 2 crash")


def test_only_the_games_cap_makes_an_adjudication() -> None:
    assert termination_of(Outcome(((0,), (1,)), (1.0, 0.0), "cap")) is Termination.ADJUDICATION
    assert termination_of(Outcome(((0,), (1,)), (1.0, 0.0), "elimination")) is Termination.NORMAL


def test_a_stopped_match_is_a_draw_between_everyone() -> None:
    stopped = adjudicated_draw(3, "server time limit")
    assert stopped.ranking == ((0, 1, 2),) and stopped.scores == (0.0, 0.0, 0.0)


def test_fault_reasons_read_as_words_and_kinds_store_as_their_old_strings() -> None:
    assert fault_reason(1, Termination.ILLEGAL_MOVE) == "seat 1 illegal move"
    assert Termination.DISCONNECTION == "disconnection" and f"{Termination.TIMEOUT}" == "timeout"
